"""What a designer must never read: a raw parameter or metric identifier
(checked against the declarations), ``nan`` or ``n.s.``."""

import re


def identifiers(game: str) -> set[str]:
    """Every declared parameter and metric name of ``game`` that is not a
    plain word (``sum_cap``, ``style_spread``), and the group win-rate form."""
    from gamelab.core import registry
    from gamelab.core.params import specs
    from gamelab.stats import balance

    g = registry.get(game)
    names = {s.name for s in specs(g.knobs)} | set(g.derived) | set(balance.catalogue(g))
    return {n for n in names if "_" in n} | {"win_rate"}


def raw_words(text: str, game: str) -> list[str]:
    """The raw identifiers, ``nan`` and ``n.s.`` found in ``text``."""
    found = [n for n in sorted(identifiers(game)) if re.search(rf"(?<![\w/.-]){re.escape(n)}(?![\w.-]*\.\w)", text)]
    found += [w for w in ("nan", "NaN") if re.search(rf"\b{w}\b", text)]
    found += ["n.s."] if "n.s." in text else []
    return found


#: a snake_case name standing alone: not part of a path, a file name, a flag, an address or an assignment in code
SNAKE = re.compile(r"(?<![\w/.\-`'\"=:@#])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w\-/(]|\.\w|=)")
#: what Python prints for a container, an object or a numpy scalar, never a designer's words
REPRS = (
    re.compile(r"\{'\w+': "),  # a dict
    re.compile(r"\('\w+', '"),  # a tuple of strings
    re.compile(r"object at 0x[0-9a-f]+"),
    re.compile(r"\bnp\.(?:float|int)\d*\("),
    re.compile(r"<class '"),
    re.compile(r"\bdtype: \w+"),
    re.compile(r"PosixPath\("),
    re.compile(r"\b(?:True|False)\b"),
)
#: UTF-8 read as Latin-1 / cp1252 (Chinese text comes out as é¢, å, ç»...), or a replacement character
CP1252_HIGH = "\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u2013-\u203a\u20ac\u2122"
MOJIBAKE = re.compile(rf"[\u00c2-\u00ef][\u0080-\u00bf{CP1252_HIGH}]|\ufffd")


def unreadable(text: str, game: str) -> list[str]:
    """Everything :func:`raw_words` finds, and any snake_case name, ``NaN``,
    Python repr or mojibake: what a designer must never read in a report,
    a notebook's output, a command's answer or a generated file."""
    found = raw_words(text, game)
    found += sorted({m.group(1) for m in SNAKE.finditer(text)} - set(found))
    found += [m.group(0) for p in REPRS for m in p.finditer(text)][:5]
    found += [repr(m.group(0)) for m in MOJIBAKE.finditer(text)][:5]
    return found


def prose(text: str) -> str:
    """``text`` without the commands it gives to copy (a line starting
    ``gamelab ``, whose flags and parameter file name parameters as code)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("gamelab "))


#: code notation a designer should not have to read (issue 37): a range as ``1..N``, a placeholder ``<terrain>``,
#: ``>=`` / ``<=``, and a range whose two ends agree (``100 %–100 %``: one figure)
NOTATION = (
    re.compile(r"\b\w+\.\.\w+\b"),
    re.compile(r"<[a-z]+>"),
    re.compile(r"[<>]="),
    re.compile(r"(?<![\d.])(\d+(?:\.\d+)? ?%)\s*(?:[-–]|to)\s*\1(?![\d.])"),
)


def notation(text: str) -> list[str]:
    """Every piece of code notation in ``text`` (:data:`NOTATION`)."""
    return [m.group(0) for p in NOTATION for m in p.finditer(text)]
