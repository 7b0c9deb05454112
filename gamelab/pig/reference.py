"""Pig, one game at a time in plain Python: the executable specification.

Read this first.  Each step cites its rule in ``docs/rules-pig.md``; the
batch engine (``engine.py``) is held to this module decision by decision
(``tests/test_pig.py`` and the shared conformance suite).
"""

from __future__ import annotations

from gamelab.core import turns

from .rules import PigParams, check_players
from .state import HOLD, N_ACTIONS, ROLL, State


class Game:
    """One game of Pig; ``dice`` supplies the faces in order (rule 2)."""

    def __init__(self, params: PigParams, n_players: int, dice):
        check_players(params, n_players)
        self.p, self.n_players = params, n_players
        self.dice = iter(dice)
        self.score = [0] * n_players  # rule 1: everyone starts at 0
        self.turn_total = 0
        self.player = 0  # rule 1: seat 1 starts
        self.turn = 0  # turns completed
        self.rolls = 0
        self.over = False
        self.history: list[tuple] = []  # (seat, action, face or None)

    # --- what the seat to move may do (rules 5, 6) ---
    def reaches_target(self) -> bool:
        return self.score[self.player] + self.turn_total >= self.p.target

    def legal(self) -> list[int]:
        if self.over:
            return []
        out = [] if self.reaches_target() else [ROLL]  # rule 6: forced hold
        if self.turn_total > 0 and (self.turn_total >= self.p.hold_minimum or self.reaches_target()):
            out.append(HOLD)  # rule 5 and 5.1
        return out

    # --- one decision ---
    def act(self, action: int) -> None:
        if action not in self.legal():
            raise ValueError(f"action {action} is not legal now ({self.legal()})")
        if action == ROLL:
            self.roll()
        else:
            self.hold()

    def roll(self) -> None:
        face = next(self.dice)  # rule 2
        self.rolls += 1
        self.history.append((self.player, ROLL, face))
        if face <= self.p.bust_faces:  # rule 3: bust
            self.turn_total = 0
            self.end_turn()
        else:  # rule 4
            self.turn_total += face

    def hold(self) -> None:
        self.history.append((self.player, HOLD, None))
        self.score[self.player] += self.turn_total  # rule 5: bank
        self.turn_total = 0
        won = self.score[self.player] >= self.p.target  # rule 7: win at once
        self.end_turn()
        self.over = self.over or won

    def end_turn(self) -> None:
        self.turn += 1
        self.player = (self.player + 1) % self.n_players
        if self.turn >= self.n_players * self.p.max_turns:  # rule 8: the turn cap
            self.over = True

    # --- rule 9 ---
    def result(self) -> dict:
        best = max(self.score)
        winners = [s for s in range(self.n_players) if self.score[s] == best]
        win = [1 / len(winners) if s in winners else 0.0 for s in range(self.n_players)]
        rank = [1 + sum(o > me for o in self.score) for me in self.score]
        return {"score": list(self.score), "win": win, "rank": rank}


def _random_dice(params: PigParams, rng):
    while True:
        yield int(rng.integers(1, params.die_faces + 1))


def play_random(params: PigParams, n_players: int, rng) -> list:
    """One whole game under uniformly random legal play, dice rolled as they
    are needed; the per-seat final scores."""
    g = Game(params, n_players, _random_dice(params, rng))
    while not g.over:
        options = g.legal()
        g.act(options[int(rng.random() * len(options))])
    return g.result()["score"]


# --- driving the reference like the batch engine -----------------------------
def start(params: PigParams, n_players: int, chance, g: int) -> Game:
    """The reference game for game ``g`` of a batch drawn as ``chance``."""
    return Game(params, n_players, (int(f) for f in chance.faces[g]))


#: the rest of the conformance side: act the engine's action, the legal moves as its mask, the state's fields
advance, legal_mask, observe, result = turns.reference_side(State, N_ACTIONS)
