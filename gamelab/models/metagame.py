"""A game's meta-game of strategies, measured and solved: which strategies
adapting players keep (empirical game-theoretic analysis, Wellman 2006).

A game that declares strategies (``Game.strategies``, e.g. STRAND's six
styles of appendix B) has a meta-game at each player count ``P``: a profile
seats one strategy on each seat (every multiset of ``P`` strategies: 126 of
six styles at four players), and its payoffs are the win shares of each
strategy's seats.  :func:`payoff_table` plays every profile through the
runner and the chunk store (:func:`gamelab.sim.prefetch.prefetch`: all
missing chunks in one pass, a rerun is read back), every profile with the
same seed, so on the same deals (common random numbers), each deal in every
seat rotation; it keeps per deal the wins and seats of each strategy in each
profile, so that resampling deals (the bootstrap, the same draws for every
profile) gives the table's intervals and those of everything solved from it.

:func:`analyse` solves it (:mod:`gamelab.stats.metagame`): every symmetric
equilibrium found, with each strategy's share, its regret against it (how
much less it wins than the best strategy) and whether it is dominated, each
with a bootstrap interval; α-Rank; and in words whether the equilibrium is
unique and whether it holds under resampling.  :func:`psro` adds the game's
search agents as best responses to the equilibrium (PSRO, Lanctot et al.
2017): the search sits at tables drawn from the equilibrium, seen by the
others as the equilibrium's leading strategy, and when it gains more than
a point over the equilibrium's value it joins the meta-game, which is
solved again (restricted to the equilibrium's strategies and the search:
each search profile is slow to play).

The metrics ``styles_worth_playing`` and ``equilibrium_spread`` put the
answer in the metrics catalogue (:func:`metrics`), so a tuner's goal can ask
for "at least 4 styles worth playing at 4 players".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from gamelab.core import registry
from gamelab.core.contract import Run
from gamelab.core.errors import GamelabError
from gamelab.core.labels import key_words
from gamelab.sim import runner
from gamelab.sim.prefetch import play_chunks, run_args
from gamelab.sim.run import RunConfig
from gamelab.stats import metagame as solve

N_BOOT = 200  # bootstrap resamples of the deals
GAIN = 0.01  # PSRO stops when the best response gains less than this (1 point) over the equilibrium's value


def declared(game) -> Any:
    """The game's strategies (``Game.strategies``), or a one-line error naming the game."""
    game = registry.get(game) if isinstance(game, str) else game
    if game.strategies is None:
        raise GamelabError(f"{game.name} declares no strategies, so it has no meta-game (Game.strategies)")
    return game.strategies


def profile_lineups(names: Sequence[str], n_players: int) -> list[tuple[str, ...]]:
    """Every profile as a lineup (one name per seat), in :func:`solve.profiles` order."""
    return [
        tuple(n for s, c in enumerate(row) for n in [names[s]] * int(c))
        for row in solve.profiles(len(names), n_players)
    ]


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


def profile_runs(game, n_players: int, *, params=None, deals: int | None = None, seed: int = 0, names=None) -> list:
    """The runs of every profile (:class:`gamelab.core.contract.Run`), on the same deals."""
    game = registry.get(game) if isinstance(game, str) else game
    strategies = declared(game)
    names = tuple(names or strategies.names)
    deals = int(deals or strategies.deals)
    return [
        Run(
            n_players=n_players,
            n_games=deals * (1 if len(set(lu)) == 1 else n_players),
            seed=seed,
            lineup=lu,
            params=params,
        )
        for lu in profile_lineups(names, n_players)
    ]


def sums_of(frame: pd.DataFrame, names: Sequence[str], deal_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(D, S) wins and seats of each strategy per deal of one profile's table."""
    S, D = len(names), len(deal_ids)
    strategy = pd.Categorical(frame["agent"], categories=list(names)).codes
    deal = np.searchsorted(deal_ids, frame["deal"].to_numpy())
    flat = deal * S + strategy
    wins = np.bincount(flat, frame["win"].to_numpy(float), D * S).reshape(D, S)
    seats = np.bincount(flat, minlength=D * S).astype(float).reshape(D, S)
    return wins, seats


def play_profiles(game, runs: Sequence[Run], names, *, run: RunConfig) -> tuple[np.ndarray, np.ndarray]:
    """Play ``runs`` through the chunk store (the missing chunks in one pass
    through the run's executor, :func:`gamelab.sim.prefetch.play_chunks`),
    each chunk reduced to per-deal sums as it is read or lands: (D, K, S) wins and seats.
    Every run has the same seed, so the same deals (common random numbers)."""
    game = registry.get(game) if isinstance(game, str) else game
    run = run.ready()
    store = run.chunk_store()
    chunks = [(k, c) for k, r in enumerate(runs) for c in runner.plan(game.name, **run_args(r))]
    n_deals = sum(c.n_deals for k, c in chunks if k == 0)
    if any(sum(c.n_deals for j, c in chunks if j == k) != n_deals for k in range(len(runs))):
        raise GamelabError("every profile must be played on the same deals")
    deal_ids = np.concatenate(
        [np.arange(c.n_deals, dtype=np.int64) + c.index * 10**7 for k, c in chunks if k == 0]
    )  # runner._tidy's deal numbers
    wins = np.zeros((len(deal_ids), len(runs), len(names)))
    seats = np.zeros_like(wins)

    def add(i, frame):
        k = chunks[i][0]
        w, n = sums_of(frame, names, deal_ids)
        wins[:, k] += w
        seats[:, k] += n

    todo = []
    for i, (_, c) in enumerate(chunks):
        frame = store.get(c)
        if frame is None:
            todo.append(i)
        else:
            add(i, frame)
    play_chunks([chunks[i][1] for i in todo], store, run=run, on_result=lambda j, df: add(todo[j], df))
    return wins, seats


def payoff_table(
    game, n_players: int, *, params=None, deals: int | None = None, seed: int = 0, run: RunConfig | None = None
) -> DealSums:
    """Every profile of the game's strategies at ``n_players`` played on the same deals, as per-deal sums."""
    game = registry.get(game) if isinstance(game, str) else game
    strategies = declared(game)
    lo, hi = game.players
    if not lo <= n_players <= hi:
        raise GamelabError(f"--players {n_players} is out of range: {game.name} is for {lo}-{hi} players")
    names = tuple(strategies.names)
    runs = profile_runs(game, n_players, params=params, deals=deals, seed=seed)
    wins, seats = play_profiles(game, runs, names, run=run or RunConfig())
    return DealSums(names, n_players, solve.profiles(len(names), n_players), wins, seats)


def boot_weights(n_deals: int, n_boot: int = N_BOOT, seed: int = 0) -> np.ndarray:
    """(B, D) how often each deal is drawn in each resample (the same for every profile)."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_deals, np.full(n_deals, 1 / n_deals), size=n_boot).astype(float)


# --- the analysis -------------------------------------------------------------------------


@dataclasses.dataclass
class Analysis:
    """The meta-game at one player count, solved, with intervals (plain data)."""

    names: tuple[str, ...]
    n_players: int
    label: str
    payoffs: np.ndarray  # (K, S) the table
    payoffs_low: np.ndarray  # (K, S) 95 % bootstrap interval
    payoffs_high: np.ndarray
    equilibria: list  # [solve.Equilibrium]
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
    psro: list = dataclasses.field(default_factory=list)  # [dict] one per iteration
    exploitability: float | None = None

    @property
    def worth(self) -> list[int]:
        """Strategies in the support of some equilibrium found, in order."""
        return sorted({s for e in self.equilibria for s in e.support})

    def vs_mixture(self, x) -> np.ndarray:
        """(S,) each strategy's expected win share against the others drawn from ``x``."""
        return solve.payoff_vs(self.payoffs, np.asarray(x, float), self.n_players)


def _percentiles(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 95 % interval over resamples (axis 0); an entry with no value (an absent strategy) stays NaN."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns: the absent strategies
        return np.nanpercentile(a, 2.5, axis=0), np.nanpercentile(a, 97.5, axis=0)


def analyse(sums: DealSums, *, label: str = "strategy", n_boot: int = N_BOOT, seed: int = 0) -> Analysis:
    """Solve the table of ``sums`` and resample its deals for intervals."""
    P = sums.n_players
    point = sums.payoffs()
    if np.isnan(point[sums.profiles > 0]).any():
        raise GamelabError("the payoff table has a profile with no games: play it with more deals")
    weights = boot_weights(sums.wins.shape[0], n_boot, seed)
    boot = sums.payoffs(weights)
    low, high = _percentiles(boot)
    eqs = solve.equilibria(point, P)
    sh_lo, sh_hi, rg_lo, rg_hi, held = [], [], [], [], []
    for e in eqs:
        got = [solve.refine(b, e, P) for b in boot]
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
    dom = solve.dominated(point, P)
    n_dom = min(n_boot, 50)  # a linear programme per strategy and resample: 50 resamples tell the share
    dom_share = np.mean([solve.dominated(b, P) for b in boot[:n_dom]], axis=0)
    ar = solve.alpha_rank(point, P)
    n_ar = min(n_boot, 50)
    ar_boot = np.array([solve.alpha_rank(b, P) for b in boot[:n_ar]])
    ar_lo, ar_hi = _percentiles(ar_boot)
    present = sums.profiles > 0
    half = float(np.nanmax(((high - low) / 2)[present]))
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
    )


# --- PSRO: best responses added to the meta-game -------------------------------------------


def _mixture_weights(shares: np.ndarray, n_opponents: int) -> tuple[np.ndarray, np.ndarray]:
    """The opponents' multisets over the support of ``shares`` (M, S) and their chances (M,)."""
    S = len(shares)
    counts = solve.profiles(S, n_opponents)
    opp = solve.Opponents(counts, np.array([solve.multinomial(c) for c in counts]), np.zeros_like(counts))
    w = solve.opponent_weights(shares, opp)
    keep = w > 1e-12
    return counts[keep], w[keep]


def _search_payoff(wins, seats, chance, weights):
    """The search seat's (the last strategy's) expected win share over its profiles weighted by ``chance``."""
    tw = wins[..., -1].sum(0) if weights is None else weights @ wins[..., -1]
    tn = seats[..., -1].sum(0) if weights is None else weights @ seats[..., -1]
    return (tw / tn) @ chance


def psro(
    game,
    analysis: Analysis,
    sums: DealSums,
    *,
    params=None,
    seed: int = 0,
    run: RunConfig | None = None,
    limit: int | None = None,
    n_boot: int = N_BOOT,
    say=None,
) -> tuple[list[dict], float | None]:
    """Policy-space response oracles over the game's search agents
    (``Game.strategies.searches``, in turn, at most ``limit``).

    Each iteration seats the search on one seat among opponents drawn from
    the current equilibrium (every multiset of its support, weighted by its
    chance), the search seen as, and playing its own seat in its play-outs
    as, the first equilibrium's leading strategy (the game's ``proxy_knob``,
    set once so that every search profile is played alike); its gain is its
    expected win share there minus the equilibrium's value.  Below a point
    (``GAIN``) it stops; else the search joins the meta-game, restricted to
    the equilibrium's support and the searches so far (each profile with a
    search seat is played with ``search_deals`` deals), which is solved again.
    Returns the iterations (plain dicts) and the final exploitability (the
    last search's gain; None: the game has no search)."""
    game = registry.get(game) if isinstance(game, str) else game
    strategies = declared(game)
    searches = list(strategies.searches[: limit if limit is not None else len(strategies.searches)])
    if not searches or not analysis.equilibria:
        return [], None
    run = run or RunConfig()
    say = say or (lambda text: None)
    P = analysis.n_players
    base = game.knobs() if params is None else params
    eq = analysis.equilibria[0]
    lead = analysis.names[int(np.argmax(eq.shares))]
    params_s = dataclasses.replace(base, **{strategies.proxy_knob: lead}) if strategies.proxy_knob else base
    names = [analysis.names[s] for s in eq.support]  # the restricted game's strategies
    table = solve.restrict(analysis.payoffs, list(eq.support), P)
    shares = eq.shares[list(eq.support)]
    value = eq.value
    iterations: list[dict] = []
    deals = strategies.search_deals
    exploit = None
    for i, search in enumerate(searches, 1):
        # the search against the equilibrium: one search seat, the rest drawn from the equilibrium
        counts, chance = _mixture_weights(shares, P - 1)
        lineups = [(search,) + tuple(n for s, c in enumerate(m) for n in [names[s]] * int(c)) for m in counts]
        say(f"PSRO {i}: {search} (seen as {lead}) against the equilibrium: {len(lineups)} profiles")
        runs = [Run(n_players=P, n_games=deals * P, seed=seed, lineup=lu, params=params_s) for lu in lineups]
        wins, seats = play_profiles(game, runs, tuple(names) + (search,), run=run)
        w = boot_weights(wins.shape[0], n_boot, seed)

        u = float(_search_payoff(wins, seats, chance, None))
        boot = _search_payoff(wins, seats, chance, w)
        gain = u - value
        row = {
            "iteration": i,
            "search": search,
            "seen_as": lead,
            "against": {n: float(x) for n, x in zip(names, shares) if x > solve.SHARE_MIN},
            "search_win_share": u,
            "search_win_share_low": float(np.percentile(boot, 2.5)),
            "search_win_share_high": float(np.percentile(boot, 97.5)),
            "equilibrium_value": float(value),
            "gain": gain,
            "gain_low": float(np.percentile(boot, 2.5) - value),
            "gain_high": float(np.percentile(boot, 97.5) - value),
            "games": int(round(seats.sum() / P)),
        }
        exploit = gain
        if gain < GAIN:
            row["joined"] = False
            iterations.append(row)
            break
        # the search joins: the restricted game over names + search, every profile with a search seat played
        names_new = names + [search]
        S = len(names_new)
        K = solve.profiles(S, P)
        new = np.full(K.shape, np.nan)
        old_index = solve.profile_index(len(names), P)
        todo = []
        for k, c in enumerate(K):
            if c[-1] == 0:
                new[k, :-1] = table[old_index[tuple(int(x) for x in c[:-1])]]
            else:
                todo.append(k)
        lus = [tuple(n for s, c in enumerate(K[k]) for n in [names_new[s]] * int(c)) for k in todo]
        say(f"PSRO {i}: {search} joins; {len(lus)} profiles with it")
        runs = [
            Run(n_players=P, n_games=deals * (1 if len(set(lu)) == 1 else P), seed=seed, lineup=lu, params=params_s)
            for lu in lus
        ]
        wins, seats = play_profiles(game, runs, tuple(names_new), run=run)
        with np.errstate(invalid="ignore", divide="ignore"):
            got = wins.sum(0) / np.where(seats.sum(0) > 0, seats.sum(0), np.nan)
        for j, k in enumerate(todo):
            new[k] = got[j]
        eqs = solve.equilibria(new, P)
        if not eqs:
            row["joined"] = True
            iterations.append(row)
            break
        e = eqs[0]
        row.update(
            joined=True,
            equilibrium={n: float(x) for n, x in zip(names_new, e.shares) if x > solve.SHARE_MIN},
            equilibria_found=len(eqs),
            search_is_whole_equilibrium=bool(e.shares[-1] > 1 - solve.SHARE_MIN),
        )
        iterations.append(row)
        names, table, shares, value = names_new, new, e.shares, e.value
    return iterations, exploit


# --- in words and as data ----------------------------------------------------------------------

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def count_words(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def pct(x: float) -> str:
    return f"{100 * x:.0f} %" if abs(100 * x - round(100 * x)) < 0.05 or abs(x) >= 0.1 else f"{100 * x:.1f} %"


def _mix_words(names, shares) -> str:
    parts = [
        f"{key_words(n)} ({pct(x)})" for n, x in sorted(zip(names, shares), key=lambda t: -t[1]) if x > solve.SHARE_MIN
    ]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def sentence(a: Analysis) -> str:
    """The answer first, in words: where adapting players settle and which strategies they drop."""
    P, label = a.n_players, a.label
    eqs = a.equilibria
    if not eqs:
        return f"At {P} players no equilibrium of the {label}s' meta-game was found."
    never = [n for s, n in enumerate(a.names) if s not in a.worth]
    if len(eqs) == 1:
        head = f"If players adapt, at {P} players they settle on {_mix_words(a.names, eqs[0].shares)}"
    else:
        ways = "; or ".join(_mix_words(a.names, e.shares) for e in eqs)
        head = f"If players adapt, at {P} players they can settle in {count_words(len(eqs))} ways: {ways}"
    if not never:
        tail = f"; every {label} is worth playing."
    elif len(never) == len(a.names) - 1:
        tail = f"; the other {count_words(len(never))} {label}s are never worth playing."
    else:
        listed = ", ".join(key_words(n) for n in never)
        tail = f"; {listed} {'is' if len(never) == 1 else 'are'} never worth playing."
    out = head + tail
    held = a.support_held[0]
    if held < 0.95:
        out += (
            f" The equilibrium is not stable under resampling: on resampled deals its {label}s keep an "
            f"equilibrium in {pct(held)} of resamples."
        )
    if len(eqs) > 1:
        out += " The equilibrium is not unique: where players end up depends on where they start."
    return out


def psro_sentence(a: Analysis) -> str:
    """PSRO's answer in words ("" : none played)."""
    if not a.psro:
        return ""
    first = a.psro[0]
    out = (
        f"A player who searches ({first['search']}, seen as {key_words(first['seen_as'])}) wins "
        f"{pct(first['search_win_share'])} against that equilibrium, "
        f"{100 * first['gain']:+.1f} points over its {pct(first['equilibrium_value'])}"
    )
    whole = [r for r in a.psro if r.get("search_is_whole_equilibrium")]
    if first["gain"] < GAIN:
        out += ": the styles hold against search."
    elif whole:
        out += (
            f"; once it is in the meta-game, players settle on {whole[-1]['search']} alone: the "
            f"{a.label}s no longer describe adapted play."
        )
    elif first.get("equilibrium"):
        eq = first["equilibrium"]
        out += f"; with it, players settle on {_mix_words(list(eq), list(eq.values()))}."
    else:
        out += "."
    if a.exploitability is not None:
        last = a.psro[-1]
        out += (
            f" Final exploitability: {100 * a.exploitability:.1f} points ({last['search']} against the last "
            f"equilibrium, 95 % interval {100 * last['gain_low']:.1f} to {100 * last['gain_high']:.1f}"
            + (")." if last["gain"] < GAIN else f"; PSRO stopped at its limit of {len(a.psro)} iterations).")
        )
    return out


def style_table(a: Analysis) -> pd.DataFrame:
    """One row per strategy: win share against an even mix, share in the first
    equilibrium (interval), regret against it (interval, points), dominated, α-Rank."""
    even = a.vs_mixture(np.full(len(a.names), 1 / len(a.names)))
    rows = []
    e = a.equilibria[0] if a.equilibria else None
    for s, n in enumerate(a.names):
        row = {a.label: key_words(n), "vs even mix": pct(even[s])}
        if e is not None:
            row["share"] = pct(e.shares[s])
            row["share 95 %"] = f"{pct(a.shares_low[0][s])}-{pct(a.shares_high[0][s])}"
            row["regret (points)"] = f"{100 * e.regret[s]:.1f}"
            row["regret 95 %"] = f"{100 * a.regret_low[0][s]:.1f}-{100 * a.regret_high[0][s]:.1f}"
        row["dominated"] = "yes" if a.dominated[s] else "no"
        row["α-Rank"] = pct(a.alpha_rank[s])
        rows.append(row)
    return pd.DataFrame(rows)


def _f(x) -> float | None:
    x = float(x)
    return x if np.isfinite(x) else None


def as_json(a: Analysis) -> dict:
    """Everything :func:`analyse` and :func:`psro` found, as plain JSON-ready data."""
    P = a.n_players
    rows = []
    for k, counts in enumerate(solve.profiles(len(a.names), P)):
        rows.append(
            {
                "profile": {n: int(c) for n, c in zip(a.names, counts) if c},
                "win_share": {n: _f(a.payoffs[k, s]) for s, n in enumerate(a.names) if counts[s]},
                "low": {n: _f(a.payoffs_low[k, s]) for s, n in enumerate(a.names) if counts[s]},
                "high": {n: _f(a.payoffs_high[k, s]) for s, n in enumerate(a.names) if counts[s]},
            }
        )
    eqs = []
    for i, e in enumerate(a.equilibria):
        eqs.append(
            {
                "shares": {n: _f(x) for n, x in zip(a.names, e.shares)},
                "shares_low": {n: _f(x) for n, x in zip(a.names, a.shares_low[i])},
                "shares_high": {n: _f(x) for n, x in zip(a.names, a.shares_high[i])},
                "value": _f(e.value),
                "regret": {n: _f(x) for n, x in zip(a.names, e.regret)},
                "regret_low": {n: _f(x) for n, x in zip(a.names, a.regret_low[i])},
                "regret_high": {n: _f(x) for n, x in zip(a.names, a.regret_high[i])},
                "support": [a.names[s] for s in e.support],
                "held_under_resampling": _f(a.support_held[i]),
            }
        )
    even = a.vs_mixture(np.full(len(a.names), 1 / len(a.names)))
    return {
        "players": P,
        "strategies": list(a.names),
        "answer": sentence(a),
        "psro_answer": psro_sentence(a),
        "deals_per_profile": a.deals,
        "games": a.games,
        "widest_half_width": _f(a.half_width),
        "payoff_table": rows,
        "against_even_mix": {n: _f(x) for n, x in zip(a.names, even)},
        "equilibria": eqs,
        "unique": len(a.equilibria) == 1,
        "worth_playing": [a.names[s] for s in a.worth],
        "dominated": {n: bool(d) for n, d in zip(a.names, a.dominated)},
        "dominated_in_resamples": {n: _f(d) for n, d in zip(a.names, a.dominated_share)},
        "alpha_rank": {n: _f(x) for n, x in zip(a.names, a.alpha_rank)},
        "alpha_rank_low": {n: _f(x) for n, x in zip(a.names, a.alpha_low)},
        "alpha_rank_high": {n: _f(x) for n, x in zip(a.names, a.alpha_high)},
        "psro": a.psro,
        "exploitability": None if a.exploitability is None else _f(a.exploitability),
    }


def metagame(
    game,
    n_players: int,
    *,
    params=None,
    deals: int | None = None,
    seed: int = 0,
    run: RunConfig | None = None,
    n_boot: int = N_BOOT,
    psro_limit: int | None = None,
    say=None,
) -> Analysis:
    """The payoff table played, solved, and (``psro_limit`` not 0) PSRO's iterations on it."""
    game = registry.get(game) if isinstance(game, str) else game
    strategies = declared(game)
    run = (run or RunConfig()).ready()
    sums = payoff_table(game, n_players, params=params, deals=deals, seed=seed, run=run)
    a = analyse(sums, label=strategies.label, n_boot=n_boot, seed=seed)
    if psro_limit != 0 and strategies.searches:
        a.psro, a.exploitability = psro(
            game, a, sums, params=params, seed=seed, run=run, limit=psro_limit, n_boot=n_boot, say=say
        )
    return a
