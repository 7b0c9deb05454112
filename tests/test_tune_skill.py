"""The tuner searches at the fast skill levels a goal names (issue 39): every candidate is also
played with the default model (and the game's learned rung), the miss sums over them, and the
verification decides each; the slow search rungs are only verified."""

from gamelab.core import registry
from gamelab.decide import tune
from gamelab.decide.goals import Goal
from gamelab.sim.run import RunConfig
from gamelab.sim.store import MemoryStore

GOAL = {
    "game": "strand",
    "players": 4,
    "lineup": ["heavy"] * 4,  # not the default model: the default level is a second cell
    "free": {"sum_cap": [5, 9]},
    "targets": [{"metric": "seat_gap", "at_most": 0.05}],
    "trials": 2,
    "games": 300,
    "seed": 2,
}


def test_a_named_fast_level_is_searched_and_a_search_rung_only_verified():
    st = tune.setting(Goal(**GOAL, skill=["default", "best@8"]))
    assert st.levels == ("default",)  # best@8 is hundreds of times slower: verified only
    assert st.cells() == [(4, ""), (4, "default")]
    lineup, params = st.cell(st.base, 4, "default")
    assert lineup == tuple(registry.get("strand").default_lineup(4)) and lineup != st.lineups[4]
    t = st.goal.targets[0]
    assert [st.key(t, *c) for c in st.cells()] == ["seat_gap@4", "seat_gap@4@default"]
    assert "with default play" in tune.goal_words(st)
    learned = tune.setting(Goal(**GOAL, skill=["default", "learned"]))  # the learned rung is searched at too
    assert learned.levels == ("default", "learned")
    assert learned.cell(learned.base, 4, "learned")[0] == ("learned",) * 4


def test_the_goals_own_lineup_is_not_played_twice():
    goal = {k: v for k, v in GOAL.items() if k != "lineup"}  # the default model is the goal's lineup
    assert tune.setting(Goal(**goal, skill=["default"])).levels == ()
    assert tune.setting(Goal(**GOAL)).levels == ()  # no skill: no searched level


def test_every_candidate_is_played_and_missed_at_each_level():
    st = tune.setting(Goal(**GOAL, skill=["default"]))
    cand = st.base.replace(sum_cap=6)
    [by_cell] = tune._runs(st, [cand], n_games=200, seed=5, run=RunConfig(store=MemoryStore(), progress=False))
    assert set(by_cell) == {(4, ""), (4, "default")}
    own, default = by_cell[(4, "")].frame, by_cell[(4, "default")].frame
    assert set(own["agent"]) == {"heavy"} and set(default["agent"]) != {"heavy"}  # each cell its own lineup
    values = {"seat_gap@4": 0.07, "seat_gap@4@default": 0.10}
    assert tune.miss(st, values) == tune.miss(st, {"seat_gap@4": 0.07, "seat_gap@4@default": 0.0}) + 0.05
