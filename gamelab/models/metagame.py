"""A game's meta-game of strategies, measured and solved: which strategies
adapting players keep (empirical game-theoretic analysis, Wellman 2006).

A game that declares strategies (``Game.metagame``, e.g. six play
styles) has a meta-game at each player count ``P``: a profile
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
from typing import Any

import numpy as np
import pandas as pd

from gamelab.core.contract import Game, Run
from gamelab.core.errors import GamelabError
from gamelab.core.labels import key_words
from gamelab.sim.profiles import TARGET, declared, payoff_table, play_profiles, profile_lineups, profile_runs
from gamelab.sim.run import RunConfig
from gamelab.stats import metagame as solve
from gamelab.stats.metagame import N_BOOT, Analysis, DealSums, analyse, boot_weights

__all__ = [
    "Analysis",
    "DealSums",
    "analyse",
    "as_json",
    "declared",
    "metagame",
    "payoff_table",
    "profile_lineups",
    "profile_runs",
    "psro",
    "sentence",
    "style_table",
]

GAIN = 0.01  # PSRO stops when the best response gains less than this (1 point) over the equilibrium's value


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
    game: Game,
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
    (``Game.metagame.searches``, in turn, at most ``limit``).

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
    strategies = declared(game)
    searches = list(strategies.searches[: limit if limit is not None else len(strategies.searches)])
    if not searches or not analysis.equilibria:
        return [], None
    run = run or RunConfig()
    say = say or (lambda text: None)
    P = analysis.n_players
    base: Any = game.knobs() if params is None else params
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


def ends(low: str, high: str) -> str:
    """An interval's two ends as shown: ``9.3–12.0``; one figure when they agree as shown (``100 %``, never
    ``100 %-100 %``: issue 37)."""
    if low == high:
        return low
    return f"{low.removesuffix(' %')}–{high}" if low.endswith(" %") and high.endswith(" %") else f"{low}–{high}"


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


def deal_words(a: Analysis) -> str:
    """``2,048 deals`` or ``1,024 to 3,584 deals`` (a table sized by its precision)."""
    if a.deals_fewest and a.deals_fewest < a.deals:
        return f"{a.deals_fewest:,} to {a.deals:,} deals"
    return f"{a.deals:,} deals"


def table_sentence(a: Analysis) -> str:
    """How precise the payoff table is, in one sentence: its profiles, deals, games and the
    widest 95 % half-width of a win share in it."""
    n = len(solve.profiles(len(a.names), a.n_players))
    return (
        f"The payoff table: {n:,} profiles, each on {deal_words(a)} in every seat rotation ({a.games:,} games); "
        f"every {a.label}'s win share in every profile within ±{100 * a.half_width:.2f} points (95 %)."
    )


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
            row["share 95 %"] = ends(pct(a.shares_low[0][s]), pct(a.shares_high[0][s]))
            row["regret (points)"] = f"{100 * e.regret[s]:.1f}"
            row["regret 95 %"] = ends(f"{100 * a.regret_low[0][s]:.1f}", f"{100 * a.regret_high[0][s]:.1f}")
        row["dominated"] = "yes" if a.dominated[s] else "no"
        row["α-Rank"] = pct(a.alpha_rank[s])
        rows.append(row)
    return pd.DataFrame(rows)


PANEL_GAMES = 40_000  # games of random profiles behind a notebook panel's line


def sums_from_run(frame: pd.DataFrame, strategies, n_players: int) -> DealSums:
    """A run of random profiles (``strategies.profile_agent`` on every seat) as the meta-game's
    sums, per block of deals (:func:`gamelab.stats.bootstrap.deal_blocks`)."""
    from gamelab.stats.bootstrap import deal_blocks
    from gamelab.stats.metagame_metrics import _profile_sums

    parts = _profile_sums(frame, strategies, deal_blocks(frame["deal"].to_numpy()))
    S = len(strategies.names)
    K = solve.profiles(S, n_players)
    wins = np.zeros((len(parts), len(K), S))
    seats = np.zeros_like(wins)
    for col in parts.columns:
        _, k, st, what = col.split(":")
        (wins if what == "w" else seats)[:, int(k), int(st)] = parts[col].to_numpy()
    return DealSums(tuple(strategies.names), n_players, K, wins, seats)


def worth_line(
    game: Game, n_players: int, *, params=None, seed: int = 0, n_games: int = PANEL_GAMES, run: RunConfig | None = None
) -> str:
    """A notebook panel's one line: the strategies worth playing if players adapt, with the
    interval of their number, from one run of ``n_games`` random profiles (through the chunk
    store: a profile's few games each, so a wider interval than ``gamelab metagame``'s)."""
    from gamelab.sim import runner

    strategies = declared(game)
    if not strategies.profile_agent:
        raise GamelabError(f"{game.name} declares no agent that plays random profiles (Strategies.profile_agent)")
    run = run or RunConfig(progress=False)
    frame = runner.simulate(
        game,
        n_games=n_games,
        seed=seed,
        params=params,
        lineup=[strategies.profile_agent] * n_players,
        store=run.chunk_store(),
        progress=False,
    )
    sums = sums_from_run(frame, strategies, n_players)
    if np.isnan(sums.payoffs()[sums.profiles > 0]).any():
        return f"{strategies.label.capitalize()}s worth playing: too few games to meet every profile ({n_games:,})"
    a = analyse(sums, label=strategies.label, n_boot=40, seed=seed, light=True)
    names = ", ".join(key_words(a.names[s]) for s in a.worth) or "none"
    span = f"{a.worth_low}" if a.worth_low == a.worth_high else f"{a.worth_low} to {a.worth_high}"
    return (
        f"{strategies.label.capitalize()}s worth playing if players adapt: {names} "
        f"({len(a.worth)} of {len(a.names)}; 95 % interval {span}; {n_games:,} games of random profiles)"
    )


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
        "deals_per_profile_fewest": a.deals_fewest,
        "table_answer": table_sentence(a),
        "games": a.games,
        "widest_half_width": _f(a.half_width),
        "payoff_table": rows,
        "against_even_mix": {n: _f(x) for n, x in zip(a.names, even)},
        "equilibria": eqs,
        "unique": len(a.equilibria) == 1,
        "worth_playing": [a.names[s] for s in a.worth],
        "worth_playing_count_interval": [a.worth_low, a.worth_high],
        "dominated": {n: bool(d) for n, d in zip(a.names, a.dominated)},
        "dominated_in_resamples": {n: _f(d) for n, d in zip(a.names, a.dominated_share)},
        "alpha_rank": {n: _f(x) for n, x in zip(a.names, a.alpha_rank)},
        "alpha_rank_low": {n: _f(x) for n, x in zip(a.names, a.alpha_low)},
        "alpha_rank_high": {n: _f(x) for n, x in zip(a.names, a.alpha_high)},
        "psro": a.psro,
        "exploitability": None if a.exploitability is None else _f(a.exploitability),
    }


def metagame(
    game: Game,
    n_players: int,
    *,
    params=None,
    deals: int | None = None,
    seed: int = 0,
    run: RunConfig | None = None,
    n_boot: int = N_BOOT,
    psro_limit: int | None = None,
    target: float = TARGET,
    say=None,
) -> Analysis:
    """The payoff table played (``deals`` None: sized so that every win share is within
    ±``target``, one point by default, :func:`gamelab.sim.profiles.payoff_table`), solved, and
    (``psro_limit`` not 0) PSRO's iterations on it."""
    strategies = declared(game)
    run = (run or RunConfig()).ready()
    sums = payoff_table(game, n_players, params=params, deals=deals, seed=seed, run=run, target=target, say=say)
    a = analyse(sums, label=strategies.label, n_boot=n_boot, seed=seed)
    if psro_limit != 0 and strategies.searches:
        a.psro, a.exploitability = psro(
            game, a, sums, params=params, seed=seed, run=run, limit=psro_limit, n_boot=n_boot, say=say
        )
    return a


def heatmap_values(a: Analysis) -> np.ndarray:
    """(S, S): the win share of one seat of the row's strategy with every other seat the column's."""
    S, P = len(a.names), a.n_players
    index = solve.profile_index(S, P)
    out = np.empty((S, S))
    for r in range(S):
        for c in range(S):
            counts = np.zeros(S, np.int64)
            counts[c] += P - 1
            counts[r] += 1
            out[r, c] = a.payoffs[index[tuple(int(x) for x in counts)], r]
    return out
