"""Styles at skill by restricted play (Jaffe et al. 2012): a rung's player held to one style's defining choice."""

from __future__ import annotations

from collections.abc import Sequence

from gamelab.core.contract import Game, Run
from gamelab.decide.ladder import SEEDS_APART
from gamelab.models.ladder import h2h_run, head_to_head
from gamelab.sim.levels import Level, mixed_params
from gamelab.sim.prefetch import prefetch
from gamelab.sim.run import RunConfig

STYLE_GAMES = 1024  # games per restricted-play style row


def restricted_table(
    game: Game, lv: Level, metric: str, *, n_players: int, n_games: int, seed: int
) -> tuple[str, Run] | None:
    """(agent, run) that measures ``metric`` at search rung ``lv`` by
    restricted play, when ``metric`` is the win rate of one value of the
    game's ``skill.restricted_group`` (``win_rate[style=heavy]``): one seat of
    the rung's player restricted to it among unrestricted seats of the rung
    (a search seat's style is otherwise only how the table models it)."""
    import re

    found = re.match(r"^win_rate\[(\w+)=([^\]]+)\]$", metric)
    if not (lv.search and found and game.skill.restricted and found.group(1) == game.skill.restricted_group):
        return None
    agent = game.skill.restricted(lv.name).get(found.group(2))
    if agent is None:
        return None
    seed = seed + SEEDS_APART * 97  # apart from the rung's own table
    params = mixed_params(game, lv, lv)
    return agent, h2h_run(agent, lv.rest, n_players=n_players, n_games=n_games, seed=seed, params=params)


def style_runs(game: Game, rung: Level, *, n_players: int, n_games: int, seed: int) -> list[tuple[str, str, Run]]:
    """(style, agent, run) of each restricted-play row at ``rung``: one seat
    of the rung's player restricted to the style among unrestricted seats."""
    named = game.skill.restricted(rung.name) if game.skill.restricted else {}
    out = []
    for k, (style, agent) in enumerate(named.items()):
        r = h2h_run(
            agent,
            rung.rest,
            n_players=n_players,
            n_games=n_games,
            seed=seed + SEEDS_APART * (101 + k),
            params=mixed_params(game, rung, rung),
        )
        out.append((style, agent, r))
    return out


def style_rows(
    game: Game,
    rungs: Sequence[Level],
    *,
    n_players: int,
    n_games: int = STYLE_GAMES,
    seed: int = 0,
    run: RunConfig | None = None,
) -> list[dict]:
    """Each style's edge at each of ``rungs``: the win rate of one seat of the
    rung's player restricted to the style's defining choice among P - 1
    unrestricted seats of the rung, with its 95 % interval, against the fair
    share (``edge``: above, below or neither)."""
    run = run or RunConfig()
    out = []
    for rung in rungs:
        todo = style_runs(game, rung, n_players=n_players, n_games=n_games, seed=seed)
        prefetch(game, [r for _, _, r in todo], run=run)
        for style, agent, r in todo:
            res, _ = head_to_head(
                game, agent, rung.rest, n_players=n_players, n_games=n_games, seed=r.seed, params=r.params, run=run
            )
            fair = 1 / n_players
            edge = "above" if res["low"] > fair else "below" if res["high"] < fair else "neither"
            out.append({"rung": rung.name, "style": style, "agent": agent, **res, "fair": fair, "edge": edge})
    return out
