"""The games gamelab knows, found once: every sub-package ``gamelab.<name>``
with a ``game`` module whose ``GAME`` is a :class:`~gamelab.core.contract.Game`,
plus the modules named in the environment variable ``GAMELAB_GAMES``
(comma-separated, each with a ``GAME``: a designer's own game outside this
package, or the tests' toy game ``gamelab.toy``; worker processes inherit
the variable, so they find the same games), plus any registered by hand
(:func:`register`).

Like Pgx's ``pgx.make(name)`` / ``available_games()``: the shared layer asks
here and nowhere else, so a new game needs no edit outside its own folder.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from pathlib import Path

from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError

_GAMES: dict[str, Game] = {}
_EXTRA: dict[str, Game] = {}
_found = False


def game_packages() -> tuple[str, ...]:
    """The sub-packages of ``gamelab`` with a ``game`` module (dotted names,
    sorted): where the shipped games live.  Found from the files alone, no
    package imported (the Makefile's warming and the import contracts ask too)."""
    import gamelab

    folder = Path(gamelab.__file__).parent
    found = (i.name for i in pkgutil.iter_modules(gamelab.__path__) if i.ispkg)
    return tuple(f"gamelab.{name}" for name in sorted(found) if _has_module(folder / name, "game"))


def _has_module(folder: Path, name: str) -> bool:
    return (folder / f"{name}.py").is_file() or (folder / name / "__init__.py").is_file()


def extra_game_modules() -> tuple[str, ...]:
    """The modules named in ``GAMELAB_GAMES`` (each should hold a ``GAME``)."""
    return tuple(filter(None, (n.strip() for n in os.environ.get("GAMELAB_GAMES", "").split(","))))


def _discover() -> None:
    global _found
    if _found:
        return
    for package in game_packages():
        game = getattr(importlib.import_module(f"{package}.game"), "GAME", None)
        if isinstance(game, Game):
            _GAMES[game.name] = game
    for name in extra_game_modules():
        try:
            game = getattr(importlib.import_module(name), "GAME", None)
        except ImportError as exc:
            raise GamelabError(f"GAMELAB_GAMES names {name!r}, which cannot be imported ({exc})") from None
        if not isinstance(game, Game):
            raise GamelabError(f"GAMELAB_GAMES names {name!r}, which has no GAME (a gamelab.core.contract.Game)")
        _EXTRA[game.name] = game
    _found = True


def register(game: Game) -> Game:
    """Add a game that does not live in a ``gamelab`` sub-package (tests,
    a designer's own game in a notebook); it shadows nothing."""
    _discover()
    if game.name in _GAMES:
        raise GamelabError(f"a game named {game.name!r} is already registered")
    _EXTRA[game.name] = game
    return game


def shipped_games() -> tuple[str, ...]:
    """Names of the games in gamelab's own sub-packages, sorted."""
    _discover()
    return tuple(sorted(_GAMES))


def available_games() -> tuple[str, ...]:
    """Every game :func:`get` finds: the shipped ones, then those named in
    ``GAMELAB_GAMES`` or registered by hand."""
    _discover()
    return tuple(sorted(_GAMES)) + tuple(sorted(set(_EXTRA) - set(_GAMES)))


def games() -> tuple[Game, ...]:
    """Every game :func:`get` finds, as objects, in the order of :func:`available_games`."""
    _discover()
    return tuple(_GAMES.get(name) or _EXTRA[name] for name in available_games())


def get(name: object) -> Game:
    """The game called ``name``; an unknown name is an error naming the choices."""
    _discover()
    if isinstance(name, str):
        game = _GAMES.get(name) or _EXTRA.get(name)
        if game is not None:
            return game
    shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
    raise GamelabError(f"unknown game {shown}: expected one of {', '.join(available_games())}")
