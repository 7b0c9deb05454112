"""SBR's learned rung (issue 39, ``gamelab/sbr/learned.py``): legal and deterministic, learned
again when a rule changes (cached by the rules), stronger than the default model by the
sequential test; and the panels' headline at a game's learned rung (shared code)."""

import dataclasses
import html

import numpy as np
import pytest
from sbr_helpers import play

from gamelab.core import registry
from gamelab.decide import sequential
from gamelab.sbr import agents, engine, learned
from gamelab.sbr.rules import SbrParams
from gamelab.sim.run import RunConfig
from gamelab.sim.store import MemoryStore


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """One workspace (its cache of learned models) for the module's tests."""
    mp = pytest.MonkeyPatch()
    path = tmp_path_factory.mktemp("learned-home")
    mp.setenv("GAMELAB_HOME", str(path))
    learned.learned_params.cache_clear()
    yield path
    learned.learned_params.cache_clear()
    mp.undo()


def _play(rules, policy, n_players, n_games, seed):
    """Whole games with ``policy`` on every seat, every decision checked legal."""

    def checked(params, state, rider, legal, rng=None):
        a = policy(params, state, rider, legal, rng)
        assert engine.is_legal(agents.AgentParams(), None, legal, a).all()
        return a

    return play(rules, [checked] * n_players, n_games, np.random.default_rng(seed), n_players)


def test_the_learned_rider_is_legal_deterministic_and_not_the_greedy(home):
    rules = SbrParams()
    a = _play(rules, agents.learned_policy, 4, 48, seed=3)
    b = _play(rules, agents.learned_policy, 4, 48, seed=3)
    greedy = _play(rules, agents.greedy_policy, 4, 48, seed=3)
    assert np.array_equal(a["score"], b["score"]) and np.array_equal(a["position"], b["position"])
    assert not np.array_equal(a["score"], greedy["score"])  # its weights changed some choices: it is not the greedy
    weights = learned.learned_params(rules, 4)
    assert len(weights) == rules.beats  # one set of knobs per beat
    assert len({tuple(getattr(p, f) for f in learned.FEATURES) for p in weights}) > 1  # the weights vary by beat


def test_the_learned_weights_are_learned_again_when_a_rule_changes(home, monkeypatch):
    """Cached on disk by code and rules: the same rules read the file, a changed rule learns anew."""
    calls = []
    real = learned.learn

    def counting(rules, n_players):
        calls.append(rules)
        return real(rules, n_players)

    monkeypatch.setattr(learned, "learn", counting)
    rules, changed = SbrParams(), SbrParams().replace(hand_size=3)
    learned.learned_params.cache_clear()
    first = learned.learned_params(rules, 4)
    learned.learned_params.cache_clear()  # a new process: only the disk cache
    again = learned.learned_params(rules, 4)
    assert again == first and len(calls) <= 1  # at most the first learned (the test above may have cached it)
    n = len(calls)
    other = learned.learned_params(changed, 4)
    assert len(calls) == n + 1 and calls[-1] == changed  # the changed rule learned its own weights
    assert other[0].hand_size == 3 and other != first
    assert len(list((home / "data" / "cache" / "learned").glob("sbr-learned-*.npz"))) >= 2


def test_the_learned_rider_beats_the_default_model_decided(home):
    """One learned seat among greedy seats wins more than the fair share (zone 0 to 2 points), 4 players."""
    game = registry.get("sbr")
    lineup = ("learned", "greedy", "greedy", "greedy")
    game.skill.prepare(agents.AgentParams(), lineup, 4)
    d = sequential.decide(
        game,
        "win_rate[agent=learned] - fair > 0.01",
        n_players=4,
        lineup=lineup,
        zone=0.02,
        max_games=8192,
        seed=1,
        run=RunConfig(store=MemoryStore()).quiet(),
    )
    assert d.decision == "yes", d.sentence
    assert d.low > 0.25


def _toy_with_learned(panel, name: str):
    """A game whose skill settings name ``name`` as the learned rung (planted: the toy has none)."""
    g = panel.game_def
    panel.game_def = dataclasses.replace(g, skill=dataclasses.replace(g.skill, learned=name))


def test_a_panel_shows_the_headline_at_the_learned_rung_and_greys_it_after_a_move(monkeypatch):
    """Shared code, on the toy with a planted learned rung (its strong agent): the figure of a run of its
    own, named as such, greyed when a slider moves and current again once recomputed (or moved back)."""
    from gamelab.ui import balance_panel, widgets

    monkeypatch.setattr(balance_panel, "LEARNED_GAMES", 200)
    monkeypatch.setattr(balance_panel, "LEARNED_AUTO", True)  # the suite leaves it out elsewhere (conftest)
    panel = balance_panel.BalancePanel("toy", sliders=["die"], n_players=2, quick_games=200, store=MemoryStore())
    panel._draw = lambda: None
    panel.update()
    panel.learned_wait()
    assert panel.learned == "" and panel.learned_note.value == ""  # the toy declares no learned rung
    _toy_with_learned(panel, "strong")
    panel.update()
    panel.learned_wait()
    note = html.unescape(panel.learned_note.value)
    assert panel.learned.startswith("At the learned rung: ") and panel.headline.split(":")[0].lower() in panel.learned
    assert "these 200 games" in note and "strong on every seat" in note.lower() and "Its own run:" in note
    assert (
        panel.learned_for.lineup == ("strong", "strong") and widgets.STALE_CLASS not in panel.learned_note._dom_classes
    )
    assert panel.learned in "".join(str(getattr(x, "body", "")) for x in panel.items())
    (die,) = panel.controls["die"]
    old = die.value
    panel._holding = True  # the slider moves; its run has not come back yet
    die.value = old + 2
    panel._holding = False
    panel._tell_views()
    assert widgets.STALE_CLASS in panel.learned_note._dom_classes
    panel._holding = True
    die.value = old  # back to the rules it was computed for
    panel._holding = False
    panel._tell_views()
    assert widgets.STALE_CLASS not in panel.learned_note._dom_classes
    die.value = old + 2  # a real move: recomputed for the new rules
    panel.learned_wait()
    assert panel.learned_for.params.die == old + 2 and widgets.STALE_CLASS not in panel.learned_note._dom_classes
    assert f"die = {old + 2}" in html.unescape(panel.learned_note.value)


def test_the_sbr_panel_shows_its_learned_rung(home, monkeypatch):
    from gamelab.ui import balance_panel

    monkeypatch.setattr(balance_panel, "LEARNED_GAMES", 200)
    monkeypatch.setattr(balance_panel, "LEARNED_AUTO", True)  # the suite leaves it out elsewhere (conftest)
    panel = balance_panel.BalancePanel("sbr", sliders=["town_spin"], n_players=4, quick_games=200, store=MemoryStore())
    panel._draw = lambda: None
    panel.update()
    panel.learned_wait()
    assert panel.learned.startswith("At the learned rung: seat spread, 4 players")
    assert "learned rider on every seat" in html.unescape(panel.learned_note.value)


def test_a_burst_of_moves_learns_the_rung_for_the_first_and_the_last_rules_only(monkeypatch):
    """Learning a rung cannot be interrupted: moves while it learns leave only the newest rules waiting,
    so five quick moves cost two learnings (the first move's and the last's), not five."""
    import threading
    import time

    from gamelab.ui import balance_panel, widgets

    monkeypatch.setattr(balance_panel, "LEARNED_GAMES", 100)
    monkeypatch.setattr(balance_panel, "LEARNED_AUTO", True)
    monkeypatch.setattr(balance_panel, "LEARNED_DELAY", 0.0)
    panel = balance_panel.BalancePanel("toy", sliders=["die"], n_players=2, quick_games=100, store=MemoryStore())
    panel._draw = lambda: None
    learned, started = [], threading.Event()

    def slow_prepare(params, lineup, n):
        learned.append(params.die)
        started.set()
        time.sleep(0.5)

    g = panel.game_def
    panel.game_def = dataclasses.replace(g, skill=dataclasses.replace(g.skill, learned="strong", prepare=slow_prepare))
    (die,) = panel.controls["die"]
    first = die.value
    die.value = first + 1
    started.wait(5)
    for k in range(2, 6):  # four more moves while the first learns
        die.value = first + k
    panel.learned_wait()
    assert learned == [first + 1, first + 5]
    assert panel.learned_for.params.die == first + 5 and widgets.STALE_CLASS not in panel.learned_note._dom_classes
