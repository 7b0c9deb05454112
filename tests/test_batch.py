"""The batch-state base every game's State shares (gamelab.core.batch)."""

import dataclasses

import numpy as np

from gamelab.core.batch import Batch


@dataclasses.dataclass
class Toy(Batch):
    score: np.ndarray  # (G, P)
    tallies: dict  # name -> (G,) arrays, as SBR's per-rider stats
    beat: int = 0  # the batch's, not a game's


def _toy():
    return Toy(np.arange(12).reshape(4, 3), {"spin": np.arange(4) * 10}, beat=7)


def test_take_copies_the_games_rows_of_every_array_and_dict_and_keeps_the_rest():
    st = _toy()
    for idx, rows in (
        (2, [2]),
        ([3, 0, 0], [3, 0, 0]),
        (np.array([True, False, True, False]), [0, 2]),
        (slice(1, 3), [1, 2]),
    ):
        got = st.take(idx)
        assert got.n_games == len(rows) and got.beat == 7
        assert np.array_equal(got.score, st.score[rows]) and np.array_equal(
            got.tallies["spin"], st.tallies["spin"][rows]
        )
        assert not np.shares_memory(got.score, st.score) and not np.shares_memory(
            got.tallies["spin"], st.tallies["spin"]
        )


def test_copy_is_deep_and_takes_changes():
    st = _toy()
    other = st.copy(beat=8)
    other.score[0, 0] = 99
    other.tallies["spin"][0] = 99
    assert st.score[0, 0] == 0 and st.tallies["spin"][0] == 0 and other.beat == 8 and st.beat == 7
    assert st.n_games == 4 and set(st.per_game()) == {"score", "tallies"}
