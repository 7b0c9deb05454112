"""Which levers move an imbalance: one step down and one step up of every
declared rule parameter, each played on the same deals as the current rules.

    table = levers(GAME, n_players=4, n_games=4000)
    tornado_figure(table, "style_spread")

A step per kind of parameter (:func:`steps`): an integer moves by one within
its range, a float by a tenth of its range, a flag is flipped, a choice takes
every other choice; a tuple of integers (``node_values``) moves each item by
one on its own (tuples of more than :data:`MAX_ITEMS` items, such as a
60-square board, are not stepped item by item) and all items together
through the game's derived ``*_scale`` knob at 0.9 and 1.1.  A step the
parameter declarations refuse, or one that changes nothing, is skipped and
reported.  Every setting is played with the same seed (common random
numbers: the same deals, the same seat rotations), through the chunk store
and an executor, and compared with the current rules by
:func:`gamelab.stats.bootstrap.paired_change` (paired bootstrap over deals).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamelab.core import paths
from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError
from gamelab.core.labels import change_words, param_words
from gamelab.core.params import ParamSpec, from_mapping, specs
from gamelab.decide.defaults import DEFAULT_GAMES
from gamelab.sim import runner, sweep
from gamelab.sim.run import RunConfig
from gamelab.stats import balance, balance_metric, bootstrap

MAX_ITEMS = 12  # longer tuples are not stepped item by item
FLOAT_STEP = 0.1  # a float moves by this share of its declared range
SCALE_STEPS = (0.9, 1.1)  # values of a derived ``*_scale`` knob
SCALE_SUFFIX = "_scale"


@dataclasses.dataclass(frozen=True)
class Step:
    """One setting to compare with the current rules."""

    parameter: str  # "sum_cap", "node_values[3]", "node_scale"
    value: Any  # the parameter's (or item's, or knob's) new value
    direction: int  # -1 a step down, +1 up, 0 another choice / a flipped flag
    changes: dict  # parameter -> new value, from the current rules


@dataclasses.dataclass(frozen=True)
class Skipped:
    parameter: str
    value: Any
    reason: str


def _numeric_steps(value, step) -> list[tuple[Any, int]]:
    out = []
    for direction in (-1, 1):
        new = value + direction * step
        if isinstance(value, float):
            new = round(new, 12)
        out.append((new, direction))
    return out


def _scalar_steps(spec: ParamSpec, value) -> list[tuple[Any, int]] | str:
    """(new value, direction) pairs for a scalar, or why it has none."""
    if spec.choices is not None:
        return [(c, 0) for c in spec.choices if c != value]
    if spec.kind is bool:
        return [(not value, 0)]
    if spec.kind is int:
        return _numeric_steps(value, 1)
    if spec.kind is float:
        if spec.low is None or spec.high is None:
            return "a float without a declared range"
        return _numeric_steps(value, FLOAT_STEP * (spec.high - spec.low))
    return f"a {spec.kind.__name__} without declared choices"


def _scale_knobs(derived, base, name: str) -> list[str]:
    """The game's derived ``*_scale`` knobs that change parameter ``name``."""
    out = []
    for knob, fn in derived.items():
        if not knob.endswith(SCALE_SUFFIX):
            continue
        try:
            if name in fn(base, SCALE_STEPS[-1]):
                out.append(knob)
        except Exception:  # a knob that does not apply to these rules
            continue
    return out


def steps(rules: type, base, derived=None, only: Sequence[str] | None = None) -> tuple[list[Step], list[Skipped]]:
    """Every step of the declared rule parameters of ``rules`` (or those in
    ``only``; a derived knob's name selects it alone) from ``base``, and the
    parameters or steps that have none, with the reason."""
    derived = derived or {}
    out: list[Step] = []
    skipped: list[Skipped] = []
    declared = {s.name: s for s in specs(rules)}
    wanted = list(only) if only else list(declared)
    unknown = [n for n in wanted if n not in declared and n not in derived]
    if unknown:
        raise GamelabError(
            f"unknown rule parameter {unknown[0]!r}: known are {', '.join(declared)}"
            + (f" and {', '.join(derived)}" if derived else "")
        )
    knobs_done: set[str] = set()
    for name in wanted:
        if name in derived:
            knobs = [name] if name.endswith(SCALE_SUFFIX) else []
            if not knobs:
                skipped.append(Skipped(name, None, "a derived knob that is not a scale"))
        else:
            spec, value = declared[name], getattr(base, name)
            knobs = _scale_knobs(derived, base, name) if spec.kind is tuple else []
            if spec.kind is tuple:
                out += _tuple_steps(spec, value, skipped)
            else:
                found = _scalar_steps(spec, value)
                if isinstance(found, str):
                    skipped.append(Skipped(name, value, found))
                else:
                    out += [Step(name, v, d, {name: v}) for v, d in found]
        for knob in knobs:
            if knob in knobs_done:
                continue
            knobs_done.add(knob)
            for v in SCALE_STEPS:
                out.append(Step(knob, v, -1 if v < 1 else 1, derived[knob](base, v)))
    return out, skipped


def _tuple_steps(spec: ParamSpec, value: tuple, skipped: list) -> list[Step]:
    if spec.item_kind is not int:
        skipped.append(Skipped(spec.name, value, "a list that is not of whole numbers"))
        return []
    if len(value) > MAX_ITEMS:
        skipped.append(
            Skipped(spec.name, f"{len(value)} items", f"more than {MAX_ITEMS} items: not stepped item by item")
        )
        return []
    out = []
    for i, item in enumerate(value):
        for direction in (-1, 1):
            new = list(value)
            new[i] = item + direction
            out.append(Step(f"{spec.name}[{i + 1}]", item + direction, direction, {spec.name: tuple(new)}))
    return out


def settings(game: Game, base, only=None, n_players: int | None = None) -> tuple[list[tuple[Step, Any]], list[Skipped]]:
    """Each step with its validated parameter object; refused steps (also those the rules
    refuse at ``n_players``: a step of the fewest players allowed above the count played) and
    steps that change nothing are skipped."""
    found, skipped = steps(game.rules, base, game.derived, only)
    out = []
    for step in found:
        try:
            params = from_mapping(game.knobs, step.changes, base=base, source=step.parameter)
            if n_players is not None:
                seats_allowed(game, params, n_players)
        except GamelabError as exc:
            skipped.append(Skipped(step.parameter, step.value, f"refused: {exc}"))
            continue
        if params == base:
            skipped.append(Skipped(step.parameter, step.value, "changes nothing"))
            continue
        out.append((step, params))
    return out, skipped


def seats_allowed(game: Game, params, n_players: int) -> None:
    """Raise the rules' own error when ``params`` do not allow ``n_players`` players: the engine
    sets up one game (its check of the player count is the only one; nothing is played)."""
    rng = np.random.default_rng(0)
    game.engine.init(params, 1, n_players, game.engine.draw_chance(params, 1, n_players, rng))


def skipped_words(skipped) -> str:
    """The steps not played, said once in words: one clause per parameter
    (``rounds → 7 or 9: refused by the rules (node values has 8 items but
    rounds is 7 …)``); "changes nothing" steps are left out (the value is
    the current one).  Empty when every step was played."""
    from gamelab.core.labels import key_words, value_words

    by_param: dict[str, list] = {}
    for s in skipped:
        if s["reason"] == "changes nothing":
            continue
        by_param.setdefault(s["parameter"].split("[")[0], []).append(s)
    clauses = []
    for name, rows in by_param.items():
        reason = rows[0]["reason"]
        words = param_words(name)
        if reason == "a list that is not of whole numbers":
            clauses.append(f"{words} (a list of names, with no step up or down: compare lists with a sweep)")
        elif reason.startswith("refused: "):
            values = " or ".join(dict.fromkeys(value_words(r["value"]) for r in rows))
            why = reason.removeprefix("refused: ")
            why = re.sub(r"\b[a-z]+(?:_[a-z0-9]+)+\b", lambda m: key_words(m.group(0)), why)  # snake_case in words
            why = why.replace(" = ", " is ")
            clauses.append(f"{words} → {values} (refused by the rules on its own: {why})")
        else:
            clauses.append(f"{words} ({key_words(reason)})")
    return ("Not stepped: " + "; ".join(clauses) + ".") if clauses else ""


def prefetch(game: Game, jobs: Sequence[tuple], *, n_games: int, seed: int, run: RunConfig, chunk_deals=None) -> None:
    """Play every missing chunk of ``jobs`` (each ``(params, lineup,
    n_players)``, all on the same deals) in one pass through the executor
    (:func:`gamelab.sim.prefetch.prefetch`), and keep them in the run's store."""
    from gamelab.core.contract import Run
    from gamelab.sim.prefetch import prefetch as play_missing

    runs = [
        Run(n_players=n, n_games=n_games, seed=seed, lineup=None if lu is None else tuple(lu), params=p)
        for p, lu, n in jobs
    ]
    play_missing(game, runs, run=run, chunk_deals=chunk_deals)


def play_all(
    game: Game,
    params_list: Sequence,
    *,
    n_games: int,
    seed: int,
    lineup=None,
    n_players=None,
    run: RunConfig | None = None,
    chunk_deals=None,
) -> list[sweep.CellRun]:
    """Play every parameter set on the same deals (:func:`prefetch`), then
    each set's table by :func:`gamelab.sim.sweep.run_cell` from the store
    (the workspace's chunk cache unless the run names one)."""
    from gamelab.sim.store import ChunkStore

    run = run or RunConfig()
    if run.store is None:
        run = dataclasses.replace(run, store=ChunkStore(paths.cache_dir()))
    run = run.ready()
    prefetch(
        game,
        [(p, lineup, n_players) for p in params_list],
        n_games=n_games,
        seed=seed,
        run=run,
        chunk_deals=chunk_deals,
    )
    return [
        sweep.run_cell(
            game,
            {},
            n_games=n_games,
            seed=seed,
            base_params=p,
            lineup=lineup,
            n_players=n_players,
            run=run.quiet(),
            chunk_deals=chunk_deals,
        )
        for p in params_list
    ]


def usable_metrics(game: Game, frame: pd.DataFrame, names: Sequence[str] | None = None) -> list[balance_metric.Metric]:
    """The metrics named (default: the game's whole catalogue plus the win
    rate of every value of each report group that has more than one) that
    this table can compute."""
    if names:
        return [balance.metric(game, n) for n in names]
    out = list(balance.catalogue(game).values())
    for group in game.report.groups:
        if group in frame and frame[group].nunique() > 1:
            out += [balance.win_rate(group, v) for v in sorted(pd.unique(frame[group]), key=str)]
    keep = []
    for m in out:
        try:
            bootstrap.deal_sums(frame.head(64), [m])
        except GamelabError:
            continue
        keep.append(m)
    return keep


def levers(
    game: Game,
    *,
    n_players: int | None = None,
    lineup=None,
    params=None,
    n_games: int = DEFAULT_GAMES,
    seed: int = 0,
    only: Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
    run: RunConfig | None = None,
) -> pd.DataFrame:
    """The paired change of every metric for every step of the rule
    parameters: columns ``parameter``, ``value``, ``direction``, ``metric``,
    ``base``, ``new``, ``change``, ``low``, ``high`` (95 % paired bootstrap),
    ``deals``.  ``table.attrs["skipped"]`` lists the steps not played and why."""
    base = params if params is not None else game.knobs()
    base, lineup, n_players = runner.resolve(game, base, lineup, n_players)
    todo, skipped = settings(game, base, only, n_players)
    runs = play_all(
        game, [base] + [p for _, p in todo], n_games=n_games, seed=seed, lineup=lineup, n_players=n_players, run=run
    )
    chosen = usable_metrics(game, runs[0].frame, metrics)
    rows = []
    for (step, _), cell in zip(todo, runs[1:]):
        change = bootstrap.paired_change(cell.frame, runs[0].frame, chosen)
        for r in change.itertuples(index=False):
            rows.append(
                {
                    "parameter": step.parameter,
                    "value": _text(step.value),
                    "words": change_words(step.parameter, old_value(base, step), step.value),
                    "direction": step.direction,
                    "metric": r.metric,
                    "base": r.base,
                    "new": r.value,
                    "change": r.change,
                    "low": r.low,
                    "high": r.high,
                    "deals": r.deals,
                }
            )
    table = pd.DataFrame(
        rows,
        columns=["parameter", "value", "words", "direction", "metric", "base", "new", "change", "low", "high", "deals"],
    )
    now = bootstrap.estimate(runs[0].frame, chosen, rng=np.random.default_rng(seed))  # "now": the paired run itself
    table.attrs.update(
        game=game.name,  # plain data: attrs are copied with the table
        players=n_players,
        games=runs[0].games,
        now={r.metric: (r.value, r.low, r.high) for r in now.itertuples()},
        seed=seed,
        skipped=[dataclasses.asdict(s) | {"value": _text(s.value)} for s in skipped],
        percent={m.name: m.percent for m in chosen},
        labels={m.name: m.label for m in chosen},  # what framing says of each metric: the table names no game
        goals={m.name: m.goal for m in chosen},
    )
    return table


def old_value(base, step: Step):
    """The value a step changes from: the parameter's, one item's, or a
    scale knob's (1)."""
    name = step.parameter.split("[")[0]
    if not hasattr(base, name):
        return 1.0 if name.endswith(SCALE_SUFFIX) else 0.0
    value = getattr(base, name)
    if "[" in step.parameter:
        return value[int(step.parameter.split("[")[1].rstrip("]")) - 1]
    return value


def _text(value) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(map(str, value)) + ")"
    return str(value)


def ranking(table: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Parameters ordered by how far their steps move ``metric`` (the
    largest absolute paired change of any of their steps)."""
    rows = table[table["metric"] == metric]
    if rows.empty:
        known = ", ".join(dict.fromkeys(table["metric"]))
        raise GamelabError(f"no metric {metric!r} in the sensitivity table: it has {known}")
    rows = rows.assign(size=rows["change"].abs(), clear=(rows["low"] > 0) | (rows["high"] < 0))
    order = rows.groupby("parameter", sort=False)["size"].max().sort_values(ascending=False)
    cols = ["parameter", "value", *(["words"] if "words" in rows else []), "direction"]
    return (
        rows.set_index("parameter")
        .loc[order.index]
        .reset_index()[[*cols, "base", "new", "change", "low", "high", "clear"]]
    )


@dataclasses.dataclass(frozen=True)
class Lever:
    """One rule step's effect on the metric, in the designer's words."""

    words: str  # "hand size 5 → 4"
    change: float
    low: float
    high: float
    sure: bool  # the 95 % interval excludes no change
    parameter: str = ""  # "node_values[3]"

    @property
    def idle(self) -> bool:
        """The step changed the metric in no deal at all (its rule is not used in these games)."""
        return self.change == 0 and self.low == 0 and self.high == 0


@dataclasses.dataclass(frozen=True)
class Framing:
    """The levers of one metric framed by the designer's goal: the steps
    sure to help (most first), those sure to hurt, and how many are not sure."""

    metric: str
    label: str
    percent: bool
    goal: str  # "lower", "higher", or "" (no better side: the steps that raise it, then lower it)
    now: float
    helps: list[Lever]
    hurts: list[Lever]
    unsure: list[Lever]  # moved by less than the noise (the idle steps not among them)
    idle: list[Lever] = dataclasses.field(default_factory=list)  # moved it in no deal at all
    players: int | None = None  # the run "now" comes from: its player count, games and 95 % interval
    games: int | None = None
    now_low: float | None = None
    now_high: float | None = None
    source: str = ""  # which run "now" is when it is not the paired run's own ("as in Design metrics; ...")

    def amount(self, x: float, unit: bool = True) -> str:
        """``−6.0 points`` (a share) or ``−0.42``; a real minus sign."""
        text = f"{x * 100:+.1f}" + (" points" if unit else "") if self.percent else f"{x:+.3g}"
        return text.replace("-", "−")

    def level(self) -> str:
        """``24.6 points at 4 players, 95 % interval 23.0–26.1, 2,000 games``: the figure now, with
        the run it comes from (the one every step is paired with)."""
        value = f"{self.now * 100:.1f} points" if self.percent else f"{self.now:.3g}"
        if self.players:
            value += f" at {self.players} players"
        if self.now_low is not None and self.now_high is not None:
            if self.percent:
                value += f", 95 % interval {self.now_low * 100:.1f}–{self.now_high * 100:.1f}"
            else:
                value += f", 95 % interval {self.now_low:.3g}–{self.now_high:.3g}"
        if self.games:
            value += f", {self.games:,} games"
        return value + (f", {self.source}" if self.source else "")

    def idle_words(self) -> str:
        """One sentence for the steps that moved the metric in no deal (empty when none)."""
        if not self.idle:
            return ""
        names = list(dict.fromkeys(param_words(x.parameter.split("[")[0]) for x in self.idle))
        shown = ", ".join(names[:8]) + (", …" if len(names) > 8 else "")
        n = len(self.idle)
        return f"{n} step{'s' if n != 1 else ''} changed it in no game (their rules are not used here: {shown})."

    def text(self, top: int = 5) -> str:
        """``To lower the seat spread (now 30.9 points): hand size 5 → 4
        (−6.0 points, sure); ... Changes that would make it worse: ...``"""

        def listed(levers):
            return "; ".join(f"{x.words} ({self.amount(x.change)}, sure)" for x in levers[:top])

        if self.goal:
            head = f"To {self.goal} the {self.label} (now {self.level()}): "
            good = listed(self.helps) if self.helps else "no single step is sure to help"
            bad = f" Changes that would make it worse: {listed(self.hurts)}." if self.hurts else ""
        else:
            head = f"What raises the {self.label} (now {self.level()}): "
            good = listed(self.helps) if self.helps else "no single step is sure to"
            bad = f" What lowers it: {listed(self.hurts)}." if self.hurts else ""
        rest = (
            f" {len(self.unsure)} other step{'s' if len(self.unsure) != 1 else ''} move it by less than the noise "
            "of these games (not sure)."
            if self.unsure
            else ""
        )
        idle = f" {self.idle_words()}" if self.idle else ""
        return f"{head}{good}.{bad}{rest}{idle}"


def framing(table: pd.DataFrame, metric: str, goal: str | None = None) -> Framing:
    """The levers of ``metric`` framed by ``goal`` ("lower" or "higher";
    default the metric's declared better side, as :func:`levers` kept it in the table)."""
    rows = ranking(table, metric)
    goal = table.attrs["goals"][metric] if goal is None else goal
    if goal not in ("lower", "higher", ""):
        raise GamelabError(f"goal {goal!r}: expected lower or higher")
    words = rows["words"] if "words" in rows else rows["parameter"].map(param_words) + " → " + rows["value"]
    levers = [
        Lever(w, float(r.change), float(r.low), float(r.high), bool(r.clear), str(r.parameter))
        for w, r in zip(words, rows.itertuples(index=False))
    ]
    good = (lambda x: x.change < 0) if goal == "lower" else (lambda x: x.change > 0)
    by_size = sorted(levers, key=lambda x: -abs(x.change))
    now = table.attrs.get("now", {}).get(metric)
    source = table.attrs.get("now_source", "")  # "now" from another run of the same rules (a report's)
    return Framing(
        metric,
        table.attrs["labels"][metric],
        table.attrs["percent"][metric],
        goal,
        float(now[0]) if source and now is not None else float(rows["base"].iloc[0]),
        [x for x in by_size if x.sure and good(x)],
        [x for x in by_size if x.sure and not good(x)],
        [x for x in by_size if not x.sure and not x.idle],
        [x for x in by_size if x.idle],
        players=table.attrs.get("players"),
        games=table.attrs.get("games"),
        now_low=None if now is None else now[1],
        now_high=None if now is None else now[2],
        source=source,
    )


HELPS_COLOUR, HURTS_COLOUR, UNSURE_COLOUR = "#2e7d32", "#c62828", "#9e9e9e"


def json_rows(table: pd.DataFrame) -> list[dict]:
    """The ``--json`` rows: parameter, value, metric, change, low, high."""
    cols = ["parameter", "value", "metric", "change", "low", "high"]
    return [
        {k: (float(v) if isinstance(v, (float, np.floating)) else v) for k, v in row.items()}
        for row in table[cols].to_dict("records")
    ]
