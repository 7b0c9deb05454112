"""Metamorphic checks of a player model: what the rules call irrelevant changes nothing.

A game declares the seat permutations its rules ignore (``Game.symmetry``,
:mod:`gamelab.core.symmetry`).  Under such rules a player model that keeps the
rules' symmetries gives every seat of an orbit the same chances when the same
agent sits on every seat: in a simultaneous game no seat may win by the order
of an array.  :func:`check_symmetry` asks it of every declared agent family,
variant and player count, each decided by the project's sequential test
(:mod:`gamelab.decide.sequential`)::

    seat_gap < 0.015      every seat within 1.5 points of the fair 1 / players

and raises :class:`SymmetryError` naming the first case that is not decided
"yes".  (The relation "permuting the seats permutes the outcome" is this one
in distribution; ``tests/test_symmetry.py`` holds the simultaneous game's table
model to it exactly, decision by decision, with its tie-break draws permuted alike.)

A game whose rules keep no seat relabelling (a race whose acting order is a
rule) has no case: :func:`cases` is empty and the check passes vacuously,
saying so in :func:`describe`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError
from gamelab.core.symmetry import no_seat_symmetry, transitive
from gamelab.decide import sequential
from gamelab.sim.run import RunConfig

TOLERANCE = 0.015  # every seat within 1.5 points of fair (issue 38)
MAX_GAMES = 60_000  # a case still undecided after this many games fails


class SymmetryError(AssertionError):
    """A player model breaks a symmetry its game's rules declare; the message names the case."""


@dataclasses.dataclass(frozen=True)
class Case:
    """One check: ``agent`` on every seat of ``variant`` at ``n_players``, with ``changes``
    (model knobs or rule readings) on top of the variant's rules."""

    variant: str
    n_players: int
    agent: str
    changes: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        extra = "".join(f", {k}={v}" for k, v in self.changes)
        return f"{self.agent} on every seat, {self.variant}, {self.n_players} players{extra}"


@dataclasses.dataclass(frozen=True)
class Verdict:
    """A case decided: ``decision`` yes / no / undecided, after ``games`` games;
    ``estimate`` (``low``..``high``, 95 %) the largest seat's distance from fair."""

    case: Case
    decision: str
    games: int
    estimate: float
    low: float
    high: float

    def __str__(self) -> str:
        return (
            f"{self.case}: every seat within {TOLERANCE:.1%} of fair? {self.decision} after {self.games:,} games "
            f"(largest distance {self.estimate:.1%}, 95 % interval {self.low:.1%} to {self.high:.1%})"
        )


def symmetric(game: Game, params, n_players: int) -> bool:
    """The rules ``params`` at ``n_players`` leave every seat like every other (a transitive group)."""
    return transitive(game.symmetry.seats(params, n_players), n_players)


def agents(game: Game) -> tuple[str, ...]:
    """The agent families a check seats everywhere: the game's declared ones, else its agents."""
    return game.symmetry.agents or game.agents


def cases(
    game: Game,
    *,
    agents_: Sequence[str] | None = None,
    variants: Sequence[str] | None = None,
    players: Sequence[int] | None = None,
    changes: dict | None = None,
) -> list[Case]:
    """Every (variant, player count, agent) whose rules the game declares seat-symmetric."""
    extra = tuple(sorted((changes or {}).items()))
    out = []
    for variant in variants or tuple(game.variants):
        for n in players or range(game.players[0], game.players[1] + 1):
            params = knobs_for(game, Case(variant, n, "", extra))
            if plays(game, params, n) and symmetric(game, params, n):
                out += [Case(variant, n, a, extra) for a in agents_ or agents(game)]
    return out


def plays(game: Game, params, n_players: int) -> bool:
    """The rules ``params`` can seat ``n_players`` (a variant may be for some counts only)."""
    try:
        chance = game.engine.draw_chance(params, 1, n_players, np.random.default_rng(0))
        game.engine.init(params, 1, n_players, chance)
    except GamelabError:
        return False
    return True


def knobs_for(game: Game, case: Case):
    """The runner's parameters of ``case``: the variant's rules, then its changes."""
    rules = game.params_for_variant(case.variant).changed()
    return game.knobs().replace(**rules, **dict(case.changes))


def check(game: Game, case: Case, *, seed: int = 0, max_games: int = MAX_GAMES, run: RunConfig | None = None):
    """``case`` decided by the sequential test (``seat_gap < TOLERANCE``)."""
    d = sequential.decide(
        game,
        f"seat_gap < {TOLERANCE}",
        n_players=case.n_players,
        params=knobs_for(game, case),
        lineup=[case.agent] * case.n_players,
        seed=seed,
        max_games=max_games,
        run=run,
    )
    return Verdict(case, d.decision, d.games, d.estimate, d.low, d.high)


def check_symmetry(game: Game, *, seed: int = 0, max_games: int = MAX_GAMES, run=None, **which) -> list[Verdict]:
    """Every case of :func:`cases` (``which``: its filters) decided; :class:`SymmetryError`
    on the first not decided "yes"."""
    out = []
    for case in cases(game, **which):
        verdict = check(game, case, seed=seed, max_games=max_games, run=run)
        if verdict.decision != "yes":
            raise SymmetryError(f"{game.name}: the player model breaks the rules' seat symmetry: {verdict}")
        out.append(verdict)
    return out


def describe(game: Game) -> str:
    """What the game declares, in words (for a game with no seat symmetry: why)."""
    s = game.symmetry
    head = "no seat symmetry" if s.seats is no_seat_symmetry else "seat relabellings the rules ignore"
    return f"{game.name}: {head}" + (f" ({s.why})" if s.why else "") + (f"; {s.others}" if s.others else "")
