"""Sequential verdicts: is this difference real, and how many games does it take?

    decide(GAME, "win_rate[seat=1] - fair > 0.02", n_players=4)
    decide(GAME, "seat_spread(params) < seat_spread(baseline) - 0.03", n_players=4,
           params=p, baseline=b)

A question is a comparison of a linear expression of balance metrics
(:mod:`gamelab.stats.balance` names; ``fair`` is 1 / players) with a constant.
It is moved into the form ``T > c`` or ``T < c`` (``T`` the metric terms,
``c`` the constants) and decided by a sequential probability ratio test:

* Games are played in small chunks of deals, every deal in every seat
  rotation of the lineup, and with ``--baseline`` both rule sets on the same
  deals, so each deal gives one paired, seat-rotated observation.
* ``T`` is a smooth function of per-deal sums; its per-deal increments are
  its linearisation (the delta method: the gradient at the running totals
  times each deal's sums), whose variance ``σ²`` is estimated as games come.
* The indifference zone: with ``D = T - c`` (or ``c - T``), H0 is
  ``D = -zone/2`` and H1 ``D = +zone/2``; the generalised SPRT with a normal
  approximation of the increments (as Fishtest does for engine tests) has
  the log-likelihood ratio ``LLR = n · zone · D̂ / σ²`` after ``n`` deals.
  It stops at ``LLR ≥ log((1-β)/α)`` ("yes") or ``LLR ≤ log(β/(1-α))``
  ("no"), or at ``max_games`` ("undecided").  If ``D ≤ -zone/2`` it answers
  yes at most ``α`` of the time; if ``D ≥ +zone/2`` no at most ``β``.
* The estimate after stopping early is biased (a test that stops when the
  answer looks clear stops on lucky runs).  The reported estimate is the
  median-unbiased one and the interval the 95 % interval under the
  *stage-wise ordering* of the outcomes (Jennison & Turnbull 2000, ch. 8;
  Fishtest's "unbiased" Elo is the continuous-monitoring analogue): the
  value ``μ`` for which a test with true ``D = μ`` would end with an outcome
  at least as high as the observed one with chance 0.5 (0.025, 0.975),
  computed by simulating the test's Brownian approximation on its own
  schedule of looks.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from gamelab.core import paths
from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError
from gamelab.core.limits import MAX_GAMES, check_count
from gamelab.decide import grouped
from gamelab.decide.defaults import DEFAULT_ZONE
from gamelab.decide.expressions import Question, parse_question
from gamelab.sim import runner
from gamelab.sim.run import RunConfig
from gamelab.sim.store import ChunkStore
from gamelab.stats import balance, balance_metric, bootstrap

__all__ = ["Decision", "Plan", "decide", "plan", "parse_question", "Question"]

CHUNK_DEALS = 256  # deals per look (each deal played in every seat rotation)
PILOT_CHUNKS = 4  # chunks a plan plays to estimate the spread of the increments
SIMULATIONS = 4000  # Brownian paths for the corrected estimate and the planner
LEVEL = 0.95
MIN_DEALS = 20  # deals before the spread of the margin is trusted (a test never stops earlier)
CORRECTION_KEY, PLAN_KEY = 0x5E9, 0x91A  # spawn keys of the simulations' generators


@dataclasses.dataclass(frozen=True)
class Decision:
    """A question decided (or not) by the sequential test."""

    question: str
    decision: str  # "yes", "no" or "undecided"
    games: int  # games played, every arm
    deals: int
    estimate: float  # T, median-unbiased under the stage-wise ordering
    low: float
    high: float
    naive: float  # T at the stop, uncorrected
    threshold: float  # c of ``T > c`` / ``T < c``
    llr: float
    bounds: tuple[float, float]
    alpha: float
    beta: float
    zone: float
    reason: str = ""  # why the question could not be decided (undecided before the limit)
    about: str = ""  # T in words ("the style spread")
    percent: bool = False  # T is a share, said in points
    sign: int = 1  # +1: is T above the threshold?  -1: below?
    players: int = 0  # the player count every game was played at (0: not said)
    points: bool = True  # T is a difference of shares (said in points), not one share (said in per cent)

    def amount(self, x: float) -> str:
        """A value of T in its unit: ``27.6 points`` (a spread), ``41.7 %`` (a win rate) or ``0.42``."""
        return amount_words(x, self.percent, self.points)

    def _level(self, x: float) -> str:
        text = f"{x * 100:.3g}" + ("" if self.points else " %") if self.percent else f"{x:.3g}"
        return text.replace("-", "−")

    @property
    def answer(self) -> str:
        """The answer first, in one sentence: ``No: the style spread is 27.6
        points (interval 25.1–30.0), not below 10, decided after 1,024 games.``"""
        side = "above" if self.sign > 0 else "below"
        what = self.about or self.question
        lo, hi = (f"{x * 100:.1f}" if self.percent else f"{x:.3g}" for x in (self.low, self.high))
        sep = " to " if self.low < 0 else "–"
        at = f" at {self.players} players" if self.players else ""
        figure = f"{what} is {self.amount(self.estimate)}{at} (interval {lo}{sep}{hi})".replace("-", "−")
        c = self._level(self.threshold)
        if self.decision == "yes":
            return f"Yes: {figure}, {side} {c}, decided after {self.games:,} games."
        if self.decision == "no":
            return f"No: {figure}, not {side} {c}, decided after {self.games:,} games."
        if self.reason:
            return f"Not decided: {figure}; {self.reason}."
        return f"Not decided: {figure}; {self.games:,} games (the limit) did not settle whether it is {side} {c}."

    @property
    def sentence(self) -> str:
        how = {
            "yes": f"yes, decided after {self.games:,} games",
            "no": f"no, decided after {self.games:,} games",
            "undecided": f"undecided after {self.games:,} games ({self.reason or 'the limit'})",
        }[self.decision]
        return (
            f"{self.question}: {how}; estimate {self.estimate:.4g} (95% interval {self.low:.4g} to "
            f"{self.high:.4g}, corrected for stopping early) against {self.threshold:.4g}"
        )

    def details(self) -> list[str]:
        """The test's statistics, one line each (``--verbose``)."""
        return [
            self.sentence,
            f"  decision: {self.decision}; games: {self.games:,} ({self.deals:,} deals, each in every seat rotation)",
            f"  estimate {self.estimate:.4g}, 95% interval {self.low:.4g} to {self.high:.4g}, corrected for stopping "
            f"early (median-unbiased under the stage-wise ordering; uncorrected {self.naive:.4g})",
            f"  log-likelihood ratio {self.llr_words} (stops at {self.bounds[0]:+.3f} or {self.bounds[1]:+.3f}; "
            f"alpha {self.alpha}, beta {self.beta}, indifference zone {self.zone})",
        ]

    @property
    def llr_words(self) -> str:
        """The log-likelihood ratio, or in words why it has no finite value."""
        if math.isfinite(self.llr):
            return f"{self.llr:+.3f}"
        return "beyond any bound (every deal gave the same margin, so the first look decided)"


@dataclasses.dataclass(frozen=True)
class Plan:
    """How many games a question needs, from a pilot run."""

    question: str
    pilot_games: int
    estimate: float  # T in the pilot
    sigma: float  # spread of the per-deal increments of D
    games_per_deal: int
    rows: tuple  # (label, true D, mean games, 90th percentile, P(yes), P(undecided))
    fixed_games: int  # a fixed-size test with the same error rates
    about: str = ""  # T in words
    percent: bool = False
    threshold: float = 0.0
    sign: int = 1
    points: bool = True  # as :attr:`Decision.points`

    def words(self) -> str:
        """How many games the question needs, in words (the statistics in
        :meth:`text`)."""

        def value(d: float) -> str:
            return amount_words(self.threshold + self.sign * d, self.percent, self.points)

        side = "above" if self.sign > 0 else "below"
        c = f"{self.threshold * 100:.3g}" + ("" if self.points else " %") if self.percent else f"{self.threshold:.3g}"
        c = c.replace("-", "−")
        what = self.about or self.question
        lines = [f"Is {what} {side} {c}? A first {self.pilot_games:,} games put it at {value(self.estimate_d())}."]
        for label, d, mean, p90, yes, limit in self.rows:
            where = {
                "lower edge of the zone": "just on the wrong side",
                "on the threshold": "exactly on the line",
                "upper edge of the zone": "just on the right side",
                "the pilot's estimate": "what the first games say",
            }.get(label, label)
            lines.append(
                f"- If it really is {value(d)} ({where}): {mean:,.0f} games on average ({p90:,.0f} or fewer in 9 "
                f"runs of 10); the answer is yes {yes * 100:.0f} % of the time, none by the limit {limit * 100:.0f} %."
            )
        lines.append(f"A test of a fixed size with the same error rates needs {self.fixed_games:,} games.")
        return "\n".join(lines)

    def estimate_d(self) -> float:
        return self.sign * (self.estimate - self.threshold)

    def text(self) -> str:
        lines = [
            f"{self.question}: a pilot of {self.pilot_games:,} games estimates {self.estimate:.4g} "
            f"(per-deal spread of the margin D {self.sigma:.3g})",
            f"{'if the true margin D is':<44}{'games (mean)':>13}{'90% within':>12}{'P(yes)':>8}{'P(limit)':>10}",
        ]
        deals = self.pilot_games // max(1, self.games_per_deal)
        if deals < MIN_DEALS:
            lines[1:] = [
                f"a pilot of {deals} deals is too few to estimate the spread of the margin (at least {MIN_DEALS}): "
                "the games the test needs cannot be planned; raise --max-games"
            ]
            return "\n".join(lines)
        if not self.sigma > 0:
            lines[1:] = [
                "every deal of the pilot gave the same margin D, so its spread cannot be estimated: "
                "the games the test needs cannot be planned (the test itself stops at its first look "
                "after the pilot if D is away from 0, and never decides if D is exactly 0)"
            ]
            return "\n".join(lines)
        for label, d, mean, p90, yes, limit in self.rows:
            lines.append(f"{f'{d:+.4g} ({label})':<44}{mean:>13,.0f}{p90:>12,.0f}{yes:>8.2f}{limit:>10.2f}")
        lines.append(f"a fixed-size test with the same error rates needs {self.fixed_games:,} games")
        return "\n".join(lines)


# -- the statistic ---------------------------------------------------------------------


class Accumulator:
    """Running per-deal sums of both arms: count, totals and cross products,
    so each look costs one gradient, not a pass over every deal."""

    def __init__(self):
        self.cols: list[str] = []
        self.n = 0
        self.total = np.zeros(0)
        self.outer = np.zeros((0, 0))

    def add(self, sums: pd.DataFrame) -> None:
        new = [c for c in sums.columns if c not in self.cols]
        if new:  # a column seen first now was zero on every earlier deal
            k = len(self.cols) + len(new)
            self.total = np.pad(self.total, (0, len(new)))
            self.outer = np.pad(self.outer, ((0, len(new)), (0, len(new))))
            self.cols += new
            assert len(self.cols) == k
        x = sums.reindex(columns=self.cols, fill_value=0.0).to_numpy(float)
        self.n += len(x)
        self.total += x.sum(axis=0)
        self.outer += x.T @ x

    def mean(self) -> np.ndarray:
        return self.total / self.n

    def cov(self) -> np.ndarray:
        m = self.mean()
        return (self.outer - self.n * np.outer(m, m)) / max(self.n - 1, 1)


def _arm_sums(frame: pd.DataFrame, metrics, arm: str) -> pd.DataFrame:
    sums = bootstrap.deal_sums(frame, metrics)
    return sums.rename(columns=lambda c: f"{arm}|{c}")


def _value(question: Question, metrics: dict, cols: Sequence[str], x: np.ndarray) -> np.ndarray:
    """T at sums ``x`` (..., J) (vectorised over leading axes)."""
    out = np.zeros(x.shape[:-1])
    named: dict[str, dict[str, np.ndarray]] = {arm: {} for arm in ("params", "baseline")}
    for j, c in enumerate(cols):
        arm, part = c.split("|", 1)
        named[arm][part] = x[..., j]
    with np.errstate(invalid="ignore", divide="ignore"):
        for term in question.terms:
            out = out + term.coef * np.asarray(metrics[term.metric].value(named[term.arm]), float)
    return out


def _linearised(question, metrics, acc: Accumulator) -> tuple[float, float]:
    """T at the running means and the standard deviation of its per-deal
    increments (gradient by central differences, vectorised)."""
    m = acc.mean()
    J = len(m)
    h = 1e-6 * np.maximum(np.abs(m), 1e-6 * (np.abs(m).mean() + 1e-12))
    probe = np.concatenate([m[None], m + np.diag(h), m - np.diag(h)])
    v = _value(question, metrics, acc.cols, probe)
    grad = np.nan_to_num((v[1 : J + 1] - v[J + 1 :]) / (2 * h))
    var = float(grad @ acc.cov() @ grad)
    return float(v[0]), math.sqrt(max(var, 0.0))


# -- the test ----------------------------------------------------------------------------


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds on the log-likelihood ratio (no, yes)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def llr(n: int, d_hat: float, sigma: float, zone: float) -> float:
    """GSPRT log-likelihood ratio of H1 ``D = +zone/2`` against H0
    ``D = -zone/2`` after ``n`` increments of mean ``d_hat`` and spread
    ``sigma`` (normal approximation)."""
    if sigma <= 0:
        return math.copysign(math.inf, d_hat) if d_hat else 0.0
    return n * zone * d_hat / sigma**2


def _simulate(
    mu: float, sigma: float, looks: np.ndarray, zone: float, lo: float, hi: float, z: np.ndarray
) -> np.ndarray:
    """Outcome ranks of the Brownian test with drift ``mu`` per deal on the
    schedule ``looks`` (cumulative deals), from standard normals ``z`` (K, L)."""
    step = np.diff(np.concatenate([[0], looks]))
    s = np.cumsum(mu * step + sigma * np.sqrt(step) * z, axis=1)  # K x L sums of increments
    ratio = zone * s / sigma**2
    L = ratio.shape[1]
    crossed = (ratio >= hi) | (ratio <= lo)
    first = np.where(crossed.any(axis=1), crossed.argmax(axis=1), L - 1)
    rows = np.arange(len(ratio))
    at = ratio[rows, first]
    side = np.where(at >= hi, 1, np.where(at <= lo, -1, 0))
    return rank(side, first, L, s[rows, first] / (sigma * np.sqrt(looks[first])))


def rank(side, look, n_looks: int, z_at):
    """The stage-wise order of outcomes as one number, higher = more in
    favour of a large D: every upper exit (``side`` +1) above every
    truncation (0) above every lower exit (-1); an earlier upper exit ranks
    higher, an earlier lower exit lower; ties by the standardised sum ``z_at``."""
    side, look = np.asarray(side), np.asarray(look)
    time = np.where(side == 1, n_looks - look, np.where(side == -1, look + 1, 0))
    tie = np.arctan(z_at) / np.pi  # in (-0.5, 0.5): never crosses a look
    return side * 10.0 * (n_looks + 1) + time + tie


def corrected(
    observed_rank: float,
    sigma: float,
    looks: np.ndarray,
    zone,
    lo,
    hi,
    centre: float,
    rng: np.random.Generator,
    n_sim: int = SIMULATIONS,
) -> tuple[float, float, float]:
    """(median-unbiased D, low, high) under the stage-wise ordering."""
    z = rng.standard_normal((n_sim, len(looks)))
    span = 12 * sigma / math.sqrt(looks[-1])

    def p_above(mu):
        return float(np.mean(_simulate(mu, sigma, looks, zone, lo, hi, z) >= observed_rank))

    def solve(target):
        a, b = centre - span, centre + span
        for _ in range(40):
            mid = 0.5 * (a + b)
            a, b = (mid, b) if p_above(mid) < target else (a, mid)
        return 0.5 * (a + b)

    tail = (1 - LEVEL) / 2
    return solve(0.5), solve(tail), solve(1 - tail)


@dataclasses.dataclass
class _Setup:
    game: Game
    question: Question
    metrics: dict
    arms: dict  # arm -> params
    lineup: tuple
    n_players: int
    chunks: dict  # arm -> [Chunk]
    rotations: int
    threshold: float  # c of T > c / T < c


def question_for(game: Game, expr: str, *, with_baseline: bool = False) -> Question:
    """``expr`` checked against the game's metrics and groups (no game is played)."""
    return parse_question(expr, lambda name: balance.metric(game, name), with_baseline)


def metric_range(game: Game, metric) -> tuple[float, float, bool] | None:
    """What ``metric`` can be: ``(low, high, whole)``: a share within 0..1; a count of the
    game's strategies (the meta-game's ``styles_worth_playing``) a whole number within
    0..their number; None for any other metric (a score, a mean: no declared range)."""
    if metric.count and game.metagame is not None:
        return 0.0, float(len(game.metagame.names)), True
    if metric.percent:
        return 0.0, 1.0, False
    return None


def check_range(game: Game, question: Question) -> None:
    """A question about one metric (``styles_worth_playing >= 7``, ``equilibrium_spread < 1.5``)
    whose threshold lies outside what the metric can be is answered by every run alike: refused
    in one line naming the metric and its range, before any game.  A count is compared with a
    whole number (``>= 3.5`` is refused: say ``>= 4``)."""
    if len(question.terms) != 1 or question.fair_coef != 0:
        return
    term = question.terms[0]
    known = metric_range(game, balance.metric(game, term.metric))
    if known is None or term.coef == 0:
        return
    low, high, whole = known
    bound = question.constant / term.coef
    strategies = game.metagame
    what = (
        f"a count of {game.name}'s {len(strategies.names)} {strategies.label}s" if whole and strategies else "a share"
    )
    if not low <= bound <= high:
        raise GamelabError(
            f"{short_q(question)}: {bound:g} is outside {low:g}..{high:g}, the range of {term.metric} ({what}): "
            "every run answers it alike"
        )
    if whole and bound != int(bound):
        raise GamelabError(f"{short_q(question)}: {term.metric} is a whole number ({what}); {bound:g} is not one")


def short_q(question: Question) -> str:
    from gamelab.core.errors import short

    return f"expression {short(question.text)}"


def check_looks(game: Game, question: Question, max_games: int, *, n_players=None, lineup=None, baseline=False):
    """``max_games`` at least one look of the test (:data:`CHUNK_DEALS` deals in every seat
    rotation, in each arm): a test stopped before its first look decides nothing."""
    check_count("max_games", max_games, MAX_GAMES)
    metrics = [balance.metric(game, t.metric) for t in question.terms]
    lineup, n_players = _lineup(game, metrics, lineup, n_players)
    _, lineup, n_players = runner.resolve(game, None, lineup, n_players)
    rotations = 1 if len(set(lineup)) == 1 else n_players
    look = CHUNK_DEALS * rotations * (2 if baseline else 1)
    if max_games < look:
        raise GamelabError(
            f"--max-games {max_games:,} is fewer than one look of the test ({look:,} games: {CHUNK_DEALS} deals"
            + (f" in each of {rotations} seat rotations" if rotations > 1 else "")
            + (", in both arms" if baseline else "")
            + ")"
        )


def _lineup(game: Game, metrics, lineup, n_players):
    """The meta-game's metrics are measured on a run of random profiles: that lineup, unless one is given."""
    if lineup is None and n_players is not None and game.metagame and not all(m.smooth for m in metrics):
        lineup = [game.metagame.profile_agent] * n_players
    return lineup, n_players


def _setup(game: Game, expr, *, n_players, params, baseline, lineup, seed, max_games, chunk_deals) -> _Setup:
    check_count("max_games", max_games, MAX_GAMES)
    question = question_for(game, expr, with_baseline=baseline is not None)
    metrics = {t.metric: balance.metric(game, t.metric) for t in question.terms}
    lineup, n_players = _lineup(game, list(metrics.values()), lineup, n_players)
    p, lineup, n_players = runner.resolve(game, params, lineup, n_players)
    arms = {"params": p}
    if baseline is not None:
        arms["baseline"] = runner.resolve(game, baseline, lineup, n_players)[0]
    per_arm = max(1, max_games // len(arms))
    chunks = {
        a: runner.plan(
            game, n_games=per_arm, seed=seed, params=q, lineup=lineup, n_players=n_players, chunk_deals=chunk_deals
        )
        for a, q in arms.items()
    }
    return _Setup(
        game,
        question,
        metrics,
        arms,
        lineup,
        n_players,
        chunks,
        chunks["params"][0].rotations,
        question.threshold(n_players),
    )


def _play(setup: _Setup, start: int, stop: int, run: RunConfig) -> list[dict]:
    """Chunks ``start:stop`` of every arm (through the store): one table per arm each."""
    from gamelab.sim.prefetch import play_chunks

    todo = [(a, i) for i in range(start, stop) for a in setup.chunks]
    store = run.chunk_store()
    frames = {k: store.get(setup.chunks[k[0]][k[1]]) for k in todo}
    missing = [k for k in todo if frames[k] is None]
    if missing:
        items = [setup.chunks[a][i] for a, i in missing]
        play_chunks(items, store, run=run, on_result=lambda j, df: frames.__setitem__(missing[j], df))
    return [{a: frames[(a, i)] for a in setup.chunks} for i in range(start, stop)]


def _absorb(setup: _Setup, acc: Accumulator, tables: dict) -> None:
    metrics = list(setup.metrics.values())
    parts = [_arm_sums(tables[a], metrics, a) for a in setup.chunks]
    acc.add(pd.concat(parts, axis=1, join="inner"))


def decide(
    game: Game,
    expr: str,
    *,
    n_players: int | None = None,
    params=None,
    baseline=None,
    lineup=None,
    alpha: float = 0.05,
    beta: float = 0.05,
    zone: float = DEFAULT_ZONE,
    max_games: int = MAX_GAMES,
    seed: int = 0,
    chunk_deals: int = CHUNK_DEALS,
    run: RunConfig | None = None,
) -> Decision | grouped.Decision:
    """Decide ``expr`` by the sequential test (see the module docstring); a question on a metric
    with no smooth margin (the meta-game's) by the group-sequential test of :mod:`grouped`."""
    setup, run = _prepared(
        game, expr, n_players, params, baseline, lineup, seed, max_games, chunk_deals, alpha, beta, zone, run
    )
    if not smooth(setup):
        return _decide_grouped(setup, run, alpha, beta, seed, max_games)
    walk = _walk(setup, run, alpha, beta, zone)
    lo, hi = bounds(alpha, beta)
    decision = "yes" if walk.ratio >= hi else "no" if walk.ratio <= lo else "undecided"
    d_hat = setup.question.sign * (walk.t - setup.threshold)
    reason = ""
    if decision == "undecided" and walk.acc.n < MIN_DEALS:
        reason = f"only {walk.acc.n} deals: at least {MIN_DEALS} are needed to weigh the spread of the margin"
    elif decision == "undecided" and _exactly_on(walk.sigma, d_hat, len(walk.looks)):
        reason = "every deal gave exactly the threshold: no number of games can decide it"
    looks = np.array(walk.looks, float)
    est, low, high = _corrected_t(setup, decision, d_hat, walk.sigma, looks, zone, lo, hi, seed)
    return Decision(
        setup.question.text,
        decision,
        walk.acc.n * setup.rotations * len(setup.chunks),
        walk.acc.n,
        est,
        low,
        high,
        walk.t,
        setup.threshold,
        float(walk.ratio),
        (lo, hi),
        alpha,
        beta,
        zone,
        reason,
        *question_words(setup),
        players=setup.n_players,
        points=in_points(setup),
    )


def _prepared(
    game: Game, expr, n_players, params, baseline, lineup, seed, max_games, chunk_deals, alpha, beta, zone, run
):
    """What :func:`decide` and :func:`plan` share: the rates checked, the
    question set up (arms, chunks, metrics), the run made ready (its store
    defaults to the workspace's chunk cache, so a plan's pilot is the test's
    own first chunks)."""
    _check_rates(alpha, beta, zone)
    setup = _setup(
        game,
        expr,
        n_players=n_players,
        params=params,
        baseline=baseline,
        lineup=lineup,
        seed=seed,
        max_games=max_games,
        chunk_deals=chunk_deals,
    )
    run = run or RunConfig()
    if run.store is None:
        run = dataclasses.replace(run, store=ChunkStore(paths.cache_dir()))
    return setup, run.ready()


@dataclasses.dataclass
class _Walk:
    """Where the test stopped: the sums so far, the deals at each look, the
    statistic, its spread and the log-likelihood ratio."""

    acc: Accumulator
    looks: list
    t: float = 0.0
    sigma: float = 0.0
    ratio: float = 0.0


def _walk(setup: _Setup, run: RunConfig, alpha: float, beta: float, zone: float) -> _Walk:
    """Play the test's chunks look by look (as many at once as there are
    workers) until the ratio crosses a bound, the margin is exactly on the
    threshold for good, or the chunks run out."""
    lo, hi = bounds(alpha, beta)
    sign = setup.question.sign
    walk = _Walk(Accumulator(), [])
    per_look = getattr(run.executor, "workers", 1)
    n_chunks, i = len(setup.chunks["params"]), 0
    while i < n_chunks:
        for tables in _play(setup, i, min(i + per_look, n_chunks), run):
            _absorb(setup, walk.acc, tables)
            i += 1
            walk.looks.append(walk.acc.n)
            walk.t, walk.sigma = _linearised(setup.question, setup.metrics, walk.acc)
            _check_finite(setup, walk.t, walk.sigma, walk.acc.n)
            margin = sign * (walk.t - setup.threshold)
            walk.ratio = llr(walk.acc.n, margin, walk.sigma, zone) if walk.acc.n >= MIN_DEALS else 0.0
            if walk.ratio >= hi or walk.ratio <= lo or _exactly_on(walk.sigma, margin, len(walk.looks)):
                return walk
    return walk


def _exactly_on(sigma: float, d_hat: float, n_looks: int) -> bool:
    """Every deal so far (the pilot's looks at least) gave the margin 0 exactly:
    more games cannot move the test (identical arms, a metric that cannot change)."""
    return sigma == 0 and d_hat == 0 and n_looks >= PILOT_CHUNKS


def _check_finite(setup: _Setup, t: float, sigma: float, n: int) -> None:
    """A statistic without a value is said in words, never printed as nan."""
    if not (math.isfinite(t) and math.isfinite(sigma)):
        names = ", ".join(sorted({term.metric for term in setup.question.terms}))
        raise GamelabError(
            f"{setup.question.text}: cannot be decided: {names} has no value on these {n:,} deals "
            "(a share of nothing: no seat or game it counts was played)"
        )


def question_words(setup: _Setup) -> tuple[str, bool, int]:
    """(T in words, whether it is said in points, the question's side):
    ``the style spread``; ``the change in the seat spread from the baseline``."""
    terms = setup.question.terms
    percent = all(setup.metrics[t.metric].percent for t in terms)

    def label(t):
        m = setup.metrics[t.metric]
        what = f"the number of {m.label}" if m.count else f"the {m.label}"
        return what + (" under the baseline" if t.arm == "baseline" else "")

    if len(terms) == 1 and terms[0].coef == 1:
        about = label(terms[0])
    elif (
        len(terms) == 2
        and terms[0].metric == terms[1].metric
        and {(t.arm, t.coef) for t in terms} == {("params", 1.0), ("baseline", -1.0)}
    ):
        about = f"the change in the {setup.metrics[terms[0].metric].label} from the baseline"
    else:
        parts: list[str] = []
        for t in terms:
            k = abs(t.coef)
            body = label(t) if k == 1 else f"{k:g} × {label(t)}"
            parts.append(body if not parts and t.coef > 0 else ("minus " if t.coef < 0 else "plus ") + body)
        about = " ".join(parts)
    return about, percent, setup.question.sign


def in_points(setup: _Setup) -> bool:
    """Whether the question's T reads in percentage points (a spread, a gap,
    a difference of win rates) rather than in per cent (one win rate or share)."""
    terms = setup.question.terms
    single = len(terms) == 1 and terms[0].coef == 1
    return not single or balance_metric.in_points(setup.metrics[terms[0].metric])


def amount_words(x: float, percent: bool, points: bool) -> str:
    """``27.6 points``, ``41.7 %`` or ``0.42``, with a real minus sign."""
    text = (f"{x * 100:.1f} points" if points else f"{x * 100:.1f} %") if percent else f"{x:.3g}"
    return text.replace("-", "−")


def _corrected_t(setup, decision, d_hat, sigma, looks, zone, lo, hi, seed):
    """The corrected estimate and interval of D, mapped back to T."""
    q, c = setup.question, setup.threshold
    if sigma <= 0:
        t = c + q.sign * d_hat
        return t, t, t
    side = {"yes": 1, "no": -1}.get(decision, 0)
    observed = float(rank(side, len(looks) - 1, len(looks), d_hat * math.sqrt(looks[-1]) / sigma))
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(CORRECTION_KEY,)))
    d = corrected(observed, sigma, looks, zone, lo, hi, d_hat, rng)
    ends = sorted(c + q.sign * x for x in (d[1], d[2]))
    return c + q.sign * d[0], ends[0], ends[1]


def _check_rates(alpha, beta, zone):
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0 < v < 0.5:
            raise GamelabError(f"--{name} {v}: expected an error rate between 0 and 0.5")
    if not zone > 0:
        raise GamelabError(f"--zone {zone}: expected a positive width of the indifference zone")


def plan(
    game: Game,
    expr: str,
    *,
    n_players: int | None = None,
    params=None,
    baseline=None,
    lineup=None,
    alpha: float = 0.05,
    beta: float = 0.05,
    zone: float = DEFAULT_ZONE,
    max_games: int = MAX_GAMES,
    seed: int = 0,
    chunk_deals: int = CHUNK_DEALS,
    run: RunConfig | None = None,
) -> Plan | grouped.Plan:
    """Games the question will need: a pilot (the test's own first chunks,
    kept in the store for the real run) estimates the spread of the
    increments; the test's Brownian approximation is then simulated on its
    schedule at D = -zone/2, 0, +zone/2 and at the pilot's estimate."""
    setup, run = _prepared(
        game, expr, n_players, params, baseline, lineup, seed, max_games, chunk_deals, alpha, beta, zone, run
    )
    if not smooth(setup):
        return _plan_grouped(setup, run, alpha, beta, seed)
    n_pilot = min(PILOT_CHUNKS, len(setup.chunks["params"]))
    acc = Accumulator()
    for tables in _play(setup, 0, n_pilot, run):
        _absorb(setup, acc, tables)
    t, sigma = _linearised(setup.question, setup.metrics, acc)
    _check_finite(setup, t, sigma, acc.n)
    q = setup.question
    d_pilot = q.sign * (t - setup.threshold)
    looks = np.cumsum([c.n_deals for c in setup.chunks["params"]]).astype(float)
    per_deal = setup.rotations * len(setup.chunks)
    lo, hi = bounds(alpha, beta)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(PLAN_KEY,)))
    z = rng.standard_normal((SIMULATIONS, len(looks)))
    rows = []
    for label, d in (
        ("lower edge of the zone", -zone / 2),
        ("on the threshold", 0.0),
        ("upper edge of the zone", zone / 2),
        ("the pilot's estimate", d_pilot),
    ):
        rows.append((label, d, *_operating(d, max(sigma, 1e-12), looks, zone, lo, hi, z, per_deal)))
    from scipy.stats import norm

    z_a, z_b = norm.ppf(1 - alpha), norm.ppf(1 - beta)
    fixed = math.ceil(((z_a + z_b) * sigma / zone) ** 2) * per_deal
    about, percent, sign = question_words(setup)
    return Plan(
        q.text,
        acc.n * per_deal,
        t,
        sigma,
        per_deal,
        tuple(rows),
        fixed,
        about,
        percent,
        setup.threshold,
        sign,
        in_points(setup),
    )


def _operating(d, sigma, looks, zone, lo, hi, z, per_deal):
    """Mean and 90th percentile of games, P(yes), P(reaching the limit)."""
    step = np.diff(np.concatenate([[0], looks]))
    ratio = zone * np.cumsum(d * step + sigma * np.sqrt(step) * z, axis=1) / sigma**2
    crossed = (ratio >= hi) | (ratio <= lo)
    any_cross = crossed.any(axis=1)
    first = np.where(any_cross, crossed.argmax(axis=1), len(looks) - 1)
    games = looks[first] * per_deal
    yes = ratio[np.arange(len(ratio)), first] >= hi
    return float(games.mean()), float(np.percentile(games, 90)), float(yes.mean()), float((~any_cross).mean())


# -- metrics with no smooth margin: the group-sequential test (decide/grouped.py) ------------------

PROFILE_GAMES = 16  # games per profile, about, before the grouped test's first look (the meta-game's)
GROUPED_KEY = 0x6B0  # spawn key of the grouped test's resampling


def smooth(setup: _Setup) -> bool:
    """Whether every metric of the question is smooth (the SPRT weighs it), else the grouped test decides."""
    return all(m.smooth for m in setup.metrics.values())


def grouped_looks(setup: _Setup) -> list[int]:
    """The grouped test's looks, in chunks: the first after :data:`PILOT_CHUNKS` chunks, or
    when the game has a meta-game, after about :data:`PROFILE_GAMES` games of each profile;
    then at each doubling, the last at the limit."""
    from gamelab.stats import metagame as solve

    chunks = setup.chunks["params"]
    size = chunks[0].n_deals * setup.rotations
    first = PILOT_CHUNKS
    if setup.game.metagame is not None:
        profiles = len(solve.profiles(len(setup.game.metagame.names), setup.n_players))
        first = max(first, math.ceil(PROFILE_GAMES * profiles / size))
    return grouped.schedule(first, len(chunks))


def _grouped_parts(setup: _Setup, run: RunConfig, seed: int):
    """What the grouped test's walk and plan take: the feed of each chunk's sums (both arms,
    side by side), the statistic, the side of the question, the looks and the resampling."""

    def feed(start, stop):
        metrics = list(setup.metrics.values())
        for tables in _play(setup, start, stop, run):
            parts = [_arm_sums(tables[a], metrics, a) for a in setup.chunks]
            yield pd.concat(parts, axis=1, join="inner")

    def value(cols, x):
        return float(_value(setup.question, setup.metrics, cols, np.asarray(x, float)))

    side = grouped.Side(setup.question.sign, setup.threshold, setup.question.inclusive)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(GROUPED_KEY,)))
    return feed, value, side, grouped_looks(setup), rng


def _games(setup: _Setup, n_chunks: int) -> int:
    return sum(c.n_deals for c in setup.chunks["params"][:n_chunks]) * setup.rotations * len(setup.chunks)


def _decide_grouped(setup: _Setup, run: RunConfig, alpha: float, beta: float, seed: int, max_games: int):
    feed, value, side, looks, rng = _grouped_parts(setup, run, seed)
    out = grouped.walk(feed, value, side, looks, alpha=alpha, beta=beta, rng=rng)
    n_chunks = looks[len(out.looks) - 1]
    games = _games(setup, n_chunks)
    reason = ""
    if out.decision == "undecided" and not math.isfinite(out.estimate):
        names = ", ".join(sorted(setup.metrics))
        reason = f"{names} has no value on these {games:,} games (a part of it was never played); raise --max-games"
    rows = tuple(
        {
            "games": _games(setup, looks[i]),
            "estimate": k.estimate,
            "p_yes": k.p_yes,
            "p_no": k.p_no,
            "resamples": k.resamples,
        }
        for i, k in enumerate(out.looks)
    )
    about, percent, sign = question_words(setup)
    return grouped.Decision(
        setup.question.text,
        out.decision,
        games,
        sum(c.n_deals for c in setup.chunks["params"][:n_chunks]),
        out.estimate,
        out.low,
        out.high,
        setup.threshold,
        alpha,
        beta,
        out.alpha_k,
        out.beta_k,
        rows,
        max_games,
        reason,
        about,
        percent,
        sign,
        setup.question.inclusive,
    )


PLAN_LOOKS = 3  # looks a grouped plan plays at most while its resamples straddle the threshold


def _plan_grouped(setup: _Setup, run: RunConfig, alpha: float, beta: float, seed: int) -> grouped.Plan:
    """The grouped test's first looks played (kept in the store for the test itself), until
    fewer than half the resamples straddle the threshold (at most :data:`PLAN_LOOKS`), and the
    likely stop from there (:func:`grouped.likely_stop`)."""
    feed, value, side, looks, rng = _grouped_parts(setup, run, seed)
    a_k, b_k = grouped.spent(alpha, len(looks)), grouped.spent(beta, len(looks))
    blocks, done = grouped.Blocks(), 0
    for k in range(min(PLAN_LOOKS, len(looks))):
        for sums in feed(done, looks[k]):
            blocks.add(sums)
        done = looks[k]
        at_look = functools.partial(value, list(blocks.cols))
        first, boot = grouped.look(at_look, blocks, side, a_k, b_k, rng, full=True)
        at: int | None = 0
        if first.decision:
            likely, across = first.decision, 0.0
            break
        likely, at, across = grouped.likely_stop(boot, first.estimate, side, looks[k:], a_k, b_k)
        if across < 0.5:
            break
    low, high = grouped.interval(boot)
    about, percent, sign = question_words(setup)
    return grouped.Plan(
        setup.question.text,
        _games(setup, looks[k]),
        first.estimate,
        low,
        high,
        across,
        tuple(_games(setup, n) for n in looks),
        likely,
        None if at is None else _games(setup, looks[k + at]),
        a_k,
        b_k,
        setup.threshold,
        about,
        percent,
        sign,
        setup.question.inclusive,
    )
