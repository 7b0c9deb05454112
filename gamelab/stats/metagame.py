"""Symmetric meta-games measured by play (empirical game-theoretic analysis).

A meta-game (Wellman 2006) has a few strategies (a game's play styles) and
``P`` seats; a *profile* is a multiset of ``P`` strategies, and its payoffs
are the mean payoff (win share) of a seat of each strategy in it, measured by
simulation.  Written as a heuristic payoff table (Walsh et al. 2002, the
format of OpenSpiel's ``egt`` package): one row per profile, the counts of
each strategy and the payoff of each present one.  Given that table:

* :func:`payoff_vs`: each strategy's expected payoff when the other ``P - 1``
  seats are drawn from a mixture ``x`` (multinomial weights over the
  opponents' multisets), vectorised over resampled tables;
* :func:`equilibria`: every symmetric Nash equilibrium found by support
  enumeration (each support's indifference equations, solved by least squares
  from several starts, then checked against every strategy outside it);
* :func:`refine`: one equilibrium followed on resampled tables (its support's
  equations again, from where it was), for bootstrap intervals;
* :func:`dominated`: whether a strategy is strictly dominated by a mixture of
  the others against every opponent profile (a linear programme, HiGHS);
* :func:`alpha_rank`: α-Rank (Omidshafiei et al. 2019), for any number of
  seats (OpenSpiel's ``egt.alpharank`` gives the same numbers for two);
* :class:`DealSums` and :func:`analyse`: a measured table as per-deal sums
  (:mod:`gamelab.sim.profiles` plays it), solved, with intervals from
  resampling the deals (the same draws for every profile); the table's own
  entries by the delta method over deals (:meth:`DealSums.half_widths`).

What is written here and why: OpenSpiel's ``egt.dynamics`` integrates the
replicator equation only for two-player matrix games, and a replicator run
finds only the stable rest points (never, say, the mixed equilibrium of a
coordination game between two pure ones), so the equilibria come from
support enumeration over the table's expected payoffs, a polynomial of
degree ``P - 1`` in the mixture: with six strategies there are 63 supports,
each a small system.  ``pygambit`` (installable here as a wheel) solves the
full normal form (``S ** P`` cells: 46,656 at six players) for equilibria of
any kind, with no way to ask for the symmetric ones; ``egttools`` has an
N-player replicator but works one table at a time, and the bootstrap needs
hundreds of resampled tables in one array operation.  α-Rank: see
:func:`alpha_rank` (OpenSpiel's handles two seats only; tests hold ours to it).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Sequence

import numpy as np

from gamelab.core.errors import GamelabError

N_BOOT = 200  # bootstrap resamples of the deals
TOL = 1e-7  # payoff units: a best reply within this of the best counts as one
SHARE_MIN = 1e-6  # a strategy below this share is outside the support
SAME = 1e-3  # two equilibria closer than this (largest share difference) are one
WORTH = 0.01  # a strategy with at least this share of the seats in an equilibrium is "worth playing"


@functools.lru_cache(maxsize=64)
def profiles(n_strategies: int, n_players: int) -> np.ndarray:
    """(K, S) every profile as counts per strategy, in the order of
    ``itertools.combinations_with_replacement(range(S), P)`` (read-only)."""
    rows = []
    for combo in itertools.combinations_with_replacement(range(n_strategies), n_players):
        rows.append(np.bincount(combo, minlength=n_strategies))
    out = np.array(rows, np.int64).reshape(-1, n_strategies)
    out.flags.writeable = False
    return out


def profile_index(n_strategies: int, n_players: int) -> dict[tuple[int, ...], int]:
    """Counts per strategy -> row of :func:`profiles`."""
    return {tuple(int(c) for c in row): k for k, row in enumerate(profiles(n_strategies, n_players))}


@dataclasses.dataclass(frozen=True)
class Opponents:
    """The other seats' multisets and where each strategy's row is.

    ``counts`` (M, S): the ``P - 1`` opponents' multisets; ``coef`` (M,) their
    multinomial coefficients; ``row`` (M, S): the profile (row of
    :func:`profiles`) a seat of strategy s makes with opponents m.
    """

    counts: np.ndarray
    coef: np.ndarray
    row: np.ndarray


def multinomial(counts) -> float:
    """The number of seatings of a multiset: (sum counts)! / prod(counts!)."""
    return math.factorial(int(sum(counts))) / math.prod(math.factorial(int(c)) for c in counts)


@functools.lru_cache(maxsize=64)
def opponents(n_strategies: int, n_players: int) -> Opponents:
    index = profile_index(n_strategies, n_players)
    counts = profiles(n_strategies, n_players - 1)
    coef = np.array([multinomial(m) for m in counts])
    row = np.empty(counts.shape, np.int64)
    for i, m in enumerate(counts):
        for s in range(n_strategies):
            mine = m.copy()
            mine[s] += 1
            row[i, s] = index[tuple(int(c) for c in mine)]
    return Opponents(counts, coef, row)


def _own_payoffs(payoffs: np.ndarray, opp: Opponents) -> np.ndarray:
    """(..., M, S): the payoff of a seat of s against opponents m (``payoffs`` (..., K, S))."""
    S = payoffs.shape[-1]
    return payoffs[..., opp.row, np.arange(S)]  # payoffs[..., row[m, s], s]


def opponent_weights(x: np.ndarray, opp: Opponents) -> np.ndarray:
    """(..., M) the chance of each opponents' multiset when the seats are drawn from ``x`` (..., S)."""
    x = np.clip(np.asarray(x, float), 0.0, None)
    return opp.coef * np.prod(_powers(x, opp.counts), axis=-1)  # 0 ** 0 = 1


def _powers(x: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """(..., *counts.shape) ``x ** counts`` for mixtures ``x`` (..., S) and whole ``counts`` (..., S)
    below the seats: each share's few powers taken once, then gathered (the same numbers as the
    plain ``np.power(x[..., None, :], counts)``, which takes one power per multiset and strategy)."""
    table = np.power(x[..., :, None], np.arange(int(counts.max(initial=0)) + 1))  # (..., S, k): x_s ** k
    return table[..., np.arange(x.shape[-1]), counts]


def payoff_vs(payoffs: np.ndarray, x: np.ndarray, n_players: int) -> np.ndarray:
    """(..., S) each strategy's expected payoff with the other seats drawn from
    ``x`` (..., S); ``payoffs`` (..., K, S) the table (leading axes: resamples)."""
    payoffs = np.asarray(payoffs, float)
    S = payoffs.shape[-1]
    opp = opponents(S, n_players)
    own = np.nan_to_num(_own_payoffs(payoffs, opp))  # a strategy's own row always holds it: no NaN is read
    return np.einsum("...m,...ms->...s", opponent_weights(x, opp), own)


def regret(payoffs: np.ndarray, x: np.ndarray, n_players: int) -> np.ndarray:
    """(..., S) how much less than the best strategy each one earns against ``x``."""
    u = payoff_vs(payoffs, x, n_players)
    return u.max(-1, keepdims=True) - u


def exploitability(payoffs: np.ndarray, x: np.ndarray, n_players: int) -> np.ndarray:
    """(...,) the best strategy's payoff against ``x`` minus ``x``'s own (0 at an equilibrium)."""
    u = payoff_vs(payoffs, x, n_players)
    return u.max(-1) - (np.asarray(x) * u).sum(-1)


@dataclasses.dataclass(frozen=True)
class Equilibrium:
    """A symmetric equilibrium: every seat plays ``shares``; ``value`` is each
    seat's payoff; ``payoffs`` each strategy's payoff against it."""

    shares: np.ndarray  # (S,)
    value: float
    payoffs: np.ndarray  # (S,)

    @property
    def support(self) -> tuple[int, ...]:
        return tuple(int(s) for s in np.flatnonzero(self.shares > SHARE_MIN))

    @property
    def regret(self) -> np.ndarray:
        return self.payoffs.max() - self.payoffs


@functools.lru_cache(maxsize=64)
def _lowered(n_strategies: int, n_players: int) -> tuple[np.ndarray, np.ndarray]:
    """(T, M, S) and (T, M): per strategy t, the opponents' multisets with one t fewer, and the
    factor ``coef * m_t`` (d/dx_t of ``coef * x ** m`` is ``coef * m_t * x ** (m - e_t)``; the
    factor is 0 for the multisets holding no t)."""
    opp = opponents(n_strategies, n_players)
    lower = np.maximum(opp.counts[None] - np.eye(n_strategies, dtype=np.int64)[:, None, :], 0)
    return lower, opp.coef * opp.counts.T


def _gradient(own: np.ndarray, opp: Opponents, x: np.ndarray) -> np.ndarray:
    """(..., S, S) the payoff gradient at mixtures ``x`` (..., S) of one table's ``own`` (M, S):
    ``[..., s, t]`` is d u_s / d x_t, every t at once."""
    lower, factor = _lowered(own.shape[-1], int(opp.counts[0].sum()) + 1)
    w = factor * np.prod(_powers(x, lower), axis=-1)  # (..., T, M)
    return np.swapaxes(w @ own, -1, -2)


NEWTON_STEPS = 40
STALL = 1e-14  # a least-squares Newton step below this (largest share change) has stopped for good


def _indifference(own, opp, xs, on, first) -> np.ndarray:
    """(N, S) the equations at mixtures ``xs``: each support strategy's payoff minus the first's
    (0 off the support), and in the first's place ``sum x - 1``."""
    u = opponent_weights(xs, opp) @ own
    r = np.arange(len(xs))
    F = np.where(on, u - u[r, first][:, None], 0.0)
    F[r, first] = xs.sum(1) - 1.0
    return F


def _jacobian(own, opp, xs, on, first) -> np.ndarray:
    """(N, S, S) the derivative of :func:`_indifference`; a strategy off the support has the
    equation ``x_s = 0``, so one batched solve serves every support."""
    r = np.arange(len(xs))
    G = _gradient(own, opp, xs)
    J = (G - G[r, first][:, None, :]) * on[:, None, :]  # row s: d(u_s - u_lead); off-support columns 0
    J[r, first] = on  # the row of sum x = 1
    off = ~on
    J[off] = 0.0
    J[np.nonzero(off) + (np.nonzero(off)[1],)] = 1.0  # x_s = 0 off the support
    return J


def _newton_step(J: np.ndarray, F: np.ndarray, least_squares: bool) -> tuple[np.ndarray, bool]:
    """(the step of every row, whether by least squares): ``solve(J, -F)`` row by row, but where
    one row's system is singular (or ``least_squares``) the pseudo-inverse for all,
    ``pinv(J) @ -F``."""
    if not least_squares:
        try:
            return np.linalg.solve(J, -F[..., None])[..., 0], False
        except np.linalg.LinAlgError:
            pass
    return (np.linalg.pinv(J) @ -F[..., None])[..., 0], True


def _singular(J: np.ndarray) -> bool:
    """Whether some system of ``J`` (N, S, S) is singular, as :func:`_newton_step` finds it."""
    try:
        np.linalg.solve(J, np.zeros(J.shape[:-1] + (1,)))
    except np.linalg.LinAlgError:
        return True
    return False


def _newton(payoffs: np.ndarray, support: np.ndarray, n_players: int, x0: np.ndarray) -> np.ndarray:
    """(N, S): for each row, the mixture on ``support`` (N, S bool) near ``x0`` (N, S) at which
    the support's strategies earn the same (Newton's method on the indifference equations and
    sum x = 1, every row at once); a row of NaN where none was found (the iteration left the
    simplex far behind, or did not settle).

    Set aside early, as if iterated to the end: a row whose least-squares step has stopped
    (below STALL) while the batch is held to least squares for good (a row set aside is
    singular, so :func:`_newton_step` would take the pseudo-inverse at every step left: the row
    would stay where it is).  Plain: iterate those rows too, NEWTON_STEPS in all."""
    opp = opponents(payoffs.shape[-1], n_players)
    own = np.nan_to_num(_own_payoffs(np.asarray(payoffs, float), opp))  # (M, S)
    N, S = x0.shape
    x = np.where(support, x0, 0.0)
    x /= x.sum(1, keepdims=True)
    lead = support.argmax(1)  # each support's first strategy: the others' payoffs are set equal to its
    out = np.full((N, S), np.nan)
    live, aside, held = np.arange(N), np.arange(0), False
    for _ in range(NEWTON_STEPS):
        xs, on, first = x[live], support[live], lead[live]
        F = _indifference(own, opp, xs, on, first)
        done = np.abs(F).max(1) < 1e-12
        out[live[done]] = xs[done]
        J = _jacobian(own, opp, xs, on, first)
        step, least_squares = _newton_step(J, F, held)
        xs = np.where(on, xs + step, 0.0)
        x[live] = xs
        left = np.where(on, xs, np.inf).min(1) < -1.0
        left |= np.where(on, xs, -np.inf).max(1) > 2.0  # left the simplex far behind: no solution near here
        stopped = ~done & ~left & least_squares & (np.abs(step).max(1) < STALL)
        if stopped.any():
            held = held or _singular(J[stopped])
            stopped &= held
            aside = np.r_[aside, live[stopped]]
        live = live[~done & ~left & ~stopped]
        if not len(live):
            break
    last = np.r_[live, aside]  # out of steps: kept only if the equations hold to the final tolerance
    xs, on, first = x[last], support[last], lead[last]
    F = _indifference(own, opp, xs, on, first)
    gap = np.abs(np.where(np.arange(S) == first[:, None], 0.0, F)).max(1, initial=0.0)  # the payoff equations only
    ok = (gap < TOL * 1e-2) & (np.abs(xs.sum(1) - 1) < 1e-9)
    out[last[ok]] = xs[ok]
    return out


def _solve_supports(payoffs, supports, n_players, starts) -> np.ndarray:
    """(N, S) mixtures at which each support's (N, S bool) strategies earn the same, from
    ``starts`` (N, S) (a one-strategy support: that strategy alone); NaN rows: none found."""
    supports = np.asarray(supports, bool)
    out = np.where(supports, 1.0, 0.0)
    many = supports.sum(1) > 1
    if many.any():
        out[many] = _newton(payoffs, supports[many], n_players, np.asarray(starts, float)[many])
    return out


def undominated(payoffs: np.ndarray, n_players: int) -> list[int]:
    """The strategies left by iterated elimination of strictly dominated ones
    (no equilibrium plays a strictly dominated strategy)."""
    keep = list(range(payoffs.shape[-1]))
    while len(keep) > 1:
        sub = restrict(payoffs, keep, n_players)
        gone = dominated(sub, n_players)
        if not gone.any():
            break
        keep = [s for s, d in zip(keep, gone) if not d]
    return keep


def restrict(payoffs: np.ndarray, keep: Sequence[int], n_players: int) -> np.ndarray:
    """(K', S') the table of the profiles over the strategies ``keep`` only."""
    rows = _restricted_rows(payoffs.shape[-1], tuple(int(s) for s in keep), n_players)
    return np.asarray(payoffs, float)[..., rows, :][..., list(keep)]


@functools.lru_cache(maxsize=256)
def _restricted_rows(n_strategies: int, keep: tuple[int, ...], n_players: int) -> list[int]:
    """The rows of :func:`profiles` holding only the strategies ``keep``, in the order of the
    profiles over ``keep`` (kept from one call to the next: :func:`undominated` asks for the same few)."""
    index = profile_index(n_strategies, n_players)
    rows = []
    for counts in profiles(len(keep), n_players):
        full = np.zeros(n_strategies, np.int64)
        full[list(keep)] = counts
        rows.append(index[tuple(int(c) for c in full)])
    return rows


def _is_equilibrium(payoffs, x, n_players) -> bool:
    return bool(exploitability(payoffs, x, n_players) <= TOL)


def _make(payoffs, x, n_players) -> Equilibrium:
    x = np.where(x > SHARE_MIN, x, 0.0)
    x = x / x.sum()
    u = payoff_vs(payoffs, x, n_players)
    return Equilibrium(x, float(x @ u), u)


def _starting_mixtures(keep: Sequence[int], n_strategies: int, starts: int, rng) -> np.ndarray:
    """(N, S) every support of the strategies ``keep`` (by size, then in the order of
    ``itertools.combinations``), each from ``starts`` mixtures: its centre (all ones), then
    random ones; a one-strategy support from its centre alone (it has one solution, whatever
    the start).  Plain: per support and start ``i``, ``x[support] = 1.0 if i == 0 else
    rng.dirichlet(np.ones(k))``; here each size's draws are taken at once (the same numbers,
    the one-strategy supports' unused ones included)."""
    out = []
    for k in range(1, len(keep) + 1):
        supports = np.array(list(itertools.combinations(keep, k)))  # (C, k)
        x = np.ones((len(supports), starts, k))
        x[:, 1:] = rng.dirichlet(np.ones(k), size=(len(supports), starts - 1))
        full = np.zeros((len(supports), starts, n_strategies))
        np.put_along_axis(full, np.broadcast_to(supports[:, None, :], x.shape), x, axis=-1)
        out.append((full if k > 1 else full[:, :1]).reshape(-1, n_strategies))
    return np.concatenate(out)


def equilibria(payoffs: np.ndarray, n_players: int, *, starts: int = 6, seed: int = 0) -> list[Equilibrium]:
    """Every symmetric Nash equilibrium found of the table ``payoffs`` (K, S):
    the strictly dominated strategies eliminated first (:func:`undominated`),
    then every support of the rest, each from ``starts`` starting mixtures
    (its centre, then random ones); largest leading share first.  A game whose
    equal strategies make a continuum of equilibria gives some points of it."""
    payoffs = np.asarray(payoffs, float)
    S = payoffs.shape[-1]
    rng = np.random.default_rng(seed)
    keep = undominated(payoffs, n_players)
    x0 = _starting_mixtures(keep, S, starts, rng)
    masks = x0 > 0
    found = _solve_supports(payoffs, masks, n_players, x0)
    solved = ~np.isnan(found).any(1)
    on_support = np.where(masks, np.nan_to_num(found), np.inf).min(1) > SHARE_MIN
    ok = solved & on_support
    ok[ok] = exploitability(payoffs, found[ok], n_players) <= TOL
    out: list[Equilibrium] = []
    for x in found[ok]:
        if not any(np.abs(e.shares - x).max() < SAME for e in out):
            out.append(_make(payoffs, x, n_players))
    return sorted(out, key=lambda e: (-e.shares.max(), tuple(-e.shares)))


def refine(payoffs: np.ndarray, eq: Equilibrium, n_players: int) -> Equilibrium | None:
    """The equilibrium of ``payoffs`` (a resampled table) on ``eq``'s support
    from ``eq``'s shares (None: that support holds none there: a share would
    leave the simplex or a strategy outside it would pay more)."""
    x = _solve_supports(payoffs, (eq.shares > SHARE_MIN)[None], n_players, eq.shares[None])[0]
    if np.isnan(x).any():
        return None
    if not _is_equilibrium(payoffs, x, n_players) or np.abs(x - eq.shares).max() > 0.5:
        return None
    return _make(payoffs, x, n_players)


def _best_reply_somewhere(own: np.ndarray, s: int) -> bool:
    """Whether ``s`` earns at least every other strategy against some opponents' multiset (then no
    mixture beats it there, so it is not strictly dominated); plain: the LP's margin is at most 0."""
    return bool((own[:, s] >= np.delete(own, s, axis=1).max(1)).any())


def _sure_margin(own: np.ndarray, s: int) -> float:
    """A margin some mixture of the others surely keeps over ``s`` against every opponents'
    multiset: the best of each other strategy alone and of all of them in equal shares (a lower
    bound of the LP's margin); plain: the LP with y one of these few mixtures."""
    others = np.delete(own, s, axis=1)
    mixtures = np.c_[others, others.mean(1)]  # (M, S): each other strategy alone, then the even mix
    return float((mixtures - own[:, [s]]).min(0).max())


def _mixed_margin(own: np.ndarray, s: int) -> float:
    """The largest margin a mixture of the others keeps over ``s`` against every opponents' multiset:
    a linear programme (HiGHS); NaN where it finds none."""
    from scipy.optimize import linprog

    # variables: y (others), e; maximise e s.t. own[:, others] @ y - own[:, s] >= e, sum y = 1, y >= 0
    others = [t for t in range(own.shape[1]) if t != s]
    n = len(others)
    c = np.r_[np.zeros(n), -1.0]
    A_ub = np.c_[-own[:, others], np.ones(len(own))]
    b_ub = -own[:, s]
    A_eq = np.r_[np.ones(n), 0.0][None]
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)])
    return -res.fun if res.status == 0 else np.nan


def dominated(payoffs: np.ndarray, n_players: int) -> np.ndarray:
    """(S,) bool: strategy s is strictly dominated, i.e. some mixture of the
    others earns more than s (by more than TOL) against every opponents'
    multiset (a pure dominator is a mixture too).  A linear programme per
    strategy gives the largest margin the best mixture keeps over s
    everywhere (HiGHS); two exact checks settle most strategies first (a
    best reply somewhere is not dominated; one beaten by 2 TOL by a pure
    strategy or by the even mix of the others is)."""
    payoffs = np.asarray(payoffs, float)
    S = payoffs.shape[-1]
    own = _own_payoffs(payoffs, opponents(S, n_players))  # (M, S)
    out = np.zeros(S, bool)
    if S == 1:
        return out  # no other strategy to be dominated by
    for s in range(S):
        if _best_reply_somewhere(own, s):
            continue
        out[s] = _sure_margin(own, s) > 2 * TOL or bool(_mixed_margin(own, s) > TOL)
    return out


ALPHA = 100.0  # α-Rank's selection intensity (OpenSpiel's default), payoffs in win shares
POPULATION = 50  # α-Rank's finite population (OpenSpiel's default m)


def _fitness(payoffs, index, r, s, n_players, m):
    """(m-1,) and (m-1,): a mutant r's and a resident s's expected payoff with
    k = 1..m-1 mutants in a population of ``m``, each seat's ``P - 1``
    opponents drawn without replacement from the rest (hypergeometric)."""
    from scipy.stats import hypergeom

    S = payoffs.shape[-1]
    k = np.arange(1, m)[:, None]
    j = np.arange(n_players)[None, :]  # mutants among the opponents

    def pay(n_r, who):  # payoff of strategy ``who`` in the profile with n_r seats of r, the rest s
        out = np.full(n_players, np.nan)
        for a in range(n_players):
            counts = np.zeros(S, np.int64)
            counts[r] += a + n_r
            counts[s] += n_players - a - n_r
            if 0 <= a + n_r <= n_players:
                out[a] = payoffs[index[tuple(int(c) for c in counts)], who]
        return out

    a_r = pay(1, r)  # a_r[j]: an r seat with j r opponents
    a_s = pay(0, s)  # a_s[j]: an s seat with j r opponents
    w_r = hypergeom.pmf(j, m - 1, k - 1, n_players - 1)  # an r seat's opponents: k-1 r's among m-1
    w_s = hypergeom.pmf(j, m - 1, k, n_players - 1)  # an s seat's: k r's among m-1
    return np.nansum(w_r * a_r, 1), np.nansum(w_s * a_s, 1)


def alpha_rank(payoffs: np.ndarray, n_players: int, *, alpha: float = ALPHA, m: int = POPULATION) -> np.ndarray:
    """(S,) α-Rank's stationary distribution over the strategies (Omidshafiei
    et al. 2019, single population): a population of ``m`` all playing one
    strategy is invaded by a single mutant, which takes over with the Moran
    process's fixation probability under the Fermi rule of intensity
    ``alpha``; the chain over which strategy the whole population plays has
    this stationary distribution.  OpenSpiel's ``egt.alpharank`` gives the
    same numbers for two seats (tests/test_metagame.py holds one to the
    other); its single-population form pits strategies in two-seat contests
    only, and its many-population form needs a chain over all ``S ** P``
    seatings, so the ``P``-seat fitness (each seat's opponents drawn from the
    population without replacement) is written here."""
    payoffs = np.asarray(payoffs, float)
    S = payoffs.shape[-1]
    if S == 1:
        return np.ones(1)
    index = profile_index(S, n_players)
    eta = 1.0 / (S - 1)
    c = np.zeros((S, S))
    for s in range(S):
        for r in range(S):
            if r == s:
                continue
            f_r, f_s = _fitness(payoffs, index, r, s, n_players, m)
            logs = np.r_[0.0, np.cumsum(-alpha * (f_r - f_s))]  # log of each product term, l = 0..m-1
            c[s, r] = eta * float(np.exp(-np.logaddexp.reduce(logs)))  # 1 / sum_l prod_k exp(-alpha d_k)
        c[s, s] = 1.0 - c[s].sum()
    # the stationary distribution: pi c = pi, sum pi = 1
    A = np.vstack([c.T - np.eye(S), np.ones(S)])
    b = np.r_[np.zeros(S), 1.0]
    pi = np.linalg.lstsq(A, b, rcond=None)[0]
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


# --- a measured table: per-deal sums, resampled ------------------------------------------


@dataclasses.dataclass(frozen=True)
class DealSums:
    """Per deal, the wins and seats of each strategy in each profile:
    ``wins`` and ``seats`` (D, K, S), rows of ``profiles`` (K, S) over
    ``names``; NaN-free (a strategy absent from a profile has 0 seats)."""

    names: tuple[str, ...]
    n_players: int
    profiles: np.ndarray
    wins: np.ndarray
    seats: np.ndarray

    def payoffs(self, weights: np.ndarray | None = None) -> np.ndarray:
        """(K, S), or (B, K, S) with bootstrap ``weights`` (B, D): win share per seat (NaN: absent)."""
        D = self.wins.shape[0]
        w = self.wins.reshape(D, -1)
        n = self.seats.reshape(D, -1)
        if weights is None:
            tw, tn = w.sum(0), n.sum(0)
        else:
            tw, tn = weights @ w, weights @ n
        with np.errstate(invalid="ignore", divide="ignore"):
            out = tw / np.where(tn > 0, tn, np.nan)
        return out.reshape(*out.shape[:-1], *self.wins.shape[1:])

    def half_widths(self) -> np.ndarray:
        """(K, S) the 95 % half-width of each win share (NaN: the strategy is not in the profile):
        1.96 standard errors of a ratio of sums over deals by the delta method,
        ``Σ (w_d - p n_d)² / (Σ n_d)²`` with the factor ``D / (D - 1)`` (``D`` the deals the
        profile was played on).  Resampling deals gives the same to first order; the formula
        has no resampling noise, which the widest of a few thousand percentile intervals
        from 200 resamples would add (at six players, 0.91 points here and 1.08 there)."""
        wins, seats = self.wins, self.seats
        tw, tn = wins.sum(0), seats.sum(0)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = tw / np.where(tn > 0, tn, np.nan)
            resid = ((wins - p * seats) ** 2).sum(0)
            played = (seats.sum(2) > 0).sum(0)[:, None]  # deals each profile was played on
            var = resid / tn**2 * played / np.maximum(played - 1, 1)
        return 1.96 * np.sqrt(var)


def boot_weights(n_deals: int, n_boot: int = N_BOOT, seed: int = 0) -> np.ndarray:
    """(B, D) how often each deal is drawn in each resample (the same for every profile)."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_deals, np.full(n_deals, 1 / n_deals), size=n_boot).astype(float)


@dataclasses.dataclass
class Analysis:
    """The meta-game at one player count, solved, with intervals (plain data)."""

    names: tuple[str, ...]
    n_players: int
    label: str
    payoffs: np.ndarray  # (K, S) the table
    payoffs_low: np.ndarray  # (K, S) 95 % interval over deals (DealSums.half_widths)
    payoffs_high: np.ndarray
    equilibria: list  # [Equilibrium]
    shares_low: list  # per equilibrium (S,) intervals of the shares
    shares_high: list
    regret_low: list
    regret_high: list
    support_held: list  # per equilibrium: share of resamples whose table has an equilibrium on its support
    dominated: np.ndarray  # (S,) bool
    dominated_share: np.ndarray  # (S,) share of resamples in which it is dominated
    alpha_rank: np.ndarray  # (S,)
    alpha_low: np.ndarray
    alpha_high: np.ndarray
    deals: int
    games: int
    half_width: float  # the widest 95 % half-width of a table entry
    deals_fewest: int = 0  # the fewest deals a profile was played on (a table sized by precision: some get more)
    worth_low: int = 0  # 95 % interval of the number of strategies worth playing, over resamples
    worth_high: int = 0
    psro: list = dataclasses.field(default_factory=list)  # [dict] one per iteration
    exploitability: float | None = None

    @property
    def worth(self) -> list[int]:
        """Strategies worth playing: at least WORTH of the seats in some equilibrium found, in order."""
        return sorted({int(s) for e in self.equilibria for s in np.flatnonzero(e.shares >= WORTH)})

    def vs_mixture(self, x) -> np.ndarray:
        """(S,) each strategy's expected win share against the others drawn from ``x``."""
        return payoff_vs(self.payoffs, np.asarray(x, float), self.n_players)


def _percentiles(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 95 % interval over resamples (axis 0); an entry with no value (an absent strategy) stays NaN."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns: the absent strategies
        return np.nanpercentile(a, 2.5, axis=0), np.nanpercentile(a, 97.5, axis=0)


FULL_RESOLVES = 20  # resamples solved afresh (all supports) when the equilibria's own supports give none


def analyse(
    sums: DealSums, *, label: str = "strategy", n_boot: int = N_BOOT, seed: int = 0, light: bool = False
) -> Analysis:
    """Solve the table of ``sums`` and resample its deals for intervals.  Each
    equilibrium is followed on every resample on its support (:func:`refine`);
    the number worth playing per resample is the union of those, or where none
    holds, of a fresh search (the first FULL_RESOLVES such resamples).
    ``light``: the dominance and α-Rank verdicts without resampling, and no fresh
    searches on resamples (a panel's: the count's interval from the resamples
    where an equilibrium found keeps its support)."""
    P = sums.n_players
    point = sums.payoffs()
    if np.isnan(point[sums.profiles > 0]).any():
        raise GamelabError("the payoff table has a profile with no games: play it with more deals")
    weights = boot_weights(sums.wins.shape[0], n_boot, seed)
    boot = sums.payoffs(weights)
    half_widths = sums.half_widths()
    low, high = point - half_widths, point + half_widths
    eqs = equilibria(point, P)
    sh_lo, sh_hi, rg_lo, rg_hi, held = [], [], [], [], []
    worth_sets: list[set] = [set() for _ in boot]
    for e in eqs:
        got = [refine(b, e, P) for b in boot]
        for w, g in zip(worth_sets, got):
            if g is not None:
                w.update(int(x) for x in np.flatnonzero(g.shares >= WORTH))
        ok = [g for g in got if g is not None]
        held.append(len(ok) / len(boot))
        shares = np.array([g.shares for g in ok]) if ok else e.shares[None]
        regrets = np.array([g.regret for g in ok]) if ok else e.regret[None]
        lo, hi = _percentiles(shares)
        sh_lo.append(lo)
        sh_hi.append(hi)
        lo, hi = _percentiles(regrets)
        rg_lo.append(lo)
        rg_hi.append(hi)
    empty = [i for i, w in enumerate(worth_sets) if not w][: 0 if light else FULL_RESOLVES]
    for i in empty:
        worth_sets[i] = {s for e in equilibria(boot[i], P) for s in np.flatnonzero(e.shares >= WORTH).tolist()}
    counts = np.array([len(w) for w in worth_sets if w] or [len({s for e in eqs for s in e.support})], float)
    dom = dominated(point, P)
    ar = alpha_rank(point, P)
    if light:
        dom_share, ar_lo, ar_hi = dom.astype(float), ar, ar
    else:
        n_dom = min(n_boot, 50)  # a linear programme per strategy and resample: 50 resamples tell the share
        dom_share = np.mean([dominated(b, P) for b in boot[:n_dom]], axis=0)
        n_ar = min(n_boot, 50)
        ar_boot = np.array([alpha_rank(b, P) for b in boot[:n_ar]])
        ar_lo, ar_hi = _percentiles(ar_boot)
    half = float(np.nanmax(half_widths[sums.profiles > 0]))
    games = int(sum(sums.seats[:, k].sum() / P for k in range(len(sums.profiles))))
    return Analysis(
        names=sums.names,
        n_players=P,
        label=label,
        payoffs=point,
        payoffs_low=low,
        payoffs_high=high,
        equilibria=eqs,
        shares_low=sh_lo,
        shares_high=sh_hi,
        regret_low=rg_lo,
        regret_high=rg_hi,
        support_held=held,
        dominated=dom,
        dominated_share=dom_share,
        alpha_rank=ar,
        alpha_low=ar_lo,
        alpha_high=ar_hi,
        deals=int(sums.wins.shape[0]),
        games=games,
        half_width=half,
        deals_fewest=int((sums.seats.sum(2) > 0).sum(0).min()),
        worth_low=int(np.percentile(counts, 2.5, method="lower")),
        worth_high=int(np.percentile(counts, 97.5, method="higher")),
    )
