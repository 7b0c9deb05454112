"""Sequential verdicts: the expression parser, decisions on questions with
known answers (the toy game's exact win rates), the planner, the command."""

import re

import numpy as np
import pytest

from gamelab.cli.commands import main
from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.decide import sequential
from gamelab.decide.sequential import parse_question
from gamelab.sim.run import RunConfig
from gamelab.sim.store import MemoryStore
from gamelab.stats.balance import metric
from gamelab.toy import ToyParams

TOY = registry.get("toy")
LINEUP = ["strong", "weak"]


def exact_strong(bonus: float, die: int = 10) -> float:
    """The strong agent's exact win rate against the weak one (ties split)."""
    x = np.arange(die)
    score_s, score_w = x[:, None] + bonus, x[None, :]
    return float(((score_s > score_w) + 0.5 * (score_s == score_w)).mean())


def parse(text, baseline=False):
    return parse_question(text, lambda name: metric(TOY, name), baseline)


def test_expressions_become_t_against_c():
    q = parse("win_rate[seat=1] - fair > 0.02")
    assert [(t.coef, t.metric, t.arm) for t in q.terms] == [(1.0, "win_rate[seat=1]", "params")]
    assert q.sign == 1 and q.threshold(4) == pytest.approx(0.27)
    q = parse("seat_spread(params) < seat_spread(baseline) - 0.03", baseline=True)
    assert q.statistic() == "seat_spread - seat_spread(baseline)" and q.sign == -1
    assert q.threshold(2) == pytest.approx(-0.03)
    q = parse("2 * (agent_spread - 0.1) / 4 >= -seat_spread + .5")
    assert {t.metric: t.coef for t in q.terms} == {"agent_spread": 0.5, "seat_spread": 1.0}
    assert q.threshold(2) == pytest.approx(0.55)


@pytest.mark.parametrize(
    "text, message",
    [
        ("seat_spread", "exactly one comparison"),
        ("seat_spread < 0.1 < 0.2", "exactly one comparison"),
        ("seat_spread < ", "ends too early"),
        ("seat_spread * agent_spread > 0", "product of two metrics"),
        ("seat_sprad > 0", "unknown metric 'seat_sprad' \\(did you mean seat_spread"),
        ("seat_spread(baseline) > 0", "needs --baseline"),
        ("0.1 > 0.2", "no metric to test"),
        ("seat_spread > 0.1 $", "unexpected '\\$' at character 19"),
        ("seat_spread / 0 > 1", "division only by a non-zero number"),
    ],
)
def test_bad_expressions_are_one_line(text, message):
    with pytest.raises(GamelabError, match=message) as info:
        parse(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "expr, answer",
    [
        ("win_rate[agent=strong] > 0.72", "yes"),  # exactly 0.755
        ("win_rate[agent=strong] < 0.72", "no"),
        ("win_rate[agent=strong] - fair < 0.3", "yes"),  # 0.255 above the fair half
        ("agent_spread > 0.55", "no"),  # exactly 0.51
    ],
)
def test_known_answers(expr, answer):
    d = sequential.decide(registry.get("toy"), expr, lineup=LINEUP, seed=5, run=RunConfig(store=MemoryStore()))
    assert d.decision == answer
    assert d.games < 20_000 and d.games == d.deals * 2
    truth = exact_strong(3) if "win_rate" in expr else 2 * exact_strong(3) - 1
    half = (d.high - d.low) / 2  # the 95 % interval, doubled: about 4 standard errors
    assert d.low - half <= truth <= d.high + half
    assert answer in d.sentence and f"{d.games:,} games" in d.sentence


def test_paired_arms_on_the_same_deals():
    d = sequential.decide(
        registry.get("toy"),
        "win_rate[agent=strong](params) > win_rate[agent=strong](baseline) + 0.05",
        lineup=LINEUP,
        params=ToyParams(bonus_scale=0.5),
        baseline=ToyParams(bonus_scale=0.3),
        run=RunConfig(store=MemoryStore()),
    )
    truth = exact_strong(1.5) - exact_strong(0.9)  # 0.09
    assert d.decision == "yes" and 2 * d.low - d.high <= truth <= 2 * d.high - d.low


def test_a_limit_leaves_the_question_undecided():
    d = sequential.decide(
        registry.get("toy"),
        f"win_rate[agent=strong] > {exact_strong(3)}",
        lineup=LINEUP,
        max_games=2048,
        zone=0.001,
        run=RunConfig(store=MemoryStore()),
    )
    assert d.decision == "undecided" and d.games == 2048


def test_the_plans_error_rates_are_the_stated_ones():
    plan = sequential.plan(
        registry.get("toy"), "win_rate[agent=strong] > 0.75", lineup=LINEUP, run=RunConfig(store=MemoryStore())
    )
    rows = {r[0]: r for r in plan.rows}
    assert rows["lower edge of the zone"][4] <= 0.05 + 0.01  # P(yes) when the answer is no
    assert rows["upper edge of the zone"][4] >= 0.95 - 0.01
    assert rows["on the threshold"][2] < plan.fixed_games * 1.3  # sequential: fewer games than fixed on average
    assert plan.sigma > 0 and plan.pilot_games == 4 * sequential.CHUNK_DEALS * 2


def test_paired_question_in_words():
    d = sequential.decide(
        registry.get("toy"),
        "win_rate[agent=strong](params) < win_rate[agent=strong](baseline) - 0.05",
        lineup=LINEUP,
        params=ToyParams(bonus_scale=0.3),
        baseline=ToyParams(bonus_scale=0.5),
        run=RunConfig(store=MemoryStore()),
    )
    assert d.answer.startswith("Yes: the change in the win rate of the strong agent from the baseline is −")
    assert ", below −5, decided after " in d.answer


def test_command_line(capsys):
    assert main(["test", "toy", "win_rate[agent=strong] > 0.72", "--lineup", *LINEUP]) == 0
    out = capsys.readouterr().out
    # the answer first, in one sentence of the game's words; the statistics only with --verbose
    assert re.fullmatch(  # a win rate in per cent, at the player count it was played at
        r"Yes: the win rate of the strong agent is \d+\.\d % at 2 players \(interval \d+\.\d–\d+\.\d\), "
        r"above 72 %, decided after [\d,]+ games\.\n",
        out,
    ), out
    assert main(["test", "toy", "win_rate[agent=strong] < 0.72", "--lineup", *LINEUP, "--verbose"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("No: the win rate of the strong agent is ") and ", not below 72 %, decided after" in out
    assert "log-likelihood ratio" in out.split("\n", 2)[2]
    assert main(["test", "toy", "win_rate[agent=strong] > 0.75", "--lineup", *LINEUP, "--plan"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Is the win rate of the strong agent above 75 %? A first 2,048 games put it at ")
    assert re.search(r"If it really is \d+\.\d % \(", out), out
    for jargon in ("P(limit)", "margin D", "P(yes)", "win_rate", "median-unbiased", "stage-wise"):
        assert jargon not in out, jargon
    assert main(["test", "toy", "win_rate[agent=strong] >", "--lineup", *LINEUP]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gamelab test: error: expression") and err.count("\n") == 1
    assert main(["metrics", "toy"]) == 0
    assert "seat_spread            lower" in capsys.readouterr().out


def test_the_command_asks_the_games_headline_by_default(capsys, monkeypatch):
    """``gamelab test GAME`` with no question asks whether the game's headline
    imbalance (``ReportSettings.headline``) is within 5 points; a comparison
    alone asks it of the headline; a spread reads in points."""
    import dataclasses

    headline = dataclasses.replace(TOY, report=dataclasses.replace(TOY.report, headline="agent_spread"))
    real = registry.get
    monkeypatch.setattr(registry, "get", lambda name: headline if name == "toy" else real(name))
    assert main(["test", "toy", "--lineup", *LINEUP]) == 0  # the agent spread is exactly 51 points
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"No: the agent spread is \d+\.\d points at 2 players \(interval \d+\.\d–\d+\.\d\), not below 5, "
        r"decided after [\d,]+ games\.\n",
        out,
    ), out
    assert main(["test", "toy", " > 0.55", "--lineup", *LINEUP]) == 0
    assert capsys.readouterr().out.startswith("No: the agent spread is ")
    monkeypatch.setattr(registry, "get", real)  # the toy's own headline: the seat spread, exactly 0 here
    assert main(["test", "toy", "<= 0.05", "--lineup", *LINEUP]) == 0
    assert capsys.readouterr().out.startswith("Yes: the seat spread is ")
