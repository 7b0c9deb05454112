"""A playtest record told step by step (``gamelab show RECORD.json``).

The record is replayed by its game's own replay (:func:`gamelab.rulebook.playtest.replay`,
the engine as a batch of one), which shows every decision to a watcher; each
becomes a :class:`~gamelab.sim.story.Step` with its words from the game's view.
Where the hand ledger's ``expect`` and the rules disagree (the replay's
``mismatches``), the step of that turn, beat or round (the view's
``expect_unit``; the last step for a claim about the end) is marked and the
disagreement said in words.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gamelab.core.errors import RecordError
from gamelab.core.files import named_game
from gamelab.core.labels import key_words
from gamelab.sim.story import Step, Story, view_of

from . import playtest


def record_names(ledger: dict) -> list[str]:
    """The seats' names of a ledger: its riders (SBR), else its players (names or ``{name: ...}``)."""
    seats = ledger.get("riders") or ledger.get("players") or []
    return [s["name"] if isinstance(s, dict) else str(s) for s in seats]


def mismatch_words(m: dict) -> str:
    """One disagreement in words: what the hand ledger says, what the rules give."""
    where = "".join(f"[{i}]" for i in m["index"])
    return f"{key_words(m['key'])}{where}: the hand ledger says {m['expected']!r}, the rules give {m['actual']!r}"


def record_story(path: str | Path) -> Story:
    """The record at ``path`` as a story; a bad record is a :class:`RecordError` naming the file."""
    record = playtest.load_record(path)
    seen: list = []

    def watch(before, actions, events, after, unit) -> None:
        seen.append((before.copy(), actions, events, after.copy(), unit))

    try:
        ledger = playtest.replay(record, watch=watch)
    except RecordError as exc:
        raise exc.within(str(path)) from None
    game = named_game(ledger["game"])
    params = _params(game, ledger)
    view = view_of(game)
    names = record_names(ledger)
    if not seen:
        raise RecordError(f"{path}: the record has no decision to show")
    steps = [Step(seen[0][0], "the game is set up")]
    for before, actions, events, after, unit in seen:
        words = view.say(params, before, actions, events, after, 0, names)
        steps.append(Step(after, words, events, unit=unit))
    for m in ledger.get("mismatches", []):
        unit = view.expect_unit(params, m["key"], m["index"])
        at = [i for i, s in enumerate(steps) if unit is not None and s.unit == unit]
        steps[at[-1] if at else len(steps) - 1].marks.append(mismatch_words(m))
    res = game.engine.result(params, steps[-1].state)
    result = {k: np.asarray(v)[0].tolist() for k, v in res.items() if k in ("score", "win", "rank")}
    about = " ".join(str(record.get(k) or "") for k in ("source", "notes")).strip()
    title = f"{game.title}: playtest record {Path(path).name}"
    return Story(game, params, names, title, steps, result, about=about)


def _params(game, ledger):
    """The rules the replay played (the ledger's changes from the defaults: its variant's
    and its own), as the game's knobs."""
    from gamelab.core.params import from_mapping

    return from_mapping(game.knobs, ledger.get("params") or {}, source="record params")
