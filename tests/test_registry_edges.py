"""A game travels down the shared layers as its ``Game`` object: ``registry.get``
(a game found by its name) is called only where a name enters from outside.

The places allowed, and why a name arrives there:

* ``gamelab/cli/``: the command line names the game;
* ``gamelab/ui/``: a notebook panel is built from the game's name;
* ``gamelab/core/files.py``: a file names its game (parameter files, and through
  ``named_game`` the tuner's goal files, player-model profiles and playtest records);
* ``gamelab/core/registry.py``: the registry itself;
* ``gamelab/sim/runner.py`` (``played``) and ``gamelab/sim/store.py`` (the code
  fingerprint): a ``Chunk`` carries its game's name, not the object, because it is
  pickled to worker processes (a ``Game`` holds lambdas) and keyed by the name in
  the chunk store (stored chunks stay valid); the game is found where the chunk is
  played or keyed;
* ``gamelab/sim/bench.py``: the memory probe plays in a fresh Python process, which
  gets the game's name in its code;
* ``gamelab/report/build.py``: ``build_report`` takes the game or its name, as a
  notebook gives it.
"""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "gamelab"

ALLOWED_DIRS = ("cli", "ui")
ALLOWED_FILES = (
    "core/files.py",
    "core/registry.py",
    "sim/runner.py",
    "sim/store.py",
    "sim/bench.py",
    "report/build.py",
    "sim/conformance.py",  # its replay command line (python -m gamelab.sim.conformance GAME ...)
)

CALL = re.compile(r"\bregistry\.get\(")


def _callers() -> set[str]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        if CALL.search(path.read_text(encoding="utf-8")):
            found.add(path.relative_to(PACKAGE).as_posix())
    return found


def test_registry_get_is_called_only_where_a_name_enters_from_outside():
    outside = sorted(rel for rel in _callers() if rel.split("/")[0] not in ALLOWED_DIRS and rel not in ALLOWED_FILES)
    assert outside == [], f"registry.get( outside the edges (pass the Game object down instead): {outside}"
