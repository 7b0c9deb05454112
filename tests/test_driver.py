"""The shared whole-game driver (gamelab/core/driver.py) and the lead-change count (stats/leads.py)."""

from __future__ import annotations

import numpy as np

from gamelab.core import driver
from gamelab.stats.leads import LeadCounter, lead_changes


def test_streams_are_keyed_by_index():
    """The first streams are the same whatever streams follow them (spawn(4)[:2] == spawn(2))."""
    two = driver.split_streams(np.random.SeedSequence(5), ("chance", "agents"))
    four = driver.split_streams(np.random.SeedSequence(5), ("chance", "agents", "rain", "more"))
    for name in two:
        assert np.array_equal(two[name].random(8), four[name].random(8))
    assert not np.array_equal(four["rain"].random(8), four["more"].random(8))


def test_seat_controller_asks_a_shared_policy_once_and_keeps_the_mover():
    asked = []

    def seat_number(label):
        def policy(params, state, legal, rng):
            asked.append(label)
            return np.full(len(state), label, np.int8)

        return policy

    policies = {"a": seat_number(1), "b": seat_number(2)}
    ctl = driver.seat_controller(policies, to_move=lambda state: state)(None, ["a", "b", "a"], 4, None)
    mover = np.array([0, 1, 2, 1])
    assert ctl.act(mover, None).tolist() == [1, 2, 1, 2]
    assert asked == [1, 2]  # "a" holds two seats and is asked once


def test_lead_counter_counts_changes_of_the_sole_leader():
    steps = np.array([[[1, 0]], [[1, 1]], [[1, 2]], [[3, 2]], [[3, 3]], [[3, 4]]])  # (steps, G=1, P=2)
    assert lead_changes(steps, 1).tolist() == [3]  # seat 0, a tie (no change), seat 1, seat 0, a tie, seat 1
    counter = LeadCounter(1, np.int8)
    for points in steps[:3]:
        counter.count(points)
    assert counter.changes.dtype == np.int8 and counter.changes.tolist() == [1]
