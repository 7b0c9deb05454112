"""Every exactly checkable sentence of the SBR rulebook, asked of the rules
(``data/claims/sbr_rules.csv`` names each in its ``quantity`` column).

:data:`exact_claims` (``params -> {quantity: value}``, a
``core.exact_claims.ExactClaims``) gives each value in the unit the rulebook
prints (squares, points, %, 1 = true).  Each value comes from one of three
sources, declared per part (``tests/test_exact_claims.py`` checks that
every value really depends on its source):

* ``data``: the board and deck data of :mod:`gamelab.sbr.rules` (what the
  components are: squares of each terrain, cards of each value, relic cards);
* ``engine``: scripted states run through :mod:`gamelab.sbr.engine`
  (``init``, ``outcome``, ``act``, ``step``, ``legal_for``, ``end_beat``,
  ``begin_beat``, ``result``): what the rules *do* -- movement, spin, seals,
  draws, scoring, order, points on offer -- is never re-derived here;
* ``record``: the worked example of section 7 replayed by
  :func:`gamelab.sbr.record.replay` (the ledger of beats 1-6).

Every call into the rules goes through the module attribute ``engine`` (and
``record``), never a name imported from it, so a test can swap the rules the
engine plays by and see every ``engine`` and ``record`` value move.
"""

from __future__ import annotations

from gamelab.core.exact_claims import ExactClaims

from . import exact, exact_games
from .identities import map_statistics, mean_card, terrain_squares
from .rules import CURVE, RELIC_TYPES, RIVER, ROCK, TOWN, SbrParams, params_for_variant

#: modules whose ``engine`` attribute is where the values of this module ask the rules
ENGINE_CALLERS = ("gamelab.sbr.exact", "gamelab.sbr.exact_games", "gamelab.sbr.record")
TERRAINS = ("straight", "curve", "rock", "river", "town", "relic")
LISTED = {"curve": CURVE, "rock": ROCK, "river": RIVER, "town": TOWN}  # 4.3 lists their squares


# --- data -----------------------------------------------------------------------------
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
        for t in ("curve", "rock", "river", "relic", "town"):
            out[f"{t}s_in_segment_{seg}"] = int(stats.loc[seg, t])
    out["segments_with_rocks"] = int((stats.drop("all")["rock"] > 0).sum())
    # 4.3 "城镇 … 都在赛段后段": towns on the back half of their segment (squares 6-10 of 10)
    seg_len = params.length / max(1, len(stats.index) - 1)
    out["towns_in_back_half"] = sum(1 for s in terrain_squares(params, TOWN) if (s - 1) % seg_len >= seg_len / 2)
    out["squares_per_relic"] = params.length / len(relics) if relics else float("nan")
    out["segment_length"] = params.length / max(1, len(stats.index) - 1)
    out["length"] = params.length
    out |= {f"checkpoint_{k}": k * out["segment_length"] for k in range(1, len(stats.index))}
    out["checkpoints"] = len(stats.index) - 1
    out["solo_pace_15"] = params.length / 15
    return out


def _components(params: SbrParams) -> dict:
    """2, 3.1-3.3, 5.1, 5.4: decks, relic cards, print counts by player count."""
    deck = sum(params.card_counts)
    out = {f"card_copies_{v}": n for v, n in enumerate(params.card_counts, 1)}
    out |= {f"{k}_count": n for k, n in zip(RELIC_TYPES, params.relic_counts)}
    out |= {
        "deck_size": deck,
        "reach_min": min(v for v, n in enumerate(params.card_counts, 1) if n),
        "mean_card": float(mean_card(params)),
        "relic_cards": sum(params.relic_counts),
        # 3.1 "3 种 2 分": the kinds of relic worth 2 points
        "relic_kinds_worth_2": sum(1 for n, pts in zip(params.relic_counts, params.relic_points) if n and pts == 2),
        "min_players": params.min_players,
        "max_players": params.max_players,
        "score_cells": (params.beats // params.beats_per_segment) * params.max_players * params.riders_per_player,
    }
    for P in range(params.min_players, params.max_players + 1):
        out[f"relic_cards_used_{P}p"] = min(sum(params.relic_counts), len(params.relic_squares()))
    return out


def _short_race_data(params: SbrParams) -> dict:
    """9.1 as a board: the first 40 squares, what it keeps and drops."""
    if params.length <= 40:
        return {}
    fields = params_for_variant("short")
    short = params.replace(board=params.board[:39] + ("finish",), beats=fields.beats, final_points=fields.final_points)
    full, part = map_statistics(params).set_index("segment"), map_statistics(short).set_index("segment")
    out = {
        "short_relic_squares": len(short.relic_squares()),
        "short_curves_dropped": int(full.loc["all", "curve"] - part.loc["all", "curve"]),
        "short_rocks_dropped": int(full.loc["all", "rock"] - part.loc["all", "rock"]),
    }
    out |= {f"short_relic_square_{k}": s for k, s in enumerate(short.relic_squares(), 1)}
    return out


#: every part with the source its values come from
exact_claims = ExactClaims.declare(
    SbrParams,
    data=(_board, _components, _short_race_data),
    engine=exact.FIGURES + exact_games.FIGURES,
    record=(exact_games.example_figures,),
)
