"""STEEL BALL RUN options: every (card, spin) choice of a turn at once.

The same rules as :func:`gamelab.sbr.movement.outcome` (section 6.2 steps
4-5; the stop square's eye, heart and town of 5.4 and 4.2), faster for the
agents: a movement table by start square and option, and the
square-by-square walk only where a seal (5.3) lies within reach.

* :func:`option_list`: the options, cards 1..5 major, spin minor.
* :func:`options`: the outcome of every option for a batch of riders.
* :func:`option_table`: the outcome of every option with no seal on the way,
  by start square, spin held and relic at the stop square;
  :func:`option_index` the column of a (card, spin) option.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .indexing import flat, flat_index
from .movement import first_seal, move_tables, outcome, walk
from .rules import EYE, HEART, N_VALUES, TOWN, SbrParams
from .state import UNKNOWN, State

RELIC_CODES = UNKNOWN + 2  # relic code + 1 at a stop square: 0 none, 1..4 eye..skull, 5 unknown


@lru_cache(maxsize=8)
def option_list(max_spin: int):
    """Every (card, spin) pair: cards 1..5 major, spin 0..max_spin minor."""
    return np.repeat(np.arange(1, N_VALUES + 1), max_spin + 1), np.tile(np.arange(max_spin + 1), N_VALUES)


def option_index(card, spin, max_spin: int):
    """The column of option (``card``, ``spin``) in :func:`option_list`:
    plain, the k with ``option_list(max_spin)[k] == (card, spin)``."""
    return (card - 1) * (max_spin + 1) + spin


@lru_cache(maxsize=32)
def option_move_tables(params: SbrParams):
    """The movement table by start square for every (card, spin) option in
    the order of :func:`option_list`: (L+1, K) arrays."""
    tb = move_tables(params)
    card, spin = option_list(params.max_spin_per_beat)
    big = (card >= params.big_card).astype(np.intp)
    m = card + spin
    return {k: np.ascontiguousarray(tb[k][:, m, big]) for k in ("stop", "end", "tax", "river")}


def options(
    params: SbrParams,
    state: State,
    rider: np.ndarray,
    brk: bool = False,
    games: np.ndarray | None = None,
    first: np.ndarray | None = None,
    mask: np.ndarray | None = None,
) -> dict:
    """:func:`outcome` of every (card, spin) option of :func:`option_list`,
    (n, K) arrays (whether the rider holds the card or the spin is not
    checked: see :func:`legal`).  With ``mask`` (n, K) only the True options
    are computed and the arrays are 1-D over them (row-major), with their
    ``row`` and ``option``.  The same rules, faster: a movement table by
    start square and option, and a walk only where a seal lies within reach
    (``first``: :func:`seal_ahead` of these games, if the caller has it)."""
    games = np.arange(state.n_games) if games is None else np.asarray(games, np.intp)
    rider = np.asarray(rider, np.intp)
    card_k, spin_k = option_list(params.max_spin_per_beat)
    n, K = games.size, card_k.size
    if mask is None:
        i, k = np.repeat(np.arange(n), K), np.tile(np.arange(K), n)
    else:
        i, k = np.nonzero(mask)
    if params.heart_passes_seals:
        out = outcome(params, state, rider[i], card_k[k][:, None], spin_k[k][:, None], brk, games[i])
        out = {key: v[:, 0] for key, v in out.items()}
    else:
        out = _options_flat(params, state, games, rider, i, k, brk, first)
    if mask is None:
        return {key: v.reshape(n, K) for key, v in out.items()}
    return dict(out, row=i, option=k)


def _options_flat(params, state, games, rider, i, k, brk, first):
    tb, ot = move_tables(params), option_move_tables(params)
    R, L1 = state.pos.shape[1], params.length + 1
    card_k, spin_k = option_list(params.max_spin_per_beat)
    K = card_k.size
    fi = flat_index(games, R, rider)
    pos_g = flat(state.pos)[fi].astype(np.intp)
    pos = pos_g[i]
    ti = flat_index(pos, K, k)  # ot[key][pos, k]
    stop, end, tax = (ot[key].reshape(-1)[ti] for key in ("stop", "end", "tax"))
    spin0 = flat(state.spin)[fi].astype(np.int16)[i] - spin_k.astype(np.int16)[k]
    spin = np.minimum(params.spin_cap, spin0 + ot["river"].reshape(-1)[ti] * np.int16(params.river_spin))
    hits = np.zeros(i.size, np.int16)
    if first is None:
        first = first_seal(params, tb, state, games, rider, pos_g)
    slow = np.nonzero(end - pos >= first[i])[0]
    if slow.size:
        gi, kk = i[slow], k[slow]
        w = walk(
            params,
            tb,
            state.seal.reshape(-1),
            games[gi],
            rider[gi],
            pos[slow],
            card_k[kk] + spin_k[kk],
            card_k[kk] >= params.big_card,
            np.full(slow.size, brk),
            spin0[slow].astype(np.intp),
        )
        stop[slow], end[slow], tax[slow], spin[slow], hits[slow] = w[:5]
    has = stop >= 0
    sq = np.where(has, stop, 0)
    kind = np.where(has, state.relic.reshape(-1)[flat_index(games[i], L1, sq)], -1)
    end, spin = _stop_effects(params, tb, has, sq, kind, end, spin)
    return dict(stop=stop, end=end, spin=spin, tax=tax, hits=hits, relic=kind)


def _stop_effects(params, tb, has, sq, kind, end, spin):
    """The stop square's relic (eye, heart) and town on an option's end
    square and spin (no heart walk: ``heart_passes_seals`` is off)."""
    L = params.length
    spin = np.where(kind == EYE, np.minimum(params.spin_cap, spin + params.eye_spin), spin)
    end = np.where(kind == HEART, np.minimum(L, end + params.heart_steps), end)
    spin = np.where(has & (tb["terrain"][sq] == TOWN), np.minimum(params.spin_cap, spin + params.town_spin), spin)
    return end, spin


@lru_cache(maxsize=32)
def option_table(params: SbrParams):
    """:func:`options` with no seal on the way, for every (start square,
    spin held, option, relic code at the stop square + 1 (0..5)): arrays
    (L+1, H, K, RELIC_CODES) of stop, end, spin, tax and the relic taken (the
    same arithmetic and dtypes as :func:`options`; H = spin_cap + 1).  The
    relic code is ignored where the option enters no square."""
    tb, ot = move_tables(params), option_move_tables(params)
    card_k, spin_k = option_list(params.max_spin_per_beat)
    L, H, K = params.length, params.spin_cap + 1, card_k.size
    shape = (L + 1, H, K, RELIC_CODES)

    def b(a):
        return np.broadcast_to(a, shape)

    stop, end, tax = (b(ot[key][:, None, :, None]) for key in ("stop", "end", "tax"))
    held = b(np.arange(H, dtype=np.int16)[None, :, None, None])
    spin0 = held - b(spin_k.astype(np.int16)[None, None, :, None])
    spin = np.minimum(params.spin_cap, spin0 + b(ot["river"][:, None, :, None]) * np.int16(params.river_spin))
    has = stop >= 0
    sq = np.where(has, stop, 0)
    kind = np.where(has, b(np.arange(-1, RELIC_CODES - 1, dtype=np.int8)), -1)
    end, spin = _stop_effects(params, tb, has, sq, kind, end, spin)
    return dict(
        stop=np.ascontiguousarray(stop),
        end=np.ascontiguousarray(end),
        spin=spin,
        tax=np.ascontiguousarray(tax),
        relic=kind,
        stop_square=np.ascontiguousarray(sq[:, 0, :, 0]),
    )
