"""The shared play: the runner's batch of a game that has no fast path of its own
(``Game.play`` None), built on :func:`gamelab.core.driver.play_out`.

The chance is drawn first from the ``chance`` stream (so a deal is the same under every
seating and every model setting), the controller plays from ``agents``, and a :class:`Tally`
counts what the game declares (``Game.counts``: per-seat sums of its events, decisions per
game, lead changes); the columns are the engine's result and the counts, or the game's
``counts.columns`` of them.

A game with a compiled twin (``Game.compiled``: whole games in compiled code, for the
seatings it can play) is asked first; where it plays the batch it returns the same counts,
and the columns are made the same way.  The two are the package's two whole-game loops.
:func:`play_games` plays a batch from one generator and returns the final state (tests,
scripts, a game's learning from recorded decisions).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gamelab.core.contract import Counts, Engine, Game, State
from gamelab.core.driver import play_out
from gamelab.core.params import knobs_of
from gamelab.stats.leads import LeadCounter


def _any(flags) -> bool:
    """Whether any game's flag is set, for a (G,) array or one bool for the batch: plain
    ``np.any(flags)`` (which costs ~15 us a step on a plain bool, a tenth of a small batch's step)."""
    return flags if isinstance(flags, bool) else bool(flags.any())


class Tally:
    """The counts a game declares (``contract.Counts``) over a batch of ``G`` games at ``P``
    players: per-seat sums of its events (G, P) int32, decisions per game (``length``, G) and
    lead changes.  :meth:`before` sees each decision before it is made, :meth:`add` each step."""

    def __init__(self, counts: Counts, engine: Engine, params, G: int, P: int):
        self.counts, self.engine, self.params, self.games = counts, engine, params, np.arange(G)
        self.seat = {name: np.zeros((G, P), np.int32) for name in counts.seat}
        self.length = np.zeros(G, np.int32)
        self.leads = LeadCounter(G) if counts.leads else None

    def before(self, state, legal, actions) -> None:
        self.length += ~self.engine.done(self.params, state)

    def add(self, state, events: dict) -> None:
        seat = events.get(self.counts.mover)
        for name, amount in self.counts.seat.items():
            self.seat[name][self.games, seat] += events[amount] if isinstance(amount, str) else amount(events)
        if self.leads is not None and (not self.counts.leads_on or _any(events[self.counts.leads_on])):
            self.leads.count(getattr(state, self.counts.leads))

    def columns(self) -> dict:
        """The seat counts, then ``length`` and ``lead_changes`` (when counted)."""
        leads = {"lead_changes": self.leads.changes} if self.leads is not None else {}
        return {**self.seat, "length": self.length, **leads}


def play_batch(game: Game, params, seating: Sequence[str], n_deals: int, n_players: int, streams) -> dict:
    """The runner's columns of ``n_deals`` deals under ``seating`` (one agent name per seat),
    from the random streams ``{"chance": Generator, "agents": Generator}``: played by the game's
    compiled twin where it can, else by the batch driver."""
    params = knobs_of(params, game.knobs)
    engine = game.engine
    chance = engine.draw_chance(params, n_deals, n_players, streams["chance"])
    state = engine.init(params, n_deals, n_players, chance)
    counts = None
    if game.compiled is not None:
        counts = game.compiled(params, seating, state, chance, streams["agents"])
    if counts is None:
        tally = Tally(game.counts, engine, params, n_deals, n_players)
        rng = streams["agents"]
        play_games(game, params, seating, n_deals, n_players, rng, chance=chance, state=state, tally=tally)
        counts = tally.columns()
    result = engine.result(params, state)
    if game.counts.columns is None:
        return {**result, **counts}
    return game.counts.columns(params, state, result, counts)


def play_games(
    game: Game, params, seating, n_games: int, n_players: int, rng, *, chance=None, state=None, tally=None
) -> State:
    """``n_games`` games under ``seating`` (what ``game.controller`` takes: agent names) played to
    the end by the batch driver, the chance drawn from ``rng`` first (unless given), then the
    agents' numbers; ``state``: the set-up games to play (else set up from the chance), ``tally``:
    a :class:`Tally` shown every decision.  Returns the final state (``game.engine.result`` of it)."""
    engine = game.engine
    chance = engine.draw_chance(params, n_games, n_players, rng) if chance is None else chance
    state = engine.init(params, n_games, n_players, chance) if state is None else state
    ctl = game.controller(params, seating, n_games, rng)
    watch, before = ([tally.add], tally.before) if tally is not None else ((), None)
    state, _ = play_out(engine, params, state, chance, ctl, watch=watch, before=before)
    return state
