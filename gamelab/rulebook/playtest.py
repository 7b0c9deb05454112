"""Playtest replay, the part both games share (contract: docs/playtest-format.md).

A record is read (JSON or YAML), handed to its game's ``record`` module, which
validates it against the rules, runs it through the engine as a batch of one
and returns the ledger plus the observed values that ``expect`` may claim.
This module compares those claims and renders the ledger as text tables.

Each game's :class:`~gamelab.core.contract.RecordFormat` provides:

* ``replay(record: dict) -> (ledger: dict, observed: dict)``: ``observed``
  maps each ``expect`` key the game knows to the value the rules give, in the
  same nesting as the claim (lists by round/beat, then by seat).  Raises
  :class:`~gamelab.core.errors.RecordError` for a record that breaks the rules.
* ``tables(ledger) -> list[(title, pandas.DataFrame)]`` for ``gamelab replay``.

The common structure of a record (``game``, ``variant``, ``params``,
``players``, ``expect``: :class:`gamelab.core.schemas.RecordBase`) is checked
here before the game's module sees it; each game's module checks its own
move list against its subclass of that model (:func:`check_record`) and
the rules.  :func:`check_names` is the one rule about names every game
shares.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from gamelab.core.contract import RecordFormat
from gamelab.core.errors import GamelabError, RecordError
from gamelab.core.files import load_mapping, named_game
from gamelab.core.labels import key_words
from gamelab.core.records import check_names, check_record, name_key  # noqa: F401 (also the playtest API)
from gamelab.core.schemas import RecordBase, RecordGame


def load_record(path: str | Path) -> dict:
    """Read a record file; a missing, unreadable or malformed file is a
    :class:`RecordError` naming the file (never a traceback)."""
    record = load_mapping(path, what="playtest record (with a 'game' key)", error=RecordError)
    return record


def record_format(game: object) -> RecordFormat:
    """The record format of the game a record names; an unknown game, or one
    without playtest records, is a :class:`RecordError`."""
    try:
        fmt = named_game(game).record  # the record names its game
    except GamelabError as exc:
        raise RecordError(f"'game': {exc}") from None
    if fmt is None:
        raise RecordError(f"'game': {game} has no playtest record format")
    return fmt


def compare(expect: dict, observed: dict) -> list[dict]:
    """Every claimed value that differs from the observed one.

    Each mismatch names the ``key``, the ``index`` path into the nested lists
    (``[]`` for a scalar claim), the ``expected`` and the ``actual`` value.
    A claim the game does not produce is an error, not a silent skip.
    """
    if not isinstance(expect, dict):
        raise RecordError("'expect' must be a mapping of result names to values")
    out: list[dict] = []
    for key, claim in expect.items():
        if key not in observed:
            raise RecordError(f"'expect' has an unknown key {key!r}: known keys are " + ", ".join(sorted(observed)))
        _diff(key, [], claim, observed[key], out)
    return out


def _diff(key: str, index: list, claim: Any, actual: Any, out: list) -> None:
    if isinstance(claim, list) and isinstance(actual, list):
        for i in range(max(len(claim), len(actual))):
            if i >= len(claim):
                break  # a shorter claim (e.g. only some beats) claims nothing more
            _diff(key, index + [i], claim[i], actual[i] if i < len(actual) else None, out)
    elif claim != actual:
        out.append({"key": key, "index": index, "expected": claim, "actual": actual})


def replay(record: dict, source: str = "", watch=None) -> dict:
    """Replay a record; the ledger with its ``mismatches`` list.  ``watch(before, actions,
    events, after, unit)`` (optional) sees every decision the replay makes (``unit``: the
    0-based turn, beat or round of the record; ``gamelab show RECORD``)."""
    module = record_format(check_record(record, RecordGame, source).game)  # an unknown game first
    head = check_record(record, RecordBase, source)
    if watch is not None and "watch" not in inspect.signature(module.replay).parameters:
        raise RecordError(f"{head.game}'s playtest replay cannot show its decisions one by one (no watch= argument)")
    ledger, observed = module.replay(record) if watch is None else module.replay(record, watch=watch)
    ledger["mismatches"] = compare(head.expect, observed)
    return ledger


def replay_file(path: str | Path) -> dict:
    """Replay a record file; any refusal names the file."""
    record = load_record(path)
    try:
        return replay(record)
    except RecordError as exc:
        raise exc.within(str(path)) from None


def render(ledger: dict) -> str:
    """The ledger as readable text tables (the whole text, so that an error
    can never leave half a ledger printed)."""
    import pandas as pd

    module = record_format(ledger["game"])
    blocks = []
    with pd.option_context("display.unicode.east_asian_width", True, "display.width", 200, "display.max_columns", 50):
        for title, frame in module.tables(ledger):
            frame = frame.rename(columns=lambda c: key_words(c) if isinstance(c, str) else c)  # headers in words
            blocks.append(f"{title}\n{frame.to_string()}")
    mism = ledger.get("mismatches", [])
    if mism:
        lines = [
            f"  {key_words(m['key'])}{''.join(f'[{i}]' for i in m['index'])}: "
            f"record says {m['expected']!r}, rules give {m['actual']!r}"
            for m in mism
        ]
        blocks.append(f"Mismatches with the record's expect ({len(mism)}):\n" + "\n".join(lines))
    else:
        blocks.append("Mismatches with the record's expect: none")
    return "\n\n".join(blocks)
