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
        parts = [p for p in (where, f"player {player}" if player is not None else None) if p]
        head = ", ".join(parts)
        text = f"{head}: {message}" if head else message
        if rule:
            text += f" ({rule})"
        super().__init__(text)
