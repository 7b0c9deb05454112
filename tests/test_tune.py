"""The tuner: a target a grid shows reachable is found, and its verified
proposal meets it on fresh seeds; goal files are checked in one line."""

import pytest
import yaml

from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.core.files import load_params
from gamelab.decide import tune
from gamelab.decide.goals import Goal
from gamelab.report import charts
from gamelab.sim import sweep
from gamelab.sim.run import RunConfig
from gamelab.sim.store import MemoryStore

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
        registry.get("toy"),
        {"bonus_scale": [0.0, 0.2, 1.0]},
        n_games=1000,
        seed=3,
        lineup=["strong", "weak"],
        runs_dir=tmp_path / "runs",
        run=RunConfig(store=store),
    ).table
    strong = grid.query("metric == 'win_rate' and by == 'agent' and group == 'strong'").set_index("bonus_scale")
    assert strong.loc[0.2, "value"] <= 0.58 < strong.loc[1.0, "value"]  # reachable, not met by the rulebook

    result = tune.run(
        Goal(**GOAL),
        runs_dir=tmp_path / "runs",
        out=tmp_path / "out",
        run=RunConfig(store=store, progress=False),
        chart=charts.front_figure,
    )
    p = result.proposals.set_index("proposal")
    assert p.loc["start", "verdict"] == "misses"
    best = p.loc["1"]
    assert best["verdict"] == "meets" and best[f"{STRONG}@2"] <= 0.58  # decided on fresh deals
    assert best["how sure"].startswith("meets the target: a sequential test on fresh deals decided it after")
    assert 0 < best["bonus_scale"] < 1 / 3  # the bonus must drop below 1
    assert best["games"] == 4000
    params = load_params("toy", tmp_path / "out" / "proposal-1.yaml")
    assert params.bonus_scale == pytest.approx(best["bonus_scale"])
    assert (tmp_path / "out" / "front.png").stat().st_size > 0
    csv = (tmp_path / "out" / "proposals.csv").read_text()
    assert "bonus scale 1 → " in csv
    header = (tmp_path / "out" / "proposal-1.yaml").read_text().splitlines()[1]
    assert header == f"# {best['how sure']}" and best["how sure"] in csv  # the header and the table say the same

    again = tune.run(
        Goal(**GOAL), runs_dir=tmp_path / "runs", out=tmp_path / "out", run=RunConfig(store=store, progress=False)
    )
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


def _ranked(rows):
    import pandas as pd

    return tune.rank(pd.DataFrame(rows))


def test_ranking_meets_first_then_not_sure_then_misses_and_never_worse_than_the_start():
    start = {"proposal": "start", "verdict": "misses", "miss": 0.05, "changed": 0, "size": 0.0}
    rows = [
        start,
        {"proposal": "", "verdict": "misses", "miss": 0.01, "changed": 1, "size": 0.1},
        {"proposal": "", "verdict": "not sure", "miss": 0.0, "changed": 2, "size": 0.1},
        {"proposal": "", "verdict": "meets", "miss": 0.0, "changed": 2, "size": 0.5},
        {"proposal": "", "verdict": "meets", "miss": 0.001, "changed": 1, "size": 0.2},
        {"proposal": "", "verdict": "misses", "miss": 0.07, "changed": 1, "size": 0.1},  # worse than the rules
        {"proposal": "", "verdict": "not sure", "miss": 0.05, "changed": 1, "size": 0.1},  # no better
    ]
    out = _ranked(rows)
    assert out["proposal"].tolist() == ["start", "1", "2", "3", "4"]
    assert out["verdict"].tolist() == ["misses", "meets", "meets", "not sure", "misses"]
    assert out["changed"].tolist()[1:3] == [1, 2]  # the smallest change first within a group
    assert (out["miss"].iloc[1:] < 0.05).all()


def test_nothing_better_than_the_rulebook_is_said_so():
    from gamelab.core import registry

    rows = [
        {"proposal": "start", "verdict": "misses", "miss": 0.05, "changed": 0, "size": 0.0, "changes": "no change"},
        {"proposal": "", "verdict": "misses", "miss": 0.09, "changed": 1, "size": 0.1, "changes": "x"},
    ]
    st = tune.setting(Goal(**GOAL))
    assert st.game is registry.get("toy")
    assert tune.summary(st, _ranked(rows)) == "Nothing found that improves on the rulebook."


@pytest.mark.slow(reason="a STRAND tune, its verification and 20,000 fresh games")
def test_strand_first_proposal_meets_a_reachable_target_on_20000_fresh_games(tmp_path):
    """The issue's goal: STRAND at 4 players, style spread at most 0.19 with
    sum_cap and lone_penalty free.  A grid shows it reachable; the tuner's
    first proposal is decided to meet it and measures under 0.19 on 20,000
    games of a seed neither the search nor the verification used."""
    from gamelab.core import registry
    from gamelab.core.params import from_mapping
    from gamelab.stats import balance, bootstrap

    game = registry.get("strand")
    spread = [balance.metric(game, "style_spread")]
    store = MemoryStore()

    def measure(changes, n_games, seed):
        run = sweep.run_cell(
            registry.get("strand"),
            {},
            n_games=n_games,
            seed=seed,
            base_params=from_mapping(game.knobs, changes),
            n_players=4,
            run=RunConfig(store=store, progress=False),
        )
        return bootstrap.estimate(run.frame, spread).iloc[0]

    rulebook, grid_point = measure({}, 4000, 99), measure({"sum_cap": 5, "lone_penalty": 6}, 4000, 99)
    assert rulebook["low"] > 0.19 and grid_point["high"] < 0.19  # the grid: missed now, reachable

    goal = Goal(
        game="strand",
        players=4,
        free={"sum_cap": [2, 10], "lone_penalty": [0, 10]},
        targets=[{"metric": "style_spread", "at_most": 0.19}],
        trials=30,
        games=2000,
        seed=1,
    )
    result = tune.run(
        goal, runs_dir=tmp_path / "runs", out=tmp_path / "out", run=RunConfig(store=store, progress=False)
    )
    p = result.proposals.set_index("proposal")
    assert p.loc["start", "verdict"] == "misses"
    first = p.loc["1"]
    assert first["verdict"] == "meets", result.summary
    assert result.summary.startswith("Proposal 1, ") and "meets the target" in result.summary
    changes = {k: int(first[k]) for k in ("sum_cap", "lone_penalty")}
    fresh = measure(changes, 20_000, 424242)
    assert fresh["value"] <= 0.19, (changes, fresh.to_dict())
    assert fresh["value"] < rulebook["value"] - 0.05


def test_the_reports_proposals_are_the_answer_and_rows_of_words(tmp_path, monkeypatch):
    from words import raw_words

    from gamelab.report.build import build_report
    from gamelab.report.decisions import Tools

    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    goal = tmp_path / "goal.yaml"
    goal.write_text(yaml.safe_dump(GOAL | {"trials": 16}))
    out = build_report(
        "toy",
        n_games=400,
        seed=2,
        player_counts=(2,),
        lineups={2: ["strong", "weak"]},
        tools=Tools(tune=str(goal)),
        run=RunConfig(store=MemoryStore()),
    )
    text = out.read_text()
    section = text.split("What to change", 1)[1].split("</table>", 1)[0]
    assert "Proposal 1, bonus scale 1 → " in section and "meets the target: a sequential test" in section
    assert raw_words(section, "toy") == [], section
