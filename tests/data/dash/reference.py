"""Dash one game at a time in plain Python: the executable spec."""

from __future__ import annotations

from .rules import DashParams, check_players
from .state import ROLL


class Game:
    def __init__(self, params: DashParams, n_players: int, faces):
        check_players(params, n_players)
        self.p, self.faces = params, list(faces)
        self.square, self.player, self.turn, self.over = [0] * n_players, 0, 0, False

    def act(self, action: int) -> None:
        face = self.faces[self.turn]
        move = (-self.p.trip_back if face == 1 else face) if action == ROLL else self.p.walk  # rule 2
        self.square[self.player] = max(0, self.square[self.player] + move)
        self.turn += 1
        n = len(self.square)
        self.over = self.square[self.player] >= self.p.track or self.turn >= self.p.max_turns * n  # rules 3, 4
        self.player = (self.player + 1) % n


def start(params: DashParams, n_players: int, chance, g: int) -> Game:
    return Game(params, n_players, (int(f) for f in chance.faces[g]))


def advance(params: DashParams, game: Game, state, actions, chance, g: int) -> None:
    if not game.over:
        game.act(int(actions[g]))


def observe(game: Game) -> dict:
    return {"square": list(game.square), "player": game.player, "turn": game.turn, "over": game.over}


def result(game: Game) -> dict:
    score = [min(s, game.p.track) for s in game.square]
    best = [s == max(score) for s in score]
    return {"score": score, "win": [b / sum(best) for b in best]}


def play_random(params: DashParams, n_players: int, rng) -> list:
    game = Game(params, n_players, rng.integers(1, params.die_faces + 1, params.max_turns * n_players))
    while not game.over:
        game.act(int(rng.integers(2)))
    return result(game)["score"]
