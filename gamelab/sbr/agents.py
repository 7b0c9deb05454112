"""STEEL BALL RUN agents (``docs/agents-sbr.md``).

Policies follow the engine's signature ``policy(params, state, rider, legal,
rng) -> engine.Actions`` and choose only among the rules' legal actions.  They
ask the engine what a move would do (:func:`engine.outcome`); none moves a
rider itself.  Every model knob is a declared parameter of
:class:`AgentParams` (a subclass of the rules' ``SbrParams``), so sweeps and
sliders read it like a rule; a plain ``SbrParams`` gets the knobs' defaults.

* :func:`random_policy`: uniformly random legal choices.
* :func:`greedy_policy`: the rulebook's "deterministic greedy, full
  information" AI, with our objective (appendix A does not give one).
* :func:`lookahead_policy`: the greedy's top options, each played out to the
  end of the game (or a horizon) with every rider greedy; the best margin wins.
* :func:`from_function`: a plain per-game Python function as a policy.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from ..errors import GamelabError
from ..params import param
from . import engine
from .engine import Actions
from .rules import SKULL, SbrParams


@dataclasses.dataclass(frozen=True, kw_only=True)
class AgentParams(SbrParams):
    """The rules plus the agents' model knobs (not rules: modelling choices)."""

    greedy_move: float = param(1.0, low=0.0, high=10.0, section="agents",
                               doc="greedy: value of a square gained this beat (a heart's squares included)")
    greedy_relic: float = param(1.0, low=0.0, high=10.0, section="agents",
                                doc="greedy: value of a relic point taken")
    greedy_spin: float = param(0.6, low=0.0, high=10.0, section="agents",
                               doc="greedy: value of a spin held after the move (spent, rivers, eye, town)")
    greedy_card: float = param(0.15, low=0.0, high=5.0, section="agents",
                               doc="greedy: value of a card pip kept in hand (a skull's card back too)")
    greedy_tax: float = param(0.25, low=0.0, high=5.0, section="agents",
                              doc="greedy: extra penalty per movement point lost to rocks and curves")
    greedy_segment: float = param(1.0, low=0.0, high=10.0, section="agents",
                                  doc="greedy: weight of the projected segment points on a segment's last beat")
    greedy_final: float = param(1.0, low=0.0, high=10.0, section="agents",
                                doc="greedy: weight of the projected final points on the last beat")
    greedy_expect: float = param(3.0, low=0.0, high=7.0, section="agents",
                                 doc="greedy: squares a rider still to act this beat is expected to move")
    greedy_seal_reach: tuple = param((1.0, 0.9, 0.7, 0.5, 0.3, 0.1), low=0.0, high=1.0, length=(1, 10),
                                     section="agents",
                                     doc="greedy: chance an opponent 1, 2, ... squares behind a seal runs over it")
    greedy_seal_min: float = param(0.5, low=0.0, high=20.0, section="agents",
                                   doc="greedy: place a seal when its expected victims reach this")
    lookahead_k: int = param(3, low=1, high=30, section="agents",
                             doc="lookahead: greedy options tried per decision")
    lookahead_beats: int = param(0, low=0, high=40, section="agents",
                                 doc="lookahead: beats played out after the current one (0 = to the end)")


@lru_cache(maxsize=1)
def _defaults() -> AgentParams:
    return AgentParams()


def knobs(params) -> AgentParams:
    """The agent knobs of ``params`` (defaults for a plain SbrParams)."""
    return params if isinstance(params, AgentParams) else _defaults()


# ---------------------------------------------------------------- random
def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random True column of each row (0 where a row has none)."""
    return np.argmax(rng.random(mask.shape) * mask, axis=1)


def random_policy(params, state, rider, legal, rng) -> Actions:
    """Uniformly random legal card, spin, seal; break and retrieve at random."""
    G = state.n_games
    return Actions(card=pick(legal["card"], rng) + 1, spin=pick(legal["spin"], rng),
                   seal=pick(legal["seal"], rng), brk=rng.random(G) < 0.5,
                   retrieve=rng.integers(0, 6, G))


# ---------------------------------------------------------------- greedy
def greedy_values(params, state, rider, legal, games=None, brk=False):
    """(n, K) greedy value of every (card, spin) option of
    :func:`engine.option_list` (-inf if illegal), for the games ``games``
    (default all; ``rider`` (n,)) and breaking seals or not."""
    kn = knobs(params)
    card_k, _ = engine.option_list(params.max_spin_per_beat)
    lc, ls = legal["card"], legal["spin"]
    if games is not None:
        lc, ls = lc[games], ls[games]
    ok = (lc[:, :, None] & ls[:, None, :]).reshape(lc.shape[0], -1)
    out = engine.options(params, state, rider, brk, games=games)
    games = np.arange(state.n_games) if games is None else games
    fi = games * state.pos.shape[1] + rider
    pos = state.pos.reshape(-1)[fi].astype(np.float32)[:, None]
    held = state.spin.reshape(-1)[fi].astype(np.float32)[:, None]
    points = np.array(list(params.relic_points) + [0], np.float32)
    kind = out["relic"]
    f32 = np.float32
    v = (f32(kn.greedy_move) * (out["end"] - pos) + f32(kn.greedy_relic) * points[kind]
         + f32(kn.greedy_spin) * (out["spin"] - held) - f32(kn.greedy_tax) * out["tax"]
         - (kn.greedy_card * card_k).astype(f32))
    skull = kind == SKULL
    if skull.any():
        v += f32(kn.greedy_card) * skull * _card_back(params, state, fi, card_k)
    v = _rank_terms(params, kn, state, games, rider, out["end"], v)
    return np.where(ok, v, -np.inf)


def _card_back(params, state, fi, card_k):
    """The card a skull would bring back (the highest in the discard)."""
    disc = state.discard.reshape(-1, 5)[fi] > 0
    high = np.where(disc.any(axis=1), 5 - np.argmax(disc[:, ::-1], axis=1), 0)[:, None]
    return np.maximum(high, card_k) if params.skull_takes_current else high


def _rank_terms(params, kn, state, games, rider, end, v):
    """On a segment's last beat, add the segment points of the rank the move
    would give against the others' projected squares (those still to act
    this beat move ``greedy_expect``); on the last beat, the final points too."""
    beat = state.beat + 1
    seg_end, last = beat in params.segment_ends(), beat == params.beats
    if not (seg_end or last):
        return v
    L, R = params.length, state.pos.shape[1]
    pos_all = state.pos[games].astype(np.float32)
    place = np.argsort(state.order[games], axis=1)        # place[g, o] = o's slot this beat
    mine = np.take_along_axis(place, rider[:, None], axis=1)
    proj = np.minimum(L, pos_all + np.float32(kn.greedy_expect) * ((place > mine) & (pos_all < L)))
    start = state.seg_start[games].astype(np.float32)
    d_me = end - np.take_along_axis(start, rider[:, None], axis=1)
    seg_rank = np.zeros(end.shape, np.intp)
    fin_rank = np.zeros(end.shape, np.intp)
    for o in range(R):
        other = (rider != o)[:, None]
        ahead = other & (proj[:, o:o + 1] > end)
        d_o = (proj[:, o] - start[:, o])[:, None]
        seg_rank += other & ((d_o > d_me) | ((d_o == d_me) & ahead))
        fin_rank += ahead
    if seg_end:
        v = v + np.float32(kn.greedy_segment) * np.asarray(params.segment_points, np.float32)[seg_rank]
    if last:
        v = v + np.float32(kn.greedy_final) * np.asarray(params.final_points, np.float32)[fin_rank]
    return v


def _seal_choice(params, kn, state, rider, legal):
    """The seal square with the most expected victims (opponents racing
    behind it, weighted by ``greedy_seal_reach``), if enough and the segment
    has a beat left (seals are cleared at its end)."""
    G, R = state.pos.shape
    if params.seals_per_player == 0 or (state.beat + 1) in params.segment_ends():
        return np.zeros(G, np.intp)
    reach = np.asarray(kn.greedy_seal_reach, np.float64)
    d = np.arange(1, params.seal_range + 1)
    pos = state.pos.astype(np.intp)
    me = np.take_along_axis(pos, rider[:, None], axis=1)
    sq = me + (d if params.seal_direction == "ahead" else -d)             # (G, D)
    gap = sq[:, :, None] - pos[:, None, :]                                  # (G, D, R)
    team = np.arange(R) // params.riders_per_player
    opp = (team[None, :] != team[rider][:, None]) & (pos < params.length)
    w = np.where((gap >= 1) & (gap <= reach.size) & opp[:, None, :],
                 reach[np.clip(gap - 1, 0, reach.size - 1)], 0.0).sum(axis=2)
    w = np.where(legal["seal"][:, 1:], w, -1.0)
    best = np.argmax(w, axis=1)
    return np.where(w.max(axis=1) >= kn.greedy_seal_min, best + 1, 0)


def greedy_policy(params, state, rider, legal, rng=None) -> Actions:
    """Deterministic greedy with full information: the option of highest
    :func:`greedy_values` (ties: smaller card, less spin, no break); breaking
    is tried where a seal lies within reach and the rider can pay."""
    rider = np.asarray(rider, np.intp)
    G = state.n_games
    card_k, spin_k = engine.option_list(params.max_spin_per_beat)
    val = greedy_values(params, state, rider, legal)
    best = np.argmax(val, axis=1)
    brk = np.zeros(G, bool)
    held = state.spin.reshape(-1)[np.arange(G) * state.pos.shape[1] + rider]
    need = legal["acting"] & (held >= params.seal_break_cost) & (
        engine.seal_ahead(params, state, rider) <= 5 + params.max_spin_per_beat)
    if need.any():
        gs = np.nonzero(need)[0]
        vb = greedy_values(params, state, rider[gs], legal, games=gs, brk=True)
        better = vb.max(axis=1) > val[gs].max(axis=1)
        best[gs[better]] = np.argmax(vb[better], axis=1)
        brk[gs[better]] = True
    seal = _seal_choice(params, knobs(params), state, rider, legal)
    return Actions(card=card_k[best], spin=spin_k[best], seal=seal, brk=brk, retrieve=np.zeros(G, np.intp))
