"""Group-sequential verdicts from bootstrap intervals, for metrics with no smooth margin.

    decide(GAME, "styles_worth_playing >= 4", n_players=4)   # sequential.decide hands it here
    decide(GAME, "equilibrium_spread < 0.3", n_players=4)

The SPRT of :mod:`gamelab.decide.sequential` weighs ``T`` by its per-deal
increments (the gradient of ``T`` at the running sums).  The meta-game's
metrics have none: the number of styles worth playing jumps from one
integer to the next, and which equilibrium comes first can change.  This test
needs only ``T``'s value on resampled data:

* **Looks fixed in advance**: the first after ``first`` deals (for the
  meta-game, enough for every profile to be met about 16 times), then at each
  doubling, the last at the limit: ``L`` looks (:func:`schedule`).
* At each look the deals so far, in equal blocks (:class:`Blocks`), are
  resampled ``B`` times (multinomial weights over the blocks, the same for
  every column, so both arms of a paired question are resampled together)
  and ``T`` is computed on each resample.
* **Bootstrap p-values** (:func:`look`): ``p_yes = (1 + #{T* not beyond c, or
  without a value}) / (B + 1)``, ``p_no`` the same with ``T*`` beyond ``c``
  (the ``+ 1`` keeps a Monte-Carlo p-value valid for any ``B``).  "yes" when
  ``p_yes <= α_k`` and ``T`` itself is beyond ``c``, "no" when ``p_no <= β_k``
  and it is not.  "Beyond" is ``T > c`` for ``>``, ``T >= c`` for ``>=``:
  "styles_worth_playing >= 4" holds at 4.
* **Error spending**: ``α_k = α / L`` and ``β_k = β / L`` (:func:`spent`).  A
  wrong yes anywhere is a wrong yes at one of the looks, so its chance is at
  most ``Σ α_k = α`` whatever the dependence between the looks (the union
  bound, Bonferroni over the looks: cruder than Pocock's or O'Brien-Fleming's
  bounds, which use the correlation of a smooth statistic between looks; a
  count's jumps give none to use).  It holds as long as each look's test
  holds its own level: the percentile bootstrap does for ``T`` a smooth
  function of the table's means, and for a count that is constant near the
  truth (the truth away from a jump).  On a jump (a style's share exactly
  1 %, its regret exactly 0) no number of games decides and the test ends
  "not decided" at the limit.  ``tests/test_grouped.py`` measures both error
  rates on meta-games whose truth is known, one of them next to a jump.
* **The figures at the stop**: ``T`` on every game played and the 95 %
  percentile interval of the same resamples.  Neither is corrected for
  stopping early (the correction of :mod:`sequential` simulates the
  statistic's Brownian approximation, which a count has not); with looks
  that double, the stop's games are at least half of all that were played.
* **The plan** (:func:`likely_stop`): from the first look's resamples, the
  share of them on the other side of ``c``, taken to shrink like a normal
  tail as the games grow (``Φ(-z √(n / n₁))``); the test most likely stops at
  the first look where its resamples are then on one side often enough.

The bootstrap is written here, not taken from ``scipy.stats.bootstrap``: the
early exit of an undecided look (stop resampling once both p-values are out
of reach) and the sums of many columns resampled together are what keep the
equilibrium searches to the few hundred a decision needs.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

N_BOOT = 199  # resamples a look at least (1 / (B + 1) = 0.005: one look's error rate can be that small)
BATCH = 25  # resamples drawn at a time (an undecided look usually stops within the first few)
MAX_ROWS = 1024  # blocks kept: past this many, adjacent blocks are merged two by two
LEVEL = 0.95


def schedule(first: int, limit: int) -> list[int]:
    """The looks, in cumulative units (chunks, deals): ``first``, doubled each
    time, and ``limit`` last (``[limit]`` if ``first >= limit``)."""
    out, n = [], max(1, int(first))
    while n < limit:
        out.append(n)
        n *= 2
    return out + [int(limit)]


def spent(rate: float, n_looks: int) -> float:
    """The error rate one look may spend: equal shares of ``rate`` over ``n_looks`` looks."""
    return rate / n_looks


def resamples(alpha_k: float, beta_k: float) -> int:
    """Resamples a look takes: at least :data:`N_BOOT`, and enough that a p-value of
    ``1 / (B + 1)`` is within the smaller of the two rates."""
    return max(N_BOOT, math.ceil(1 / min(alpha_k, beta_k)) - 1)


class Blocks:
    """Per-block sums of the deals so far: rows of named columns, each row
    ``width`` input rows (deals, or the metric's blocks of deals) summed.
    Past :data:`MAX_ROWS` full blocks, adjacent ones are merged two by two and
    ``width`` doubles, so the blocks stay equal and 512 to 1,024 of them; the
    rows that do not yet fill a block wait in ``part`` (resampled as one
    smaller block).  A column seen first late was zero on every earlier row."""

    def __init__(self, max_rows: int = MAX_ROWS):
        self.cols: list[str] = []
        self.buf = np.zeros((max_rows + 1, 0))  # the full blocks, ``n`` of them
        self.n = 0
        self.part = np.zeros(0)
        self.part_rows = 0
        self.width = 1
        self.max_rows = max_rows
        self.rows_in = 0

    def _columns(self, names) -> None:
        new = [c for c in names if c not in self.cols]
        if new:
            self.cols += new
            self.buf = np.pad(self.buf, ((0, 0), (0, len(new))))
            self.part = np.pad(self.part, (0, len(new)))

    def add(self, sums: pd.DataFrame) -> None:
        """Rows of sums (one per deal or block of deals), in deal order."""
        self._columns(sums.columns)
        x = sums.reindex(columns=self.cols, fill_value=0.0).to_numpy(float)
        self.rows_in += len(x)
        i = 0
        while i < len(x):
            if self.part_rows == 0 and len(x) - i >= self.width:  # whole blocks at once
                m = min((len(x) - i) // self.width, self.max_rows + 1 - self.n)
                self.buf[self.n : self.n + m] = x[i : i + m * self.width].reshape(m, self.width, -1).sum(axis=1)
                self.n += m
                i += m * self.width
            else:  # fill the partial block
                take = min(self.width - self.part_rows, len(x) - i)
                self.part += x[i : i + take].sum(axis=0)
                self.part_rows += take
                i += take
                if self.part_rows == self.width:
                    self.buf[self.n] = self.part
                    self.n += 1
                    self.part = np.zeros(len(self.cols))
                    self.part_rows = 0
            if self.n > self.max_rows:
                self._merge()

    def _merge(self) -> None:
        """Adjacent blocks summed two by two; an odd one left over waits with the partial block."""
        half = self.n // 2
        if self.n % 2:
            self.part = self.part + self.buf[self.n - 1]
            self.part_rows += self.width
        self.buf[:half] = self.buf[0 : 2 * half : 2] + self.buf[1 : 2 * half : 2]
        self.buf[half:] = 0.0
        self.n = half
        self.width *= 2

    def rows(self) -> np.ndarray:
        """(R, J) every block, the partial one last."""
        full = self.buf[: self.n]
        return np.vstack([full, self.part[None]]) if self.part_rows else full

    def total(self) -> np.ndarray:
        return self.rows().sum(axis=0)


@dataclasses.dataclass(frozen=True)
class Side:
    """Which side of ``threshold`` is "yes": ``sign * (T - threshold) > 0``, or ``>= 0`` if ``inclusive``."""

    sign: int
    threshold: float
    inclusive: bool = False

    def beyond(self, t) -> np.ndarray:
        """Whether ``t`` is on the yes side (False where ``t`` has no value)."""
        d = self.sign * (np.asarray(t, float) - self.threshold)
        with np.errstate(invalid="ignore"):
            return (d >= 0) if self.inclusive else (d > 0)

    def words(self) -> str:
        """``at least``, ``above``, ``at most`` or ``below``."""
        if self.sign > 0:
            return "at least" if self.inclusive else "above"
        return "at most" if self.inclusive else "below"


@dataclasses.dataclass(frozen=True)
class Look:
    """One look of the test: its games, the estimate there, its p-values and resamples used."""

    units: int  # deals (or blocks) so far
    estimate: float
    p_yes: float
    p_no: float
    resamples: int
    decision: str  # "yes", "no" or "" (go on)


def look(
    value: Callable[[np.ndarray], float],
    blocks: Blocks,
    side: Side,
    alpha_k: float,
    beta_k: float,
    rng: np.random.Generator,
    *,
    n_boot: int | None = None,
    full: bool = False,
) -> tuple[Look, np.ndarray]:
    """One look: ``T`` on the blocks and on resamples of them (``value`` maps a row of column
    totals to ``T``).  Resampling stops as soon as neither answer can be reached (both counts
    past their allowance), unless ``full`` (the stop's interval needs every resample).
    Returns the look and the resampled values (NaN: no value, or not drawn)."""
    rows = blocks.rows()
    t = float(value(rows.sum(axis=0)))
    B = n_boot or resamples(alpha_k, beta_k)
    boot = np.full(B, np.nan)
    allow_yes = math.floor(alpha_k * (B + 1) - 1 + 1e-9)  # p = (1 + against) / (B + 1) <= rate
    allow_no = math.floor(beta_k * (B + 1) - 1 + 1e-9)
    against_yes = against_no = used = 0
    if math.isfinite(t) or full:
        for b in range(B):
            if b % BATCH == 0:
                totals = resampled(rows, min(BATCH, B - b), rng)
            boot[b] = value(totals[b % BATCH])
            used += 1
            yes = bool(side.beyond(boot[b]))
            against_yes += not yes  # NaN (a table with a profile never met) counts against both
            against_no += yes or not math.isfinite(boot[b])
            if not full and against_yes > allow_yes and against_no > allow_no:
                break
    if not math.isfinite(t) or not used:
        return Look(blocks.rows_in, t, 1.0, 1.0, used, ""), boot
    p_yes, p_no = (1 + against_yes) / (B + 1), (1 + against_no) / (B + 1)
    if used < B:  # stopped early: neither answer reachable, the p-values only bounded below
        decision = ""
    elif p_yes <= alpha_k and side.beyond(t):
        decision = "yes"
    elif p_no <= beta_k and not side.beyond(t):
        decision = "no"
    else:
        decision = ""
    return Look(blocks.rows_in, t, p_yes, p_no, used, decision), boot


def resampled(rows: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """(n, J) column totals of ``n`` resamples of the rows (each draws as many rows as there
    are, with replacement): ``rng.multinomial(R, [1/R] * R, size=n) @ rows``, drawn as row
    numbers and counted (much faster than numpy's multinomial over many categories)."""
    R = len(rows)
    drawn = rng.integers(R, size=(n, R)) + R * np.arange(n)[:, None]
    return np.bincount(drawn.ravel(), minlength=n * R).reshape(n, R).astype(float) @ rows


def interval(boot: np.ndarray) -> tuple[float, float]:
    """The 95 % percentile interval of the resampled values with a value (NaN, NaN: none)."""
    ok = boot[np.isfinite(boot)]
    if not len(ok):
        return math.nan, math.nan
    tail = (1 - LEVEL) / 2
    return float(np.quantile(ok, tail, method="lower")), float(np.quantile(ok, 1 - tail, method="higher"))


@dataclasses.dataclass(frozen=True)
class Outcome:
    """Where the test stopped: its decision, every look, and the figures at the stop."""

    decision: str  # "yes", "no", "undecided"
    looks: tuple[Look, ...]
    estimate: float
    low: float
    high: float
    alpha_k: float
    beta_k: float


def walk(
    feed: Callable[[int, int], Sequence[pd.DataFrame]],
    value: Callable[[list[str], np.ndarray], float],
    side: Side,
    looks_at: Sequence[int],
    *,
    alpha: float,
    beta: float,
    rng: np.random.Generator,
    n_boot: int | None = None,
) -> Outcome:
    """The test over the looks ``looks_at`` (cumulative units): ``feed(start, stop)`` gives the
    rows of sums of units ``start:stop`` (one frame per unit, e.g. per chunk), ``value(columns,
    totals)`` the statistic.  Stops at the first look that decides, else at the last."""
    a_k, b_k = spent(alpha, len(looks_at)), spent(beta, len(looks_at))
    blocks, done, seen = Blocks(), 0, []
    boot = np.full(0, np.nan)
    for k, stop in enumerate(looks_at):
        for sums in feed(done, stop):
            blocks.add(sums)
        done = stop
        last = k == len(looks_at) - 1
        at_look = functools.partial(value, list(blocks.cols))
        got, boot = look(at_look, blocks, side, a_k, b_k, rng, n_boot=n_boot, full=last)
        seen.append(got)
        if got.decision:
            break
    final = seen[-1]
    low, high = interval(boot)
    return Outcome(final.decision or "undecided", tuple(seen), final.estimate, low, high, a_k, b_k)


def likely_stop(
    boot: np.ndarray, estimate: float, side: Side, looks_at: Sequence[int], alpha_k: float, beta_k: float
) -> tuple[str, int | None, float]:
    """(the likely answer, the index of the look it most likely comes at or None, the pilot's
    share of resamples on the other side): the first look's resamples ``boot`` give the share
    ``f₁`` of them across ``c`` from ``estimate``; taking it to shrink like ``Φ(-z₁ √(n / n₁))``
    (``z₁ = Φ⁻¹(1 - f₁)``), the look where the test's own resamples most likely (chance at
    least one half) fall within its allowance.  None: the estimate has no value, or sits on
    the threshold (f₁ at least one half), so the games it takes cannot be told."""
    from scipy.stats import binom, norm

    if not math.isfinite(estimate):
        return "", None, math.nan
    yes = bool(side.beyond(estimate))
    across = ~side.beyond(boot) if yes else side.beyond(boot) | np.isnan(boot)  # no value: across
    f1 = float(across.mean()) if len(boot) else 1.0
    if f1 >= 0.5:
        return ("yes" if yes else "no"), None, f1
    rate = alpha_k if yes else beta_k
    B = resamples(alpha_k, beta_k)
    allow = math.floor(rate * (B + 1) - 1 + 1e-9)
    z1 = norm.isf(max(f1, 1 / (len(boot) + 1)))  # no resample across: at least as far as one in B + 1
    for k, n in enumerate(looks_at):
        f = norm.sf(z1 * math.sqrt(n / looks_at[0]))
        if binom.cdf(allow, B, f) >= 0.5:
            return ("yes" if yes else "no"), k, f1
    return ("yes" if yes else "no"), None, f1


def _amount(x: float, percent: bool) -> str:
    if not math.isfinite(x):
        return "without a value"
    return (f"{x * 100:.1f} points" if percent else f"{x:.3g}").replace("-", "−")


def _level(x: float, percent: bool) -> str:
    return (f"{x * 100:.3g}" if percent else f"{x:.3g}").replace("-", "−")


@dataclasses.dataclass(frozen=True)
class Decision:
    """A question decided (or not) by the group-sequential test (the fields a
    reader of :class:`gamelab.decide.sequential.Decision` knows, and the looks)."""

    question: str
    decision: str  # "yes", "no" or "undecided"
    games: int  # games played, every arm
    deals: int
    estimate: float  # T on every game played (not corrected for stopping early)
    low: float  # 95 % percentile interval of the resamples at the stop
    high: float
    threshold: float
    alpha: float
    beta: float
    alpha_look: float  # the error rate each look spends
    beta_look: float
    looks: tuple  # one dict per look: games, estimate, p_yes, p_no, resamples
    max_games: int
    reason: str = ""
    about: str = ""
    percent: bool = False
    sign: int = 1
    inclusive: bool = False
    method: str = "group-sequential bootstrap"

    @property
    def side(self) -> Side:
        return Side(self.sign, self.threshold, self.inclusive)

    @property
    def answer(self) -> str:
        """The answer first: ``No: the number of styles worth playing is 1 (95 % interval 1–1),
        not at least 4, decided after 16,384 games.``"""
        what = self.about or self.question
        if math.isfinite(self.low):
            lo, hi = (_level(x, self.percent) for x in (self.low, self.high))
            sep = " to " if self.low < 0 else "–"
            figure = f"{what} is {_amount(self.estimate, self.percent)} (95 % interval {lo}{sep}{hi})"
        else:
            figure = f"{what} is {_amount(self.estimate, self.percent)}"
        side, c = self.side.words(), _level(self.threshold, self.percent)
        if self.decision == "yes":
            return f"Yes: {figure}, {side} {c}, decided after {self.games:,} games."
        if self.decision == "no":
            return f"No: {figure}, not {side} {c}, decided after {self.games:,} games."
        why = self.reason or f"{self.games:,} games (the limit) did not settle whether it is {side} {c}"
        return f"Not decided: {figure}; {why}."

    @property
    def sentence(self) -> str:
        how = {"yes": "yes", "no": "no", "undecided": "undecided"}[self.decision]
        return (
            f"{self.question}: {how} after {self.games:,} games ({len(self.looks)} looks of at most "
            f"{self.n_looks_planned}); estimate {self.estimate:.4g} (95% interval {self.low:.4g} to "
            f"{self.high:.4g}, not corrected for stopping early) against {self.threshold:.4g}"
        )

    @property
    def n_looks_planned(self) -> int:
        return round(self.alpha / self.alpha_look)

    def details(self) -> list[str]:
        """The test's statistics, one line each (``--verbose``)."""
        lines = [
            self.sentence,
            f"  {self.method}: each look spends alpha {self.alpha_look:.3g} and beta {self.beta_look:.3g} "
            f"(alpha {self.alpha}, beta {self.beta} shared equally over {self.n_looks_planned} looks)",
        ]
        for i, k in enumerate(self.looks, 1):
            early = k["resamples"] < resamples(self.alpha_look, self.beta_look)
            lines.append(
                f"  look {i}: {k['games']:,} games, estimate {k['estimate']:.4g}, p(yes) {k['p_yes']:.3g}, "
                f"p(no) {k['p_no']:.3g}, {k['resamples']} resamples"
                + (" (stopped there: neither answer reachable, the p-values only bounds)" if early else "")
            )
        return lines


@dataclasses.dataclass(frozen=True)
class Plan:
    """How many games a question of the group-sequential test will likely take, from its first look."""

    question: str
    pilot_games: int
    estimate: float
    low: float
    high: float
    across: float  # share of the first look's resamples on the other side of the threshold
    looks: tuple  # games at each look
    likely: str  # "yes" / "no" / "" (no value yet)
    likely_games: int | None  # None: cannot be told (on the threshold, or beyond the last look)
    alpha_look: float
    beta_look: float
    threshold: float
    about: str = ""
    percent: bool = False
    sign: int = 1
    inclusive: bool = False

    def words(self) -> str:
        side, c = Side(self.sign, self.threshold, self.inclusive).words(), _level(self.threshold, self.percent)
        what = self.about or self.question
        head = f"Is {what} {side} {c}? "
        looks = ", ".join(f"{g:,}" for g in self.looks)
        if not self.likely:
            return (
                head + f"A first {self.pilot_games:,} games give it no value yet (a part of it was never played); "
                f"the test looks after {looks} games."
            )
        lo, hi = (_level(x, self.percent) for x in (self.low, self.high))
        lines = [
            head + f"A first {self.pilot_games:,} games put it at {_amount(self.estimate, self.percent)} "
            f"(95 % interval {lo}–{hi}); {self.across * 100:.0f} % of their resamples are on the other side of {c}.",
            f"The test looks after {looks} games and stops at the first look that decides.",
        ]
        if self.likely_games is None:
            lines.append(
                "The first games are too close to the threshold to tell how many it will take: "
                f"it may run to the limit of {self.looks[-1]:,} games."
                if self.across >= 0.5
                else f"If the truth is what the first games show, it most likely answers {self.likely} only near "
                f"or at the limit of {self.looks[-1]:,} games."
            )
        else:
            lines.append(
                f"If the truth is what the first games show, it most likely answers {self.likely} after "
                f"{self.likely_games:,} games (at most {self.looks[-1]:,})."
            )
        return "\n".join(lines)

    def text(self) -> str:
        return (
            f"{self.question}: first look {self.pilot_games:,} games, estimate {self.estimate:.4g} "
            f"(95% interval {self.low:.4g} to {self.high:.4g}); resamples across the threshold {self.across:.3f}; "
            f"looks at {', '.join(str(g) for g in self.looks)} games, each spending alpha {self.alpha_look:.3g} "
            f"and beta {self.beta_look:.3g}; the share across taken to shrink like a normal tail in the "
            "square root of the games"
        )
