"""The batch engine against the one-game reference: same chance, same
actions, identical state after every step and identical results."""

import numpy as np
import pytest

from gamelab.strand import engine, reference
from gamelab.strand.rules import StrandParams

READINGS = [
    ({}, 4, "random"),
    ({"bb_lock": "yield", "node_award": "split", "fragile_sum": "half"}, 3, "random"),
    ({"stay_bonus": "one_round", "stay_returns_cargo": True, "half_rounding": "down"}, 5, "random"),
    ({"time_rain": True, "crate_to": "split", "musician_on_overweight": False}, 6, "random"),
    ({"time_rain": True, "clear_redraw": True, "rain_cards": ("acid", "static", "tower")}, 4, "random"),
    ({"teams": True}, 6, None),
]


def _same(st, ref, g):
    batch, one = reference.observe_batch(st, g), reference.observe(ref)
    for key in one:
        assert batch[key] == one[key], key


@pytest.mark.parametrize("changes,n_players,roles", READINGS)
def test_engine_matches_reference(changes, n_players, roles):
    params = StrandParams().replace(**changes)
    rng = np.random.default_rng(hash((n_players, len(changes))) % 2**32)
    G = 1000
    chance = engine.draw_chance(params, G, n_players, rng, roles=roles)
    st = engine.init(params, G, n_players, chance)
    refs = [reference.start(params, n_players, chance, g) for g in range(G)]
    for g in range(0, G, 50):
        _same(st, refs[g], g)
    legal = (reference.Game.cargo_legal, reference.Game.rope_legal, reference.Game.react_legal)
    steps = 0
    while not engine.done(params, st).all():
        mask = engine.legal(params, st)
        for g in range(0, G, 50):  # the masks agree with the reference's legal lists
            for s in range(n_players):
                assert np.flatnonzero(mask[g, s]).tolist() == sorted(legal[st.phase](refs[g], s))
        acts = engine.random_actions(params, st, mask, rng)
        assert engine.is_legal(params, st, mask, acts).all()
        before = st
        st, _ = engine.step(params, st, acts, chance)
        assert before is not st and before.phase != st.phase  # the state given is left as it was
        for g, ref in enumerate(refs):
            reference.advance(params, ref, before, acts, chance, g)
            _same(st, ref, g)
        steps += 1
    assert steps == 3 * params.rounds
    res = engine.result(params, st)
    for g, ref in enumerate(refs):
        assert ref.done
        one = reference.result(ref)
        assert res["score"][g].tolist() == one["score"]
        assert res["win"][g].tolist() == pytest.approx(one["win"])


def test_is_legal_refuses_an_illegal_action():
    params = StrandParams()
    rng = np.random.default_rng(3)
    chance = engine.draw_chance(params, 50, 4, rng, roles=None)
    st = engine.init(params, 50, 4, chance)
    mask = engine.legal(params, st)
    acts = engine.random_actions(params, st, mask, rng)
    assert engine.is_legal(params, st, mask, acts).all()
    bad = acts.copy()
    bad[7, 2] = engine.cargo_action(5, porter=True)  # no porter in the game: never legal
    bad[9, 0] = 99  # no such code
    assert np.flatnonzero(~engine.is_legal(params, st, mask, bad)).tolist() == [7, 9]


# step(inplace=True) returns the state it was given, updated as step(inplace=False) would: the
# conformance checks (step_leaves_its_input)
