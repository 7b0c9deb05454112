"""The skill trace (issue 20): levels declared by the game, a metric with its
interval at each level, the head-to-head matrix, verdicts classified over skill."""

import json

import numpy as np
import pandas as pd
import pytest

from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.core.params import specs
from gamelab.models import across_skill, skill_words, trace
from gamelab.sim import levels as sim_levels
from gamelab.sim import runner
from gamelab.sim.run import RunConfig
from gamelab.sim.store import ChunkStore


@pytest.mark.parametrize("game", ["sbr", "strand"])
def test_each_game_declares_a_doubling_ladder_of_at_least_five_levels(game):
    g = registry.get(game)
    levels = sim_levels.trace_levels(g, 4)
    assert len(levels) >= 5
    assert [lv.name for lv in levels[:2]] == ["random", "default"]
    doubling = levels[2 : len(levels) - len(g.skill.beyond)]  # the rungs beyond the budgets: level-k at the top
    budgets = [lv.budget for lv in doubling]
    assert all(b == 2 * a for a, b in zip(budgets, budgets[1:])), budgets
    assert g.skill.budget in {s.name for s in specs(g.knobs)}
    for lv in doubling:
        assert getattr(lv.params, g.skill.budget) == lv.budget
        assert lv.seat == f"{g.skill.search}@{lv.budget}" and lv.seat in g.agents
    for lv in levels[len(levels) - len(g.skill.beyond) :]:
        assert lv.budget == budgets[-1] and lv.seat in g.skill.beyond


def _without_agent(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=["agent"]).reset_index(drop=True)


def test_sbr_seat_budget_name_plays_as_the_budget_knob():
    """lookahead@2 on every seat is the lookahead with lookahead_beats = 2, game for game."""
    g = registry.get("sbr")
    kw = dict(n_games=6, seed=3, n_players=2, progress=False)
    named = runner.simulate(registry.get("sbr"), lineup=["lookahead@2"] * 2, **kw)
    knob = runner.simulate(
        registry.get("sbr"), lineup=["lookahead"] * 2, params=g.knobs().replace(lookahead_beats=2), **kw
    )
    pd.testing.assert_frame_equal(_without_agent(named), _without_agent(knob))
    deeper = runner.simulate(
        registry.get("sbr"), lineup=["lookahead"] * 2, params=g.knobs().replace(lookahead_beats=8), **kw
    )
    assert not _without_agent(deeper).equals(_without_agent(knob))  # the knob is a real budget


def test_strand_seat_budget_name_plays_as_the_budget_knob():
    g = registry.get("strand")
    p = g.knobs().replace(best_proxy="mix")
    kw = dict(n_games=8, seed=5, n_players=3, progress=False)
    named = runner.simulate(registry.get("strand"), lineup=["best@1"] * 3, params=p, **kw)
    knob = runner.simulate(registry.get("strand"), lineup=["best"] * 3, params=p.replace(best_rollouts=1), **kw)
    pd.testing.assert_frame_equal(_without_agent(named), _without_agent(knob))


def test_strand_searchers_playing_the_mix_hold_distinct_styles():
    p = registry.get("strand").knobs().replace(best_proxy="mix")
    for lineup in (["best@1"] * 4, ["mix1", "best@1", "best@1", "best@1"]):
        f = runner.simulate(
            registry.get("strand"), lineup=lineup, params=p, n_games=8, seed=1, n_players=4, progress=False
        )
        assert (f.groupby("game")["style"].nunique() == 4).all(), lineup
        assert "best@1" not in set(f["style"])


def test_trace_rows_matrix_steps_and_the_cache(tmp_path):
    store = ChunkStore(tmp_path)
    t = trace.trace(
        registry.get("sbr"), "win_rate[seat=1]", n_players=2, n_games=12, seed=0, run=RunConfig(store=store)
    )
    L = len(t.rows)
    assert L >= 6 and t.fair == 0.5
    for r in t.rows:
        assert {"level", "agent", "budget", "metric", "value", "low", "high", "games"} <= set(r)
        assert r["low"] <= r["value"] <= r["high"] and r["games"] == 12
    assert len(t.matrix) == L * (L - 1) // 2 and len(t.steps) == L - 1
    for c in t.matrix:
        assert 0 <= c["low"] <= c["win_rate"] <= c["high"] <= 1 and c["beats"] == (c["low"] > 0.5)
    computed = store.computed
    again = trace.trace(
        registry.get("sbr"), "win_rate[seat=1]", n_players=2, n_games=12, seed=0, run=RunConfig(store=store)
    )
    assert store.computed == computed and store.loaded >= computed  # the second trace plays nothing
    assert again.rows == t.rows and again.matrix == t.matrix
    words = skill_words.steps_words(t)
    failing = [s["level"] for s in t.steps if not s["beats"]]
    assert all(name in words for name in failing)


def test_a_grouping_absent_at_a_level_is_not_measured(tmp_path):
    t = trace.trace(
        registry.get("strand"),
        "style_spread",
        n_players=3,
        n_games=6,
        seed=0,
        pairs="none",
        run=RunConfig(store=ChunkStore(tmp_path)),
    )
    random_row = t.rows[0]
    assert random_row["value"] is None and "style" in random_row["note"]
    assert all(r["value"] is not None for r in t.rows[1:])  # searchers play the style mix
    assert t.matrix == [] and t.steps == []


def test_unknown_metric_is_one_line(tmp_path):
    with pytest.raises(GamelabError, match="unknown metric"):
        trace.trace(
            registry.get("sbr"), "seat_sprad", n_players=2, n_games=4, run=RunConfig(store=ChunkStore(tmp_path))
        )
    with pytest.raises(GamelabError, match="no skill trace"):
        sim_levels.trace_levels(registry.get("pig"), 2)


def _rows(*values, half=0.02):
    return [{"value": None}] + [{"value": v, "low": v - half, "high": v + half} for v in values]


@pytest.mark.parametrize(
    "values, kind",
    [
        ((0.30, 0.31, 0.30), "holds at every skill level"),
        ((0.30, 0.35, 0.40), "grows with skill"),
        ((0.40, 0.33, 0.30), "shrinks with skill"),
        ((0.30, 0.26, 0.25), "vanishes at high skill"),
        ((0.25, 0.26, 0.30), "appears with skill"),
        ((0.30, 0.20, 0.18), "reverses"),
        ((0.25, 0.25), "not seen at any level"),
    ],
)
def test_classify(values, kind):
    assert across_skill.classify(_rows(*values), 0.25) == kind


def test_skill_trace_command_json(capsys, monkeypatch, tmp_path):
    from gamelab.cli import commands as cli

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    assert cli.main(["skill", "sbr", "--players", "2", "--trace", "seat_spread", "--games", "8", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["levels"]) >= 3 and out["metric"] == "seat_spread"
    assert set(out["levels"][0]) >= {"level", "agent", "budget", "metric", "value", "low", "high", "games"}
    assert len(out["matrix"]) == len(out["levels"]) * (len(out["levels"]) - 1) // 2
    assert np.isfinite([r["value"] for r in out["levels"]]).all()
    # issue 27: only decided steps, from random up to the top listed rung; where skill stops, and the headroom
    names = [r["level"] for r in out["levels"]]
    assert [(s["below"], s["level"]) for s in out["steps"]] == list(zip(names, names[1:]))
    assert all(s["decision"] == "yes" and s["games"] >= 512 for s in out["steps"])
    if out["stop"] is not None:
        assert out["stop"]["below"] == names[-1] and out["stop"]["decision"] in ("no", "undecided")
    assert out["headroom"]["level"] == names[-1] and out["headroom"]["below"] == "default"
    assert out["ladder_games"] == sum(s["games"] for s in out["steps"]) + out["headroom"]["games"] + (
        out["stop"]["games"] if out["stop"] else 0
    )


def _sbr_goal(**more):
    from gamelab.decide.goals import Goal

    return Goal(
        game="sbr",
        players=2,
        free={"town_spin": [0, 2]},
        targets=[{"metric": "seat_spread", "at_most": 0.6}],
        trials=2,
        games=16,
        verify=1,
        verify_games=16,
        seed=1,
        **more,
    )


def test_tune_verifies_each_proposal_at_each_skill_level(tmp_path):
    from gamelab.decide import tune
    from gamelab.sim.store import MemoryStore

    goal = _sbr_goal(skill=["default", "lookahead@1"], keep_skill=0.5)
    from gamelab.sim.run import RunConfig

    run = RunConfig(store=MemoryStore(), progress=False)
    result = tune.run(goal, runs_dir=tmp_path / "runs", out=tmp_path / "out", run=run)
    p = result.proposals
    for level in ("default", "lookahead@1"):
        key = f"seat_spread (2p, {level})"
        assert p[key].between(0, 1).all() and (p[f"{key} met"] == (p[key] <= 0.6)).all()
    share = p["lookahead@1 beats default (2p)"]
    assert share.between(0, 1).all()
    assert (p["lookahead@1 beats default (2p) met"] == (share >= 0.5)).all()
    met = [c for c in p.columns if c.endswith(" met")]
    failed = ~p[met].all(axis=1)
    assert (p.loc[failed, "verdict"] == "misses").all()  # a proposal failing a level's check misses the goal


def test_a_goal_naming_an_unknown_level_is_one_line():
    from gamelab.decide import tune

    with pytest.raises(GamelabError, match="unknown level 'lookahead@3'"):
        tune.setting(_sbr_goal(skill=["lookahead@3"]), "goal.yaml")


def test_a_trace_plays_its_runs_in_one_pass_and_the_same_tables_with_two_workers(tmp_path):
    from gamelab.sim.prefetch import prefetch

    kw = dict(n_players=3, n_games=9, seed=4)
    runs = trace.trace_runs(registry.get("sbr"), **kw, pairs="adjacent")
    levels = len(registry.get("sbr").skill.budgets) + 2
    assert len(runs) == levels + (levels - 1)  # every level's table, then each adjacent cell
    assert [r.lineup for r in runs[:levels]] == [
        lv.lineup for lv in reversed(sim_levels.trace_levels(registry.get("sbr"), 3))
    ]
    inline = ChunkStore(tmp_path / "inline")
    played = prefetch(registry.get("sbr"), runs, run=RunConfig(store=inline))
    assert played == sum(r.n_games for r in runs) and inline.computed == len(runs)
    t = trace.trace(registry.get("sbr"), "seat_spread", **kw, pairs="adjacent", run=RunConfig(store=inline))
    assert inline.computed == len(runs)  # the trace itself played nothing: every table was there
    assert prefetch(registry.get("sbr"), runs, run=RunConfig(store=inline)) == 0
    pooled = ChunkStore(tmp_path / "pooled")
    t2 = trace.trace(registry.get("sbr"), "seat_spread", **kw, pairs="adjacent", run=RunConfig(store=pooled, workers=2))
    assert pooled.computed == len(runs) and t2.rows == t.rows and t2.matrix == t.matrix
