"""``gamelab bench``: throughput of the engines in one process, measured.

For each game (4 players): games per second with the game's agents
(``GAME.bench.agent_lineup``, through ``GAME.play`` with all its
diagnostics), under uniformly random legal play through the batch engine
(``GAME.bench.random_batch``, else ``core.driver.random_play``) and through the plain reference
(``GAME.reference.play_random``), the same game one at a time, the games/s of
every rung of the skill ladder (:func:`rung_rates`), their ratio, the time of
one interactive slider update (2,000 games of one cell through the runner,
nothing cached), the time of one rule slider move in the game's notebook
panel until its numbers are drawn (``panel_slider_s``: ``GAME.bench.panel_slider``,
the panel's default sample, nothing cached; the timer comes from the notebook
layer, ``gamelab.ui.slider_timing.time_slider_move``, passed in by the command), for
a game with a meta-game (``GAME.metagame``) the seconds of its payoff table
and equilibria at 4 players from nothing cached (``metagame_s``, once), and the
peak memory of 100,000 games in flight (measured in a fresh subprocess).
Medians of several repetitions.

Once for the whole command line (:func:`cli_seconds`, keys beside the games'):
``cli_help_s``, the seconds of ``gamelab --help`` from a fresh Python process to
its exit, and ``cli_refused_s``, the same for a refused argument (an unknown
game), each the best of ``CLI_REPS`` runs (the least disturbed by other work on
the machine); the target is ``TARGET_CLI_S``.

A game may declare more timed lineups (``GAME.bench.extra_lineups``: name ->
(players, lineup, target), e.g. a search agent against the default agents):
each is played through ``GAME.play`` in batches of ``EXTRA_BATCH`` games (one
interactive run's worth) and reported as ``<name>_games_per_s``.  The
``strong*`` lineups (the game's strongest agent on every seat, issue 20's
``strong_games_per_s``) are played in batches of ``STRONG_BATCH`` games (a
small run: the search must be fast without a large batch), and their target
is a :class:`~fractions.Fraction`: a share of the game's agents' games/s,
measured in the same run.
"""

from __future__ import annotations

import functools
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from gamelab.core import driver
from gamelab.core.contract import Bench, Game
from gamelab.core.errors import GamelabError
from gamelab.sim import runner

TARGET_SLIDER_S = 1.0
TARGET_CLI_S = 0.5  # gamelab --help, or a refused argument, from start to exit
CLI_REPS = 5
CLI_KEYS = ("cli_help_s", "cli_refused_s")
#: the command lines timed by :func:`cli_seconds`, with the exit status each must give
CLI_COMMANDS = {"cli_help_s": (("--help",), 0), "cli_refused_s": (("simulate", "no-such-game"), 2)}
EXTRA_BATCH = 2000  # games per call for a game's extra lineups (as one slider update)
STRONG_BATCH = 200  # games per call for the ``strong*`` lineups (a small run)
STRONG_PREFIX = "strong"
WARM_GAMES = 20  # games played once before timing a lineup (compiled code, tables, imports)


def _median_rate(fn, n_games: int, reps: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(reps):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return n_games / statistics.median(times)


def bench_game(
    game: Game,
    *,
    n_players: int = 4,
    batch: int = 20_000,
    reps: int = 5,
    reference_games: int = 300,
    memory: bool = True,
    panel_slider=None,
) -> dict:
    if game.bench is None:
        raise GamelabError(f"{game.name} declares no bench (Game.bench): nothing to time")
    ref = game.reference
    params = game.knobs()
    agent_lineup = lineup_of(game, n_players)
    random_lineup = list(game.bench.random_lineup(n_players)) if game.bench.random_lineup else ["random"] * n_players
    seq = np.random.SeedSequence(12345)
    runner.play_seated(game, params, agent_lineup, 1000, n_players, seq)  # warm caches (tables, imports)
    out: dict[str, float] = {"players": n_players, "batch": batch}
    out["agent_games_per_s"] = _median_rate(
        lambda: runner.play_seated(game, params, agent_lineup, batch, n_players, seq), batch, reps
    )
    rules = params  # the knobs class extends the rules: the engine reads only the rules' fields
    rng = np.random.default_rng(1)
    random_batch = game.bench.random_batch or functools.partial(driver.random_play, game.engine)
    out["random_games_per_s"] = _median_rate(lambda: random_batch(rules, batch, n_players, rng), batch, reps)
    out["random_runner_games_per_s"] = _median_rate(
        lambda: runner.play_seated(game, params, random_lineup, batch, n_players, seq), batch, reps
    )
    out["reference_games_per_s"] = _median_rate(
        lambda: [ref.play_random(rules, n_players, rng) for _ in range(reference_games)],
        reference_games,
        max(3, reps // 2),
    )
    out["batch_over_reference"] = out["random_games_per_s"] / out["reference_games_per_s"]
    slider = []
    for i in range(reps):
        t0 = time.perf_counter()
        runner.simulate(game, n_games=2000, seed=1000 + i, n_players=n_players, progress=False)
        slider.append(time.perf_counter() - t0)
    out["slider_update_s"] = statistics.median(slider)
    out.update(extra_rates(game, params, reps))
    if panel_slider is not None and game.bench.panel_slider is not None:
        name, value = game.bench.panel_slider
        out["panel_slider_s"] = panel_slider(game, name, value, reps=max(3, reps // 2))
    if game.skill.search:
        out.update(rung_rates(game, n_players))
    out.update(learned_rates(game, n_players, reps=max(3, reps // 2)))
    if game.metagame is not None and game.players[0] <= METAGAME_PLAYERS <= game.players[1]:
        out["metagame_s"] = metagame_seconds(game)
    if memory:
        out["memory_100k_games_mib"] = peak_memory_mib(game, 100_000, n_players)
    return out


METAGAME_PLAYERS = 4
METAGAME_WORKERS = 2
TARGET_METAGAME_S = 30.0


def metagame_seconds(game: Game) -> float:
    """Seconds for the meta-game at 4 players from nothing cached: every profile played
    (:func:`gamelab.sim.profiles.payoff_table`, 2 worker processes, a fresh chunk store) and
    solved with its bootstrap intervals (:func:`gamelab.stats.metagame.analyse`); no PSRO."""
    import tempfile

    from gamelab.sim.profiles import payoff_table
    from gamelab.sim.run import RunConfig
    from gamelab.sim.store import ChunkStore
    from gamelab.stats.metagame import analyse

    with tempfile.TemporaryDirectory() as tmp:
        run = RunConfig(store=ChunkStore(tmp), workers=METAGAME_WORKERS, progress=False).ready()
        t0 = time.perf_counter()
        sums = payoff_table(game, METAGAME_PLAYERS, run=run)
        analyse(sums)
        return time.perf_counter() - t0


def extra_rates(game: Game, params, reps: int) -> dict:
    """``<name>_games_per_s`` of each of the game's extra lineups."""
    out = {}
    for name, (players, lineup_fn, _target) in _bench(game).extra_lineups.items():
        lineup = list(lineup_fn(players))
        seq = np.random.SeedSequence(12345)
        batch = STRONG_BATCH if name.startswith(STRONG_PREFIX) else EXTRA_BATCH
        runner.play_seated(game, params, lineup, min(batch, WARM_GAMES), players, seq)  # warm caches

        def play(lineup=lineup, players=players, seq=seq, batch=batch):
            return runner.play_seated(game, params, lineup, batch, players, seq)

        out[f"{name}_games_per_s"] = _median_rate(play, batch, max(3, reps // 2))
    return out


RUNG_BATCH = 200  # games per timed call of a rung (the search rungs are slow: one repetition each)


def rung_rates(game: Game, n_players: int = 4) -> dict:
    """Games/s of each rung the skill ladder may try (issue 27), recorded (no
    target): ``rung_<name>_all_games_per_s`` the rung on every seat,
    ``rung_<name>_seat_games_per_s`` one seat of it among default-model
    seats; one timed call of ``RUNG_BATCH`` games each (the search rungs
    take seconds a call), after a warm-up (it learns a level-k rung's model
    or reads it from the cache); CPU time, one core."""
    from gamelab.sim.levels import mixed_params, trace_levels

    levels = trace_levels(game, n_players)
    default = next(lv for lv in levels if lv.name == "default")
    out = {}
    for lv in levels:
        for kind, lineup, params in (
            ("all", list(lv.lineup), lv.params),
            ("seat", [lv.seat, *default.rest], mixed_params(game, lv, default)),
        ):
            seq = np.random.SeedSequence(777)
            runner.play_seated(game, params, lineup, WARM_GAMES, n_players, seq)

            def play(lineup=lineup, params=params, seq=seq):
                return runner.play_seated(game, params, lineup, RUNG_BATCH, n_players, seq)

            # CPU time of this process (one core): on a shared machine the wall clock measures the neighbours
            out[f"rung_{lv.name}_{kind}_games_per_s"] = _median_rate(play, RUNG_BATCH, 1, clock=time.process_time)
    return out


LEARNED_BATCH = 2000  # games per timed call of the default model and of the learned rung (one slider update)
#: the learned rung's speed target: a share of the default model's games/s (issue 39)
LEARNED_SHARE = Fraction(1, 10)


def learned_rates(game: Game, n_players: int = 4, *, reps: int = 3) -> dict:
    """The learned rung (``GAME.skill.learned``; issue 39) beside the default model and the top
    search rung, all seats, ``n_players``: ``default_games_per_s``, ``top_rung_games_per_s``,
    ``learned_games_per_s`` (CPU time of this process, median of ``reps`` calls of
    ``LEARNED_BATCH`` games; the top rung one call of ``RUNG_BATCH``), ``learned_over_default``,
    ``top_rung`` (its name) and ``learned_relearn_cpu_s`` (:func:`relearn_seconds`).  A game
    without a learned rung: ``{"learned": None}``."""
    from gamelab.sim.levels import learned_levels

    found = learned_levels(game, n_players)
    if found is None:
        return {"learned": None}
    learned, default, top = found
    out: dict = {"learned": learned.name, "top_rung": top.name}
    for key, lv, batch, n in (
        ("default", default, LEARNED_BATCH, reps),
        ("learned", learned, LEARNED_BATCH, reps),
        ("top_rung", top, RUNG_BATCH, 1),
    ):
        seq = np.random.SeedSequence(4242)
        prepare = game.skill.prepare
        if prepare is not None:  # its model learned (or read) before the clock starts
            prepare(lv.params, lv.lineup, n_players)
        runner.play_seated(game, lv.params, list(lv.lineup), WARM_GAMES, n_players, seq)

        def play(lv=lv, batch=batch, seq=seq):
            return runner.play_seated(game, lv.params, list(lv.lineup), batch, n_players, seq)

        out[f"{key}_games_per_s"] = _median_rate(play, batch, n, clock=time.process_time)
    out["learned_over_default"] = out["learned_games_per_s"] / out["default_games_per_s"]
    out.update(relearn_seconds(game, n_players))
    return out


def relearn_seconds(game: Game, n_players: int = 4) -> dict:
    """``learned_relearn_cpu_s``: CPU seconds the learned rung takes to learn for a changed
    rule set (the game's first variant that changes a rule: ``learned_relearn_rules``), in a
    fresh process with an empty cache (its own ``GAMELAB_HOME``), through ``GAME.skill.prepare``."""
    import os
    import tempfile

    variant = next((v for v in game.variants if v != "standard" and game.params_for_variant(v) != game.rules()), None)
    code = (
        "import sys, time\n"
        "from gamelab.core import registry\n"
        f"g = registry.get({game.name!r})\n"
        "params = g.knobs()\n"
        f"variant = {variant!r}\n"
        "if variant is not None:\n"
        "    params = params.replace(**g.params_for_variant(variant).as_dict())\n"
        f"lineup = ({game.skill.learned!r},) * {n_players}\n"
        "t0 = time.process_time()\n"
        f"g.skill.prepare(params, lineup, {n_players})\n"
        "print(time.process_time() - t0)\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "GAMELAB_HOME": tmp}
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return {"learned_relearn_cpu_s": float(res.stdout.split()[-1]), "learned_relearn_rules": variant or "the defaults"}


def extra_target(target, result: dict) -> tuple[float, str]:
    """An extra lineup's target in games/s and its wording: a Fraction is a
    share of the game's agents' games/s (``result``'s), else games/s."""
    if isinstance(target, Fraction):
        return float(target) * result["agent_games_per_s"], f"{target} of the agents' games/s"
    return target, f"{target:,g} games/s"


def lineup_of(game: Game, n_players: int) -> list[str]:
    """The lineup the bench times: the game's bench lineup, else its default one."""
    return list((_bench(game).agent_lineup or game.default_lineup)(n_players))


def peak_memory_mib(game: Game, n_games: int, n_players: int) -> float:
    """Peak resident memory of a fresh process that plays ``n_games`` at once (the
    process finds the game by its name, given in its code)."""
    code = (
        f"import resource, numpy as np\n"
        f"from gamelab.core import registry\n"
        f"from gamelab.sim.bench import lineup_of\n"
        f"from gamelab.sim.runner import play_seated\n"
        f"ad = registry.get({game.name!r})\n"
        f"base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        f"play_seated(ad, ad.knobs(), lineup_of(ad, {n_players}), {n_games}, {n_players},"
        f" np.random.SeedSequence(1))\n"
        f"print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(res.stdout.split()[-1]) / 1024


def cli_seconds(reps: int = CLI_REPS) -> dict:
    """``cli_help_s`` and ``cli_refused_s``: seconds from the start of a fresh
    ``python -m gamelab`` to its exit, best of ``reps`` (a run that exits with
    another status than expected is an error, not a time)."""
    out = {}
    for key, (args, status) in CLI_COMMANDS.items():
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            res = subprocess.run([sys.executable, "-m", "gamelab", *args], capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if res.returncode != status:
                raise GamelabError(
                    f"gamelab {' '.join(args)} exited with {res.returncode}, not {status}: {res.stderr.strip()[-200:]}"
                )
        out[key] = min(times)
    return out


def _bench(game: Game) -> Bench:
    if game.bench is None:
        raise GamelabError(f"{game.name} declares no bench (Game.bench): nothing to time")
    return game.bench


def verdicts(games: Sequence[Game], results: dict) -> list[tuple[str, bool, str]]:
    """Each target of each game's bench, met or not, beside the figure (``results``: the
    figures by game name, as :func:`run` gives them)."""
    rows = []
    for g in games:
        game, r = g.name, results[g.name]
        bench = _bench(g)
        target = bench.agent_target
        rows.append(
            (f"{game} agents >= {target:,} games/s", r["agent_games_per_s"] >= target, f"{r['agent_games_per_s']:,.0f}")
        )
        rows.append(
            (
                f"{game} batch/reference >= {bench.ratio_target:g}x",
                r["batch_over_reference"] >= bench.ratio_target,
                f"{r['batch_over_reference']:.1f}x",
            )
        )
        rows.append(
            (
                f"{game} slider update < {TARGET_SLIDER_S:g} s",
                r["slider_update_s"] < TARGET_SLIDER_S,
                f"{r['slider_update_s']:.3f} s",
            )
        )
        for name, (players, _lineup, target) in bench.extra_lineups.items():
            rate = r.get(f"{name}_games_per_s")
            if rate is not None:
                need, wording = extra_target(target, r)
                ratio = f" (1/{r['agent_games_per_s'] / rate:,.0f})" if isinstance(target, Fraction) else ""
                rows.append((f"{game} {name} ({players} players) >= {wording}", rate >= need, f"{rate:,.1f}{ratio}"))
        if r.get("learned_games_per_s") is not None:
            rows.append(
                (
                    f"{game} learned rung ({r['learned']}, all seats) >= {LEARNED_SHARE} of the default's games/s",
                    r["learned_over_default"] >= LEARNED_SHARE,
                    f"{r['learned_games_per_s']:,.0f} (1/{1 / r['learned_over_default']:,.1f})",
                )
            )
        if "panel_slider_s" in r:
            name, _value = bench.panel_slider or ("", None)
            rows.append(
                (
                    f"{game} panel slider ({name.replace('_', ' ')}) < {TARGET_SLIDER_S:g} s",
                    r["panel_slider_s"] < TARGET_SLIDER_S,
                    f"{r['panel_slider_s']:.3f} s",
                )
            )
        if "metagame_s" in r:
            rows.append(
                (
                    f"{game} meta-game at {METAGAME_PLAYERS} players < {TARGET_METAGAME_S:g} s",
                    r["metagame_s"] < TARGET_METAGAME_S,
                    f"{r['metagame_s']:.1f} s",
                )
            )
        if "memory_100k_games_mib" in r:
            rows.append(
                (
                    f"{game} 100k games in flight < {bench.memory_mib:g} MiB",
                    r["memory_100k_games_mib"] < bench.memory_mib,
                    f"{r['memory_100k_games_mib']:.0f} MiB",
                )
            )
    rows += [
        (
            f"gamelab {' '.join(CLI_COMMANDS[k][0])} < {TARGET_CLI_S:g} s",
            results[k] < TARGET_CLI_S,
            f"{results[k]:.3f} s",
        )
        for k in CLI_KEYS
        if k in results
    ]
    return rows


def run(games: Sequence[Game], *, cli: bool = True, **kw) -> dict:
    """The figures of each game's bench, by game name, and (``cli``) the command
    line's times (:func:`cli_seconds`, under their own keys)."""
    return {**(cli_seconds() if cli else {}), **{g.name: bench_game(g, **kw) for g in games}}


def render(games: Sequence[Game], results: dict) -> str:
    lines = (
        [
            f"command line: --help {results['cli_help_s']:.3f} s; a refused argument {results['cli_refused_s']:.3f} s "
            f"(best of {CLI_REPS}, a fresh process each)"
        ]
        if "cli_help_s" in results
        else []
    )
    for game, r in results.items():
        if game in CLI_KEYS:
            continue
        lines.append(
            f"{game} ({r['players']} players, batch {r['batch']}): agents {r['agent_games_per_s']:,.0f} "
            f"games/s; random {r['random_games_per_s']:,.0f} games/s; reference "
            f"{r['reference_games_per_s']:,.0f} games/s (x{r['batch_over_reference']:.1f}); slider "
            f"update {r['slider_update_s']:.3f} s"
            + (f"; panel slider {r['panel_slider_s']:.3f} s" if "panel_slider_s" in r else "")
            + "".join(f"; {k[: -len('_games_per_s')]} {v:,.1f} games/s" for k, v in r.items() if _extra_key(k))
            + (
                f"; the learned rung learned again in {r['learned_relearn_cpu_s']:.1f} s CPU"
                if r.get("learned")
                else ""
            )
            + (f"; meta-game {r['metagame_s']:.1f} s" if "metagame_s" in r else "")
            + (f"; 100k games peak {r['memory_100k_games_mib']:.0f} MiB" if "memory_100k_games_mib" in r else "")
        )
    lines.append("")
    for name, ok, value in verdicts(games, results):
        lines.append(f"  [{'PASS' if ok else 'FAIL'}] {name}: {value}")
    return "\n".join(lines)


def _extra_key(key: str) -> bool:
    """An extra lineup's rate (not one of the fixed figures)."""
    return key.endswith("_games_per_s") and key not in _FIXED_RATES


_FIXED_RATES = ("agent_games_per_s", "random_games_per_s", "random_runner_games_per_s", "reference_games_per_s")


def to_json(results: dict) -> str:
    return json.dumps(results, indent=2)
