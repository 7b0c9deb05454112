"""The rulebook sentences whose number no longer holds under new rules
(``gamelab claims GAME --params FILE``)."""

import json

import pytest

from gamelab.cli import commands as cli
from gamelab.core import registry
from gamelab.rulebook import coverage, sentences
from gamelab.sbr.rules import SbrParams
from gamelab.strand.rules import StrandParams


@pytest.fixture(autouse=True)
def _seeds():
    for game in coverage.rulebooks():
        if not coverage.seed_path(game).exists():
            pytest.skip(f"rulebook text {coverage.seed_path(game)} is not beside the checkout")


def _by_line(table):
    return {(int(r.line), r.quantity): r for r in table.itertuples() if r.line == r.line}


@pytest.mark.parametrize("game, params", [("sbr", SbrParams()), ("strand", StrandParams())])
def test_the_rulebooks_parameters_change_nothing(game, params):
    table, counts = sentences.changed_sentences(registry.get(game), params)
    assert table.empty
    assert counts["rows_hold"] == counts["rows"] > 250 and counts["lines_hold"] == counts["lines"] > 200


def test_sum_cap_6_lists_the_pairing_marks_and_partner_counts():
    table, counts = sentences.changed_sentences(registry.get("strand"), StrandParams(sum_cap=6))
    got = _by_line(table)
    # 5.1's pairing table: the ✅ of 2+5, 3+4, 4+3, 5+2 (sum 7) become overweight
    for line, q in ((157, "pair_full_2_5"), (158, "pair_full_3_4"), (159, "pair_full_4_3"), (160, "pair_full_5_2")):
        assert (got[(line, q)].printed, got[(line, q)].new) == ("1", 0), q
    assert (157, "pair_full_1_5") not in got  # 1 + 5 = 6 still crosses in full
    # the cap itself, wherever it is printed
    assert {152, 295, 503, 584, 769, 794} <= {n for n, q in got if q == "sum_cap"}
    assert got[(152, "sum_cap")].new == 6 and got[(296, "overweight_from")].new == 7
    # appendix A identity ①: partners and chances of each cargo value
    assert (got[(659, "partners_5")].printed, got[(659, "partners_5")].new) == ("2", 1)
    assert (got[(659, "fit_5_pct")].printed, got[(659, "fit_5_pct")].new) == ("40", 20)
    assert got[(650, "pairable_rate")].new == pytest.approx(15 / 25)
    # identity ②'s thresholds assume a partner of 1 (1 + 5 = 6 still fits): by the rules they do not move
    assert not any(q.startswith("p_star_") for _, q in got)
    # the worked example replayed under the new cap: round 2's 3 + 4 = 7 is overweight now
    assert got[(355, "sum_cap")].new == 6 and got[(357, "ex_r2_total_3")].new != 13
    # rows that no longer hold (several rows may share a figure): each listed figure is one of them
    assert counts["rows"] - counts["rows_hold"] >= table["quantity"].nunique() > 20


def test_a_curve_penalty_lists_the_movement_sentences():
    table, _ = sentences.changed_sentences(registry.get("sbr"), SbrParams(curve_penalty=3))
    got = _by_line(table)
    for line in (69, 70, 132, 201, 202, 319, 380, 691):
        assert got[(line, "curve_extra_cost")].new == 3, line
    # "当作「3 步」" (a 5 through a curve) moves 2 squares now ...
    assert (got[(202, "five_through_one_curve")].printed, got[(202, "five_through_one_curve")].new) == ("3", 2)
    # ... so 5.1's "5 − 1 − 2 = 2 格" and 8.1's "弯道上打 5 = 走 2 格" (errata 1) hold now: not listed
    assert (206, "five_through_one_curve") not in got and (517, "five_through_one_curve") not in got
    assert "额外消耗 2 点移动力" in got[(132, "curve_extra_cost")].sentence


def test_cli_json_and_rewrite(tmp_path, capsys):
    params = tmp_path / "cap.json"
    params.write_text('{"sum_cap": 6}')
    md = tmp_path / "todo.md"
    assert cli.main(["claims", "strand", "--params", str(params), "--json", "--rewrite", str(md)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["params"] == {"sum_cap": 6} and out["rows"] - out["rows_hold"] >= len(
        {s["quantity"] for s in out["sentences"]}
    )
    assert {"line": 152, "quantity": "sum_cap", "new": 6.0}.items() <= next(
        s for s in out["sentences"] if s["line"] == 152 and s["quantity"] == "sum_cap"
    ).items()
    text = md.read_text(encoding="utf-8")
    assert "## 5.1" in text and "- [ ] line 152:" in text and "printed **7**, now **6**" in text
    assert cli.main(["claims", "strand", "--params", str(params)]) == 0
    assert "rulebook sentences to update" in capsys.readouterr().out


def test_cli_needs_a_game(tmp_path, capsys):
    params = tmp_path / "cap.json"
    params.write_text('{"sum_cap": 6}')
    assert cli.main(["claims", "--params", str(params)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "need a game" in err
    assert cli.main(["claims", "strand", "--params", str(tmp_path / "missing.json")]) == 2


def test_the_report_section_shows_when_the_rules_change():
    from gamelab.core import registry
    from gamelab.report.compute import rulebook_sentences
    from gamelab.report.sentences import sentences_section

    game = registry.get("strand")
    assert rulebook_sentences(game, game.knobs()) is None
    assert sentences_section(None, "strand") is None
    sec = sentences_section(rulebook_sentences(game, game.knobs(sum_cap=6)), "strand")
    assert sec.title == "Rulebook sentences to update"
    assert "Under sum cap = 6," in sec.blocks[0].body and "关键规则" in sec.blocks[1].body  # the rule in words


def test_simulated_figures_with_their_interval():
    # curve penalty 3 makes the race slower: appendix A's figures are measured at both rules
    table, counts = sentences.changed_sentences(
        registry.get("sbr"), SbrParams(curve_penalty=3), simulate=dict(n_games=600, seed=0, workers=1)
    )
    sim = table[table["quantity"].str.contains("/")]
    assert len(sim) > 0 and set(sim["line"]) <= set(range(627, 645)) | {540, 541, 542, 543, 577}
    assert ((sim["low"] <= sim["new"]) & (sim["new"] <= sim["high"])).all()
    assert table.loc[~table["quantity"].str.contains("/"), "low"].isna().all()
    assert counts["rows"] == 415 + 56


@pytest.mark.parametrize("game", ["sbr", "strand"])
def test_a_profile_changes_no_rulebook_sentence(game):
    # a fitted profile changes the agents' knobs only: the rules, and so every exact figure, stay
    from gamelab.core import registry
    from gamelab.models.profile import apply, load_profile

    params = apply(load_profile(f"data/profiles/{game}.yaml"), registry.get(game).knobs())
    assert params.changed()
    g = registry.get(game)
    assert sentences.exact_values(g, params) == sentences.exact_values(g)
    assert g.rulebook.claims.exact_claims(params) == sentences.exact_values(g)
