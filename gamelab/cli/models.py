"""Command-line commands of the player models: ``calibrate`` and ``skill``
(registered by :func:`add_commands` from :func:`gamelab.cli.commands.build_parser`)."""

from __future__ import annotations

import sys


def _cmd_calibrate(args) -> int:
    import pandas as pd

    from gamelab.cli.common import run_config
    from gamelab.cli.decide import names_list
    from gamelab.core import paths, registry
    from gamelab.core.files import check_output
    from gamelab.core.limits import announce
    from gamelab.models import targets
    from gamelab.models.calibrate import calibrate, free_knobs

    out = check_output(args.out or paths.runs_dir() / "calibrate" / f"{args.game}.yaml", (".yaml", ".yml"), "--out")
    g = registry.get(args.game)
    target = targets.records_or_published(g, args.target)
    free = names_list(args.free, "--free", "model knobs")
    free_knobs(g, free, targets.calibration_file(g))  # unknown or rule names refused before any game
    counts = len(g.report.players) or g.players[1] - g.players[0] + 1
    run = run_config(args).ready()  # one pool for every trial
    announce(
        f"gamelab calibrate {args.game}",
        g,
        (args.trials + 4) * args.games * counts,  # the trials, then before and after on twice the games
        workers=run.workers,
    )
    result = calibrate(
        g,
        target=target,
        free=free,
        trials=args.trials,
        n_games=args.games,
        seed=args.seed,
        run=run,
        log=print if args.verbose else None,
    )
    from gamelab.cli.common import words_table
    from gamelab.core.labels import param_words, value_words

    written = result.write(out)
    b, a = result.before, result.after
    lines = [
        f"{g.title}: fitted {', '.join(param_words(k) for k in result.free)} to {result.target} "
        f"({result.trials} trials, "
        f"{result.n_games} games per player count per candidate, seed {result.seed}; study {result.study})",
        f"verified on fresh deals (seed {result.seed + 1_000_003}, {2 * result.n_games} games per player count):",
        f"  objective (chi-square) {b['objective']:.1f} with the defaults -> {a['objective']:.1f} fitted",
        f"  cells inside the published sample's band: {b['band']} -> {a['band']} of {a['cells']}"
        + (f" ({a['excluded']} cells excluded: no model of the described kind can meet them)" if a["excluded"] else ""),
        "fitted knobs: "
        + (
            ", ".join(f"{param_words(k)} = {value_words(v)}" for k, v in result.knobs.items())
            or "none (the defaults fit best)"
        ),
    ]
    m = result.measured
    shown = m[["table", "row", "column", "value", "ours", "z", "band", "excluded"]].rename(
        columns={"value": "target", "band": "inside the band"}
    )
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        lines.append("\ncells at the fitted knobs (z = standardised residual):\n" + words_table(shown))
        if len(result.readings):
            lines.append(
                "\nrule readings at the fitted knobs (never changed by calibration; lower objective = better fit):\n"
                + words_table(result.readings)
            )
    lines.append(f"\nwrote {written}")
    print("\n".join(lines))
    return 0


LADDER_GAMES = 1000  # per level of the ladder
TRACE_GAMES = 400  # per level of the trace and per cell of its matrix (the search levels are slow)


def _skill_trace(args, g, params) -> int:
    """``gamelab skill --trace``: the metric at each skill level, the matrix, the failed steps."""
    from gamelab.cli.common import run_config
    from gamelab.core.errors import GamelabError, short
    from gamelab.core.files import dumps
    from gamelab.core.limits import announce
    from gamelab.decide import ladder as decided_ladder
    from gamelab.models import skill_words, trace
    from gamelab.sim import runner
    from gamelab.sim.store import ChunkStore

    runner.resolve(g, params, None, args.players)  # the player count, before any game
    if args.top is not None:  # the rung, before the ladder is played
        rungs = [lv.name for lv in decided_ladder.candidates(g, args.players, params)]
        if args.top not in rungs:
            raise GamelabError(
                f"--top {short(args.top)}: not a rung of {g.name}'s ladder; its rungs are {', '.join(rungs)}"
            )
    run = run_config(args, store=ChunkStore())
    print(
        f"deciding the ladder: each rung against the one below, as many games as each test needs "
        f"(at most {decided_ladder.STEP_MAX_GAMES:,} a step)",
        file=sys.stderr,
    )
    decided = decided_ladder.climb(g, n_players=args.players, seed=args.seed, params=params, run=run, up_to=args.top)
    n_levels = len(decided.rungs)
    cells = n_levels + n_levels * (n_levels - 1) // 2  # the rungs' tables and the matrix
    announce(f"gamelab skill {g.name}", g, cells * args.games, slow=True, workers=run.workers)
    t = trace.trace(
        g,
        args.trace,
        n_players=args.players,
        n_games=args.games,
        seed=args.seed,
        params=params,
        run=run,
        decided=decided,
        styles=g.skill.restricted is not None,
    )
    if args.json:
        print(dumps(t.to_json(), indent=2))
    else:
        print(f"{g.title}, {args.players} players.\n" + skill_words.render_trace(t))
    if args.out:
        from gamelab.report import charts

        charts.trace_figure(t, g).savefig(args.out)
        if not args.json:
            print(f"wrote {args.out}")
    return 0


def check_trace_args(g, args) -> None:
    """``--trace METRIC`` and ``--top RUNG`` before any game: the metric one of the game's and
    computable on the ladder's tables (a meta-game metric needs a run of random profiles, which the
    ladder's tables never hold), ``--top`` only with ``--trace``."""
    from gamelab.core.errors import GamelabError, short
    from gamelab.stats import balance

    if args.top is not None and args.trace is None:
        raise GamelabError(f"--top {short(args.top)} is for --trace: without it the whole ladder is played")
    if args.trace is None:
        return
    if not args.trace.strip():
        raise GamelabError("--trace '': names no metric; see 'gamelab metrics GAME' for the names")
    m = balance.metric(g, args.trace)  # an unknown metric: one line naming the known ones
    if not m.smooth:
        raise GamelabError(
            f"--trace {args.trace}: a meta-game metric, measured on a run of random profiles; the ladder's "
            "tables hold none (ask 'gamelab metagame' or 'gamelab test' instead)"
        )


def _cmd_skill(args) -> int:
    from gamelab.cli.common import run_config
    from gamelab.core import registry
    from gamelab.core.files import check_output, dumps
    from gamelab.core.limits import announce
    from gamelab.models import ladder, learned_rung, luck, skill_words
    from gamelab.sim import runner

    g = registry.get(args.game)
    params = g.knobs()
    check_trace_args(g, args)
    if args.profile:
        from gamelab.models.profile import apply, load_profile

        params = apply(load_profile(args.profile, g.name), params)
    if args.out is not None:
        check_output(args.out, (".png", ".svg", ".pdf"), "--out")
    if args.games is None:
        args.games = TRACE_GAMES if args.trace else LADDER_GAMES
    if args.trace:
        return _skill_trace(args, g, params)
    runner.resolve(g, params, None, args.players)  # the player count, before any game
    run = run_config(args)
    kw = dict(n_players=args.players, n_games=args.games, seed=args.seed, params=params, run=run)
    names = ladder.ladder_of(g)
    announce(f"gamelab skill {g.name}", g, len(names) * args.games, slow=True, workers=run.workers)
    levels = ladder.ladder(g, **kw)
    learned = learned_rung.learned_rung(g, n_players=args.players, seed=args.seed, params=params, run=run)
    if args.json:
        keys = ("level", "agent", "win_rate_vs_below", "low", "high", "games")
        rows = [{k: r[k] for k in keys} for r in levels]
        print(dumps(rows + ([learned_rung.learned_json(learned, len(rows))] if learned else []), indent=2))
    else:
        print(
            f"{g.title}, {args.players} players: each level against the level below\n"
            + skill_words.render(levels, luck.luck(g, **kw))
            + (f"\n\n{skill_words.learned_words(g, learned)}" if learned else "")
        )
    if args.out:
        from gamelab.report import charts

        charts.skill_figure(levels, title=f"{g.title}, {args.players} players").savefig(args.out)
        if not args.json:
            print(f"wrote {args.out}")
    return 0


def add_commands(sub) -> None:
    """Add ``calibrate`` and ``skill`` to the ``gamelab`` subparsers."""
    from gamelab.cli.common import GAMES_ARG, PLAYERS, SEED, TRIALS_ARG, InputFile, add_out, add_profile, add_where
    from gamelab.core import registry

    games = list(registry.available_games())
    p = sub.add_parser("calibrate", help="fit the agents' model knobs to the published tables or to playtests")
    p.add_argument("game", choices=games, help="the game")
    p.add_argument(
        "--target",
        nargs="+",
        type=InputFile(words=("published",)),
        default=None,
        metavar="published|RECORD",
        help="'published' (default: the rulebook's tables) or playtest record files",
    )
    p.add_argument("--free", default=None, metavar="NAME,...", help="model knobs to fit (default: data/calibration)")
    p.add_argument("--trials", type=TRIALS_ARG, default=30, help="Optuna trials (default 30)")
    p.add_argument("--games", type=GAMES_ARG, default=2400, help="games per player count per candidate")
    p.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    add_where(p)
    add_out(p, ".yaml", ".yml", metavar="FILE.yaml", help="the profile (default data/runs/calibrate/GAME.yaml)")
    p.add_argument("--verbose", action="store_true", help="print every trial")
    p.set_defaults(func=_cmd_calibrate)

    p = sub.add_parser("skill", help="the game's skill ladder: each level against the level below, and luck")
    p.add_argument("game", choices=games, help="the game")
    p.add_argument("--players", type=PLAYERS, required=True, help="player count")
    p.add_argument(
        "--games",
        type=GAMES_ARG,
        default=None,
        help="games per level (default 1000; with --trace 400 per level and per cell of the matrix)",
    )
    p.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    add_where(p)
    p.add_argument("--json", action="store_true", help="one object per level")
    p.add_argument(
        "--trace",
        default=None,
        metavar="METRIC",
        help="the metric at each rung of the decided ladder (random, the default model, each search budget that "
        "beats the one below by a sequential test) with the head-to-head matrix; e.g. seat_spread, style_spread",
    )
    p.add_argument(
        "--top",
        default=None,
        metavar="RUNG",
        help="with --trace: the highest rung the ladder tries (e.g. best@4; default every candidate)",
    )
    add_profile(p, "player-model profile")
    add_out(p, ".png", ".svg", ".pdf", metavar="FILE.png", help="save the skill-trace plot")
    p.set_defaults(func=_cmd_skill)
