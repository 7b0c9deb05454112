"""The command line answers at once (issue 37, item 8): ``gamelab --help`` and a
refused argument import no game and none of the heavy libraries (numba, pandas,
scipy, matplotlib); the registry names the games by their folders and the
``GAMELAB_GAMES`` modules, and imports a game only when it is asked for.

Not timed here (a loaded machine would make a timed test flaky): ``gamelab bench``
reports ``cli_help_s`` and ``cli_refused_s`` against their 0.5 s target."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from gamelab.core import registry

HEAVY = ("numba", "pandas", "scipy", "matplotlib", "pyarrow")

#: run the command line in a fresh process, then print the modules it imported
PROBE = """
import json, sys
from gamelab.cli.commands import main
try:
    status = main(sys.argv[1:])
except SystemExit as exc:
    status = exc.code
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def _imported(*args: str, env: dict | None = None) -> tuple[int, set[str]]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env or dict(os.environ), timeout=120
    )
    found = json.loads(out.stdout.strip().splitlines()[-1])
    return found["status"], set(found["modules"])


def _games_and_heavy(modules: set[str]) -> list[str]:
    games = {p for p in registry.game_packages()} | set(registry.extra_game_modules())
    return sorted(m for m in modules if m in games or m.split(".")[0] in HEAVY)


@pytest.mark.parametrize(
    "args, status",
    [
        (("--help",), 0),
        (("simulate", "no-such-game"), 2),  # refused by its name alone
        (("simulate", "pig", "--games", "0"), 2),  # refused by a bound
        (("claims", "--help"), 0),
        (("metagame", "--help"), 0),
    ],
)
def test_the_command_line_starts_without_any_game_or_heavy_library(args, status):
    assert "gamelab.toy" in registry.extra_game_modules()  # the toy game named too: not imported either
    got, modules = _imported(*args)
    assert got == status
    assert _games_and_heavy(modules) == []


def test_the_registry_names_every_game_without_importing_one():
    code = (
        "import sys, json; from gamelab.core import registry; names = registry.available_games(); "
        "print(json.dumps([names, sorted(sys.modules)]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    names, modules = json.loads(out.stdout)
    assert names == list(registry.available_games())
    assert {"pig", "sbr", "strand", "toy"} <= set(names)
    assert _games_and_heavy(set(modules)) == []


def test_a_game_is_imported_when_asked_for_and_is_the_one_named():
    for name in registry.available_games():
        assert registry.get(name).name == name


def test_a_games_module_whose_game_has_another_name_is_refused_in_one_line(tmp_path):
    (tmp_path / "dice_rules.py").write_text("from gamelab.toy import GAME\n")  # a GAME called toy
    env = dict(os.environ, GAMELAB_GAMES="dice_rules", PYTHONPATH=str(tmp_path))
    names = "from gamelab.core import registry; print(registry.available_games())"
    listed = subprocess.run([sys.executable, "-c", names], capture_output=True, text=True, env=env, timeout=120)
    assert "'dice_rules'" in listed.stdout  # named from the variable alone
    cmd = [sys.executable, "-m", "gamelab", "simulate", "dice_rules", "--games", "1"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == [
        "gamelab simulate: error: GAMELAB_GAMES names 'dice_rules', which holds a game called 'toy', not "
        "'dice_rules': a game is named after its module (or its package when the module is called game)"
    ]
