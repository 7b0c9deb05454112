"""The conformance suite: every available game (the shipped ones and the toy
game the tests name in ``GAMELAB_GAMES``) against the game contract, through
the checks the package ships (:mod:`gamelab.sim.conformance`), and the
checks themselves shown to fail on a game that breaks the contract."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from gamelab.core import contract, registry
from gamelab.core.errors import GamelabError
from gamelab.sim import conformance
from gamelab.sim.conformance import CHECKS, ConformanceError, check_game

GAMES = registry.available_games()


@pytest.mark.parametrize(
    "change, field",
    [
        ({"players": (3, 2)}, "Game.players"),
        ({"max_steps": 0}, "Game.max_steps"),
        ({"agents": ()}, "Game.agents"),
        ({"default_agent": "nobody"}, "Game.default_agent"),
        ({"report": contract.ReportSettings(players=(2, 9))}, "Game.report.players"),
        ({"report": contract.ReportSettings(errata_heading="NO SUCH GAME")}, "Game.report.errata_heading"),
        ({"skill": contract.SkillSettings(ladder=("weak", "nobody"))}, "Game.skill.ladder"),
        ({"skill": contract.SkillSettings(budget="no_knob")}, "Game.skill.budget"),
        ({"variants": {"odd": {"die": 1}}}, "Game.variants['odd']"),
    ],
)
def test_a_malformed_game_is_refused_naming_the_field(change, field):
    """``check_game`` (its first check) and ``registry.register`` refuse a game whose declarations
    do not agree, and the message names the game and the field."""
    broken = dataclasses.replace(registry.get("toy"), name="toy2", **change)
    with pytest.raises(ConformanceError, match=re.escape(f"toy2: {field}")):
        check_game(broken, only=("declarations_agree",))
    with pytest.raises(GamelabError, match=re.escape(f"toy2: {field}")):
        registry.register(broken)


def test_the_toy_game_from_gamelab_games_is_checked_too():
    assert "toy" in GAMES and set(registry.shipped_games()) <= set(GAMES)


@pytest.mark.parametrize("check", [c for c in CHECKS if c != "every_variant"])  # per variant below
@pytest.mark.parametrize("name", GAMES)
def test_game_conforms(name, check):
    assert check_game(registry.get(name), only=(check,)) == [check]


def _variant_ids():
    return [
        pytest.param(name, v, n, id=f"{name}-{v}-{n}p")
        for name in GAMES
        for v, n in conformance.variant_cases(registry.get(name))
    ]


@pytest.mark.parametrize("name,variant,n_players", _variant_ids())
def test_every_variant_equals_its_reference_and_is_played_legally(name, variant, n_players):
    conformance.variant_conforms(registry.get(name), variant, n_players)


def test_a_variant_plays_each_search_family_at_its_smallest_budget_and_every_other_agent():
    agents = ["heavy", "best", "best@4", "best@1", "best@16", "key@2", "key@8", "learned", "level2@16"]
    assert conformance.one_per_budget_family(agents) == ["heavy", "best", "best@1", "key@2", "learned", "level2@16"]


class _MutatingEngine:
    """The toy engine, but ``step`` writes into the state it was given."""

    def __init__(self, engine):
        self._engine = engine

    def __getattr__(self, name):
        return getattr(self._engine, name)

    def step(self, params, state, actions, chance, *, inplace=False):
        state.bonus[:] = 1.0  # the bug: the input changes even with inplace=False
        return self._engine.step(params, state, actions, chance)


def test_a_step_that_changes_its_input_is_caught():
    toy = registry.get("toy")
    broken = dataclasses.replace(toy, engine=_MutatingEngine(toy.engine))
    with pytest.raises(ConformanceError, match="changed its input"):
        conformance.step_leaves_its_input(broken)


def test_a_ledger_that_is_not_strict_json_is_caught():
    toy = registry.get("toy")

    def replay(record):
        ledger, observed = toy.record.replay(record)
        return {**ledger, "when": np.datetime64("2026-01-01")}, observed

    broken = dataclasses.replace(toy, record=dataclasses.replace(toy.record, replay=replay))
    with pytest.raises(ConformanceError, match="not strict JSON"):
        conformance.records_round_trip(broken)


def test_an_engine_that_disagrees_with_its_reference_is_caught():
    toy = registry.get("toy")

    class Off:
        def __getattr__(self, name):
            return getattr(toy.reference, name)

        @staticmethod
        def advance(params, game, state, actions, chance, g):
            toy.reference.advance(params, game, state, actions, chance, g)
            game["bonus"] = [b + 1 for b in game["bonus"]]

    with pytest.raises(ConformanceError, match="the states after step 1 of game 0 differ"):
        conformance.engine_equals_reference(dataclasses.replace(toy, reference=Off()))


def test_an_unknown_check_is_refused_in_one_line():
    from gamelab.core.errors import GamelabError

    with pytest.raises(GamelabError, match="unknown conformance check 'nope'"):
        check_game(registry.get("toy"), only=("nope",))


def test_the_shared_layers_name_no_game():
    """The registry answers for the games: no shared module names one (code,
    docstrings, examples), so a new game needs no edit outside its folder."""
    import re

    root = Path(__file__).resolve().parents[1] / "gamelab"
    layers = ("core", "stats", "sim", "rulebook", "decide", "models", "report", "ui", "cli")
    names = [*registry.shipped_games(), "STRAND", "STEEL BALL RUN"]
    found = [
        f"{path.relative_to(root)}: {name}"
        for layer in layers
        for path in (root / layer).rglob("*.py")
        for name in names
        if re.search(rf"(?<![\w/]){re.escape(name)}\b", path.read_text(encoding="utf-8"))
    ]
    assert found == []
