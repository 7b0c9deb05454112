"""One folder shape (issue 42): the same file name for the same job in every game.

:data:`SHAPE` is the table of ``docs/adding-a-game.md``, section 1 ("The folder
shape"): every file name a game folder may use for a shared job, whether every
game has it, and the job.  The tests hold every game folder the registry finds
to it: the required files are there, no file has an old name of a listed job,
the guide's table is this table, and no module in a game folder is generic
(the guide's rule: it imports something of its own game, or it is one of the
game's data declarations, or its docstring cites the game's rulebook).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from gamelab.core.registry import game_packages

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")

#: file -> (in every game, its job)
SHAPE = {
    "rules": (True, "the parameters declared once, the board and deck data, validation, PLAYERS"),
    "state": (True, "the batch types: state, chance, action codes"),
    "engine": (True, "the batch rules: the engine contract's pure functions"),
    "reference": (True, "one game at a time in plain Python: the executable spec"),
    "agents": (True, "the agents by name and their controller"),
    "identities": (True, "the design identities, exact"),
    "record": (True, "the playtest-record reader: replay and ledger"),
    "game": (True, "the registry entry: GAME"),
    "heuristic": (False, "the hand-written fast player(s)"),
    "heuristic_tables": (False, "the heuristic's look-up tables"),
    "search": (False, "the search rungs of the skill ladder"),
    "learned": (False, "the learned rung"),
    "exact": (False, "the rulebook's exact sentences asked of the engine in scripted states"),
    "exact_games": (False, "the same for whole games, when exact.py would be too long"),
    "exact_claims": (False, "every exactly checkable sentence of the rulebook"),
    "claims": (False, "the rulebook's printed figures beside the simulation"),
    "kernel": (False, "the compiled code and its GROUP"),
    "agent_params": (False, "the agents' knobs, read below the agents"),
    "legal": (False, "the legal choices and uniform random legal play"),
    "sim": (False, "the runner's fast path: play and its columns"),
    "panels": (False, "what a panel shows besides win rates"),
    "view": (False, "how a state looks, as data"),
    "diagnostics": (False, "the game's own balance metrics"),
}
#: names a listed job had before (issue 42): none may come back, in any game
OLD_NAMES = {
    "greedy": "heuristic",
    "styles": "heuristic",
    "style_tables": "heuristic_tables",
    "lookahead": "search",
    "best": "search",
    "distill": "learned",
    "exact_states": "exact",
    "exact_whole_games": "exact_games",
    "exact_rounds": "exact",
    "arrays": "gamelab/core/arrays.py (generic)",
    "controller": "agents",
}
#: the data declarations of the table: a module with one of these jobs may import only the shared layer
DATA = ("rules", "state", "diagnostics", "panels", "claims", "__init__")
#: a docstring that cites the game's rulebook (a section, a rule, an appendix)
CITES = re.compile(r"\b(section|sections|rule|rules|appendix)\s+[0-9A-Z]", re.IGNORECASE)

GAMES = sorted(package.rpartition(".")[2] for package in game_packages())


def _modules(game: str) -> list[Path]:
    return sorted((ROOT / "gamelab" / game).glob("*.py"))


def test_the_games_are_found():
    assert {"pig", "sbr", "strand"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_the_required_files(game):
    have = {p.stem for p in _modules(game)}
    missing = [f"{name}.py" for name, (required, _) in SHAPE.items() if required and name not in have]
    assert missing == [], f"gamelab/{game}/ lacks {missing} (docs/adding-a-game.md, 'The folder shape')"


@pytest.mark.parametrize("game", GAMES)
def test_no_job_keeps_an_old_name(game):
    old = {p.name: f"{OLD_NAMES[p.stem]}.py" for p in _modules(game) if p.stem in OLD_NAMES}
    assert old == {}, f"gamelab/{game}/: rename as the folder shape names the job ({old})"


def test_the_guide_states_this_table():
    section = GUIDE.split("## 1. The folder shape", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `(\w+)\.py`\s*\|\s*(yes|when)\s*\|", section, flags=re.M))
    assert rows == {name: "yes" if required else "when" for name, (required, _) in SHAPE.items()}


def _imports_its_game(tree: ast.Module, game: str) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").startswith(f"gamelab.{game}")):
            return True
        if isinstance(node, ast.Import) and any(a.name.startswith(f"gamelab.{game}") for a in node.names):
            return True
    return False


def generic_modules(game: str) -> list[str]:
    """The modules of ``gamelab/<game>/`` that import nothing of their game, declare none of its
    data and cite none of its rules (the guide's definition of generic)."""
    out = []
    for path in _modules(game):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = _imports_its_game(tree, game) or path.stem in DATA or bool(CITES.search(ast.get_docstring(tree) or ""))
        if not own:
            out.append(path.name)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_module_in_a_game_folder_is_generic(game):
    assert generic_modules(game) == [], "generic machinery belongs in gamelab/core or gamelab/stats"


def test_the_generic_check_catches_a_generic_module(tmp_path, monkeypatch):
    """A module of array helpers that imports only numpy is generic; one that imports its
    game's rules, or cites a section of its rulebook, is not."""
    folder = tmp_path / "gamelab" / "toygame"
    folder.mkdir(parents=True)
    (folder / "helpers.py").write_text('"""Array helpers."""\nimport numpy as np\n')
    (folder / "moves.py").write_text('"""Moves."""\nfrom .rules import N\n')
    (folder / "ranks.py").write_text('"""Who wins (section 6.3)."""\nimport numpy as np\n')
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert generic_modules("toygame") == ["helpers.py"]
