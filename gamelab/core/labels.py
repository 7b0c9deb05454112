"""A designer's words for what the declarations name: parameters, their
items and values (the one place below the report layer that turns a key
into words; :mod:`gamelab.report.format` builds on it).

    param_words("hand_size")            # "hand size"
    param_words("node_values[3]")       # "node values, item 3"
    value_words(True)                   # "on"
    change_words("time_rain", False, True)   # "time rain off → on"
"""

from __future__ import annotations

import re

#: choice values whose words are not simply the key with spaces
CHOICE_WORDS = {
    "first_p": "the first P roles",
    "no_seal_no_rider": "no seal, no rider",
    "better_or_stay": "better, or stay",
    "one_round": "one round",
}

_ITEM = re.compile(r"^(?P<name>\w+)\[(?P<item>\d+)\]$")


def key_words(key) -> str:
    """A snake_case key in words (``town_spin`` -> ``town spin``)."""
    return str(key).replace("_", " ")


def param_words(name: str) -> str:
    """A declared parameter, one item of a list (``node_values[3]``, 1-based)
    or a derived knob, in words."""
    m = _ITEM.match(str(name))
    if m:
        return f"{key_words(m['name'])}, item {m['item']}"
    return key_words(name)


def value_words(value) -> str:
    """A parameter's value in words: a flag on/off, a choice by its words,
    a float without trailing noise, a list by its items."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, (tuple, list)):
        return ", ".join(value_words(v) for v in value)
    if isinstance(value, str):
        return CHOICE_WORDS.get(value, key_words(value))
    return str(value)


#: a code name inside a declaration's text: snake_case (``crate_bonus``) or a constant (``RAIN_CARDS``)
_CODE_NAME = re.compile(r"\b(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b")


def doc_words(text: str) -> str:
    """A declaration's text as a designer reads it: every code name in words
    (``each member scores crate_bonus`` -> ``each member scores crate bonus``;
    a choice by its words, ``better_or_stay`` -> ``better, or stay``)."""
    return _CODE_NAME.sub(lambda m: CHOICE_WORDS.get(m.group(0), key_words(m.group(0).lower())), text)


def change_words(name: str, old, new) -> str:
    """``hand size 5 → 4``; ``node values, item 6: 6 → 7``."""
    sep = ": " if _ITEM.match(str(name)) else " "
    return f"{param_words(name)}{sep}{value_words(old)} → {value_words(new)}"


def changes_words(changed) -> str:
    """Changed parameters (``{name: value}``, as ``Params.changed()``) in
    words: ``sum cap = 8; node values = 3, 4, 6``; a string passes through."""
    if isinstance(changed, str):
        return changed
    if not changed:
        return "the rulebook's rules"
    return "; ".join(f"{param_words(k)} = {value_words(v)}" for k, v in changed.items())


def agent_label(game, name: str) -> str:
    """An agent in the words the game declares (``Game.report.agent_words``):
    ``the style mix, style 2 of the deal`` for ``mix2``, ``search, 8 play-outs per
    option`` for ``best@8`` (``Game.report.budget_words``), else its key in words."""
    from gamelab.core import budgets

    agent, at, budget = str(name).partition(budgets.SEPARATOR)
    words = dict(getattr(game.report, "agent_words", {}) or {})
    if at:
        base = words.get(agent, key_words(agent))
        text = getattr(game.report, "budget_words", "{agent}, budget {budget}").format(agent=base, budget=budget)
        return text.replace("1 play-outs", "1 play-out").replace("1 beats", "1 beat") if budget == "1" else text
    if name in words:
        return words[name]
    family = re.match(r"^([a-z_]+?)(\d+)$", name)
    if family and family[1] in words:
        return f"{words[family[1]]}, style {family[2]} of the deal"
    return CHOICE_WORDS.get(name, key_words(name))


def lineup_words(game, lineup) -> str:
    """A lineup in words, said once when every seat plays the same (``the
    style mix on every seat``, ``greedy rider on every seat``), else seat by seat."""
    words = dict(getattr(game.report, "agent_words", {}) or {})
    names = [_family(a, words) for a in lineup]
    if len(set(names)) == 1 and names:
        return f"{agent_label(game, names[0])} on every seat"
    if len(names) > 2 and len(set(names[1:])) == 1:  # one agent in seat 1 against a lineup
        return f"{agent_label(game, lineup[0])} in seat 1, {agent_label(game, names[1])} on the other seats"
    return "; ".join(agent_label(game, a) for a in lineup)


def _family(name: str, words) -> str:
    """``mix2`` -> ``mix`` when the game names the family ``mix``; else the name."""
    m = re.match(r"^([a-z_]+?)(\d+)$", name)
    return m[1] if m and m[1] in words else name
