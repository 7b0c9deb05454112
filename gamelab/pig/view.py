"""How a Pig game looks (``gamelab show``, the notebook viewer), as data: the die just rolled,
the banked scores with the turn total at stake on the mover's bar and the target line, whose
turn it is; each decision in words.  Why an agent chose: :func:`gamelab.pig.agents.why`.
Drawn by the shared layer (:mod:`gamelab.report.viewer`); nothing here draws or plays."""

from __future__ import annotations

from gamelab.core import turns
from gamelab.core.scenes import Bars, Dice, Facts, View

from . import agents, record
from .state import NO_FACE


def scene(params, state, g, names, events):
    face = int(events["face"][g]) if events else NO_FACE
    bust = bool(events["bust"][g]) if events else False
    mover, over, total = int(state.player[g]), bool(state.over[g]), int(state.turn_total[g])
    scores = tuple(float(s) for s in state.score[g])
    at_stake = tuple(float(total) if s == mover and not over else 0.0 for s in range(len(names)))
    won = [n for n, s in zip(names, scores, strict=True) if s >= params.target]
    turn = [("turns played", str(int(state.turn[g]))), ("to move", "the game is over" if over else names[mover])]
    turn += [("turn total", str(total)), ("winner", won[0] if won else "none yet")]
    title = f"Banked scores (target {params.target}; the lighter part: the turn total at stake)"
    return (
        Dice("The die", (face,) if face != NO_FACE else (), say(params, None, None, events, state, g, names), bad=bust),
        Bars(title, tuple(names), scores, target=float(params.target), extra=at_stake),
        Facts("The turn", tuple(turn)),
    )


def say(params, before, actions, events, after, g, names):
    """The decision in words (the die's caption too: ``before`` may be None there)."""
    if not events:
        return "no roll yet"
    who, face = names[int(events["player"][g])], int(events["face"][g])
    if events["hold"][g]:
        total, won = int(after.score[g, int(events["player"][g])]), " and wins" if events["won"][g] else ""
        return f"{who} holds, banks {int(events['banked'][g])} (now {total}){won}"
    if events["bust"][g]:
        lost = f" of {int(before.turn_total[g])}" if before is not None else ""
        return f"{who} rolls a {face}: bust, loses the turn total{lost}"
    return f"{who} rolls a {face}: turn total {int(after.turn_total[g])}"


VIEW = View(scene=scene, say=say, why=agents.why, mover=turns.mover, expect_unit=record.expect_unit)
