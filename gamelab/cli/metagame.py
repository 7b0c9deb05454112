"""The command ``gamelab metagame``: which strategies adapting players keep
(:mod:`gamelab.models.metagame`), registered by :func:`add_commands`."""

from __future__ import annotations

import sys


def _cmd_metagame(args) -> int:
    from gamelab.cli.common import distinct, run_config
    from gamelab.core import registry
    from gamelab.core.errors import GamelabError
    from gamelab.core.files import check_output, dumps, load_params
    from gamelab.models import metagame

    g = registry.get(args.game)
    strategies = metagame.declared(g)
    lo, hi = g.players
    counts = distinct(args.players, "--players", "player count") if args.players else list(range(lo, hi + 1))
    for n in counts:
        if not lo <= n <= hi:
            raise GamelabError(f"--players {n} is out of range: {g.name} is for {lo}-{hi} players")
    if args.out is not None:
        check_output(args.out, (".png", ".svg", ".pdf"), "--out")
    params = load_params(g.name, args.params) if args.params else g.knobs()
    run = run_config(args, progress=None if not args.json else False).ready()

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    found = []
    for n in counts:
        say(f"gamelab metagame {g.name}: {n} players, every profile of the {len(strategies.names)} {strategies.label}s")
        found.append(
            metagame.metagame(
                g, n, params=params, deals=args.deals, seed=args.seed, run=run, psro_limit=args.psro, say=say
            )
        )
    if args.json:
        out = [metagame.as_json(a) for a in found]
        print(dumps(out[0] if len(out) == 1 else out, indent=2))
    else:
        for a in found:
            print(metagame.sentence(a))
            if a.psro:
                print(metagame.psro_sentence(a))
            print(metagame.table_sentence(a))
            print()
            print(metagame.style_table(a).to_string(index=False))
            print()
    if args.out:
        from gamelab.report.charts import metagame_figure as figure

        fig = figure(found[-1] if len(found) == 1 else found[0])
        fig.savefig(args.out, dpi=120, bbox_inches="tight")
        print(f"wrote {args.out}")
    return 0


def add_commands(sub) -> None:
    """Add ``metagame`` to the ``gamelab`` subparsers."""
    from gamelab.cli.common import INPUT_FILE, PLAYERS, SEED, add_out, add_where, bounded
    from gamelab.core import registry

    games = list(registry.available_games())  # none imported: one that declares no strategies is refused when run
    p = sub.add_parser(
        "metagame",
        help="the meta-game of a game's styles: where adapting players settle (equilibria, α-Rank, PSRO)",
    )
    p.add_argument("game", choices=games, help="a game that declares strategies")
    p.add_argument("--players", type=PLAYERS, nargs="+", default=None, help="player counts (default: every one)")
    p.add_argument(
        "--deals",
        type=bounded(int, 16, 100_000, "a whole number"),
        default=None,
        help="deals per profile, each in every seat rotation (default: as many as every win share needs to be "
        "within ±1 point, 95 %%: a pilot, then a top-up of the profiles that need it)",
    )
    p.add_argument(
        "--psro",
        type=bounded(int, 0, 8, "a whole number"),
        default=None,
        help="PSRO iterations at most (default: one per search agent the game declares; 0: none)",
    )
    p.add_argument("--seed", type=SEED, default=0, help="the deals' seed (default 0)")
    add_where(p)
    p.add_argument("--params", type=INPUT_FILE, default=None, metavar="FILE", help="rule parameters (YAML or JSON)")
    p.add_argument("--json", action="store_true", help="everything as one JSON object per player count")
    add_out(p, ".png", ".svg", ".pdf", metavar="CHART.png", help="the payoff heatmap and the equilibrium's shares")
    p.set_defaults(func=_cmd_metagame)
