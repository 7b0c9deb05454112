"""The worked example, bad records, parameter validation, seeds."""

import json

import numpy as np
import pytest
from strand_helpers import rec, run

from gamelab.cli import commands as cli
from gamelab.core.errors import ParamError, RecordError
from gamelab.rulebook import playtest
from gamelab.strand import agents, engine, sim
from gamelab.strand.rules import StrandParams, check_players, params_for_variant

EXAMPLE = "data/playtests/strand_example.json"


def test_worked_example_replays_with_zero_mismatches():
    led = playtest.replay_file(EXAMPLE)
    assert led["mismatches"] == []
    assert led["final"]["total"] == [42, 26, 39, 51] and led["final"]["winners"] == ["老骡"]
    assert [r["totals"] for r in led["rounds"]][-1] == [44, 28, 41, 53]
    r7 = led["rounds"][6]  # both teams sum 6; 阿巡's 5 outweighs 小豆's 4 (section 5.4 rule 3)
    assert r7["node"] == {"segment": 7, "points": 7, "players": ["阿巡", "老骡"]}
    assert [r["segment"] for r in led["rounds"]] == list(range(2, 10))


def test_example_claims_are_checked():
    record = playtest.load_record(EXAMPLE)
    record["expect"]["final"] = [42, 26, 39, 50]
    assert playtest.replay(record)["mismatches"] == [{"key": "final", "index": [3], "expected": 50, "actual": 51}]


def test_cli_prints_tables_and_json(capsys):
    assert cli.main(["replay", EXAMPLE]) == 0
    out = capsys.readouterr().out
    assert "Totals (gross, cumulative)" in out and "Mismatches with the record's expect: none" in out
    assert cli.main(["replay", EXAMPLE, "--json"]) == 0
    led = json.loads(capsys.readouterr().out)
    assert led["rounds"][3]["teams"] == [["小豆", "芙蕾"]] and led["final"]["lone"] == [1, 1, 1, 1]


def test_yaml_record(tmp_path):
    import yaml

    path = tmp_path / "r.yaml"
    path.write_text(yaml.safe_dump(rec("A B C", [("1 2 3", "B A -")]), allow_unicode=True))
    assert playtest.replay_file(path)["final"]["total"] == [4, 5, 0]


BAD = [
    (("A B C D", [("1 2 3 4", "A A D C")]), "round 1, player A: a rope to oneself"),
    (("A B C D", [("1 2 3 4", "B A E C")]), "round 1, player C: rope target 'E' is not in players"),
    (("A B C D", [("1 2 6 4", "B A D C")]), "round 1, player C: cargo 6 is not a card value 1-5"),
    (("A B C D", [("1 2 3 4", "B A D C"), ("0 2 3 4", "B A D C")]), "round 2, player A: cargo 0"),
    (("A B C D", [("1 2 3 4", "B A D C", {"A": "porter"})]), "round 1, player A: uses the porter power without"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_records_are_refused(args, message):
    with pytest.raises(RecordError, match=message):
        run(*args)


def test_missing_player_and_unknown_names():
    record = rec("A B C D", [("1 2 3 4", "B A D C")])
    del record["rounds"][0]["cargo"]["D"]
    with pytest.raises(RecordError, match=r"round 1, player D: no cargo revealed \(section 6.2"):
        playtest.replay(record)
    record = rec("A B C D", [("1 2 3 4", "B A D C")])
    del record["rounds"][0]["ropes"]["B"]
    with pytest.raises(RecordError, match="round 1, player B: no rope shown"):
        playtest.replay(record)
    record = rec("A B C D", [("1 2 3 4", "B A D C")])
    record["rounds"][0]["cargo"]["Z"] = 3
    with pytest.raises(RecordError, match="round 1, player Z: player 'Z' is not in players"):
        playtest.replay(record)


def test_seven_players_refused():
    with pytest.raises(RecordError, match=r"n_players = 7 is out of range: expected int in 3\.\.6"):
        run("A B C D E F G", [("1 1 1 1 1 1 1", "B A D C F E -")])


def test_bad_record_prints_nothing(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec("A B C D", [("1 2 3 4", "B A D C"), ("1 2 3 4", "B B D C")])))
    assert cli.main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "round 2, player B: a rope to oneself" in err and "Traceback" not in err


def test_hidden_hands_accept_any_revealed_cargo():
    """Hands are hidden at the table: five 5s in a row cannot be checked."""
    led = run("A B C", [("5 1 1", "B A -")] * 8)
    assert led["final"]["gross"][0] == 8 * 5 + sum(StrandParams().node_values)
    st = engine.init(StrandParams(), 1, 3, engine.replay_chance(StrandParams(), 1, 3))
    assert not st.tracked and engine.legal(StrandParams(), st)[0, 0, :5].all()


# --- parameters ---------------------------------------------------------------
@pytest.mark.parametrize(
    "kw,message",
    [
        ({"sum_cap": 1}, r"sum_cap = 1 is out of range: expected int in 2\.\.10"),
        ({"node_values": (3, 4, 5)}, "node_values has 3 items but rounds = 8"),
        ({"hand_size": 6}, r"hand_size = 6 is above max_hand = 5"),
        ({"half_rounding": "nearest"}, "half_rounding = 'nearest' is not allowed"),
        ({"rain_cards": ("acid", "snow")}, "rain_cards has unknown card"),
    ],
)
def test_invalid_parameters(kw, message):
    with pytest.raises(ParamError, match=message):
        StrandParams(**kw)


def test_player_count():
    with pytest.raises(ParamError, match=r"n_players = 7 is out of range: expected int in 3\.\.6"):
        check_players(StrandParams(), 7)
    with pytest.raises(ParamError, match="n_players = 2"):
        engine.init(StrandParams(), 1, 2, engine.replay_chance(StrandParams(), 1, 2))
    with pytest.raises(ParamError, match="n_players = 5 cannot play variant E"):
        check_players(params_for_variant("teams"), 5)
    check_players(params_for_variant("teams"), 6)


def test_defaults_are_the_rulebooks():
    p = StrandParams()
    assert (p.sum_cap, p.node_values, p.rounds, p.lone_penalty, p.hand_size, p.max_hand) == (
        7,
        (3, 4, 4, 5, 5, 6, 7, 8),
        8,
        2,
        3,
        5,
    )
    assert p.cargo_counts == (12,) * 5 and p.half_rounding == "up" and p.node_award == "each"


# --- seeds ----------------------------------------------------------------------
def test_same_seed_same_game():
    p = StrandParams()
    pol = [agents.random_policy] * 5
    a = sim.play_policies(p, pol, 300, np.random.default_rng(11), 5, roles="random")
    b = sim.play_policies(p, pol, 300, np.random.default_rng(11), 5, roles="random")
    c = sim.play_policies(p, pol, 300, np.random.default_rng(12), 5, roles="random")
    for k in a:
        assert np.array_equal(a[k], b[k]), k
    assert not np.array_equal(a["score"], c["score"])


def test_play_outputs():
    p = StrandParams()
    out = sim.play_policies(p, [agents.random_policy] * 4, 1000, np.random.default_rng(2), 4)
    assert out["score"].shape == (1000, 4) and np.allclose(out["win"].sum(1), 1)
    assert (out["rank"].min(1) == 1).all()
    assert (out["score"] == out["gross"] - 2 * out["lone"]).all()
    assert (out["final_seg"] == out["formed_rounds"]).all()
    teams = sim.play_policies(p.replace(teams=True), [agents.random_policy] * 6, 200, np.random.default_rng(2), 6)
    assert np.allclose(teams["win"].sum(1), 2)


def test_a_player_named_like_the_stay_rope_is_refused():
    """A player called "stay" would turn every rope to him into a stay."""
    record = rec("A B C D", [("1 2 3 4", "B A D C")])
    record["players"][2]["name"] = " Stay"
    with pytest.raises(RecordError, match=r"'players': the name ' Stay' reads as the reserved word 'stay'"):
        playtest.replay(record)


def test_a_role_dealt_twice_names_both_seats():
    with pytest.raises(RecordError, match=r"player C: role bb is dealt to seat 2 \(B\) and seat 3 \(C\) \(section 5.5"):
        run("A B:bb C:bb D", [("1 2 3 4", "B A D C")])


def test_names_equal_after_normalisation_and_list_valued_keys():
    with pytest.raises(RecordError, match=r"'players': 'B' and 'b' are the same name"):
        run("A B b D", [("1 2 3 4", "B A D b")])
    record = rec("A B C D", [("1 2 3 4", "B A D C")])
    record["variant"] = ["standard"]
    with pytest.raises(RecordError, match=r"^variant: input should be a valid string"):
        playtest.replay(record)
    record = rec("A B C D", [("1 2 3 4", "B A D C")])
    record["rounds"][0]["rope"] = record["rounds"][0].pop("ropes")
    with pytest.raises(RecordError, match=r"round 1: unknown key 'rope' in a round"):
        playtest.replay(record)
