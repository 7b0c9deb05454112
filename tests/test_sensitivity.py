"""Sensitivity: steps per kind of parameter, paired changes in the known direction."""

import dataclasses

import pytest

from gamelab.core import registry
from gamelab.core.params import Params, param
from gamelab.decide import sensitivity
from gamelab.report import charts
from gamelab.sim.run import RunConfig
from gamelab.sim.store import MemoryStore


@dataclasses.dataclass(frozen=True, kw_only=True)
class Kinds(Params):
    n: int = param(3, low=0, high=3)
    x: float = param(0.5, low=0.0, high=2.0)
    flag: bool = param(False)
    mode: str = param("a", choices=("a", "b", "c"))
    items: tuple = param((1, 2), low=0, high=9, length=(2, 2))
    board: tuple = param(tuple(range(13)), low=0, high=99, length=(1, 20))


def _scale(base, value):
    return {"items": tuple(int(round(v * value)) for v in base.items)}


def test_steps_per_kind():
    found, skipped = sensitivity.steps(Kinds, Kinds(), {"items_scale": _scale})
    by = {(s.parameter, s.value): s for s in found}
    assert {(p, v) for p, v in by if p == "n"} == {("n", 2), ("n", 4)}  # 4 is refused later
    assert ("x", 0.3) in by and ("x", 0.7) in by  # a tenth of 0..2
    assert ("flag", True) in by and ("mode", "b") in by and ("mode", "c") in by
    assert by[("items[2]", 3)].changes == {"items": (1, 3)}
    assert by[("items_scale", 1.1)].changes == {"items": (1, 2)}  # changes nothing: dropped later
    assert [s.parameter for s in skipped] == ["board"] and "13 items" in skipped[0].value


def test_refused_and_idle_steps_are_reported():
    game = dataclasses.replace(registry.get("toy"), rules=Kinds, knobs=Kinds, derived={"items_scale": _scale})
    todo, skipped = sensitivity.settings(game, Kinds())
    reasons = {(s.parameter, s.value): s.reason for s in skipped}
    assert reasons[("n", 4)].startswith("refused: n = 4 is out of range")
    assert reasons[("items_scale", 1.1)] == "changes nothing"
    assert ("items_scale", 0.9) in reasons  # round(0.9), round(1.8): (1, 2) again
    assert all(p != Kinds() for _, p in todo)


def test_bonus_scale_moves_the_strong_agents_win_rate_up():
    table = sensitivity.levers(
        registry.get("toy"),
        lineup=["strong", "weak"],
        n_games=2000,
        only=["bonus_scale", "die"],
        run=RunConfig(store=MemoryStore(), progress=False),
    )
    rows = table[(table.metric == "win_rate[agent=strong]") & (table.parameter == "bonus_scale")]
    up, down = rows[rows.direction == 1].iloc[0], rows[rows.direction == -1].iloc[0]
    assert up.value == "2.0" and up.low > 0.1 and up.change > 0  # 0.755 -> 0.92 exactly
    assert down.value == "0.0" and down.high < -0.2  # -> 0.5
    assert abs(down.new - 0.5) < 0.03
    ranked = sensitivity.ranking(table, "win_rate[agent=strong]")
    assert ranked.parameter.iloc[0] == "bonus_scale" and ranked.clear.iloc[0]
    rows = sensitivity.json_rows(table)
    assert set(rows[0]) == {"parameter", "value", "metric", "change", "low", "high"}
    fig = charts.tornado_figure(table, "win_rate[agent=strong]")
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["die", "bonus scale"]


def test_levers_are_framed_by_the_goal_in_words_and_colour(capsys):
    """Lowering the strong agent's win rate: the bonus scale 1 → 0 helps (it
    drops to 0.5), 1 → 2 hurts; the sentence, the chart's colours and the
    command's text say so, and the --json rows keep their columns."""
    from matplotlib.colors import to_hex

    from gamelab.cli import commands as cli

    metric = "win_rate[agent=strong]"
    store = MemoryStore()
    table = sensitivity.levers(
        registry.get("toy"),
        lineup=["strong", "weak"],
        n_games=2000,
        only=["bonus_scale"],
        run=RunConfig(store=store, progress=False),
    )
    fr = sensitivity.framing(table, metric, "lower")
    assert [x.words for x in fr.helps] == ["bonus scale 1 → 0"]
    assert [x.words for x in fr.hurts] == ["bonus scale 1 → 2"]
    text = fr.text()
    assert text.startswith("To lower the win rate of the strong agent (now ")
    assert "bonus scale 1 → 0 (−" in text and "Changes that would make it worse: bonus scale 1 → 2 (+" in text
    raised = sensitivity.framing(table, metric, "higher")
    assert [x.words for x in raised.helps] == ["bonus scale 1 → 2"]

    fig = charts.tornado_figure(table, metric, goal="lower")
    colours = {round(b.get_width(), 6): to_hex(b.get_facecolor()) for b in fig.axes[0].patches if b.get_height() > 0}
    assert colours[min(colours)] == sensitivity.HELPS_COLOUR and colours[max(colours)] == sensitivity.HURTS_COLOUR
    assert "lower is better" in fig.axes[0].get_title()

    args = ["sensitivity", "toy", "--lineup", "strong", "weak", "--games", "2000", "--only", "bonus_scale"]
    assert cli.main(args + ["--metric", metric, "--goal", "lower"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == text
    assert "bonus scale 1 → 0" in out and "better, sure" in out and "worse, sure" in out
    assert "bonus_scale" not in out and "nan" not in out
    assert cli.main(args + ["--json"]) == 0
    rows = __import__("json").loads(capsys.readouterr().out)
    assert set(rows[0]) == {"parameter", "value", "metric", "change", "low", "high"}


def test_unknown_parameter_is_one_line():
    from gamelab.core.errors import GamelabError

    with pytest.raises(GamelabError, match="unknown rule parameter 'dice'"):
        sensitivity.steps(Kinds, Kinds(), {}, only=["dice"])


@pytest.mark.skipif("strand" not in registry.available_games(), reason="STRAND registers on main")
def test_strand_lone_penalty_lowers_the_score_by_the_lone_markers():
    """Section 6.4: each lone marker costs lone_penalty points.  Random play
    does not react to the penalty, so one more point of penalty lowers the
    mean final score by exactly the mean number of lone markers per seat
    (``lone_markers`` counts a game's markers, all four players together)."""
    table = sensitivity.levers(
        registry.get("strand"),
        lineup=["random"] * 4,
        n_games=1000,
        only=["lone_penalty"],
        metrics=["mean_score", "lone_markers"],
        run=RunConfig(store=MemoryStore(), progress=False),
    )
    up = table[(table.direction == 1)].set_index("metric")
    assert up.loc["lone_markers", "change"] == 0
    assert up.loc["mean_score", "change"] == pytest.approx(-up.loc["lone_markers", "base"] / 4, rel=1e-9)
    assert up.loc["mean_score", "high"] < 0


def test_a_step_the_rules_refuse_at_the_count_played_is_skipped_not_played():
    """SBR at 2 players: raising the fewest players to 3 would make the run itself illegal
    (it crashed a 2-player report's levers); the step is skipped, saying why."""
    from gamelab.core import registry
    from gamelab.decide.sensitivity import settings

    game = registry.get("sbr")
    todo, skipped = settings(game, game.knobs(), ["min_players"], n_players=2)
    assert [s.parameter for s, _ in todo] == ["min_players"]  # the step down (1) is still played
    [up] = [s for s in skipped if s.value == 3]
    assert up.reason.startswith("refused: n_players = 2 is not allowed")
    todo4, _ = settings(game, game.knobs(), ["min_players"], n_players=4)
    assert sorted(p.min_players for _, p in todo4) == [1, 3]  # at 4 players both steps are played
