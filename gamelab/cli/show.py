"""The command ``gamelab show``: one game, or a playtest record, as a page to step through
(:mod:`gamelab.sim.story`, :mod:`gamelab.rulebook.story`, drawn by :mod:`gamelab.report.viewer`),
registered by :func:`add_commands`."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from gamelab.cli.common import INPUT_FILE, PLAYERS, SEED, InputFile, add_out


class ShowTarget(InputFile):
    """A game's name, or a playtest record file checked as every input file is; anything else is
    one line saying it is neither."""

    def __call__(self, text: str) -> str:
        if text in self.words:
            return text
        record = Path(text).suffix.lower() in (".json", ".yaml", ".yml")
        if text and not record and not os.path.lexists(text):  # a name that is neither
            raise argparse.ArgumentTypeError(
                f"{text!r} is neither a game ({', '.join(self.words)}) nor a playtest record (a .json or .yaml file)"
            )
        text = super().__call__(text)  # a path: a regular file within the bound, or one line why not
        if not record:
            raise argparse.ArgumentTypeError(f"{text!r}: a playtest record is a .json or .yaml file")
        return text


def _cmd_show(args) -> int:
    from gamelab.core import registry
    from gamelab.core.errors import GamelabError
    from gamelab.core.files import check_output, load_params
    from gamelab.report.viewer import page, write_page

    started = time.perf_counter()
    target = args.target
    games = registry.available_games()
    if target in games:
        from gamelab.sim import runner
        from gamelab.sim.story import play_story

        out = args.out or f"reports/show-{target}-seed{args.seed}.html"
        check_output(out, (".html",), "--out")
        game = registry.get(target)
        params = load_params(target, args.params)
        runner.resolve(game, params, args.lineup, args.players or (None if args.lineup else game.players[0]))
        print(f"gamelab show {target}: playing one game (seed {args.seed})", file=sys.stderr, flush=True)
        story = play_story(game, seed=args.seed, params=params, lineup=args.lineup, n_players=args.players)
    elif Path(target).suffix.lower() in (".json", ".yaml", ".yml"):
        from gamelab.rulebook.story import record_story

        given = [f for f, v in (("--lineup", args.lineup), ("--players", args.players), ("--params", args.params)) if v]
        if given:
            raise GamelabError(f"{given[0]} is for a game, not a playtest record: {target} says its own players")
        out = args.out or f"reports/show-{Path(target).stem}.html"
        check_output(out, (".html",), "--out")
        story = record_story(target)
    else:
        raise GamelabError(
            f"{target!r} is neither a game ({', '.join(games)}) nor a playtest record (a .json or .yaml file)"
        )
    path = write_page(out, page(story))
    marked = sum(bool(s.marks) for s in story.steps)
    more = f", {marked} marked where the ledger and the rules disagree" if marked else ""
    print(
        f"wrote {path}: {len(story.steps) - 1} steps{more} "
        f"({Path(path).stat().st_size / 1e3:.0f} kB, {time.perf_counter() - started:.1f} s)"
    )
    return 0


def add_commands(sub) -> None:
    """``gamelab show``'s arguments."""
    p = sub.add_parser("show", help="one game (or a playtest record) as a self-contained HTML page to step through")
    from gamelab.core import registry

    target = ShowTarget(words=registry.available_games())  # a game's name, else a record file checked by stat
    p.add_argument(
        "target", type=target, metavar="GAME|RECORD", help="a game's name, or a playtest record file (.json or .yaml)"
    )
    p.add_argument("--seed", type=SEED, default=0, help="the game's seed (default 0)")
    p.add_argument("--players", type=PLAYERS, default=None, help="player count (default the game's fewest)")
    p.add_argument("--lineup", nargs="+", default=None, metavar="AGENT", help="the agents at the table, seat by seat")
    p.add_argument(
        "--params", type=INPUT_FILE, default=None, metavar="FILE", help="JSON/YAML mapping of rule parameters"
    )
    add_out(p, ".html", metavar="FILE.html", help="where to write the page (default reports/show-….html)")
    p.set_defaults(func=_cmd_show)
