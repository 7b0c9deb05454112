"""The whole suite runs with a game from a folder outside the checkout (issue 42).

At the start of a pytest session, before collection and before pytest-xdist starts its
workers, the controller copies Dash (``tests/data/dash/``, a small dice race) into a fresh
temporary folder, puts that folder on ``sys.path`` and ``PYTHONPATH`` and appends
``dash.game`` to ``GAMELAB_GAMES``.  Every test over the available games then covers Dash as
a designer's own game, and the workers and the tests' subprocesses inherit it.  The
controller records ``git status`` first; at the session's end it fails the run, naming the
files, if a file of the checkout changed or appeared.  ``tests/test_a_new_game.py`` checks
that the run has Dash.

``GAMELAB_TEST_NO_EXTRA_GAME=1`` leaves Dash out (and the ``git status`` check with it).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DASH = ROOT / "tests" / "data" / "dash"
MODULE = "dash.game"
OPT_OUT = "GAMELAB_TEST_NO_EXTRA_GAME"
#: the temporary folder holding ``dash/``, set by the session that made it (workers see it and copy nothing)
FOLDER = "GAMELAB_TEST_EXTRA_GAME_DIR"


def folder() -> Path | None:
    """The temporary folder Dash was copied to in this run, if it was."""
    named = os.environ.get(FOLDER)
    return Path(named) if named else None


def _add_to_path(where: Path) -> None:
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([str(where), *paths]))
    named = [m.strip() for m in os.environ.get("GAMELAB_GAMES", "").split(",") if m.strip()]
    os.environ["GAMELAB_GAMES"] = ",".join(dict.fromkeys([*named, MODULE]))


def checkout_state() -> dict[str, str] | None:
    """{path: git status code and content digest} of every file ``git status`` lists (changed,
    added, untracked; ignored files left out); None outside a git checkout.  A file that was already
    changed counts as changed again when its content changes."""
    try:
        out = subprocess.run(
            ["git", "status", "--porcelain", "-z", "--untracked-files=all"], cwd=ROOT, capture_output=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    fields = iter(out.stdout.decode("utf-8", "surrogateescape").split("\0"))
    state = {}
    for entry in fields:
        if not entry:
            continue
        code, path = entry[:2], entry[3:]
        if "R" in code or "C" in code:
            next(fields, None)  # a rename's or copy's old path
        file = ROOT / path
        digest = hashlib.sha1(file.read_bytes()).hexdigest() if file.is_file() else "-"
        state[path] = f"{code} {digest}"
    return state


@dataclass
class DashRun:
    """The session that copied Dash: its folder, the checkout before, and what changed."""

    where: Path
    before: dict[str, str] | None
    changed: list[str] = field(default_factory=list)

    def check(self, session) -> None:
        after = checkout_state()
        if self.before is None or after is None:
            return
        self.changed = sorted(p for p in self.before.keys() | after.keys() if self.before.get(p) != after.get(p))
        if self.changed:
            session.exitstatus = 1  # pytest.ExitCode.TESTS_FAILED

    def report(self, terminalreporter) -> None:
        if self.changed:
            terminalreporter.write_sep("=", "the run changed files of the checkout", red=True)
            for path in self.changed:
                terminalreporter.write_line(f"changed or added: {path}")
            terminalreporter.write_line("A test must write only to its own temporary folder (tmp_path).")

    def remove(self) -> None:
        shutil.rmtree(self.where, ignore_errors=True)


def start() -> DashRun | None:
    """Add Dash to this run (the session's controller copies it; a worker finds its folder named)."""
    if os.environ.get(OPT_OUT, "") not in ("", "0"):
        return None
    made = folder()
    if made is not None:  # a pytest-xdist worker, or a process a test started: the folder exists already
        _add_to_path(made)
        return None
    where = Path(tempfile.mkdtemp(prefix="gamelab-dash-"))
    shutil.copytree(DASH, where / "dash", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    os.environ[FOLDER] = str(where)
    _add_to_path(where)
    return DashRun(where, checkout_state())
