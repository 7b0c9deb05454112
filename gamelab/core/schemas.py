"""The structure of the files a designer writes (sweep grids, ...), declared
with pydantic and checked in one place: a file that does not fit is refused
in one line naming the file, the key path and what was expected.

Only structure and types live here; what a value means for a game (a known
parameter, its range) is checked by the parameter declarations
(:mod:`gamelab.core.params`) and each game's record module.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError, model_validator

from gamelab.core.errors import GamelabError, short
from gamelab.core.limits import MAX_GAMES

PositiveInt = Annotated[StrictInt, Field(gt=0)]
Games = Annotated[StrictInt, Field(gt=0, le=MAX_GAMES)]  # a count of games: at most the largest run
Seed = Annotated[StrictInt, Field(ge=0, lt=2**63)]
Players = Annotated[StrictInt, Field(ge=1, le=64)]
Precision = Annotated[float, Field(gt=0, lt=0.5, allow_inf_nan=False)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SweepSpec(_Strict):
    """A sweep file (``gamelab sweep GRID.yaml``)."""

    game: StrictStr
    grid: Annotated[dict[StrictStr, Annotated[list[Any], Field(min_length=1)]], Field(min_length=1)]
    n_games: Games = 2000
    seed: Seed = 0
    lineup: Annotated[list[StrictStr], Field(min_length=1)] | None = None
    n_players: Players | None = None
    params: dict[StrictStr, Any] | None = None
    baseline: dict[StrictStr, Any] | None = None
    precision: Precision | None = None
    max_games: Games = MAX_GAMES
    workers: Annotated[StrictInt, Field(ge=1, le=256)] | None = None
    out: StrictStr | None = None
    chunk_deals: PositiveInt | None = None
    profile: StrictStr | None = None  # a player-model profile file (gamelab.models.profile)


Name = Annotated[StrictStr, Field(min_length=1, max_length=200)]  # a player's name in a record
MAX_SEATS = 64
Names = Annotated[list[Name], Field(min_length=1, max_length=MAX_SEATS)]  # a record's players, seat 1 first


class RecordGame(BaseModel):
    """Only the ``game`` of a record (which game's format to read it by)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    game: StrictStr


class RecordBase(BaseModel):
    """What every playtest record has (``docs/playtest-format.md``), checked
    by :func:`gamelab.rulebook.playtest.replay` before the game's record module sees
    it.  A game's module subclasses it to give ``players`` its item type and
    to add its move list (``beats``, ``rounds``, ``turns``).  More keys
    (notes, dates) are allowed and ignored; ``params`` and ``expect`` may be
    left out but, when written, are mappings (an empty string or list is an
    error, not "absent")."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    game: StrictStr
    variant: StrictStr = "standard"
    params: dict[StrictStr, Any] = {}
    players: Annotated[list[Any], Field(min_length=1, max_length=MAX_SEATS)]
    expect: dict[StrictStr, Any] = {}

    @model_validator(mode="before")
    @classmethod
    def _no_near_spelling(cls, data: Any) -> Any:
        """A top-level key the format does not name is allowed (notes, a source, errata: the
        playtest format's contract), but one that is a near spelling of a key it names
        (``expcet``, ``player``, ``beat``) is refused naming both: it would be ignored silently."""
        import difflib

        if isinstance(data, dict):
            known = list(cls.model_fields)
            for key in data:
                if isinstance(key, str) and key not in known:
                    near = difflib.get_close_matches(key, known, n=1, cutoff=0.75)
                    if near:
                        raise ValueError(f"unknown top-level key {key!r} (did you mean {near[0]}?)")
        return data


class MoveEntry(BaseModel):
    """One entry of a record's move list (a turn, ...), which a game's
    module subclasses with the entry's own keys; a key's ``description``
    names the rule its form comes from (a refusal cites it).  Any other key
    is refused (a misspelt key would otherwise be ignored), except
    ``player`` (checked against the seat by
    :func:`gamelab.core.records.in_seat_order`) and a ``note``, ``notes`` or
    ``comment``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    player: Any = None
    note: Any = None
    notes: Any = None
    comment: Any = None


class PlayerEntry(BaseModel):
    """A player written as ``{"name": ..., "role": ...}`` (or just the name)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    name: Name
    role: StrictStr | None = None

    @model_validator(mode="before")
    @classmethod
    def _bare_name(cls, data: Any) -> Any:
        return {"name": data} if isinstance(data, str) else data


def _where(loc) -> str:
    parts: list[str] = []
    for p in loc:
        parts.append(f"[{p}]" if isinstance(p, int) else (f".{p}" if parts else str(p)))
    return "".join(parts) or "top level"


def parse(model: type[BaseModel], data: Any, source: str, *, error: type[GamelabError] = GamelabError):
    """``data`` as a ``model``, or an ``error`` naming ``source``, the key
    path of the first problem and what is expected there (an empty
    ``source``: no file name in front, the caller adds it)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        source = f"{source}: " if source else ""
        raise error(source + problem(model, exc)) from None


def problem(model: type[BaseModel], exc: ValidationError) -> str:
    """The first problem pydantic found in a ``model``: its key path and
    what is expected there, in one line."""
    err = exc.errors()[0]
    where = _where(err["loc"])
    if err["type"] == "extra_forbidden":
        if len(err["loc"]) > 1:
            return f"unknown key {short(err['loc'][-1])} in {_where(err['loc'][:-1])}"
        return f"unknown key {short(err['loc'][-1])}; known keys: {', '.join(model.model_fields)}"
    if err["type"] == "missing":
        return f"missing key {where!r}"
    got = f" (got {short(err.get('input'))})" if "input" in err else ""
    return f"{where}: {err['msg'].lower()}{got}"
