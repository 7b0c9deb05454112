"""The conformance checks: one game against the game contract
(:mod:`gamelab.core.contract`), after Pgx's ``api_test``.  A game that
passes them works with the runner, sweeps, reports, notebooks and the
command line.

Shipped in the package so that a designer's own game (named in
``GAMELAB_GAMES``) can be checked the same way as the shipped ones::

    from gamelab.sim.conformance import check_game
    check_game(GAME)              # every check; raises ConformanceError on the first failure

``tests/test_conformance.py`` runs every check over every available game.
Each check is a function of the :class:`~gamelab.core.contract.Game`;
:data:`CHECKS` lists them by name.

A difference between the engine and the reference names the game, the seed,
the player count, the game of the batch and the step, shows the two legal
masks (or the two states' differing fields) side by side, and ends with the
command that replays that batch and traces that game to the difference::

    python -m gamelab.sim.conformance GAME --players 3 --seed 103 --games 150 --game 5
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from gamelab.core import budgets, driver
from gamelab.core.contract import Game, declaration_problems, observe_state
from gamelab.core.errors import GamelabError, ParamError
from gamelab.core.files import load_mapping
from gamelab.core.params import from_mapping, specs
from gamelab.sim import runner


class ConformanceError(AssertionError):
    """A game breaks the contract; the message names the game and the check."""


def _require(ok, message: str) -> None:
    if not ok:
        raise ConformanceError(message)


def player_counts(game: Game) -> list[int]:
    """The fewest, the middle and the most players."""
    lo, hi = game.players
    return sorted({lo, (lo + hi) // 2, hi})


def drive(game: Game, params, n_games: int, n_players: int, rng, *, chance=None, on_step=None):
    """Random legal play through the contract alone (``core.driver.random_play``),
    every random action checked legal; ``on_step(state, legal, actions)`` sees
    every decision before it is made.  Returns (state, chance, steps)."""
    eng = game.engine

    def check(state, legal, actions):
        _require(
            eng.is_legal(params, state, legal, actions).all(), f"{game.name}: random_actions gave an illegal action"
        )
        if on_step is not None:
            on_step(state, legal, actions)

    try:
        return driver.random_play(
            eng, params, n_games, n_players, rng, chance=chance, before=check, max_steps=game.max_steps
        )
    except RuntimeError as exc:
        raise ConformanceError(f"{game.name}: {exc}") from None


def same_state(a, b) -> bool:
    """Two states hold equal arrays (and equal plain fields)."""
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            if x.shape != np.shape(y) or not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
                return False
        elif isinstance(x, dict):
            if x.keys() != y.keys() or not all(np.array_equal(x[k], y[k]) for k in x):
                return False
        elif x != y:
            return False
    return True


def take_actions(actions, g: int):
    """Game ``g``'s actions, as a batch of one (arrays or a NamedTuple of arrays)."""
    if isinstance(actions, tuple):
        return type(actions)(*(np.asarray(a)[g : g + 1] for a in actions))
    return np.asarray(actions)[g : g + 1]


def batch_view(ref, state, g: int, game) -> dict:
    """Game ``g`` of a batch state as the reference observes its own ``game``: the
    reference's ``observe_batch``, else the state's fields of the same names."""
    if hasattr(ref, "observe_batch"):
        return ref.observe_batch(state, g)
    return observe_state(state, g, ref.observe(game))


# -- the checks ------------------------------------------------------------------------


def random_games_end(game: Game) -> None:
    """Random games end within ``max_steps`` with a full result: score, win
    (one win per game, ties split) and rank per seat."""
    params = game.knobs()
    for n_players in player_counts(game):
        G = 200
        state, _, steps = drive(game, params, G, n_players, np.random.default_rng(n_players))
        _require(0 < steps <= game.max_steps, f"{game.name}: {steps} steps, max_steps {game.max_steps}")
        res = game.engine.result(params, state)
        for key in ("score", "win", "rank"):
            _require(np.asarray(res[key]).shape == (G, n_players), f"{game.name}: result[{key!r}] is not (G, P)")
        _require(np.allclose(np.asarray(res["win"]).sum(axis=1), 1.0), f"{game.name}: wins of a game do not sum to 1")
        rank = np.asarray(res["rank"])
        _require(
            rank.min() >= 1 and rank.max() <= n_players and (rank == 1).any(axis=1).all(),
            f"{game.name}: ranks outside 1..{n_players} or no rank 1",
        )


def step_leaves_its_input(game: Game) -> None:
    """``step(..., inplace=False)`` returns a new state and leaves the one it
    was given unchanged (the contract's state rule), at every decision."""
    params = game.knobs()
    eng = game.engine
    rng = np.random.default_rng(17)
    n_players = game.players[1]
    chance = eng.draw_chance(params, 16, n_players, rng)
    state = eng.init(params, 16, n_players, chance)
    steps = 0
    while not eng.done(params, state).all() and steps <= game.max_steps:
        legal = eng.legal(params, state)
        actions = eng.random_actions(params, state, legal, rng)
        before = state.copy()
        after, _ = eng.step(params, state, actions, chance)
        _require(after is not state, f"{game.name}: step(inplace=False) returned the state it was given")
        _require(same_state(before, state), f"{game.name}: step(inplace=False) changed its input at step {steps}")
        same, _ = eng.step(params, before, actions, chance, inplace=True)
        _require(same is before, f"{game.name}: step(inplace=True) did not return the state it was given")
        _require(same_state(same, after), f"{game.name}: step(inplace=True) differs from step(inplace=False)")
        state, steps = after, steps + 1


def same_seed_same_table(game: Game) -> None:
    """The same seed gives the same table; another seed another."""
    n = game.players[0]
    kw: dict[str, Any] = dict(n_games=400, n_players=n, progress=False)
    a = runner.simulate(game, seed=11, **kw)
    b = runner.simulate(game, seed=11, **kw)
    c = runner.simulate(game, seed=12, **kw)
    pd.testing.assert_frame_equal(a, b)
    _require(not a["score"].equals(c["score"]), f"{game.name}: seeds 11 and 12 give the same scores")
    _require({"game", "deal", "seat", "agent", "score", "win"} <= set(a.columns), f"{game.name}: columns missing")


def one_worker_equals_two(game: Game) -> None:
    """The table does not depend on how many workers play it."""
    kw: dict[str, Any] = dict(n_games=600, seed=5, n_players=game.players[0], chunk_deals=100, progress=False)
    one = runner.simulate(game, workers=1, **kw)
    pd.testing.assert_frame_equal(one, runner.simulate(game, workers=2, **kw))


def batch_equals_singles(game: Game) -> None:
    """A batch of N games equals N batches of one, state after state."""
    eng, params = game.engine, game.knobs()
    G, n_players = 24, game.players[1]
    rng = np.random.default_rng(3)
    chance = eng.draw_chance(params, G, n_players, rng)
    singles = [(eng.init(params, 1, n_players, chance.take([g])), chance.take([g])) for g in range(G)]
    steps = [0]

    def check(state, legal, actions):
        steps[0] += 1
        for g, (one, one_chance) in enumerate(singles):
            _require(
                same_state(one, state.take([g])),
                f"{game.name}: game {g} differs from its batch of one before step {steps[0]} "
                f"(seed 3, {n_players} players, a batch of {G} games)",
            )
            if not eng.done(params, one)[0]:
                singles[g] = (eng.step(params, one, take_actions(actions, g), one_chance)[0], one_chance)

    state, _, _ = drive(game, params, G, n_players, rng, chance=chance, on_step=check)
    whole = eng.result(params, state)
    for g, (one, _) in enumerate(singles):
        alone = eng.result(params, one)
        for key in ("score", "win", "rank"):
            _require(
                np.array_equal(np.asarray(alone[key])[0], np.asarray(whole[key])[g]),
                f"{game.name}: result {key!r} of game {g} differs alone",
            )


def engine_equals_reference(game: Game) -> None:
    """The batch engine equals ``reference.py`` step by step (the default rules, at the
    fewest, the middle and the most players; each variant: :func:`variant_conforms`)."""
    for n_players in player_counts(game):
        same_as_reference(game, game.knobs(), n_players, n_games=150, seed=100 + n_players)


@dataclasses.dataclass(frozen=True)
class Case:
    """A batch of random games checked against the reference: what replays it exactly."""

    game: str
    n_players: int
    n_games: int
    seed: int
    variant: str | None = None  # None: the rules the check was given (the default rules from the command line)

    def words(self) -> str:
        rules = f"variant {self.variant}" if self.variant else "the default rules"
        return f"seed {self.seed}, {self.n_players} players, a batch of {self.n_games} games, {rules}"

    def command(self, g: int) -> str:
        """The one line that replays this batch and traces game ``g`` to the difference."""
        variant = f" --variant {self.variant}" if self.variant else ""
        return (
            f"python -m gamelab.sim.conformance {self.game} --players {self.n_players} --seed {self.seed} "
            f"--games {self.n_games} --game {g}{variant}"
        )


SHOWN = 12  # differing mask entries or state fields shown at most
WIDE = 160  # characters of one side of a state field at most


def _clip(text: str, width: int = WIDE) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def mask_words(engine, reference) -> list[str]:
    """Two legal masks of one game side by side (1 legal, 0 not), and where they differ."""
    e, r = np.asarray(engine, bool).ravel(), np.asarray(reference, bool).ravel()
    if e.shape != r.shape:
        return [f"  engine:    {e.size} entries", f"  reference: {r.size} entries"]

    def bits(mask) -> str:
        return _clip("".join("1" if x else "0" for x in mask))

    where = np.flatnonzero(e != r)
    shown = ", ".join(f"{i} ({'engine' if e[i] else 'reference'} only)" for i in where[:SHOWN])
    more = f" and {len(where) - SHOWN} more" if len(where) > SHOWN else ""
    return [f"  engine:    {bits(e)}", f"  reference: {bits(r)}", f"  differ at action {shown}{more}"]


def state_words(engine: dict, reference: dict) -> list[str]:
    """The fields of one game's two views that differ, engine beside reference."""
    keys = [k for k in dict.fromkeys([*reference, *engine]) if not _equal(engine.get(k), reference.get(k))]
    width = max((len(str(k)) for k in keys), default=0)
    lines = [
        f"  {str(k):<{width}}  engine {_clip(repr(engine.get(k, '(none)')))} | "
        f"reference {_clip(repr(reference.get(k, '(none)')))}"
        for k in keys[:SHOWN]
    ]
    return lines + ([f"  and {len(keys) - SHOWN} more fields"] if len(keys) > SHOWN else [])


def _equal(a, b) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b))) if a is not None and b is not None else a is b
    except (TypeError, ValueError):
        return a == b


def _differs(case: Case, g: int, what: str, lines: list[str]) -> ConformanceError:
    """The error of a difference in game ``g``: the game, the case, both sides, the replay command."""
    return ConformanceError(
        "\n".join([f"{case.game}: {what} of game {g} differ ({case.words()})", *lines, f"replay: {case.command(g)}"])
    )


def same_as_reference(
    game: Game, params, n_players: int, *, n_games: int, seed: int, variant: str | None = None, trace=None
) -> None:
    """``n_games`` random games under ``params``, the engine's state after every step
    against the reference's, and the results.  A difference raises :class:`ConformanceError`
    naming the case (:class:`Case`), the game of the batch and the step, with both sides;
    ``trace(step, g, view)`` (the replay) sees every step's engine view of each game."""
    eng, ref, G = game.engine, game.reference, n_games
    case = Case(game.name, n_players, n_games, seed, variant)
    rng = np.random.default_rng(seed)
    chance = eng.draw_chance(params, G, n_players, rng)
    refs = [ref.start(params, n_players, chance, g) for g in range(G)]
    state = eng.init(params, G, n_players, chance)
    _same_views(case, ref, refs, state, "the set-up", trace, 0)
    legal_mask = getattr(ref, "legal_mask", None)  # optional: the reference's legal moves as the engine's mask
    step = 0
    while not eng.done(params, state).all():
        step += 1
        legal = eng.legal(params, state)
        if legal_mask is not None:
            for g in range(G):
                theirs, ours = legal_mask(params, refs[g]), np.asarray(legal)[g]
                if not np.array_equal(theirs, ours):
                    raise _differs(case, g, f"the legal moves before step {step}", mask_words(ours, theirs))
        actions = eng.random_actions(params, state, legal, rng)
        _require(eng.is_legal(params, state, legal, actions).all(), f"{game.name}: a random legal action is refused")
        for g in range(G):
            ref.advance(params, refs[g], state, actions, chance, g)
        state, _ = eng.step(params, state, actions, chance)
        _same_views(case, ref, refs, state, f"the states after step {step}", trace, step)
    res = eng.result(params, state)
    for g in range(G):
        r = ref.result(refs[g])
        for key in ("score", "win", "rank"):
            if key in r and not np.allclose(np.asarray(res[key])[g], np.asarray(r[key], float)):
                lines = [f"  engine:    {np.asarray(res[key])[g].tolist()}", f"  reference: {list(r[key])}"]
                raise _differs(case, g, f"the results ({key}) after step {step}", lines)


def _same_views(case: Case, ref, refs: list, state, what: str, trace, step: int) -> None:
    """Every game's engine view equals its reference's, else the difference in words."""
    for g, one in enumerate(refs):
        ours, theirs = batch_view(ref, state, g, one), ref.observe(one)
        if trace is not None:
            trace(step, g, ours)
        if theirs != ours:
            raise _differs(case, g, what, state_words(ours, theirs))


def agents_act_legally(game: Game) -> None:
    """Each agent (each search family at its smallest budget: :func:`one_per_budget_family`),
    asked at every state of random games (thousands of states: every decision of every game,
    so an agent that plans over a round sees the round in order), and every agent, at every
    budget, on every state of games it plays on every seat itself."""
    eng, params = game.engine, game.knobs()
    n_players = game.players[0]
    rng = np.random.default_rng(21)
    G = 128
    asking = one_per_budget_family(game.agents)
    controllers = {a: game.controller(params, [a] * n_players, G, np.random.default_rng(1)) for a in asking}
    asked = {a: 0 for a in asking}

    def ask(state, legal, actions):
        for agent, ctl in controllers.items():
            ok = eng.is_legal(params, state, legal, ctl.act(state, legal))
            _require(ok.all(), f"{game.name}: {agent} is illegal in {int((~ok).sum())} of {G} games")
            asked[agent] += G

    _, _, steps = drive(game, params, G, n_players, rng, on_step=ask)
    _require(min(asked.values(), default=G * steps) >= min(2000, G * steps), f"{game.name}: agents asked too rarely")
    for agent in game.agents:
        own_games_are_legal(game, params, agent, n_players)


def variant_cases(game: Game) -> list[tuple[str, int]]:
    """(variant, player count) for every variant, at the fewest players it allows."""
    cases = []
    for variant in game.variants:
        params = game.params_for_variant(variant)
        for n in range(1, game.players[1] + 1):
            try:
                game.engine.init(params, 1, n, game.engine.draw_chance(params, 1, n, np.random.default_rng(0)))
            except ParamError:
                continue
            cases.append((variant, n))
            break
    return cases


def variant_conforms(game: Game, variant: str, n_players: int) -> None:
    """One variant (the variants change the rules and what is legal): the engine equals the
    reference step by step over random games, and each agent on every seat plays legally,
    every decision checked."""
    changes = game.params_for_variant(variant).changed()
    params = from_mapping(game.knobs, changes, source=f"variant {variant}")
    same_as_reference(game, params, n_players, n_games=60, seed=300 + n_players, variant=variant)
    for agent in one_per_budget_family(game.agents):
        own_games_are_legal(game, params, agent, n_players, n_games=12)


def one_per_budget_family(agents) -> list[str]:
    """``agents`` with each search family (``best@1`` .. ``best@16``: one agent at several budgets)
    kept at its smallest budget only.  A budget is how many play-outs an option gets, not which
    moves the agent may choose from (that is the engine's mask, the same at every budget), so a
    variant's check plays one of each family; :func:`agents_act_legally` plays every budget on
    the game's own rules."""
    smallest: dict[str, int] = {}
    for name in agents:
        if (b := budgets.budget_of(name)) is not None:
            family = budgets.agent_of(name)
            smallest[family] = min(b, smallest.get(family, b))
    return [a for a in agents if budgets.budget_of(a) in (None, smallest.get(budgets.agent_of(a)))]


def every_variant(game: Game) -> None:
    """:func:`variant_conforms` for every variant, at the fewest players it allows."""
    for variant, n in variant_cases(game):
        variant_conforms(game, variant, n)


def own_games_are_legal(game: Game, params, agent: str, n_players: int, n_games: int = 40) -> None:
    """``agent`` on every seat of ``n_games`` games: every action legal, every game over in time."""
    eng = game.engine
    rng = np.random.default_rng(9)
    chance = eng.draw_chance(params, n_games, n_players, rng)
    state = eng.init(params, n_games, n_players, chance)
    ctl = game.controller(params, [agent] * n_players, n_games, rng)

    def check(state, legal, actions):
        _require(eng.is_legal(params, state, legal, actions).all(), f"{game.name}: {agent} played an illegal action")

    try:
        driver.play_out(eng, params, state, chance, ctl, before=check, max_steps=game.max_steps)
    except RuntimeError:
        raise ConformanceError(f"{game.name}: {agent}'s games not over after max_steps") from None


def validation_refuses_bad_values(game: Game) -> None:
    """Every declared parameter refuses a value outside its range or choices,
    an unknown name is refused, and so are player counts outside the game's."""
    refused = 0
    for spec in specs(game.knobs):
        bad: list = []
        if spec.choices is not None:
            bad.append("no such choice")
        elif spec.kind in (int, float) and spec.high is not None:
            bad.append(spec.high + 1)
        elif spec.kind in (int, float) and spec.low is not None:
            bad.append(spec.low - 1)
        for value in bad:
            try:
                from_mapping(game.knobs, {spec.name: value})
            except ParamError as exc:
                _require(spec.name in str(exc), f"{game.name}: the error for {spec.name} does not name it: {exc}")
            else:
                raise ConformanceError(f"{game.name}: {spec.name} = {value!r} was accepted")
            refused += 1
    _require(refused >= 1, f"{game.name}: no parameter has a range to check")
    try:
        from_mapping(game.knobs, {"no_such_parameter": 1})
    except ParamError:
        pass
    else:
        raise ConformanceError(f"{game.name}: an unknown parameter name was accepted")
    rules = game.rules()
    lo, hi = game.players
    for n in (lo - 1, hi + 1):
        try:
            game.engine.init(rules, 1, n, game.engine.draw_chance(rules, 1, max(n, 1), np.random.default_rng(0)))
        except ParamError:
            continue
        raise ConformanceError(f"{game.name}: {n} players accepted (the game is for {lo}-{hi})")


def records_round_trip(game: Game) -> None:
    """Every example record replays, its ledger is strict JSON (no
    ``default=str``), and the record replays the same after a JSON round trip."""
    fmt = game.record
    if fmt is None:
        return
    _require(fmt.examples, f"{game.name} ships no example record")
    for path in fmt.examples:
        record = load_mapping(path)
        _require(record.get("game") == game.name, f"{path}: names game {record.get('game')!r}")
        ledger, observed = fmt.replay(record)
        try:
            text = json.dumps({"ledger": ledger, "observed": observed}, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ConformanceError(f"{game.name}: the ledger of {path.name} is not strict JSON ({exc})") from None
        again = fmt.replay(json.loads(json.dumps(record, ensure_ascii=False)))
        _require(
            text == json.dumps({"ledger": again[0], "observed": again[1]}, sort_keys=True, allow_nan=False),
            f"{game.name}: {path.name} replays differently after a JSON round trip",
        )
        _require(fmt.tables(ledger), f"{game.name}: the ledger of {path.name} renders no table")


def declarations_agree(game: Game) -> None:
    """The declarations are well formed and agree with each other (``contract.check_declarations``:
    the ladder, lineups and meta-game name the game's agents, player counts are in its range, the
    errata heading exists, every variant builds), each problem naming its field."""
    problems = declaration_problems(game)
    _require(not problems, f"{game.name}: " + "; ".join(problems))


CHECKS: dict[str, Callable[[Game], None]] = {
    "declarations_agree": declarations_agree,
    "random_games_end": random_games_end,
    "step_leaves_its_input": step_leaves_its_input,
    "same_seed_same_table": same_seed_same_table,
    "one_worker_equals_two": one_worker_equals_two,
    "batch_equals_singles": batch_equals_singles,
    "engine_equals_reference": engine_equals_reference,
    "agents_act_legally": agents_act_legally,
    "every_variant": every_variant,
    "validation_refuses_bad_values": validation_refuses_bad_values,
    "records_round_trip": records_round_trip,
}


def check_game(game: Game, *, only: tuple[str, ...] = ()) -> list[str]:
    """Run every check (or those named in ``only``) on ``game``; the names of
    the checks passed.  The first failure raises :class:`ConformanceError`."""
    unknown = [n for n in only if n not in CHECKS]
    if unknown:
        raise GamelabError(f"unknown conformance check {unknown[0]!r}: expected one of {', '.join(CHECKS)}")
    passed = []
    for name, check in CHECKS.items():
        if only and name not in only:
            continue
        check(game)
        passed.append(name)
    return passed


def replay(argv: list[str] | None = None) -> int:
    """``python -m gamelab.sim.conformance GAME --players P --seed S --games N --game I [--variant V]``:
    the batch of a reference check played again, game ``I``'s state printed after every step, to the
    difference (exit 1) or to the end (exit 0)."""
    import argparse

    from gamelab.core import registry

    p = argparse.ArgumentParser(prog="python -m gamelab.sim.conformance", description=replay.__doc__)
    p.add_argument("game", help="the game's name")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--games", type=int, required=True, help="the batch's size (the random actions depend on it)")
    p.add_argument("--game", dest="index", type=int, default=None, help="the game of the batch to trace")
    p.add_argument("--variant", default=None, help="the variant's rules (default: the default rules)")
    args = p.parse_args(argv)
    try:
        game = registry.get(args.game)
        params = game.knobs()
        if args.variant:
            params = from_mapping(game.knobs, game.params_for_variant(args.variant).changed(), source=args.variant)
    except GamelabError as exc:
        print(f"{p.prog}: error: {exc}")
        return 2

    def trace(step: int, g: int, view: dict) -> None:
        if g == args.index:
            print(f"step {step}: " + _clip(", ".join(f"{k}={v!r}" for k, v in view.items()), 2000))

    try:
        same_as_reference(
            game, params, args.players, n_games=args.games, seed=args.seed, variant=args.variant, trace=trace
        )
    except ConformanceError as exc:
        print(exc)
        return 1
    print(f"{game.name}: the engine equals the reference in all {args.games} games")
    return 0


if __name__ == "__main__":  # pragma: no cover
    import sys

    sys.exit(replay())
