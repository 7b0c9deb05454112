"""Identity tables: each design identity of a rulebook as one row with the
rulebook's stated value, the exact value from the rule parameters, the value a
simulation measures (with its 95 % interval) and a verdict.

Each game's :class:`~gamelab.core.contract.Identities` lists its rows
(``rows(params)``, exact values only) and says which simulated metric backs
which row (``simulated(params, frames)``); this module joins them and judges.
"""

from __future__ import annotations

import math

import pandas as pd

from gamelab.core.contract import Game
from gamelab.core.identity_row import Row, rounding  # noqa: F401 (the rulebook layer's names for them)
from gamelab.sim.run import RunConfig

COLUMNS = ["identity", "quantity", "rulebook", "exact", "simulated", "sim_low", "sim_high", "n", "status"]
#: the columns holding the row's quantity (a rate in each of them when the row's ``percent`` is set)
VALUE_COLUMNS = ("rulebook", "exact", "exact_at_rulebook", "simulated", "sim_low", "sim_high")


#: the verdicts a row can get, in the order tables and summaries list them
HOLDS, DIFFERS, NOT_SUPPORTED, NO_FIGURE, REFERENCE, NOT_MEASURED = (
    "holds",
    "differs",
    "outside the simulated interval",
    "no rulebook figure",
    "reference (rules changed)",
    "not measured",
)
KINDS = (HOLDS, NOT_SUPPORTED, DIFFERS, REFERENCE, NOT_MEASURED, NO_FIGURE)


def judge(row: Row, *, comparable: bool = True, exact_comparable: bool | None = None) -> str:
    """The row's verdict against the rulebook's figure: ``holds``, ``differs
    by +x`` (the exact value), ``outside the simulated interval`` (the
    rulebook's figure outside the simulation's 95 % interval), ``no rulebook
    figure``, ``not measured``; or ``reference (rules changed)`` when the
    figure was stated for other parameters than these (``comparable`` False
    for the simulated value, ``exact_comparable`` for the exact one: it
    defaults to ``comparable``)."""
    if row.rulebook is None:
        return NO_FIGURE
    exact_ok = comparable if exact_comparable is None else exact_comparable
    sim = row.simulated is not None and row.sim_low is not None and row.sim_high is not None and not _nan(row.simulated)
    if row.exact is not None and _nan(row.exact):  # computed, but has no value under these rules
        return REFERENCE if not exact_ok else NOT_MEASURED
    if row.exact is not None:
        if not exact_ok:
            return REFERENCE
        gap = row.exact - row.rulebook
        verdict = HOLDS if abs(gap) <= row.tolerance + 1e-9 else f"{DIFFERS} by {gap_words(float(gap), row.percent)}"
        if verdict == HOLDS and sim and comparable and not _supported(row):
            verdict = f"{HOLDS} exactly; {NOT_SUPPORTED} in play"
        return verdict
    if sim:
        if not comparable:
            return REFERENCE
        return HOLDS if _supported(row) else NOT_SUPPORTED
    return NOT_MEASURED


def gap_words(gap: float, percent: bool = False) -> str:
    """A verdict's gap: ``+1`` between counts, ``+1.2 points`` between rates (a rate reads in % everywhere)."""
    return f"{gap * 100:+.1f} points".replace("-", "−") if percent else f"{gap:+.4g}"


def _supported(row: Row) -> bool:
    if row.sim_low is None or row.sim_high is None or row.rulebook is None:
        return False
    return row.sim_low - row.tolerance <= row.rulebook <= row.sim_high + row.tolerance


def _nan(x) -> bool:
    return isinstance(x, float) and math.isnan(x)


def kind(status: str) -> str:
    """The verdict of a status text (``differs by +1`` -> ``differs``)."""
    for k in (REFERENCE, NO_FIGURE, NOT_SUPPORTED, NOT_MEASURED, DIFFERS, HOLDS):
        if status.startswith(k):
            return k
    return status


def counts(table: pd.DataFrame) -> dict[str, int]:
    """How many rows got each verdict (only verdicts that occur, in :data:`KINDS` order)."""
    found = table["status"].map(kind).value_counts() if len(table) else pd.Series(dtype=int)
    return {k: int(found[k]) for k in KINDS if k in found}


def summary(table: pd.DataFrame) -> str:
    """``11 hold, 9 outside the simulated interval, 1 differs; 15 rows have no rulebook figure``."""
    c = counts(table)
    words = {
        HOLDS: ("holds", "hold"),
        DIFFERS: ("differs", "differ"),
        NOT_SUPPORTED: ("outside the simulated interval",) * 2,
        REFERENCE: ("shown as reference (rules changed)",) * 2,
        NOT_MEASURED: ("not measured",) * 2,
    }
    judged = [f"{c[k]} {words[k][c[k] != 1]}" for k in KINDS if k in c and k != NO_FIGURE]
    text = ", ".join(judged) if judged else "no row has a rulebook figure"
    if NO_FIGURE in c:
        text += f"; {c[NO_FIGURE]} {'row has' if c[NO_FIGURE] == 1 else 'rows have'} no rulebook figure"
    return text


def players_of(frame: pd.DataFrame) -> int:
    return int(frame.groupby("game").size().iloc[0])


def rules_changed(game: Game, params) -> list[str]:
    """The rule parameters (not the agents' knobs) that differ from the rulebook."""
    from gamelab.core.params import specs

    base = game.rules()
    return [sp.name for sp in specs(game.rules) if getattr(params, sp.name, sp.default) != getattr(base, sp.name)]


def _match(rows: list[Row], reference: list[Row]) -> list[Row | None]:
    """The rulebook-parameter row of each row: by position when both lists
    name the same identities in the same order, else by quantity."""
    if [r.identity for r in rows] == [r.identity for r in reference]:
        return list(reference)
    by_quantity = {r.quantity: r for r in reference}
    return [by_quantity.get(r.quantity) for r in rows]


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(float(a) - float(b)) <= 1e-12 or (_nan(a) and _nan(b))


def play_runs(game: Game, runs, params=None, *, run: RunConfig | None = None) -> dict:
    """Play the runs a game asks for (``{key: contract.Run}``): the game
    says what it needs, the shared layer plays it (a game never simulates),
    through the run's chunk store when it names one (quiet unless asked)."""
    from gamelab.sim import runner

    how = run or RunConfig(progress=False)
    return {
        key: runner.simulate(
            game,
            n_games=r.n_games,
            seed=r.seed,
            n_players=r.n_players,
            lineup=r.lineup,
            params=r.params if r.params is not None else params,
            workers=how.workers,
            executor=how.executor,
            progress=how.progress,
            store=how.store,
        )
        for key, r in runs.items()
    }


def identity_table(
    game: Game,
    params=None,
    *,
    frame: pd.DataFrame | None = None,
    frames: dict | None = None,
    store=None,
    **kw,
) -> pd.DataFrame:
    """The identity table of ``game`` at ``params``; with simulated frames
    (from :func:`gamelab.sim.runner.simulate`: ``frame``, or ``frames`` by player
    count), the simulated column.  A row whose metric needs a player count
    that was not simulated stays empty.

    A rulebook figure is judged only at the parameters it was stated for
    (the rulebook's rules, and the game's own defaults of ``kw``): an exact
    value that the change moved, and every simulated value under changed
    rules, get the verdict ``reference (rules changed)``; the column
    ``exact_at_rulebook`` then shows the exact value at the rulebook's rules."""
    mod = game.rulebook.identities
    if mod is None:
        return pd.DataFrame(columns=COLUMNS)
    params = params if params is not None else game.rules()
    rows: list[Row] = mod.rows(params, **kw)
    changed = rules_changed(game, params)
    reference = _match(rows, mod.rows(game.rules())) if changed or kw else [None] * len(rows)
    frames = dict(frames or {})
    if frame is not None:
        frames.setdefault(players_of(frame), frame)
    if frames:
        measured = mod.simulated(
            params, frames, play_runs(game, mod.needs(params, frames), params, run=RunConfig(store=store))
        )
        for r in rows:
            if r.sim_key in measured:
                est = measured[r.sim_key]
                r.simulated, r.sim_low, r.sim_high, r.n = est.value, est.low, est.high, est.n
    order = "①②③④⑤⑥⑦⑧"
    pairs = sorted(
        zip(rows, reference), key=lambda p: order.index(p[0].identity) if p[0].identity in order else len(order)
    )
    records = []
    for r, ref in pairs:
        exact_same = ref is not None and _same(r.exact, ref.exact) if (changed or kw) else True
        status = judge(r, comparable=not changed, exact_comparable=exact_same)
        if status == REFERENCE and ref is not None and ref.exact is not None and ref.rulebook is not None:
            own = judge(ref)
            if kind(own) == DIFFERS:
                status += f"; at its own rules it {own}"
        rec = {**{c: getattr(r, c) for c in COLUMNS if c != "status"}, "status": status, "percent": r.percent}
        if changed or kw:
            rec["exact_at_rulebook"] = None if ref is None else ref.exact
        records.append(rec)
    columns = COLUMNS + (["exact_at_rulebook"] if changed or kw else []) + ["percent"]
    return pd.DataFrame(records, columns=columns)


def fmt(x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return f"{float(x):.4g}"  # a Fraction has no .4g
