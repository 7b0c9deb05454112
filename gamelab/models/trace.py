"""The skill trace: a metric at every level of the game's ladder (``gamelab skill --trace``).

After Ludii's SkillTrace and TAG's skill ladder: level 0 is random play on
every seat, level 1 the game's default model, then the game's search agent
(``GAME.skill.search``) on every seat at each budget of ``GAME.skill.budgets``
(its knob ``GAME.skill.budget``, doubling).  At each level the metric is
measured on a table of that level only, with its 95 % bootstrap interval over
deals; the levels meet head to head (one seat of the row's level among P - 1
seats of the column's level, :mod:`gamelab.models.matrix`), and a level
"beats the one below" when its seat's win-rate interval lies above the fair
share.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pandas as pd

from gamelab.core.contract import Game, Run
from gamelab.core.errors import GamelabError
from gamelab.decide.ladder import Climb
from gamelab.models.ladder import ladder_row, run_table
from gamelab.models.matrix import matrix, matrix_runs
from gamelab.models.restricted import STYLE_GAMES, restricted_table, style_rows
from gamelab.sim.levels import Level, trace_levels
from gamelab.sim.prefetch import prefetch
from gamelab.sim.run import RunConfig


def level_runs(levels: list[Level], *, n_players: int, n_games: int, seed: int, frames=None) -> dict[str, Run]:
    """{level name: the run of that level's table}, for the levels ``frames`` does not give."""
    return {
        lv.name: Run(n_players=n_players, n_games=n_games, seed=seed, lineup=lv.lineup, params=lv.params)
        for lv in levels
        if lv.name not in (frames or {})
    }


def level_frames(
    game: Game,
    levels: list[Level],
    *,
    n_players: int,
    n_games: int,
    seed: int,
    frames: dict | None = None,
    run: RunConfig | None = None,
) -> dict[str, pd.DataFrame]:
    """Each level's table (every seat of that level), through ``store``;
    ``frames`` gives tables already played ({level name: frame})."""
    run = run or RunConfig()
    out = dict(frames or {})
    for name, r in level_runs(levels, n_players=n_players, n_games=n_games, seed=seed, frames=frames).items():
        out[name] = run_table(game, r, run)
    return out


def _grouping(name: str) -> str | None:
    """The column a metric compares groups of (``style_spread`` -> style), if any."""
    import re

    found = re.match(r"^win_rate\[(\w+)=", name) or re.match(r"^(\w+?)_(spread|gap)$", name)
    return found.group(1) if found else None


def measure(game: Game, frame: pd.DataFrame, name: str) -> dict:
    """``name`` on ``frame`` with its 95 % interval; value None (and why) when
    this table cannot give it (one style on every seat, ...)."""
    from gamelab.stats import balance, bootstrap

    m = balance.metric(game, name)
    by = _grouping(name)
    if by is not None:
        values = set(frame[by].astype(str)) - {"none"} if by in frame else set()
        if len(values) < (1 if name.startswith("win_rate[") else 2):
            return {"value": None, "low": None, "high": None, "note": f"one {by} or none on every seat"}
    try:
        e = bootstrap.estimate(frame, [m]).iloc[0]
    except GamelabError as exc:
        return {"value": None, "low": None, "high": None, "note": str(exc)}
    return {"value": float(e["value"]), "low": float(e["low"]), "high": float(e["high"]), "note": ""}


@dataclasses.dataclass
class Trace:
    game: Game
    players: int
    metric: str
    fair: float | None  # the metric's fair value (0 for a spread or a gap, 1 / P for a win rate)
    rows: list[dict]  # level, agent, budget, metric, value, low, high, games (and note)
    matrix: list[dict]  # row level, column level, win rate of the row's seat, interval, games
    steps: list[dict]  # each rung against the one below, decided (the accepted steps only)
    stop: dict | None = None  # the first step that did not beat the rung below: where skill stops
    headroom: dict | None = None  # the top rung as one seat among default-model seats
    ladder_games: int = 0  # games the ladder's tests took
    decided_at: int = 0  # the player count the rungs were decided at (0: this one)
    styles: list[dict] = dataclasses.field(default_factory=list)  # restricted-play style rows

    def to_json(self) -> dict:
        return {
            "game": self.game.name,
            "players": self.players,
            "metric": self.metric,
            "fair": self.fair,
            "levels": self.rows,
            "matrix": self.matrix,
            "steps": self.steps,
            "stop": self.stop,
            "headroom": self.headroom,
            "ladder_games": self.ladder_games,
            "rungs_decided_at": self.decided_at or self.players,
            "styles": self.styles,
        }


def fair_value(name: str, n_players: int) -> float | None:
    if name.startswith("win_rate["):
        return 1 / n_players
    if name.endswith(("_spread", "_gap")):
        return 0.0
    return None


def trace(
    game: Game,
    metric: str,
    *,
    n_players: int,
    n_games: int = 400,
    seed: int = 0,
    params=None,
    frames: dict | None = None,
    pairs: str = "all",
    matrix_games: int | None = None,
    run: RunConfig | None = None,
    rungs: Sequence[str] | None = None,
    decided: Climb | None = None,
    decided_at: int = 0,
    styles: bool = False,
    style_games: int = STYLE_GAMES,
) -> Trace:
    """``metric`` at each rung of ``game``'s decided ladder (:func:`climb`:
    only rungs that beat the one below), the head-to-head matrix of the
    rungs, each step's verdict, where skill stops and the headroom (see
    above).  ``rungs``: the names of rungs decided elsewhere (at
    ``decided_at`` players: the trace then measures the metric at them and
    decides nothing); ``decided``: a climb already made at this count;
    ``frames``: level tables already played (a report's own default-model
    table)."""
    run = run or RunConfig()
    from gamelab.stats import balance

    balance.metric(game, metric)  # an unknown metric is refused before any game is played
    if decided is not None:
        rungs = [lv.name for lv in decided.rungs]
    levels = [lv for lv in trace_levels(game, n_players, params) if rungs is None or lv.name in rungs]
    kw = dict(n_players=n_players, n_games=n_games, seed=seed, params=params, frames=frames, pairs=pairs)
    prefetch(game, trace_runs(game, **kw, matrix_games=matrix_games, rungs=rungs, metric=metric), run=run)  # one pass
    tables = level_frames(game, levels, n_players=n_players, n_games=n_games, seed=seed, frames=frames, run=run)
    rows = []
    for lv in levels:
        f = tables[lv.name]
        got = measure(game, f, metric)
        played = restricted_table(game, lv, metric, n_players=n_players, n_games=n_games, seed=seed)
        if played is not None:  # a style at a search rung: its restricted player among unrestricted ones
            agent, r = played
            f = run_table(game, r, run)
            got = measure(game, f, f"win_rate[agent={agent}]")
        rows.append(
            {
                "level": lv.name,
                "agent": lv.agent,
                "budget": lv.budget,
                "metric": metric,
                "value": got["value"],
                "low": got["low"],
                "high": got["high"],
                "games": int(f["game"].nunique()),
                **({"note": got["note"]} if got["note"] else {}),
                **({"restricted": played[0]} if played else {}),
            }
        )
    cells = matrix(game, levels, n_players=n_players, n_games=matrix_games or n_games, seed=seed, pairs=pairs, run=run)
    style_at = [lv for lv in levels if lv.name == "default"] + levels[-1:] if styles and len(levels) > 1 else []
    shown = style_rows(game, style_at, n_players=n_players, n_games=style_games, seed=seed, run=run)
    if decided is None:  # levels measured, not decided: each step by its matrix cell's interval
        by_pair = {(c["row"], c["column"]): c for c in cells}
        steps = [
            {"level": hi.name, "below": lo.name, "beats": c["beats"], "win_rate": c["win_rate"], "decision": "interval"}
            for hi, lo in zip(levels[1:], levels)
            if (c := by_pair.get((hi.name, lo.name))) is not None
        ]
        return Trace(
            game,
            n_players,
            metric,
            fair_value(metric, n_players),
            rows,
            cells,
            steps,
            decided_at=decided_at,
            styles=shown,
        )
    steps = [s for s in decided.steps if s["beats"]]
    return Trace(
        game,
        n_players,
        metric,
        fair_value(metric, n_players),
        rows,
        cells,
        steps,
        decided.stop,
        decided.headroom,
        decided.games,
        styles=shown,
    )


def trace_runs(
    game: Game,
    *,
    n_players: int,
    n_games: int,
    seed: int = 0,
    params=None,
    frames: dict | None = None,
    pairs: str = "all",
    matrix_games: int | None = None,
    rungs: Sequence[str] | None = None,
    metric: str | None = None,
) -> list[Run]:
    """The runs :func:`trace` plays (its levels' tables, then its matrix's
    cells), the strongest levels first: a pool starts them in this order,
    so the longest runs do not come last.  ``rungs``: the names of the
    rungs traced (None: every candidate level)."""
    levels = [lv for lv in trace_levels(game, n_players, params) if rungs is None or lv.name in rungs]
    tables = level_runs(levels, n_players=n_players, n_games=n_games, seed=seed, frames=frames)
    cells = matrix_runs(game, levels, n_players=n_players, n_games=matrix_games or n_games, seed=seed, pairs=pairs)
    ordered = [tables[lv.name] for lv in reversed(levels) if lv.name in tables]
    if metric is not None:  # a style at the search rungs: their restricted tables
        kept = (restricted_table(game, lv, metric, n_players=n_players, n_games=n_games, seed=seed) for lv in levels)
        ordered += [r for got in kept if got is not None for r in got[1:]]
    return ordered + [r for _, _, r in reversed(cells)]


def ladder_from_trace(t: Trace) -> list[dict]:
    """The trace's levels in :func:`ladder`'s form (each level against the
    one below, from the head-to-head matrix) for its table and figure."""
    names = [r["level"] for r in t.rows]
    decided = {s["level"]: s for s in t.steps if s.get("decision") in ("yes", "no", "undecided")}
    if decided:  # the decided ladder: each rung's own test against the one below
        return [ladder_row(names, 0, t.players)] + [
            dict(ladder_row(names, k, t.players, decided[names[k]]), beats_below=decided[names[k]]["beats"])
            for k in range(1, len(names))
        ]
    cell = {(c["row"], c["column"]): c for c in t.matrix}
    return [ladder_row(names, 0, t.players)] + [
        ladder_row(names, k, t.players, cell[(names[k], names[k - 1])]) for k in range(1, len(names))
    ]
