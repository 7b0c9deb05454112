"""Every number of the rulebooks is accounted for (data/claims/<game>_coverage.csv):
linked to claims rows that exist, or to a stated reason."""

import shutil

import pandas as pd
import pytest

from gamelab.cli import commands as cli
from gamelab.core import registry
from gamelab.rulebook import coverage
from gamelab.rulebook.claims import CLAIMS_DIR

GAMES = sorted(coverage.rulebooks())


def _seed_or_skip(game):
    path = coverage.seed_path(game)
    if not path.exists():
        pytest.skip(f"rulebook text {path} is not beside the checkout (../shared/seeds)")
    return path


@pytest.mark.parametrize("game", GAMES)
def test_every_line_with_a_number_is_accounted_for(game):
    _seed_or_skip(game)
    assert coverage.problems(registry.get(game)) == []
    s = coverage.summary(registry.get(game)).set_index("section")
    assert s.loc["all", "unaccounted"] == 0
    assert s.loc["all", "lines"] == s.loc["all", "checked"] + s.loc["all", "explained"]
    # the file covers exactly the lines the detection rule finds, nothing more
    lines = coverage.rulebook_lines(registry.get(game))
    cov = coverage.load_coverage(game)
    assert sorted(cov["line"]) == sorted(lines["line"])
    assert s.loc["all", "lines"] == len(lines) > 300
    # most lines are checked by rows, not explained away
    assert s.loc["all", "checked"] > 2 * s.loc["all", "explained"]


def test_numbers_in_is_the_detection_rule():
    assert coverage.numbers_in("18 拍 × 牌面均值 3.0 = 54 点") == ["18", "3.0", "54"]
    assert coverage.numbers_in("①🛣 ②🛣 ㉑↩ ㊿↩ ➎ 5") == ["①", "②", "㉑", "㊿", "➎", "5"]
    assert coverage.numbers_in("全角 １２ 张") == ["１２"]
    # Chinese numerals: ordinals and numerals before a measure word; a lone 一 is the article
    assert coverage.numbers_in("第三段各 3 个，两人都是 3") == ["第三", "3", "两", "3"]
    assert coverage.numbers_in("一张牌，一个人，三、二、一，两端") == []
    assert coverage.numbers_in("十一年，八回合") == ["十一", "八"]


def _copy_claims(tmp_path):
    d = tmp_path / "claims"
    shutil.copytree(CLAIMS_DIR, d)
    return d


def _edit(directory, game, line, **cells):
    path = coverage.coverage_path(game, directory)
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    for k, v in cells.items():
        df.loc[df["line"] == str(line), k] = v
    df.to_csv(path, index=False)


@pytest.mark.parametrize("game", GAMES)
def test_a_dropped_line_or_a_bad_link_is_caught(game, tmp_path):
    _seed_or_skip(game)
    d = _copy_claims(tmp_path)
    cov = coverage.load_coverage(game, d)
    checked = cov[cov["rows"] != ""].iloc[5]
    explained = cov[cov["rows"] == ""].iloc[5]
    # drop one line: it is unaccounted
    path = coverage.coverage_path(game, d)
    cov[cov["line"] != checked["line"]].to_csv(path, index=False)
    bad = coverage.problems(registry.get(game), directory=d)
    assert len(bad) == 1 and f"line {checked['line']} " in bad[0] and "neither rows nor a reason" in bad[0]
    assert coverage.summary(registry.get(game), directory=d).set_index("section").loc["all", "unaccounted"] == 1
    shutil.copy(CLAIMS_DIR / path.name, path)
    # a row that does not exist
    _edit(d, game, checked["line"], rows=checked["rows"] + "; no_such_row")
    assert any("no claims row 'no_such_row'" in p for p in coverage.problems(registry.get(game), directory=d))
    shutil.copy(CLAIMS_DIR / path.name, path)
    # an empty explanation, an unknown category, an 'elsewhere' naming no checked line
    for reason in ("flavour:", "because: it is fine", f"elsewhere: line {explained['line']}"):
        _edit(d, game, explained["line"], reason=reason)
        assert len(coverage.problems(registry.get(game), directory=d)) == 1, reason
    # the numbers of a line changed under the file (the seed edited, or the rule)
    _edit(d, game, explained["line"], reason=explained["reason"], numbers="999")
    assert any("the rulebook now has" in p for p in coverage.problems(registry.get(game), directory=d))


def test_the_claims_audit_does_not_read_the_coverage_files():
    from gamelab.rulebook.claims import load_claims

    assert not load_claims()["source"].str.contains("coverage").any()


def test_cli_coverage(capsys, monkeypatch, tmp_path):
    for game in GAMES:
        _seed_or_skip(game)
    assert cli.main(["claims", "--coverage"]) == 0
    out = capsys.readouterr().out
    for game in GAMES:
        assert f"{game} (" in out and "0 unaccounted" in out
    assert "appendix B" in out and "7.2" in out
    monkeypatch.setenv("GAMELAB_SEEDS", str(tmp_path))
    assert cli.main(["claims", "--coverage", "--games", "sbr"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.count("\n") == 0 and "rulebook text not found" in out and str(tmp_path) in out
