"""The SBR rulebook's sentences about whole games, scoring and the worked
example, asked of the engine and the record replay (see
:mod:`gamelab.sbr.exact` for the scripted states; every call goes
through the module attributes ``engine`` and ``record``)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np

from . import engine, record
from .exact import (  # noqa: F401
    EXAMPLE,
    SUMMARY_DISTANCES,
    SUMMARY_RELICS,
    TRUE,
    _chance,
    actions,
    moves,
    spin_figures,
    table,
)
from .identities import mean_card
from .rules import RELIC_TYPES, SbrParams, n_riders, params_for_variant


# --- whole games (1.1, 5.1, 6.1-6.3, FAQ Q14, appendix B ① ⑤) ---------------------------
def scripted_game(params, n_players, seal_each_segment=False) -> dict:
    """One game through ``engine.step``: every rider plays the lowest card the
    legal mask offers, no spin; with ``seal_each_segment`` rider 0 places one
    seal a segment whenever the mask allows.  The trace of rider 0 and the
    game: beats, segment ends, draws, hand, points handed out."""
    R = n_riders(params, n_players)
    ch = _chance(params, 1, R)
    st = engine.init(params, 1, n_players, ch)
    t = dict(deck=st.deck.shape[2], drawn0=int(st.drawn[0, 0]), hand0=int(st.hand[0, 0].sum()), ends=[], empty=[])
    t["from_hand"], sealed, sealed_in, scored, beats_over = 0, False, set(), 0, 0
    while not engine.done(params, st)[0]:
        lg = engine.legal(params, st)
        rider, seal = int(engine.to_move(st)[0]), 0
        if seal_each_segment and rider == 0 and not sealed and lg.seal[0, 1:].any():
            seal, sealed = 1 + int(np.flatnonzero(lg.seal[0, 1:])[0]), True
            sealed_in.add(len(t["ends"]))
        drawn = int(st.drawn[0, 0])
        card = 1 + int(np.argmax(lg.card[0]))
        st, ev = engine.step(params, st, actions(1, card, seal=seal), ch, inplace=True)
        if rider == 0 and ev["acted"][0] and int(st.drawn[0, 0]) == drawn:
            t["from_hand"] += 1
            t.setdefault("first_from_hand", beats_over + 1)
        if ev["beat_over"]:
            beats_over += 1
            if int(st.drawn[0, 0]) == t["deck"]:
                t["empty"].append(st.beat)
            if int(st.seg_points.sum()) > scored:
                scored, sealed = int(st.seg_points.sum()), False
                t["ends"].append(st.beat)
    res = engine.result(params, st)
    t |= dict(beats=st.beat, hand_end=int(st.hand[0, 0].sum()), segments=int(st.seg_points.sum()))
    t |= dict(final=int(res["final_points"].sum()), sealed_segments=len(sealed_in))
    return t


def relic_stops(params) -> dict:
    """5.4: every relic card laid on the relic squares in order, each taken by
    a rider stopping exactly there (``act``): points by kind and in all."""
    squares = params.relic_squares()
    pile = np.repeat(np.arange(len(RELIC_TYPES)), params.relic_counts)[: len(squares)]
    G = len(squares)
    st = table(params, G, pos=np.array(squares) - 1, layout=None)
    st.relic[np.arange(G), squares] = pile
    engine.act(params, st, actions(G, 1), 0, inplace=True)
    pts = st.relic_pts[:, 0].astype(int)
    return {"total": int(pts.sum()), "by_kind": {RELIC_TYPES[k]: int(pts[pile == k][0]) for k in set(pile.tolist())}}


def game_figures(params: SbrParams) -> dict:
    t = scripted_game(params, params.min_players, seal_each_segment=True)
    out = {
        "beats": t["beats"],
        "segments": len(t["ends"]),
        "beats_per_segment": t["ends"][0] if t["ends"] else 0,
        "hand_size": t["hand0"],
        "deck_after_deal": t["deck"] - t["drawn0"],
        "deck_runs_out": t["empty"][0] if t["empty"] else 0,
        # FAQ Q14 "从第 15 拍起牌堆就空了": the first beat that starts with nothing left to draw
        "deck_empty_from_beat": t.get("first_from_hand", 0),
        "beats_from_hand": t["from_hand"],
        "cards_left_in_hand": t["hand_end"],
        "segments_with_a_seal": t["sealed_segments"],
    }
    out |= {f"segment_end_beat_{k}": b for k, b in enumerate(t["ends"], 1)}
    out["movement_total"] = float(t["beats"] * mean_card(params))
    out["mileage_deficit"] = params.length - out["movement_total"]
    out["need_per_beat"] = params.length / t["beats"]
    out["spin_margin"] = spin_figures(params)["spin_income_terrain"] - out["mileage_deficit"]
    relics = relic_stops(params)["total"]
    for P in range(params.min_players, params.max_players + 1):
        g = t if P == params.min_players else scripted_game(params, P)
        out |= {f"pool_segments_{P}p": g["segments"], f"pool_final_{P}p": g["final"], f"pool_relics_{P}p": relics}
        out[f"pool_total_{P}p"] = g["segments"] + relics + g["final"]
        out[f"pool_without_relics_{P}p"] = g["segments"] + g["final"]
        out[f"segments_over_relics_{P}p"] = g["segments"] / relics if relics else 0.0
    return out


def short_race_figures(params: SbrParams) -> dict:
    """9.1: the short race played through the engine."""
    if params.length <= 40:
        return {}
    v = params_for_variant("short")
    short = params.replace(board=params.board[:39] + ("finish",), beats=v.beats, final_points=v.final_points)
    t = scripted_game(short, short.min_players)
    movement = float(t["beats"] * mean_card(short))
    out = {"short_beats": t["beats"], "short_segments": len(t["ends"]), "short_movement": movement}
    out["short_deficit"] = short.length - movement
    fin = final_result(short, np.arange(2 * short.max_players, 0, -2))["final_points"]
    return out | {f"short_final_rank_{k}": int(p) for k, p in enumerate(fin, 1)}


# --- scoring (6.2, 6.3, 5.4) ------------------------------------------------------------
def segment_points(params, start, pos, relics=None, n_players=None) -> np.ndarray:
    """(R,) points the engine's first segment scoring gives riders who began
    it on ``start`` and stand on ``pos`` (holding ``relics``)."""
    R = len(pos)
    st = table(params, 1, n_players or _seated(params, R))
    st.seg_start[0, :R], st.pos[0, :R] = start, pos
    st.relic_n[0, :R] = relics if relics is not None else 0
    while not st.seg_points.any() and st.beat < 10 * params.beats:
        engine.end_beat(params, st, inplace=True)
    return st.seg_points[0, :R].astype(int)


def _seated(params, riders: int) -> int:
    """Players seated for a script of ``riders`` riders: as many, or the fewest
    the rules seat (the others stay on the start line, behind every rider scripted)."""
    return max(riders, params.min_players)


def final_result(params, pos, seg=0, relic_pts=0, relic_n=0) -> dict:
    """``engine.result`` of a finished game with riders on ``pos``."""
    R = len(pos)
    st = table(params, 1, _seated(params, R))
    st.pos[0, :R], st.seg_points[0, :R], st.relic_pts[0, :R], st.relic_n[0, :R] = pos, seg, relic_pts, relic_n
    st.beat = params.beats
    return {k: v[0, :R] for k, v in engine.result(params, st).items()}


def point_figures(params: SbrParams) -> dict:
    P = params.max_players
    spread = np.arange(2 * P, 0, -2)
    seg = segment_points(params, np.zeros(P, int), spread)
    fin = final_result(params, spread)["final_points"]
    relics = relic_stops(params)
    out = {f"segment_points_rank_{k}": int(seg[k - 1]) for k in range(1, P + 1)}
    out |= {f"final_points_rank_{k}": int(fin[k - 1]) for k in range(1, P + 1)}
    out |= {f"{k}_points": p for k, p in relics["by_kind"].items()}
    best = max(relics["by_kind"].values())
    out |= {
        "relic_points_min": min(relics["by_kind"].values()),
        "relic_points_max": best,
        "relic_total": relics["total"],
        "segment_first": int(seg[0]),
        "final_first": int(fin[0]),
        "relic_total_in_first_places": relics["total"] / seg[0] if seg[0] else 0.0,
        "final_first_beats_best_relic": int(fin[0] > best),
    }
    return out


def order_figures(params: SbrParams) -> dict:
    """6.2 step 0 and the tie-breaks of 6.2 and 6.3 (FAQ Q11, Q12), with four
    riders (nothing when the rules seat fewer)."""
    if params.max_players * params.riders_per_player < 4 or params.min_players > 4:
        return {}
    st = table(params, 1, 4)
    st.pos[0], st.spin[0], st.beat = (5, 3, 3, 3), (0, 2, 1, 1), 1
    order = list(engine.begin_beat(params, st).order[0])
    out = {
        "order_back_to_front": int(order[-1] == 0),
        "order_less_spin_first": int(order.index(1) > max(order.index(2), order.index(3))),
        "order_seat_breaks_tie": int(order.index(2) < order.index(3)),
        "beat_one_seat_order": int(list(engine.init(params, 1, 4, _chance(params, 1, 4)).order[0]) == [0, 1, 2, 3]),
    }
    pts = segment_points(params, [0, 1, 0, 0], [14, 15, 14, 14], relics=[0, 0, 1, 0])
    out |= {
        "segment_tie_position": int(pts[1] > pts[0]),
        "segment_tie_relics": int(pts[2] > pts[0]),
        "segment_tie_seat": int(pts[0] > pts[3]),
    }
    pts = segment_points(params, [20, 0], [30, 21])
    out["segment_by_distance"] = int(pts[1] > pts[0])
    fin = final_result(params, [30, 21], seg=0)["final_points"]
    out["final_by_position"] = int(fin[0] > fin[1])
    fin = final_result(params, [30, 30, 30], relic_n=[0, 1, 0])["final_points"]
    out["final_tie_relics"], out["final_tie_seat"] = int(fin[1] > fin[0]), int(fin[0] > fin[2])
    out |= _win_ties(params)
    return out


def _win_ties(params) -> dict:
    """6.3: equal totals -> more relics, then further along, then shared."""

    def winners(pos, relic_n):
        base = final_result(params, pos, relic_n=relic_n)
        even = int(base["final_points"].max()) - base["final_points"]  # segment points that level the totals
        return final_result(params, pos, seg=even, relic_n=relic_n)["win"]

    relics, further, shared = winners([30, 30], [0, 1]), winners([31, 30], [0, 0]), winners([30, 30], [0, 0])
    return {
        "win_tie_relics": int(relics[1] == 1),
        "win_tie_position": int(further[0] == 1),
        "win_tie_shared": int(shared[0] == shared[1] == 0.5),
    }


# --- the worked example (section 7) -------------------------------------------------------
def example_figures(params: SbrParams) -> dict:
    """7.2-7.5 from the record's replay (beats 1-6), 7.6-7.7 by scoring the
    printed distances of segments 3-6 through the engine from where the
    replay leaves the riders (the rulebook's own seat order: 乔尼, 杰洛,
    迪亚哥, 露西 = seats 1-4)."""
    rec = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    # the example is played by its own record's rules, with the rules asked about changed on top
    # (so that under new rules its sentences show what the same plays would give)
    rules = {f.name for f in dataclasses.fields(SbrParams)}  # not the agents' knobs a profile may carry
    rec = rec | {"params": {**rec.get("params", {}), **{k: v for k, v in params.changed().items() if k in rules}}}
    params = SbrParams().replace(**rec["params"])
    rec = _filled(params, rec)
    replays = _replays(rec)
    out = {}
    names = rec["players"]
    for ledger, _ in replays:
        b = ledger["beats"][-1]
        out |= {f"ex_pos_beat_{b['beat']}_{s + 1}": p for s, p in enumerate(b["positions"])}
        out |= {f"ex_spin_beat_{b['beat']}_{s + 1}": v for s, v in enumerate(b["spin"])}
        out |= {f"ex_order_beat_{b['beat']}_{names.index(n) + 1}": k for k, n in enumerate(b["order"], 1)}
    for ledger, observed in replays:
        if len(ledger["beats"]) not in params.segment_ends() or not ledger["segments"]:  # no segment scored here
            continue
        seg, pts, total = ledger["segments"][-1], observed["segment_points"][-1], observed["segment_totals"][-1]
        k = seg["segment"]
        out |= {f"ex_seg{k}_distance_{s + 1}": d for s, d in enumerate(seg["distance"])}
        out |= {f"ex_seg{k}_points_{s + 1}": p for s, p in enumerate(pts)}
        out |= {f"ex_seg{k}_total_{s + 1}": v for s, v in enumerate(total)}
        out |= {f"ex_seg{k}_rank_{s + 1}": 1 + sum(q > p for q in pts) for s, p in enumerate(pts)}
        out[f"ex_seg{k}_leader"] = 1 + int(np.argmax(total))
    if len(replays) >= 3:
        out["ex_beat_3_squares_2"] = (
            replays[2][0]["beats"][-1]["positions"][1] - replays[1][0]["beats"][-1]["positions"][1]
        )
    out |= {f"ex_beat_1_tax_{s}": int(_beat_one_tax(params, c)) for s, c in ((2, 5), (4, 4))}
    if len(replays) == len(rec["beats"]):
        ledger, observed = replays[-1]
        out["ex_relic_points_beat_6_1"] = ledger["beats"][-1]["relic_points"][0]
        out |= _summary(params, ledger, observed)
    return out


def _filled(params, rec):
    """The example with the relic squares it never reaches filled by the
    cards left over (beats 1-6 stop on none of them, so the replay is the
    same; under other rules a rider may stop there and the replay goes on)."""
    given = {int(k): v for k, v in rec["relics"].items()}
    left = [k for k, n in zip(RELIC_TYPES, params.relic_counts) for _ in range(n)]
    for kind in given.values():
        left.remove(kind)
    rest = [q for q in params.relic_squares() if q not in given]
    return rec | {"relics": {str(q): k for q, k in (given | dict(zip(rest, left))).items()}}


def _replays(rec):
    """The replays of the beats up to each beat (a beat the rules refuse
    then spoils only itself and those after it)."""
    out = []
    for b in range(1, len(rec["beats"]) + 1):
        try:
            out.append(record.replay(rec | {"beats": rec["beats"][:b]}))
        except Exception:  # noqa: BLE001 - a record the changed rules refuse: no figure
            break
    return out


def _beat_one_tax(params, card):
    return moves(params, [0], card)["tax"][0]


def _summary(params, ledger, observed) -> dict:
    """7.6-7.7: segments 3-6 scored by the engine from the printed distances,
    the final table from the printed squares and relic icons."""
    pos = np.array(ledger["beats"][-1]["positions"])
    relic_n = np.zeros(len(pos), int)
    for b in ledger["beats"]:
        for m in b["moves"]:
            if m["relic"]:
                relic_n[ledger["players"].index(m["player"])] += 1
    seg_sum = np.sum(observed["segment_points"], axis=0)
    out, top_two = {}, np.array([[1 + sum(q > p for q in pts) <= 2 for p in pts] for pts in observed["segment_points"]])
    top_two = top_two.sum(axis=0)
    for k, dist in enumerate(SUMMARY_DISTANCES, start=len(observed["segment_points"]) + 1):
        pts = segment_points(params, pos, pos + np.array(dist), relic_n)
        out |= {f"ex_seg{k}_points_{s + 1}": int(p) for s, p in enumerate(pts)}
        seg_sum, pos = seg_sum + pts, pos + np.array(dist)
        top_two += np.array([1 + sum(q > p for q in pts) <= 2 for p in pts], int)
    kinds = relic_stops(params)["by_kind"]
    relic_pts = np.array([sum(kinds[k] for k in icons) for icons in SUMMARY_RELICS])
    res = final_result(params, pos, seg=seg_sum, relic_pts=relic_pts, relic_n=[len(i) for i in SUMMARY_RELICS])
    for s in range(len(pos)):
        out |= {f"ex_seg_points_sum_{s + 1}": int(seg_sum[s]), f"ex_final_square_{s + 1}": int(res["position"][s])}
        if SUMMARY_RELICS[s]:
            out[f"ex_relic_points_{s + 1}"] = int(relic_pts[s])
        out |= {f"ex_final_points_{s + 1}": int(res["final_points"][s]), f"ex_total_{s + 1}": int(res["score"][s])}
        out[f"ex_seg6_total_{s + 1}"] = int(seg_sum[s] + relic_pts[s])
        out[f"ex_top_two_segments_{s + 1}"] = int(top_two[s])
    out["ex_winner"] = 1 + int(np.argmax(res["win"]))
    out["ex_gap_1_2"] = int(res["score"][0] - res["score"][1])
    out["ex_gap_1_3"] = int(res["score"][0] - res["score"][2])
    out["ex_gap_3_4"] = int(res["score"][2] - res["score"][3])
    out["ex_squares_1_3"] = int(res["position"][0] - res["position"][2])
    return out


#: this module's parts of the exact claims (``exact_claims.py``), in order
FIGURES = (game_figures, point_figures, order_figures, short_race_figures)  # example_figures: a record part
