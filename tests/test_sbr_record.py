"""STEEL BALL RUN playtest replay: the rulebook's seed-152 example and bad records."""

import json
import re
from pathlib import Path

import pytest

from gamelab.cli import commands as cli
from gamelab.core.errors import RecordError
from gamelab.rulebook import playtest

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "playtests" / "sbr_example.json"


def example():
    return playtest.load_record(EXAMPLE)


def test_example_replays_with_exactly_the_rulebooks_spin_slip():
    """Beats 1-6 of section 7 follow the rules to the square and the point; the
    one difference is 7.4's '总0→0' for 乔尼 (he holds the 1 spin the beat-2
    river gave him, and spends it in beat 3)."""
    ledger = playtest.replay(example())
    assert ledger["mismatches"] == [{"key": "spin", "index": [1, 0], "expected": 0, "actual": 1}]
    b = ledger["beats"]
    assert [x["positions"] for x in b] == [
        [3, 3, 3, 3],
        [10, 8, 8, 8],
        [14, 13, 13, 14],
        [16, 16, 16, 17],
        [18, 20, 20, 21],
        [22, 26, 22, 24],
    ]
    assert b[2]["order"] == ["杰洛", "迪亚哥", "露西", "乔尼"]
    assert b[3]["order"] == ["杰洛", "迪亚哥", "乔尼", "露西"]
    assert [x["spin"] for x in b] == [
        [0, 0, 0, 0],
        [1, 2, 2, 2],
        [0, 0, 0, 0],
        [0, 0, 0, 1],
        [3, 1, 1, 0],
        [2, 0, 1, 0],
    ]
    assert [m["relic"] for x in b for m in x["moves"] if m["relic"]] == ["heart", "spine", "eye", "heart"]
    assert [s["distance"] for s in ledger["segments"]] == [[14, 13, 13, 14], [8, 13, 9, 10]]
    assert ledger["final"]["complete"] is False and ledger["final"]["total"] is None


def test_cli_prints_tables_and_json(capsys):
    assert cli.main(["replay", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Segment points" in out and "spin[1][0]: record says 0, rules give 1" in out
    assert cli.main(["replay", str(EXAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["segments"][1]["points"] == [1, 5, 2, 3] and len(data["mismatches"]) == 1


def _bad(rec, match):
    with pytest.raises(RecordError, match=match):
        playtest.replay(rec)


def test_bad_cards_and_spin():
    r = example()
    r["beats"][0]["乔尼"]["card"] = 6
    _bad(r, r"beat 1, player 乔尼: card 6 is not a drive card \(section 5.1: drive cards are 1-5\)")
    r = example()
    r["beats"][2]["杰洛"]["spin"] = 3
    _bad(r, r"beat 3, player 杰洛: spends 3 spin \(section 5.2: at most 2 spin per beat\)")
    r = example()
    r["beats"][0]["露西"]["spin"] = 1
    _bad(r, r"beat 1, player 露西: spends 1 spin but holds 0 \(section 5.2: spin not held\)")
    fives = {
        "game": "sbr",
        "variant": "no_relics",
        "players": ["A", "B"],
        "beats": [{"A": {"card": 5}, "B": {"card": c}} for c in (1, 1, 1, 1, 2)],
    }
    _bad(fives, r"beat 5, player A: card 5: no 5 left to play \(card 5 of that value\) \(section 5.1")


def test_bad_seals():
    r = example()
    r["beats"][2]["乔尼"]["seal"] = 4
    _bad(r, r"beat 3, player 乔尼: seal 4 squares behind \(section 5.3: a seal goes 1-3 squares behind")
    r = example()
    r["beats"][0]["乔尼"]["seal"] = 1
    _bad(r, r"beat 1, player 乔尼: seal on square -1, off the track")
    r = example()
    r["beats"][3]["杰洛"]["seal"] = 1
    r["beats"][3]["迪亚哥"]["seal"] = 1
    _bad(r, r"beat 4, player 迪亚哥: seal on square 12, which already holds a seal")
    two = {
        "game": "sbr",
        "players": ["A", "B"],
        "relics": {"4": "spine"},
        "beats": [
            {"A": {"card": c, "seal": s}, "B": {"card": b}}
            for c, s, b in [(2, 0, 5), (1, 1, 5), (1, 1, 1), (1, 1, 1), (1, 1, 1), (2, 1, 1)]
        ],
    }
    _bad(two, r"beat 6, player A: places seal number 5 \(section 5.3: 4 seals per player\)")
    two["beats"] = two["beats"][:5]
    assert playtest.replay(two)["beats"][4]["positions"] == [6, 11]


def test_unknown_relic_finished_rider_and_names():
    r = example()
    del r["relics"]["13"]
    _bad(r, r"beat 3, player 杰洛: stops on relic square 13, but 'relics' does not say")
    r = example()
    r["beats"][0]["Dio"] = {"card": 1}
    _bad(r, r"beat 1: 'Dio' is not in 'players'")
    r = example()
    r["beats"][0]["乔尼"]["retrieve"] = 3
    _bad(r, r"beat 1, player 乔尼: retrieves a 3 without revealing a skull")
    r = example()
    r["relics"]["29"] = "heart"
    r["relics"]["32"] = "heart"
    _bad(r, r"relics: 4 heart relics, the game has 3")
    tiny = {
        "game": "sbr",
        "players": ["A", "B"],
        "params": {"board": ["straight"] * 4 + ["finish"]},
        "beats": [{"A": {"card": 5}, "B": {"card": 1}}, {"A": {"card": 1}, "B": {"card": 1}}],
    }
    _bad(tiny, r"beat 2, player A: acts after reaching the finish \(FAQ Q13")
    tiny["beats"][1] = {"B": {"card": 5}}
    led = playtest.replay(tiny)
    assert led["final"]["complete"] and led["final"]["winners"] == ["A"]
    # both finished in beat 2: the empty beats 3-18 are played out, every
    # segment tie (distance, position, relics) falls to the seat
    assert led["final"]["total"] == [6 * 5 + 10, 6 * 3 + 6]
    # the record names B as start player: under seat_order from_start every tie is his
    tiny.update(start="B", params={**tiny["params"], "seat_order": "from_start"})
    led = playtest.replay(tiny)
    assert led["beats"][0]["order"] == ["B", "A"]
    assert led["final"]["winners"] == ["B"] and led["final"]["total"] == [6 * 3 + 6, 6 * 5 + 10]


def test_bad_params_and_variant():
    r = example()
    r["params"] = {"curve_penalti": 3}
    _bad(r, r"unknown parameter 'curve_penalti' \(did you mean curve_penalty")
    r = example()
    r["variant"] = "rally"
    _bad(r, r"variant 'rally' is unknown")


def test_every_racing_rider_acts_every_beat():
    """Playing a card is compulsory (6.2): a beat that leaves out a rider
    still racing is refused, naming the beat and the rider."""
    r = example()
    del r["beats"][3]["迪亚哥"]
    _bad(r, r"^beat 4, player 迪亚哥: does not act, though still racing \(section 6.2: playing a card is compulsory\)$")


def test_relic_square_written_twice_is_refused():
    r = example()
    r["relics"]["07"] = "spine"
    _bad(r, r"relics: '7' and '07' are the same square 7")
    r = example()
    r["relics"][" 13"] = "spine"
    _bad(r, r"relics: '13' and ' 13' are the same square 13")
    r = example()
    r["relics"]["1_3"] = "spine"  # int() would read 13
    _bad(r, r"relics: '1_3' is not a square number")


@pytest.mark.parametrize("key,value", [("seal", ""), ("seal", []), ("seal", None), ("retrieve", ""), ("retrieve", [])])
def test_empty_action_values_are_errors_not_absent(key, value):
    r = example()
    r["beats"][0]["乔尼"][key] = value
    _bad(r, re.escape(f"beat 1, player 乔尼: {key} {value!r} is not"))


def test_player_names_must_differ_after_normalisation():
    r = example()
    r["players"][2] = r["players"][0]
    _bad(r, r"'players': the name '乔尼' appears twice")
    two = {"game": "sbr", "players": ["Ann", "ＡＮＮ "], "beats": [{"Ann": {"card": 1}, "ＡＮＮ ": {"card": 1}}]}
    _bad(two, r"'players': 'Ann' and 'ＡＮＮ ' are the same name once case, width and spaces are ignored")


@pytest.mark.parametrize(
    "change,match",
    [
        ({"game": ["sbr"]}, r"^game: input should be a valid string \(got \['sbr'\]\)$"),
        ({"variant": ["standard"]}, r"^variant: input should be a valid string"),
        ({"params": "curve_penalty: 3"}, r"^params: input should be a valid dictionary"),
        ({"params": []}, r"^params: input should be a valid dictionary \(got \[\]\)$"),
        ({"params": ""}, r"^params: input should be a valid dictionary"),
        ({"expect": ""}, r"^expect: input should be a valid dictionary"),
        ({"beats": {"1": {}}}, r"^beats: input should be a valid list"),
        ({"players": ["乔尼", 7, "迪亚哥", "露西"]}, r"^players\[1\]: input should be a valid string"),
    ],
)
def test_record_structure_is_checked_before_the_rules(change, match):
    r = example()
    r.update(change)
    _bad(r, match)


def test_refusals_from_a_file_name_the_file(tmp_path, capsys):
    r = example()
    del r["beats"][0]["露西"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(r, ensure_ascii=False), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    rule = "(section 6.2: playing a card is compulsory)"
    assert err == f"gamelab replay: error: {path}: beat 1, player 露西: does not act, though still racing {rule}\n"
