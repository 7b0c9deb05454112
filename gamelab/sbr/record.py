"""STEEL BALL RUN playtest records (docs/playtest-format.md, SBR part).

A record gives the cards played, not the hands: each rider starts holding his
whole deck (four of each value) with nothing left to draw, so the engine's own
hand counts refuse a fifth card of a value (a skull's card back included) and
the replay is an ordinary batch of one.  Every action is checked against the
engine's legal masks before it is played; the first broken rule raises a
:class:`RecordError` naming the beat, the player and the rule.

Dual riders (9.5) are named ``NAME/1`` and ``NAME/2`` in ``beats``; per-seat
lists are then per rider, except ``total`` (per player).  Optional ``start``
names the start player (section 6.1; beat 1's ties, and every seat-order tie
under ``params: {seat_order: from_start}``); by default seat 1 starts.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import pandas as pd
from pydantic import Field, StrictStr

from gamelab.core.errors import ParamError, RecordError, short
from gamelab.core.records import check_names, check_record, record_params, standing
from gamelab.core.schemas import Name, Names, RecordBase

from . import engine
from .rules import N_VALUES, RELIC_TYPES, SKULL, SbrParams, check_players, params_for_variant
from .state import UNKNOWN, Actions

ACTION_KEYS = {"card", "spin", "seal", "break", "retrieve"}


class SbrRecord(RecordBase):
    """The structure of an SBR record (``docs/playtest-format.md``); the
    rules are checked by :func:`replay`."""

    players: Names
    start: Name | None = None
    relics: dict[Any, Any] = {}
    beats: Annotated[list[dict[StrictStr, Any]], Field(min_length=1)]


def _names(players, p):
    """The players and their riders (9.5: ``NAME/1``, ``NAME/2``), their
    names and number checked (section 2)."""
    check_names(players)
    try:
        check_players(p, len(players))
    except ParamError:
        raise RecordError(
            f"{len(players)} players: this game takes {p.min_players}-{p.max_players} (section 2)"
        ) from None
    if p.riders_per_player == 1:
        return players, players
    riders = [f"{n}/{k + 1}" for n in players for k in range(p.riders_per_player)]
    check_names(riders, what="riders (9.5: NAME/1, NAME/2)")
    return players, riders


def _square(key, squares) -> int:
    """A relic square written as a key: a plain decimal number (7, "7", "07")."""
    text = key.strip() if isinstance(key, str) else key
    if isinstance(text, bool) or not (isinstance(text, int) or (text.isascii() and text.isdigit())):
        raise RecordError(f"relics: {short(key)} is not a square number")
    sq = int(text)
    if sq not in squares:
        raise RecordError(f"relics: square {sq} is not a relic square (section 4.3: {squares})")
    return sq


def _relics(record, p):
    """The relic layout; squares the record leaves out are UNKNOWN."""
    squares = p.relic_squares()
    layout = np.full(p.length + 1, -1, np.int8)
    layout[squares] = UNKNOWN
    given = record.get("relics", {})
    if not isinstance(given, dict):
        raise RecordError("'relics' must map square numbers to eye, heart, spine or skull")
    counts = [0] * 4
    keys: dict[int, Any] = {}
    for key, kind in given.items():
        sq = _square(key, squares)
        if sq in keys:
            raise RecordError(
                f"relics: {short(keys[sq])} and {short(key)} are the same square {sq}",
                rule="section 4.3: one relic per square",
            )
        keys[sq] = key
        if not isinstance(kind, str) or kind not in RELIC_TYPES:
            raise RecordError(f"relics: square {sq} has {short(kind)}: expected one of {', '.join(RELIC_TYPES)}")
        layout[sq] = RELIC_TYPES.index(kind)
        counts[layout[sq]] += 1
    for k, n in enumerate(counts):
        if n > p.relic_counts[k]:
            raise RecordError(f"relics: {n} {RELIC_TYPES[k]} relics, the game has {p.relic_counts[k]} (section 5.4)")
    return layout


def _start_state(record, p, players, riders):
    R = len(riders)
    base = np.repeat(np.arange(1, N_VALUES + 1, dtype=np.int8), p.card_counts)
    start = 0
    if "start" in record:
        if record["start"] not in players:
            raise RecordError(f"start: {short(record['start'])} is not in 'players'")
        start = players.index(record["start"]) * p.riders_per_player
    chance = engine.Chance(
        np.broadcast_to(base, (1, R, base.size)).copy(), _relics(record, p)[None, :], np.array([start], np.int8)
    )
    st = engine.init(p, 1, len(players), chance)  # beat 1's order: the hands do not enter it
    st.hand[:] = np.array(p.card_counts, np.int8)  # the whole deck in hand, nothing to draw
    st.drawn[:] = base.size
    return st


def _action(p, st, entry, beat, name, r):
    """Check one rider's action against the rules; the engine's Actions."""

    def err(msg, rule):
        return RecordError(msg, where=f"beat {beat}", player=name, rule=rule)

    if not isinstance(entry, dict) or "card" not in entry:
        raise err("an action needs a 'card'", "record format")
    extra = set(entry) - ACTION_KEYS
    if extra:
        raise err(f"unknown action keys {short(sorted(extra))}", "record format: card, spin, seal, break, retrieve")
    # an empty string, list or null is a mistake, not "absent": a key left out is absent
    card, spin, seal = entry["card"], entry.get("spin", 0), entry.get("seal", 0)
    brk, retrieve = entry.get("break", False), entry.get("retrieve", 0)
    if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= N_VALUES:
        raise err(f"card {short(card)} is not a drive card", "section 5.1: drive cards are 1-5")
    lg = engine.legal_for(p, st, np.array([r]))
    if not lg.card[0, card - 1]:
        raise err(
            f"card {card}: no {card} left to play (card {p.card_counts[card - 1] + 1 - st.hand[0, r, card - 1]} "
            f"of that value)",
            f"section 5.1: {p.card_counts[card - 1]} cards of each value per deck",
        )
    if not isinstance(spin, int) or isinstance(spin, bool) or spin < 0:
        raise err(f"spin {short(spin)} is not a number of spin points", "section 5.2")
    if spin > p.max_spin_per_beat:
        raise err(f"spends {spin} spin", f"section 5.2: at most {p.max_spin_per_beat} spin per beat")
    if spin > st.spin[0, r]:
        raise err(f"spends {spin} spin but holds {st.spin[0, r]}", "section 5.2: spin not held")
    if not isinstance(seal, int) or isinstance(seal, bool):
        raise err(f"seal {short(seal)} is not a distance (0 or leave it out: no seal)", "section 5.3")
    if seal:
        _check_seal(p, st, lg, seal, r, err)
    if not isinstance(brk, bool):
        raise err(f"break {short(brk)} is not true or false", "record format")
    if not isinstance(retrieve, int) or isinstance(retrieve, bool) or not 0 <= retrieve <= N_VALUES:
        raise err(
            f"retrieve {short(retrieve)} is not a card value (0 or leave it out: none)",
            "section 5.4: a skull takes back a card 1-5",
        )
    return Actions(*(np.array([v]) for v in (card, spin, seal, brk, retrieve)))


def _check_seal(p, st, lg, seal, r, err):
    where = "ahead" if p.seal_direction == "ahead" else "behind"
    rule = f"section 5.3: a seal goes 1-{p.seal_range} squares {where}, on an empty square"
    if not 1 <= seal <= p.seal_range:
        raise err(f"seal {seal} squares {where}", rule)
    if st.seals_left[0, r] <= 0:
        raise err(f"places seal number {p.seals_per_player + 1}", f"section 5.3: {p.seals_per_player} seals per player")
    sq = int(st.pos[0, r]) + (seal if where == "ahead" else -seal)
    if not 1 <= sq < p.length:
        raise err(f"seal on square {sq}, off the track", rule)
    if not lg.seal[0, seal]:
        what = "a seal" if st.seal[0, sq] >= 0 else "a rider"
        raise err(f"seal on square {sq}, which already holds {what}", rule)


def replay(record: dict, watch=None):
    players = check_record(record, SbrRecord).players
    _, p = record_params(record, SbrParams, params_for_variant)
    players, riders = _names(players, p)
    st = _start_state(record, p, players, riders)
    beats = record["beats"]
    if len(beats) > p.beats:
        raise RecordError(f"{len(beats)} beats recorded, the game has {p.beats} (section 6.2)")
    ledger_beats = []
    for i, beat in enumerate(beats, start=1):
        ledger_beats.append(_replay_beat(p, st, beat, i, riders, watch))
        before = st.copy() if watch is not None else None
        _next_beat(p, st)
        if watch is not None:  # the beat's end (segment scoring) as a step of its own
            watch(before, None, {"beat_over": True}, st.copy(), i - 1)
    while st.beat < p.beats and (st.pos[0] >= p.length).all():  # everyone home: nothing left to act
        _next_beat(p, st)
    return _ledger(record, p, st, players, riders, ledger_beats)


def _next_beat(p, st):
    """End the beat (segment scoring, 6.2) and begin the next unless the game is over."""
    engine.end_beat(p, st, inplace=True)
    if st.beat < p.beats:
        engine.begin_beat(p, st, inplace=True)


def _replay_beat(p, st, beat, i, riders, watch=None):
    """Play one recorded beat (its order set by :func:`engine.begin_beat`)."""
    if not isinstance(beat, dict):
        raise RecordError("a beat must map players to actions", where=f"beat {i}")
    for name in beat:
        if name not in riders:
            raise RecordError(f"{short(name)} is not in 'players'", where=f"beat {i}")
    order, moves = [], []
    for slot in range(len(riders)):
        r = int(st.order[0, slot])
        name = riders[r]
        if st.pos[0, r] >= p.length:
            if name in beat:
                raise RecordError(
                    "acts after reaching the finish",
                    where=f"beat {i}",
                    player=name,
                    rule="FAQ Q13: a finished rider no longer acts",
                )
            continue
        if name not in beat:
            if engine.legal_for(p, st, np.array([r])).card[0].any():
                raise RecordError(
                    "does not act, though still racing",
                    where=f"beat {i}",
                    player=name,
                    rule="section 6.2: playing a card is compulsory",
                )
            continue
        acts = _action(p, st, beat[name], i, name, r)
        start, disc = int(st.pos[0, r]), st.discard[0, r].copy()
        before = st.copy() if watch is not None else None
        _, ev = engine.act(p, st, acts, slot, inplace=True)
        if watch is not None:  # every decision shown (``rulebook.playtest.replay``)
            watch(before, acts, ev, st.copy(), i - 1)
        _check_relic(p, ev, acts, disc, i, name)
        order.append(name)
        moves.append(
            dict(
                player=name,
                card=int(acts.card[0]),
                spin=int(acts.spin[0]),
                seal=int(acts.seal[0]) or None,
                start=start,
                stop=int(ev["stop"][0]),
                relic=RELIC_TYPES[ev["relic"][0]] if ev["relic"][0] >= 0 else None,
                end=int(st.pos[0, r]),
            )
        )
    return dict(
        beat=i,
        order=order,
        moves=moves,
        positions=st.pos[0].tolist(),
        spin=st.spin[0].tolist(),
        relic_points=st.relic_pts[0].tolist(),
    )


def _check_relic(p, ev, acts, disc, i, name):
    kind, stop = int(ev["relic"][0]), int(ev["stop"][0])
    if kind == UNKNOWN:
        raise RecordError(
            f"stops on relic square {stop}, but 'relics' does not say which relic lies there",
            where=f"beat {i}",
            player=name,
            rule="section 5.4: a relic is revealed on an exact stop",
        )
    want = int(acts.retrieve[0])
    if want and kind != SKULL:
        raise RecordError(
            f"retrieves a {want} without revealing a skull",
            where=f"beat {i}",
            player=name,
            rule="section 5.4: only a skull takes a card back",
        )
    if want and kind == SKULL:
        held = disc.copy()
        if p.skull_takes_current:
            held[acts.card[0] - 1] += 1
        if held[want - 1] <= 0:
            raise RecordError(
                f"retrieves a {want}, but no {want} is in the discard",
                where=f"beat {i}",
                player=name,
                rule="section 5.4: the skull takes a card from the discard",
            )


def _ledger(record, p, st, players, riders, beats):
    ends = p.segment_ends()
    n = len([b for b in ends if b <= st.beat])
    segs = []
    for k in range(n):
        segs.append(
            dict(segment=k + 1, beat=ends[k], distance=st.seg_dist[0, k].tolist(), points=st.seg_pts[0, k].tolist())
        )
    complete = st.beat == p.beats
    res = engine.result(p, st)
    now = standing(res, players)  # per player (a dual rider's two riders score as one)
    final = dict(
        complete=complete,
        position=st.pos[0].tolist(),
        segment_points=st.seg_points[0].tolist(),
        relic_points=st.relic_pts[0].tolist(),
        final_points=res["final_points"][0].tolist() if complete else None,
        total=now["scores"] if complete else None,
        winners=now["winners"] if complete else None,
    )
    seg_totals = _segment_totals(st, beats, ends, n)
    ledger = dict(
        game="sbr",
        variant=record.get("variant", "standard"),
        params=p.changed(),
        players=players,
        riders=riders,
        beats=beats,
        segments=segs,
        final=final,
    )
    observed = dict(
        positions=[b["positions"] for b in beats],
        spin=[b["spin"] for b in beats],
        segment_points=[s["points"] for s in segs],
        segment_totals=seg_totals,
        relic_points=final["relic_points"],
        final_points=final["final_points"],
        total=final["total"],
    )
    return ledger, observed


def _segment_totals(st, beats, ends, n):
    """Running score (segment points + relic points so far) at each segment end."""
    by_beat = {b["beat"]: np.array(b["relic_points"]) for b in beats}
    seg = np.cumsum(st.seg_pts[0, :n], axis=0)
    later = st.relic_pts[0]  # beats played out with nobody left to act
    return [(seg[k] + by_beat.get(ends[k], later)).tolist() for k in range(n)]


def tables(ledger) -> list:
    riders = ledger["riders"]
    moves = pd.DataFrame([dict(beat=b["beat"], **m) for b in ledger["beats"] for m in b["moves"]])
    moves = moves.astype(object).where(moves.notna(), "")
    pos = pd.DataFrame(
        [b["positions"] for b in ledger["beats"]],
        columns=riders,
        index=pd.Index([b["beat"] for b in ledger["beats"]], name="beat"),
    )
    spin = pd.DataFrame([b["spin"] for b in ledger["beats"]], columns=riders, index=pos.index)
    out = [
        ("Moves (acting order within each beat)", moves),
        ("Positions after each beat", pos),
        ("Spin after each beat", spin),
    ]
    if ledger["segments"]:
        seg = pd.DataFrame(
            [dict(zip(riders, s["distance"])) for s in ledger["segments"]],
            index=pd.Index([s["segment"] for s in ledger["segments"]], name="segment"),
        )
        pts = pd.DataFrame([dict(zip(riders, s["points"])) for s in ledger["segments"]], index=seg.index)
        out += [("Segment distances", seg), ("Segment points", pts)]
    f = ledger["final"]
    rows = {k: f[k] for k in ("position", "segment_points", "relic_points", "final_points") if f[k] is not None}
    out.append(
        ("Final" if f["complete"] else "After the recorded beats (game not complete)", pd.DataFrame(rows, index=riders))
    )
    if f["complete"]:
        out.append(("Totals", pd.DataFrame({"total": f["total"]}, index=ledger["players"])))
    return out
