"""A game's exact claims: every exactly checkable sentence of its rulebook, asked of the rules.

A game declares its claims as :class:`Part` s, each a function ``params ->
{quantity: value}`` (the value in the unit the rulebook prints) with the
source its values come from, and gathers them in one :class:`ExactClaims`
(the ``exact_claims`` of its ``exact_claims.py``, the contract's
``Claims.exact_claims``; :meth:`ExactClaims.declare` takes the part functions
by source).  The three sources:

* :data:`DATA`: the game's board and deck data (what the components are);
* :data:`ENGINE`: scripted states run through the game's engine (what the
  rules *do*, never re-derived by the claims);
* :data:`RECORD`: a worked example of the rulebook replayed by the game's record.

``tests/test_exact_claims.py`` checks every value really depends on its
declared source: a change of the data, of the engine's rules or of the
record must move it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, NamedTuple

DATA, ENGINE, RECORD = "data", "engine", "record"
SOURCES = (DATA, ENGINE, RECORD)


class Part(NamedTuple):
    """One group of quantities (``fn(params) -> {quantity: value}``) and where their values come from."""

    fn: Callable[[Any], dict]
    source: str


@dataclasses.dataclass(frozen=True)
class ExactClaims:
    """A game's exact claims: ``rules`` its parameter class (the defaults when
    no parameters are given), ``parts`` every :class:`Part`.  Called with
    parameters, the ``{quantity: exact value}`` of every part."""

    rules: type
    parts: tuple[Part, ...]

    @classmethod
    def declare(cls, rules: type, *, data=(), engine=(), record=()) -> ExactClaims:
        """The claims of ``rules`` from the part functions of each source, in
        that order (data, engine, record)."""
        by_source = ((DATA, data), (ENGINE, engine), (RECORD, record))
        return cls(rules, tuple(Part(fn, source) for source, fns in by_source for fn in fns))

    def __post_init__(self):
        unknown = {part.source for part in self.parts} - set(SOURCES)
        if unknown:
            raise ValueError(f"exact claims: unknown source {sorted(unknown)[0]!r}: expected one of {SOURCES}")

    def __call__(self, params: Any = None) -> dict:
        """{quantity: exact value} for every checkable sentence of the rulebook."""
        from gamelab.core.errors import ParamError

        params = params if params is not None else self.rules()
        out: dict = {}
        for part in self.parts:
            try:
                out |= part.fn(params)
            except ParamError:  # the rules refuse the part's scripted table (a player count they do not seat):
                continue  # its figures are not defined under them (the sentences list them as no longer defined)
        return out

    def sources(self, params: Any = None) -> dict:
        """{quantity: "data" | "engine" | "record"}: where each value comes from."""
        params = params if params is not None else self.rules()
        return {q: part.source for part in self.parts for q in part.fn(params)}
