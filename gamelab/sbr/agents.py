"""STEEL BALL RUN agents (``docs/agents.md``).

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

This module is the agents' front: the random policy and custom agents live
here; the knobs in :mod:`~gamelab.sbr.knobs`, the greedy in
:mod:`~gamelab.sbr.greedy` (its rank terms in :mod:`~gamelab.sbr.projection`)
and the lookahead in :mod:`~gamelab.sbr.lookahead`, all importable from here.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from ..errors import GamelabError
from . import engine
from .engine import Actions
from .greedy import _seal_choice, _value_table, greedy_policy, greedy_values  # noqa: F401 (private: tests)
from .knobs import AgentParams, knobs
from .lookahead import lookahead_policy

__all__ = ["AgentParams", "knobs", "pick", "random_policy", "greedy_values", "greedy_policy", "lookahead_policy",
           "View", "from_function"]


def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random True column of each row (0 where a row has none)."""
    return _pick(mask, rng.random(mask.shape[0]))


_SLOTS = 60                      # divisible by 1..5: every count of options is exact


@lru_cache(maxsize=8)
def _pick_table(width: int) -> np.ndarray:
    """(2**width, 60): for each mask pattern, the column chosen by each of 60
    equal slices of [0, 1)."""
    table = np.zeros((2 ** width, _SLOTS), np.intp)
    for pattern in range(1, 2 ** width):
        cols = [c for c in range(width) if pattern >> c & 1]
        table[pattern] = [cols[j * len(cols) // _SLOTS] for j in range(_SLOTS)]
    return table


def _pick(mask, u):
    """The column of each row's True entries picked by uniform ``u`` (G,)."""
    if mask.shape[1] > 8:                        # wide masks: the k-th True column
        c = mask.cumsum(axis=1)
        return np.argmax(c > (u * c[:, -1]).astype(np.intp)[:, None], axis=1)
    x = mask.view(np.uint8)
    bits = x[:, 0].astype(np.intp)
    for c in range(1, mask.shape[1]):
        bits |= x[:, c].astype(np.intp) << c
    return _pick_table(mask.shape[1]).reshape(-1).take(bits * _SLOTS + (u * _SLOTS).astype(np.intp))


def random_policy(params, state, rider, legal, rng) -> Actions:
    """Uniformly random legal card, spin, seal; break and retrieve at random."""
    u = rng.random((5, state.n_games))
    return Actions(card=_pick(legal["card"], u[0]) + 1, spin=_pick(legal["spin"], u[1]),
                   seal=_pick(legal["seal"], u[2]), brk=u[3] < 0.5, retrieve=(u[4] * 6).astype(np.intp))


@dataclasses.dataclass
class View:
    """One game as a custom agent sees it (full information, plain Python).

    ``me`` the acting rider; ``pos``, ``spin``, ``seals_left``, ``relics`` per
    rider; ``hand`` card counts for values 1..5; ``beat`` (1-based);
    ``board`` terrain codes by square; ``relic`` relic type by square (-1
    none); ``seal`` seal owner by square (-1 none); ``cards``, ``spins``,
    ``seals`` the legal choices.  ``preview(card, spin=0, brk=False)`` is the
    engine's :func:`engine.outcome` for this rider: a dict of stop, end,
    spin, tax, hits, relic."""

    me: int
    pos: list
    spin: list
    seals_left: list
    relics: list
    hand: list
    beat: int
    board: list
    relic: list
    seal: list
    cards: list
    spins: list
    seals: list
    preview: object


def from_function(fn):
    """Wrap ``fn(view: View) -> (card, spin, seal, brk)`` (a tuple, shorter
    tuples take spin 0, no seal, no break; or a dict with those keys and
    ``retrieve``) as a batch policy.  Slow (a Python call per game), for
    trying an idea in a notebook::

        def fives_first(v):
            return (max(v.cards), max(v.spins))
        policy = agents.from_function(fives_first)
        engine.play(params, [policy, agents.greedy_policy], 200, rng)

    A choice outside the legal ones is an error naming it."""
    def policy(params, state, rider, legal, rng=None) -> Actions:
        G = state.n_games
        out = dict(card=np.ones(G, np.intp), spin=np.zeros(G, np.intp), seal=np.zeros(G, np.intp),
                   brk=np.zeros(G, bool), retrieve=np.zeros(G, np.intp))
        for g in np.nonzero(legal["acting"])[0]:
            view = _view(params, state, int(g), int(rider[g]), legal)
            got = fn(view)
            got = dict(zip(("card", "spin", "seal", "brk", "retrieve"), got)) if isinstance(got, tuple) else got
            for key, value in got.items():
                if key not in out:
                    raise GamelabError(f"custom agent returned unknown key {key!r}")
                out[key][g] = value
            for key, allowed in (("card", view.cards), ("spin", view.spins), ("seal", view.seals)):
                if out[key][g] not in allowed:
                    raise GamelabError(f"custom agent chose {key} {out[key][g]} in game {g}, "
                                       f"beat {view.beat}: legal are {allowed}")
        return Actions(**out)
    policy.__name__ = getattr(fn, "__name__", "custom")
    return policy


def _view(params, state, g, r, legal) -> View:
    def preview(card, spin=0, brk=False):
        o = engine.outcome(params, state, np.array([r]), np.array([[card]]), np.array([[spin]]), brk,
                           games=np.array([g]))
        return {k: int(v[0, 0]) for k, v in o.items()}
    return View(me=r, pos=state.pos[g].tolist(), spin=state.spin[g].tolist(),
                seals_left=state.seals_left[g].tolist(), relics=state.relic_n[g].tolist(),
                hand=state.hand[g, r].tolist(), beat=state.beat + 1, board=list(params.board),
                relic=state.relic[g].tolist(), seal=state.seal[g].tolist(),
                cards=[v + 1 for v in range(5) if legal["card"][g, v]],
                spins=[s for s in range(legal["spin"].shape[1]) if legal["spin"][g, s]],
                seals=[d for d in range(legal["seal"].shape[1]) if legal["seal"][g, d]], preview=preview)
