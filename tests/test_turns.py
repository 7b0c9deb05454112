"""core.turns: the functions turn games share, on hand-built cases (Pig's types)."""

import numpy as np

from gamelab.core import turns
from gamelab.pig import engine, reference
from gamelab.pig.rules import PigParams
from gamelab.pig.state import HOLD, ROLL, Chance


def _state(over):
    st = engine.init(PigParams(), len(over), 2)
    st.over[:] = over
    return st


def test_is_legal_refuses_a_masked_or_unknown_action_and_accepts_anything_in_a_finished_game():
    legal = np.array([[True, False], [True, False], [False, True], [False, False]])
    st = _state([False, False, False, True])
    actions = np.array([ROLL, HOLD, 7, -1])
    assert turns.is_legal(None, st, legal, actions).tolist() == [True, False, False, True]
    assert turns.is_legal(None, st, legal, np.array([ROLL, ROLL, HOLD, HOLD])).tolist() == [True, True, True, True]


def test_done_is_a_copy_of_over():
    st = _state([True, False])
    done = turns.done(None, st)
    done[:] = False
    assert st.over.tolist() == [True, False]


def test_reference_side_reads_the_reference_game_as_the_engine_does():
    p = PigParams()
    chance = Chance(np.array([[4, 1, 6]], np.uint8))
    game = reference.start(p, 2, chance, 0)
    st = engine.init(p, 1, 2, chance)
    assert reference.observe(game) == {
        "score": [0, 0],
        "turn_total": 0,
        "player": 0,
        "turn": 0,
        "rolls": 0,
        "over": False,
    }
    assert reference.legal_mask(p, game) == engine.legal(p, st)[0].tolist() == [True, False]
    reference.advance(p, game, st, np.array([ROLL]), chance, 0)  # a 4: the turn total, now holdable
    assert reference.legal_mask(p, game) == [True, True]
    game.over = True
    reference.advance(p, game, st, np.array([HOLD]), chance, 0)  # a finished game ignores its action
    assert reference.observe(game)["score"] == [0, 0]
    assert reference.result(game)["rank"] == [1, 1]
