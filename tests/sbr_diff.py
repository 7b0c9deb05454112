"""Drive the batch engine and the reference with the same chance and actions."""
import numpy as np

from gamelab.sbr import agents, engine
from gamelab.sbr.reference import Game


def ref_state(game: Game) -> dict:
    return dict(pos=game.pos, spin=game.spin, seals_left=game.seals_left, hand=game.hand,
                discard=game.discard, drawn=game.drawn, seal=game.seal, relic=game.relic,
                relic_pts=game.relic_pts, relic_n=game.relic_n, seg_points=game.seg_points,
                finish_beat=game.finish_beat, **game.stats)


def eng_state(st: engine.State, g: int) -> dict:
    d = {k: getattr(st, k)[g].tolist() for k in ("pos", "spin", "seals_left", "hand", "discard", "drawn",
                                                  "seal", "relic", "relic_pts", "relic_n", "seg_points",
                                                  "finish_beat")}
    d.update({k: v[g].tolist() for k, v in st.stats.items()})
    return d


def run(params, n_games, n_players, seed, check_every_step=True):
    rng = np.random.default_rng(seed)
    chance = engine.draw_chance(params, n_games, n_players, rng)
    st = engine.init(params, n_games, n_players, chance=chance)
    refs = [Game(params, n_players, chance.decks[g], chance.relics[g], int(chance.start[g]))
            for g in range(n_games)]
    R = st.pos.shape[1]
    for _ in range(params.beats):
        st = engine.begin_beat(params, st)
        for g, ref in enumerate(refs):
            racing = ref.order()
            assert st.order[g].tolist()[:len(racing)] == racing or \
                [x for x in st.order[g].tolist() if ref.pos[x] < ref.L] == racing
        for slot in range(R):
            rider = st.order[:, slot].astype(np.intp)
            lg = engine.legal(params, st, rider)
            a = agents.random_policy(params, st, rider, lg, rng)
            st, ev = engine.act(params, st, a, slot)
            for g in np.nonzero(ev["acted"])[0]:
                refs[g].act(int(rider[g]), int(a.card[g]), int(a.spin[g]), int(a.seal[g]),
                            bool(a.brk[g]), int(a.retrieve[g]))
            if check_every_step:
                for g, ref in enumerate(refs):
                    assert eng_state(st, g) == ref_state(ref), (g, st.beat, slot)
        st = engine.end_beat(params, st)
        for ref in refs:
            ref.end_beat()
    res = engine.result(params, st)
    for g, ref in enumerate(refs):
        assert eng_state(st, g) == ref_state(ref)
        rr = ref.result()
        assert res["score"][g].tolist() == rr["score"]
        assert np.allclose(res["win"][g], rr["win"])
        assert res["rank"][g].tolist() == rr["rank"]
    return res
