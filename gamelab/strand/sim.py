"""STRAND for the runner: ``play`` (``GAME.play``) and its diagnostics.

Lineup entries (one per seat): a style of appendix B (``heavy``, ``key``,
``node_grabber``, ``steady``, ``mirror``, ``stay``), ``random`` (uniformly
random legal moves), or ``mix1`` .. ``mix6``: the k-th style of a random
ordering of the six styles drawn per deal from the chance generator, so the
mix seats of a game hold distinct styles and each style is equally likely
("同局混流派", appendix B); ``mix``: the k-th ``mix`` seat of the seating
takes the k-th style of that ordering (so ``[X, mix, mix, mix]`` is X
against three distinct styles); ``greedy`` and ``best``: the search agents
of ``search.py`` (sampled best responses to the table model, play-outs to the
end of the round / of the game).  The default lineup is ``mix1 .. mixP``: the
runner rotates it over the seats, so each deal is played with its styles in
every seat.  Roles (``AgentParams.roles``): ``first_p`` deals the first P of
(veteran, bb, fragile, porter, musician, engineer) to the seats in a random
order per deal (the appendix's role table); ``none``; ``random`` (P of six).

Chance comes first and apart from the agents: the runner splits a chunk's
seed into the four streams the game declares (:data:`STREAMS`): the cards
(hands and refills), the deal's style order and roles, the time-rain order,
and the agents' generator (:func:`deal_chance` makes the engine's
``Chance`` of them).  So a deal is the same under every seating and every
model setting (common random numbers).

Columns per seat (G,P): ``score`` final, ``win`` share (ties split), ``rank``,
``gross``, ``lone`` markers, ``node_points``, ``style``, ``role`` (name or
"none"), ``ropes_v`` / ``mutual_v`` for v = 1..5 (ropes pointed with cargo v /
of those, ones that formed a team at the ropes: identity ②'s trust rate),
``stay_then`` / ``stay_then_pts`` (rounds that follow a stay / net points
scored in them), ``other_then`` / ``other_then_pts`` (the same after a
non-stay; their difference is our measured value S of a stay).  Per game (G,):
``lone_total`` markers, ``team_rounds`` rounds in which a team formed,
``lead_changes`` (times the sole leader by net score changed, round by round),
``void_nodes`` nodes voided by a full tie, ``rounds`` played.  Per seat again,
``round_1_points`` .. ``round_R_points`` (R = ``rounds``): each round's net points
(gained less the lone penalty of its new markers; they sum to ``score``: the
report's edge by phase, ``EDGE``).
:func:`measures` turns a frame into the appendix's diagnostics.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pandas as pd

from gamelab.core import budgets
from gamelab.core.budgets import level_of
from gamelab.core.contract import EdgeSources, PointPart
from gamelab.core.driver import split_streams
from gamelab.core.params import knob_value
from gamelab.stats.intervals import Estimate, mean_interval, ratio_of_sums
from gamelab.stats.leads import LeadCounter

from . import engine
from .agent_params import AgentParams, knobs
from .cards import onehot
from .heuristic import CUSTOM, RANDOM, STYLES, Table
from .learned import Policy, Recorder
from .restricted import RESTRICTIONS, restricted_name
from .rules import ROLES
from .search import (
    BEST,
    BUDGETED,
    BUDGETS,
    GREEDY,
    MIX_PROXY,
    RESTRICTED,
    SEARCHERS,
    below,
    search_agents,
    searcher_seats,
    with_searchers,
)
from .state import CARGO, N_VALUES, REACT_PASS, ROPE

MIX = tuple(f"mix{k}" for k in range(1, 7))
ANY_STYLE = "mix"  # each such seat: the next style of the deal's random ordering (mix1, mix2, ... in seat order)
#: the meta-game's seats (models/metagame.py): per deal, the styles of all such seats are a multiset drawn
#: uniformly from every multiset of the six (repeats allowed), in a random seat order
PROFILE = "any_profile"
#: the learned rung (issue 39): a policy distilled from the top decided search rung's own games,
#: played on its seat at about the styles' cost (:func:`learned_policy`); ``learned_heavy`` ..
#: ``learned_stay``: it held to a style's defining choice (restricted play at the learned rung)
LEARNED = "learned"
LEARNED_RESTRICTED = tuple(f"{LEARNED}_{s}" for s in STYLES)
AGENTS = (
    STYLES
    + ("random",)
    + MIX
    + (ANY_STYLE, GREEDY, BEST)
    + BUDGETED
    + RESTRICTED
    + (PROFILE, LEARNED)
    + LEARNED_RESTRICTED
)
STYLE_NAMES = np.array(STYLES + ("random", "custom"))
ROLE_NAMES = np.array(("none",) + ROLES)
PER_SEAT = ("ropes", "mutual")
NODE_MAX = 30  # node_values' upper bound (rules.StrandParams): derived knobs clip to 0..NODE_MAX


def default_lineup(n_players: int) -> list:
    return list(MIX[:n_players])


def strong_lineup(n_players: int) -> list:
    """The strongest agent, ``best``, on every seat (the bench's ``strong``)."""
    return [BEST] * n_players


def deal_styles(seating, n_deals, rng, best_proxy=None):
    """Style codes (G,P) of the seats: a mix seat's style from a random
    ordering of the six styles per deal (one draw of (G, 6) uniforms); the
    k-th ``mix`` seat takes the k-th style of it; a ``best`` seat's code is
    its proxy style (``AgentParams.best_proxy``: how the table sees it); with
    the proxy ``mix``, the search seats take in seat order the styles of the
    ordering that no ``mixK`` seat holds."""
    order = np.argsort(rng.random((n_deals, len(STYLES))), axis=1)
    styles = np.empty((n_deals, len(seating)), np.int8)
    n_any = 0
    free = [k for k in range(len(STYLES)) if MIX[k] not in seating]  # for searchers playing the mix
    for s, name in enumerate(seating):
        if name in MIX:
            styles[:, s] = order[:, MIX.index(name)]
        elif name == ANY_STYLE:
            styles[:, s] = order[:, n_any]
            n_any += 1
        elif name in RESTRICTED:  # restricted play: the table sees the style it is restricted to
            styles[:, s] = STYLES.index(budgets.agent_of(name))
        elif name == LEARNED:  # its style of the mix (the policy is distilled apart per style)
            styles[:, s] = order[:, free.pop(0)]
        elif name in LEARNED_RESTRICTED:
            styles[:, s] = LEARNED_RESTRICTED.index(name)
        elif name in SEARCHERS:
            if best_proxy is None:
                raise ValueError("a best seat needs its proxy style (AgentParams.best_proxy)")
            if best_proxy == MIX_PROXY:
                styles[:, s] = order[:, free.pop(0)]
            else:
                styles[:, s] = STYLES.index(best_proxy)
        elif name == PROFILE:
            continue  # below, once every other seat is set
        elif name == "random":
            styles[:, s] = RANDOM
        elif name == "custom":
            styles[:, s] = CUSTOM
        else:
            styles[:, s] = STYLES.index(name)
    profile_seats = [s for s, name in enumerate(seating) if name == PROFILE]
    if profile_seats:  # an extra draw only for these lineups: every other lineup's deals are as they were
        styles[:, profile_seats] = random_profiles(len(profile_seats), n_deals, rng)
    return styles


def random_profiles(n_seats: int, n_deals: int, rng) -> np.ndarray:
    """(G, n_seats) style codes: per deal one multiset of ``n_seats`` styles,
    each of the C(6 + n - 1, n) multisets equally likely, seated in a random
    order (one draw of (G, n + 1) uniforms: the multiset, then the order)."""
    import itertools

    multisets = np.array(list(itertools.combinations_with_replacement(range(len(STYLES)), n_seats)), np.int8)
    u = rng.random((n_deals, n_seats + 1))
    pick = multisets[np.minimum((u[:, 0] * len(multisets)).astype(np.int64), len(multisets) - 1)]
    order = np.argsort(u[:, 1:], axis=1)
    return np.take_along_axis(pick, order, axis=1)


def deal_roles(params, n_deals, n_players, rng):
    """Role codes (G,P) as ``params.roles`` deals them (one draw of (G, 6) uniforms)."""
    G, P = n_deals, n_players
    keys = rng.random((G, len(ROLES)))
    if params.roles == "first_p":
        roles = np.argsort(keys[:, :P], axis=1) + 1
    elif params.roles == "random":
        roles = np.argsort(keys, axis=1)[:, :P] + 1
    else:
        roles = np.zeros((G, P), np.int64)
    return roles.astype(np.int8)


def deal_setup(params, seating, n_deals, n_players, rng):
    """Style codes (G,P) of the seats and role codes (G,P), from chance."""
    styles = deal_styles(seating, n_deals, rng, params.best_proxy)
    return styles, deal_roles(params, n_deals, n_players, rng)


def deal_chance(params, n_deals, n_players, roles, cards, rain) -> engine.Chance:
    """The engine's Chance from the runner's generators: the hands then the
    refills from ``cards`` (refills float32), the time-rain order from ``rain``."""
    return engine.deal(params, n_deals, n_players, cards=cards, rain=rain, roles=roles, draws_dtype=np.float32)


STREAMS = ("cards", "setup", "rain", "agents")  # the runner's split of a chunk's seed (``GAME.streams``)


def play(params, seating, n_deals, n_players, streams, custom=None) -> dict:
    """The game's ``play`` (the runner's entry point): one batch of ``n_deals`` games."""
    params = knobs(params)
    styles, roles = deal_setup(params, seating, n_deals, n_players, streams["setup"])
    chance = deal_chance(params, n_deals, n_players, roles, streams["cards"], streams["rain"])
    return play_games(
        params,
        styles,
        chance,
        streams["agents"],
        custom=custom,
        searchers=searcher_seats(seating),
        learned=learned_seats(seating),
    )


def learned_seats(seating) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(seats whose card, seats whose rope) the learned policy plays in ``seating``: a
    ``learned`` seat both; a restricted one (``learned_heavy``) the one its style does not define."""
    defines = {LEARNED: None} | {f"{LEARNED}_{s}": phase for s, phase in RESTRICTIONS.items()}
    cards = tuple(s for s, n in enumerate(seating) if n in defines and defines[n] != CARGO)
    ropes = tuple(s for s, n in enumerate(seating) if n in defines and defines[n] != ROPE)
    return cards, ropes


def make_table(params, styles, agents, custom=None, learned=None) -> Table:
    """The table model of a batch (``heuristic.Table``), the learned rung's seats (``learned``:
    :func:`learned_seats`) played by its policy (``learned.DistilledTable``)."""
    if learned and (learned[0] or learned[1]):
        policy = learned_policy(params, styles.shape[1])
        return policy.table(params, styles, agents, custom, seats=learned[0], ropes=learned[1])
    return Table(params, styles, agents, custom)


def play_games(params, styles, chance, agents, *, custom=None, searchers=None, record=None, learned=None) -> dict:
    """Play a batch: ``styles`` (G,P) codes, ``chance`` the engine's Chance
    (drawn before any decision), ``agents`` the agents' generator;
    ``searchers`` {name: seats} of the search agents (their generators:
    children of ``agents``'s); ``record`` a ``learned.Recorder`` shown every
    cargo and rope decision and every settlement; ``learned`` (card seats,
    rope seats) the learned policy plays (:func:`learned_seats`)."""
    params = knobs(params)
    G, P = styles.shape
    st = engine.init(params, G, P, chance)
    table = make_table(params, styles, agents, custom, learned)
    reacts = bool((chance.roles > 0).any()) or table.any_random or bool(custom)
    d = Diagnostics(G, P, params.rounds)
    seats = searchers or {}
    over = search_agents(params, table, seats, agents, distilled_models(params, seats, P))
    seen = record or (lambda st, acts, proposed: None)
    for r in range(params.rounds):
        proposed = table.cargo(st)
        acts = with_searchers(over, st, proposed)
        seen(st, acts, proposed)
        st, _ = engine.step(params, st, acts, chance, inplace=True)
        proposed = table.ropes(st)
        acts = with_searchers(over, st, proposed)
        seen(st, acts, proposed)
        st, _ = engine.step(params, st, acts, chance, inplace=True)
        d.ropes(st)
        acts = table.react(st) if reacts else np.full((G, P), REACT_PASS, np.int64)
        st, ev = engine.step(params, st, with_searchers(over, st, acts), chance, inplace=True)
        table.observe(ev)
        d.settled(params, ev, r)
        d.net(r, st.score - params.lone_penalty * st.lone)
    out = engine.result(params, st)
    names = STYLE_NAMES[styles]
    if params.best_proxy != MIX_PROXY:  # else a search seat keeps its style of the mix
        for name, where in seats.items():
            if name not in RESTRICTED:  # a restricted seat is shown as its style
                names[:, list(where)] = name  # a search agent's code is its proxy's
    out.update(
        d.columns(),
        style=names,
        role=ROLE_NAMES[st.role],
        lone_total=st.lone.sum(1, dtype=np.int16),
        rounds=st.rnd.copy(),
    )
    return out


DISTILL_GAMES = 1024  # games of the rung below a level-k search's model of it is distilled from
DISTILL_BATCH = 256  # of them played at once (a search's play-outs hold every option's copies)
DISTILL_SEED = 0x1E7E1  # their deals: the same for every run, so the model is a function of code and rules


def prepare(params, lineup, n_players: int) -> None:
    """``GAME.skill.prepare``: the distilled policies ``lineup``'s level-k seats play out with,
    and the learned rung's if it sits."""
    distilled_models(knobs(params), searcher_seats(lineup), n_players)
    cards, ropes = learned_seats(lineup)
    if cards or ropes:
        learned_policy(knobs(params), n_players)


def distilled_models(params, seats: dict, n_players: int) -> dict:
    """{level-k agent name: the policy its play-outs play} for the search seats ``seats``."""
    levels = {name: lv for name in seats if (lv := level_of(name))}
    if not levels:  # no level-k seat (the styles, the plain search): nothing to learn or look up
        return {}
    # a named search agent carries its budget: the budget knob does not change the model (one model per rung)
    params = knobs(params).replace(best_rollouts=AgentParams().best_rollouts)
    return {name: distilled(params, *lv, n_players) for name, lv in levels.items()}


@functools.lru_cache(maxsize=16)
def distilled(params, k: int, budget: int, n_players: int) -> Policy:
    """The policy ``level{k}@budget`` models every seat by: distilled from ``DISTILL_GAMES``
    games of the rung below on every seat (:func:`distilled_rung`)."""
    return distilled_rung(params, below(k, budget), n_players, DISTILL_GAMES, budgets.at_level(k, budget))


def distilled_rung(params, rung: str, n_players: int, n_games: int, purpose: str) -> Policy:
    """The policy distilled from ``n_games`` games of ``rung`` on every seat
    (``learned.Recorder``), cached on disk by the code and the rules (``core.learned``),
    learned again when either changes; ``purpose`` names it in the progress line."""
    from gamelab.core import learned

    identity = {"params": params.as_dict(), "rung": rung, "players": n_players, "games": n_games}
    arrays = learned.cached(
        "strand-distilled",
        {**identity, "seed": DISTILL_SEED},
        [Path(__file__).parent],
        lambda: self_play(params, rung, n_players, n_games).policy().arrays(),
        say=f"learning how {rung} players play, for {purpose}: {n_games:,} games of {rung} "
        f"on every seat at {n_players} players (once for these rules and this code)",
    )
    return Policy.from_arrays(arrays)


#: the rung the learned rung is distilled from: the top decided search rung (docs/agents.md)
LEARNED_FROM = budgets.at_budget(BEST, BUDGETS[-1])
LEARN_GAMES = DISTILL_GAMES  # its games (the same model as level2@16's: one file serves both)


@functools.lru_cache(maxsize=16)
def learned_policy(params, n_players: int) -> Policy:
    """The learned rung's policy at ``n_players`` under ``params``' rules and style knobs:
    distilled from ``LEARNED_FROM`` on every seat, each seat searching as its style of the mix
    (the search knobs of the skill trace; the budget is the rung's own), its ropes sharpened
    to each cell's most frequent outcome (``Policy.sharpened``)."""
    params = knobs(params).replace(best_rollouts=AgentParams().best_rollouts, best_proxy=MIX_PROXY)
    return distilled_rung(params, LEARNED_FROM, n_players, LEARN_GAMES, "the learned rung").sharpened()


def self_play(params, rung: str, n_players: int, n_games: int = DISTILL_GAMES) -> Recorder:
    """The decisions of ``n_games`` games of ``rung`` on every seat, counted (``learned.Recorder``)."""
    seating = (rung,) * n_players
    rec = None
    for i, seed in enumerate(np.random.SeedSequence(DISTILL_SEED).spawn(-(-n_games // DISTILL_BATCH))):
        n = min(DISTILL_BATCH, n_games - i * DISTILL_BATCH)
        streams = split_streams(seed, STREAMS)
        styles, roles = deal_setup(params, seating, n, n_players, streams["setup"])
        chance = deal_chance(params, n, n_players, roles, streams["cards"], streams["rain"])
        part = Recorder(params, styles)
        play_games(params, styles, chance, streams["agents"], searchers=searcher_seats(seating), record=part)
        rec = part if rec is None else rec.merge(part)
    assert rec is not None
    return rec


class Diagnostics:
    """Per-seat and per-game counters of appendix B and identity ②."""

    def __init__(self, G, P, rounds: int):
        self.pointed = np.zeros((G, P, N_VALUES), np.int16)  # by cargo value 1..5
        self.mutual = np.zeros((G, P, N_VALUES), np.int16)
        self.node_points, self.stay_then, self.stay_pts, self.other_then, self.other_pts = (
            np.zeros((G, P), np.int16) for _ in range(5)
        )
        self.team_rounds = np.zeros(G, np.int8)
        self.void = np.zeros(G, np.int8)
        self.prev_stay = None
        self.leads = LeadCounter(G, np.int8)  # by net score so far, round by round
        self.by_round = np.zeros((rounds, G, P), np.int16)  # each round's net points (the report's edge by phase)
        self.before = np.zeros((G, P), np.int32)  # the net score so far

    def ropes(self, st):
        pointed = st.rope >= 0  # one-hot rows of the cargo (value 0: a zero row) beat a broadcast
        self.pointed += onehot(st.cargo * pointed)
        self.mutual += onehot(st.cargo * (pointed & (st.partner >= 0)))
        # fragile switches come later: only teams formed by the ropes count as trust

    def settled(self, params, ev, r):
        net = ev["gained"] - params.lone_penalty * ev["lone"]
        if self.prev_stay is not None:
            s = self.prev_stay
            self.stay_then += s
            self.stay_pts += (s * net).astype(np.int16)
            self.other_then += ~s
            self.other_pts += (~s * net).astype(np.int16)
        self.prev_stay = ev["stay"]
        self.team_rounds += ev["formed"]
        self.void += ev["node_result"] == engine.NODE_VOID
        self.node_points += ev["node_points"]

    def net(self, r: int, now) -> None:
        """After round ``r`` (0-based): ``now`` the net score so far (6.4's final if the game ended);
        its change is the round's net points (a game already over gains none)."""
        self.leads.count(now)
        now = np.asarray(now, np.int32)
        self.by_round[r] = now - self.before
        self.before = now

    def columns(self) -> dict:
        out = {
            "node_points": self.node_points,
            "team_rounds": self.team_rounds,
            "void_nodes": self.void,
            "lead_changes": self.leads.changes,
            "stay_then": self.stay_then,
            "stay_then_pts": self.stay_pts,
            "other_then": self.other_then,
            "other_then_pts": self.other_pts,
        }
        for r, points in enumerate(self.by_round):
            out[f"round_{r + 1}_points"] = points
        for v in range(N_VALUES):
            out[f"ropes_{v + 1}"] = self.pointed[..., v]
            out[f"mutual_{v + 1}"] = self.mutual[..., v]
        return out


# --- measures over a simulated frame ----------------------------------------------
def per_deal(frame: pd.DataFrame, values: pd.Series) -> np.ndarray:
    """Average a per-game quantity over the rotations of each deal: deals are
    independent, the rotations of one deal are not."""
    return values.groupby(frame.loc[values.index, "deal"]).mean().to_numpy()


def _ratio(num: pd.Series, den: pd.Series, deal: pd.Series) -> Estimate:
    """Ratio of sums with a delta-method interval over deals (clusters)."""
    return ratio_of_sums(num.groupby(deal).sum(), den.groupby(deal).sum())


def measures(frame: pd.DataFrame) -> dict:
    """Estimates (value, 95 % interval, n) of the appendix's diagnostics and
    identity ②/④/⑤'s simulated quantities, keyed as ``identities.rows``
    names them: ``mutual_rate_v``, ``node_share``, ``total_points``,
    ``team_round_rate``, ``node_void_rate``, ``node_share_N``,
    ``stay_value_S``, ``lone_per_game``, ``mean_score``."""
    games = frame.groupby("game", sort=False).first()
    deal = frame["deal"]
    g_deal = games["deal"]
    out = {}
    for v in range(1, N_VALUES + 1):
        out[f"mutual_rate_{v}"] = _ratio(frame[f"mutual_{v}"], frame[f"ropes_{v}"], deal)
    out["node_share"] = _ratio(frame["node_points"], frame["gross"], deal)
    in_team = sum(frame[f"mutual_{v}"] for v in range(1, N_VALUES + 1))
    out["node_share_N"] = _ratio(frame["node_points"], in_team, deal)
    total = frame.groupby("game", sort=False)["gross"].sum()
    out["total_points"] = mean_interval(total.groupby(g_deal).mean())
    out["team_round_rate"] = _ratio(games["team_rounds"], games["rounds"], g_deal)
    out["node_void_rate"] = _ratio(games["void_nodes"], games["rounds"], g_deal)
    out["lone_per_game"] = mean_interval(games["lone_total"].groupby(g_deal).mean())
    out["mean_score"] = mean_interval(frame["score"].groupby(deal).mean())
    after = _ratio(frame["stay_then_pts"], frame["stay_then"], deal)
    other = _ratio(frame["other_then_pts"], frame["other_then"], deal)
    s = after.value - other.value
    half = np.hypot(after.half_width, other.half_width)
    out["stay_value_S"] = Estimate(s, s - half, s + half, after.n)
    return out


def node_scale(base, value):
    """Sweep knob: every node value times this factor, rounded half up (section 5.4).

    ``value`` from 0 to NODE_MAX / the largest node, so no node is
    negative or clipped (a negative factor would zero every node)."""
    top = max(base.node_values)
    high = NODE_MAX / top if top > 0 else NODE_MAX
    value = knob_value("node_scale", value, 0, high, meaning="every node value times it, each within 0..30")
    return {"node_values": tuple(min(NODE_MAX, max(0, int(np.floor(v * value + 0.5)))) for v in base.node_values)}


def node_shift(base, value):
    """Sweep knob: every node value plus this whole number (section 5.4).

    ``value`` from minus the smallest node to NODE_MAX minus the largest (none clipped)."""
    low, high = -min(base.node_values), NODE_MAX - max(base.node_values)
    value = knob_value("node_shift", value, low, high, integer=True, meaning="added to every node value")
    return {"node_values": tuple(min(NODE_MAX, max(0, int(v + value))) for v in base.node_values)}


def random_batch(params, n_games, n_players, rng):
    """Random legal play straight through the engine, no roles: what
    ``reference.play_random`` does one game at a time."""
    from .legal import random_policy

    return engine.play_batch(params, [random_policy] * n_players, n_games, rng, n_players)


ASSUMPTIONS = (
    "Each seat plays one of appendix B's six styles (mixed: P distinct styles per game, every style in every "
    "seat on the same deals). Cargo is chosen by the style's rule; after the reveal the table negotiates pairs "
    "greedily by mutual preference (our reading of 'negotiation pairing'), players left unpaired stay, and each "
    "paired player reneges with probability 'reneging' (0.22), pointing at a better alternative or staying. "
    "Roles: the first P of veteran, bb, fragile, porter, musician, engineer, dealt at random, used by fixed "
    "rules. The rulebook does not define its model, so every simulated figure rests on these choices "
    "(docs/agents.md)."
)

TITLE = "STRAND: The Last Run"
REPORT_PLAYERS = (3, 4, 5, 6)
#: weakest to strongest; at 4 players one seat of each level beats three of the one below
#: (docs/agents.md); a style is not on it: alone among seats that do not negotiate it never
#: finds a partner and stays every round
SKILL_LADDER = ("random", GREEDY, BEST)
#: the skill trace: ``best`` at doubling play-outs per option, each seat searching as its style of the mix
TRACE_BUDGETS = BUDGETS
#: after the top budget: level-k search at it, each modelling every seat as the rung before
TRACE_BEYOND = tuple(budgets.at_level(k, BUDGETS[-1]) for k in (2, 3))
REPORT_GROUPS = ("style", "role", "seat")


def edge_sources(params, n_players: int) -> tuple[PointPart, ...]:
    """Section 6's sources of a seat's final score: cargo delivered, node points, lone markers' penalty (6.4)."""
    return (
        PointPart("cargo", {"gross": 1, "node_points": -1}),
        PointPart("node points", {"node_points": 1}),
        PointPart("lone penalties", {"lone": -params.lone_penalty}),
    )


def edge_phases(params, n_players: int) -> tuple[PointPart, ...]:
    """Each round's net points."""
    return tuple(PointPart(f"round {r + 1}", {f"round_{r + 1}_points": 1}) for r in range(params.rounds))


EDGE = EdgeSources(sources=edge_sources, phases=edge_phases)


def restricted_agents(rung: str) -> dict:
    """{style: agent} of a rung restricted to each style (``GAME.skill.restricted``):
    at a search rung ``best@b`` the search restricted to the style's defining
    choice (``restricted.py``); at the learned rung, its policy held to the style's card (a
    cargo style) or rope (mirror, stay); at the default model, the style itself."""
    if rung == "default":
        return {s: s for s in STYLES}
    if rung == LEARNED:  # the learned rung held to the style's card or rope (``learned_seats``)
        return dict(zip(STYLES, LEARNED_RESTRICTED, strict=True))
    if budgets.agent_of(rung) == BEST and (b := budgets.budget_of(rung)):
        return {s: restricted_name(s, b) for s in STYLES}
    return {}


def rung_words(name: str) -> str:
    """A rung of the skill ladder in words (``GAME.skill.rung_words``):
    ``search, 8 play-outs per option``."""
    if name == "random":
        return "random play"
    if name == "default":
        return "the default model (the style mix)"
    if name == LEARNED:
        return f"the learned rung ({rung_words(LEARNED_FROM)}, distilled into look-up tables)"
    if budgets.agent_of(name) == BEST and (b := budgets.budget_of(name)):
        return f"search, {b} play-out{'s' if b > 1 else ''} per option"
    if level_of(name):
        k, b = level_of(name)
        return f"level-{k} search, {b} play-outs per option, modelling every seat as {rung_words(below(k, b))}"
    return name


CHUNK_DEALS = 4096
DERIVED = {"node_scale": node_scale, "node_shift": node_shift}
