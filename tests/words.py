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
