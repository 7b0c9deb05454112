"""The levels of a game's skill trace: which lineup and parameters each
level plays (``gamelab.models.trace`` traces a metric over them, the tuner
verifies proposals at them).

Level 0 is random play on every seat, level 1 the game's default model,
then the game's search agent (``GAME.skill.search``) on every seat at each
budget of ``GAME.skill.budgets`` (the value of its knob
``GAME.skill.budget``), with ``GAME.skill.search_knobs``, then the rungs of
``GAME.skill.beyond`` (level-k search at the top budget).  In a table of
mixed levels a search seat carries its budget in its name
(``search@budget``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gamelab.core import budgets
from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError


@dataclasses.dataclass(frozen=True)
class Level:
    """One level of a trace: ``lineup`` on every seat under ``params``; in a
    table of mixed levels it sits as ``seat`` (one seat) or ``rest`` (the
    P - 1 others)."""

    level: int
    name: str  # random, default, lookahead@4, ...
    agent: str  # the agent in words
    budget: int | None
    lineup: tuple[str, ...]
    params: Any
    seat: str
    rest: tuple[str, ...]
    search: bool  # a level of the search agent (its knobs ``search_knobs`` apply at mixed tables)


def trace_levels(game: Game, n_players: int, params=None) -> list[Level]:
    """The levels of ``game``'s trace at ``n_players`` (see above)."""
    sk = game.skill
    if not sk.search or not sk.budget or not sk.budgets:
        raise GamelabError(f"{game.name} declares no skill trace (GAME.skill.search, budget, budgets)")
    base = params if params is not None else game.knobs()
    P = n_players
    default = tuple(game.default_lineup(P))
    words = default[0] if len(set(default)) == 1 else f"{default[0]} to {default[-1]}"
    out = [
        Level(0, "random", "random", None, ("random",) * P, base, "random", ("random",) * (P - 1), False),
        Level(1, "default", f"default model ({words})", None, default, base, default[0], default[1:], False),
    ]
    searching = base.replace(**dict(sk.search_knobs))
    for b in sk.budgets:
        name = budgets.at_budget(sk.search, b)
        out.append(
            Level(
                len(out),
                name,
                sk.search,
                int(b),
                (sk.search,) * P,
                searching.replace(**{sk.budget: b}),
                name,
                (name,) * (P - 1),
                True,
            )
        )
    top = searching.replace(**{sk.budget: sk.budgets[-1]})
    for name in sk.beyond:
        out.append(Level(len(out), name, name, int(sk.budgets[-1]), (name,) * P, top, name, (name,) * (P - 1), True))
    return out


def level_names(game: Game) -> list[str]:
    """The names of the game's trace levels (``random``, ``default``, ``best@1``, ...)."""
    if not game.skill.search:
        return []
    return (
        ["random", "default"]
        + [budgets.at_budget(game.skill.search, b) for b in game.skill.budgets]
        + list(game.skill.beyond)
    )


def mixed_params(game: Game, high: Level, low: Level):
    """The parameters of a table where ``high``'s seat meets ``low``'s: the
    search knobs when either level searches, each search seat's budget in
    its name (the budget knob stays at its default)."""
    if not (high.search or low.search):
        return high.params
    params = high.params if high.search else low.params
    return params.replace(**{game.skill.budget: getattr(game.knobs(), game.skill.budget)})


def beat_share(frame, agent: str) -> float:
    """The share of pairings (a game, a seat of ``agent``, a seat of another
    agent) in which the ``agent`` seat finishes ahead (by ``rank``; a tie
    counts one half): with two players, its share of games won."""
    import numpy as np

    mine = frame[frame["agent"] == agent].set_index("game")["rank"]
    other = frame[frame["agent"] != agent][["game", "rank"]]
    if not len(mine) or not len(other):
        return float("nan")
    r = mine.reindex(other["game"]).to_numpy(float)
    o = other["rank"].to_numpy(float)
    return float(np.mean((r < o) + 0.5 * (r == o)))


def learned_levels(game: Game, n_players: int, params=None) -> tuple[Level, Level, Level] | None:
    """(the learned rung, the default model, the top search rung) as trace levels, or None when
    the game has no learned rung (``GAME.skill.learned``).  The learned rung plays under the
    search knobs: it was learned from the search's games."""
    name = game.skill.learned
    if not name:
        return None
    levels = trace_levels(game, n_players, params)
    default = next(lv for lv in levels if lv.name == "default")
    searches = [lv for lv in levels if lv.budget is not None and lv.agent == game.skill.search]
    top = max(searches, key=lambda lv: lv.budget or 0)  # the top budget: the top decided search rung
    P = n_players
    learned = Level(len(levels), name, name, None, (name,) * P, top.params, name, (name,) * (P - 1), False)
    return learned, default, top
