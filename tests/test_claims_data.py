"""The published tables are transcribed completely and consistently."""

import pytest

from gamelab.rulebook.claims import load_claims


def test_tables_are_complete():
    c = load_claims()
    assert set(c["game"]) == {"sbr", "strand"}
    sizes = c.groupby("source").size().to_dict()
    assert sizes == {
        "sbr_appendix_a_scores.csv": 4 * 6,
        "sbr_appendix_a_race.csv": 4 * 8,
        "strand_appendix_b_styles.csv": 6 * 4,
        "strand_appendix_b_roles.csv": 3 + 4 + 5 + 6,
        "strand_appendix_b_diagnostics.csv": 5 * 4,
        "strand_faq_q10.csv": 2 * 4,
        "sbr_rules.csv": 415,
        "strand_rules.csv": 289,
    }


def test_rules_tables_name_a_quantity_on_every_row():
    c = load_claims()
    rules = c["source"].str.endswith("_rules.csv")
    assert (c.loc[rules, "quantity"].str.len() > 0).all()
    assert (c.loc[~rules, "quantity"].fillna("") == "").all()
    assert c["printed"].astype(float).equals(c["value"])


@pytest.mark.parametrize("table", ["styles", "roles"])
def test_strand_win_shares_sum_to_one_game(table):
    # every published column of win shares sums to 100 % up to the table's rounding
    c = load_claims("strand")
    sums = c[c["table"] == table].groupby("column")["value"].sum()
    assert ((sums - 100).abs() <= 0.15).all(), sums


def test_q10_per_player_is_per_game_over_players():
    q = load_claims("strand").query("section == 'FAQ Q10'")
    for p in (3, 4, 5, 6):
        cell = q[q["row"] == f"{p} players"].set_index("column")["value"]
        assert cell["per_player"] == pytest.approx(cell["per_game"] / p, abs=0.01)
