"""The skill ladder: each level against the level below, luck, the plot."""

import json

import pytest

from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.models import ladder, luck
from gamelab.report import charts

PIG_LADDER = ("random", "hold_at_20", "race")


def test_pig_ladder_each_level_beats_the_one_below():
    levels = ladder.ladder(registry.get("pig"), n_players=2, n_games=2000, seed=1, levels=PIG_LADDER)
    assert [r["agent"] for r in levels] == list(PIG_LADDER)
    assert levels[0]["win_rate_vs_below"] is None
    for r in levels[1:]:
        assert r["beats_below"], r
        assert r["low"] <= r["win_rate_vs_below"] <= r["high"] and r["games"] == 2000
    assert levels[1]["win_rate_vs_below"] > 0.8  # holding at 20 crushes random play
    fig = charts.skill_figure(levels)
    assert len(fig.axes[0].lines) >= 2


def test_luck_weakest_rarely_beats_strongest():
    m = luck.luck(registry.get("pig"), n_players=2, n_games=1000, seed=2, levels=PIG_LADDER)
    assert m["high"] < 0.5 and m["weakest_wins"] > 0  # random play still wins some games of Pig
    assert 0 <= m["deal_share"] <= 1


def test_no_ladder_is_an_error():
    with pytest.raises(GamelabError, match="skill ladder"):
        ladder.ladder(registry.get("toy"), n_players=2, n_games=10)


def test_skill_command_json(capsys):
    from gamelab.cli import commands as cli
    from gamelab.core import registry

    assert registry.get("pig").skill.ladder == PIG_LADDER  # the ladder Pig declares
    assert cli.main(["skill", "pig", "--players", "2", "--games", "400", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [o["agent"] for o in out] == list(PIG_LADDER)
    assert set(out[1]) == {"level", "agent", "win_rate_vs_below", "low", "high", "games"}
