"""Every number of the STRAND rulebook that the rules alone decide, as exact
functions of the rule parameters (``data/claims/strand_rules.csv`` names them
in its ``quantity`` column).

:func:`exact_claims` returns ``{quantity: value}`` in the unit the rulebook
prints (cards, points, %, 1 = true).  Identities come from
:mod:`gamelab.strand.identities`; the rest is counting the components and the
score rules of sections 5-6 and the variants.
"""

from __future__ import annotations

from .identities import VALUES, ev_threshold, full_team_pairs, node_total, pairable_rate, stall_cost, trust_price
from .rules import PLAYERS, StrandParams, half, params_for_variant, team_of_seat

#: the rulebook's model inputs for identity ② (appendix A): node share N and stay value S
NODE_SHARE, STAY_VALUE = 6.0, 1.2


def _components(p: StrandParams) -> dict:
    """Components table, card table, print table by player count."""
    seats = PLAYERS[1]
    rope_set = seats + 1  # one card per seat and a stay
    out = {
        "cargo_cards": sum(p.cargo_counts),
        "node_cards": len(p.node_values),
        "rope_sets": seats,
        "rope_per_set": rope_set,
        "rope_cards": seats * rope_set,
        "rope_pointing": seats * seats,
        "rope_stay": seats,
        "role_cards": seats,
        "player_boards": seats,
        "min_players": PLAYERS[0],
        "max_players": PLAYERS[1],
        "rounds": p.rounds,
        "segments": len(p.node_values),
        "rain_cards": len(p.rain_cards),
    }
    out["cards_in_box"] = out["cargo_cards"] + out["node_cards"] + out["rope_cards"] + out["role_cards"]
    out["cards_without_roles"] = out["cards_in_box"] - out["role_cards"]
    for P in range(PLAYERS[0], PLAYERS[1] + 1):
        out |= {
            f"print_cargo_{P}p": out["cargo_cards"],
            f"print_nodes_{P}p": out["node_cards"],
            f"print_rope_sets_{P}p": P,
            f"print_rope_cards_{P}p": P * rope_set,
            f"print_roles_{P}p": P,
            f"print_boards_{P}p": P,
            # the most lone markers a game can hand out: every player lone every round
            f"lone_markers_needed_{P}p": P * p.rounds,
        }
    return out


def _cargo(p: StrandParams) -> dict:
    """The cargo distribution table and the pairing table of 5.1."""
    total = sum(p.cargo_counts)
    out = {"cargo_value_total": sum(v * n for v, n in zip(VALUES, p.cargo_counts))}
    out["cargo_mean"] = out["cargo_value_total"] / total
    for v, n in zip(VALUES, p.cargo_counts):
        fits = [w for w in VALUES if v + w <= p.sum_cap]
        out |= {
            f"cargo_count_{v}": n,
            f"cargo_subtotal_{v}": v * n,
            f"partners_{v}": len(fits),
            f"fit_{v}_pct": 100 * sum(p.cargo_counts[w - 1] for w in fits) / total,
        }
        for w in VALUES:
            out[f"pair_sum_{v}_{w}"] = v + w
            out[f"pair_full_{v}_{w}"] = int(v + w <= p.sum_cap)
    out |= {
        "sum_cap": p.sum_cap,
        "overweight_from": p.sum_cap + 1,
        "engineer_cap": p.sum_cap + p.engineer_bonus,
        "pairable_rate": float(pairable_rate(p)),
        "pairable_rate_pct": 100 * float(pairable_rate(p)),
        "overweight_rate": 1 - float(pairable_rate(p)),
    }
    return out


def _nodes(p: StrandParams) -> dict:
    """Nodes (5.4, map statistics, identities ③-⑤)."""
    out = {f"node_value_{k}": v for k, v in enumerate(p.node_values, 1)}
    out |= {
        "node_total": node_total(p),
        "node_max": max(p.node_values),
        "node_last": p.node_values[-1],
        "node_last_in_full_cargo": p.node_values[-1] / max(VALUES),
        "stall_cost_1": stall_cost(p, 1),
        "stall_cost_2": stall_cost(p, 2),
    }
    n = len(p.node_values)
    out |= {
        "highest_node_after_1_stall": p.node_values[n - 2] if n > 1 else 0,
        "highest_node_after_2_stalls": p.node_values[n - 3] if n > 2 else 0,
    }
    pairs = full_team_pairs(p).set_index("pair")

    def beats(a, b):
        return int(a in pairs.index and b in pairs["beats_by_heavier_card"].get(a, ""))

    out |= {
        "five_one_beats_four_two": beats("5+1", "4+2"),
        "five_one_beats_three_three": beats("5+1", "3+3"),
        "three_three_voids_three_three": int("3+3" in pairs.index and pairs.loc["3+3", "voids_against"] == "3+3"),
    }
    return out


def _scores(p: StrandParams) -> dict:
    """6.2-6.4, the strategy section, identities ② and ⑥."""
    out = {
        "hand_size": p.hand_size,
        "hand_after_stay": min(p.hand_size + 1, p.max_hand),
        "max_hand": p.max_hand,
        "lone_penalty": p.lone_penalty,
    }
    for v in VALUES:
        out[f"lone_score_{v}"] = half(v, p.half_rounding)
    price = trust_price(p).set_index("cargo")
    out |= {
        "lone_net_5": half(5, p.half_rounding) - p.lone_penalty,
        "lone_loss_5": float(price.loc[5, "without_node"]),
        "trust_gap_5": float(price.loc[5, "without_node"]),
        "trust_gap_5_largest_node": float(price.loc[5, "with_largest_node"]),
        "best_without_light_partner_5": half(5, p.half_rounding),
    }
    ev = ev_threshold(p, node_share=NODE_SHARE, stay_value=STAY_VALUE).set_index("cargo")
    for v in VALUES:
        out |= {
            f"mutual_gain_{v}": float(ev.loc[v, "mutual"]),
            f"lone_gain_{v}": float(ev.loc[v, "lone"]),
            f"p_star_{v}_pct": 100 * float(ev.loc[v, "p_star"]),
        }
    out["crowd_fail_share_3"] = 2 / 3  # three point at one: one pair forms, two are lone
    return out


def _variants(p: StrandParams) -> dict:
    """Variants A, C, E and FAQ Q11 (teams on the track, a node's share)."""
    short = params_for_variant("short", node_values=p.node_values[:5], rounds=5) if p.rounds >= 5 else p
    # variant C: segments 4 and 5 each lose a point (5 -> 4)
    three = tuple(v - 1 if i in (3, 4) else v for i, v in enumerate(p.node_values))
    out = {
        "short_rounds": short.rounds,
        "short_node_total": node_total(short),
        "three_player_node_4": three[3] if len(three) > 3 else 0,
        "three_player_node_5": three[4] if len(three) > 4 else 0,
        "fair_share_3p_pct": 100 / 3,
    }
    for P in (4, 6):
        out[f"max_teams_{P}p"] = P // 2
        out[f"node_chance_{P}p_pct"] = 100 / (P // 2)
    out |= {f"team_seats_{a}_{a + 3}": int(team_of_seat(a - 1, 6) == team_of_seat(a + 2, 6)) for a in (1, 2, 3)}
    out["teams_6p"] = len({team_of_seat(s, 6) for s in range(6)})
    out["teams_4p"] = len({team_of_seat(s, 4) for s in range(4)})
    return out


def exact_claims(params: StrandParams | None = None) -> dict:
    """{quantity: exact value} for every rules-decided number of the rulebook."""
    params = params if params is not None else StrandParams()
    out = {}
    for part in (_components, _cargo, _nodes, _scores, _variants):
        out |= part(params)
    return out
