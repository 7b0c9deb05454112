"""Chance on demand (gamelab/core/chance.py): the k-th number of a game is a pure function of its
key and k, the same one at a time and in a batch, and its dice are fair."""

from __future__ import annotations

import numpy as np
from scipy import stats

from gamelab.core import chance


def test_the_same_key_and_counter_give_the_same_number_alone_and_in_a_batch():
    keys = chance.keys(np.random.default_rng(1), 5)
    batch = chance.uniform(keys[:, None], np.arange(7)[None, :])
    alone = [[float(chance.uniform(keys[g], k)) for k in range(7)] for g in range(5)]
    assert batch.tolist() == alone
    assert np.array_equal(chance.keys(np.random.default_rng(1), 5), keys)
    assert len(np.unique(batch)) == batch.size  # no two games or draws repeat


def test_the_dice_are_fair_and_the_draws_independent():
    keys = chance.keys(np.random.default_rng(2), 2000)
    faces = chance.integers(keys[:, None], np.arange(60)[None, :], 1, 7)
    assert faces.min() == 1 and faces.max() == 6
    counts = np.bincount(faces.ravel(), minlength=7)[1:]
    assert stats.chisquare(counts).pvalue > 0.001
    pairs = np.bincount(((faces[:, :-1] - 1) * 6 + faces[:, 1:] - 1).ravel(), minlength=36)
    assert stats.chisquare(pairs).pvalue > 0.001  # a roll says nothing of the next
