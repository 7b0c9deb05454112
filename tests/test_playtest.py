"""Shared replay plumbing: loading files, comparing claims, CLI errors."""

import json

import pytest

from gamelab.cli import commands as cli
from gamelab.core.errors import RecordError
from gamelab.rulebook import playtest


def test_compare_lists_only_differences():
    expect = {"totals": [[1, 2], [3, 4]], "final": [9, 9]}
    observed = {"totals": [[1, 2], [3, 5], [6, 7]], "final": [9, 8], "lone": [0, 0]}
    mism = playtest.compare(expect, observed)
    assert mism == [
        {"key": "totals", "index": [1, 1], "expected": 4, "actual": 5},
        {"key": "final", "index": [1], "expected": 9, "actual": 8},
    ]


def test_compare_rejects_unknown_key():
    with pytest.raises(RecordError, match="unknown key 'score'"):
        playtest.compare({"score": 1}, {"final": 1})


def test_bad_files_are_one_line_errors(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert cli.main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not valid JSON (line 1" in err and "Traceback" not in err
    assert cli.main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    other = tmp_path / "other.yaml"
    other.write_text("game: chess\n")
    assert cli.main(["replay", str(other)]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    lst = tmp_path / "list.json"
    lst.write_text(json.dumps([1, 2]))
    with pytest.raises(RecordError, match="mapping"):
        playtest.load_record(lst)


def test_identities_command_and_parameter_file_errors(tmp_path, capsys):
    good = tmp_path / "p.yaml"
    good.write_text("sum_cap: 8\n")
    assert cli.main(["identities", "strand", "--params", str(good)]) == 0
    out = capsys.readouterr().out
    assert "with sum cap = 8 (the rest as the rulebook)" in out and "reference (rules changed)" in out
    assert "differs by +0.12" not in out
    bad = tmp_path / "bad.json"
    bad.write_text('{"lone_penalty": -1}')
    assert cli.main(["identities", "strand", "--params", str(bad)]) == 2
    assert "lone_penalty = -1 is out of range" in capsys.readouterr().err
    typo = tmp_path / "typo.json"
    typo.write_text('{"curve_penalti": 3}')
    assert cli.main(["identities", "sbr", "--params", str(typo)]) == 2
    assert "unknown parameter 'curve_penalti' (did you mean curve_penalty," in capsys.readouterr().err


def test_identities_with_fraction_values_print(tmp_path, capsys):
    """Unequal relic counts make exact values Fractions: they print like floats."""
    path = tmp_path / "p.json"
    path.write_text('{"relic_counts": [3, 3, 3, 4]}')
    assert cli.main(["identities", "sbr", "--params", str(path)]) == 0
    assert "relic counts = 3, 3, 3, 4" in capsys.readouterr().out


@pytest.mark.parametrize(
    "text,suffix,match",
    [
        ('{"game": "sbr", "game": "pig"}', ".json", "the key 'game' appears twice in one mapping"),
        ("game: sbr\nplayers: [a]\ngame: pig\n", ".yaml", "line 3: the key 'game' appears twice"),
        ('{"game": "sbr", "relics": {"7": "heart", "7": "eye"}}', ".json", "the key '7' appears twice"),
    ],
)
def test_duplicate_keys_in_a_file_are_refused(tmp_path, text, suffix, match):
    path = tmp_path / f"r{suffix}"
    path.write_text(text)
    with pytest.raises(RecordError, match=match):
        playtest.load_record(path)


def test_name_key_and_check_names():
    assert playtest.name_key(" Ａnn  Lee ") == playtest.name_key("ann lee")
    playtest.check_names(["Ann", "Anna", "乔尼"])
    with pytest.raises(RecordError, match="'players': the name '' is empty or only spaces"):
        playtest.check_names(["Ann", ""])
    with pytest.raises(RecordError, match="reads as the reserved word 'stay'"):
        playtest.check_names(["STAY"], reserved=("stay",))
    with pytest.raises(RecordError, match="holds a control character or a line break"):
        playtest.check_names(["Ann", "\x00\n\t"])
    with pytest.raises(RecordError, match="are the same name"):
        playtest.check_names(["Ann", "An\u200bn"])
