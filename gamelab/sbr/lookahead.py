"""STEEL BALL RUN lookahead agent (``docs/agents.md``).

Policy improvement over the greedy (:mod:`gamelab.sbr.greedy`): its
``lookahead_k`` best options, each played out by the engine (section 6.2
beats, 6.3 final points by the squares reached) with every rider greedy;
the best margin wins.
"""

from __future__ import annotations

import numpy as np

from . import engine
from .greedy import greedy_policy, greedy_values
from .knobs import knobs
from .options import option_index
from .state import Actions

GREEDY_TIE_BONUS = 1e-6  # added to the greedy's own option's margin: ties go to the greedy's choice


def lookahead_policy(params, state, rider, legal, rng=None) -> Actions:
    """Policy improvement over the greedy: its ``lookahead_k`` best options
    (ties and breaking as the greedy; the greedy's seal), each played out
    with every rider greedy to the end of the game (or ``lookahead_beats``
    beats after this one); the option with the best margin (own points minus
    the best opponent's, final points counted by the squares reached) is
    played, ties to the greedy's order.  Full information makes a play-out
    deterministic, so one play-out per option suffices."""
    kn = knobs(params)
    rider = np.asarray(rider, np.intp)
    base = greedy_policy(params, state, rider, legal)
    ga = np.nonzero(legal.acting)[0]
    if ga.size == 0 or kn.lookahead_k == 1:
        return base
    card_k, spin_k = engine.option_list(params.max_spin_per_beat)
    val = greedy_values(params, state, rider[ga], legal, games=ga)
    k = min(kn.lookahead_k, val.shape[1])
    top = np.argsort(-val, axis=1, kind="stable")[:, :k]  # (n, k)
    valid = np.take_along_axis(val, top, axis=1) > -np.inf
    top = np.where(valid, top, top[:, :1])
    S = params.max_spin_per_beat
    first = np.argmax(option_index(base.card[ga, None], base.spin[ga, None], S) == top, axis=1)  # the greedy's pick
    reps = np.repeat(ga, k)
    sim = state.take(reps)
    n = reps.size
    acts = Actions(
        card=card_k[top].reshape(-1),
        spin=spin_k[top].reshape(-1),
        seal=base.seal[reps],
        brk=base.brk[reps] & (top == top[:, :1]).reshape(-1),
        retrieve=np.zeros(n, np.intp),
    )
    slot = int(engine.slot_of(state, rider)[ga[0]])
    engine.act(params, sim, acts, slot, inplace=True)
    _play_out(params, sim, slot + 1, kn.lookahead_beats)
    margin = _margin(params, sim, rider[reps] // params.riders_per_player).reshape(-1, k)
    margin = np.where(valid, margin, -np.inf)
    margin[np.arange(ga.size), first] += GREEDY_TIE_BONUS
    choice = top[np.arange(ga.size), np.argmax(margin, axis=1)]
    card, spin = base.card.copy(), base.spin.copy()
    card[ga], spin[ga] = card_k[choice], spin_k[choice]
    brk = base.brk.copy()
    brk[ga] &= choice == top[np.arange(ga.size), first]
    return Actions(card=card, spin=spin, seal=base.seal, brk=brk, retrieve=base.retrieve)


def _play_out(params, st, slot, beats):
    """Finish the current beat from ``slot`` and play ``beats`` more (0: to
    the end), every rider greedy."""
    R = st.pos.shape[1]
    last = params.beats if beats == 0 else min(params.beats, st.beat + 1 + beats)
    while True:
        for s in range(slot, R):
            rider = st.order[:, s].astype(np.intp)
            lg = engine.legal_for(params, st, rider)
            if lg.acting.any():
                engine.act(params, st, greedy_policy(params, st, rider, lg), s, inplace=True)
        engine.end_beat(params, st, inplace=True)
        if st.beat >= last:
            return
        engine.begin_beat(params, st, inplace=True)
        slot = 0


def _margin(params, st, player):
    """Points so far plus final points by the squares reached, own minus the
    best opponent's."""
    res = engine.result(params, st)
    score = res["score"].astype(np.float64)
    if st.beat < params.beats:
        P, k = st.n_players, params.riders_per_player
        score = score + res["final_points"].reshape(-1, P, k).sum(axis=2)
    own = np.take_along_axis(score, player[:, None], axis=1)[:, 0]
    other = np.where(np.arange(score.shape[1])[None, :] == player[:, None], -np.inf, score).max(axis=1)
    return own - (other if score.shape[1] > 1 else 0.0)
