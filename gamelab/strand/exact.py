"""The STRAND rulebook's sentences about what the rules *do*, asked of the
engine: scripted rounds (:func:`play_round`) run through
:mod:`gamelab.strand.engine` (``init``, ``step``, ``legal``, ``result``) and
the worked example through :func:`gamelab.strand.record.replay`.  Every call
goes through the module attributes ``engine`` and ``record`` so that
``tests/test_exact_claims.py`` can make the engine play by other rules and
require every value here to move.  :mod:`gamelab.strand.exact_claims` gathers the
parts.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

import numpy as np

from . import engine
from .rules import RAIN_CARDS, StrandParams

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "playtests" / "strand_example.json"
VALUES = (1, 2, 3, 4, 5)
STAY = -1
#: the rulebook's model inputs for identity ② (appendix A): node share N and stay value S
NODE_SHARE, STAY_VALUE = 6.0, 1.2


def play_round(
    params, cargo, ropes, *, roles=None, porter=None, power=None, lock=None, switch=None, state=None, rain=None
):
    """One round in G games: ``cargo`` (G,P) values shown, ``ropes`` (G,P)
    the seat pointed at or STAY; optional (G,P) bool ``porter``, ``power``
    (veteran / engineer / musician), ``lock`` (bb: the seat in ``ropes`` is
    locked), ``switch`` (fragile: seat or -1), ``rain`` (variant F: the
    time-rain card of the round, a name of ``RAIN_CARDS``).  Returns (state, events)."""
    cargo, ropes = np.atleast_2d(cargo), np.atleast_2d(ropes)
    G, P = cargo.shape
    order = None
    if rain is not None:
        order = np.full((G, params.rounds), -1, np.int8)
        order[:, 0] = RAIN_CARDS.index(rain)
    ch = engine.replay_chance(params, G, P, roles=roles, rain_order=order)
    st = engine.init(params, G, P, ch) if state is None else state
    no = np.zeros((G, P), bool)
    target = np.where(ropes < 0, engine.stay_action(P), ropes)
    st, _ = engine.step(params, st, engine.cargo_action(cargo, no if porter is None else porter), ch)
    st, _ = engine.step(params, st, engine.rope_action(target, no if lock is None else lock, P), ch)
    react = np.full((G, P), engine.REACT_PASS, np.int64) + (0 if power is None else power * engine.REACT_POWER)
    if switch is not None:
        react = np.where(switch >= 0, engine.switch_action(switch), react)
    return engine.step(params, st, react, ch)


def _pairs(params):
    """Every cargo pair (a, b) as a mutual team of seats 0 and 1, seat 2 staying."""
    pairs = list(itertools.product(VALUES, VALUES))
    cargo = np.array([(a, b, 1) for a, b in pairs])
    ropes = np.tile([1, 0, STAY], (len(pairs), 1))
    st, ev = play_round(params, cargo, ropes)
    return pairs, st, ev


def pairing_figures(params: StrandParams) -> dict:
    """5.1's pairing table, appendix A ①, 5.3, FAQ Q3-Q4 from the settlement."""
    pairs, st, ev = _pairs(params)
    full = {p: bool(ev["full"][i, 0]) for i, p in enumerate(pairs)}
    points = {p: int(ev["gained"][i, 0] - ev["node_points"][i, 0]) for i, p in enumerate(pairs)}
    counts = dict(zip(VALUES, params.cargo_counts))
    total = sum(counts.values())
    out = {f"pair_full_{a}_{b}": int(f) for (a, b), f in full.items()}
    for v in VALUES:
        fits = [w for w in VALUES if full[(v, w)]]
        out[f"partners_{v}"] = len(fits)
        out[f"fit_{v}_pct"] = 100 * sum(counts[w] for w in fits) / total
        if not full[(v, max(VALUES))]:
            out[f"overweight_score_{v}"] = points[(v, max(VALUES))]
    out["full_team_scores_cargo"] = int(all(points[(a, b)] == a for (a, b), f in full.items() if f))
    rate = sum(counts[a] * counts[b] for (a, b), f in full.items() if f) / total**2
    out |= {"pairable_rate": rate, "pairable_rate_pct": 100 * rate, "overweight_rate": 1 - rate}
    out["sum_cap"] = max(a + b for (a, b), f in full.items() if f)
    out["overweight_from"] = min((a + b for (a, b), f in full.items() if not f), default=0)
    node_to_overweight = (ev["node_points"][:, :2].sum(1) > 0) & ~ev["full"][:, 0]
    out["overweight_never_takes_node"] = int(not node_to_overweight.any())
    return out


def solo_figures(params: StrandParams) -> dict:
    """6.3: a lone rope, a stay, the markers; 5.2: the hand limit; 6.4."""
    G = len(VALUES)
    cargo = np.array([(v, 1, 1) for v in VALUES])
    st, ev = play_round(params, cargo, np.tile([1, 2, 0], (G, 1)))  # a cycle: everyone lone
    out = {f"lone_score_{v}": int(ev["gained"][i, 0]) for i, v in enumerate(VALUES)}
    out["markers_per_lone"] = int(st.lone[0, 0])
    res = engine.result(params, st)
    out["lone_penalty"] = int(st.score[0, 0] - res["score"][0, 0]) // max(1, int(st.lone[0, 0]))
    st, ev = play_round(params, [[5, 1, 1]], [[STAY, 2, 1]])
    out["stay_scores"], out["stay_markers"] = int(ev["gained"][0, 0]), int(st.lone[0, 0])
    out["hand_size"] = int(engine.init(params, 1, 3, engine.replay_chance(params, 1, 3)).limit[0, 0])
    limits = []
    for _ in range(4):  # four stays in a row
        st, _ = play_round(params, [[1, 1, 1]], [[STAY, 2, 1]], state=st)
        limits.append(int(st.limit[0, 0]))
    out["hand_after_stay"], out["max_hand"] = int(_one_stay_limit(params)), max(limits)
    out["lone_score_5_net"] = out["lone_score_5"] - out["lone_penalty"]
    return out


def _one_stay_limit(params):
    st, _ = play_round(params, [[1, 1, 1]], [[STAY, 2, 1]])
    return st.limit[0, 0]


def _final(params, gross, lone):
    """``engine.result`` of a finished game with these gross scores and markers."""
    st = engine.init(params, 1, len(gross), engine.replay_chance(params, 1, len(gross)))
    st.score[0], st.lone[0] = gross, lone
    return {k: v[0] for k, v in engine.result(params, st).items()}


def tie_figures(params: StrandParams) -> dict:
    """6.4: fewer markers breaks a tie, then a shared win."""
    pen = solo_figures(params)["lone_penalty"]
    fewer = _final(params, [10 + pen, 10 + 2 * pen, 0], [1, 2, 0])["win"]  # both 10 after the markers
    shared = _final(params, [10, 10, 0], [0, 0, 0])["win"]
    return {
        "tie_fewer_markers_wins": int(fewer[0] == 1),
        "tie_shared": int(shared[0] == shared[1] == 0.5),
        "fair_share_3p_pct": 100 * float(_final(params, [5, 5, 5], [0, 0, 0])["win"][0]),
    }


def node_figures(params: StrandParams) -> dict:
    """5.4 / identity ③ with two teams (seats 0+1 against 2+3)."""
    duels = {"five_one_beats_four_two": (5, 1, 4, 2), "five_one_beats_three_three": (5, 1, 3, 3)}
    cargo = np.array(list(duels.values()) + [(3, 3, 3, 3)])
    st, ev = play_round(params, cargo, np.tile([1, 0, 3, 2], (len(cargo), 1)))
    out = {k: int(ev["node_winner"][i, 0] and not ev["node_winner"][i, 2]) for i, k in enumerate(duels)}
    out["three_three_voids_three_three"] = int(ev["node_result"][-1] == engine.NODE_VOID)
    for P in (4, 6):
        combos = np.array(list(itertools.product(VALUES, repeat=P)))
        ropes = np.tile(np.arange(P) ^ 1, (len(combos), 1))  # 0+1, 2+3, 4+5
        st, ev = play_round(params, combos, ropes)
        winners = ev["node_winner"].sum(1)
        out[f"one_team_per_node_{P}p"] = int((winners <= 2).all())
        out[f"max_teams_{P}p"] = int(ev["team"].sum(1).max()) // 2
        out[f"node_chance_{P}p_pct"] = 100 / out[f"max_teams_{P}p"] if out[f"max_teams_{P}p"] else 0.0
    return out


def _game(params, stall_rounds=()):
    """A 3-player game: seats 0 and 1 team up with 1s every round (seat 2
    stays), all three stay in ``stall_rounds``.  The node values taken, the
    rounds played and the segment reached."""
    ch = engine.replay_chance(params, 1, 3)
    st = engine.init(params, 1, 3, ch)
    taken, rounds = [], 0
    while not engine.done(params, st)[0] and rounds < 4 * params.rounds:
        ropes = [[STAY, STAY, STAY]] if rounds in stall_rounds else [[1, 0, STAY]]
        st, ev = play_round(params, [[1, 1, 1]], ropes, state=st)
        if ev["node_result"][0] == engine.NODE_TAKEN:
            taken.append(int(ev["node_value"][0]))
        rounds += 1
    return taken, rounds, int(st.seg[0])


def track_figures(params: StrandParams) -> dict:
    """Map statistics, 6.4, identity ④ ⑤, FAQ Q6: the track and the nodes."""
    taken, rounds, seg = _game(params)
    one, _, _ = _game(params, stall_rounds=(0,))
    two, _, _ = _game(params, stall_rounds=(0, 1))
    out = {f"node_value_{k}": v for k, v in enumerate(taken, 1)}
    out |= {"rounds": rounds, "segments": seg, "rounds_match_segments": int(rounds == seg)}
    out |= {"node_total": sum(taken), "node_max": max(taken), "node_last": taken[-1]}
    out["node_last_in_full_cargo"] = taken[-1] / max(VALUES)
    out |= {"stall_cost_1": sum(taken) - sum(one), "stall_cost_2": sum(taken) - sum(two)}
    out |= {"highest_node_after_1_stall": max(one, default=0), "highest_node_after_2_stalls": max(two, default=0)}
    st, _ = play_round(params, [[5, 5, 1, 1]], [[1, 0, STAY, STAY]])  # an overweight team only
    out["overweight_moves_track"] = int(st.seg[0] == 1)
    st, _ = play_round(params, [[1, 1, 1]], [[STAY, STAY, STAY]])
    out["no_team_track_stays"] = int(st.seg[0] == 0)
    return out


def rope_figures(params: StrandParams) -> dict:
    """5.2, 5.3's crowding and FAQ Q2 (A, B, C point at D)."""
    st, ev = play_round(params, [[1, 1, 1, 1]], [[3, 3, 3, 0]])
    lone = ev["lone"][0]
    out = {"crowd_teams": int(ev["team"][0].sum()) // 2, "crowd_lone": int(lone.sum())}
    out["crowd_fail_share_3"] = float(lone[:3].mean())
    st, ev = play_round(params, [[1, 1, 1, 1]], [[3, 3, 3, STAY]])
    out["crowd_target_stays_lone"] = int(ev["lone"][0].sum())
    st = engine.init(params, 1, 4, engine.replay_chance(params, 1, 4))
    st, _ = engine.step(params, st, engine.cargo_action(np.ones((1, 4), int)), None)
    mask = engine.legal_mask(params, st, 0)  # the rope phase: seat 0's choices
    out["rope_to_self_refused"] = int(not mask[0, 0])
    return out


def role_figures(params: StrandParams) -> dict:
    """5.5 and 6.3's veteran row: each power played once by the engine."""
    roles = ["veteran", "bb", "fragile", "porter"]
    st = engine.init(params, 1, 4, engine.replay_chance(params, 1, 4, roles=roles))
    out = {f"uses_{r}": int(u) for r, u in zip(roles, st.uses[0])}
    roles2 = ["musician", "engineer", None, None]
    st = engine.init(params, 1, 4, engine.replay_chance(params, 1, 4, roles=roles2))
    out |= {f"uses_{r}": int(u) for r, u in zip(roles2[:2], st.uses[0])}
    power = np.array([[True, False, False, False]])
    st, ev = play_round(params, [[5, 1, 1, 1]], [[1, 2, 3, 0]], roles=roles, power=power)  # the veteran lone
    out |= {"veteran_lone_scores": int(ev["gained"][0, 0]), "veteran_lone_markers": int(st.lone[0, 0])}
    st, ev = play_round(params, [[1, 1, 1, 3]], [[1, 0, 3, 2]], roles=roles, porter=np.array([[0, 0, 0, 1]], bool))
    out["porter_shows"] = int(st.cargo[0, 3])
    st, ev = play_round(params, [[1, 1, 1, 5]], [[1, 0, 3, 2]], roles=roles, porter=np.array([[0, 0, 0, 1]], bool))
    out["porter_capped_at"] = int(st.cargo[0, 3])
    pairs = list(itertools.product(VALUES, VALUES))
    eng = np.tile([True, False, False], (len(pairs), 1))
    _, ev = play_round(
        params,
        [(a, b, 1) for a, b in pairs],
        np.tile([1, 0, STAY], (len(pairs), 1)),
        roles=["engineer", None, None],
        power=eng,
    )
    out["engineer_cap"] = max(a + b for i, (a, b) in enumerate(pairs) if ev["full"][i, 0])
    st, ev = play_round(params, [[2, 2, 1, 1]], [[1, 0, 3, 2]], roles=roles2, power=np.array([[1, 0, 0, 0]], bool))
    out["musician_bonus"] = int(ev["gained"][0, 0] - ev["node_points"][0, 0] - 2)
    lock = np.array([[0, 1, 0, 0]], bool)  # the bb locks seat 2, who points at seat 3
    st, ev = play_round(params, [[1, 1, 1, 1]], [[3, 2, 3, 2]], roles=roles, lock=lock)
    out["bb_lock_holds"] = int(ev["partner"][0, 1] == 2)
    switch = np.array([[-1, -1, 0, -1]])  # 芙拉吉尔 (seat 2) lone, seat 0 pointed at her
    st, ev = play_round(params, [[1, 1, 5, 1]], [[2, 3, 1, 0]], roles=roles, switch=switch)
    out["fragile_switch_scores"] = int(ev["gained"][0, 2] - ev["node_points"][0, 2])
    return out


def trust_figures(params: StrandParams) -> dict:
    """Identities ② and ⑥ and the strategy numbers, from the engine's payoffs
    (full cargo, a lone half, the marker price) and the rulebook's model
    inputs N (node share) and S (stay value)."""
    pairs, _, ev = _pairs(params)
    solo = solo_figures(params)
    full_score = {a: int(ev["gained"][i, 0] - ev["node_points"][i, 0]) for i, (a, b) in enumerate(pairs) if b == 1}
    node_max = track_figures(params)["node_max"]
    out = {}
    for v in VALUES:
        mutual, lone = full_score[v] + NODE_SHARE, solo[f"lone_score_{v}"] - solo["lone_penalty"]
        p = 0.0 if lone >= STAY_VALUE else (STAY_VALUE - lone) / (mutual - lone)
        out |= {f"mutual_gain_{v}": mutual, f"lone_gain_{v}": lone, f"p_star_{v}_pct": 100 * p}
    gap = full_score[5] - solo["lone_score_5_net"]
    out |= {"lone_net_5": solo["lone_score_5_net"], "lone_loss_5": gap, "trust_gap_5": gap}
    out |= {"trust_gap_5_largest_node": gap + node_max, "best_without_light_partner_5": solo["lone_score_5"]}
    return out


def variant_figures(params: StrandParams) -> dict:
    """Variants A, C, E through the engine."""
    from .rules import params_for_variant

    short = params.replace(rounds=5, node_values=params.node_values[:5])  # variant A: the first five segments
    taken, rounds, _ = _game(short)
    out = {"short_rounds": rounds, "short_node_total": sum(taken)}
    three, _, _ = _game(params_for_variant("three_player"))
    out |= {"three_player_node_4": three[3], "three_player_node_5": three[4]}
    teams = params.replace(teams=True)
    for a in (0, 1, 2):
        win = _final(teams, [9 if s == a else 0 for s in range(6)], [0] * 6)["win"]
        out[f"team_seats_{a + 1}_{a + 4}"] = int(win[a + 3] > 0)
    # "（4 人或 6 人）… 座位 1&4、2&5、3&6": the seat that wins with seat 1 at 4 players
    win = _final(teams, [9, 0, 0, 0], [0] * 4)["win"]
    out["team_mate_of_seat_1_4p"] = 1 + max((s for s in range(1, 4) if win[s] > 0), default=-1)
    return out


def rain_figures(params: StrandParams) -> dict:
    """Variant F's time-rain cards through the engine: the round's card
    changes the cargo (acid), the cap (static, tools), the markers (BT
    tide), a team's points (crate) and the node (tower)."""
    p = params.replace(time_rain=True)
    out: dict[str, float] = {}
    # seats 0+1 a team, seat 2 stays; acid: a 3 and a 1 shown
    _, ev = play_round(p, [3, 1, 1], [1, 0, STAY], rain="acid")
    own = ev["gained"][0] - ev["node_points"][0]
    out["rain_acid_minus"], out["rain_acid_floor"] = int(3 - own[0]), int(own[1])
    for card in ("static", "tools"):
        pairs = list(itertools.product(VALUES, VALUES))
        cargo = np.array([(a, b, 1) for a, b in pairs])
        _, ev = play_round(p, cargo, np.tile([1, 0, STAY], (len(pairs), 1)), rain=card)
        out[f"rain_{card}_cap"] = max(a + b for i, (a, b) in enumerate(pairs) if ev["full"][i, 0])
    st, _ = play_round(p, [1, 1, 1], [1, 2, 0], rain="bt_tide")  # a cycle: everyone lone
    out["rain_tide_markers"] = int(st.lone[0, 0])
    _, ev = play_round(p, [1, 2, 1], [1, 0, STAY], rain="crate")
    _, plain = play_round(params, [1, 2, 1], [1, 0, STAY])
    out["rain_crate_bonus"] = int(ev["gained"][0, 0] - plain["gained"][0, 0])
    _, ev = play_round(p, [1, 2, 1], [1, 0, STAY], rain="tower")
    out["rain_tower_factor"] = float(ev["node_points"][0, 0] / max(1, plain["node_points"][0, 0]))
    return out


def _rounds(fn):
    """``fn`` asked of the rules without variant E when they have it: the team
    variant changes who wins the game (``scoring.standing`` adds team mates'
    scores), never a round, and seats only 4 or 6 players, while these rounds
    are scripted at 3 and 4 seats.  (The ties of a whole game, ``tie_figures``,
    are asked as they are: at 3 seats they are not defined under variant E.)"""

    @functools.wraps(fn)
    def figures(params: StrandParams) -> dict:
        return fn(params.replace(teams=False) if params.teams else params)

    return figures


#: this module's parts of the exact claims (``exact_claims.py``), in order
FIGURES = (
    _rounds(pairing_figures),
    _rounds(solo_figures),
    tie_figures,
    _rounds(node_figures),
    _rounds(track_figures),
    _rounds(rope_figures),
    _rounds(role_figures),
    _rounds(trust_figures),
    _rounds(variant_figures),  # team seats: asked with teams on (it sets them itself)
    _rounds(rain_figures),
)
