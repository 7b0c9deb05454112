"""Where gamelab reads and writes: one workspace, never the working directory.

The workspace is ``$GAMELAB_HOME`` if set, else the project checkout that
holds this package (the folder with ``pyproject.toml``), else the current
directory (an installed package outside a checkout).  Reports, the chunk
cache and sweep runs live under it, so the command line and a notebook
started in ``notebooks/`` share one cache and write where the README says.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # gamelab/
PLAYTESTS = PACKAGE.parent / "data" / "playtests"  # the worked records shipped beside the package, <game>_*.json
ERRATA = PACKAGE.parent / "docs" / "errata.md"  # the rulebooks' errata, a ``## `` heading per game


def workspace() -> Path:
    env = os.environ.get("GAMELAB_HOME")
    if env:
        return Path(env).expanduser().resolve()
    root = PACKAGE.parent
    if (root / "pyproject.toml").exists():
        return root
    return Path.cwd()


def reports_dir() -> Path:
    return workspace() / "reports"


def cache_dir() -> Path:
    return workspace() / "data" / "cache"


def runs_dir() -> Path:
    return workspace() / "data" / "runs"
