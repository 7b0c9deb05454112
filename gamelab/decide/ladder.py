"""The decided skill ladder: a rung is kept only if it beats the rung below
(``gamelab skill --trace``, the report's first screen, the tuner's
``skill:`` and ``keep_skill:``).

After TAG's graded populations (a rule set's players must be ordered, better beating worse) and
Ludii's SkillTrace (double the budget until the curve flattens): the candidates are the trace's
levels, weakest first (random play, the default model, the search at doubling budgets).  A candidate
is accepted as the next rung when one seat of it among the accepted rung below on every other seat
(seats rotated, the same deals) wins more than the fair share, decided by the sequential test
(``gamelab.decide.sequential``: the GSPRT with error rates 0.05, indifference zone from the fair
share to 2 points above it).  The first candidate that does not beat the rung below ends the ladder
there; the trace then reports the game's skill headroom: the top rung as one seat among
default-model players, with its interval.
"""

from __future__ import annotations

import dataclasses

from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError
from gamelab.sim.levels import Level, learned_levels, mixed_params, trace_levels
from gamelab.sim.run import RunConfig

SEEDS_APART = 7919  # seed offset between the runs of one trace (a prime: no two runs share deals by accident)

STEP_MARGIN = 0.02  # a rung must be able to show 2 points over the fair share
STEP_ALPHA = STEP_BETA = 0.05  # the step test's error rates
STEP_MAX_GAMES = 24_576  # games a step may play before it is called undecided
HEADROOM_KEY = 0x4EAD  # seed offset of the headroom test


def step_question(seat: str, shift: float = 0.0) -> str:
    """The step test's question for one seat of agent ``seat``: H0 its win
    rate is the fair share, H1 it is 2 points above (the zone around the
    midpoint); ``shift`` moves both (-0.02: H0 2 points below fair, H1 fair)."""
    return f"win_rate[agent={seat}] - fair > {STEP_MARGIN / 2 + shift:g}"


def decide_step(
    game: Game,
    high: Level,
    low: Level,
    *,
    n_players: int,
    seed: int,
    max_games: int = STEP_MAX_GAMES,
    run: RunConfig | None = None,
    shift: float = 0.0,
) -> dict:
    """One seat of ``high`` among ``low`` on every other seat, decided by the
    sequential test (:func:`step_question`, ``shift`` moving its zone): level,
    below, question, decision (yes / no / undecided), beats, win_rate
    (median-unbiased), low, high, games, fair."""
    from gamelab.decide import sequential

    fair = 1 / n_players
    params, lineup = mixed_params(game, high, low), (high.seat, *low.rest)
    prepare = game.skill.prepare
    if prepare is not None:  # the agents' learned models, once here rather than in every worker
        prepare(params, lineup, n_players)
    d = sequential.decide(
        game,
        step_question(high.seat, shift),
        n_players=n_players,
        params=params,
        lineup=lineup,
        alpha=STEP_ALPHA,
        beta=STEP_BETA,
        zone=STEP_MARGIN,
        max_games=max_games,
        seed=seed,
        run=(run or RunConfig()).quiet(),
    )
    return {
        "level": high.name,
        "below": low.name,
        "question": step_question(high.seat, shift),
        "decision": d.decision,
        "beats": d.decision == "yes",
        "win_rate": d.estimate,  # T of ``T > c``: the seat's win rate (the fair share is in c)
        "low": max(0.0, d.low),
        "high": min(1.0, d.high),
        "games": d.games,
        "fair": fair,
    }


@dataclasses.dataclass
class Climb:
    """The decided ladder at one player count: the accepted rungs (each beat
    the one before), every step tried (the last one, if it failed, is where
    skill stops), and the headroom (the top rung among default-model seats)."""

    rungs: list[Level]
    steps: list[dict]
    stop: dict | None  # the first step that did not beat the rung below (None: every candidate did)
    headroom: dict | None  # the top rung as one seat among default-model seats (None: the top is the default)

    @property
    def games(self) -> int:
        """Games the ladder's tests played (the headroom's included)."""
        return sum(s["games"] for s in self.steps) + (self.headroom["games"] if self.headroom else 0)


def candidates(game: Game, n_players: int, params=None) -> list[Level]:
    """The levels a ladder tries, weakest first (:func:`gamelab.sim.levels.trace_levels`)."""
    return trace_levels(game, n_players, params)


def climb(
    game: Game,
    *,
    n_players: int,
    seed: int = 0,
    params=None,
    max_games: int = STEP_MAX_GAMES,
    run: RunConfig | None = None,
    up_to: str | None = None,
    headroom: bool = True,
) -> Climb:
    """Accept candidates while each beats the accepted rung below (see
    above); stop at the first that does not (or once ``up_to`` is accepted)."""
    run = run or RunConfig()
    levels = candidates(game, n_players, params)
    if up_to is not None:
        names = [lv.name for lv in levels]
        if up_to not in names:
            raise GamelabError(f"skill ladder: unknown rung {up_to!r} of {game.name}; its rungs are {', '.join(names)}")
        levels = levels[: names.index(up_to) + 1]
    rungs, steps, stop = [levels[0]], [], None
    for k, lv in enumerate(levels[1:], start=1):
        step = decide_step(
            game, lv, rungs[-1], n_players=n_players, seed=seed + SEEDS_APART * k, max_games=max_games, run=run
        )
        steps.append(step)
        _said(run, step)
        if not step["beats"]:
            stop = step
            break
        rungs.append(lv)
    top = None
    default = next((lv for lv in rungs if lv.name == "default"), None)
    if headroom and default is not None and rungs[-1].name != "default":
        top = decide_step(
            game,
            rungs[-1],
            default,
            n_players=n_players,
            seed=seed + HEADROOM_KEY,
            max_games=max_games,
            run=run,
        )
        _said(run, top, "headroom: ")
    return Climb(rungs, steps, stop, top)


def _said(run: RunConfig, step: dict, lead: str = "") -> None:
    """A progress line for a decided step (the tests run quietly)."""
    if run.progress is not False:
        import sys

        print(
            f"  {lead}{step['level']} against {step['below']}: {100 * step['win_rate']:.1f} % for one seat, "
            f"{step['decision']} after {step['games']:,} games",
            file=sys.stderr,
        )


LEARNED_MAX_GAMES = 4096  # games a learned-rung test may play (the top search rung sits in two of them)
LEARNED_KEY = 0x1EA5  # seed offset of the learned rung's tests


def learned_tests(
    game: Game,
    *,
    n_players: int,
    seed: int = 0,
    params=None,
    max_games: int = LEARNED_MAX_GAMES,
    run: RunConfig | None = None,
) -> dict | None:
    """The learned rung's decided tests (issue 39), each one seat among three of another rung,
    seats rotated, the step test's error rates and 2-point zone:

    * ``beats_default``: one learned seat among default-model seats, above the fair share
      (``yes`` wanted);
    * ``top_beats_it``: one seat of the top search rung among learned seats, 2 points above
      the fair share (``no`` wanted: the search does not beat it by 2 points);
    * ``holds_vs_top``: one learned seat among top-rung seats, not below fair - 2 points
      (``yes`` wanted).

    None when the game has no learned rung."""
    found = learned_levels(game, n_players, params)
    if found is None:
        return None
    learned, default, top = found
    run = run or RunConfig()
    tests = {}
    for k, (key, high, low, shift) in enumerate(
        (
            ("beats_default", learned, default, 0.0),
            ("top_beats_it", top, learned, 0.0),
            ("holds_vs_top", learned, top, -STEP_MARGIN),
        )
    ):
        at = seed + LEARNED_KEY + SEEDS_APART * k
        tests[key] = decide_step(
            game, high, low, n_players=n_players, seed=at, max_games=max_games, run=run, shift=shift
        )
        _said(run, tests[key], "learned rung: ")
    wanted = {"beats_default": "yes", "top_beats_it": "no", "holds_vs_top": "yes"}
    return {
        "rung": learned.name,
        "top": top.name,
        "tests": tests,
        "as_strong_as_top": all(tests[k]["decision"] == v for k, v in wanted.items() if k != "beats_default"),
        "beats_default": tests["beats_default"]["decision"] == "yes",
    }
