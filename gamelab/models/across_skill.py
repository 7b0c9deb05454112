"""How a verdict moves across skill: classified from a trace's intervals or from decided tests."""

from __future__ import annotations

RULES_KINDS = ("holds at every skill level", "grows with skill", "shrinks with skill", "appears with skill")


def classify(rows: list[dict], fair: float) -> str:
    """How a directional verdict (a metric away from ``fair``) moves over the
    levels of a trace from the default model up (random play aside): one of
    ``holds at every skill level``, ``grows with skill``, ``shrinks with
    skill`` (clear at every level, the strongest's interval of the distance
    from fair apart from the default model's), ``vanishes at high skill``
    (clear with the default model, not with the strongest search),
    ``appears with skill``, ``reverses`` (clear on both sides of fair at
    different levels), ``comes and goes``, ``not seen at any level``."""
    measured = [r for r in rows[1:] if r["value"] is not None]
    if not measured:
        return "not seen at any level"
    sides = [1 if r["low"] > fair else -1 if r["high"] < fair else 0 for r in measured]
    if 1 in sides and -1 in sides:
        return "reverses"
    if all(sides):
        first, last = measured[0], measured[-1]
        sign = sides[0]
        lo_first, hi_first = sorted(((first["low"] - fair) * sign, (first["high"] - fair) * sign))
        lo_last, hi_last = sorted(((last["low"] - fair) * sign, (last["high"] - fair) * sign))
        if lo_last > hi_first:
            return "grows with skill"
        if hi_last < lo_first:
            return "shrinks with skill"
        return "holds at every skill level"
    if sides[0] and not sides[-1]:
        return "vanishes at high skill"
    if not sides[0] and sides[-1]:
        return "appears with skill"
    return "comes and goes" if any(sides) else "not seen at any level"


DECIDED_KINDS = {
    "holds": "holds from the default model to the top rung",
    "grows": "grows with skill",
    "shrinks": "shrinks with skill",
    "vanishes": "vanishes at the top rung",
    "appears": "appears with skill",
    "reverses": "reverses at the top rung",
    "absent": "is not there at the default model or the top rung",
    "undecided": "is not decided at both ends",
}


RULES_CLASSES = ("holds", "grows", "shrinks", "appears")  # the imbalance is there with skilled play


def decided_class(at_default: dict, at_top: dict, reverse_at_top: dict | None = None) -> str:
    """The class of a directional verdict from its sequential tests (each
    {decision, estimate, low, high}: "is it more than the margin away from
    fair on its side?") at the default model and at the top rung, and the
    opposite side's test at the top rung (asked when the first says no):
    holds, grows / shrinks (both yes, the corrected intervals apart),
    vanishes, appears, reverses, absent (no at both ends), undecided."""
    d0, d1 = at_default["decision"], at_top["decision"]
    if reverse_at_top is not None and reverse_at_top["decision"] == "yes":
        return "reverses"
    if "undecided" in (d0, d1):
        return "undecided"
    if d0 == "yes" and d1 == "yes":
        sign = at_top.get("sign", 1)
        lo0, hi0 = sorted((sign * at_default["low"], sign * at_default["high"]))
        lo1, hi1 = sorted((sign * at_top["low"], sign * at_top["high"]))
        return "grows" if lo1 > hi0 else "shrinks" if hi1 < lo0 else "holds"
    if d0 == "yes":
        return "vanishes"
    if d1 == "yes":
        return "appears"
    return "absent"
