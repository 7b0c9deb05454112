"""The checks every game's playtest records share: structure by the game's
pydantic model (:func:`check_record`), player names (:func:`check_names`),
the rules a record is played under (:func:`record_params`), a refusal at
one move (:func:`refusal`), moves that pass in seat order
(:func:`in_seat_order`) and the final standing (:func:`standing`).
A game's ``record.py`` calls them as it replays a record
(``docs/playtest-format.md``); :mod:`gamelab.rulebook.playtest` does the rest."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NoReturn, TypeVar

import numpy as np
from pydantic import BaseModel, ValidationError

from gamelab.core.errors import GamelabError, RecordError, short
from gamelab.core.params import Params, from_mapping
from gamelab.core.schemas import MoveEntry, RecordBase, parse, problem

M = TypeVar("M", bound=BaseModel)
E = TypeVar("E", bound=MoveEntry)


def check_record(record: Any, model: type[M] = RecordBase, source: str = "") -> M:  # type: ignore[assignment]
    """The record's structure as ``model`` declares it, or a one-line
    :class:`RecordError` naming the key path and what is expected there."""
    if not isinstance(record, dict):
        where = f"{source}: " if source else ""
        raise RecordError(f"{where}a record is a mapping with a 'game' key, not {short(record)}")
    return parse(model, record, source, error=RecordError)


def name_key(name: str) -> str:
    """What a name is compared by: Unicode NFKC, case folded, zero-width
    marks dropped, runs of whitespace as one space, none at the ends (so
    "Ａnn", "ann", "An\u200bn" and " Ann " are the same player)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return " ".join("".join(c for c in text if unicodedata.category(c) != "Cf").split())  # Cf: zero-width marks


def check_names(names: Iterable[str], *, reserved: Iterable[str] = (), what: str = "players") -> None:
    """Refuse two names that are the same player after normalisation
    (:func:`name_key`), a name that is empty once normalised or holds a
    control character or line break (it would break the one-line error
    and the ledger's tables), and a name
    that reads as one of the record's ``reserved`` words (a word the game's
    move list itself uses); each refusal names both spellings."""
    words = {name_key(w): w for w in reserved}
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in name):
            raise RecordError(f"'{what}': the name {short(name)} holds a control character or a line break")
        if not key:
            raise RecordError(f"'{what}': the name {short(name)} is empty or only spaces")
        if key in words:
            raise RecordError(
                f"'{what}': the name {short(name)} reads as the reserved word {words[key]!r}",
                rule="a name must not be a word the record itself uses",
            )
        if key in seen:
            first = seen[key]
            if first == name:
                text = f"the name {short(name)} appears twice"
            else:
                text = f"{short(first)} and {short(name)} are the same name once case, width and spaces are ignored"
            raise RecordError(f"'{what}': {text}", rule="every player has a name of his own")
        seen[key] = name


def record_params(
    record: dict, rules: type[Params], for_variant: Callable[[str], Params], *, check_players=None, n_players: int = 0
) -> tuple[str, Params]:
    """The record's ``variant`` (default ``standard``) and its rules: the variant
    (``for_variant(name)``), then the record's ``params`` on top; with
    ``check_players(params, n_players)`` the player count checked too.  Any refusal
    is a one-line :class:`RecordError`."""
    variant = record.get("variant", "standard")
    try:
        params = from_mapping(rules, record.get("params", {}), base=for_variant(variant), source="record params")
        if check_players is not None:
            check_players(params, n_players)
    except GamelabError as exc:
        raise RecordError(str(exc)) from None
    return variant, params


def refusal(unit: str) -> Callable[..., NoReturn]:
    """A game's way to refuse its record at one move: ``fail(message, i,
    player, rule)`` raises the :class:`RecordError` naming ``unit i``
    ("turn 3"; without ``i``, the record as a whole)."""

    def fail(message: str, i: int | None = None, player: str | None = None, rule: str | None = None) -> NoReturn:
        raise RecordError(message, where=f"{unit} {i}" if i else None, player=player, rule=rule) from None

    return fail


def in_seat_order(
    moves: list[dict], names: list[str], model: type[E], *, where: str, rule: str
) -> Iterator[tuple[int, str, E]]:
    """The moves of a record whose moves pass in seat order (the first seat,
    then round the table), as ``(i, who, move)``: ``i`` counts from 1,
    ``who`` is the name of the seat to move and ``move`` the entry read by
    ``model``.  A structure problem is a one-line :class:`RecordError`
    naming ``where`` and ``i`` ("turn 3"), the player, the key path and the
    rule in the key's ``description``; an entry whose optional ``player``
    is not ``who`` is refused with the game's ``rule``.  ``moves`` are
    mappings (the record's model checked that)."""
    fail = refusal(where)
    for i, entry in enumerate(moves, 1):
        who = names[(i - 1) % len(names)]
        if "player" in entry and entry["player"] != who:
            fail(f"the record names {short(entry['player'])}, but it is {who}'s turn", i, who, rule)
        try:
            move = model.model_validate(entry)
        except ValidationError as exc:
            loc = exc.errors()[0]["loc"]
            key = model.model_fields.get(str(loc[0])) if loc else None  # None: an unknown key
            fail(problem(model, exc), i, who, key.description if key else None)
        yield i, who, move


def standing(result: dict, names: list[str]) -> dict:
    """The final standing of a replay from the engine's ``result`` for its
    batch of one (per-seat ``score``, ``win``, ``rank``: the contract): the
    ``scores`` and ``rank`` by seat and the ``winners`` by name, everyone
    with a share of the win.  Whether they stand (a game cut short) is the
    game's to say."""
    return {
        "scores": np.asarray(result["score"])[0].tolist(),
        "rank": np.asarray(result["rank"])[0].tolist(),
        "winners": [names[s] for s in np.flatnonzero(np.asarray(result["win"])[0] > 0)],
    }
