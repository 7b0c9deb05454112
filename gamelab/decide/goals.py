"""The tuner's goal file and its searched values (see :mod:`gamelab.decide.tune`).

    game: GAME
    players: [4, 5]
    free: {sum_cap: [6, 9], node_values: [[2, 10]]}   # a range for every item
    targets:
      - {metric: style_spread, at_most: 0.10}
      - {metric: rounds_with_team, at_least: 0.85}
    trials: 80
    games: 4000        # per candidate and player count
    seed: 1
    skill: [default, best@8]   # verify: every target at each of these skill levels too
                               # (default and the learned rung are searched at, not only verified)
    keep_skill: 0.6            # verify: each level beats the one below in 60 % of pairings

``free`` maps a declared rule or model parameter (``game.knobs``) or a
derived knob (``node_scale``) to a range ``[low, high]``; a list parameter
to one range for every item (``[[2, 10]]``) or one range per item; a flag or
a choice to the list of values allowed.  The structure is checked by
pydantic (:func:`gamelab.core.schemas.parse`: one-line errors naming the key);
the ranges against the parameter declarations.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, model_validator

from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError, short
from gamelab.core.labels import change_words
from gamelab.core.limits import MAX_GAMES, MAX_TRIALS, MAX_VERIFY
from gamelab.core.params import from_mapping, specs
from gamelab.core.schemas import parse
from gamelab.decide import sensitivity

NAN_MISS = 1.0  # the miss of a metric that cannot be computed
Number = StrictInt | StrictFloat


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Target(_Strict):
    """One metric's bound: ``{metric: style_spread, at_most: 0.10}``."""

    metric: StrictStr
    at_most: Number | None = None
    at_least: Number | None = None

    @model_validator(mode="after")
    def _one_bound(self):
        if (self.at_most is None) == (self.at_least is None):
            raise ValueError(f"target {self.metric}: give exactly one of at_most, at_least")
        return self

    def miss(self, value: float) -> float:
        if not np.isfinite(value):
            return NAN_MISS
        if self.at_most is not None:
            return max(0.0, value - self.at_most)
        assert self.at_least is not None  # exactly one bound (checked on reading)
        return max(0.0, self.at_least - value)

    def words(self, label: str | None = None, percent: bool = False) -> str:
        """``style spread at most 19 points`` (``label``: the metric's label,
        ``percent``: a share shown in points)."""
        bound = self.at_most if self.at_most is not None else self.at_least
        assert bound is not None
        value = f"{bound * 100:g} points" if percent else f"{bound:g}"
        return f"{label or self.metric} {'at most' if self.at_most is not None else 'at least'} {value}"

    def question(self, room: float = 0.0) -> str:
        """The target as a question for the sequential test, ``room`` inside
        the bound (``style_spread <= 0.185`` for at most 0.19, room 0.005)."""
        if self.at_most is not None:
            return f"{self.metric} <= {round(self.at_most - room, 12)!r}"
        assert self.at_least is not None
        return f"{self.metric} >= {round(self.at_least + room, 12)!r}"


class Goal(_Strict):
    """A tuning goal file (``gamelab tune GOAL.yaml``)."""

    game: StrictStr
    players: (
        Annotated[StrictInt, Field(ge=1, le=64)]
        | Annotated[list[Annotated[StrictInt, Field(ge=1, le=64)]], Field(min_length=1)]
    )
    free: Annotated[dict[StrictStr, Annotated[list[Any], Field(min_length=1)]], Field(min_length=1)]
    targets: Annotated[list[Target], Field(min_length=1)]
    trials: Annotated[StrictInt, Field(gt=0, le=MAX_TRIALS)] = 60
    games: Annotated[StrictInt, Field(gt=0, le=MAX_GAMES)] = 4000
    seed: Annotated[StrictInt, Field(ge=0, lt=2**62)] = 0
    verify: Annotated[StrictInt, Field(gt=0, le=MAX_VERIFY)] = 3
    verify_games: Annotated[StrictInt, Field(gt=0, le=MAX_GAMES)] | None = None
    sure_games: Annotated[StrictInt, Field(gt=0, le=MAX_GAMES)] | None = None
    lineup: Annotated[list[StrictStr], Field(min_length=1)] | None = None
    params: dict[StrictStr, Any] | None = None
    # skill (decide/skill_checks.py): every target must hold at each named level of the game's
    # skill trace; each level must beat the one below in at least ``keep_skill`` of its pairings
    skill: Annotated[list[StrictStr], Field(min_length=1)] | None = None
    keep_skill: Annotated[StrictFloat | StrictInt, Field(gt=0, le=1)] | None = None

    def player_counts(self) -> list[int]:
        return [self.players] if isinstance(self.players, int) else list(self.players)


@dataclasses.dataclass(frozen=True)
class Dim:
    """One searched value: a parameter, one item of a tuple, or a derived knob."""

    name: str  # "sum_cap", "node_values[3]", "node_scale"
    parameter: str
    item: int | None  # index into a tuple parameter
    kind: str  # "int", "float", "choice"
    low: Any = None
    high: Any = None
    choices: tuple = ()
    base: Any = None  # the starting rules' value
    span: float = 1.0  # the declared range (a change of span counts 1)


def dims(game: Game, base, free: dict, source: str) -> list[Dim]:
    """The searched values of a goal's ``free`` mapping, each checked against
    its declaration: the parameter's kind (flags and choices their own
    values, whole numbers for whole-number parameters), ``low < high``,
    the range inside the parameter's own range (a derived knob: both ends
    give valid rules), one range or one per item of a list."""
    declared = {s.name: s for s in specs(game.knobs)}
    out = []
    for name, rng in free.items():
        where = f"{source}: free.{name}"
        if name in game.derived:
            out.append(_derived_dim(game, base, name, rng, where))
            continue
        if name not in declared:
            import difflib

            close = difflib.get_close_matches(name, [*declared, *game.derived], n=2)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise GamelabError(
                f"{where}: unknown parameter{hint}; free parameters are the game's {len(declared)} declared ones "
                "(rules and model knobs) or its derived knobs "
                f"({', '.join(game.derived) or 'none'})"
            )
        spec, value = declared[name], getattr(base, name)
        if spec.choices is not None or spec.kind is bool:
            allowed = spec.choices if spec.choices is not None else (False, True)
            bad = [v for v in rng if not any(_same(v, a) for a in allowed)]
            if bad:
                raise GamelabError(f"{where}: {short(bad[0])} is not one of {', '.join(map(repr, allowed))}")
            if len(set(rng)) < 2:
                raise GamelabError(f"{where}: list at least two different values to choose from, not {short(rng)}")
            out.append(Dim(name, name, None, "choice", choices=tuple(dict.fromkeys(rng)), base=value))
        elif spec.kind is tuple:
            out += _tuple_dims(spec, value, rng, where)
        elif spec.kind in (int, float):
            lo, hi = _range(rng, where, whole=spec.kind is int)
            _inside(spec, lo, hi, where)
            out.append(
                Dim(
                    name,
                    name,
                    None,
                    spec.kind.__name__,
                    spec.kind(lo),
                    spec.kind(hi),
                    base=value,
                    span=_span(spec, lo, hi),
                )
            )
        else:
            raise GamelabError(f"{where}: a {spec.kind.__name__} parameter cannot be tuned")
    return out


def _same(value, allowed) -> bool:
    """``value`` is ``allowed`` in kind and value (``1`` is not ``True``)."""
    return type(value) is type(allowed) and value == allowed


def _derived_dim(game: Game, base, name: str, rng, where: str) -> Dim:
    """A derived knob's range: both ends must give valid rules; a knob that
    refuses a value between them that is not whole (``node_shift``) is
    searched over whole numbers, and then its ends must be whole."""
    lo, hi = _range(rng, where)

    def valid(v) -> str:
        try:
            from_mapping(game.knobs, game.derived[name](base, v), base=base, source=where)
        except GamelabError as exc:
            return str(exc)
        return ""

    for v in (lo, hi):
        if problem := valid(v):
            raise GamelabError(f"{where}: [{lo}, {hi}] is not inside the knob's own range ({problem})")
    whole = bool(valid(lo + 0.37 * (hi - lo) if hi - lo > 1 else (lo + hi) / 2)) and float(lo).is_integer()
    if whole and not (isinstance(lo, int) and isinstance(hi, int)):
        raise GamelabError(f"{where}: takes whole numbers: write the range as [low, high] of whole numbers")
    kind = "int" if whole else "float"
    low, high = (int(lo), int(hi)) if whole else (float(lo), float(hi))
    return Dim(name, name, None, kind, low, high, base=_derived_base(name), span=float(hi - lo))


def _derived_base(name: str) -> float:
    """A derived knob's value that changes nothing: 1 for a scale, else 0."""
    return 1.0 if name.endswith(sensitivity.SCALE_SUFFIX) else 0.0


def _range(rng, where, *, whole: bool = False):
    """``[low, high]``: two numbers (whole ones for a whole-number
    parameter), ``low < high``."""
    kinds = (int,) if whole else (int, float)
    if len(rng) != 2 or not all(isinstance(v, kinds) and not isinstance(v, bool) for v in rng):
        what = "whole numbers" if whole else "numbers"
        raise GamelabError(f"{where}: expected a range [low, high] of two {what}, not {short(rng)}")
    if not rng[0] < rng[1]:
        raise GamelabError(f"{where}: the range [{rng[0]}, {rng[1]}] is empty: low must be below high")
    return rng[0], rng[1]


def _inside(spec, lo, hi, where):
    if (spec.low is not None and lo < spec.low) or (spec.high is not None and hi > spec.high):
        raise GamelabError(f"{where}: [{lo}, {hi}] leaves the declared range {spec.allowed()}")


def _span(spec, lo, hi) -> float:
    if spec.low is not None and spec.high is not None and spec.high > spec.low:
        return float(spec.high - spec.low)
    return float(hi - lo) or 1.0


def _tuple_dims(spec, value, rng, where) -> list[Dim]:
    if spec.item_kind not in (int, float):
        raise GamelabError(f"{where}: only lists of numbers can be tuned")
    ranges = [rng[0]] * len(value) if len(rng) == 1 else list(rng)
    if len(ranges) != len(value):
        raise GamelabError(
            f"{where}: {len(ranges)} ranges for {len(value)} items: give one range for every "
            "item ([[low, high]]) or one per item"
        )
    out = []
    for i, r in enumerate(ranges):
        if not isinstance(r, list):
            raise GamelabError(f"{where}: a list parameter takes ranges [[low, high]], not {short(rng)}")
        lo, hi = _range(r, f"{where}[{i}]", whole=spec.item_kind is int)
        _inside(spec, lo, hi, f"{where}[{i}]")
        out.append(
            Dim(
                f"{spec.name}[{i + 1}]",
                spec.name,
                i,
                spec.item_kind.__name__,
                spec.item_kind(lo),
                spec.item_kind(hi),
                base=value[i],
                span=_span(spec, lo, hi),
            )
        )
    return out


def candidate(game: Game, base, ds: list[Dim], values: dict):
    """The parameter object of searched ``values`` (derived knobs first,
    then the parameters themselves)."""
    changes: dict = {}
    for d in ds:
        if d.parameter in game.derived:
            changes.update(game.derived[d.parameter](base, values[d.name]))
    for d in ds:
        if d.item is not None:
            items = list(changes.get(d.parameter, getattr(base, d.parameter)))
            items[d.item] = values[d.name]
            changes[d.parameter] = tuple(items)
        elif d.parameter not in game.derived:
            changes[d.parameter] = values[d.name]
    return from_mapping(game.knobs, changes, base=base, source="candidate")


def distance(ds: list[Dim], values: dict) -> tuple[int, float]:
    """(number of values changed, their total size as shares of the ranges)."""
    n, size = 0, 0.0
    for d in ds:
        v = values[d.name]
        if v == d.base:
            continue
        n += 1
        size += 1.0 if d.kind == "choice" else min(1.0, abs(float(v) - float(d.base)) / d.span)
    return n, size


def changes_in_words(ds: list[Dim], values: dict) -> str:
    """``sum cap 7 → 5; lone penalty 2 → 6`` (labels from the declarations)."""
    words = [change_words(d.name, d.base, values[d.name]) for d in ds if values[d.name] != d.base]
    return "; ".join(words) or "no change"


def load_goal(path) -> Goal:
    """A goal file, its structure checked (one-line errors naming the key)."""
    from gamelab.core.files import load_mapping

    return parse(Goal, load_mapping(path, what="goal file"), str(path))
