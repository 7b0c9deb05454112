"""What a game owes the shared layer: one :class:`Game` record, registered once.

A game lives in its own package ``gamelab/<name>/`` with the same parts as
every other (``rules.py``, ``state.py``, ``engine.py``, ``agents.py``,
``reference.py``, ``sim.py``, ``panels.py`` and, where the game has them,
``record.py``, ``identities.py``, ``claims.py``) and a ``game.py`` whose
``GAME`` is a :class:`Game`.  :mod:`gamelab.registry` finds it there; the
shared layer (runner, sweep, stats, playtest, report, widgets, bench, cli)
reads the registry only and never names a game.

The engine contract (:class:`Engine`), one signature for every game, after
Pgx's ``init / step / legal_action_mask`` and OpenSpiel's chance outcomes:

* ``draw_chance(params, n_games, n_players, rng) -> Chance``: every random
  number a batch of games will use, drawn up front from the caller's
  ``numpy.random.Generator``.  Nothing else in the engine draws.
* ``init(params, n_games, n_players, chance) -> State``: the set-up.
* ``legal(params, state) -> Legal``: what the players to move may do, for
  every game of the batch (the game says whose move it is in its state:
  one rider at a time in a race, every seat at once in a simultaneous game).
* ``step(params, state, actions, chance, *, inplace=False) -> (State, events)``:
  one decision of every game still running; ``actions`` must be legal.
* ``done(params, state) -> (G,) bool`` and ``result(params, state) -> dict``
  with at least ``score``, ``win`` (ties split 1/k) and ``rank`` (1 = best),
  each (G, P).
* ``random_actions(params, state, legal, rng) -> Actions``: uniformly random
  legal actions (the ``random`` agent, and the conformance suite's driver);
  ``is_legal(params, state, legal, actions) -> (G,) bool``.

**The state rule.**  A ``State`` is a mutable dataclass of numpy arrays
whose leading axis is the batch of games (a replay is a batch of one), with
``copy()`` and ``take(games)``.  No engine function changes a state it is
given, except with ``inplace=True``, when it updates that state and returns
it (for loops that keep no reference to the old state).

Agents: a game names its agents and builds, for a seating (one agent name
per seat), a :class:`Controller` that answers ``act(state, legal)`` for every
game of a batch and may watch the events (``observe(events)``).  The game's
``play`` is the runner's fast path: it plays whole batches and returns the
per-seat and per-game columns of the runner's table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .params import Params

State = Any  # each game's ``state.State``
Actions = Any  # each game's action arrays
Legal = Any  # each game's legal masks
Chance = Any  # each game's ``state.Chance``


class Engine(Protocol):
    """The batch rules of one game (a module satisfies it)."""

    def draw_chance(self, params: Any, n_games: int, n_players: int, rng: np.random.Generator) -> Chance: ...

    def init(self, params: Any, n_games: int, n_players: int, chance: Chance) -> State: ...

    def legal(self, params: Any, state: State) -> Legal: ...

    def step(
        self, params: Any, state: State, actions: Actions, chance: Chance, *, inplace: bool = False
    ) -> tuple[State, dict]: ...

    def done(self, params: Any, state: State) -> np.ndarray: ...

    def result(self, params: Any, state: State) -> dict: ...

    def random_actions(self, params: Any, state: State, legal: Legal, rng: np.random.Generator) -> Actions: ...

    def is_legal(self, params: Any, state: State, legal: Legal, actions: Actions) -> np.ndarray: ...


class Controller(Protocol):
    """The agents of one seating over a batch of games."""

    def act(self, state: State, legal: Legal) -> Actions: ...

    def observe(self, events: dict) -> None: ...


class Reference(Protocol):
    """The one-game-at-a-time specification, driven like the batch engine so
    that the conformance suite can hold one to the other step by step."""

    def play_random(self, params: Any, n_players: int, rng: np.random.Generator) -> Any: ...

    def start(self, params: Any, n_players: int, chance: Chance, g: int) -> Any:
        """The reference game for game ``g`` of a batch drawn as ``chance``."""

    def advance(self, params: Any, game: Any, state: State, actions: Actions, chance: Chance, g: int) -> None:
        """Make on ``game`` the decision the engine's ``step(state, actions,
        chance)`` makes for game ``g`` (``state``: before the step)."""

    def observe(self, game: Any) -> dict:
        """The rule-relevant state as plain Python values."""

    def observe_batch(self, state: State, g: int) -> dict:
        """The same keys from game ``g`` of the batch state."""

    def result(self, game: Any) -> dict:
        """``score`` and ``win`` per seat, as lists."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class RecordFormat:
    """Playtest records (contract: shared/playtest-format.md)."""

    replay: Callable[[dict], tuple[dict, dict]]  # record -> (ledger, observed values for ``expect``)
    tables: Callable[[dict], list]  # ledger -> [(title, DataFrame)]
    examples: tuple[Path, ...] = ()  # worked examples shipped as records


@dataclasses.dataclass(frozen=True, kw_only=True)
class Identities:
    """The rulebook's design identities as exact functions of the parameters."""

    rows: Callable[..., list]  # params -> [identities.Row]
    simulated: Callable[[Any, dict], dict]  # params, {players: frame} -> {sim_key: Estimate}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Claims:
    """The rulebook's published figures (``data/claims/<game>*.csv``)."""

    measure: Callable[..., Any]  # claims frame, n_games, seed, workers, progress -> audit frame
    exact_claims: Callable[[Any], dict]  # params -> {quantity: value} of the rules-decided figures
    conclusions: Callable[..., Any] | None = None  # n_games, seed, workers, progress -> frame


@dataclasses.dataclass(frozen=True, kw_only=True)
class Bench:
    """What ``gamelab bench`` times."""

    agent_lineup: Callable[[int], Sequence[str]]
    random_lineup: Callable[[int], Sequence[str]]
    random_batch: Callable[[Any, int, int, np.random.Generator], Any]  # params, n_games, n_players, rng
    agent_target: float  # games per second the agents must reach
    ratio_target: float = 30.0  # batch engine over the reference, random play
    memory_mib: float = 1024.0  # peak memory of 100,000 games in flight
    # more timed lineups: name -> (n_players, lineup fn, target games/s); bench reports ``<name>_games_per_s``
    extra_lineups: Mapping[str, tuple[int, Callable[[int], Sequence[str]], float]] = dataclasses.field(
        default_factory=dict
    )


@dataclasses.dataclass(frozen=True, kw_only=True)
class Panels:
    """What a notebook panel shows besides win rates."""

    table: Callable[[Any], Any]  # frame -> DataFrame of measures with intervals
    extras: Callable[[Any, Any], list]  # frame, params -> [DataFrame | Figure]


@dataclasses.dataclass(frozen=True, kw_only=True)
class Game:
    """Everything the shared layer knows of one game."""

    name: str  # the short name: command lines, files, cache keys
    title: str  # the game's name in reports
    players: tuple[int, int]  # fewest and most players
    rules: type[Params]  # the rule parameters (``rules.py``)
    knobs: type[Params]  # rules plus the agents' model knobs: the runner's parameters
    variants: tuple[str, ...]  # named variants of the rulebook
    params_for_variant: Callable[..., Params]  # name, **overrides -> rule parameters
    engine: Engine
    reference: Reference
    agents: tuple[str, ...]  # agent names a lineup may use
    default_lineup: Callable[[int], Sequence[str]]
    controller: Callable[[Any, Sequence[str], int, np.random.Generator], Controller]  # params, seating, G, rng
    play: Callable[..., dict]  # params, seating, n_deals, n_players, seed_seq -> columns
    bench: Bench
    panels: Panels | None = None
    record: RecordFormat | None = None
    identities: Identities | None = None
    claims: Claims | None = None
    derived: Mapping[str, Callable[[Any, Any], dict]] = dataclasses.field(default_factory=dict)
    metrics: tuple = ()  # the game's own balance.Metric diagnostics (arrival_rate, ...)
    skill_ladder: tuple[str, ...] = ()  # agent names from weakest to strongest (gamelab skill)
    skill_players: int = 0  # the player count a report's skill ladder is measured at (0: the fewest)
    strong_agent: str = ""  # the agent a report's cross-model check seats everywhere ("": the ladder's top)
    report_players: tuple[int, ...] = ()  # player counts a default report covers
    report_groups: tuple[str, ...] = ("agent", "seat")  # columns win rates are tabulated by
    # the values each report group other than seat (1..players) and agent (``agents``) takes
    group_values: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    assumptions: str = ""  # the agents' model, one paragraph for reports
    chunk_deals: int = 1024  # deals per chunk (part of what a seed means)
    errata_heading: str = ""  # the game's ``## `` heading in docs/errata.md
    max_steps: int = 10_000  # engine steps a game takes at most (conformance)
