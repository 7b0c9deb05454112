"""Errors a designer may cause: a bad parameter, a bad record, a bad file.

The command line prints these as one line and exits 2; anything else that
escapes is a bug in gamelab.
"""

from __future__ import annotations


def short(value, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters: an error line names a
    bad value without repeating all of a 10 MB one."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _shown(name) -> str:
    """A player's name as written when it is plain, short text; else cut
    and quoted (:func:`short`), so that a name from a bad record can never
    break the one-line error."""
    if isinstance(name, str) and len(name) <= 60 and name.isprintable():
        return name
    return short(name)


class GamelabError(Exception):
    """A problem in the user's input, reported as one clear message."""


class ParamError(GamelabError, ValueError):
    """A rule parameter with an unknown name or a value outside its range."""


class RecordError(GamelabError, ValueError):
    """A playtest record that breaks the rules or the record format.

    ``where`` is "beat 4" or "round 3", ``player`` the name as written in the
    record, ``rule`` the rule broken with its rulebook section.
    """

    def __init__(self, message: str, *, where: str | None = None, player: str | None = None, rule: str | None = None):
        self.where, self.player, self.rule, self.detail = where, player, rule, message
        parts = [p for p in (where, f"player {_shown(player)}" if player is not None else None) if p]
        head = ", ".join(parts)
        text = f"{head}: {message}" if head else message
        if rule:
            text += f" ({rule})"
        self.source: str | None = None
        super().__init__(text)

    def within(self, source: str) -> RecordError:
        """The same error with the file it came from in front (``where``,
        ``player`` and ``rule`` kept)."""
        if self.source is not None:
            return self
        err = RecordError(self.detail, where=self.where, player=self.player, rule=self.rule)
        err.args = (f"{source}: {self}",)
        err.source = source
        return err
