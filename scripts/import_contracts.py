"""import-linter contract types of gamelab (``[tool.importlinter] contract_types`` in pyproject.toml).

:class:`GamesLayersContract` is import-linter's layers contract whose layer
``{games}`` stands for every game package, found as ``core/registry.py``
finds games (a sub-package of ``gamelab`` with a ``game`` module, none of
them imported): the games sit in one layer, independent of each other
(``a | b | c``), so adding a game needs no edit of the contract.
"""

from __future__ import annotations

from importlinter.contracts.layers import LayersContract

from gamelab.core.registry import game_packages

GAMES = "{games}"  # the placeholder layer


class GamesLayersContract(LayersContract):
    """The layers contract, its ``{games}`` layer expanded into the games (independent of each other)."""

    def __init__(self, name: str, session_options: dict, contract_options: dict) -> None:
        layers = [
            " | ".join(game_packages()) if layer.strip() == GAMES else layer for layer in contract_options["layers"]
        ]
        super().__init__(name, session_options, {**contract_options, "layers": layers})
