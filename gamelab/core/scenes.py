"""How a game's state looks, described as plain data (a game never draws).

A game declares a :class:`View` (``Game.panels.view``, in its ``view.py``): a function
from one game of a batch state to a :class:`Scene`, a tuple of parts the shared
drawing layer (:mod:`gamelab.report.viewer`) turns into pictures, and a function
that says in words what one decision did.  A game without a view gets
:func:`default_scene` (the state's fields as a table) and :func:`default_say`.

The parts, each drawn in its own picture, top to bottom:

* :class:`Track`: squares in rows (a race track), each of a ``kind`` coloured by
  the part's ``palette`` and carrying marks (a relic, a seal), and tokens on them
  (riders: a label, a seat whose colour they take).
* :class:`Ring`: the players around a table, each with a badge (a role), a big
  value (cargo), lines of text and markers, arrows between seats (``mutual``
  arrows drawn as one team line) and lines in the middle (the node).
* :class:`Dice`: dice faces and a note.
* :class:`Bars`: one bar per seat (banked scores, running totals), an optional
  target line.
* :class:`Facts`: rows of (name, value) text; :class:`Grid`: a small table.

Any part may be ``optional``: the page shows it only when the designer ticks
its name (an SBR hand: "hands").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

#: one colour per seat (seat 1 first), also the drawing layer's; a game names seats, never colours
SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")


@dataclasses.dataclass(frozen=True)
class Token:
    """A piece on a track square: ``seat`` (0-based) picks its colour."""

    square: int  # index into the track's squares
    label: str
    seat: int


@dataclasses.dataclass(frozen=True)
class Square:
    label: str  # the square's number as printed
    kind: str  # a key of the track's palette (terrain)
    marks: tuple[str, ...] = ()  # short words drawn on the square ("relic", "seal 2")


@dataclasses.dataclass(frozen=True)
class Track:
    title: str
    squares: tuple[Square, ...]
    tokens: tuple[Token, ...] = ()
    palette: Mapping[str, str] = dataclasses.field(default_factory=dict)  # kind -> colour (#rgb)
    per_row: int = 10
    optional: str = ""


@dataclasses.dataclass(frozen=True)
class Seat:
    name: str
    value: str = ""  # the big value in the seat's circle (cargo)
    badge: str = ""  # a word under the name (a role)
    lines: tuple[str, ...] = ()  # more words under it
    markers: int = 0  # small black dots (lone markers)
    active: bool = False  # drawn with a thick ring (to move, a node winner)


@dataclasses.dataclass(frozen=True)
class Arrow:
    src: int
    dst: int
    mutual: bool = False  # a team: drawn once, as a thick line without heads


@dataclasses.dataclass(frozen=True)
class Ring:
    title: str
    seats: tuple[Seat, ...]
    arrows: tuple[Arrow, ...] = ()
    centre: tuple[str, ...] = ()
    optional: str = ""


@dataclasses.dataclass(frozen=True)
class Dice:
    title: str
    faces: tuple[int, ...]
    note: str = ""
    bad: bool = False  # the roll lost something (drawn red)
    optional: str = ""


@dataclasses.dataclass(frozen=True)
class Bars:
    title: str
    labels: tuple[str, ...]
    values: tuple[float, ...]
    target: float | None = None
    extra: tuple[float, ...] = ()  # a lighter bar on top of each (a turn total at stake)
    optional: str = ""


@dataclasses.dataclass(frozen=True)
class Facts:
    title: str
    rows: tuple[tuple[str, str], ...]
    optional: str = ""


@dataclasses.dataclass(frozen=True)
class Grid:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    optional: str = ""


Part = Track | Ring | Dice | Bars | Facts | Grid
Scene = tuple[Part, ...]


@dataclasses.dataclass(frozen=True, kw_only=True)
class View:
    """How one game looks and what its decisions say (``Game.panels.view``).

    ``scene(params, state, g, names, events) -> Scene``: game ``g`` of a batch state, the
    seats called ``names``, ``events`` the engine's events of the step that led to it
    (``{}`` at the set-up).  ``say(params, before, actions, events, after, g, names)
    -> str``: what the decision just made did, in words (``before``/``after``:
    the states around it; ``actions`` may be None for a step no one chose, such as
    the end of a beat in a replay).  ``why(params, agent, state, actions, g, seat)
    -> str``: one line of why agent ``agent`` chose so ("" when it cannot say
    cheaply); ``mover(state, g) -> [seats]``: who decided at that state.
    ``expect_unit(params, key, index) -> unit | None``: for a playtest record's ``expect``
    claim ``key[index...]``, the 0-based turn, beat or round it is about (None:
    the end of the game)."""

    scene: Callable[[Any, Any, int, Sequence[str], dict], Scene]
    say: Callable[..., str]
    why: Callable[..., str] = lambda params, agent, state, actions, g, seat: ""
    mover: Callable[[Any, int], Sequence[int]] | None = None
    expect_unit: Callable[[Any, str, Sequence[int]], int | None] = lambda params, key, index: None
    unit_word: str = "turn"  # what a record's unit is called (turn, beat, round)


def plain(value: Any) -> str:
    """A state field's value for a table: numbers plainly, arrays as lists."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {plain(v)}" for k, v in value.items()) + "}"
    return str(value)


def fields_of(state: Any, g: int) -> list[tuple[str, Any]]:
    """Game ``g``'s fields of a batch state (a dataclass or a named tuple): each
    array's row ``g``; a scalar field as it is."""
    if dataclasses.is_dataclass(state):
        names = [f.name for f in dataclasses.fields(state)]
    elif hasattr(state, "_fields"):
        names = list(state._fields)
    else:
        names = [k for k in vars(state) if not k.startswith("_")]
    out = []
    for name in names:
        value = getattr(state, name)
        if isinstance(value, np.ndarray) and value.ndim >= 1:
            value = value[g]
        elif isinstance(value, dict):
            value = {k: (v[g] if isinstance(v, np.ndarray) and v.ndim >= 1 else v) for k, v in value.items()}
        out.append((name, value))
    return out


def default_scene(params, state, g: int, names: Sequence[str], events: dict | None = None) -> Scene:
    """Any game's state as a table: one row per field of game ``g``."""
    return (Facts("State", tuple((name, plain(value)) for name, value in fields_of(state, g))),)


def default_say(params, before, actions, events, after, g: int, names: Sequence[str]) -> str:
    """Any game's decision in words: the actions as chosen, seat by seat where there is one per seat."""
    if actions is None:
        return "the rules move on"
    shown = _row(actions, g)
    if isinstance(shown, list) and len(shown) == len(names):
        return "; ".join(f"{n} chose {plain(a)}" for n, a in zip(names, shown, strict=True))
    return f"chose {plain(shown)}"


def _row(actions, g: int):
    if hasattr(actions, "_fields"):
        return {k: np.asarray(v)[g].tolist() for k, v in zip(actions._fields, actions, strict=True)}
    a = np.asarray(actions)
    return a[g].tolist() if a.ndim >= 1 else a.tolist()


DEFAULT_VIEW = View(scene=default_scene, say=default_say)
