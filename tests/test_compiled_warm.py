"""The compiled code's warming is found, not listed: every game with a
``kernel`` module (its ``core.compiled.Group``), found as the registry finds
games, in ``python -m gamelab.core.compiled`` and in the Makefile."""

import shutil
import subprocess
from pathlib import Path

import pytest

from gamelab.core import compiled
from gamelab.core.errors import GamelabError
from gamelab.core.registry import game_packages

ROOT = Path(__file__).resolve().parents[1]


def _with_kernel() -> list[str]:
    return [p for p in game_packages() if (ROOT / "gamelab" / p.rpartition(".")[2] / "kernel.py").is_file()]


def test_the_games_with_a_kernel_are_warmed():
    assert list(compiled.compiled_packages()) == _with_kernel()
    for package in compiled.compiled_packages():
        group = __import__(f"{package}.kernel", fromlist=["GROUP"]).GROUP
        assert isinstance(group, compiled.Group)
        assert f"{package}.kernel" in group.modules


def test_an_unknown_game_is_named():
    with pytest.raises(GamelabError, match="no compiled code in 'nogame'"):
        compiled.warm_games(("nogame",))


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_the_makefile_warms_every_game_with_compiled_code():
    """An edit of core/compiled.py (make -W) warms each of them, at the lower priority, and nothing else."""
    out = subprocess.run(
        ["make", "-n", "-W", "gamelab/core/compiled.py", ".venv/.compiled"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    warmed = [line.split()[-1] for line in out.splitlines() if "-m gamelab.core.compiled" in line]
    assert sorted(warmed) == sorted(p.rpartition(".")[2] for p in _with_kernel())
    assert all(line.startswith("nice -n 10 ") for line in out.splitlines() if "-m gamelab.core.compiled" in line)
