"""STRAND's declared style knobs: the defaults are the published model's
coefficients, the tables follow the knobs, and a knob changes play."""

import dataclasses

import numpy as np

from gamelab.core import registry
from gamelab.core.params import specs
from gamelab.sim import runner
from gamelab.strand import heuristic_tables
from gamelab.strand.agents import AgentParams

#: the coefficients as they were written in code before they became knobs
LEGACY_COEF = np.array(
    [
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.1],
        [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.01, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0, 0.0, -100.0, 0.0],
        [0.0] * 7,
        [0.0] * 7,
    ],
    np.float32,
)


def test_default_knobs_give_the_legacy_coefficients():
    p = AgentParams()
    assert np.array_equal(heuristic_tables.coef(p), LEGACY_COEF)
    assert (p.accept, p.steady_mate, p.big_cargo, p.big_node) == (-50.0, 3, 4, 6)


def test_every_coefficient_knob_is_declared_with_a_range():
    declared = {s.name: s for s in specs(AgentParams)}
    for name in heuristic_tables.COEF_KNOBS:
        spec = declared[name]
        assert spec.low <= spec.default <= spec.high, name


def test_tables_follow_the_knobs_and_stay_cached():
    p = AgentParams()
    q = p.replace(mirror_pointer=3.0)
    assert heuristic_tables.coef(q)[heuristic_tables.MIRROR, heuristic_tables.TERM_POINTER] == 3.0
    assert heuristic_tables.utility_tables(p) is heuristic_tables.utility_tables(AgentParams())
    a, b = heuristic_tables.utility_lookup(p, True, True), heuristic_tables.utility_lookup(q, True, True)
    assert a is heuristic_tables.utility_lookup(p, True, True)
    assert not np.array_equal(a, b)


def test_a_knob_changes_how_a_style_plays():
    """stay refuses overweight partners only while its weight is below accept."""
    kw = dict(n_games=400, seed=3, lineup=["stay"] * 4, progress=False)
    base = runner.simulate(registry.get("strand"), params=AgentParams(), **kw)
    soft = runner.simulate(registry.get("strand"), params=AgentParams(stay_overweight=0.0), **kw)
    same = runner.simulate(registry.get("strand"), params=dataclasses.replace(AgentParams()), **kw)
    assert base["score"].equals(same["score"])
    assert not base["score"].equals(soft["score"])
