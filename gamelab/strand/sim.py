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

A batch is dealt from the four streams the game declares (``agents.STREAMS``:
chance first and apart from the agents, ``agents.seated``) and played by the
seating's controller (``agents.Controller``) through the shared whole-game
driver (``core.driver.play_out``), :class:`Diagnostics` watching every step.

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

import numpy as np
import pandas as pd

from gamelab.core import budgets
from gamelab.core.budgets import level_of
from gamelab.core.contract import EdgeSources, PointPart
from gamelab.core.driver import play_out
from gamelab.core.params import knob_value
from gamelab.stats.intervals import Estimate, mean_interval, ratio_of_sums
from gamelab.stats.leads import LeadCounter

from . import engine
from .agent_params import knobs
from .agents import (
    ANY_STYLE,
    LEARNED,
    LEARNED_FROM,
    LEARNED_RESTRICTED,
    MIX,
    PROFILE,
    Controller,
    PolicyController,
    distilled_models,
    learned_policy,
    learned_seats,
    seated,
)
from .cards import onehot
from .heuristic import STYLES
from .restricted import restricted_name
from .rules import ROLES
from .search import BEST, BUDGETED, BUDGETS, GREEDY, MIX_PROXY, RESTRICTED, below, searcher_seats
from .state import N_VALUES

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


def play(params, seating, n_deals, n_players, streams, custom=None) -> dict:
    """The game's ``play`` (the runner's entry point): one batch of ``n_deals`` games."""
    state, chance, agents = seated(params, seating, n_deals, n_players, streams, custom)
    return played(agents.params, state, chance, agents)


def play_games(params, styles, chance, agents, *, custom=None, searchers=None, learned=None) -> dict:
    """Play a batch: ``styles`` (G,P) codes, ``chance`` the engine's Chance
    (drawn before any decision), ``agents`` the agents' generator;
    ``searchers`` {name: seats} of the search agents (their generators:
    children of ``agents``'s); ``learned`` (card seats, rope seats) the learned
    policy plays (``agents.learned_seats``)."""
    params = knobs(params)
    state = engine.init(params, *styles.shape, chance)
    ctl = Controller(params, styles, agents, custom=custom, searchers=searchers, learned=learned)
    return played(params, state, chance, ctl)


def played(params, state, chance, agents: Controller) -> dict:
    """The columns of the batch ``state`` played to the end by ``agents`` through the shared
    driver, :class:`Diagnostics` watching every step."""
    G, P = agents.styles.shape
    d = Diagnostics(params, G, P)
    state, _ = play_out(engine, params, state, chance, agents, watch=[d.watch], ask_legal=False)
    out = engine.result(params, state)
    names = STYLE_NAMES[agents.styles]
    if params.best_proxy != MIX_PROXY:  # else a search seat keeps its style of the mix
        for name, where in agents.searchers.items():
            if name not in RESTRICTED:  # a restricted seat is shown as its style
                names[:, list(where)] = name  # a search agent's code is its proxy's
    out.update(
        d.columns(),
        style=names,
        role=ROLE_NAMES[state.role],
        lone_total=state.lone.sum(1, dtype=np.int16),
        rounds=state.rnd.copy(),
    )
    return out


def prepare(params, lineup, n_players: int) -> None:
    """``GAME.skill.prepare``: the distilled policies ``lineup``'s level-k seats play out with,
    and the learned rung's if it sits."""
    distilled_models(knobs(params), searcher_seats(lineup), n_players)
    cards, ropes = learned_seats(lineup)
    if cards or ropes:
        learned_policy(knobs(params), n_players)


class Diagnostics:
    """Per-seat and per-game counters of appendix B and identity ②, shown every step
    (:meth:`watch`, a watcher of ``core.driver.play_out``)."""

    def __init__(self, params, G, P):
        self.p, rounds, self.r = params, params.rounds, 0  # self.r: rounds settled so far
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

    def watch(self, st, ev) -> None:
        """After a step: the ropes once shown (6.2 step 4), the round once settled."""
        if "rope" in ev:
            self.ropes(st)
        elif "partner" in ev:
            self.settled(self.p, ev, self.r)
            self.net(self.r, st.score - self.p.lone_penalty * st.lone)
            self.r += 1

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


def play_policies(params, policies, n_games, rng, n_players=4, *, roles=None) -> dict:
    """Play ``n_games`` to the end through the shared driver, ``policies[seat](params, state,
    seat, legal_mask, rng) -> (G,) actions`` (``agents.PolicyController``); ``rng`` is the only
    source of chance (drawn up front by ``engine.draw_chance``, then the policies').  The
    engine's result, with ``lone_total`` (G,), ``formed_rounds`` (G,) rounds with a team,
    ``void_nodes`` (G,), ``node_points`` (G,P) and ``final_seg`` (G,)."""
    chance = engine.draw_chance(params, n_games, n_players, rng, roles=roles)
    st = engine.init(params, n_games, n_players, chance)
    G, P = n_games, n_players
    diag = {
        "lone_total": np.zeros(G, np.int16),
        "formed_rounds": np.zeros(G, np.int8),
        "void_nodes": np.zeros(G, np.int8),
        "node_points": np.zeros((G, P), np.int16),
    }

    def settled(state, ev):
        if "partner" in ev:
            diag["formed_rounds"] += ev["formed"]
            diag["void_nodes"] += ev["node_result"] == engine.NODE_VOID
            diag["node_points"] += ev["node_points"]

    ctl = PolicyController(params, policies, rng)
    st, _ = play_out(engine, params, st, chance, ctl, watch=[settled], ask_legal=False)
    out = engine.result(params, st)
    out.update(diag, lone_total=st.lone.sum(1), final_seg=st.seg.copy())
    return out


def random_batch(params, n_games, n_players, rng):
    """Random legal play through the shared driver, no roles: what
    ``reference.play_random`` does one game at a time."""
    from .legal import random_policy

    return play_policies(params, [random_policy] * n_players, n_games, rng, n_players)


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
