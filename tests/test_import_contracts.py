"""The import contracts find the games as the registry does: a game folder
added to a copy of the package is in the games' layer at once, and an upward
import from it (or an import of another game) breaks the layers contract."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamelab.core.registry import game_packages, shipped_games

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def test_the_games_layer_is_the_registry_s_games():
    assert [p.rpartition(".")[2] for p in game_packages()] == sorted(shipped_games())


def _copy_with_game(tmp_path, game_imports: str) -> Path:
    """A copy of the package, pyproject.toml and the contract types, plus a game ``newgame``
    whose ``game.py`` holds ``game_imports``."""
    shutil.copytree(
        ROOT / "gamelab", tmp_path / "gamelab", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    )
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "import_contracts.py", tmp_path / "scripts")
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    game = tmp_path / "gamelab" / "newgame"
    game.mkdir()
    (game / "__init__.py").write_text('"""A game added in a test."""\n')
    (game / "game.py").write_text(f'"""The new game\'s GAME."""\n\n{game_imports}\n')
    return tmp_path


def _lint_imports(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=root, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is not installed")
def test_a_new_game_is_held_to_the_layers(tmp_path):
    kept = _lint_imports(_copy_with_game(tmp_path / "kept", "from gamelab.core import contract"))
    assert kept.returncode == 0, kept.stdout + kept.stderr
    broken = _lint_imports(
        _copy_with_game(tmp_path / "broken", "from gamelab.sim import runner\nfrom gamelab.pig import rules")
    )
    assert broken.returncode != 0
    assert "gamelab.newgame.game -> gamelab.sim.runner" in broken.stdout
    assert "gamelab.newgame.game -> gamelab.pig.rules" in broken.stdout
