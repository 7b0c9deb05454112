"""A new game is one folder (issue 30, issue 42; ``docs/adding-a-game.md``, section 11).

Dash, a tiny dice race kept in ``tests/data/dash/``, is copied into a
temporary copy of the package and nothing else changes.  In that copy the
registry finds it, the layer contracts cover it (``lint-imports``: kept, and
broken by an upward import from it), it passes every conformance check, and
``gamelab report dash`` writes its report.  And the whole suite runs with Dash
from a temporary folder outside the tree (``GAMELAB_GAMES=dash.game``, set up
by ``tests/conftest.py`` through ``tests/extra_game.py``): every test over the
available games covers it, and the session fails if ``git status`` shows a file
of the checkout changed or added.
"""

from __future__ import annotations

import filecmp
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import extra_game
import pytest
import test_adding_a_game
import test_conformance

from gamelab.core import registry
from gamelab.core.registry import game_packages, shipped_games

ROOT = Path(__file__).resolve().parents[1]
DASH = ROOT / "tests" / "data" / "dash"
BIN = Path(sys.executable).parent
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("a_new_game")
    shutil.copytree(ROOT / "gamelab", root / "gamelab", ignore=SKIP)
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    (root / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "import_contracts.py", root / "scripts")  # the games_layers contract type
    shutil.copytree(DASH, root / "gamelab" / "dash", ignore=SKIP)
    return root


def run(tree: Path, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    """A command in the copy: its package first on the path, its own workspace, no test games."""
    env = {k: v for k, v in os.environ.items() if k != "GAMELAB_GAMES"}
    env.update(PYTHONPATH=str(tree), GAMELAB_HOME=str(tree / "home"), NUMBA_CACHE_DIR=str(tree / "numba"))
    return subprocess.run(args, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_games_layer_is_the_registry_s_games():
    assert [p.rpartition(".")[2] for p in game_packages()] == sorted(shipped_games())


def test_the_copy_is_the_package_plus_one_folder(tree):
    """Every file of the copy outside ``gamelab/dash/`` is the checkout's, unchanged."""
    ours = sorted(p.relative_to(tree) for p in (tree / "gamelab").rglob("*.py") if "dash" not in p.parts)
    theirs = sorted(p.relative_to(ROOT) for p in (ROOT / "gamelab").rglob("*.py"))
    assert ours == theirs
    assert all(filecmp.cmp(tree / p, ROOT / p, shallow=False) for p in ours)


def test_the_registry_finds_it(tree):
    code = (
        "import gamelab; from gamelab.core import registry; print(gamelab.__file__); print(registry.get('dash').title)"
    )
    out = run(tree, sys.executable, "-c", code)
    assert out.returncode == 0, out.stderr
    where, title = out.stdout.split()
    assert Path(where).is_relative_to(tree) and title == "Dash"


def test_the_layer_contracts_cover_it(tree):
    """Kept as it is; broken by an upward import from it (a game never simulates) and by an
    import of another game (games are independent)."""
    kept = run(tree, str(BIN / "lint-imports"), "--no-cache")
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "Contracts: 2 kept, 0 broken." in kept.stdout
    agents = tree / "gamelab" / "dash" / "agents.py"
    text = agents.read_text()
    try:
        agents.write_text("import gamelab.pig.rules\nimport gamelab.sim.runner\n" + text)
        broken = run(tree, str(BIN / "lint-imports"), "--no-cache")
    finally:
        agents.write_text(text)
    assert broken.returncode != 0
    assert "gamelab.dash.agents -> gamelab.sim.runner" in broken.stdout, broken.stdout
    assert "gamelab.dash.agents -> gamelab.pig.rules" in broken.stdout, broken.stdout


def test_it_passes_the_conformance_checks(tree):
    code = (
        "from gamelab.core import registry; from gamelab.sim.conformance import CHECKS, check_game; "
        "assert check_game(registry.get('dash')) == list(CHECKS); print('ok')"
    )
    out = run(tree, sys.executable, "-c", code)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_gamelab_report_writes_its_report(tree):
    page = tree / "dash.html"
    out = run(tree, str(BIN / "gamelab"), "report", "dash", "--games", "600", "--out", str(page))
    assert out.returncode == 0, out.stderr[-3000:]
    html = page.read_text(encoding="utf-8")
    assert "Dash" in html and "chaser" in html


def test_this_run_has_dash_from_a_folder_outside_the_checkout():
    """The whole suite runs with Dash copied to a temporary folder (``tests/extra_game.py``, from
    ``tests/conftest.py``): the registry finds it through ``GAMELAB_GAMES``, its module is the copy
    outside the checkout, and the tests over every game cover it (``git status`` is checked when the
    session ends)."""
    where = extra_game.folder()
    if where is None:
        pytest.skip(f"{extra_game.OPT_OUT} is set: this run leaves Dash out")
    assert "dash" in registry.available_games() and "dash" not in registry.shipped_games()
    module = Path(importlib.import_module(extra_game.MODULE).__file__ or "")
    assert registry.get("dash").title == "Dash"
    assert module.is_relative_to(where) and not module.is_relative_to(ROOT)
    assert registry.game_folders()["dash"] == module.parent
    # the game-parametrized tests: the conformance checks, the files' docstrings, the plumbing's size
    assert "dash" in test_conformance.GAMES
    assert "dash" in test_adding_a_game.NEW_GAMES
