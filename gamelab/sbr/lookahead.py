"""STEEL BALL RUN lookahead agents (``docs/agents.md``).

Policy improvement over the greedy (:mod:`gamelab.sbr.greedy`): its
``lookahead_k`` best options, each played out by the engine (section 6.2
beats, 6.3 final points by the squares reached) with every rider greedy;
the best margin wins (:func:`lookahead_policy`).  :func:`deep_policy` is the
same search with every play-out rider playing as the lookahead for the
next beat (a stronger rung of the skill ladder).  :func:`search` is the
search itself; the play-outs of all games and options of one decision run
as one batch through the engine, and a greedy play-out whose margin the
memo already knows (:mod:`gamelab.sbr.memo`) is not played again.
"""

from __future__ import annotations

import numpy as np

from . import engine, kernel
from .greedy import greedy_policy, greedy_values
from .kernel import GREEDY_TIE_BONUS  # added to the greedy's own option's margin: ties go to its choice
from .knobs import knobs
from .memo import memo_for, state_keys
from .options import option_index
from .state import Actions

MEMO_BEATS = 1  # beats after this one in which a play-out notes the searching rider's states (more cost more)


def lookahead_policy(params, state, rider, legal, rng=None) -> Actions:
    """Policy improvement over the greedy: its ``lookahead_k`` best options
    (ties and breaking as the greedy; the greedy's seal), each played out
    with every rider greedy to the end of the game (or ``lookahead_beats``
    beats after this one); the option with the best margin (own points minus
    the best opponent's, final points counted by the squares reached) is
    played, ties to the greedy's order.  Full information makes a play-out
    deterministic, so one play-out per option suffices."""
    kn = knobs(params)
    return search(params, state, rider, legal, kn.lookahead_k, kn.lookahead_beats)


#: the skill trace's budgets (``lookahead_beats``, doubling: the play-outs' depth; ``GAME.skill.budgets``)
BUDGETS = (1, 2, 4, 8, 16)


def lookahead_at(beats: int):
    """The lookahead whose play-outs stop ``beats`` beats after this one, on
    its own seat whatever ``lookahead_beats`` says (the agent ``lookahead@beats``:
    levels of the skill trace meet at one table)."""

    def policy(params, state, rider, legal, rng=None) -> Actions:
        return search(params, state, rider, legal, knobs(params).lookahead_k, beats)

    policy.__name__ = policy.__qualname__ = f"lookahead_at_{beats}"
    return policy


BUDGETED = {f"lookahead@{b}": lookahead_at(b) for b in BUDGETS}


def deep_policy(params, state, rider, legal, rng=None) -> Actions:
    """The lookahead with better-informed play-outs: the greedy's ``deep_k``
    best options, each played out to the end with every rider (the
    searching one too) playing as the lookahead agent for the rest of this
    beat and the next ``deep_reply_beats`` beats, greedy after; best margin
    wins, ties to the greedy's order."""
    kn = knobs(params)
    return search(params, state, rider, legal, kn.deep_k, 0, kn.deep_reply_beats)


def search(params, state, rider, legal, k: int, beats: int, reply: int | None = None) -> Actions:
    """The greedy's ``k`` best options of each acting game, each played out
    to the end (``beats`` = 0) or ``beats`` beats after this one, every
    rider greedy, except that with ``reply`` (not None) they play as the
    lookahead agent for the rest of this beat and ``reply`` beats more; the
    best margin is played (see :func:`lookahead_policy`)."""
    rider = np.asarray(rider, np.intp)
    if kernel.supported(params, state.pos.shape[1]) and (k, beats, reply) in _compiled_agents(params):
        return _compiled_search(params, state, rider, legal, _compiled_agents(params)[k, beats, reply])
    base = greedy_policy(params, state, rider, legal)
    ga = np.nonzero(legal.acting)[0]
    if ga.size == 0 or k == 1:
        return base
    card_k, spin_k = engine.option_list(params.max_spin_per_beat)
    val = greedy_values(params, state, rider[ga], legal, games=ga)
    k = min(k, val.shape[1])
    top = np.argsort(-val, axis=1, kind="stable")[:, :k]  # (n, k)
    valid = np.take_along_axis(val, top, axis=1) > -np.inf
    top = np.where(valid, top, top[:, :1])
    is_pick = option_index(base.card[ga, None], base.spin[ga, None], params.max_spin_per_beat) == top
    first = np.argmax(is_pick, axis=1)  # the greedy's pick
    slot = int(engine.slot_of(state, rider)[ga[0]])
    margin, notes = _margins(params, state, rider, ga, top, valid, first, base, slot, beats, reply)
    rows = np.arange(ga.size)
    margin[rows, first] += GREEDY_TIE_BONUS
    col = np.argmax(margin, axis=1)
    _remember(notes, col)
    choice = top[rows, col]
    card, spin = base.card.copy(), base.spin.copy()
    card[ga], spin[ga] = card_k[choice], spin_k[choice]
    brk = base.brk.copy()
    brk[ga] &= choice == top[rows, first]
    return Actions(card=card, spin=spin, seal=base.seal, brk=brk, retrieve=base.retrieve)


def _compiled_agents(params) -> dict:
    """{(k, beats, reply): agent name} of the searches the kernel plays."""
    kn = knobs(params)
    return {(kn.lookahead_k, kn.lookahead_beats, None): "lookahead", (kn.deep_k, 0, kn.deep_reply_beats): "deep"}


def _compiled_search(params, state, rider, legal, agent: str) -> Actions:
    """:func:`search` by the compiled kernel (:func:`kernel.search_actions`:
    the same decisions, held to this module by tests/test_sbr_kernel.py)."""
    card, spin, seal, brk = kernel.search_actions(params, state, rider, legal.acting, agent)
    return Actions(card=card, spin=spin, seal=seal, brk=brk, retrieve=np.zeros(state.n_games, np.intp))


def _margins(params, state, rider, ga, top, valid, first, base, slot, beats, reply=None):
    """(n, k) the margin of each option's play-out (-inf for the options
    that are not legal): the legal ones played as one batch from ``slot``,
    except the greedy's own move where the memo knows its continuation;
    and the memo keys the play-outs noted (for :func:`_remember`)."""
    card_k, spin_k = engine.option_list(params.max_spin_per_beat)
    n, k = top.shape
    last = horizon(params, state.beat, beats)
    margin = np.full((n, k), -np.inf)
    play = valid.copy()
    memo = memo_for(params, last) if beats == 0 and reply is None else None
    if memo is not None:
        # the greedy's own move, as the greedy plays it (its break only if it is also the top option)
        same = (top[np.arange(n), first] == option_index(base.card[ga], base.spin[ga], params.max_spin_per_beat)) & (
            (first == 0) | ~base.brk[ga]
        )
        known = [memo.get(key) if ok else None for key, ok in zip(state_keys(state, ga, rider[ga], slot), same)]
        hit = np.array([m is not None for m in known], bool)
        margin[hit, first[hit]] = [m for m in known if m is not None]
        play[hit, first[hit]] = False
    gi, oi = np.nonzero(play)
    reps = ga[gi]
    sim = state.take(reps)
    opt = top[gi, oi]
    acts = Actions(
        card=card_k[opt],
        spin=spin_k[opt],
        seal=base.seal[reps],
        brk=base.brk[reps] & (opt == top[gi, 0]),
        retrieve=np.zeros(reps.size, np.intp),
    )
    engine.act(params, sim, acts, slot, inplace=True)
    watch = rider[reps] if memo is not None and state.beat + 1 < last else None
    seen = _play_out(params, sim, slot + 1, last, watch, 0 if reply is None else state.beat + 1 + reply)
    got = _margin(params, sim, rider[reps] // params.riders_per_player)
    margin[gi, oi] = got
    return margin, (memo, gi, oi, seen, got)


def _remember(notes, col):
    """Put into the memo the keys noted by the play-outs of the chosen
    options (``col`` (n,): each game's chosen column): the real game can
    only reach those states."""
    memo, gi, oi, seen, got = notes
    for rows, keys in seen:
        keep = np.flatnonzero(oi[rows] == col[gi[rows]])
        memo.put([keys[i] for i in keep], got[rows[keep]])


def horizon(params, beat: int, beats: int) -> int:
    """The beat count a play-out from beat ``beat`` (0-based) stops at: the
    game's end (``beats`` = 0) or ``beats`` beats after this one."""
    return params.beats if beats == 0 else min(params.beats, beat + 1 + beats)


def _rider_policy(params, st, rider, lg, until):
    """A play-out rider: the lookahead agent before beat ``until``, the greedy after."""
    if st.beat < until:
        return lookahead_policy(params, st, rider, lg)
    return greedy_policy(params, st, rider, lg)


def _play_out(params, st, slot, last, watch=None, until=0):
    """Finish the current beat from ``slot`` and play on until ``last``
    beats are over, every rider greedy (the lookahead agent before beat
    ``until``).  ``watch`` (G,): the searching rider of each game; where it
    comes to decide in the next ``MEMO_BEATS`` beats, its state's memo key
    is noted: returns ``[(rows, keys)]``."""
    R = st.pos.shape[1]
    seen = []
    next_beat = st.beat + 1
    while True:
        for s in range(slot, R):
            rider = st.order[:, s].astype(np.intp)
            lg = engine.legal_for(params, st, rider)
            if watch is not None and next_beat <= st.beat < next_beat + MEMO_BEATS:
                rows = np.flatnonzero(lg.acting & (rider == watch))
                if rows.size:
                    seen.append((rows, state_keys(st, rows, rider[rows], s)))
            if lg.acting.any():
                engine.act(params, st, _rider_policy(params, st, rider, lg, until), s, inplace=True)
        engine.end_beat(params, st, inplace=True)
        if st.beat >= last:
            return seen
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
