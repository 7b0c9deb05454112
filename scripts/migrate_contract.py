"""Rewrite the reading sites of ``Game`` fields from the previous contract to the grouped one
(issue 42: the rules side, then optional capabilities).  Run it over a tree after a merge, or
over a game folder written for the previous contract (``docs/adding-a-game.md``, "Migrating")::

    python scripts/migrate_contract.py gamelab tests scripts notebooks docs

It rewrites, where the receiver is a game (``game``, ``g``, ``GAME``, ``game_def``, ``toy``,
``pig``, ``self.game``, ``data.game``, ``registry.get(...)``, or ``Game.`` in prose):
``.identities`` -> ``.rulebook.identities``, ``.claims`` -> ``.rulebook.claims``,
``.explorers`` -> ``.panels.explorers``, ``.view`` -> ``.panels.view``, ``.metrics`` ->
``.report.metrics``, ``.agent_words`` / ``.budget_words`` -> ``.report.…``, ``.strategies`` ->
``.metagame``, ``.panels.measures`` -> ``.panel_measures``.
A ``Game(...)`` call's keywords are not rewritten: move them by hand (the guide's table).
Running it twice changes nothing more.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

RECEIVER = (
    r"(?<![\w.])(?:game|g|GAME|game_def|toy|pig|broken|Game)"
    r"|(?<![\w.])(?:self|data|setup|src|story)\.(?:game|game_def)"
    r"|registry\.get\([^()]*\)"
)
MOVES = {
    "identities": "rulebook.identities",
    "claims": "rulebook.claims",
    "explorers": "panels.explorers",
    "view": "panels.view",
    "metrics": "report.metrics",
    "agent_words": "report.agent_words",
    "budget_words": "report.budget_words",
    "strategies": "metagame",
}
RULES = [
    (re.compile(rf"({RECEIVER})\.panels\.measures\b"), r"\1.panel_measures"),
    (re.compile(rf"({RECEIVER})\.panels is not None"), r"\1.panel_measures"),
    *[(re.compile(rf"({RECEIVER})\.{old}\b(?!\()"), rf"\1.{new}") for old, new in MOVES.items()],
    (re.compile(r'getattr\((\w+), "metrics", \(\)\)'), r"\1.report.metrics"),
    (re.compile(r'getattr\((\w+), "strategies", None\)'), r"\1.metagame"),
    (re.compile(r'getattr\((\w+), "(agent_words|budget_words)"'), r'getattr(\1.report, "\2"'),
]
SUFFIXES = {".py", ".md", ".ipynb", ".j2"}


def rewrite(text: str) -> str:
    """``text`` with every rule applied (each new name is left alone by the others)."""
    for pattern, new in RULES:
        text = pattern.sub(new, text)
    return text


def main(paths: list[str]) -> int:
    changed = 0
    for root in map(Path, paths):
        for path in sorted([root] if root.is_file() else root.rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file() or "migrate_contract" in path.name:
                continue
            text = path.read_text(encoding="utf-8")
            new = rewrite(text)
            if new != text:
                path.write_text(new, encoding="utf-8")
                changed += 1
                print(path)
    print(f"{changed} files rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["gamelab", "tests", "scripts", "notebooks"]))
