"""Pig's identities as exact functions of the rule parameters (fractions, no
simulation); rule numbers refer to ``docs/rules-pig.md``.

① the chance a roll busts; ② the mean of a scoring roll; ③ the turn total
at which one more roll stops gaining in expectation (20 in the classic game,
the threshold of the ``hold_at_20`` agent); ④ and ⑤ the expected banked
points and the bust chance of one turn played "hold at h", by dynamic
programming over the turn total.  No rulebook states these numbers, so the
rows carry no rulebook value; ① and ② are also measured in simulation.
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from gamelab.stats.intervals import ratio_of_sums

from .agents import knobs
from .rules import PigParams


def bust_chance(params: PigParams) -> Fraction:
    """① Rules 2-3: bust_faces / die_faces."""
    return Fraction(params.bust_faces, params.die_faces)


def scoring_mean(params: PigParams) -> Fraction:
    """② Rule 4: the mean pips of a roll that does not bust."""
    faces = params.scoring_faces
    return Fraction(sum(faces), len(faces))


def gain_threshold(params: PigParams) -> Fraction:
    """③ The turn total t at which one more roll gains nothing in expectation:
    (sum of scoring faces - bust_faces * t) / die_faces = 0, so
    t = sum of scoring faces / bust_faces (20 for the classic die)."""
    return Fraction(sum(params.scoring_faces), params.bust_faces)


def hold_at_turn(params: PigParams, h: int) -> tuple[Fraction, Fraction]:
    """④ and ⑤: (expected points banked, chance of busting) of one turn that
    rolls until the turn total reaches ``h``, then holds (from a banked score
    far from the target).  ``value[t]`` is the expected bank from turn total
    t; totals of h or more hold; below h, each face is a 1/die_faces branch
    (rule 3: a bust banks nothing; rule 4: a scoring face moves to t + face)."""
    f = params.die_faces
    top = h + f
    value = [Fraction(t) for t in range(top + 1)]
    bust = [Fraction(0)] * (top + 1)
    for t in range(h - 1, -1, -1):
        value[t] = sum((value[t + x] for x in params.scoring_faces), Fraction(0)) / f
        bust[t] = (params.bust_faces + sum((bust[t + x] for x in params.scoring_faces), Fraction(0))) / f
    return value[0], bust[0]


def expected_turn(params: PigParams, h: int) -> Fraction:
    return hold_at_turn(params, h)[0]


def rows(params: PigParams) -> list:
    """The identities as table rows (exact values; ``sim_key`` names the
    simulated metric a row can be checked against)."""
    from gamelab.core.identity_row import Row

    h = knobs(params).hold_at
    banked, busted = hold_at_turn(params, h)
    return [
        Row(
            "①",
            "chance a roll busts (bust faces / die faces)",
            None,
            float(bust_chance(params)),
            sim_key="bust_rate",
            percent=True,
        ),
        Row("②", "mean pips of a scoring roll", None, float(scoring_mean(params)), sim_key="scoring_mean"),
        Row("③", "turn total where one more roll stops gaining (hold threshold)", None, float(gain_threshold(params))),
        Row("④", f"expected points banked by one turn of 'hold at {h}'", None, float(banked)),
        Row("⑤", f"chance one turn of 'hold at {h}' busts", None, float(busted), percent=True),
    ]


def simulated(params: PigParams, frames: dict, extra: dict) -> dict:
    """① and ② measured on runner frames (any player counts, pooled; each
    deal of each frame is a cluster): ``bust_rate`` = busts / rolls,
    ``scoring_mean`` = pips / scoring rolls."""
    if not frames:
        return {}
    parts = [f.groupby("deal")[["rolls", "busts", "pips"]].sum() for f in frames.values()]
    sums = pd.concat(parts, ignore_index=True)
    rolls, busts, pips = (sums[c].to_numpy(float) for c in ("rolls", "busts", "pips"))
    return {"bust_rate": ratio_of_sums(busts, rolls), "scoring_mean": ratio_of_sums(pips, rolls - busts)}
