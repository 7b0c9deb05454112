"""Drive the batch engine and the reference with the same chance and actions,
through the contract: engine init / legal / step beside reference start /
advance, compared with reference observe / observe_batch."""

import numpy as np

from gamelab.sbr import engine, reference


def run(params, n_games, n_players, seed, check_every_step=True):
    rng = np.random.default_rng(seed)
    chance = engine.draw_chance(params, n_games, n_players, rng)
    st = engine.init(params, n_games, n_players, chance)
    refs = [reference.start(params, n_players, chance, g) for g in range(n_games)]
    steps = 0
    while not engine.done(params, st).all():
        if st.slot == 0:
            for g, ref in enumerate(refs):
                racing = ref.order()
                assert (
                    st.order[g].tolist()[: len(racing)] == racing
                    or [x for x in st.order[g].tolist() if ref.pos[x] < ref.L] == racing
                )
        lg = engine.legal(params, st)
        a = engine.random_actions(params, st, lg, rng)
        assert engine.is_legal(params, st, lg, a).all()
        before, kept = st, (st.slot, st.beat, st.pos.copy(), st.seal.copy())
        st, _ = engine.step(params, st, a, chance)
        assert st is not before and (before.slot, before.beat) == kept[:2]  # the given state is left alone
        assert np.array_equal(before.pos, kept[2]) and np.array_equal(before.seal, kept[3])
        for g, ref in enumerate(refs):
            reference.advance(params, ref, before, a, chance, g)
        if check_every_step:
            for g, ref in enumerate(refs):
                assert reference.observe_batch(st, g) == reference.observe(ref), (g, st.beat, before.slot)
        steps += 1
    assert steps == params.beats * st.pos.shape[1]
    res = engine.result(params, st)
    for g, ref in enumerate(refs):
        assert reference.observe_batch(st, g) == reference.observe(ref)
        rr = reference.result(ref)
        assert res["score"][g].tolist() == rr["score"]
        assert np.allclose(res["win"][g], rr["win"])
        assert res["rank"][g].tolist() == rr["rank"]
    return res
