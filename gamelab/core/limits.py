"""Declared maxima of the work one command may ask for, and how long a run
is expected to take.

Every count of games, trials or verification rounds read from a file or an
argument is checked against these (:func:`check_count`): a request above the
maximum is refused in one line that names the field and the maximum.  A run
expected to take longer than :data:`ANNOUNCE_SECONDS` says so before it
starts (:func:`announce`), from the game's benchmark rate (``Game.bench``:
the games per second its agents reach at least, ``docs/performance.md``).
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gamelab.core.contract import Game

MAX_GAMES = 200_000  # the largest run: games per setting, per candidate, per level or per test
MAX_TRIALS = 10_000  # Optuna trials of one tune or calibration
MAX_RUN_GAMES = 100_000_000  # games one command may plan in all (a tune's trials x games and verification)
MAX_VERIFY = 50  # candidates re-played by the tuner's verification
MAX_ITEMS = 200_000  # values (mapping entries, list items, scalars) in one JSON/YAML file
ANNOUNCE_SECONDS = 60.0  # a run expected to take longer says so before it starts
SLOW_SHARE = 0.03  # a strong (search) agent's speed as a share of the game's agents' rate, when not declared


def check_count(field: str, value, maximum: int, *, low: int = 1) -> int:
    """``value`` as a whole number in ``low..maximum``, or a one-line
    :class:`~gamelab.core.errors.GamelabError` naming ``field`` and the maximum."""
    from gamelab.core.errors import GamelabError, short

    if isinstance(value, bool) or not isinstance(value, int):
        raise GamelabError(f"{field}: expected a whole number from {low} to {maximum:,}, not {short(value)}")
    if value > maximum:
        raise GamelabError(f"{field} = {value:,} is above the maximum of {maximum:,}")
    if value < low:
        raise GamelabError(f"{field} = {value:,} is below the minimum of {low:,}")
    return value


def games_per_second(game: Game, *, slow: bool = False) -> float:
    """The game's benchmark rate (its agents on every seat); ``slow``: the
    slowest declared lineup of strong agents (search agents), else
    :data:`SLOW_SHARE` of the rate."""
    bench = game.bench
    rate = float(getattr(bench, "agent_target", 0) or 1000.0)
    if slow:
        # a target given as a Fraction is a share of the default agents' rate (the bench's strong lineups)
        extra = [
            float(t * rate if isinstance(t, Fraction) else t)
            for _, _, t in getattr(bench, "extra_lineups", {}).values()
        ]
        rate = min(extra) if extra else rate * SLOW_SHARE
    return rate


def expected_seconds(game: Game, games: float, *, slow: bool = False, workers: int = 1) -> float:
    return float(games) / games_per_second(game, slow=slow) / max(1, workers)


def duration(seconds: float) -> str:
    """``seconds`` in words: "about 40 seconds", "about 3 minutes", "about 2.5 hours"."""
    if not math.isfinite(seconds):
        return "longer than can be said"
    if seconds < 90:
        return f"about {max(1, round(seconds))} seconds"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60)} minutes"
    if seconds < 48 * 3600:
        return f"about {seconds / 3600:.1f} hours"
    return f"about {seconds / 86400:.1f} days"


def announce(
    what: str, game: Game, games: float, *, slow: bool = False, workers: int = 1, at_least: bool = False, stream=None
) -> float | None:
    """Say before a run of ``games`` games that it will take longer than a
    minute (one line on stderr); returns the expected seconds, or None if
    the run is expected to be shorter.  ``at_least``: ``games`` counts only
    part of the run (a report's tables, not its tools)."""
    seconds = expected_seconds(game, games, slow=slow, workers=workers)
    if seconds <= ANNOUNCE_SECONDS:
        return None
    rate = games_per_second(game, slow=slow)
    print(
        f"{what}: {games:,.0f} games at about {rate:,.0f} games/s on {max(1, workers)} worker(s) "
        f"(the game's benchmark rate): expect {_expect(seconds, at_least)}",
        file=stream or sys.stderr,
        flush=True,
    )
    return seconds


def _expect(seconds: float, at_least: bool) -> str:
    words = duration(seconds)
    return f"at least {words.removeprefix('about ')}" if at_least else words
