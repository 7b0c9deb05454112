"""The games gamelab knows, found by their folders: every sub-package
``gamelab.<name>`` with a ``game`` module (whose ``GAME``, a
:class:`~gamelab.core.contract.Game`, is called ``<name>``), plus the modules
named in the environment variable ``GAMELAB_GAMES`` (comma-separated, each with
a ``GAME`` called after the module: ``gamelab.toy`` holds the game ``toy``,
``mygames.dice.game`` the game ``dice``; a designer's own game outside this
package, or the tests' toy game; worker processes inherit the variable, so they
find the same games), plus any registered by hand (:func:`register`).

Names are found from the files and the variable alone: no game is imported
until it is asked for (:func:`get`, :func:`games`), so ``gamelab --help`` and a
refused argument answer without loading any game or its compiled code.

Like Pgx's ``pgx.make(name)`` / ``available_games()``: the shared layer asks
here and nowhere else, so a new game needs no edit outside its own folder.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import pkgutil
from pathlib import Path
from typing import TYPE_CHECKING

from gamelab.core.errors import GamelabError

if TYPE_CHECKING:
    from gamelab.core.contract import Game

_LOADED: dict[str, Game] = {}  # games imported so far, by name
_EXTRA: dict[str, Game] = {}  # games registered by hand


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


def game_folders() -> dict[str, Path]:
    """{name: package folder} of every game that lives in a package of its own: the shipped ones,
    then those of ``GAMELAB_GAMES`` named ``<package>.game`` (a single module, like the toy game,
    has no folder).  Found without importing any game module (a parent package may be imported)."""
    import gamelab

    here = Path(gamelab.__file__).parent
    found = {p.rpartition(".")[2]: here / p.rpartition(".")[2] for p in game_packages()}
    for module in extra_game_modules():
        package = module.rpartition(".")[0]
        if module.endswith(".game") and package:
            spec = importlib.util.find_spec(package)
            if spec is not None and spec.submodule_search_locations:
                found.setdefault(module_game_name(module), Path(next(iter(spec.submodule_search_locations))))
    return found


def module_game_name(module: str) -> str:
    """The name of the game a module of ``GAMELAB_GAMES`` holds: its last part,
    or its package's when the module is called ``game`` (``mygames.dice.game``: dice)."""
    parts = module.split(".")
    return parts[-2] if parts[-1] == "game" and len(parts) > 1 else parts[-1]


@functools.cache
def _shipped() -> dict[str, str]:
    """{name: module holding its GAME} of the games in gamelab's own sub-packages."""
    return {p.rpartition(".")[2]: f"{p}.game" for p in game_packages()}


def _extra() -> dict[str, str]:
    """{name: module} of the games named in ``GAMELAB_GAMES`` (shipped names shadow them)."""
    shipped = _shipped()
    return {n: m for m in extra_game_modules() if (n := module_game_name(m)) not in shipped}


def _load(name: str, module: str, *, extra: bool) -> Game:
    """Import the module holding the game ``name`` (once) and check its ``GAME``."""
    from gamelab.core.contract import Game, check_declarations

    if name in _LOADED:
        return _LOADED[name]
    where = f"GAMELAB_GAMES names {module!r}, which" if extra else f"{module}"
    try:
        game = getattr(importlib.import_module(module), "GAME", None)
    except ImportError as exc:
        if not extra:
            raise
        raise GamelabError(f"{where} cannot be imported ({exc})") from None
    if not isinstance(game, Game):
        raise GamelabError(f"{where} has no GAME (a gamelab.core.contract.Game)")
    if game.name != name:
        raise GamelabError(
            f"{where} holds a game called {game.name!r}, not {name!r}: a game is named after its "
            + ("module (or its package when the module is called game)" if extra else "folder")
        )
    check_declarations(game)  # a malformed game is refused here, naming the field
    _LOADED[name] = game
    return game


def register(game: Game) -> Game:
    """Add a game that does not live in a ``gamelab`` sub-package (tests,
    a designer's own game in a notebook); it shadows nothing, and its
    declarations must agree (:func:`~gamelab.core.contract.check_declarations`)."""
    from gamelab.core.contract import check_declarations

    check_declarations(game)
    if game.name in _shipped() or game.name in _extra() or game.name in _EXTRA:
        raise GamelabError(f"a game named {game.name!r} is already registered")
    _EXTRA[game.name] = game
    return game


def shipped_games() -> tuple[str, ...]:
    """Names of the games in gamelab's own sub-packages, sorted (none imported)."""
    return tuple(sorted(_shipped()))


def available_games() -> tuple[str, ...]:
    """Every game :func:`get` finds: the shipped ones, then those named in
    ``GAMELAB_GAMES`` or registered by hand (none imported)."""
    return shipped_games() + tuple(sorted(set(_extra()) | set(_EXTRA)))


def games() -> tuple[Game, ...]:
    """Every game :func:`get` finds, as objects (each imported), in the order of :func:`available_games`."""
    return tuple(get(name) for name in available_games())


def get(name: object) -> Game:
    """The game called ``name``, imported on first use; an unknown name is an
    error naming the choices."""
    if isinstance(name, str):
        if name in _EXTRA:
            return _EXTRA[name]
        shipped, extra = _shipped(), _extra()
        if name in shipped:
            return _load(name, shipped[name], extra=False)
        if name in extra:
            return _load(name, extra[name], extra=True)
    shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
    raise GamelabError(f"unknown game {shown}: expected one of {', '.join(available_games())}")
