"""Rule parameters declared once: default, type, range, rulebook section.

Each game's ``rules.py`` defines a frozen, keyword-only dataclass whose fields
are made with :func:`param`.  Validation, parameter files, sliders, sweeps and
reports all read the same declaration through :func:`specs`, so a default or a
range is never typed twice (the Mesa anti-pattern in ``house-style.md``).

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class GameParams(Params):
        sum_cap: int = param(7, low=2, high=12, section="5.1", doc="...")

A bad value raises :class:`ParamError` whose message names the parameter, the
value and the allowed range.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from gamelab.core.errors import ParamError, short

__all__ = ["ParamSpec", "Params", "param", "specs", "from_mapping", "knob_value", "ParamError"]


@dataclasses.dataclass(frozen=True)
class ParamSpec:
    """What a parameter may be.  ``low``/``high`` bound a number, or each item
    of a tuple; ``choices`` lists the allowed values of a categorical one;
    ``length`` fixes a tuple's length (a cross-field length check belongs in
    the class's ``check``)."""

    name: str
    default: Any
    kind: type
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    length: tuple[int, int] | None = None
    doc: str = ""
    section: str = ""
    item_kind: type | None = None
    items: tuple[str, ...] | None = None  # a list's items by name (SBR's relics: eye, heart, spine, skull)

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        rng = ""
        if self.low is not None or self.high is not None:
            lo = "-inf" if self.low is None else _fmt(self.low)
            hi = "inf" if self.high is None else _fmt(self.high)
            rng = f"{lo}..{hi}"
        if self.kind is tuple:
            n = ""
            if self.length:
                a, b = self.length
                n = f"{a} " if a == b else f"{a}-{b} "
            return f"a list of {n}{self.item_kind.__name__ if self.item_kind else 'value'}s" + (
                f", each {rng}" if rng else ""
            )
        if self.kind is bool:
            return "true or false"
        return f"{self.kind.__name__} in {rng}" if rng else self.kind.__name__


def _fmt(x):
    return str(int(x)) if float(x).is_integer() else str(x)


def param(
    default,
    *,
    low=None,
    high=None,
    choices=None,
    length=None,
    doc: str = "",
    section: str = "",
    item_kind=None,
    items=None,
):
    """A dataclass field carrying its :class:`ParamSpec` in ``metadata``."""
    meta = {
        "param": dict(
            low=low,
            high=high,
            choices=tuple(choices) if choices is not None else None,
            length=length,
            doc=doc,
            section=section,
            item_kind=item_kind,
            items=tuple(items) if items is not None else None,
        )
    }
    return dataclasses.field(default=default, metadata=meta)


def specs(cls_or_obj) -> list[ParamSpec]:
    """The declared parameters of a parameter class, in declaration order."""
    out = []
    for f in dataclasses.fields(cls_or_obj):
        m = f.metadata.get("param")
        if m is None:
            continue
        default: Any = f.default
        kind = type(default)
        item_kind = m["item_kind"]
        if kind is tuple and item_kind is None and default:
            item_kind = type(default[0])
        out.append(
            ParamSpec(
                name=f.name,
                default=f.default,
                kind=kind,
                item_kind=item_kind,
                **{k: v for k, v in m.items() if k != "item_kind"},
            )
        )
    return out


def _coerce(spec: ParamSpec, value):
    """Bring a value from a file or a widget to the declared type, or raise."""
    bad = ParamError(f"{spec.name} = {short(value)} is not valid: expected {spec.allowed()}")
    if spec.kind is bool:
        if isinstance(value, bool):
            return value
        raise bad
    if spec.kind is tuple:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise bad
        items = tuple(value)
        if spec.item_kind is not None:
            items = tuple(_coerce_scalar(spec, spec.item_kind, v, bad) for v in items)
        return items
    return _coerce_scalar(spec, spec.kind, value, bad)


def _coerce_scalar(spec, kind, value, bad):
    if kind is int:
        if isinstance(value, bool):
            raise bad
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if hasattr(value, "__index__"):  # numpy integers
            return int(value)
        raise bad
    if kind is float:
        if isinstance(value, (bool, str)) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
            raise bad
        if not math.isfinite(float(value)):
            raise bad
        return float(value)
    if kind is str:
        if not isinstance(value, str):
            raise bad
        return value
    return value


def _check_range(spec: ParamSpec, value):
    where = f"{spec.name} = {short(value)}"
    if spec.choices is not None:
        if value not in spec.choices:
            raise ParamError(f"{where} is not allowed: expected {spec.allowed()}")
        return
    items = value if spec.kind is tuple else (value,)
    if spec.kind is tuple and spec.length is not None:
        a, b = spec.length
        if not a <= len(value) <= b:
            raise ParamError(f"{where} has {len(value)} items: expected {spec.allowed()}")
    for v in items:
        if (spec.low is not None and v < spec.low) or (spec.high is not None and v > spec.high):
            raise ParamError(f"{where} is out of range: expected {spec.allowed()} (rulebook default {spec.default!r})")


class Params:
    """Mixin for a game's frozen parameter dataclass.

    ``__post_init__`` coerces and range-checks every declared field, then calls
    ``check()``, where a game states the rules that tie fields together.
    """

    def __post_init__(self):
        for spec in specs(self):
            value = _coerce(spec, getattr(self, spec.name))
            _check_range(spec, value)
            object.__setattr__(self, spec.name, value)
        self.check()

    def check(self) -> None:  # pragma: no cover - overridden where needed
        pass

    def replace(self, **changes):
        """A copy with some parameters changed (validated again)."""
        return from_mapping(type(self), changes, base=self)

    def changed(self) -> dict:
        """The parameters that differ from the rulebook's defaults."""
        return {s.name: getattr(self, s.name) for s in specs(self) if getattr(self, s.name) != s.default}

    def as_dict(self) -> dict:
        return {s.name: getattr(self, s.name) for s in specs(self)}


def knobs_of(params, knobs: type):
    """``params`` as the game's knobs class ``knobs`` (``Game.knobs``: its rules plus the agents'
    model knobs): itself when it is one, else its rules with the knobs' defaults (written once for
    every game; SBR's returned the default rules for a plain rules object)."""
    if isinstance(params, knobs):
        return params
    if not isinstance(params, Params):  # no rules given: every default
        return _knobs_from_rules(knobs, None)
    try:
        return _knobs_from_rules(knobs, params)
    except TypeError:  # a rules object that cannot be hashed: built without the cache
        return _knobs_from_rules.__wrapped__(knobs, params)


@lru_cache(maxsize=64)
def _knobs_from_rules(knobs: type, rules):
    if rules is None:
        return knobs()
    names = {s.name for s in specs(knobs)}
    return knobs(**{k: v for k, v in rules.as_dict().items() if k in names})


def from_mapping(cls, mapping: Mapping[str, Any] | None, *, base=None, source: str = "parameters"):
    """Build ``cls`` from a name->value mapping (a parameter file, a record's
    ``params``), starting from ``base`` or the defaults.  An unknown name is an
    error that lists the closest known names."""
    if mapping is None:
        mapping = {}
    if not isinstance(mapping, Mapping):
        raise ParamError(f"{source}: expected a mapping of parameter names to values, not {short(mapping)}")
    mapping = dict(mapping)
    names = [s.name for s in specs(cls)]
    for key in mapping:
        if key not in names:
            close = difflib.get_close_matches(str(key), names, n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise ParamError(f"{source}: unknown parameter {short(key)}{hint}; known parameters: {', '.join(names)}")
    if base is None:
        return cls(**mapping)
    return dataclasses.replace(base, **mapping)


def variant_maker(cls, table: Mapping[str, Any]):
    """``params_for_variant(name="standard", **overrides)`` for a game's table
    of variants: name -> the changes from the defaults (a mapping, or a
    function of the default parameters that gives one).  An unknown name is
    an error naming the variants."""
    names = tuple(table)

    def params_for_variant(name: str = "standard", **overrides):
        if not isinstance(name, str) or name not in table:
            raise ParamError(f"variant {short(name)} is unknown: expected one of {', '.join(names)}")
        base = cls()
        changes = table[name]
        changes = dict(changes(base) if callable(changes) else changes)
        changes.update(overrides)
        return from_mapping(cls, changes, base=base, source=f"variant {name}")

    params_for_variant.__doc__ = f"The parameters of a variant ({', '.join(names)}), then single overrides on top."
    return params_for_variant


def knob_value(name: str, value, low: float, high: float, *, integer: bool = False, meaning: str = ""):
    """The value of a derived sweep knob (``relic_scale``, ``node_shift``,
    ...), or a :class:`ParamError` naming the knob and its allowed range: a
    finite number (a whole one if ``integer``) in ``low..high``, the range
    in which the knob means what it says (no value clipped, none negative)."""
    number = isinstance(value, (int, float)) or (hasattr(value, "__float__") and not isinstance(value, str))
    ok = number and not isinstance(value, bool) and math.isfinite(float(value)) and low <= float(value) <= high
    if ok and integer and not float(value).is_integer():
        ok = False
    if not ok:
        what = "a whole number" if integer else "a number"
        tail = f" ({meaning})" if meaning else ""
        raise ParamError(f"{name} = {short(value)} is not valid: expected {what} in {low:.4g}..{high:.4g}{tail}")
    return int(value) if integer else value
