"""The batch engine against the one-game reference: same chance, same
actions, identical state after every step and identical results."""
import numpy as np
import pytest

from gamelab.strand import agents, engine, reference
from gamelab.strand.rules import StrandParams, params_for_variant

READINGS = [
    ({}, 4, "random"),
    ({"bb_lock": "yield", "node_award": "split", "fragile_sum": "half"}, 3, "random"),
    ({"stay_bonus": "one_round", "stay_returns_cargo": True, "half_rounding": "down"}, 5, "random"),
    ({"time_rain": True, "crate_to": "split", "musician_on_overweight": False}, 6, "random"),
    ({"time_rain": True, "clear_redraw": True, "rain_cards": ("acid", "static", "tower")}, 4, "random"),
    ({"teams": True}, 6, None),
]


def _ref_games(params, st):
    games = []
    for g in range(st.n_games):
        ref = reference.Game(params, st.role[g].tolist(), st.hand[g].tolist(), st.deck[g].tolist(),
                             st.rain_order[g].tolist())
        ref.discard = st.discard[g].tolist()
        games.append(ref)
    return games


def _same(st, ref, g):
    assert st.hand[g].tolist() == ref.hands, "hand"
    assert st.deck[g].tolist() == ref.deck and st.discard[g].tolist() == ref.discard, "deck"
    for name in ("limit", "score", "lone", "uses", "cargo", "card", "rope", "partner"):
        assert getattr(st, name)[g].tolist() == getattr(ref, name if name != "limit" else "limit"), name
    assert (int(st.seg[g]), int(st.rnd[g]), int(st.rain[g]), st.phase) == (ref.seg, ref.rnd, ref.rain, ref.phase)


@pytest.mark.parametrize("changes,n_players,roles", READINGS)
def test_engine_matches_reference(changes, n_players, roles):
    params = StrandParams().replace(**changes)
    rng = np.random.default_rng(hash((n_players, len(changes))) % 2**32)
    G = 1000
    st = engine.init(params, G, n_players, rng, roles=roles)
    refs = _ref_games(params, st)
    legal = (lambda r, s: r.cargo_legal(s), lambda r, s: r.rope_legal(s), lambda r, s: r.react_legal(s))
    while not st.done.all():
        phase = st.phase
        masks = [engine.legal_mask(params, st, s) for s in range(n_players)]
        for g in range(0, G, 50):  # the masks agree with the reference's legal lists
            for s in range(n_players):
                assert np.flatnonzero(masks[s][g]).tolist() == sorted(legal[phase](refs[g], s))
        acts = np.stack([agents.random_policy(params, st, s, masks[s], rng) for s in range(n_players)], 1)
        chance = engine.draw_chance(params, st, rng)
        st, _ = engine.step(params, st, acts, chance)
        for g, ref in enumerate(refs):
            a = acts[g].tolist()
            if phase == engine.CARGO:
                ref.reveal(a)
            elif phase == engine.ROPE:
                ref.ropes(a)
            else:
                ref.settle(a, chance["draws"][g].tolist())
            _same(st, ref, g)
    res = engine.results(params, st)
    for g, ref in enumerate(refs):
        assert ref.done
        assert res["score"][g].tolist() == ref.final()
        assert res["win"][g].tolist() == pytest.approx(ref.win_shares())


def test_batch_equals_games_one_by_one():
    """A batch of N advanced together equals each game advanced alone."""
    params = params_for_variant("time_rain")
    rng = np.random.default_rng(7)
    G, P = 40, 5
    st = engine.init(params, G, P, rng, roles="random")
    singles = [_slice(st, g) for g in range(G)]
    while not st.done.all():
        acts = np.stack([agents.random_policy(params, st, s, engine.legal_mask(params, st, s), rng)
                         for s in range(P)], 1)
        chance = engine.draw_chance(params, st, rng)
        st, _ = engine.step(params, st, acts, chance)
        for g in range(G):
            one = {k: v[g:g + 1] for k, v in chance.items()}
            singles[g], _ = engine.step(params, singles[g], acts[g:g + 1], one)
            ref = _slice(st, g)
            for name in ("hand", "deck", "discard", "score", "lone", "seg", "limit", "uses", "partner"):
                assert np.array_equal(getattr(singles[g], name), getattr(ref, name)), name


def _slice(st, g):
    import dataclasses
    arrays = {f.name: getattr(st, f.name)[g:g + 1].copy() for f in dataclasses.fields(st)
              if isinstance(getattr(st, f.name), np.ndarray)}
    return dataclasses.replace(st, **arrays)
