"""A designer's question about balance metrics, as ``T > c`` or ``T < c``.

    win_rate[seat=1] - fair > 0.02
    style_spread < 0.10
    seat_spread(params) < seat_spread(baseline) - 0.03

One comparison (``<``, ``<=``, ``>``, ``>=``) of two linear expressions of
metric names (:mod:`gamelab.stats.balance`; ``NAME(params)`` / ``NAME(baseline)``
name the arm, a bare name is the ``params`` arm), numbers and ``fair``
(1 / players), with ``+``, ``-``, ``*`` and ``/`` by numbers and
parentheses.  Everything is moved to one side: ``T`` the metric terms,
``c`` the constants.  A bad expression is one :class:`GamelabError` line
naming the place.

What is accepted is bounded so that the test's arithmetic stays finite:
ASCII digits only (a regex digit class would read Arabic-Indic or fullwidth digits);
every number written at most :data:`MAX_NUMBER` in size; every coefficient
of a metric, after moving everything to one side, between
:data:`MIN_COEF` and :data:`MAX_NUMBER` in size, and the constants at most
:data:`MAX_NUMBER`.  ``win_rate[GROUP=VALUE]`` takes a group of the game's
declared report groups and one of that group's known values
(:func:`gamelab.balance.metric`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import NoReturn

from gamelab.core.errors import GamelabError, short

ARMS = ("params", "baseline")
MAX_LENGTH = 400
MAX_NUMBER = 1e6  # the largest number, coefficient or constant (metrics are shares or scores)
MIN_COEF = 1e-6  # the smallest coefficient of a metric (smaller: the metric is lost in rounding)
_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<number>[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\[[!-\\^-~]+\])?)
  | (?P<compare><=|>=|<|>)
  | (?P<op>[-+*/()])
""",
    re.VERBOSE | re.ASCII,
)


@dataclasses.dataclass(frozen=True)
class Term:
    coef: float
    metric: str
    arm: str


@dataclasses.dataclass(frozen=True)
class Question:
    """``sign * (T - c) > 0`` with ``T = Σ coef · metric(arm)`` and
    ``c = constant + fair_coef / players``."""

    text: str
    terms: tuple[Term, ...]
    constant: float
    fair_coef: float
    sign: int  # +1: is T above c?  -1: is T below c?
    # ``>=`` / ``<=``: T equal to c counts as yes (the same for a smooth metric; for a count,
    # "styles_worth_playing >= 4" holds at 4 and "> 4" does not)
    inclusive: bool = False

    def threshold(self, n_players: int) -> float:
        return self.constant + self.fair_coef / n_players + 0.0  # + 0.0: never print -0

    def statistic(self) -> str:
        """``T`` written out, e.g. ``seat_spread - seat_spread(baseline)``."""
        out = ""
        for t in self.terms:
            name = t.metric if t.arm == "params" else f"{t.metric}({t.arm})"
            body = name if abs(t.coef) == 1 else f"{abs(t.coef):g}*{name}"
            if not out:
                out = ("-" if t.coef < 0 else "") + body
            else:
                out += (" - " if t.coef < 0 else " + ") + body
        return out


class _Linear:
    """A linear combination: {(metric, arm) or "1" or "fair": coefficient}."""

    def __init__(self, coefs=None):
        self.coefs = dict(coefs or {})

    def __add__(self, other):
        out = dict(self.coefs)
        for k, v in other.coefs.items():
            out[k] = out.get(k, 0.0) + v
        return _Linear(out)

    def scaled(self, f: float):
        return _Linear({k: v * f for k, v in self.coefs.items()})

    def constant(self) -> float | None:
        """The value if it holds no metric (``fair`` counts as a metric here)."""
        return None if any(k != "1" for k in self.coefs) else self.coefs.get("1", 0.0)


class _Parser:
    def __init__(self, text: str, check_metric: Callable[[str], object], with_baseline: bool):
        self.text, self.check, self.with_baseline = text, check_metric, with_baseline
        self.tokens = self._tokens(text)
        self.i = 0

    def fail(self, what: str, at: int | None = None) -> NoReturn:
        pos = (
            self.tokens[self.i][2]
            if at is None and self.i < len(self.tokens)
            else (len(self.text) if at is None else at)
        )
        raise GamelabError(f"expression {short(self.text)}: {what} at character {pos + 1}")

    def _tokens(self, text):
        out, pos = [], 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m:
                _no_foreign_digits(text)
                raise GamelabError(f"expression {short(self.text)}: unexpected {text[pos]!r} at character {pos + 1}")
            if m.lastgroup != "space":
                out.append((m.lastgroup, m.group(), pos))
            pos = m.end()
        return out

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None, len(self.text))

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def expr(self) -> _Linear:
        out = self.product()
        while self.peek()[1] in ("+", "-"):
            sign = 1.0 if self.take()[1] == "+" else -1.0
            out = out + self.product().scaled(sign)
        return out

    def product(self) -> _Linear:
        out = self.factor()
        while self.peek()[1] in ("*", "/"):
            _, op, at = self.take()
            other = self.factor()
            a, b = out.constant(), other.constant()
            if op == "/":
                if b is None or b == 0:
                    self.fail("division only by a non-zero number", at)
                if abs(b) < 1 / MAX_NUMBER:
                    self.fail(f"division by {b:.3g}, smaller than one millionth in size", at)
                out = out.scaled(1 / b)
            elif a is not None:
                out = other.scaled(a)
            elif b is not None:
                out = out.scaled(b)
            else:
                self.fail("a product of two metrics is not a linear question", at)
        return out

    def factor(self) -> _Linear:
        kind, value, at = self.take()
        if kind == "number":
            number = float(value)
            if not number <= MAX_NUMBER:  # also inf (1e999)
                self.fail(
                    f"the number {short(value)} is larger than {MAX_NUMBER:,.0f} (metrics are shares or scores)", at
                )
            return _Linear({"1": number})
        if value == "-":
            return self.factor().scaled(-1.0)
        if value == "(":
            inner = self.expr()
            if self.take()[1] != ")":
                self.i -= 1
                self.fail("expected ')'")
            return inner
        if kind == "name":
            return self.metric(value, at)
        self.i -= 1
        self.fail("expected a metric, a number or 'fair'" if kind else "the expression ends too early")

    def metric(self, name: str, at: int) -> _Linear:
        if name == "fair":
            return _Linear({"fair": 1.0})
        if name.lower() in ("nan", "inf", "infinity"):
            self.fail(f"{short(name)} is not a number gamelab accepts (numbers are finite)", at)
        arm = "params"
        if self.peek()[1] == "(" and self.i + 1 < len(self.tokens) and self.tokens[self.i + 1][1] in ARMS:
            self.take()
            arm = self.take()[1]
            if self.take()[1] != ")":
                self.i -= 1
                self.fail("expected ')' after the arm")
        if arm == "baseline" and not self.with_baseline:
            raise GamelabError(f"expression {short(self.text)}: {name}(baseline) needs --baseline FILE")
        self.check(name)  # an unknown metric is a GamelabError naming the known ones
        return _Linear({(name, arm): 1.0})


def parse_question(text: str, check_metric: Callable[[str], object], with_baseline: bool = False) -> Question:
    """``text`` as a :class:`Question`; ``check_metric(name)`` raises for an unknown metric."""
    if not isinstance(text, str) or not text.strip():
        raise GamelabError("an expression such as 'win_rate[seat=1] - fair > 0.02' is needed")
    if len(text) > MAX_LENGTH:
        raise GamelabError(f"the expression has {len(text)} characters: at most {MAX_LENGTH}")
    p = _Parser(text, check_metric, with_baseline)
    compares = [t for t in p.tokens if t[0] == "compare"]
    if len(compares) != 1:
        raise GamelabError(
            f"expression {short(text)}: expected exactly one comparison (<, <=, > or >=), found {len(compares)}"
        )
    left = p.expr()
    kind, op, at = p.take()
    if kind != "compare":
        p.i -= 1
        p.fail("expected +, -, *, / or a comparison")
    right = p.expr()
    if p.peek()[0] is not None:
        p.fail(f"unexpected {p.peek()[1]!r}")
    diff = left + right.scaled(-1.0)
    terms = tuple(Term(v, k[0], k[1]) for k, v in diff.coefs.items() if isinstance(k, tuple) and v != 0)
    if not terms:
        raise GamelabError(f"expression {short(text)}: no metric to test (both sides are numbers)")
    _check_scale(text, terms, diff.coefs.get("1", 0.0), diff.coefs.get("fair", 0.0))
    return Question(
        text.strip(),
        terms,
        -diff.coefs.get("1", 0.0),
        -diff.coefs.get("fair", 0.0),
        1 if op.startswith(">") else -1,
        op.endswith("="),
    )


def _no_foreign_digits(text: str) -> None:
    """A digit that is not 0-9 (fullwidth, Arabic-Indic, ...) named in words."""
    for i, ch in enumerate(text):
        if ch.isdigit() and not ch.isascii():
            raise GamelabError(
                f"expression {short(text)}: {ch!r} at character {i + 1} is not an ASCII digit (write numbers with 0-9)"
            )


def _size(value: float) -> str:
    """A number for a message: never ``inf`` or ``nan``."""
    import math

    return f"{value:.3g}" if math.isfinite(value) else "more than any finite number"


def _check_scale(text: str, terms, constant: float, fair: float) -> None:
    """Coefficients and constants of a size the test's arithmetic can carry."""
    for t in terms:
        name = t.metric if t.arm == "params" else f"{t.metric}({t.arm})"
        if not MIN_COEF <= abs(t.coef) <= MAX_NUMBER:  # also inf and nan
            raise GamelabError(
                f"expression {short(text)}: {name} is multiplied by {_size(t.coef)}; a metric's multiple is "
                f"between one millionth and {MAX_NUMBER:,.0f} in size (else the question is lost in rounding)"
            )
    for what, value in (("the constant", constant), ("the multiple of fair", fair)):
        if not abs(value) <= MAX_NUMBER:
            raise GamelabError(
                f"expression {short(text)}: {what} comes to {_size(value)}, larger than {MAX_NUMBER:,.0f} in size"
            )
