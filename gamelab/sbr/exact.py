"""Every number of the SBR rulebook that the rules alone decide, as exact
functions of the rule parameters (``data/claims/sbr_rules.csv`` names them in
its ``quantity`` column).

:func:`exact_claims` returns ``{quantity: value}`` in the unit the rulebook
prints (squares, points, %, 1 = true).  Counts come from the board and the
decks, pools from the point tables (:mod:`gamelab.sbr.identities`), and every
movement figure ("a 5 through one curve", FAQ Q2, FAQ Q4) from the engine's
:func:`~gamelab.sbr.engine.outcome`: nothing here moves a rider by itself.
"""

from __future__ import annotations

import numpy as np

from . import engine
from .identities import (
    cards_left_in_hand,
    deck_runs_out,
    map_statistics,
    mean_card,
    mileage_deficit,
    point_pools,
    spin_income,
    terrain_squares,
)
from .rules import CURVE, N_VALUES, RELIC_TYPES, RIVER, ROCK, TOWN, SbrParams, n_riders, params_for_variant

TERRAINS = ("straight", "curve", "rock", "river", "town", "relic", "finish")
LISTED = {"curve": CURVE, "rock": ROCK, "river": RIVER, "town": TOWN}  # 4.3 lists their squares


def moves(params: SbrParams, starts, card: int, spin: int = 0) -> dict:
    """What the engine does with ``card`` (+ ``spin``) for a lone rider on each
    square of ``starts``: (n,) arrays ``stop`` and ``tax`` (no seals, no relics)."""
    starts = np.asarray(starts, np.intp)
    G, R = starts.size, n_riders(params, params.min_players)
    deck = np.repeat(np.arange(1, N_VALUES + 1, dtype=np.int8), params.card_counts)
    chance = engine.Chance(
        np.broadcast_to(deck, (G, R, deck.size)).copy(),
        np.full((G, params.length + 1), -1, np.int8),
        np.zeros(G, np.int8),
    )
    st = engine.init(params, G, params.min_players, chance)
    st.pos[:, 0] = starts
    out = engine.outcome(params, st, np.zeros(G, np.intp), np.full((G, 1), card), np.full((G, 1), spin))
    return {"stop": out["stop"][:, 0], "tax": out["tax"][:, 0]}


def _squares_moved(params, start, card):
    return int(moves(params, [start], card)["stop"][0]) - start


def curve_figures(params: SbrParams) -> dict:
    """5.1 / 8.1 ① and FAQ Q2 through the engine: a 5 and a 2 from the square
    before the first curve; a 5 from the square before the first two
    adjacent curves (19 -> 20, 21 on the rulebook's board)."""
    curves = terrain_squares(params, CURVE)
    out = {}
    if curves:
        s = curves[0] - 1
        out |= {
            "five_through_one_curve": _squares_moved(params, s, 5),
            "two_through_one_curve": _squares_moved(params, s, 2),
        }
        out["five_minus_two_through_one_curve"] = out["five_through_one_curve"] - out["two_through_one_curve"]
    pairs = [c for c in curves if c + 1 in curves]
    if pairs:
        s = pairs[0] - 1
        m = moves(params, [s], 5)
        stop = int(m["stop"][0])
        out |= {
            "five_through_two_curves": stop - s,
            "five_through_two_curves_stop": stop,
            "five_through_two_curves_tax": int(m["tax"][0]),
            "five_through_two_curves_stops_on_first": int(stop == pairs[0]),
        }
    return out


def two_river_starts(params: SbrParams) -> int:
    """FAQ Q4: squares from which some card (with any spin) enters two rivers
    in one beat (the FAQ: "本赛道没有这种情况", none)."""
    rivers = np.zeros(params.length + 1, int)
    rivers[terrain_squares(params, RIVER)] = 1
    starts = np.arange(params.length)
    found = np.zeros(starts.size, bool)
    for card in range(1, 6):
        for spin in range(params.max_spin_per_beat + 1):
            stop = moves(params, starts, card, spin)["stop"]
            entered = np.array([rivers[s + 1 : e + 1].sum() if e > s else 0 for s, e in zip(starts, stop)])
            found |= entered >= 2
    return int(found.sum())


def _board(params: SbrParams) -> dict:
    """4.1 / 4.3: terrain counts, the listed squares, per-segment counts."""
    stats = map_statistics(params).set_index("segment")
    out = {f"{t}_squares": int(stats.loc["all", t]) for t in TERRAINS}
    relics = params.relic_squares()
    out["relic_squares_on_straights"] = sum(1 for s in relics if params.terrain_array()[s] == 0)
    for name, code in LISTED.items():
        out |= {f"{name}_square_{k}": s for k, s in enumerate(terrain_squares(params, code), 1)}
    out |= {f"relic_square_{k}": s for k, s in enumerate(relics, 1)}
    for seg in stats.index.drop("all"):
        for t in ("curve", "rock", "river", "relic"):
            out[f"{t}s_in_segment_{seg}"] = int(stats.loc[seg, t])
    out["squares_per_relic"] = params.length / len(relics) if relics else float("nan")
    return out


def _decks(params: SbrParams) -> dict:
    """3.1-3.3, 5.1, 6.1, FAQ Q14: decks, hands, print counts by player count."""
    deck = sum(params.card_counts)
    out = {f"card_copies_{v}": n for v, n in enumerate(params.card_counts, 1)}
    out |= {
        "deck_size": deck,
        "hand_size": params.hand_size,
        "deck_after_deal": deck - params.hand_size,
        "deck_runs_out": deck_runs_out(params),
        "beats_from_hand": params.beats - deck_runs_out(params),
        "cards_left_in_hand": cards_left_in_hand(params),
        "seals_per_player": params.seals_per_player,
        "relic_cards": sum(params.relic_counts),
        "min_players": params.min_players,
        "max_players": params.max_players,
    }
    for P in range(params.min_players, params.max_players + 1):
        riders = n_riders(params, P)
        out |= {
            f"drive_cards_{P}p": riders * deck,
            f"seals_{P}p": riders * params.seals_per_player,
            f"riders_{P}p": riders,
            f"spin_tracks_{P}p": riders,
            f"relic_cards_used_{P}p": min(sum(params.relic_counts), len(params.relic_squares())),
        }
    return out


def _segments(params: SbrParams) -> dict:
    ends = params.segment_ends()
    seg_len = params.length / len(ends)
    out = {
        "length": params.length,
        "segments": len(ends),
        "segment_length": seg_len,
        "beats": params.beats,
        "beats_per_segment": params.beats_per_segment,
        "checkpoints": len(ends),
        "score_cells": len(ends) * params.max_players * params.riders_per_player,
    }
    out |= {f"segment_end_beat_{k}": b for k, b in enumerate(ends, 1)}
    out |= {f"checkpoint_{k}": k * seg_len for k in range(1, len(ends) + 1)}
    return out


def _movement(params: SbrParams) -> dict:
    """1.1, 5.1, 5.2, 8.1, appendix B ① and ③."""
    spin = spin_income(params)
    deficit = float(mileage_deficit(params))
    return {
        "mean_card": float(mean_card(params)),
        "movement_total": float(params.beats * mean_card(params)),
        "mileage_deficit": deficit,
        "need_per_beat": params.length / params.beats,
        "spin_cap": params.spin_cap,
        "max_spin_per_beat": params.max_spin_per_beat,
        "spin_from_rivers": spin["rivers"],
        "spin_from_towns": spin["towns"],
        "spin_income_terrain": spin["terrain"],
        "spin_income_max": spin["with_all_eyes"],
        "spin_margin": spin["terrain"] - deficit,
        "reach_min": 1,
        "reach_max": len(params.card_counts) + params.max_spin_per_beat,
        "eye_spin": params.eye_spin,
        "heart_steps": params.heart_steps,
        "eye_share_of_terrain_spin_pct": 100 * params.eye_spin / spin["terrain"] if spin["terrain"] else 0.0,
        "seal_penalty": params.seal_penalty,
        "seal_break_cost": params.seal_break_cost,
        "seal_range": params.seal_range,
        "segments_with_a_seal": min(len(params.segment_ends()), params.seals_per_player),
        "riders_behind_leader_4p": 4 * params.riders_per_player - 1,
        "solo_pace_15": params.length / 15,
    }


def _points(params: SbrParams) -> dict:
    """5.4, 6.2, 6.3, 9.2, appendix B ④, by player count."""
    out = {f"{k}_count": n for k, n in zip(RELIC_TYPES, params.relic_counts)}
    out |= {f"{k}_points": p for k, p in zip(RELIC_TYPES, params.relic_points)}
    out |= {
        "relic_points_min": min(params.relic_points),
        "relic_points_max": max(params.relic_points),
        "relic_total": sum(p * n for p, n in zip(params.relic_points, params.relic_counts)),
        "segment_first": params.segment_points[0],
        "final_first": params.final_points[0],
    }
    out["relic_total_in_first_places"] = out["relic_total"] / params.segment_points[0]
    out["final_first_beats_best_relic"] = int(params.final_points[0] > max(params.relic_points))
    out |= {f"segment_points_rank_{k}": p for k, p in enumerate(params.segment_points[:5], 1)}
    out |= {f"final_points_rank_{k}": p for k, p in enumerate(params.final_points[:5], 1)}
    for P in range(params.min_players, params.max_players + 1):
        pools = point_pools(params, n_riders(params, P))
        out |= {f"pool_{k}_{P}p": float(v) for k, v in pools.items()}
        out[f"pool_without_relics_{P}p"] = float(pools["segments"] + pools["final"])
        out[f"segments_over_relics_{P}p"] = float(pools["segments"] / pools["relics"]) if pools["relics"] else 0.0
    return out


def _short_race(params: SbrParams) -> dict:
    """9.1: the short race against the full one (parameters of ``params``
    with the variant's board, beats and final points)."""
    if params.length <= 40:
        return {}
    fields = params_for_variant("short")
    short = params.replace(board=params.board[:39] + ("finish",), beats=fields.beats, final_points=fields.final_points)
    full, part = map_statistics(params).set_index("segment"), map_statistics(short).set_index("segment")
    out = {
        "short_beats": short.beats,
        "short_length": short.length,
        "short_segments": len(short.segment_ends()),
        "short_relic_squares": len(short.relic_squares()),
        "short_movement": float(short.beats * mean_card(short)),
        "short_deficit": float(mileage_deficit(short)),
        "short_curves_dropped": int(full.loc["all", "curve"] - part.loc["all", "curve"]),
    }
    out |= {f"short_relic_square_{k}": s for k, s in enumerate(short.relic_squares(), 1)}
    out |= {f"short_final_rank_{k}": p for k, p in enumerate(short.final_points[:5], 1)}
    return out


def exact_claims(params: SbrParams | None = None) -> dict:
    """{quantity: exact value} for every rules-decided number of the rulebook."""
    params = params if params is not None else SbrParams()
    out = {}
    for part in (_segments, _decks, _board, _movement, _points, _short_race, curve_figures):
        out |= part(params)
    out["two_river_starts"] = two_river_starts(params)
    return out
