"""A tune's proposals checked across skill (a goal's ``skill:`` and ``keep_skill:``).

``skill: [default, best@8]``: every target must hold at each named rung of
the game's decided skill ladder (:func:`gamelab.decide.ladder.climb`: only
rungs that beat the one below by the sequential test, decided under the
game's default rules at the goal's player count; a named level that does
not climb is refused in one line), each the table of that rung on every
seat under the proposal's rules, not only with the goal's own lineup.
The game's learned rung (``GAME.skill.learned``) may be named too: it
counts as a rung when it beats the default model by the same test, and
sits just above the default model in the ladder's order.
``keep_skill: 0.6``: each rung (the named ones, or every decided rung)
must still beat the one below under the proposal's rules: one
seat of the level among seats of the level below finishes ahead of a seat
of the lower level in at least that share of pairings
(:func:`gamelab.sim.levels.beat_share`; with two players, of games).  A
proposal cannot buy balance by making skill irrelevant.  Both are checked
at verification, on the verification's fresh deals.
"""

from __future__ import annotations

from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError
from gamelab.sim import runner
from gamelab.sim.levels import beat_share, learned_levels, level_names, mixed_params, trace_levels
from gamelab.sim.run import RunConfig
from gamelab.stats import bootstrap


def check_goal(goal, game: Game, source: str) -> None:
    """Refuse unknown level names in one line, before any game is played (``game``: the goal's)."""
    if goal.skill is None and goal.keep_skill is None:
        return
    names = rung_names(game)
    if not names:
        raise GamelabError(f"{source}: skill: {goal.game} declares no skill trace (GAME.skill.search)")
    for name in goal.skill or ():
        if name not in names:
            raise GamelabError(f"{source}: skill: unknown level {name!r}; {goal.game} has {', '.join(names)}")


def skill_checks(
    goal,
    game: Game,
    params,
    metrics,
    n_players: int,
    *,
    n_games: int,
    seed: int,
    run: RunConfig | None = None,
) -> tuple[dict, bool]:
    """Columns of one proposal's verification row at ``n_players`` (each
    target at each named level; each kept step's share), and whether all
    are met."""
    run = run or RunConfig()
    if goal.skill is None and goal.keep_skill is None:
        return {}, True
    levels = rung_levels(game, n_players, params)
    climbing = decided_rungs(goal, game, n_players, run)
    levels = {name: lv for name, lv in levels.items() if name in climbing}
    kw = dict(n_games=n_games, seed=seed, n_players=n_players, store=run.store, executor=run.executor, progress=False)
    row, ok = {}, True
    for name in goal.skill or ():
        lv = levels[name]
        frame = runner.simulate(game, lineup=lv.lineup, params=lv.params, **kw)
        est = bootstrap.estimate(frame, metrics).set_index("metric")
        for t in goal.targets:
            e = est.loc[t.metric]
            key = f"{t.metric} ({n_players}p, {name})"
            met = t.miss(e["value"]) == 0
            ok &= met
            row.update({key: e["value"], f"{key} low": e["low"], f"{key} high": e["high"], f"{key} met": met})
    if goal.keep_skill is not None:
        chain = [levels[n] for n in levels if goal.skill is None or n in goal.skill]
        for low, high in zip(chain, chain[1:]):
            frame = runner.simulate(game, lineup=[high.seat, *low.rest], params=mixed_params(game, high, low), **kw)
            share = beat_share(frame, high.seat)
            key = f"{high.name} beats {low.name} ({n_players}p)"
            met = bool(share >= goal.keep_skill)
            ok &= met
            row.update({key: share, f"{key} met": met})
    return row, ok


def decided_rungs(goal, game: Game, n_players: int, run: RunConfig) -> list[str]:
    """The names of the decided ladder's rungs the goal may use (up to its
    highest named level, or all of them), under the game's default rules;
    a named level that does not beat the one below is refused in one line."""
    from gamelab.decide.ladder import climb, decide_step

    names = level_names(game)
    named = [n for n in names if n in (goal.skill or ())]
    c = climb(game, n_players=n_players, up_to=named[-1] if named else None, headroom=False, run=run.quiet())
    rungs = [lv.name for lv in c.rungs]
    learned = game.skill.learned
    if learned and learned in (goal.skill or ()):  # the learned rung: it must beat the default model
        found = learned_levels(game, n_players)
        assert found is not None
        step = decide_step(game, found[0], found[1], n_players=n_players, seed=LEARNED_SEED, run=run.quiet())
        if step["decision"] != "yes":
            raise GamelabError(
                f"skill: {learned} is not a rung that climbs at {n_players} players: it does not beat the default "
                f"model ({step['decision']} after {step['games']:,} games); the decided rungs are " + ", ".join(rungs)
            )
        rungs.insert(rungs.index("default") + 1 if "default" in rungs else len(rungs), learned)
    missing = [n for n in named if n not in rungs]
    if missing:
        s = c.stop or {}
        raise GamelabError(
            f"skill: {missing[0]} is not a rung that climbs at {n_players} players: "
            f"{s.get('level', missing[0])} does not beat {s.get('below', '?')} "
            f"({s.get('decision', 'not decided')} after {s.get('games', 0):,} games); the decided rungs are "
            + ", ".join(rungs)
        )
    return rungs


LEARNED_SEED = 0x1EA7  # the deals of the learned rung's test against the default model


def rung_names(game: Game) -> list[str]:
    """The names a goal's ``skill:`` may use: the trace's levels, the learned rung just above the
    default model."""
    names = level_names(game)
    if game.skill.learned and names:
        names.insert(names.index("default") + 1, game.skill.learned)
    return names


def rung_levels(game: Game, n_players: int, params) -> dict:
    """{name: Level} of :func:`rung_names` under ``params``, in that order."""
    levels = {lv.name: lv for lv in trace_levels(game, n_players, params)}
    found = learned_levels(game, n_players, params)
    if found is None:
        return levels
    order = rung_names(game)
    return {name: levels.get(name, found[0]) for name in order if name in levels or name == found[0].name}
