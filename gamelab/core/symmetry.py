"""The relabellings a game's rules ignore, declared as data (issue 38).

A game says which seat permutations leave its rules unchanged under given
parameters (:class:`Symmetry`, ``Game.symmetry``), as generators of the
group: a game played simultaneously may be unchanged by every permutation of
its seats (a team variant by those that keep the teams); a race whose acting
order is a rule is unchanged by none.  A player model must keep
what the rules keep: with the same agent on every seat of seat-symmetric
rules, every seat of an orbit wins alike (``gamelab.decide.symmetry`` checks
it by the sequential test; a report warns when a run breaks it).

Plain functions of seat tuples; nothing here plays a game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

Perm = tuple[int, ...]  # seat s goes to seat perm[s]


def no_seat_symmetry(params: Any, n_players: int) -> tuple[Perm, ...]:
    """The default declaration: no seat relabelling leaves the rules alone."""
    return ()


@dataclasses.dataclass(frozen=True, kw_only=True)
class Symmetry:
    """What a game declares of its symmetries.

    ``seats(params, n_players)``: generators of the seat permutations that
    leave the rules unchanged (``()``: none); ``why``: the rule that decides
    it, in words; ``agents``: one agent of each family the metamorphic checks
    seat on every seat (``()``: the game's agents that are not seat-numbered);
    ``others``: other relabellings the rules ignore, in words."""

    seats: Callable[[Any, int], tuple[Perm, ...]] = no_seat_symmetry
    why: str = ""
    agents: tuple[str, ...] = ()
    others: str = ""


def every_permutation(n_players: int) -> tuple[Perm, ...]:
    """Generators of all permutations of ``n_players`` seats: one step round the
    table and the swap of the first two seats."""
    n = n_players
    return (tuple((s + 1) % n for s in range(n)), (1, 0, *range(2, n)))


def orbits(generators: Sequence[Perm], n_players: int) -> tuple[tuple[int, ...], ...]:
    """The seat classes the generators move into each other (each sorted, in seat
    order; a seat no generator moves is its own class)."""
    root = list(range(n_players))

    def find(s: int) -> int:
        while root[s] != s:
            s = root[s]
        return s

    for perm in generators:
        for s, t in enumerate(perm):
            a, b = find(s), find(t)
            root[max(a, b)] = min(a, b)
    classes: dict[int, list[int]] = {}
    for s in range(n_players):
        classes.setdefault(find(s), []).append(s)
    return tuple(tuple(c) for c in classes.values())


def transitive(generators: Sequence[Perm], n_players: int) -> bool:
    """Every seat can be moved to every other: each seat's fair share is 1 / players."""
    return len(orbits(generators, n_players)) == 1


def keeps(perm: Perm, blocks: Sequence[Sequence[int]]) -> bool:
    """``perm`` maps every block (a team, say) onto a block."""
    as_sets = {frozenset(b) for b in blocks}
    return all(frozenset(perm[s] for s in b) in as_sets for b in blocks)
