"""STRAND's action codes: how a decision is written as one int, both ways.

Codes (``state.py``; the reference uses the same):

* cargo: ``value - 1 + N_VALUES * porter`` (section 6.2 step 2, porter 5.5)
* rope: seat ``j`` (point at j), ``P`` (stay), ``P + 1 + j`` (bb: lock j;
  section 6.2 step 4, bb 5.5)
* reaction: ``REACT_PASS``, ``REACT_POWER`` (veteran, engineer, musician),
  ``REACT_SWITCH + j`` (fragile: switch to seat j; 5.5)

Agents and records build codes with the constructors, the engine's ``step``
reads them with the decoders; nothing else does arithmetic on codes.  The
functions work on numpy arrays and on plain ints alike.
"""

from __future__ import annotations

import numpy as np

from .state import N_VALUES, REACT_PASS, REACT_POWER, REACT_SWITCH

assert (REACT_PASS, REACT_POWER) == (0, 1), "power_action writes a use flag as its code"


# --- cargo ---------------------------------------------------------------------
def cargo_action(value, porter=False):
    """Show the card of ``value`` (1..5), with the porter's +1 when ``porter``."""
    return value - 1 + N_VALUES * porter


def cargo_decode(a):
    """(value shown 1..5 as int8, porter used) of cargo codes ``a``."""
    porter = a >= N_VALUES
    return (a + 1 - N_VALUES * porter).astype(np.int8), porter


def porter_codes(n_actions=2 * N_VALUES):
    """The slice of cargo codes that use the porter."""
    return slice(N_VALUES, n_actions)


# --- ropes ---------------------------------------------------------------------
def stay_action(n_players):
    """The stay card (section 5.2)."""
    return n_players


def rope_action(target, lock, n_players):
    """Point at seat ``target`` (``stay_action(P)``: stay); ``lock``: the bb
    locks ``target`` instead.  ``np.where(lock, P + 1 + target, target)``."""
    return target + lock * np.int8(n_players + 1)


def rope_decode(a, n_players):
    """Rope codes -> (rope, lock, locked), each (G,P): the seat the rope card
    points at (-1 stay; a bb's card points at the seat it locks), the seat a
    bb locks (-1 none), whether a bb lock was played.  As plain selects::

        locked = a > P
        lock = np.where(locked, a - P - 1, -1)
        rope = np.where(a < P, a, lock)
    """
    P = n_players
    locked = a > P
    lock = locked * (a - P) - 1
    rope = lock + (a < P) * (a - lock)
    return rope, lock, locked


def lock_codes(n_players):
    """The slice of rope codes that are bb locks."""
    return slice(n_players + 1, None)


# --- reactions -----------------------------------------------------------------
def power_action(use):
    """``REACT_POWER`` where ``use``, else ``REACT_PASS`` (int8; the codes are 1 and 0)."""
    return np.asarray(use).astype(np.int8)


def switch_action(target):
    """The fragile's switch to seat ``target``."""
    return REACT_SWITCH + target


def with_switch(acts, switch, target):
    """Reaction codes ``acts`` with the fragile's switch to ``target`` where
    ``switch``: ``np.where(switch, REACT_SWITCH + target, acts)``."""
    return acts + switch * (REACT_SWITCH + target - acts)


def react_decode(a):
    """(power used, switched) of reaction codes; ``switch_target`` gives the seat."""
    return a == REACT_POWER, a >= REACT_SWITCH


def switch_target(a):
    """The seat a switch code names."""
    return a - REACT_SWITCH


def power_codes():
    """The slice of reaction codes that use a power (any but pass)."""
    return slice(REACT_PASS + 1, None)
