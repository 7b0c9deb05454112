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
"""

from __future__ import annotations

import hashlib
import importlib.util
from functools import lru_cache
from pathlib import Path
from typing import Any

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
    cache stamp for all of them (the module docstring)."""

    def __init__(self, *modules: str):
        self.modules = modules
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
