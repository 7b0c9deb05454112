"""Every file says what it is for, where a reader looks for it.

A game's files are described by its own folder, so a new game needs no line outside it: every
module of a game package opens with a docstring whose first line says what the module is for
(or the folder's ``README.md`` has a line ``- `name.py`: ...``).  This covers the shipped games
and the games named in ``GAMELAB_GAMES`` that live in a package of their own.  The shared
modules are named in ``docs/architecture.md``, in their layer's block of the tree.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from gamelab.core import registry

ROOT = Path(__file__).resolve().parents[1]
SHARED = ("core", "stats", "sim", "rulebook", "decide", "models", "report", "ui", "cli")
MIN_WORDS = 4  # a first line that says something ("Pig's batch types: the state, ...")


def first_line(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def undescribed(folder: Path) -> list[str]:
    """The modules of ``folder`` that neither open with a first line of a docstring nor have a README line."""
    readme = folder / "README.md"
    listed = (
        set(re.findall(r"^- `([\w./]+\.py)`:", readme.read_text(encoding="utf-8"), re.M)) if readme.exists() else set()
    )
    return [
        str(path.relative_to(folder))
        for path in sorted(folder.rglob("*.py"))
        if "__pycache__" not in path.parts
        and str(path.relative_to(folder)) not in listed
        and len(first_line(path).split()) < MIN_WORDS
    ]


@pytest.mark.parametrize("game", sorted(registry.game_folders()))
def test_every_file_of_a_game_says_what_it_is_for(game):
    missing = undescribed(registry.game_folders()[game])
    assert not missing, f"{game}: these modules open with no docstring saying what they are for: {missing}"


def test_a_module_without_a_docstring_is_found(tmp_path):
    (tmp_path / "said.py").write_text('"""The rules of the game as parameters."""\n')
    (tmp_path / "silent.py").write_text("X = 1\n")
    (tmp_path / "listed.py").write_text("Y = 2\n")
    assert undescribed(tmp_path) == ["listed.py", "silent.py"]
    (tmp_path / "README.md").write_text("- `listed.py`: what Y is.\n")
    assert undescribed(tmp_path) == ["silent.py"]


def test_every_shared_module_is_named_in_the_architecture():
    """Each shared module's file name appears in its layer's block of the tree in docs/architecture.md."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    tree = text.split("```", 2)[1]
    blocks = dict(re.findall(r"^  (\w+)/\s+(.*?)(?=^  \S|\Z)", tree, flags=re.M | re.S))
    missing = [
        f"{layer}/{path.name}"
        for layer in SHARED
        for path in sorted((ROOT / "gamelab" / layer).glob("*.py"))
        if path.name != "__init__.py" and not re.search(rf"(?<![\w/]){re.escape(path.name)}", blocks.get(layer, ""))
    ]
    assert not missing, f"docs/architecture.md names no line for these shared modules: {missing}"
