"""Level-k search (issue 27): a search whose play-outs model every seat as a
policy distilled from the rung below; the distillation, its cache, legality."""

import numpy as np

from gamelab.core import learned, registry
from gamelab.core.budgets import level_of
from gamelab.sim import conformance
from gamelab.sim.levels import trace_levels
from gamelab.strand import agents
from gamelab.strand.heuristic_tables import HANDS, HEAVY, cargo_table
from gamelab.strand.learned import ROPES, Recorder
from gamelab.strand.search import below


def test_a_distilled_card_is_the_card_its_players_showed():
    """Distilled from games of heavy on every seat, the card for every hand
    seen under every cap is heavy's own (the largest card)."""
    p = registry.get("strand").knobs()
    policy = agents.SELF_PLAY.self_play(p, "heavy", 4, 64).policy()
    seen = np.argwhere(policy.card > 0)
    assert len(seen) > 30
    assert set(seen[:, 0]) == {HEAVY}  # every seat played heavy
    for _, cap, hand in seen:
        want = cargo_table(int(cap), p.cargo_counts, 4, p.steady_mate)[HEAVY * HANDS + hand] + 1
        assert policy.card[HEAVY, cap, hand] == want


def test_distilled_ropes_are_the_chances_its_players_left_the_negotiated_pair():
    """Counts of followed / stayed / elsewhere become chances; a cell never seen follows."""
    rec = Recorder(registry.get("strand").knobs(), np.zeros((1, 4), np.int8))
    seen = np.ravel_multi_index((0, 2, 1), ROPES)
    rec.rope[seen] = (600, 300, 100)
    rope = rec.policy().rope
    assert np.allclose(rope[seen], (0.6, 0.3, 0.1))
    assert np.allclose(rope[np.ravel_multi_index((0, 4, 2), ROPES)], (1, 0, 0))


def test_level_k_names_and_the_rung_they_model():
    assert level_of("level2@16") == (2, 16) and level_of("best@16") is None and level_of("levelx@2") is None
    assert below(2, 16) == "best@16" and below(3, 16) == "level2@16"
    names = [lv.name for lv in trace_levels(registry.get("strand"), 4)]
    assert names[-3:] == ["best@16", "level2@16", "level3@16"]


def test_a_level_k_seat_plays_legally_and_its_model_is_cached(tmp_path, monkeypatch):
    """``level2@1`` on every seat (its model distilled from best@1) plays only
    legal moves; the model is kept on disk and read back, not learned again."""
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    agents.distilled.cache_clear()
    p = registry.get("strand").knobs().replace(best_proxy="mix")
    first = agents.distilled(p, 2, 1, 3)
    files = list((tmp_path / "data" / "cache" / "learned").glob("strand-distilled-*.npz"))
    assert len(files) == 1 and first.decisions > 0
    agents.distilled.cache_clear()
    again = agents.distilled(p, 2, 1, 3)
    assert np.array_equal(first.card, again.card) and np.array_equal(first.rope, again.rope)
    other = learned.key_of("strand-distilled", {"rung": "best@1", "players": 4}, [])
    assert other not in files[0].name
    conformance.own_games_are_legal(registry.get("strand"), p, "level2@1", 3, n_games=12)
    agents.distilled.cache_clear()
