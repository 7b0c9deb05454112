"""The tuner: a target a grid shows reachable is found, and its verified
proposal meets it on fresh seeds; goal files are checked in one line."""

import pytest
import yaml

from gamelab.core.errors import GamelabError
from gamelab.core.files import load_params
from gamelab.decide import tune
from gamelab.decide.goals import Goal
from gamelab.decide.sequential import MemoryStore
from gamelab.sim import sweep

STRONG = "win_rate[agent=strong]"
GOAL = {
    "game": "toy",
    "players": 2,
    "lineup": ["strong", "weak"],
    "free": {"bonus_scale": [0, 3]},
    "targets": [{"metric": STRONG, "at_most": 0.58}],
    "trials": 24,
    "games": 1000,
    "seed": 3,
}


def test_a_grid_shows_the_target_reachable_and_the_tuner_meets_it(tmp_path):
    store = MemoryStore()
    grid = sweep.sweep(
        "toy",
        {"bonus_scale": [0.0, 0.2, 1.0]},
        n_games=1000,
        seed=3,
        lineup=["strong", "weak"],
        store=store,
        runs_dir=tmp_path / "runs",
    ).table
    strong = grid.query("metric == 'win_rate' and by == 'agent' and group == 'strong'").set_index("bonus_scale")
    assert strong.loc[0.2, "value"] <= 0.58 < strong.loc[1.0, "value"]  # reachable, not met by the rulebook

    result = tune.run(Goal(**GOAL), runs_dir=tmp_path / "runs", out=tmp_path / "out", store=store, progress=False)
    p = result.proposals.set_index("proposal")
    assert not p.loc["start", "all_met"]
    best = p.loc["1"]
    assert best["all_met"] and best[f"{STRONG}@2 high"] <= 0.58  # verified: fresh seed, 4x the games
    assert 0 < best["bonus_scale"] < 1 / 3  # the bonus must drop below 1
    assert best["games"] == 4000
    params = load_params("toy", tmp_path / "out" / "proposal-1.yaml")
    assert params.bonus_scale == pytest.approx(best["bonus_scale"])
    assert (tmp_path / "out" / "front.png").stat().st_size > 0
    assert "bonus_scale 1.0 -> " in (tmp_path / "out" / "proposals.csv").read_text()

    again = tune.run(Goal(**GOAL), runs_dir=tmp_path / "runs", out=tmp_path / "out", store=store, progress=False)
    assert again.resumed == 24 and again.trials == 24  # the study resumes, nothing re-run


def test_tuple_items_and_derived_knobs_become_search_values():
    from gamelab.core import registry
    from gamelab.decide.goals import dims
    from gamelab.toy import ToyParams

    game = registry.get("toy")
    ds = dims(game, ToyParams(), {"die": [6, 12], "die_double": [0, 1]}, "goal")
    assert [(d.name, d.kind, d.low, d.high, d.base) for d in ds] == [
        ("die", "int", 6, 12, 10),
        ("die_double", "float", 0.0, 1.0, 0.0),
    ]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"targets": [{"metric": STRONG}]}, "give exactly one of at_most, at_least"),
        ({"trails": 3}, "unknown key 'trails'"),
        ({"free": {"bonus_scale": [0, 30]}}, "leaves the declared range"),
        ({"free": {"dice": [1, 2]}}, "free.dice: unknown parameter"),
        ({"targets": [{"metric": "win_rat", "at_most": 1}]}, "unknown metric"),
    ],
)
def test_bad_goal_files_are_one_line(tmp_path, change, message):
    path = tmp_path / "goal.yaml"
    path.write_text(yaml.safe_dump(GOAL | change))
    with pytest.raises(GamelabError, match=message) as info:
        tune.setting(tune.load_goal(path), str(path))
    assert "\n" not in str(info.value)
