"""Pig playtest records: validation, replay as a batch of one, the ledger.

A record (contract: ``docs/playtest-format.md``, Pig's section in
``docs/adding-a-game.md``) lists the turns in play order, each as the faces
rolled and whether the player held::

    {"game": "pig", "variant": "standard", "params": {}, "players": ["Ann", "Ben"],
     "turns": [{"player": "Ann", "rolls": [4, 6, 3], "hold": true},
               {"player": "Ben", "rolls": [5, 1]}],
     "expect": {"scores": [[13, 0], [13, 0]], "winner": null}}

``player`` is optional (the rules decide whose turn it is; when written, it
must match).  The dice of the record become the batch's chance and every
decision goes through the engine's legal mask, so a record that breaks a
rule is refused with a :class:`RecordError` naming the turn, the player and
the rule before anything is printed.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import pandas as pd
from pydantic import Field, StrictBool, StrictInt, StrictStr

from gamelab.core.errors import short
from gamelab.core.records import check_names, check_record, in_seat_order, record_params, refusal, standing
from gamelab.core.schemas import MoveEntry, Names, RecordBase

from . import engine
from .rules import PigParams, check_players, params_for_variant
from .state import HOLD, ROLL, Chance


class PigRecord(RecordBase):
    """The structure of a Pig record; the rules are checked by :func:`replay`."""

    players: Names
    turns: Annotated[list[dict[StrictStr, Any]], Field(min_length=1)]


class PigTurn(MoveEntry):
    """The structure of one turn: the faces rolled (which faces are on the
    die is rule 2) and whether the player held after the last roll."""

    rolls: list[StrictInt] = Field(default_factory=list, description="rule 2: a turn is rolls of the die")
    hold: StrictBool = False


_fail = refusal("turn")


def _turns(record, params, names) -> list:
    """The turns as (who, rolls, hold), in seat order (rule 1) and rolling
    faces on the die (rule 2); the other rules are checked in replay."""
    out = []
    turns = in_seat_order(record["turns"], names, PigTurn, where="turn", rule="rule 1: turns pass in seat order")
    for i, who, turn in turns:
        if not turn.rolls:
            _fail("'rolls' must be a non-empty list of faces", i, who, "rule 2: a turn starts with a roll")
        for face in turn.rolls:
            if not 1 <= face <= params.die_faces:
                _fail(f"face {short(face)} is not on the die (1-{params.die_faces})", i, who, "rule 2")
        out.append((who, turn.rolls, turn.hold))
    return out


def _play_turn(params, st, chance, rolls, hold, i, who, watch=None):
    """Drive the engine through one turn of the record; the turn's ledger
    entry (``at_stake``: the turn total banked by the hold, or lost by the bust)."""
    for k, face in enumerate(rolls):
        at_stake = int(st.turn_total[0])  # what a bust on this roll loses
        legal = engine.legal(params, st)[0]
        if not legal[ROLL]:
            _fail(f"roll {k + 1} comes after the turn total reached the target", i, who, "rule 6: the player must hold")
        before, (st, ev) = st, engine.step(params, st, np.array([ROLL]), chance)
        if watch is not None:
            watch(before, np.array([ROLL]), ev, st, i - 1)
        if ev["bust"][0] and (k + 1 < len(rolls) or hold):
            what = "more rolls follow" if k + 1 < len(rolls) else "the record holds"
            _fail(f"roll {k + 1} is a bust ({face}) but {what}", i, who, "rule 3: a bust ends the turn")
    busted = bool(ev["bust"][0])
    if not busted:
        at_stake = int(st.turn_total[0])
        if not hold:
            _fail(
                "the turn ends with neither a bust nor a hold", i, who, "rules 3 and 5: a turn ends on a bust or a hold"
            )
        if not engine.legal(params, st)[0, HOLD]:
            _fail(
                f"holds a turn total of {at_stake}, below hold_minimum = {params.hold_minimum}",
                i,
                who,
                "rule 5: a hold needs at least hold_minimum",
            )
        before, (st, ev) = st, engine.step(params, st, np.array([HOLD]), chance)
        if watch is not None:
            watch(before, np.array([HOLD]), ev, st, i - 1)
    entry = {
        "turn": i,
        "player": who,
        "rolls": list(rolls),
        "hold": not busted,
        "at_stake": at_stake,
        "banked": int(ev["banked"][0]),
        "scores": st.score[0].tolist(),
    }
    return st, entry


def replay(record: dict, watch=None):
    """The record's ledger and the values its ``expect`` may claim (``watch``: every
    decision shown to it, ``rulebook.playtest.replay``)."""
    names = check_record(record, PigRecord).players
    check_names(names)
    variant, params = record_params(
        record, PigParams, params_for_variant, check_players=check_players, n_players=len(names)
    )
    turns = _turns(record, params, names)
    faces = np.array([f for _, rolls, _ in turns for f in rolls], np.uint8)[None]
    chance = Chance(faces)
    st = engine.init(params, 1, len(names), chance)
    ledger_turns = []
    for i, (who, rolls, hold) in enumerate(turns, 1):
        if st.over[0]:
            _fail("the game is already over", i, who, "rules 7 and 8: a win or the turn cap ends the game")
        st, entry = _play_turn(params, st, chance, rolls, hold, i, who, watch)
        ledger_turns.append(entry)
    return _ledger(variant, params, names, st, ledger_turns)


def _ledger(variant, params, names, st, turns):
    now = standing(engine.result(params, st), names)
    over = bool(st.over[0])
    winners = now["winners"] if over else []
    ended = "not finished" if not over else "target" if max(now["scores"]) >= params.target else "turn cap"
    final = {"scores": now["scores"], "rank": now["rank"], "winners": winners, "over": over, "ended_by": ended}
    ledger = {
        "game": "pig",
        "variant": variant,
        "params": params.changed(),
        "players": list(names),
        "turns": turns,
        "final": final,
    }
    observed = {
        "scores": [t["scores"] for t in turns],
        "banked": [t["banked"] for t in turns],
        "final": final["scores"],
        "rank": final["rank"],
        "winners": winners,
        "winner": winners[0] if len(winners) == 1 else None,
    }
    return ledger, observed


def expect_unit(params, key, index):
    """The turn an ``expect`` claim is about (``View.expect_unit``): ``scores`` and ``banked``
    are by turn; the rest are about the end."""
    return index[0] if key in ("scores", "banked") and index else None


def tables(ledger) -> list:
    """The turns (rolls, outcome, scores after) and the final standing."""
    names = ledger["players"]
    turns = ledger["turns"]
    idx = pd.Index([t["turn"] for t in turns], name="turn")
    moves = pd.DataFrame(
        {
            "player": [t["player"] for t in turns],
            "rolls": [" ".join(map(str, t["rolls"])) for t in turns],
            "outcome": [f"hold {t['banked']}" if t["hold"] else f"bust (lost {t['at_stake']})" for t in turns],
        },
        index=idx,
    )
    scores = pd.DataFrame([t["scores"] for t in turns], index=idx, columns=names)
    f = ledger["final"]
    final = pd.DataFrame({"score": f["scores"], "rank": f["rank"]}, index=names)
    title = f"Final (ended by {f['ended_by']}; winners: {', '.join(f['winners']) or '-'})"
    return [("Turns", moves), ("Banked scores after each turn", scores), (title, final)]
