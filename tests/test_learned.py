"""The learned rung (issue 39): STRAND's ``learned`` agent, a policy distilled from a search
rung's own games and played on its own seat; legal, deterministic per seed, cached by the
rules, symmetric; the shared skill and bench code that read ``GAME.skill.learned``.

The fast tests distil from a cheap teacher (``best@1``, 64 games) into a fresh cache; the
real rung (``best@16``, 1,024 games, about 26 s of CPU to learn) is decided in the slow test."""

import numpy as np
import pytest

from gamelab.core import registry
from gamelab.decide import ladder
from gamelab.decide import symmetry as checks
from gamelab.sim import bench, conformance, levels, runner
from gamelab.sim.run import RunConfig
from gamelab.sim.store import ChunkStore
from gamelab.strand import agents, learned
from gamelab.strand.state import CARGO, ROPE

STRAND = registry.get("strand")


@pytest.fixture
def cheap(tmp_path, monkeypatch):
    """The learned rung distilled from ``best@1``'s 64 games into an empty cache; the folder
    its files go to."""
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    monkeypatch.setattr(agents, "LEARNED_FROM", "best@1")
    monkeypatch.setattr(agents, "LEARN_GAMES", 64)
    agents.learned_policy.cache_clear()
    yield tmp_path / "data" / "cache" / "learned"
    agents.learned_policy.cache_clear()


def _quiet(tmp_path):
    return RunConfig(store=ChunkStore(tmp_path / "chunks"), progress=False)


def test_the_learned_rung_is_declared_and_playable_on_any_seat():
    assert STRAND.skill.learned == agents.LEARNED and agents.LEARNED in STRAND.playable
    assert set(agents.LEARNED_RESTRICTED) <= set(STRAND.playable)
    assert registry.get("pig").skill.learned == ""


def test_a_restricted_learned_seat_keeps_its_style_in_the_phase_the_style_defines():
    seating = ("learned", "learned_heavy", "learned_mirror", "mix1")
    cards, ropes = agents.learned_seats(seating)
    assert cards == (0, 2) and ropes == (0, 1)  # heavy shows heavy's card, mirror points as mirror
    from gamelab.strand.restricted import RESTRICTIONS

    assert RESTRICTIONS["heavy"] == CARGO and RESTRICTIONS["mirror"] == ROPE


def test_sharpened_ropes_take_each_cells_most_frequent_outcome():
    rec = learned.Recorder(STRAND.knobs(), np.zeros((1, 4), np.int8))
    a, b = (np.ravel_multi_index(c, learned.ROPES) for c in ((0, 2, 1), (1, 0, 2)))
    rec.rope[a] = (600, 300, 100)
    rec.rope[b] = (100, 300, 600)
    rope = rec.policy().sharpened().rope
    assert np.array_equal(rope[a], (1, 0, 0)) and np.array_equal(rope[b], (0, 0, 1))
    assert np.allclose(rope.sum(1), 1)


def test_the_learned_agent_plays_legally_and_the_same_games_per_seed(cheap, tmp_path):
    p = STRAND.knobs()
    conformance.own_games_are_legal(STRAND, p, "learned", 4, n_games=16)
    lineup = ["learned", "mix1", "mix2", "mix3"]

    def frame(seed, seats=lineup):
        return runner.simulate(STRAND, n_games=64, seed=seed, lineup=seats, n_players=4, progress=False)

    one, again, other = frame(3), frame(3), frame(4)
    assert one["score"].equals(again["score"]) and not one["score"].equals(other["score"])
    # the learned seat sits as the style mix4 would hold on the same deals, and plays otherwise
    plain = frame(3, ["mix4", "mix1", "mix2", "mix3"])
    assert list(one["style"]) == list(plain["style"])
    assert not one["score"].equals(plain["score"])


def test_the_learned_model_is_cached_by_the_rules_and_learned_again_when_one_changes(cheap, capsys):
    p = STRAND.knobs()
    first = agents.learned_policy(p, 4)
    assert "learning how best@1 players play, for the learned rung" in capsys.readouterr().err
    assert len(list(cheap.glob("*.npz"))) == 1 and first.decisions > 0
    agents.learned_policy.cache_clear()
    again = agents.learned_policy(p, 4)
    assert capsys.readouterr().err == ""  # read from disk
    assert np.array_equal(first.card, again.card) and np.array_equal(first.rope, again.rope)
    agents.learned_policy(p.replace(lone_penalty=p.lone_penalty + 1), 4)
    assert "learning how" in capsys.readouterr().err
    assert len(list(cheap.glob("*.npz"))) == 2
    assert max(f.stat().st_size for f in cheap.glob("*.npz")) < 10 * 2**20  # under 10 MB a rule set


def test_the_learned_agent_on_every_seat_keeps_the_seat_symmetry(cheap, tmp_path):
    verdicts = checks.check_symmetry(
        STRAND, agents_=["learned"], variants=["standard"], players=[4], run=_quiet(tmp_path), seed=1
    )
    assert [v.decision for v in verdicts] == ["yes"]


def test_a_game_without_a_learned_rung_has_no_learned_tests_or_rates():
    pig = registry.get("pig")
    assert levels.learned_levels(pig, 2) is None and ladder.learned_tests(pig, n_players=2) is None
    assert bench.learned_rates(pig, 2) == {"learned": None}


def test_the_learned_levels_are_the_rung_the_default_model_and_the_top_budget():
    learned, default, top = levels.learned_levels(STRAND, 4)
    assert learned.lineup == ("learned",) * 4 and default.name == "default"
    assert top.name == f"best@{max(STRAND.skill.budgets)}"


@pytest.mark.slow(reason="learns the real rung from 1,024 games of best@16, then a sequential test")
def test_the_learned_rung_beats_the_default_model(tmp_path):
    """Slow: learning the real rung costs about 26 s of CPU (best@16's 1,024 games) unless
    cached, then about 1,024 games of the styles' cost decide it."""
    learned, default, _top = levels.learned_levels(STRAND, 4)
    step = ladder.decide_step(STRAND, learned, default, n_players=4, seed=1, max_games=8192, run=_quiet(tmp_path))
    assert step["decision"] == "yes", step


def test_the_bench_checks_the_learned_rung_against_a_tenth_of_the_default_models_rate():
    fixed = {"agent_games_per_s": 1e5, "batch_over_reference": 100.0, "slider_update_s": 0.1}

    def verdict(learned_rate):
        r = {**fixed, "learned": "learned", "default_games_per_s": 1000.0, "learned_games_per_s": learned_rate}
        r["learned_over_default"] = learned_rate / 1000.0
        rows = [row for row in bench.verdicts([STRAND], {"strand": r}) if "learned rung" in row[0]]
        assert len(rows) == 1 and "1/10" in rows[0][0]
        return rows[0][1]

    assert verdict(100.0) and not verdict(99.0)
    rows = bench.verdicts([STRAND], {"strand": {**fixed, "learned": None}})
    assert not any("learned rung" in row[0] for row in rows)  # a game without one: no row


def test_a_goal_may_name_the_learned_rung_just_above_the_default_model():
    from gamelab.core.errors import GamelabError
    from gamelab.decide import skill_checks
    from gamelab.decide.goals import Goal

    names = skill_checks.rung_names(STRAND)
    assert names[names.index("default") + 1] == "learned"
    assert "learned" not in skill_checks.rung_names(registry.get("sbr")) or registry.get("sbr").skill.learned
    rungs = skill_checks.rung_levels(STRAND, 4, STRAND.knobs())
    assert list(rungs) == names and rungs["learned"].lineup == ("learned",) * 4

    def goal(skill):
        return Goal(
            game="strand",
            players=4,
            free={"sum_cap": [5, 9]},
            targets=[{"metric": "style_gap", "at_most": 0.05}],
            skill=skill,
        )

    skill_checks.check_goal(goal(["default", "learned"]), STRAND, "goal.yaml")
    with pytest.raises(GamelabError, match="unknown level 'learnt'"):
        skill_checks.check_goal(goal(["learnt"]), STRAND, "goal.yaml")


def test_the_skill_commands_learned_row_carries_its_three_tests_and_says_them():
    from gamelab.models import learned_rung, skill_words

    def step(level, below, decision, rate):
        return dict(
            level=level, below=below, question="q", decision=decision, win_rate=rate, low=rate - 0.02,
            high=rate + 0.02, games=1024, fair=0.25,
        )  # fmt: skip

    tests = {
        "beats_default": step("learned", "default", "yes", 0.4),
        "top_beats_it": step("best@16", "learned", "undecided", 0.26),
        "holds_vs_top": step("learned", "best@16", "no", 0.2),
    }
    found = {"rung": "learned", "top": "best@16", "tests": tests, "as_strong_as_top": False, "beats_default": True}
    row = learned_rung.learned_json(found, 3)
    assert row["agent"] == "learned" and row["win_rate_vs_below"] == 0.4 and row["games"] == 3 * 1024
    assert set(row["tests"]) == set(tests) and row["styles"] == []
    words = skill_words.learned_words(STRAND, found)
    assert "40.0 % [38.0, 42.0]" in words and "no after 1,024 games" in words and "16 play-outs" in words
