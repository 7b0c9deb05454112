"""How much skill matters: a game's skill ladder, level against level (``gamelab skill``).

``GAME.skill.ladder`` names agents from weakest to strongest.  Level k is
measured against the level below on paired, seat-rotated deals: one seat of
level k among P - 1 seats of level k - 1, every deal played once per seat
rotation (``gamelab.sim.runner``), so the stronger agent sits in every seat on
the same cards.  Its win rate, with a 95 % interval over deals (the
rotations of a deal share its cards, so the deal is the unit), is compared
with the fair share 1 / P: a level "beats the one below" when the whole
interval lies above it.

Luck, in the spirit of restricted play (Jaffe et al., "Evaluating
competitive game balance with restricted play", 2012): how often one seat of
the weakest level beats the strongest on the other seats, and how much of a
seat's score variance the deal explains (the intraclass correlation of the
score by deal across seat rotations: 1 when the cards decide everything, 0
when they decide nothing).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pandas as pd

from gamelab.core.contract import Game, Run
from gamelab.core.errors import GamelabError
from gamelab.decide.ladder import (  # noqa: F401  (the decided ladder, re-exported: callers know it as skill.X)
    HEADROOM_KEY,
    SEEDS_APART,
    STEP_ALPHA,
    STEP_BETA,
    STEP_MARGIN,
    STEP_MAX_GAMES,
    Climb,
    candidates,
    climb,
    decide_step,
    step_question,
)
from gamelab.sim import runner
from gamelab.sim.levels import Level, learned_levels, mixed_params, trace_levels
from gamelab.sim.prefetch import prefetch, run_args
from gamelab.sim.run import RunConfig
from gamelab.stats.intervals import mean_interval


def ladder_of(game: Game, ladder=None) -> tuple[str, ...]:
    names = tuple(ladder or game.skill.ladder)
    if len(names) < 2:
        raise GamelabError(f"{game.name} has no skill ladder (GAME.skill.ladder names fewer than two agents)")
    unknown = [a for a in names if game.agents and a not in game.agents]
    if unknown:
        raise GamelabError(f"skill ladder: unknown agent {unknown[0]!r} of {game.name}")
    return names


def head_to_head(
    game: Game,
    strong: str,
    weak,
    *,
    n_players: int,
    n_games: int,
    seed: int,
    params=None,
    run: RunConfig | None = None,
) -> tuple[dict, pd.DataFrame]:
    """One seat of ``strong`` among ``weak`` seats (an agent name, or the
    P - 1 names of the other seats): its win rate over deals."""
    run = run or RunConfig()
    frame = _simulate(game, h2h_run(strong, weak, n_players=n_players, n_games=n_games, seed=seed, params=params), run)
    mine = frame[frame["agent"] == strong]
    e = mean_interval(mine.groupby("deal")["win"].mean())
    low, high = max(0.0, e.low), min(1.0, e.high)  # a rate: the t interval clipped to [0, 1]
    return {"win_rate": e.value, "low": low, "high": high, "games": int(frame["game"].nunique())}, frame


def h2h_run(strong: str, weak, *, n_players: int, n_games: int, seed: int, params=None) -> Run:
    """The run of :func:`head_to_head`: one seat of ``strong``, then the weak seats."""
    rest = [weak] * (n_players - 1) if isinstance(weak, str) else list(weak)
    return Run(n_players=n_players, n_games=n_games, seed=seed, lineup=(strong, *rest), params=params)


def deal_share(frame: pd.DataFrame, agent: str) -> float:
    """Share of ``agent``'s score variance explained by the deal (one-way
    ANOVA intraclass correlation over the seat rotations of each deal)."""
    rows = frame[frame["agent"] == agent]
    groups = rows.groupby("deal")["score"]
    k = float(groups.size().mean())
    if k < 2 or groups.ngroups < 2:
        return float("nan")
    means = groups.mean()
    grand = rows["score"].mean()
    msb = k * ((means - grand) ** 2).sum() / (groups.ngroups - 1)
    msw = groups.var(ddof=1).sum() / groups.ngroups
    denom = msb + (k - 1) * msw
    return float(np.clip((msb - msw) / denom, 0.0, 1.0)) if denom > 0 else float("nan")


def ladder(
    game: Game,
    *,
    n_players: int,
    n_games: int = 1000,
    seed: int = 0,
    params=None,
    levels=None,
    run: RunConfig | None = None,
) -> list[dict]:
    """One object per level: level, agent, win_rate_vs_below, low, high,
    games, fair, beats_below (the interval above the fair share), deal_share.
    Level 0 (the weakest) has no level below: its win figures are None."""
    run = run or RunConfig()
    names = ladder_of(game, levels)
    out = [ladder_row(names, 0, n_players)]
    for k in range(1, len(names)):
        res, frame = head_to_head(
            game, names[k], names[k - 1], n_players=n_players, n_games=n_games, seed=seed + k, params=params, run=run
        )
        out.append(ladder_row(names, k, n_players, res, deal_share(frame, names[k])))
    return out


def ladder_row(
    names: Sequence[str], k: int, n_players: int, res: dict | None = None, deal: float | None = None
) -> dict:
    """Level ``k`` of a ladder of ``names``: one seat of it against the level
    below, from ``res`` (its head-to-head win rate, interval and games; None
    for level 0, which has no level below); it beats the level below when
    the interval lies above the fair share."""
    fair = 1 / n_players
    got = res or {}
    return dict(
        level=k,
        agent=names[k],
        below=names[k - 1] if res else None,
        win_rate_vs_below=got.get("win_rate"),
        low=got.get("low"),
        high=got.get("high"),
        games=got.get("games", 0),
        fair=fair,
        beats_below=bool(got["low"] > fair) if res else None,
        deal_share=deal,
    )


def luck(
    game: Game,
    *,
    n_players: int,
    n_games: int = 1000,
    seed: int = 0,
    params=None,
    levels=None,
    run: RunConfig | None = None,
) -> dict:
    """How often one seat of the weakest level beats the strongest (win rate
    with its interval, against the fair share), and the share of the weakest
    seat's score variance the deal explains in that match."""
    run = run or RunConfig()
    names = ladder_of(game, levels)
    res, frame = head_to_head(
        game, names[0], names[-1], n_players=n_players, n_games=n_games, seed=seed, params=params, run=run
    )
    return {
        "weakest": names[0],
        "strongest": names[-1],
        "weakest_wins": res["win_rate"],
        "low": res["low"],
        "high": res["high"],
        "games": res["games"],
        "fair": 1 / n_players,
        "deal_share": deal_share(frame, names[0]),
    }


def render(levels: list[dict], luck_measures: dict | None = None) -> str:
    """Plain text for the command line."""
    lines = [f"{'level':>5}  {'agent':<16} {'vs below':<16} {'win rate':>9}  95% interval     games"]
    for r in levels:
        if r["win_rate_vs_below"] is None:
            lines.append(f"{r['level']:>5}  {r['agent']:<16} (weakest)")
            continue
        mark = "beats it" if r["beats_below"] else "does not beat it"
        lines.append(
            f"{r['level']:>5}  {r['agent']:<16} {r['below']:<16} {100 * r['win_rate_vs_below']:8.1f}%  "
            f"[{100 * r['low']:5.1f}, {100 * r['high']:5.1f}]  {r['games']:>6}  {mark}"
        )
    if levels:
        lines.append(f"fair share of one seat: {100 * levels[0]['fair']:.1f}%")
    if luck_measures:
        m = luck_measures
        lines.append(
            f"luck: one {m['weakest']} seat against {m['strongest']} wins {100 * m['weakest_wins']:.1f}% "
            f"[{100 * m['low']:.1f}, {100 * m['high']:.1f}] of {m['games']} games (fair {100 * m['fair']:.1f}%); "
            + (
                f"the deal explains {100 * m['deal_share']:.0f}% of its score variance"
                if np.isfinite(m["deal_share"])
                else "how much of its score variance the deal explains cannot be measured (one rotation per deal)"
            )
        )
    return "\n".join(lines)


# --- the skill trace: a metric at every level of the game's ladder (``gamelab skill --trace``) ---------
#
# After Ludii's SkillTrace and TAG's skill ladder: level 0 is random play on every seat, level 1 the
# game's default model, then the game's search agent (``GAME.skill.search``) on every seat at each
# budget of ``GAME.skill.budgets`` (its knob ``GAME.skill.budget``, doubling).  At each level the
# metric is measured on a table of that level only, with its 95 % bootstrap interval over deals; the
# levels meet head to head (one seat of the row's level among P - 1 seats of the column's level), and
# a level "beats the one below" when its seat's win-rate interval lies above the fair share.

STYLE_GAMES = 1024  # games per restricted-play style row


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
        out[name] = _simulate(game, r, run)
    return out


def _simulate(game: Game, r: Run, run: RunConfig) -> pd.DataFrame:
    """The table of run ``r`` (through the run's store)."""
    return runner.simulate(game, **run_args(r), **run.simulate_args())


def _grouping(name: str) -> str | None:
    """The column a metric compares groups of (``style_spread`` -> style), if any."""
    import re

    found = re.match(r"^win_rate\[(\w+)=", name) or re.match(r"^(\w+?)_(spread|gap)$", name)
    return found.group(1) if found else None


def measure(game: Game, frame: pd.DataFrame, name: str) -> dict:
    """``name`` on ``frame`` with its 95 % interval; value None (and why) when
    this table cannot give it (one style on every seat, ...)."""
    from gamelab.stats import balance

    m = balance.metric(game, name)
    by = _grouping(name)
    if by is not None:
        values = set(frame[by].astype(str)) - {"none"} if by in frame else set()
        if len(values) < (1 if name.startswith("win_rate[") else 2):
            return {"value": None, "low": None, "high": None, "note": f"one {by} or none on every seat"}
    try:
        e = balance.estimate(frame, [m]).iloc[0]
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


def matrix(
    game: Game,
    levels: list[Level],
    *,
    n_players: int,
    n_games: int,
    seed: int,
    pairs: str = "all",
    run: RunConfig | None = None,
) -> list[dict]:
    """Head to head: for each pair of levels (``all``, ``adjacent`` ones
    only, or ``none``), one seat of the higher level among P - 1 seats of the lower, its
    win rate over deals with the 95 % interval, against the fair share."""
    run = run or RunConfig()
    out = []
    for hi, lo, r in matrix_runs(game, levels, n_players=n_players, n_games=n_games, seed=seed, pairs=pairs):
        res, _ = head_to_head(
            game, hi.seat, lo.rest, n_players=n_players, n_games=r.n_games, seed=r.seed, params=r.params, run=run
        )
        out.append(
            {
                "row": hi.name,
                "column": lo.name,
                "win_rate": res["win_rate"],
                "low": res["low"],
                "high": res["high"],
                "games": res["games"],
                "fair": 1 / n_players,
                "beats": bool(res["low"] > 1 / n_players),
            }
        )
    return out


def matrix_runs(
    game: Game, levels: list[Level], *, n_players: int, n_games: int, seed: int, pairs: str = "all"
) -> list[tuple[Level, Level, Run]]:
    """(higher level, lower level, the run of their head-to-head cell) of each cell of :func:`matrix`."""
    out = []
    for j, hi in enumerate(levels):
        for i, lo in enumerate(levels[:j]):
            if pairs == "none" or (pairs == "adjacent" and i != j - 1):
                continue
            cell = h2h_run(
                hi.seat,
                lo.rest,
                n_players=n_players,
                n_games=n_games,
                seed=seed + SEEDS_APART * (1 + j * len(levels) + i),
                params=mixed_params(game, hi, lo),  # budgets ride on the seats' names (search@b)
            )
            out.append((hi, lo, cell))
    return out


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
            f = _simulate(game, r, run)
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


def restricted_table(
    game: Game, lv: Level, metric: str, *, n_players: int, n_games: int, seed: int
) -> tuple[str, Run] | None:
    """(agent, run) that measures ``metric`` at search rung ``lv`` by
    restricted play, when ``metric`` is the win rate of one value of the
    game's ``skill.restricted_group`` (``win_rate[style=heavy]``): one seat of
    the rung's player restricted to it among unrestricted seats of the rung
    (a search seat's style is otherwise only how the table models it)."""
    import re

    found = re.match(r"^win_rate\[(\w+)=([^\]]+)\]$", metric)
    if not (lv.search and found and game.skill.restricted and found.group(1) == game.skill.restricted_group):
        return None
    agent = game.skill.restricted(lv.name).get(found.group(2))
    if agent is None:
        return None
    seed = seed + SEEDS_APART * 97  # apart from the rung's own table
    params = mixed_params(game, lv, lv)
    return agent, h2h_run(agent, lv.rest, n_players=n_players, n_games=n_games, seed=seed, params=params)


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


def steps_words(t: Trace) -> str:
    """The decided ladder in words: the rungs that beat one another, where
    skill stops and the headroom, and the games the tests took."""
    if any(s.get("decision") == "interval" for s in t.steps):  # levels measured, not decided
        fails = [s for s in t.steps if not s["beats"]]
        return "Levels measured, not decided: " + (
            "each beats the one below by its interval."
            if not fails
            else "; ".join(
                f"{s['level']} does not beat {s['below']} ({100 * s['win_rate']:.1f} % for one seat, fair "
                f"{100 / t.players:.1f} %, not above it)"
                for s in fails
            )
            + "."
        )
    if not t.steps and t.stop is None:
        if t.decided_at:
            return f"The rungs were decided at {t.decided_at} players; here the metric is measured at them."
        return "No step of the ladder was decided."
    top = t.steps[-1]["level"] if t.steps else t.rows[0]["level"]
    return ladder_words(t.game, top, t.steps, t.stop, t.headroom, t.ladder_games, t.players)


def metric_words(t: Trace) -> tuple[str, bool]:
    """The traced metric's label from its declaration (``style spread``) and
    whether it reads in points (shares and spreads of shares)."""
    from gamelab.stats import balance

    m = balance.metric(t.game, t.metric)
    return m.label, bool(m.percent)


def _in_points(t: Trace) -> bool:
    """Whether the traced metric reads in points (a spread) rather than per cent (a win rate)."""
    from gamelab.stats import balance

    return balance.in_points(balance.metric(t.game, t.metric))


def trace_sentence(t: Trace) -> str:
    """The answer first: how the metric moves from random play to the strongest search."""
    label, pct = metric_words(t)
    measured = [r for r in t.rows if r["value"] is not None]
    if len(measured) < 2:
        return f"The {label} could not be measured at two skill levels."

    def amount(x):
        return (f"{100 * x:.1f} points" if _in_points(t) else f"{100 * x:.1f} %") if pct else f"{x:.3g}"

    first, last = measured[0], measured[-1]
    return (
        f"The {label} is {amount(first['value'])} at the {first['level']} level and {amount(last['value'])} "
        f"at the strongest ({last['level']}); levels named agent@b search with a budget of b."
    )


def render_trace(t: Trace) -> str:
    """Plain text for the command line: the answer in a sentence, the levels, the matrix."""
    label, pct = metric_words(t)

    def num(x):
        return "—" if x is None else (f"{100 * x:.1f}" if pct else f"{x:.3g}")

    unit = (" (points)" if _in_points(t) else " (%)") if pct else ""
    lines = [trace_sentence(t), steps_words(t), ""]
    lines.append(f"{'level':<14} {'agent':<28} {'budget':>6}  {label + unit:>22}  95% interval   games")
    for r in t.rows:
        interval = "" if r["value"] is None else f"[{num(r['low'])}, {num(r['high'])}]"
        b = "" if r["budget"] is None else str(r["budget"])
        lines.append(
            f"{r['level']:<14} {r['agent'][:28]:<28} {b:>6}  {num(r['value']):>22}  {interval:<14} {r['games']:>6}"
            + (f"  ({r['note']})" if r.get("note") else "")
        )
    if t.fair is not None:
        lines.append(f"fair: {num(t.fair)}{' ' + unit.strip(' ()') if unit else ''}")
    if t.steps or t.stop:
        lines.append("\nsteps (one seat of the rung among the rung below, sequential test, 2 points over fair):")
        shown = t.steps + ([t.stop] if t.stop else [])
        if t.headroom:
            shown.append(dict(t.headroom, level=f"headroom: {t.headroom['level']}"))
        for s in shown:
            lines.append(
                f"  {s['level']:<22} vs {s['below']:<14} {100 * s['win_rate']:5.1f} % "
                f"[{100 * s['low']:5.1f}, {100 * s['high']:5.1f}]  {s['decision']:<9} {s['games']:>7,} games"
            )
    if t.styles:
        lines.append("\nstyles by restricted play (one seat restricted to the style among unrestricted seats):")
        for r in t.styles:
            lines.append(
                f"  {r['rung']:<10} {r['style']:<13} {100 * r['win_rate']:5.1f} % "
                f"[{100 * r['low']:5.1f}, {100 * r['high']:5.1f}]  {r['games']:>6} games  {r['edge']} fair"
            )
    names = [r["level"] for r in t.rows]
    cell = {(c["row"], c["column"]): c for c in t.matrix}
    lines.append(
        "\nhead to head: one seat of the row's level among the column's (win rate %, fair "
        f"{100 / t.players:.1f} %; * = interval above fair)"
    )
    w = max(11, max(len(n) for n in names) + 2)  # column width: the longest level name
    lines.append(" " * 14 + "".join(f"{n:>{w}}" for n in names[:-1]))
    for hi in names[1:]:
        parts = []
        for lo in names[:-1]:
            c = cell.get((hi, lo))
            parts.append(" " * w if c is None else f"{100 * c['win_rate']:>{w - 2}.1f}{'*' if c['beats'] else ' '} ")
        lines.append(f"{hi[:14]:<14}" + "".join(parts))
    return "\n".join(lines)


def level_ticks(game: Game, levels: list[str]) -> tuple[list[str], str]:
    """A trace chart's x ticks in the game's words: a search rung by its
    budget alone (``best@8`` -> ``8``) and one line saying what the number is
    (``N: search, N play-outs per option``); other levels as named."""
    from gamelab.core import budgets
    from gamelab.core.labels import agent_label

    searched = [parts for lv in levels if (parts := budgets.split(lv))]
    ticks = [str(b) if (b := budgets.budget_of(lv)) else lv for lv in levels]
    if not searched:
        return ticks, ""
    return ticks, "N: " + agent_label(game, f"{searched[0][0]}{budgets.SEPARATOR}N")


# --- a verdict classified from its trace ------------------------------------------------------------

RULES_KINDS = ("holds at every skill level", "grows with skill", "shrinks with skill", "appears with skill")


def classify(rows: list[dict], fair: float) -> str:
    """How a directional verdict (a metric away from ``fair``) moves over the
    levels of a trace from the default model up (random play aside): one of
    ``holds at every skill level``, ``grows with skill``, ``shrinks with
    skill`` (clear at every level, the strongest's interval of the distance
    from fair apart from the default model's), ``vanishes at high skill``
    (clear with the default model, not with the strongest search),
    ``appears with skill``, ``reverses`` (clear on both sides of fair at
    different levels), ``comes and goes``, ``not seen at any level``."""
    measured = [r for r in rows[1:] if r["value"] is not None]
    if not measured:
        return "not seen at any level"
    sides = [1 if r["low"] > fair else -1 if r["high"] < fair else 0 for r in measured]
    if 1 in sides and -1 in sides:
        return "reverses"
    if all(sides):
        first, last = measured[0], measured[-1]
        sign = sides[0]
        lo_first, hi_first = sorted(((first["low"] - fair) * sign, (first["high"] - fair) * sign))
        lo_last, hi_last = sorted(((last["low"] - fair) * sign, (last["high"] - fair) * sign))
        if lo_last > hi_first:
            return "grows with skill"
        if hi_last < lo_first:
            return "shrinks with skill"
        return "holds at every skill level"
    if sides[0] and not sides[-1]:
        return "vanishes at high skill"
    if not sides[0] and sides[-1]:
        return "appears with skill"
    return "comes and goes" if any(sides) else "not seen at any level"


def verdict_words(subject: str, t: Trace, kind: str) -> str:
    """``seat 1's edge holds at every skill level (41.7 % with the default
    model, 45.6 % with best@8)``."""
    measured = [r for r in t.rows[1:] if r["value"] is not None]
    pct = t.metric.startswith("win_rate[") or t.metric.endswith(("_spread", "_gap"))

    def num(x):
        return f"{100 * x:.1f} %" if pct else f"{x:.3g}"

    if not measured:
        return f"{subject}: not measured above random play"
    first, last = measured[0], measured[-1]
    return (
        f"{subject} {kind} ({num(first['value'])} with the {first['level']} model"
        if first["level"] == "default"
        else f"{subject} {kind} ({num(first['value'])} with {first['level']}"
    ) + f", {num(last['value'])} with the strongest search, {last['level']})"


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


def _weak_strong(game: Game, n_players: int, params, rungs) -> tuple[Level, Level]:
    """Random play and the strongest of ``rungs`` (rung names; None: every level)."""
    levels = [lv for lv in trace_levels(game, n_players, params) if rungs is None or lv.name in rungs]
    return levels[0], levels[-1]


def luck_run(game: Game, *, n_players: int, n_games: int, seed: int = 0, params=None, rungs=None) -> Run:
    """The run of :func:`trace_luck`: one random seat among the strongest rung."""
    weak, strong = _weak_strong(game, n_players, params, rungs)
    return h2h_run(
        weak.seat, strong.rest, n_players=n_players, n_games=n_games, seed=seed, params=mixed_params(game, weak, strong)
    )


def trace_luck(
    game: Game,
    *,
    n_players: int,
    n_games: int,
    seed: int = 0,
    params=None,
    run: RunConfig | None = None,
    rungs=None,
) -> dict:
    """:func:`luck` over the trace's levels: one seat of random play among
    the strongest rung (of ``rungs``, the decided ones; None: every level) on every other seat."""
    run = run or RunConfig()
    weak, strong = _weak_strong(game, n_players, params, rungs)
    r = luck_run(game, n_players=n_players, n_games=n_games, seed=seed, params=params, rungs=rungs)
    res, frame = head_to_head(
        game, weak.seat, strong.rest, n_players=n_players, n_games=n_games, seed=seed, params=r.params, run=run.quiet()
    )
    return {
        "weakest": weak.name,
        "strongest": strong.name,
        "weakest_wins": res["win_rate"],
        "low": res["low"],
        "high": res["high"],
        "games": res["games"],
        "fair": 1 / n_players,
        "deal_share": deal_share(frame, weak.seat),
    }


def rung_words(game: Game, name: str) -> str:
    """A rung in the game's words (``GAME.skill.rung_words``; else its name)."""
    words = game.skill.rung_words
    return words(name) if words else name


def climb_words(game: Game, c: Climb, players: int) -> str:
    """:func:`ladder_words` of a climb."""
    accepted = [s for s in c.steps if s["beats"]]
    return ladder_words(game, c.rungs[-1].name, accepted, c.stop, c.headroom, c.games, players)


def ladder_words(game: Game, top: str, accepted, stop, headroom, games: int, players: int) -> str:
    """The rungs that beat one another (``accepted`` steps), where skill
    stops (``stop``) and the headroom, with the games the tests took."""

    def pct(x):
        return f"{100 * x:.1f} %"

    parts = []
    if accepted:
        parts.append(
            "Each rung beats the one below (one seat among the rung below, decided by the sequential test): "
            + "; ".join(
                f"{rung_words(game, s['level'])} {pct(s['win_rate'])} against {rung_words(game, s['below'])} "
                f"({s['games']:,} games)"
                for s in accepted
            )
            + "."
        )
    if stop is not None:
        why = (
            "a sample that could have shown 2 points did not"
            if stop["decision"] == "no"
            else f"{stop['games']:,} games did not settle it"
        )
        parts.append(
            f"Skill stops at {rung_words(game, top)}: {rung_words(game, stop['level'])} wins "
            f"{pct(stop['win_rate'])} [{pct(stop['low'])}, {pct(stop['high'])}] against it "
            f"(fair {pct(stop['fair'])}; {why}, {stop['games']:,} games)."
        )
    if headroom is not None:
        h = headroom
        low_ceiling = h["high"] < h["fair"] + 0.05
        parts.append(
            f"Skill headroom: one seat of the top rung, {rung_words(game, top)}, among default-model players "
            f"wins {pct(h['win_rate'])} [{pct(h['low'])}, {pct(h['high'])}] against a fair {pct(h['fair'])} "
            f"({h['games']:,} games)" + ("; a low ceiling: skill buys little in this game." if low_ceiling else ".")
        )
    parts.append(f"The ladder's tests took {games:,} games at {players} players.")
    return " ".join(parts)


# --- styles at skill by restricted play (Jaffe et al. 2012) -------------------------------------------


def style_runs(game: Game, rung: Level, *, n_players: int, n_games: int, seed: int) -> list[tuple[str, str, Run]]:
    """(style, agent, run) of each restricted-play row at ``rung``: one seat
    of the rung's player restricted to the style among unrestricted seats."""
    named = game.skill.restricted(rung.name) if game.skill.restricted else {}
    out = []
    for k, (style, agent) in enumerate(named.items()):
        r = h2h_run(
            agent,
            rung.rest,
            n_players=n_players,
            n_games=n_games,
            seed=seed + SEEDS_APART * (101 + k),
            params=mixed_params(game, rung, rung),
        )
        out.append((style, agent, r))
    return out


def style_rows(
    game: Game,
    rungs: Sequence[Level],
    *,
    n_players: int,
    n_games: int = STYLE_GAMES,
    seed: int = 0,
    run: RunConfig | None = None,
) -> list[dict]:
    """Each style's edge at each of ``rungs``: the win rate of one seat of the
    rung's player restricted to the style's defining choice among P - 1
    unrestricted seats of the rung, with its 95 % interval, against the fair
    share (``edge``: above, below or neither)."""
    run = run or RunConfig()
    out = []
    for rung in rungs:
        todo = style_runs(game, rung, n_players=n_players, n_games=n_games, seed=seed)
        prefetch(game, [r for _, _, r in todo], run=run)
        for style, agent, r in todo:
            res, _ = head_to_head(
                game, agent, rung.rest, n_players=n_players, n_games=n_games, seed=r.seed, params=r.params, run=run
            )
            fair = 1 / n_players
            edge = "above" if res["low"] > fair else "below" if res["high"] < fair else "neither"
            out.append({"rung": rung.name, "style": style, "agent": agent, **res, "fair": fair, "edge": edge})
    return out


def style_words(game: Game, rows: list[dict]) -> str:
    """The styles' edges at the top rung of ``rows`` in words (restricted play)."""
    if not rows:
        return ""
    top = rows[-1]["rung"]
    at = [r for r in rows if r["rung"] == top]
    best = max(at, key=lambda r: r["win_rate"])
    worst = min(at, key=lambda r: r["win_rate"])

    def pct(x):
        return f"{100 * x:.1f} %"

    def said(r):
        return f"the {r['style'].replace('_', ' ')} style {pct(r['win_rate'])} [{pct(r['low'])}, {pct(r['high'])}]"

    return (
        f"Styles at {rung_words(game, top)} (the rung's player restricted to each style's defining choice, "
        f"one seat among unrestricted ones, fair {pct(best['fair'])}): {said(best)} wins the most, {said(worst)} "
        "the least."
    )


# --- a verdict across skill from sequential tests at the default model and the top rung --------------

DECIDED_KINDS = {
    "holds": "holds from the default model to the top rung",
    "grows": "grows with skill",
    "shrinks": "shrinks with skill",
    "vanishes": "vanishes at the top rung",
    "appears": "appears with skill",
    "reverses": "reverses at the top rung",
    "absent": "is not there at the default model or the top rung",
    "undecided": "is not decided at both ends",
}
RULES_CLASSES = ("holds", "grows", "shrinks", "appears")  # the imbalance is there with skilled play


def decided_class(at_default: dict, at_top: dict, reverse_at_top: dict | None = None) -> str:
    """The class of a directional verdict from its sequential tests (each
    {decision, estimate, low, high}: "is it more than the margin away from
    fair on its side?") at the default model and at the top rung, and the
    opposite side's test at the top rung (asked when the first says no):
    holds, grows / shrinks (both yes, the corrected intervals apart),
    vanishes, appears, reverses, absent (no at both ends), undecided."""
    d0, d1 = at_default["decision"], at_top["decision"]
    if reverse_at_top is not None and reverse_at_top["decision"] == "yes":
        return "reverses"
    if "undecided" in (d0, d1):
        return "undecided"
    if d0 == "yes" and d1 == "yes":
        sign = at_top.get("sign", 1)
        lo0, hi0 = sorted((sign * at_default["low"], sign * at_default["high"]))
        lo1, hi1 = sorted((sign * at_top["low"], sign * at_top["high"]))
        return "grows" if lo1 > hi0 else "shrinks" if hi1 < lo0 else "holds"
    if d0 == "yes":
        return "vanishes"
    if d1 == "yes":
        return "appears"
    return "absent"


# --- the learned rung (issue 39: a policy learned from the top search rung) ---------------------------
def learned_rung(
    game: Game, *, n_players: int, seed: int = 0, params=None, run: RunConfig | None = None
) -> dict | None:
    """The learned rung's decided tests (:func:`gamelab.decide.ladder.learned_tests`), None when the
    game has none (``GAME.skill.learned``); played through ``run`` (local processes or a cluster)."""
    from gamelab.decide.ladder import learned_tests

    run = run or RunConfig()
    found = learned_tests(game, n_players=n_players, seed=seed, params=params, run=run)
    if found is None:
        return None
    rung = learned_levels(game, n_players, params)[0]  # type: ignore[index]  # found: the game has one
    if game.skill.restricted and game.skill.restricted(rung.name):  # styles at the learned rung, restricted play
        found["styles"] = style_rows(game, [rung], n_players=n_players, seed=seed, run=run.quiet())
    return found


def learned_json(found: dict, level: int) -> dict:
    """The learned rung as a row of ``gamelab skill --json``: the ladder's keys (its win rate
    against the default model as ``win_rate_vs_below``) and its three decided tests."""
    vs = found["tests"]["beats_default"]
    keep = ("level", "below", "question", "decision", "win_rate", "low", "high", "games", "fair")
    return {
        "level": level,
        "agent": found["rung"],
        "learned": True,
        "win_rate_vs_below": vs["win_rate"],
        "low": vs["low"],
        "high": vs["high"],
        "games": sum(t["games"] for t in found["tests"].values()),
        "top": found["top"],
        "beats_default": found["beats_default"],
        "as_strong_as_top": found["as_strong_as_top"],
        "tests": {k: {x: t[x] for x in keep} for k, t in found["tests"].items()},
        "styles": [
            {k: r[k] for k in ("style", "agent", "win_rate", "low", "high", "games", "fair", "edge")}
            for r in found.get("styles", [])
        ],
    }


def learned_words(game: Game, found: dict) -> str:
    """The learned rung's tests in words."""
    t = found["tests"]

    def said(step: dict) -> str:
        return (
            f"{100 * step['win_rate']:.1f} % [{100 * step['low']:.1f}, {100 * step['high']:.1f}] for one seat, "
            f"{step['decision']} after {step['games']:,} games"
        )

    top = rung_words(game, found["top"])
    return "\n".join(
        (
            f"learned rung ({found['rung']}):",
            f"  one seat among the default model: {said(t['beats_default'])} (beats it: yes wanted)",
            f"  one seat of {top} among it: {said(t['top_beats_it'])} (2 points over fair: no wanted)",
            f"  one seat of it among {top}: {said(t['holds_vs_top'])} (not below fair - 2 points: yes wanted)",
            *([style_words(game, found["styles"])] if found.get("styles") else []),
        )
    )
