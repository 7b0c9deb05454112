"""The ``gamelab`` command line.

Every subcommand turns a :class:`~gamelab.core.errors.GamelabError` into one line
on stderr and exit status 2; output is built whole before it is printed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gamelab.cli import decide, metagame, models, show
from gamelab.cli.common import (
    GAMES_ARG,
    INPUT_FILE,
    PLAYERS,
    PRECISION,
    SEED,
    WORKERS,
    Parser,
    add_out,
    add_profile,
    add_where,
    bounded,
    close_executors,
    executor_for,
    folder_arg,
    label_text,
    one_line,
    output_file,
    run_config,
    words_table,
    write_table,
)
from gamelab.core.errors import GamelabError, short
from gamelab.core.files import check_directory, check_output
from gamelab.core.limits import MAX_GAMES, announce
from gamelab.sim.run import RunConfig

COMMAND_GROUPS = (decide, models, metagame, show)  # further command groups, each with add_commands(subparsers)


def _cmd_replay(args) -> int:
    from gamelab.core.files import dumps
    from gamelab.rulebook import playtest

    outputs = []
    for path in args.files:
        ledger = playtest.replay_file(path)
        if args.json:
            outputs.append(dumps(ledger, indent=2))
        else:
            outputs.append(f"== {path} ==\n{playtest.render(ledger)}")
    print("\n\n".join(outputs))
    return 0


def _with_profile(path, game: str, params):
    """``params`` under the profile file ``path`` (if any): its model knobs
    where ``params`` left them at their defaults."""
    if not path:
        return params
    from gamelab.models.profile import apply, load_profile

    return apply(load_profile(path, game), params)


def _cmd_simulate(args) -> int:
    import pandas as pd

    from gamelab import stats
    from gamelab.core import registry
    from gamelab.core.files import load_params
    from gamelab.sim import runner, sweep
    from gamelab.sim.store import ChunkStore

    game = registry.get(args.game)
    params = _with_profile(args.profile, args.game, load_params(args.game, args.params))
    if args.out:
        check_output(args.out, (".csv", ".parquet"), "--out")
    runner.resolve(game, params, args.lineup, args.players)  # refuse a bad lineup before any work
    store = ChunkStore(args.cache_dir) if args.cache_dir else ChunkStore()
    check_directory(store.dir, "--cache-dir")
    where = run_config(args, store=store)
    # through the chunk store: a run interrupted (Ctrl-C, a closed lid) resumes where it stopped
    run = sweep.run_cell(
        game,
        {},
        n_games=args.games,
        seed=args.seed,
        base_params=params,
        lineup=args.lineup,
        n_players=args.players,
        run=where,
    )
    df = run.frame
    groups = [g for g in game.report.groups if g in df] or ["agent", "seat"]
    lines = [
        f"{args.game}: {df['game'].nunique()} games, {run.n_players} players, seed {args.seed} "
        f"({store.computed} chunks simulated, {store.loaded} read from the cache)"
    ]
    with pd.option_context("display.width", 200):
        for by in dict.fromkeys(groups):
            table = win_words(stats.win_table(df, by), by)
            lines.append(f"\nWin rate by {by}, {run.n_players} players (95 % Wilson interval)\n{table}")
    if args.out:
        lines.append(f"\nwrote {write_table(df, args.out)}")
    print("\n".join(lines))
    return 0


def players_words(res) -> str:
    """``4 players`` (``3, 4 players`` when the grid changes it): the player count of a sweep's cells."""
    counts = sorted({c.n_players for c in res.cells})
    return f"{', '.join(map(str, counts))} players"


def win_words(t, by: str) -> str:
    """A win table as a designer reads it: the group, seats played, the win
    rate and its interval in per cent, the mean score and its interval."""
    import pandas as pd

    from gamelab.report import format as fmt

    out = pd.DataFrame(
        {
            by: [fmt.group_label(by, v) for v in t[by]],
            "seats played": [f"{n:,}" for n in t["n"]],
            "win rate": [fmt.number(x, percent=True) for x in t["win_rate"]],
            "95 % interval": [fmt.interval(lo, hi, percent=True) for lo, hi in zip(t["win_low"], t["win_high"])],
        }
    )
    if "score_mean" in t:
        out["mean score"] = [f"{x:.1f}" for x in t["score_mean"]]
        out["score interval"] = [fmt.interval(lo, hi) for lo, hi in zip(t["score_low"], t["score_high"])]
    return out.to_string(index=False)


def _cmd_sweep(args) -> int:
    import pandas as pd

    from gamelab.core import paths, registry
    from gamelab.core.files import load_mapping
    from gamelab.core.params import from_mapping
    from gamelab.core.schemas import SweepSpec, parse
    from gamelab.sim import sweep
    from gamelab.sim.store import ChunkStore

    spec = parse(SweepSpec, load_mapping(args.file, what="sweep file"), str(args.file))
    game = registry.get(spec.game)
    base = from_mapping(game.knobs, spec.params, source=f"{args.file}: params") if spec.params else None
    profile = args.profile or spec.profile
    if profile:
        base = _with_profile(profile, game.name, base if base is not None else game.knobs())
    out = args.out or spec.out
    if out:
        check_output(out, (".csv", ".parquet"), "--out" if args.out else f"{args.file}: out")
    store = ChunkStore(args.cache_dir) if args.cache_dir else ChunkStore()
    check_directory(store.dir, "--cache-dir")
    executor = executor_for(None, args.scheduler) if args.scheduler else None
    grid = {k: list(v) for k, v in spec.grid.items()}
    sweep.check_grid(game, grid, base_params=base, lineup=spec.lineup, n_players=spec.n_players, source=str(args.file))
    res = sweep.sweep(
        game,
        grid,
        n_games=spec.n_games,
        seed=spec.seed,
        lineup=spec.lineup,
        n_players=spec.n_players,
        base_params=base,
        baseline=spec.baseline,
        precision=spec.precision,
        max_games=spec.max_games,
        chunk_deals=spec.chunk_deals,
        runs_dir=args.runs_dir,
        run=RunConfig(store=store, executor=executor, workers=args.workers or spec.workers or 1),
    )
    written = write_table(res.table, out or paths.runs_dir() / res.sweep_id / "table.csv")
    wr = res.table.query("metric == 'win_rate' and by == 'agent'")
    from gamelab.core.labels import agent_label, param_words, value_words
    from gamelab.report import format as fmt

    shown = pd.DataFrame({param_words(k): [value_words(v) for v in wr[k]] for k in grid})
    shown["agent"] = [agent_label(game, g) for g in wr["group"]]  # the rulebook's words: "the style mix, ..."
    shown["win rate"] = [fmt.number(x, percent=True) for x in wr["value"]]
    shown["95 % interval"] = [fmt.interval(lo, hi, percent=True) for lo, hi in zip(wr["low"], wr["high"])]
    shown["games"] = [f"{int(n):,}" for n in wr["games"]]
    with pd.option_context("display.width", 200):
        summary = shown.to_string(index=False)
    print(
        f"sweep {res.sweep_id}: {len(res.cells)} cells ({res.resumed} read back finished), {res.computed} chunks "
        f"simulated, {res.loaded} read from the cache\n\nWin rate by agent, {players_words(res)}\n{summary}\n\n"
        f"wrote {written}"
    )
    return 0


def _cmd_identities(args) -> int:
    import pandas as pd

    from gamelab.core import registry
    from gamelab.core.files import load_params, rules_class
    from gamelab.rulebook.identities import identity_table

    game = registry.get(args.game)
    params = load_params(args.game, args.params, cls=None if args.games else rules_class(args.game))
    frames = {}
    if args.games:
        from gamelab.sim import runner

        counts = [args.players] if args.players else game.report.players
        announce(f"gamelab identities {args.game}", game, args.games * len(counts), workers=args.workers)
        for n in counts:
            frames[n] = runner.simulate(
                game, n_games=args.games, seed=args.seed, params=params, n_players=n, workers=args.workers
            )
    from gamelab.core.labels import changes_words

    t = identity_table(game, params, frames=frames)
    from gamelab.report import format as report_format

    # each row's figures in its declared format (a rate in %, as in the report and the panel); blank when missing
    shown = report_format.identity_frame(t).drop(columns=["interval"]).map(report_format.untagged)
    if not frames:  # nothing simulated: the simulated columns would be empty
        shown = shown.drop(columns=["simulated", "sim_low", "sim_high", "n"])
    if not params.changed():  # the rulebook's rules: "exact at the rulebook's rules" is the exact column again
        shown = shown.drop(columns=[c for c in ("exact_at_rulebook",) if c in shown])
    shown = shown.rename(columns=IDENTITY_COLUMNS)
    with pd.option_context("display.width", 250, "display.max_colwidth", 90, "display.unicode.east_asian_width", True):
        width = int(shown["quantity"].str.len().max())
        text = shown.to_string(index=False, formatters={"quantity": lambda q: f"{q:<{width}}"}, justify="left")
    changed = params.changed()
    title = game.title
    head = f"{title}: identities" + (
        f" with {changes_words(changed)} (the rest as the rulebook)" if changed else " at the rulebook's rules"
    )
    print(f"{head}\n{text}")
    return 0


#: the identity table's columns in words (``gamelab identities``; the notebook panel's IDENTITY_LABELS)
IDENTITY_COLUMNS = {
    "exact": "exact here",
    "exact_at_rulebook": "exact at the rulebook's rules",
    "sim_low": "low",
    "sim_high": "high",
    "n": "sample",
}


def _cmd_report(args) -> int:
    from gamelab.core import paths, registry
    from gamelab.core.files import load_params
    from gamelab.models.profile import load_profile
    from gamelab.report.build import build_report
    from gamelab.report.decisions import Tools
    from gamelab.rulebook import playtest

    params = _with_profile(args.profile, args.game, load_params(args.game, args.params))
    baseline = _with_profile(args.profile, args.game, load_params(args.game, args.baseline)) if args.baseline else None
    out = check_output(args.out or paths.reports_dir() / f"{args.game}.html", (".html",), "--out")
    if args.tune:  # the goal whose proposals the report adds: checked before any game, and of this game
        from gamelab.decide import tune

        st = tune.setting(tune.load_goal(args.tune), str(args.tune))
        if st.game.name != args.game:
            raise GamelabError(f"--tune {short(args.tune)}: a goal for {st.game.name}, not for {args.game}")
    for record in args.playtest or ():
        named = playtest.load_record(record).get("game")  # another game's record: refused before it is replayed
        if named != args.game:
            game_name = named if named in registry.available_games() else short(named)
            raise GamelabError(f"--playtest {short(record)}: a record of {game_name}, not of {args.game}")
        playtest.replay_file(record)  # a bad record is refused before any game is played
    game = registry.get(args.game)
    counts = len(game.report.players) or 1
    tables = (args.games if args.precision is None else MAX_GAMES) * counts * (2 if baseline is not None else 1)
    run = run_config(args)  # an unreachable --scheduler: one line before any game
    announce(f"gamelab report {args.game} (its tables alone)", game, tables, workers=run.workers, at_least=True)
    out = build_report(
        game,
        params=params,
        baseline=baseline,
        n_games=args.games,
        seed=args.seed,
        precision=args.precision,
        out=out,
        label=args.label or "",
        claims=not args.no_claims,
        playtests=args.playtest or (),
        profile=load_profile(args.profile, args.game) if args.profile else None,
        tools=Tools(
            levers=not args.no_levers,
            cross_model=not args.no_cross_model,
            skill=not args.no_skill,
            decide=not args.no_sequential,
            tune=args.tune,
            games=args.tool_games,
            model_games=args.model_games,
            trace_games=args.trace_games,
            metagame=not args.no_metagame,
        ),
        run=run,
        reuse=not args.fresh,
    )
    from gamelab.report.onenumber import first_screen

    for line in first_screen(out.read_text(encoding="utf-8")):  # the page's own figures, read back from it
        print(line)
    print(f"wrote {out}")
    return 0


def _cmd_bench(args) -> int:
    from gamelab.core import registry
    from gamelab.sim import bench

    if args.games:
        games = [registry.get(name) for name in args.games]
    else:
        games = [g for g in map(registry.get, registry.shipped_games()) if g.bench is not None]
    for game in games:
        announce(f"gamelab bench {game.name}", game, 3 * args.reps * args.batch, at_least=True)
    from gamelab.ui.slider_timing import time_slider_move

    results = bench.run(
        games,
        n_players=args.players,
        batch=args.batch,
        reps=args.reps,
        memory=not args.no_memory,
        panel_slider=time_slider_move,
    )
    print(bench.to_json(results) if args.json else bench.render(games, results))
    return 0


def _claims_profiles(paths, wanted) -> dict:
    """The ``--profile`` files by game: one per measured game at most."""
    from gamelab.models.profile import load_profile

    profiles: dict = {}
    for path in paths:
        pr = load_profile(path)
        if pr.game not in wanted:
            raise GamelabError(f"--profile {short(path)}: a profile for {pr.game}, which this run does not measure")
        if pr.game in profiles:
            raise GamelabError(
                f"--profile {short(path)}: a second profile for {pr.game} "
                f"(the first is {short(profiles[pr.game].path)})"
            )
        profiles[pr.game] = pr
    return profiles


def _print_bands(sim, bands, profiles, args) -> None:
    """How many simulated cells lie in our interval, and in the band of the
    rulebook's own sample size, per game."""
    from gamelab.models.profile import describe

    print(
        f"\n{int(sim['inside'].astype(bool).sum())} of {len(sim)} simulated cells lie inside our 95% interval "
        f"({args.n_games} games per cell, seed {args.seed})."
    )
    for name, cells in sim.groupby("game"):
        band = next((c for c in bands if cells[c].notna().any()), None)
        if band:
            model = describe(profiles.get(name))
            print(
                f"{name}: {int(cells[band].fillna(False).astype(bool).sum())} of {len(cells)} simulated cells inside "
                f"the band of the published {band[6:]}-game sample ({model}); residual = (published - ours) / the "
                f"standard error of {band[6:]} games."
            )


def _cmd_claims(args) -> int:
    import pandas as pd

    from gamelab.core import registry
    from gamelab.models.profile import apply
    from gamelab.rulebook.claims import audit, conclusions, games_with_claims, is_exact

    if args.coverage:
        from gamelab.rulebook import coverage

        books = coverage.rulebooks()
        print(coverage.render([registry.get(g) for g in args.games or books if g in books]))
        return 0
    if args.params or args.json or args.rewrite or args.simulate:
        return _claims_sentences(args)
    if args.out:
        check_output(args.out, (".csv", ".parquet"), "--out")
    games = _claim_games(args.games or ([args.game] if args.game else None))  # ``gamelab claims GAME``: its figures
    profiles = _claims_profiles(args.profile or (), games or list(games_with_claims()))
    params = {name: apply(pr, registry.get(name).knobs()) for name, pr in profiles.items()}
    measured = [registry.get(name) for name in games] if games else None
    table = audit(measured, n_games=args.n_games, seed=args.seed, params=params, run=RunConfig(workers=args.workers))
    if args.out:
        print(f"wrote {write_table(table, args.out)}")
    bands = [c for c in table.columns if c.startswith("inside") and c[6:].isdigit()]
    cols = ["game", "section", "table", "row", "column", "value", "ours", "low", "high", "inside", *bands, "residual"]
    names = {"value": "published", "column": "figure", "inside": "inside our interval"}
    names |= {b: f"inside the {b[6:]}-game band" for b in bands}
    with pd.option_context("display.width", 250, "display.max_rows", 1000):
        print(words_table(table[[c for c in cols if c in table]].rename(columns=names)))
    exact = is_exact(table)
    _print_bands(table[~exact & table["inside"].notna()], bands, profiles, args)
    held = table[exact]
    wrong = held[~held["inside"].astype(bool)]
    print(f"{len(held) - len(wrong)} of {len(held)} rules-decided figures hold exactly; these do not:")
    with pd.option_context("display.width", 250, "display.max_colwidth", 60):
        print(words_table(wrong[["game", "section", "row", "column", "value", "ours", "note"]].rename(columns=names)))
    for name in games or games_with_claims():
        game = registry.get(name)
        c = conclusions(
            game, n_games=args.n_games, seed=args.seed, params=params.get(name), run=RunConfig(workers=args.workers)
        )
        if c is None:
            continue
        with pd.option_context("display.width", 250):
            print(
                f"\n{game.title}: the rulebook's balance conclusions, two-proportion tests against the "
                "runner-up:\n" + words_table(c)
            )
    return 0


def _claim_games(names):
    """``names`` (``None``: every game with published figures), each checked to publish figures."""
    from gamelab.core import registry
    from gamelab.rulebook.claims import games_with_claims

    if names is None:
        return None
    for name in names:
        if registry.get(name).rulebook.claims is None:
            raise GamelabError(
                f"{name} publishes no rulebook figures: expected one of {', '.join(games_with_claims())}"
            )
    return names


def _claims_sentences(args) -> int:
    """``gamelab claims GAME --params FILE``: the sentences to update."""
    from gamelab.core import registry
    from gamelab.core.errors import ParamError
    from gamelab.core.files import dumps, load_params, rules_class
    from gamelab.rulebook import sentences

    if not args.game or not args.params:
        raise ParamError(
            "--params, --json and --rewrite need a game and a parameter file: gamelab claims GAME --params FILE"
        )
    game = registry.get(args.game)
    params = load_params(args.game, args.params, cls=None if args.simulate else rules_class(args.game))
    changed = params.changed() or "the rulebook's parameters"
    simulate = dict(n_games=args.n_games, seed=args.seed, workers=args.workers) if args.simulate else None
    table, counts = sentences.changed_sentences(game, params, simulate=simulate)
    if args.rewrite:
        check_output(args.rewrite, (".md",), "--rewrite")
        Path(args.rewrite).write_text(sentences.rewrite(game, table, changed), encoding="utf-8")
    if args.json:
        print(dumps({"game": args.game, "params": changed, **counts, "sentences": sentences.to_records(table)}))
    else:
        print(sentences.render(game, table, counts, changed))
        if args.rewrite:
            print(f"wrote {args.rewrite}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from gamelab.core import registry

    # the games by their folders' names, none imported: the parser answers at once (claims
    # refuses a game without published figures when it runs, _claim_games)
    games = list(registry.available_games())
    claim_games = games
    parser = Parser(prog="gamelab", description="Balance-analysis workbench for tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    _add_replay(sub, games, claim_games)
    _add_simulate(sub, games, claim_games)
    _add_report(sub, games, claim_games)
    _add_bench(sub, games, claim_games)
    _add_claims(sub, games, claim_games)
    _add_identities(sub, games, claim_games)
    _add_sweep(sub, games, claim_games)
    for group in COMMAND_GROUPS:
        group.add_commands(sub)
    return parser


def _add_replay(sub, games: list[str], claim_games: list[str]) -> None:
    """The ``gamelab replay`` command's arguments."""
    p = sub.add_parser("replay", help="replay a playtest record and print its ledger")
    p.add_argument("files", nargs="+", type=INPUT_FILE, metavar="FILE", help="playtest record (JSON or YAML)")
    p.add_argument("--json", action="store_true", help="print the ledger as JSON")
    p.set_defaults(func=_cmd_replay)


def _add_simulate(sub, games: list[str], claim_games: list[str]) -> None:
    """The ``gamelab simulate`` command's arguments."""
    p = sub.add_parser("simulate", help="play many seeded games and print win rates")
    p.add_argument("game", choices=games, help="the game")
    p.add_argument("--players", type=PLAYERS, default=None, help="player count (default the game's first)")
    p.add_argument("--games", type=GAMES_ARG, default=2000, help="games to play (default %(default)s)")
    p.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    add_where(p)
    p.add_argument("--lineup", nargs="+", default=None, metavar="AGENT", help="the agents at the table, seat by seat")
    p.add_argument(
        "--params", type=INPUT_FILE, default=None, metavar="FILE", help="JSON/YAML mapping of rule parameters"
    )
    add_out(p, ".csv", ".parquet", metavar="FILE.parquet|.csv", help="write the table to this file")
    p.add_argument("--cache-dir", type=folder_arg, default=None, help="chunk store (default data/cache)")
    add_profile(p)
    p.set_defaults(func=_cmd_simulate)


def _add_report(sub, games: list[str], claim_games: list[str]) -> None:
    """The ``gamelab report`` command's arguments."""
    p = sub.add_parser("report", help="build a self-contained HTML balance report")
    p.add_argument("game", choices=games, help="the game")
    p.add_argument("--params", type=INPUT_FILE, default=None, metavar="FILE", help="JSON/YAML mapping of parameters")
    p.add_argument(
        "--baseline", type=INPUT_FILE, default=None, metavar="FILE", help="parameters to compare against (diff mode)"
    )
    size = p.add_mutually_exclusive_group()
    size.add_argument("--games", type=GAMES_ARG, default=20_000, help="games per player count (default 20000)")
    size.add_argument(
        "--precision", type=PRECISION, default=None, help="target 95%% half-width of every win rate, e.g. 0.01"
    )
    p.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    add_where(p)
    p.add_argument("--label", type=label_text, default=None, help="a title for this report")
    p.add_argument("--no-claims", action="store_true", help="leave out the rulebook claims audit")
    p.add_argument(
        "--fresh",
        action="store_true",
        help="compute the report again even when code, data, rulebook and options are unchanged since the last one",
    )
    p.add_argument(
        "--playtest",
        action="append",
        type=INPUT_FILE,
        metavar="FILE",
        help="add a replayed playtest record (repeatable)",
    )
    add_out(p, ".html", metavar="FILE.html", help="where to write the report (default reports/GAME.html)")
    add_profile(p)
    p.add_argument(
        "--tune", type=INPUT_FILE, default=None, metavar="GOAL.yaml", help="add the tuner's proposals for this goal"
    )
    p.add_argument(
        "--tool-games",
        type=GAMES_ARG,
        default=2000,
        help="games per rule step for the top levers (default 2000)",
    )
    p.add_argument(
        "--model-games",
        type=GAMES_ARG,
        default=1000,
        help="games per agent model and skill level (default 1000; strong agents are slow)",
    )
    p.add_argument(
        "--trace-games",
        type=GAMES_ARG,
        default=300,
        help="games per skill-trace level and player count, and per cell of the skill matrix (default 300)",
    )
    p.add_argument("--no-levers", action="store_true", help="leave out the top levers (sensitivity)")
    p.add_argument("--no-cross-model", action="store_true", help="leave out the verdicts under other agent models")
    p.add_argument("--no-skill", action="store_true", help="leave out the skill ladder")
    p.add_argument(
        "--no-metagame",
        action="store_true",
        help="leave out the styles' meta-game (every profile at every player count; games declaring strategies)",
    )
    p.add_argument(
        "--no-sequential", action="store_true", help="judge findings by their interval, not by a sequential test"
    )
    p.set_defaults(func=_cmd_report)


def _add_bench(sub, games: list[str], claim_games: list[str]) -> None:
    """The ``gamelab bench`` command's arguments."""
    p = sub.add_parser("bench", help="measure games per second against the speed targets")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--games", nargs="+", default=None, choices=games, help="default: every game")
    p.add_argument("--players", type=PLAYERS, default=4, help="player count (default 4)")
    p.add_argument("--batch", type=GAMES_ARG, default=20_000, help="games per timed batch (default 20,000)")
    p.add_argument(
        "--reps", type=bounded(int, 1, 100, "a whole number"), default=5, help="timed repetitions (default 5)"
    )
    p.add_argument("--no-memory", action="store_true", help="skip the 100k-games memory measurement")
    p.set_defaults(func=_cmd_bench)


def _add_claims(sub, games: list[str], claim_games: list[str]) -> None:
    """The ``gamelab claims`` command's arguments."""
    p = sub.add_parser(
        "claims", help="every rulebook figure beside ours: exact where the rules decide it, simulated with intervals"
    )
    p.add_argument(
        "--games", nargs="+", default=None, choices=claim_games, help="default: every game with published figures"
    )
    p.add_argument("--n-games", type=GAMES_ARG, default=20_000, help="games per player count (default 20000)")
    p.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    p.add_argument("--workers", type=WORKERS, default=2, help="processes playing games (default 2)")
    add_out(p, ".csv", ".parquet", metavar="FILE.csv|.parquet", help="write the table to this file")
    add_profile(p, "player-model profile of a game (repeatable)", action="append")
    p.add_argument("game", nargs="?", choices=claim_games, help="with --params: the game whose sentences to check")
    p.add_argument(
        "--params",
        type=INPUT_FILE,
        default=None,
        metavar="FILE",
        help="rule parameters: list the sentences whose number changes",
    )
    p.add_argument("--json", action="store_true", help="with --params: the sentences as JSON rows")
    p.add_argument(
        "--simulate",
        action="store_true",
        help="with --params: also the simulated figures, at both rules (--n-games, --seed, --workers)",
    )
    p.add_argument(
        "--rewrite",
        type=output_file(".md"),
        default=None,
        metavar="FILE.md",
        help="with --params: write a Markdown to-do list",
    )
    p.add_argument(
        "--coverage",
        action="store_true",
        help="per rulebook and section: lines with numbers, checked by claims rows, explained, unaccounted",
    )
    p.set_defaults(func=_cmd_claims)


def _add_identities(sub, games: list[str], claim_games: list[str]) -> None:
    """The ``gamelab identities`` command's arguments."""
    p = sub.add_parser("identities", help="the rulebook's design identities, exact (and simulated)")
    p.add_argument("game", choices=games, help="the game")
    p.add_argument(
        "--params", type=INPUT_FILE, default=None, metavar="FILE", help="JSON/YAML mapping of rule parameters"
    )
    p.add_argument(
        "--games",
        type=bounded(int, 0, MAX_GAMES, "a whole number"),
        default=0,
        help="also simulate this many games per player count (the simulated column)",
    )
    p.add_argument("--players", type=PLAYERS, default=None, help="simulate only this player count")
    p.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    p.add_argument("--workers", type=WORKERS, default=1, help="processes playing games (default 1)")
    p.set_defaults(func=_cmd_identities)


def _add_sweep(sub, games: list[str], claim_games: list[str]) -> None:
    """The ``gamelab sweep`` command's arguments."""
    p = sub.add_parser("sweep", help="run a parameter sweep described in a YAML/JSON file")
    p.add_argument(
        "file", type=INPUT_FILE, metavar="GRID.yaml", help="the grid file: game, parameters and their values"
    )
    add_where(p, "processes playing games (default the file's)")
    add_out(p, ".csv", ".parquet", metavar="FILE.parquet|.csv", help="write the table to this file")
    p.add_argument("--cache-dir", type=folder_arg, default=None, help="chunk store (default data/cache)")
    p.add_argument("--runs-dir", type=folder_arg, default=None, help="sweep manifests (default data/runs)")
    add_profile(p, "player-model profile (over the file's profile:)")
    p.set_defaults(func=_cmd_sweep)


def main(argv: list[str] | None = None) -> int:
    from gamelab.sim import executors

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # a bad argument (one line on stderr, exit 2; a bad file is one), or --help
        return exc.code if isinstance(exc.code, int) else 0
    before, executors.LINES_OFF_TERMINAL = executors.LINES_OFF_TERMINAL, True  # a progress line now and then in a log
    game = getattr(args, "game", None)
    named = f"gamelab {args.command}" + (f" {game}" if isinstance(game, str) else "")
    label, executors.LINE_LABEL = executors.LINE_LABEL, named
    try:
        return args.func(args)
    except GamelabError as exc:
        print(f"gamelab {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"gamelab {args.command}: interrupted", file=sys.stderr)
        return 130
    finally:
        close_executors()
        executors.LINES_OFF_TERMINAL, executors.LINE_LABEL = before, label


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
