"""The ``gamelab`` command line.

Every subcommand turns a :class:`~gamelab.errors.GamelabError` into one line
on stderr and exit status 2; output is built whole before it is printed.
"""
from __future__ import annotations

import argparse
import json
import sys

from .errors import GamelabError


def _cmd_replay(args) -> int:
    from . import playtest

    outputs = []
    for path in args.files:
        ledger = playtest.replay_file(path)
        if args.json:
            outputs.append(json.dumps(ledger, ensure_ascii=False, indent=2))
        else:
            outputs.append(f"== {path} ==\n{playtest.render(ledger)}")
    print("\n\n".join(outputs))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gamelab", description="Balance-analysis workbench for tabletop games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("replay", help="replay a playtest record and print its ledger")
    p.add_argument("files", nargs="+", metavar="FILE", help="playtest record (JSON or YAML)")
    p.add_argument("--json", action="store_true", help="print the ledger as JSON")
    p.set_defaults(func=_cmd_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except GamelabError as exc:
        print(f"gamelab {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"gamelab {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
