"""The rulebook sentences a panel's rules make wrong: written to ``reports/<game>-sentences.md``, linked from a note."""

from __future__ import annotations

from gamelab.core.contract import Game
from gamelab.ui.servers import publish_link
from gamelab.ui.widgets import Note

_SENTENCES: dict = {}


def _sentences_key(game: Game, params):
    from gamelab.rulebook import sentences

    changed = sentences.rules_of(game, params).changed()
    return (game.name, repr(sorted(changed.items()))) if changed else None


def sentences_pending(game: Game, params) -> bool:
    """Whether :func:`rulebook_sentences` has work to do (rules not checked before)."""
    from gamelab.rulebook import coverage

    if game.name not in coverage.rulebooks() or not coverage.seed_path(game.name).exists():
        return False
    key = _sentences_key(game, params)
    return key is not None and key not in _SENTENCES


def rulebook_sentences(game: Game, params) -> Note | None:
    """How many rulebook sentences the panel's rules make wrong, with a link
    to the list (``reports/<game>-sentences.md``, the Markdown of ``gamelab
    claims GAME --params FILE --rewrite``); None at the rulebook's rules or
    for a game without a rulebook text."""
    from gamelab.core.paths import reports_dir
    from gamelab.rulebook import coverage, sentences

    if game.name not in coverage.rulebooks() or not coverage.seed_path(game.name).exists():
        return None
    rules = sentences.rules_of(game, params)
    changed = rules.changed()
    key = _sentences_key(game, params)
    if key is None:
        return None
    if key not in _SENTENCES:  # asking the rules takes a second or two: once per rule set
        table, counts = sentences.changed_sentences(game, rules)
        _SENTENCES[key] = (table, counts, changed)
    table, counts, changed = _SENTENCES[key]
    path = reports_dir() / f"{game.name}-sentences.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    # with a byte-order mark: Jupyter serves .md as text/markdown without a charset, and a browser
    # then reads the Chinese sentences as Latin-1 (mojibake); the mark makes it read UTF-8
    path.write_text(sentences.rewrite(game, table, changed), encoding="utf-8-sig")
    return Note(
        f"{len(table)} rulebook sentences no longer hold under these rules "
        f"({counts['lines_hold']} of {counts['lines']} lines checked by the rules still do): "
        + publish_link(path).replace("published ", "the list ", 1)
    )
