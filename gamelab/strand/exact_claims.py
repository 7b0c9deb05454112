"""Every exactly checkable sentence of the STRAND rulebook, asked of the rules
(``data/claims/strand_rules.csv`` names each in its ``quantity`` column).

:data:`exact_claims` (``params -> {quantity: value}``, a
``core.exact_claims.ExactClaims``) gives each value in the unit the rulebook
prints (cards, points, %, 1 = true).  Each value comes from one of three
sources, declared per part (``tests/test_exact_claims.py`` checks that
every value really depends on its source): ``data`` (the
components: the cargo deck, the node cards, the rope sets, the roles),
``engine`` (scripted rounds run through :mod:`gamelab.strand.engine`, in
:mod:`gamelab.strand.exact`) and ``record`` (the worked example
replayed by :func:`gamelab.strand.record.replay`).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np

from gamelab.core.errors import GamelabError
from gamelab.core.exact_claims import ExactClaims

from . import exact, record
from .exact import EXAMPLE, VALUES
from .rules import PLAYERS, ROLES, StrandParams

#: modules whose ``engine`` attribute is where the values of this module ask the rules
ENGINE_CALLERS = ("gamelab.strand.exact", "gamelab.strand.record")


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
        "role_cards": len(ROLES),
        "player_boards": seats,
        "min_players": PLAYERS[0],
        "max_players": PLAYERS[1],
        "rain_cards": len(p.rain_cards),
    }
    out["cards_in_box"] = out["cargo_cards"] + out["node_cards"] + out["rope_cards"] + out["role_cards"]
    out["cards_without_roles"] = out["cards_in_box"] - out["role_cards"]
    for P in range(PLAYERS[0], PLAYERS[1] + 1):
        out |= {
            f"print_cargo_{P}p": out["cargo_cards"],
            f"print_nodes_{P}p": out["node_cards"],
            f"print_rope_cards_{P}p": P * rope_set,
            f"print_roles_{P}p": min(P, len(ROLES)),
            # the most lone markers a game can hand out: every player lone every round
            f"lone_markers_needed_{P}p": P * p.rounds,
        }
    return out


def _cargo(p: StrandParams) -> dict:
    """The cargo distribution table of the components section, and the mean
    node (appendix A ②: "结点（平均约 6 分）")."""
    total = sum(p.cargo_counts)
    out = {"cargo_value_total": sum(v * n for v, n in zip(VALUES, p.cargo_counts))}
    out["node_mean"] = sum(p.node_values) / len(p.node_values)
    out["cargo_mean"] = out["cargo_value_total"] / total
    for v, n in zip(VALUES, p.cargo_counts):
        out |= {f"cargo_count_{v}": n, f"cargo_subtotal_{v}": v * n}
    return out


def example_figures(params: StrandParams) -> dict:
    """The worked 4-player example replayed: each round's scores and running
    totals, the nodes, the markers, the final table and the lessons drawn."""
    rec = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    # the record's own rules, with the rules asked about changed on top: the same plays under new rules
    rules = {f.name for f in dataclasses.fields(StrandParams)}  # not the agents' knobs a profile may carry
    rec = rec | {"params": {**rec.get("params", {}), **{k: v for k, v in params.changed().items() if k in rules}}}
    try:
        ledger, observed = record.replay(rec)
    except GamelabError:  # plays the new rules refuse: no figure
        return {}
    out = {}
    for r in ledger["rounds"]:
        k = r["round"]
        out |= {f"ex_r{k}_total_{s + 1}": v for s, v in enumerate(r["totals"])}
        out |= {f"ex_r{k}_score_{s + 1}": v for s, v in enumerate(r["scores"])}
        out |= {f"ex_r{k}_lone_{s + 1}": v for s, v in enumerate(r["lone"])}
        node = r["node"] if isinstance(r["node"], dict) else {"points": 0, "players": []}  # 0: nobody took it
        out[f"ex_r{k}_node_points"] = node["points"]
        out[f"ex_r{k}_node_seat"] = 1 + min((ledger_names(ledger).index(n) for n in node["players"]), default=-1)
    f = ledger["final"]
    out |= {f"ex_gross_{s + 1}": v for s, v in enumerate(f["gross"])}
    out |= {f"ex_final_{s + 1}": v for s, v in enumerate(f["total"])}
    out |= {f"ex_markers_{s + 1}": v for s, v in enumerate(f["lone"])}
    out["ex_winner"] = 1 + ledger_names(ledger).index(f["winners"][0])
    cargo = np.array([r["cargo"] for r in ledger["rounds"]])
    mule = 3  # 老骡, seat 4
    others = np.delete(cargo, mule, axis=1).max(axis=1)
    out["ex_mule_heaviest_rounds"] = int((cargo[:, mule] > others).sum())
    out |= _round5_with_a_one(rec)
    out |= _mule_lessons(ledger)
    out |= _dialogue(rec)
    return out


def _node(r) -> tuple[int, list]:
    """A ledger round's node: its points and the players who took it (0, [] if nobody did)."""
    return (r["node"]["points"], r["node"]["players"]) if isinstance(r["node"], dict) else (0, [])


def _own_points(r, seat: int, names) -> int:
    """What a seat scored in one round of a ledger, the node aside."""
    points, players = _node(r)
    return r["scores"][seat] - (points if names[seat] in players else 0)


def _mule_lessons(ledger) -> dict:
    """The lessons of "这局到底赢在哪": 老骡's rounds scored below the cargo he showed
    (overweight or lone: "唯一一次吃亏"), the overweight ones alone, and his
    full crossings in rounds 4-6 ("全额两次")."""
    names, mule = ledger_names(ledger), 3
    short = [r for r in ledger["rounds"] if _own_points(r, mule, names) < r["cargo"][mule]]
    overweight = [r for r in short if r["status"][mule] == "team"]
    full = [r for r in ledger["rounds"][3:6] if r["status"][mule] == "team" and r not in short]
    return {
        "ex_mule_short_rounds": len(short),
        "ex_mule_overweight_rounds": len(overweight),
        "ex_mule_full_rounds_4_6": len(full),
    }


def _what_if(rec, k: int, ropes: dict) -> tuple:
    """Round ``k`` replayed with some ropes changed (the rounds before as played)."""
    rounds = [dict(r) for r in rec["rounds"][:k]]
    rounds[k - 1] = rounds[k - 1] | {"ropes": rounds[k - 1]["ropes"] | ropes}
    ledger, _ = record.replay(rec | {"rounds": rounds})
    return ledger["rounds"][-1], ledger_names(ledger)


def _dialogue(rec) -> dict:
    """The figures the players name in the example's bargaining, by replaying
    the round with the ropes they propose."""
    out = {}
    # round 3, 阿巡 to 芙蕾: "我 2，你 5，凑 7" -- the pair crosses in full and takes the node
    r, names = _what_if(rec, 3, {"阿巡": "芙蕾", "芙蕾": "阿巡", "小豆": "老骡", "老骡": "小豆"})
    xun, fragile = names.index("阿巡"), names.index("芙蕾")
    out["ex_r3_xun_fragile_sum"] = _own_points(r, xun, names) + _own_points(r, fragile, names)
    points, players = _node(r)
    out["ex_r3_xun_fragile_node"] = points if {"阿巡", "芙蕾"} <= set(players) else 0
    # round 4, 老骡 to 芙蕾: "我 4 你 3，凑 7 拿 5 分"
    r, names = _what_if(rec, 4, {"老骡": "芙蕾", "芙蕾": "老骡"})
    points, players = _node(r)
    out["ex_r4_mule_fragile_node"] = points if {"老骡", "芙蕾"} <= set(players) else 0
    # round 7, of 老骡 and 芙蕾: "两人都是 3，和 6，同样能抢" -- their cargo as a team, in round 7 and in round 6
    mule, fragile = names.index("老骡"), names.index("芙蕾")
    r, names = _what_if(rec, 7, {"老骡": "芙蕾", "芙蕾": "老骡"})
    out["ex_r7_mule_fragile_sum"] = _own_points(r, mule, names) + _own_points(r, fragile, names)
    r, names = _what_if(rec, 6, {})
    out["ex_r6_mule_fragile_sum"] = _own_points(r, mule, names) + _own_points(r, fragile, names)
    return out


def ledger_names(ledger):
    return [p["name"] for p in ledger["players"]]


def _round5_with_a_one(rec) -> dict:
    """Round 5's tip: had 小豆 shown a 1, he and 芙蕾 (5) would have made 6
    with the heavier card and taken the node."""
    rounds = [dict(r) for r in rec["rounds"][:5]]
    rounds[4] = rounds[4] | {"cargo": rounds[4]["cargo"] | {"小豆": 1}}
    ledger, _ = record.replay(rec | {"rounds": rounds})
    node = ledger["rounds"][-1]["node"]
    return {"ex_r5_one_takes_node": int(isinstance(node, dict) and set(node["players"]) == {"小豆", "芙蕾"})}


#: every part with the source its values come from
exact_claims = ExactClaims.declare(
    StrandParams, data=(_components, _cargo), engine=exact.FIGURES, record=(example_figures,)
)
