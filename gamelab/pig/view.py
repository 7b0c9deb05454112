"""How a Pig game looks (``gamelab show``, the notebook viewer), as data: the die
just rolled, the banked scores with the turn total at stake on the mover's bar
and the target line, whose turn it is; each decision in words, and why the
hold-at and race agents chose it (their threshold).  Drawn by the shared layer
(:mod:`gamelab.report.viewer`); nothing here draws or plays."""

from __future__ import annotations

import numpy as np

from gamelab.core.scenes import Bars, Dice, Facts, View

from . import engine
from .agents import knobs, race_threshold
from .state import HOLD, NO_FACE


def scene(params, state, g, names, events):
    face = int(events["face"][g]) if events else NO_FACE
    bust = bool(events["bust"][g]) if events else False
    if events and events["hold"][g]:
        note = f"{names[int(events['player'][g])]} holds and banks {int(events['banked'][g])}"
    elif face != NO_FACE:
        note = "bust: the turn total is lost" if bust else f"+{face}: turn total {int(state.turn_total[g])}"
    else:
        note = "no roll yet"
    mover = int(state.player[g])
    at_stake = [0.0] * len(names)
    if not state.over[g]:
        at_stake[mover] = float(state.turn_total[g])
    won = [n for n, s in zip(names, state.score[g], strict=True) if s >= params.target]
    facts = (
        ("turns played", str(int(state.turn[g]))),
        ("to move", "the game is over" if state.over[g] else names[mover]),
        ("turn total", str(int(state.turn_total[g]))),
        ("winner", won[0] if won else "none yet"),
    )
    return (
        Dice("The die", (face,) if face != NO_FACE else (), note, bad=bust),
        Bars(
            f"Banked scores (target {params.target}; the lighter part: the turn total at stake)",
            tuple(names),
            tuple(float(s) for s in state.score[g]),
            target=float(params.target),
            extra=tuple(at_stake),
        ),
        Facts("The turn", facts),
    )


def say(params, before, actions, events, after, g, names):
    who = names[int(events["player"][g])]
    if events["hold"][g]:
        total = int(after.score[g, int(events["player"][g])])
        won = " and wins" if events["won"][g] else ""
        return f"{who} holds, banks {int(events['banked'][g])} (now {total}){won}"
    face = int(events["face"][g])
    if events["bust"][g]:
        return f"{who} rolls a {face}: bust, loses the turn total of {int(before.turn_total[g])}"
    return f"{who} rolls a {face}: turn total {int(after.turn_total[g])}"


def why(params, agent, state, actions, g, seat):
    """The threshold the hold-at and race agents compare the turn total with."""
    k = knobs(params)
    held = int(np.asarray(actions)[g]) == HOLD
    if engine.legal(params, state.take(np.array([g])))[0].sum() == 1:
        return "banking now reaches the target: the hold is forced, rule 6" if held else "the only legal move: a roll"
    total = int(state.turn_total[g])
    if agent == "hold_at_20":
        threshold = k.hold_at
        kind = f"holds at {threshold}"
    elif agent == "race":
        view = state.take(np.array([g]))
        threshold = int(race_threshold(k, view)[0])
        kind = f"keeps pace: holds at {threshold} now"
    else:
        return "a coin flip" if agent == "random" else ""
    reach = int(state.score[g, int(state.player[g])]) + total >= params.target
    if held and reach and total < threshold:
        return f"{kind}; banking now reaches the target"
    sign = "≥" if total >= threshold else "<"
    return f"{kind}; turn total {total} {sign} {threshold}"


def mover(state, g):
    return [int(state.player[g])]


def expect_unit(params, key, index):
    """``scores`` and ``banked`` are by turn; the rest are about the end."""
    return index[0] if key in ("scores", "banked") and index else None


VIEW = View(scene=scene, say=say, why=why, mover=mover, expect_unit=expect_unit, unit_word="turn")
