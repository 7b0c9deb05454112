"""The learned rung on the ladder (issue 39): its decided tests and its row of ``gamelab skill --json``."""

from __future__ import annotations

from gamelab.core.contract import Game
from gamelab.models.restricted import style_rows
from gamelab.sim.levels import learned_levels
from gamelab.sim.run import RunConfig


def learned_rung(
    game: Game, *, n_players: int, seed: int = 0, params=None, run: RunConfig | None = None
) -> dict | None:
    """The learned rung's decided tests (:func:`gamelab.decide.ladder.learned_tests`), None when the
    game has none (``GAME.skill.learned``); played through ``run`` (local processes or a cluster)."""
    from gamelab.decide.ladder import learned_tests

    run = run or RunConfig()
    found = learned_tests(game, n_players=n_players, seed=seed, params=params, run=run)
    if found is None:
        return None
    rung = learned_levels(game, n_players, params)[0]  # type: ignore[index]  # found: the game has one
    if game.skill.restricted and game.skill.restricted(rung.name):  # styles at the learned rung, restricted play
        found["styles"] = style_rows(game, [rung], n_players=n_players, seed=seed, run=run.quiet())
    return found


def learned_json(found: dict, level: int) -> dict:
    """The learned rung as a row of ``gamelab skill --json``: the ladder's keys (its win rate
    against the default model as ``win_rate_vs_below``) and its three decided tests."""
    vs = found["tests"]["beats_default"]
    keep = ("level", "below", "question", "decision", "win_rate", "low", "high", "games", "fair")
    return {
        "level": level,
        "agent": found["rung"],
        "learned": True,
        "win_rate_vs_below": vs["win_rate"],
        "low": vs["low"],
        "high": vs["high"],
        "games": sum(t["games"] for t in found["tests"].values()),
        "top": found["top"],
        "beats_default": found["beats_default"],
        "as_strong_as_top": found["as_strong_as_top"],
        "tests": {k: {x: t[x] for x in keep} for k, t in found["tests"].items()},
        "styles": [
            {k: r[k] for k in ("style", "agent", "win_rate", "low", "high", "games", "fair", "edge")}
            for r in found.get("styles", [])
        ],
    }
