"""STRAND playtest records: validation, replay as a batch of one, the ledger.

Hands are hidden at the table, so a record gives the cargo each player
revealed; the replay drives the engine in its "hands unknown" mode
(``engine.init`` with ``engine.replay_chance``), where any card value may be revealed.  Every
other rule is checked by the engine's legal-action masks, and a record that
breaks one is refused with a :class:`RecordError` naming the round, the player
and the rule before anything is printed.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import pandas as pd
from pydantic import Field, StrictStr

from gamelab.core.errors import GamelabError, RecordError, short
from gamelab.core.records import check_names, check_record, record_params, refusal, standing
from gamelab.core.schemas import MAX_SEATS, PlayerEntry, RecordBase

from . import engine
from .rules import RAIN_CARDS, ROLES, VARIANT_PLAYERS, StrandParams, params_for_variant, role_code

POWER_PHASE = {
    "porter": engine.CARGO,
    "bb": engine.ROPE,
    "veteran": engine.REACT,
    "engineer": engine.REACT,
    "musician": engine.REACT,
    "fragile": engine.REACT,
}
APPLIES = {
    "veteran": "only when you are lone",
    "engineer": "only when your team formed",
    "musician": "only when your team formed",
    "fragile": "only when you are lone and the target pointed at you and is not in a team",
}


STAY = "stay"  # the rope card that points at no one: no player may be called that
ROUND_KEYS = ("cargo", "ropes", "powers", "rain", "note", "notes", "comment")


class StrandRecord(RecordBase):
    """The structure of a STRAND record (``docs/playtest-format.md``); the
    rules are checked by :func:`replay`."""

    players: Annotated[list[PlayerEntry], Field(min_length=1, max_length=MAX_SEATS)]
    rounds: Annotated[list[dict[StrictStr, Any]], Field(min_length=1)]


_fail = refusal("round")


def _players(players):
    """The seats' names and roles (their form checked by ``PlayerEntry``):
    a known role, each dealt once at most (section 5.5)."""
    names, roles = [], []
    for entry in players:
        role = entry.role
        if role is not None and role not in ROLES:
            _fail(
                f"unknown role {short(role)}: expected one of {', '.join(ROLES)}",
                player=entry.name,
                rule="section 5.5",
            )
        if role is not None and role in roles:
            first = roles.index(role)
            _fail(
                f"role {role} is dealt to seat {first + 1} ({names[first]}) and seat {len(names) + 1} ({entry.name})",
                player=entry.name,
                rule="section 5.5: each role card exists once",
            )
        names.append(entry.name)
        roles.append(role)
    check_names(names, reserved=(STAY,))
    return names, roles


def _params(record, n):
    variant, params = record_params(
        record, StrandParams, params_for_variant, check_players=engine.check_players, n_players=n
    )
    if variant in VARIANT_PLAYERS and n not in VARIANT_PLAYERS[variant]:
        _fail(f"variant {variant} is for {' or '.join(map(str, VARIANT_PLAYERS[variant]))} players, the record has {n}")
    return variant, params


def _name(value, names, rnd, player, what):
    if value not in names:
        _fail(
            f"{what} {short(value)} is not in players ({short(', '.join(names), 200)[1:-1]})",
            rnd,
            player,
            "the record names every player in 'players'",
        )
    return names.index(value)


def _round_actions(rd, rnd, names, roles, n):
    """One round of the record -> (cargo, rope, react) action codes and powers."""
    unknown = [k for k in rd if k not in ROUND_KEYS]
    if unknown:
        _fail(f"unknown key {short(unknown[0])} in a round: expected {', '.join(ROUND_KEYS)}", rnd)
    for key in ("cargo", "ropes", "powers"):
        part = rd.get(key, {})
        if not isinstance(part, dict):
            _fail(f"'{key}' must map player names to values", rnd)
        for who in part:
            _name(who, names, rnd, who, "player")
    value, target = np.zeros(n, np.int64), np.zeros(n, np.int64)
    powers = {}
    for s, who in enumerate(names):
        v = rd.get("cargo", {}).get(who)
        if v is None:
            _fail("no cargo revealed", rnd, who, "section 6.2 step 2: everyone reveals a card")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 5:
            _fail(f"cargo {short(v)} is not a card value 1-5", rnd, who, "section 5.1: cargo cards are 1-5")
        value[s] = v
        r = rd.get("ropes", {}).get(who)
        if r is None:
            _fail("no rope shown", rnd, who, "section 5.2 point 4: everyone must lay a rope card")
        if r == STAY:
            target[s] = engine.stay_action(n)
        else:
            j = _name(r, names, rnd, who, "rope target")
            if j == s:
                _fail("a rope to oneself", rnd, who, "section 5.2 point 2: you cannot point at yourself")
            target[s] = j
        if who in rd.get("powers", {}):
            powers[s] = _power(rd["powers"][who], rnd, who, s, names)
    porter, lock = np.zeros(n, bool), np.zeros(n, bool)
    react = np.full(n, engine.REACT_PASS, np.int64)
    for s, (power, whom) in powers.items():
        if power == "porter":
            porter[s] = True
        elif power == "bb":
            target[s], lock[s] = whom, True
        elif power == "fragile":
            react[s] = engine.switch_action(whom)
        else:
            react[s] = engine.REACT_POWER
    return engine.cargo_action(value, porter), engine.rope_action(target, lock, n), react, powers


def _power(spec, rnd, who, s, names):
    if isinstance(spec, str) and spec in ("veteran", "porter", "musician", "engineer"):
        return spec, None
    if isinstance(spec, dict) and len(spec) == 1 and next(iter(spec)) in ("bb", "fragile"):
        power, target = next(iter(spec.items()))
        j = _name(target, names, rnd, who, f"{power} target")
        if j == s:
            _fail(f"the {power} power cannot target oneself", rnd, who, "section 5.5")
        return power, j
    _fail(
        f'power {short(spec)} is not one of veteran, porter, musician, engineer, {{"bb": NAME}}, {{"fragile": NAME}}',
        rnd,
        who,
        "section 5.5",
    )


def _check_powers(params, st, phase, powers, actions, rnd, names, roles):
    """Refuse a power the player's role, uses or situation do not allow."""
    for s, (power, _) in powers.items():
        if POWER_PHASE[power] != phase:
            continue
        who, role = names[s], roles[s]
        if role != power:
            _fail(
                f"uses the {power} power without that role (role: {role or 'none'})",
                rnd,
                who,
                "section 5.5: a power belongs to its role card",
            )
        if st.uses[0, s] <= 0:
            total = params.role_uses()[role_code(power)]
            _fail(
                f"uses the {power} power beyond its {total} use(s) per game",
                rnd,
                who,
                "section 5.5: powers are limited per game",
            )
        if not engine.legal_mask(params, st, s)[0, actions[s]]:
            _fail(f"the {power} power applies {APPLIES.get(power, 'here')}", rnd, who, "section 5.5")


def replay(record: dict, watch=None):
    names, roles = _players(check_record(record, StrandRecord).players)
    n = len(names)
    variant, params = _params(record, n)
    rounds = record["rounds"]
    if len(rounds) > params.rounds:
        _fail(f"the record has {len(rounds)} rounds, the game only {params.rounds}", len(rounds))
    rain = _rain(record, rounds, params)
    try:
        chance = engine.replay_chance(params, 1, n, roles=list(roles), rain_order=rain)
        st = engine.init(params, 1, n, chance)
    except GamelabError as exc:
        raise RecordError(str(exc)) from None
    ledger_rounds = []
    for i, rd in enumerate(rounds, 1):
        if st.done[0]:
            _fail("the game is already over (the track passed the last segment)", i)
        acts = _round_actions(rd, i, names, roles, n)
        st, entry = _play_round(params, st, chance, acts, i, names, roles, watch)
        ledger_rounds.append(entry)
    return _ledger(record, variant, params, names, roles, st, ledger_rounds)


def _rain(record, rounds, params):
    order = np.full((1, params.rounds), engine.NO_RAIN, np.int8)
    if not params.time_rain:
        return order
    for i, rd in enumerate(rounds):
        card = rd.get("rain")
        if card not in RAIN_CARDS:
            _fail(
                f"time rain needs the round's card as 'rain', one of {', '.join(RAIN_CARDS)}", i + 1, rule="variant F"
            )
        order[0, i] = RAIN_CARDS.index(card)
    return order


def _play_round(params, st, chance, acts, rnd, names, roles, watch=None):
    cargo, rope, react, powers = acts
    seg = int(st.seg[0])
    for phase, a in zip((engine.CARGO, engine.ROPE, engine.REACT), (cargo, rope, react)):
        _check_powers(params, st, phase, powers, a, rnd, names, roles)
        before, (st, ev) = st, engine.step(params, st, a[None], chance)
        if watch is not None:  # every decision shown (``rulebook.playtest.replay``)
            watch(before, a[None], ev, st, rnd - 1)
        if phase == engine.CARGO:
            shown = ev["cargo"][0].tolist()
    partner = ev["partner"][0]
    teams = [[names[s], names[int(partner[s])]] for s in range(len(names)) if s < partner[s]]
    result = int(ev["node_result"][0])
    node = None
    if result == engine.NODE_VOID:
        node = "void"
    elif result == engine.NODE_TAKEN:
        node = {
            "segment": seg + 1,
            "points": int(ev["node_value"][0]),
            "players": [names[s] for s in np.flatnonzero(ev["node_winner"][0])],
        }
    status = ["team" if ev["team"][0, s] else "stay" if ev["stay"][0, s] else "lone" for s in range(len(names))]
    entry = {
        "round": rnd,
        "cargo": shown,
        "ropes": [names[r] if r >= 0 else "stay" for r in st.rope[0]],
        "powers": {names[s]: p if t is None else {p: names[t]} for s, (p, t) in powers.items()},
        "teams": teams,
        "status": status,
        "scores": ev["gained"][0].tolist(),
        "totals": st.score[0].tolist(),
        "lone": st.lone[0].tolist(),
        "node": node,
        "segment": int(st.seg[0]) + 1,
    }
    if params.time_rain:
        entry["rain"] = RAIN_CARDS[int(st.rain_order[0, rnd - 1])]
    return st, entry


def _ledger(record, variant, params, names, roles, st, rounds):
    now = standing(engine.result(params, st), names)
    final = {
        "gross": st.score[0].tolist(),
        "lone": st.lone[0].tolist(),
        "total": now["scores"],
        "rank": now["rank"],
        "winners": now["winners"],
    }
    ledger = {
        "game": "strand",
        "variant": variant,
        "params": params.changed(),
        "players": [{"name": n, "role": r} for n, r in zip(names, roles)],
        "rounds": rounds,
        "final": final,
    }
    observed = {
        "totals": [r["totals"] for r in rounds],
        "scores": [r["scores"] for r in rounds],
        "lone": final["lone"],
        "final": final["total"],
        "segment": [r["segment"] for r in rounds],
    }
    return ledger, observed


def tables(ledger):
    """Round-by-round tables (cargo, ropes, scores, totals, markers), the
    rounds' teams and nodes, and the final score."""
    names = [p["name"] for p in ledger["players"]]
    rounds = ledger["rounds"]
    idx = pd.Index([r["round"] for r in rounds], name="round")

    def per_seat(key):
        return pd.DataFrame([r[key] for r in rounds], index=idx, columns=names)

    ropes = per_seat("ropes")
    for r, rd in zip(idx, rounds):
        for who, p in rd["powers"].items():
            ropes.loc[r, who] = (
                f"{ropes.loc[r, who]} [{p if isinstance(p, str) else next(iter(p)) + '→' + next(iter(p.values()))}]"
            )
    summary = pd.DataFrame(
        {
            "teams": [", ".join("+".join(t) for t in r["teams"]) or "-" for r in rounds],
            "node": [_node_text(r["node"]) for r in rounds],
            "segment after": [r["segment"] for r in rounds],
        },
        index=idx,
    )
    if any("rain" in r for r in rounds):
        summary.insert(0, "rain", [r.get("rain", "-") for r in rounds])
    f = ledger["final"]
    final = pd.DataFrame(
        {
            "role": [p["role"] or "-" for p in ledger["players"]],
            "gross": f["gross"],
            "lone": f["lone"],
            "final": f["total"],
            "rank": f["rank"],
        },
        index=names,
    )
    return [
        ("Cargo shown (after porter / rain)", per_seat("cargo")),
        ("Ropes [powers used]", ropes),
        ("Teams, node, track", summary),
        ("Round scores", per_seat("scores")),
        ("Totals (gross, cumulative)", per_seat("totals")),
        ("Lone markers", per_seat("lone")),
        (f"Final (winners: {', '.join(f['winners'])})", final),
    ]


def _node_text(node):
    if node is None:
        return "-"
    if node == "void":
        return "void (full tie)"
    return f"seg {node['segment']} ({node['points']} pts) -> {'+'.join(node['players'])}"
