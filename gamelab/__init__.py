"""gamelab: rules, agents and Monte Carlo runners for checking and tuning
the numbers in tabletop rulebooks.

The package is layered (``docs/architecture.md``), each layer importing only
from those below it: ``core`` (contract, registry, parameters, files),
``stats``, the games (one package each), ``sim`` (runner,
sweeps, cache, bench), ``rulebook`` (identities, claims, playtest replay),
``decide`` (sensitivity, tuner, sequential tests), ``models`` (calibration,
skill), ``report``, ``ui`` (notebook panels) and ``cli``.

What notebooks and scripts use most is also here, loaded on first use so
that ``import gamelab`` stays light::

    from gamelab import BalancePanel, runner, simulate
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: public name -> (module, attribute or "" for the module itself)
_PUBLIC = {
    "registry": ("gamelab.core.registry", ""),
    "paths": ("gamelab.core.paths", ""),
    "runner": ("gamelab.sim.runner", ""),
    "sweep": ("gamelab.sim.sweep", ""),
    "stats": ("gamelab.stats", ""),
    "playtest": ("gamelab.rulebook.playtest", ""),
    "format": ("gamelab.report.format", ""),
    "simulate": ("gamelab.sim.runner", "simulate"),
    "check_game": ("gamelab.sim.conformance", "check_game"),
    "build_report": ("gamelab.report.build", "build_report"),
    "reports_dir": ("gamelab.core.paths", "reports_dir"),
    "BalancePanel": ("gamelab.ui.balance_panel", "BalancePanel"),
    "publish_link": ("gamelab.ui.servers", "publish_link"),
    "LeversPanel": ("gamelab.ui.decisions", "LeversPanel"),
    "TunePanel": ("gamelab.ui.decisions", "TunePanel"),
    "ExplorerPanel": ("gamelab.ui.explorer", "ExplorerPanel"),
    "GameViewer": ("gamelab.ui.viewer", "GameViewer"),
}

__all__ = ["__version__", *_PUBLIC]


def __getattr__(name: str):
    if name not in _PUBLIC:
        raise AttributeError(f"module 'gamelab' has no attribute {name!r}")
    module, attr = _PUBLIC[name]
    value = importlib.import_module(module)
    return getattr(value, attr) if attr else value
