"""Compiled hot loops (numba) for the games: the decorators and their on-disk cache.

A game whose compiled functions live in more than one module (its rules in
``kernel.py``, an agent's search in its own module calling them) declares
them as one :class:`Group`.  numba caches each function on disk and
invalidates the cache when the function's own file changes, not when a
function it calls changes in another file (a caller's cache holds the
callee's code): so every function of a group is stamped with the contents of
all the group's files, and an edit of any of them recompiles the group.

Three decorators, each a plain function where numba is missing (the code
then runs as Python, slowly, with the same results):

* :meth:`Group.jit`: compiled, called only from compiled code (no Python
  wrapper: numba builds one per function, and unboxing every array of a
  large tuple argument was a third of the compile time);
* :meth:`Group.entry`: compiled and callable from Python (a batch loop);
* :meth:`Group.inline`: inlined by numba into each compiled caller (a
  turn-sized function in the few hot loops: a call passes every array of
  its tuple arguments, inlining saves that).

All of them compile without numba's reference counting (``_nrt=False``):
compiled code allocates nothing, and counting references to every array of
every call cost 40x a small helper's run time.

Warming: numba compiles a function on its first call, a cost (seconds to a
minute) better paid once after an install than in the first search.  A
game's group lives in the game's ``kernel`` module (``GROUP``) and names the
function that calls every compiled entry once (``warm=``, a dotted name
resolved when warming, since it usually sits above the kernel: the game's
runner plays short games).  :func:`warm_games` warms every game's group,
the games found as the registry finds them; ``python -m
gamelab.core.compiled [package ...]`` runs it (the Makefile does, once per
game, after an edit of a compiled file: docs/performance.md, "Compile time
and the first make report").
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from gamelab.core.errors import GamelabError

try:  # numba is a dependency (pyproject.toml); without it the compiled code runs as Python
    import numba
    import numba.extending
    from numba.core import caching
except ImportError:  # pragma: no cover - exercised only where numba is missing
    numba = None  # type: ignore[assignment]

COMPILED = numba is not None
#: ``for i in unroll(tup)``: a loop over a tuple of constants whose body numba compiles once per item
#: (so ``arrays[i]`` may differ in type from item to item)
unroll = numba.literal_unroll if COMPILED else (lambda items: items)
#: numba's ``overload``: compiled code for a Python function, chosen by the argument types (None without numba)
overload = numba.extending.overload if COMPILED else None
_OPTIONS: dict[str, Any] = dict(_nrt=False)
_INTERNAL: dict[str, Any] = dict(no_cpython_wrapper=True, no_cfunc_wrapper=True)


@lru_cache(maxsize=64)
def _file_digest(path: str, mtime: float, size: int) -> bytes:
    return hashlib.sha256(Path(path).read_bytes()).digest()


class Group:
    """The compiled functions of the modules ``modules`` (dotted names): one
    cache stamp for all of them; ``warm`` the dotted name of the function that
    compiles them all (by default ``warm`` in the first module; the module docstring)."""

    def __init__(self, *modules: str, warm: str | None = None):
        self.modules = modules
        self.warmer = warm or f"{modules[0]}.warm"
        self._cache: Any = _cache_class(self) if COMPILED else None

    def files(self) -> list[Path]:
        out = []
        for name in self.modules:
            spec = importlib.util.find_spec(name)
            if spec is None or spec.origin is None:
                raise ImportError(f"compiled group: no module {name!r}")
            out.append(Path(spec.origin))
        return out

    def stamp(self) -> bytes:
        """A digest of the contents of every file of the group."""
        h = hashlib.sha256()
        for path in self.files():
            st = path.stat()
            h.update(_file_digest(str(path), st.st_mtime, st.st_size))
        return h.digest()

    def warm(self) -> float:
        """Compile every function of the group (or load it from the on-disk cache):
        calls the group's warm function; the seconds it took."""
        module, _, name = self.warmer.rpartition(".")
        t0 = time.perf_counter()
        getattr(importlib.import_module(module), name)()
        return time.perf_counter() - t0

    def _compile(self, fn, **options):
        if not COMPILED:
            return fn
        disp = numba.njit(**{**_OPTIONS, **options})(fn)
        if "inline" not in options:
            disp._cache = self._cache(fn)  # numba's own cache=True, with the group's stamp
        return disp

    def jit(self, fn):
        """Compiled, for compiled callers only (no Python wrapper)."""
        return self._compile(fn, **_INTERNAL)

    def entry(self, fn):
        """Compiled and callable from Python."""
        return self._compile(fn)

    def inline(self, fn):
        """Inlined by numba into every compiled caller."""
        return self._compile(fn, inline="always", **_INTERNAL)


def _cache_class(group: Group):
    """numba's function cache, its source stamp the group's (numba's locators otherwise)."""

    class Stamped:
        def get_source_stamp(self):
            return group.stamp()

    locators = [
        type(f"Group{base.__name__}", (Stamped, base), {})
        for base in (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator)
    ]
    impl = type("GroupCacheImpl", (caching.CompileResultCacheImpl,), {"_locator_classes": locators})
    return type("GroupCache", (caching.FunctionCache,), {"_impl_class": impl})


KERNEL = "kernel"  # the module of a game that declares its GROUP


def compiled_packages() -> tuple[str, ...]:
    """The game packages (found as the registry finds games: its sub-packages with a
    ``game`` module, then the packages of the modules in ``GAMELAB_GAMES``) that have
    a ``kernel`` module, the one that declares their compiled code's :class:`Group`;
    none of them imported."""
    from gamelab.core import registry

    shipped = registry.game_packages()
    extra = (name.rpartition(".")[0] for name in registry.extra_game_modules())
    packages = dict.fromkeys(shipped + tuple(p for p in extra if p and p not in shipped))
    folders = {p: _folder(p) for p in packages}
    return tuple(p for p, folder in folders.items() if folder is not None and (folder / f"{KERNEL}.py").is_file())


def _folder(package: str) -> Path | None:
    """The folder of a package, from its name (the shipped games' without importing them)."""
    import gamelab

    top = Path(gamelab.__file__).parent
    if package.startswith("gamelab.") and (top / package.partition(".")[2]).is_dir():
        return top / package.partition(".")[2]
    spec = importlib.util.find_spec(package)
    return Path(spec.origin).parent if spec is not None and spec.origin else None


def warm_games(packages: tuple[str, ...] | None = None) -> dict[str, float]:
    """Warm the compiled code of every game with some (or of ``packages``,
    dotted or last names): {package: seconds it took}."""
    found = compiled_packages()
    if packages is None:
        chosen = found
    else:
        by_name = {p.rpartition(".")[2]: p for p in found} | {p: p for p in found}
        unknown = [p for p in packages if p not in by_name]
        if unknown:
            raise GamelabError(f"no compiled code in {unknown[0]!r}: the games with some are {', '.join(found)}")
        chosen = tuple(by_name[p] for p in packages)
    return {p: importlib.import_module(f"{p}.{KERNEL}").GROUP.warm() for p in chosen}


def main(argv: list[str]) -> None:
    """``python -m gamelab.core.compiled [package ...]``: warm the games' compiled code
    (every game's, or the packages named), a line per game."""
    try:
        warmed = warm_games(tuple(argv) or None)
    except GamelabError as exc:
        raise SystemExit(str(exc)) from None
    for package, seconds in warmed.items():
        print(f"{package}: compiled code ready in {seconds:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
