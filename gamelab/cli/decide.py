"""The decision commands of the command line: ``metrics``, ``sensitivity``,
``tune`` and ``test`` (registered into ``gamelab``'s parser by
:func:`add_commands`; errors are :class:`~gamelab.core.errors.GamelabError`
lines, exit 2, as for every command)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.core.limits import MAX_TRIALS
from gamelab.sim.run import RunConfig

if TYPE_CHECKING:
    from gamelab.core.contract import Game


def _cmd_metrics(args) -> int:
    from gamelab.core import registry
    from gamelab.core.files import dumps
    from gamelab.stats import balance

    game = registry.get(args.game)
    rows = [
        {
            "name": m.name,
            "label": m.label,
            "meaning": m.doc,
            "better": m.goal or "-",
            "unit": "share (shown in points)" if m.percent else "value",
        }
        for m in balance.catalogue(game).values()
    ]
    rows.append(
        {
            "name": "win_rate[GROUP=VALUE]",
            "label": "win rate of one group",
            "meaning": "per-seat win rate of the seats whose GROUP is VALUE; GROUP one of "
            + ", ".join(game.report.groups),
            "better": "-",
            "unit": "share (shown in points)",
        }
    )
    if args.json:
        print(dumps(rows, indent=2))
        return 0
    width = max(len(r["name"]) for r in rows)
    lines = [
        f"{game.name}: balance metrics (names used by sensitivity, tune, test, reports and notebooks)",
        f"{'name':<{width}}  {'better':<6}  meaning",
    ]
    lines += [f"{r['name']:<{width}}  {r['better']:<6}  {r['meaning']}" for r in rows]
    print("\n".join(lines))
    return 0


def _executor(args):
    from gamelab.cli.common import executor_for

    return executor_for(getattr(args, "workers", 1) or 1, getattr(args, "scheduler", None))


# Over 60 lines: every argument checked before any game (names, metric, cost announced), then the
# answer in words; the steps in between are calls, each one line.
def _cmd_sensitivity(args) -> int:
    import sys

    from gamelab.cli.common import write_table
    from gamelab.core import registry
    from gamelab.core.files import check_output, dumps, load_params
    from gamelab.core.limits import announce
    from gamelab.decide import sensitivity
    from gamelab.report import charts
    from gamelab.sim import runner
    from gamelab.stats import balance

    params = load_params(args.game, args.params)
    for path, suffixes, flag in ((args.out, (".csv", ".parquet"), "--out"), (args.chart, (".png", ".svg"), "--chart")):
        if path:
            check_output(path, suffixes, flag)
    only = names_list(args.only, "--only", "parameters (or derived knobs)")
    game = registry.get(args.game)
    if args.metric is not None:
        balance.metric(game, args.metric)  # an unknown metric: one line naming the known ones
    metric = args.metric or game.report.headline
    metrics = ([args.metric] if args.metric else None) if args.json or args.out else [metric]
    base = runner.resolve(game, params, args.lineup, args.players)[0]
    todo, _ = sensitivity.settings(game, base, only)  # unknown names refused before any game
    announce(
        f"gamelab sensitivity {args.game}",
        game,
        args.games * (len(todo) + 1),
        workers=getattr(args, "workers", 1) or 1,
    )
    table = sensitivity.levers(
        game,
        n_players=args.players,
        lineup=args.lineup,
        params=params,
        n_games=args.games,
        seed=args.seed,
        only=only,
        metrics=metrics,
        run=RunConfig(executor=_executor(args), progress=_progress()),
    )
    if args.json:
        print(dumps(sensitivity.json_rows(table), indent=1))
        return 0
    fr = sensitivity.framing(table, metric, args.goal)
    lines = [
        fr.text(top=args.top),
        "",
        f"{table.attrs['players']} players, {table.attrs['games']:,} games per setting, the same deals for every "
        "setting; one step of each rule from the current rules:",
    ]
    lines += _lever_lines(fr, colour=sys.stdout.isatty())
    if args.verbose:
        lines.append(f"(seed {args.seed}; 95% paired bootstrap intervals over deals; 'sure': the interval excludes 0)")
    if fr.idle:
        lines.append(fr.idle_words())
    not_stepped = sensitivity.skipped_words(table.attrs["skipped"])
    if not_stepped:
        lines.append(not_stepped)
    if args.out:
        lines.append(f"wrote {write_table(table, args.out)}")
    if args.chart:
        charts.tornado_figure(table, metric, goal=args.goal).savefig(args.chart, dpi=110)
        lines.append(f"wrote {args.chart}")
    print("\n".join(lines))
    return 0


GREEN, RED, GREY, PLAIN = "\033[32m", "\033[31m", "\033[90m", "\033[0m"


def _lever_lines(fr, *, colour: bool) -> list[str]:
    """Every step, better ones first, each with its effect in words (and in
    colour on a terminal: green better, red worse, grey not sure)."""
    good, bad = ("better", "worse") if fr.goal else ("raises it", "lowers it")
    groups = [(fr.helps, f"{good}, sure", GREEN), (fr.hurts, f"{bad}, sure", RED), (fr.unsure, "not sure", GREY)]
    width = max((len(x.words) for g, _, _ in groups for x in g), default=10)
    out = []
    for levers, tag, code in groups:
        for x in levers:
            span = f"{fr.amount(x.low, unit=False)} to {fr.amount(x.high, unit=False)}"
            line = f"  {x.words:<{width}}  {fr.amount(x.change):>14}  ({span})  {tag}"
            out.append(f"{code}{line}{PLAIN}" if colour else line)
    return out


def _cmd_tune(args) -> int:
    from gamelab.core.files import check_directory
    from gamelab.core.limits import MAX_RUN_GAMES, announce, check_count
    from gamelab.decide import tune
    from gamelab.report import charts

    goal = tune.load_goal(args.goal)
    st = tune.setting(goal, str(args.goal))  # every check of the goal before any game
    games = tune.expected_games(goal, args.trials)
    if games > MAX_RUN_GAMES:
        trials = args.trials or goal.trials
        raise GamelabError(
            f"{args.goal}: {trials:,} trials of {goal.games:,} games (and the verification) are {games:,} games, "
            f"above the run bound of {MAX_RUN_GAMES:,}: fewer trials or games"
        )
    check_count("trials", args.trials or goal.trials, MAX_TRIALS)
    for folder, flag in ((args.runs_dir, "--runs-dir"), (args.out, "--out")):
        if folder is not None:
            check_directory(folder, flag)
    announce(f"gamelab tune {args.goal}", st.game, tune.expected_games(goal, args.trials), workers=args.workers or 1)
    print(
        f"{st.game.title}: looking for the smallest rule changes with {tune.goal_words(st)} "
        f"({args.trials or goal.trials} trials of {goal.games:,} games each)",
        flush=True,
    )
    result = tune.run(
        goal,
        trials=args.trials,
        out=args.out,
        runs_dir=args.runs_dir,
        run=RunConfig(executor=_executor(args), progress=_progress()),
        chart=charts.front_figure,
    )
    shown = tune.shown_rows(st, result.proposals)
    lines = [result.summary, ""]
    for r in shown.to_dict("records"):
        figures = "; ".join(f"{k} {v}" for k, v in r.items() if k not in ("proposal", "changes", "how sure"))
        head = "The rules now" if r["proposal"] == "rules now" else f"Proposal {r['proposal']}: {r['changes']}"
        lines.append(f"{head}: {figures}; {r['how sure']}.")
    if args.verbose:
        lines += [
            "",
            f"{result.trials} trials ({result.resumed} resumed from {result.study.study_name}); figures on "
            f"{goal.verify_games or tune.VERIFY_FACTOR * goal.games:,} fresh games per player count "
            f"(seed {goal.seed + tune.VERIFY_SEED_OFFSET}, 95% bootstrap intervals); verdicts by sequential tests "
            f"(alpha = beta = 0.05, at most {tune.sure_games(goal):,} games a question)",
        ]
    lines += [f"wrote {f}" for f in result.files]
    print("\n".join(lines))
    return 0


def _progress() -> bool:
    """A progress bar on a terminal; a line every few seconds otherwise
    (:func:`gamelab.sim.executors.progress_bar`)."""
    return True


def _cmd_test(args) -> int:
    from dataclasses import asdict

    from gamelab.core.files import dumps, load_params
    from gamelab.core.limits import announce
    from gamelab.decide import sequential

    game = registry.get(args.game)
    params = load_params(args.game, args.params)
    baseline = load_params(args.game, args.baseline) if args.baseline else None
    args.expr = headline_question(game, args.expr)
    question = sequential.question_for(game, args.expr, with_baseline=baseline is not None)  # before any game
    sequential.check_range(game, question)  # a bound the metric can reach (a count of styles, a share)
    sequential.check_looks(  # at least one look of the test
        game, question, args.max_games, n_players=args.players, lineup=args.lineup, baseline=baseline is not None
    )
    if not args.plan:
        announce(
            "gamelab test (stops as soon as decided; at most)",
            game,
            args.max_games,
            workers=getattr(args, "workers", 1) or 1,
        )
    kw = dict(
        n_players=args.players,
        params=params,
        baseline=baseline,
        lineup=args.lineup,
        alpha=args.alpha,
        beta=args.beta,
        zone=args.zone,
        max_games=args.max_games,
        seed=args.seed,
        run=RunConfig(executor=_executor(args), progress=_progress()),
    )
    if args.plan:
        plan = sequential.plan(game, args.expr, **kw)
        if args.json:
            print(dumps(asdict(plan), indent=1))
        else:
            print(plan.words() + ("\n\n" + plan.text() if args.verbose else ""))
        return 0
    d = sequential.decide(game, args.expr, **kw)
    if args.json:
        print(dumps(asdict(d) | {"sentence": d.sentence, "answer": d.answer}, indent=1))
        return 0
    lines = [d.answer]
    if args.verbose:
        lines += ["", *d.details()]
    print("\n".join(lines))
    return 0


#: the question ``gamelab test GAME`` asks without one: is the headline imbalance within 5 points?
DEFAULT_BOUND = "< 0.05"
COMPARISONS = ("<", ">")


def headline_question(game: Game, expr: str | None) -> str:
    """The question as given, or about the game's headline imbalance
    (``ReportSettings.headline``, a game's style spread) when it names no
    metric: ``"< 0.10"`` is ``"style_spread < 0.10"``, and no question at all
    asks whether it is within 5 points (``"style_spread < 0.05"``)."""
    headline = game.report.headline
    text = (expr if expr is not None else DEFAULT_BOUND).strip()
    return f"{headline} {text}" if text.startswith(COMPARISONS) else text


def names_list(text: str | None, flag: str, what: str) -> list[str] | None:
    """``NAME,NAME`` as a list; None when the flag is not given; an empty
    list (``--only ','``) is an error, never "all"."""
    if text is None:
        return None
    from gamelab.core.errors import GamelabError, short

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise GamelabError(f"{flag} {short(text)}: names no {what}; give NAME,... or leave {flag} out")
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        raise GamelabError(f"{flag} {short(text)}: {short(twice)} is named twice; name each once")
    return names


def _rate(text: str) -> float:
    import argparse

    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
    if not 0 < v < 0.5:
        raise argparse.ArgumentTypeError(f"{text} is out of range: expected an error rate between 0 and 0.5")
    return v


def add_commands(subparsers) -> None:
    """Register ``metrics``, ``sensitivity``, ``tune`` and ``test``."""
    _add_metrics(subparsers)
    _add_sensitivity(subparsers)
    _add_tune(subparsers)
    _add_test(subparsers)


def _add_metrics(subparsers) -> None:
    """The ``gamelab metrics`` command's arguments."""
    p = subparsers.add_parser("metrics", help="list a game's balance metrics (names, meaning, which way is better)")
    p.add_argument("game", choices=registry.available_games(), help="the game (one of those registered)")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(func=_cmd_metrics)


def _add_sensitivity(subparsers) -> None:
    """The ``gamelab sensitivity`` command's arguments."""
    from gamelab.cli.common import GAMES_ARG, INPUT_FILE, PLAYERS, SEED, add_out, add_where, bounded, output_file
    from gamelab.decide.defaults import DEFAULT_GAMES

    p = subparsers.add_parser(
        "sensitivity", help="which rule parameters move a balance metric: a step down and up of each, on the same deals"
    )
    p.add_argument("game", choices=registry.available_games(), help="the game (one of those registered)")
    p.add_argument("--players", type=PLAYERS, default=None, help="player count (default the game's first)")
    p.add_argument("--lineup", nargs="+", default=None, metavar="AGENT", help="the agents at the table, seat by seat")
    p.add_argument("--games", type=GAMES_ARG, default=DEFAULT_GAMES, help="games per setting (default %(default)s)")
    p.add_argument(
        "--params", type=INPUT_FILE, default=None, metavar="FILE", help="the current rules (JSON/YAML mapping)"
    )
    p.add_argument("--only", default=None, metavar="NAME,...", help="only these parameters (or derived knobs)")
    p.add_argument(
        "--metric",
        default=None,
        help="the metric ranked and charted (default the game's headline imbalance, e.g. a style spread, else "
        "the seat spread); with --json or --out only its rows",
    )
    p.add_argument(
        "--goal",
        choices=("lower", "higher"),
        default=None,
        help="which way is better for the metric (default its declared side: lower for spreads)",
    )
    p.add_argument("--top", type=bounded(int, 1, 100, "a whole number"), default=5, help="steps named per side")
    p.add_argument("--verbose", action="store_true", help="also print the statistics behind the words")
    p.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    add_where(p)
    p.add_argument("--json", action="store_true", help="print every row: parameter, value, metric, change, low, high")
    add_out(p, ".csv", ".parquet", metavar="FILE.csv|.parquet", help="write the whole table")
    p.add_argument(
        "--chart",
        type=output_file(".png", ".svg"),
        default=None,
        metavar="FILE.png|.svg",
        help="write the tornado chart",
    )
    p.set_defaults(func=_cmd_sensitivity)


def _add_tune(subparsers) -> None:
    """The ``gamelab tune`` command's arguments."""
    from gamelab.cli.common import INPUT_FILE, TRIALS_ARG, add_where, folder_arg

    p = subparsers.add_parser(
        "tune",
        help="propose the smallest rule changes that meet balance targets (goal file)",
        description="Search rule changes toward the targets of a goal file, then decide each proposal by a "
        "sequential test on fresh deals: 'meets' only when the test decides it. Goal file (YAML): game, "
        "players, free (parameter: [low, high]), targets ([{metric: NAME, at_most: X}]), trials, games, seed; "
        "see docs/decisions.md and 'gamelab metrics GAME' for metric names.",
    )
    p.add_argument(
        "goal",
        type=INPUT_FILE,
        metavar="GOAL.yaml",
        help="the goal file: game, players, free parameters with ranges, targets (metric and bound)",
    )
    p.add_argument(
        "--trials",
        type=TRIALS_ARG,
        default=None,
        help="rule sets to try in the search (default: the goal file's 'trials'; more resumes a finished study)",
    )
    add_where(p)
    p.add_argument(
        "--out", type=folder_arg, default=None, metavar="DIR", help="proposals folder (default the study's folder)"
    )
    p.add_argument(
        "--runs-dir", type=folder_arg, default=None, metavar="DIR", help="where studies are kept (default data/runs)"
    )
    p.add_argument("--verbose", action="store_true", help="also print the statistics behind the verdicts")
    p.set_defaults(func=_cmd_tune)


def _add_test(subparsers) -> None:
    """The ``gamelab test`` command's arguments."""
    from gamelab.cli.common import GAMES_ARG, INPUT_FILE, PLAYERS, SEED, add_where, bounded
    from gamelab.core.limits import MAX_GAMES
    from gamelab.decide.defaults import DEFAULT_ZONE

    p = subparsers.add_parser(
        "test", help="decide a balance question by a sequential test, e.g. 'win_rate[seat=1] - fair > 0.02'"
    )
    p.add_argument("game", choices=registry.available_games(), help="the game (one of those registered)")
    p.add_argument(
        "expr",
        metavar="EXPR",
        nargs="?",
        default=None,
        help="the question: metrics (see 'gamelab metrics GAME'), numbers and 'fair' compared by < <= > >=; "
        "a comparison alone ('< 0.10') asks it of the game's headline imbalance (a style spread, else the seat "
        f"spread), and no question asks whether that is within 5 points ('{DEFAULT_BOUND}')",
    )
    p.add_argument("--players", type=PLAYERS, default=None, help="player count (default the game's first)")
    p.add_argument("--lineup", nargs="+", default=None, metavar="AGENT", help="the agents at the table, seat by seat")
    p.add_argument(
        "--params", type=INPUT_FILE, default=None, metavar="FILE", help="the rules tested (the 'params' arm)"
    )
    p.add_argument(
        "--baseline", type=INPUT_FILE, default=None, metavar="FILE", help="the rules compared against ('baseline' arm)"
    )
    p.add_argument("--alpha", type=_rate, default=0.05, help="chance of a wrong yes (default 0.05)")
    p.add_argument("--beta", type=_rate, default=0.05, help="chance of a wrong no (default 0.05)")
    p.add_argument(
        "--zone",
        type=bounded(float, 1e-6, 1e6, "a number"),
        default=DEFAULT_ZONE,
        help="width of the indifference zone around the threshold (default %(default)s)",
    )
    p.add_argument("--max-games", type=GAMES_ARG, default=MAX_GAMES, help="stop undecided after this many games")
    p.add_argument("--plan", action="store_true", help="only say how many games the question needs")
    p.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    add_where(p)
    p.add_argument("--verbose", action="store_true", help="also print the test's statistics")
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    p.set_defaults(func=_cmd_test)
