"""What a balance report says: a frozen :class:`Report` and its parts, no HTML.

A :class:`Report` holds everything the page shows: win rates by grouping
with their chi-square tests, the headline findings, design metrics,
identities, the claims audit and the rulebook's conclusions, paired
differences against a baseline, replayed playtests, the rulebook sentences
new rules make wrong, and the decision tools' parts (:class:`Decisions`).
:func:`gamelab.report.compute.compute_report` plays the games and builds
it; :mod:`gamelab.report.render` only turns it into HTML; a notebook or
another renderer may use the same object.  The functions here are pure:
from the report's tables to its figures.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from gamelab import __version__, stats
from gamelab.core.contract import Game
from gamelab.report.edge import Edge
from gamelab.report.typical import LeverGame, Typical
from gamelab.sim import sweep
from gamelab.stats import balance, balance_metric, bootstrap


@dataclasses.dataclass(frozen=True)
class WinTable:
    players: int
    by: str
    table: pd.DataFrame  # stats.win_table plus share_of_games_won
    chi: Any | None  # stats.equal_wins result (None: one group)


@dataclasses.dataclass(frozen=True)
class Finding:
    """The largest departure from the fair share at one player count: the
    group whose per-seat win rate is furthest from 1 / players.  The decision
    tools give a copy with their answers (``decision``, ``answer``,
    ``across_models``: :mod:`gamelab.report.decisions`)."""

    players: int
    by: str
    group: Any
    rate: float
    low: float
    high: float
    fair: float
    games: int
    weakest: Any = None  # the group at the other end, and its rate
    weakest_rate: float | None = None
    decision: str | None = None  # the sequential test's answer, in words (decisions.decide_findings)
    answer: str | None = None  # the same answer as a key: "yes", "no", "undecided"
    across_models: str | None = None  # the one statement across agent models (decisions.cross_model_table)

    @property
    def effect(self) -> float:
        return self.rate - self.fair

    @property
    def clear(self) -> bool:
        """The 95 % interval excludes the fair share."""
        return self.low > self.fair or self.high < self.fair

    @property
    def more_games(self) -> int | None:
        """Games still needed for the interval to exclude the fair share if
        the effect stays as measured (normal approximation: the half-width
        shrinks as 1 / sqrt(games)); 0 when already clear, None for no effect."""
        return more_games_needed(self.effect, (self.high - self.low) / 2, self.games)


def more_games_needed(effect: float, half_width: float, games: int) -> int | None:
    """Games to add to ``games`` so that a 95 % interval of half-width
    ``half_width`` narrows below ``|effect|`` (half-width ~ 1 / sqrt(games)),
    rounded up to two significant digits; None when the effect is 0."""
    if abs(effect) >= half_width:
        return 0
    if effect == 0:
        return None
    more = games * ((half_width / abs(effect)) ** 2 - 1)
    digits = max(0, int(math.floor(math.log10(more))) - 1) if more >= 1 else 0
    return int(math.ceil(more / 10**digits) * 10**digits)


def finding(wins: tuple[WinTable, ...], players: int, games: int, by: str | None = None) -> Finding | None:
    """The largest departure from the fair share among the groupings of one
    player count (groupings with a single group are skipped); ``by``: of that
    grouping (the one the first chart shows) when it has two groups or more."""
    fair = 1 / players
    best = None
    if by is not None and any(w.by == by and w.players == players and len(w.table) > 1 for w in wins):
        wins = tuple(w for w in wins if w.by == by)
    for w in wins:
        t = w.table
        if w.players != players or len(t) < 2:
            continue
        i = (t["win_rate"] - fair).abs().idxmax()
        j = t["win_rate"].idxmin() if t.loc[i, "win_rate"] > fair else t["win_rate"].idxmax()  # the other end
        f = Finding(
            players,
            w.by,
            t.loc[i, w.by],
            float(t.loc[i, "win_rate"]),
            float(t.loc[i, "win_low"]),
            float(t.loc[i, "win_high"]),
            fair,
            games,
            t.loc[j, w.by],
            float(t.loc[j, "win_rate"]),
        )
        if best is None or abs(f.effect) > abs(best.effect):
            best = f
    return best


def design_table(game: Game, frames: dict[int, pd.DataFrame]) -> pd.DataFrame:
    """Every balance metric the game has (:func:`gamelab.stats.balance.catalogue`)
    per player count with its 95 % bootstrap interval; a metric a game's
    table cannot give (no length column, ...) is left out."""
    from gamelab.core.errors import GamelabError

    rows = []
    for n, frame in frames.items():
        usable = []
        for m in balance.catalogue(game).values():
            try:
                m.columns(frame.head(2 * n))
            except (GamelabError, KeyError):
                continue
            usable.append(m)
        est = bootstrap.estimate(frame, usable)
        for m, (_, r) in zip(usable, est.iterrows()):
            rows.append(
                {
                    "players": n,
                    "metric": m.name,
                    "label": m.label,
                    "doc": m.doc,
                    "percent": m.percent,
                    "points": balance_metric.in_points(m),
                    "value": r["value"],
                    "low": r["low"],
                    "high": r["high"],
                }
            )
    return pd.DataFrame(rows)


@dataclasses.dataclass(frozen=True)
class ClaimsData:
    audit: pd.DataFrame
    exact: pd.Series  # rows decided by the rules alone
    conclusions: pd.DataFrame | None

    @property
    def inside(self) -> int:
        return int(self.audit["inside"].fillna(False).astype(bool).sum())

    @property
    def judged(self) -> int:
        return int(self.audit["inside"].notna().sum())

    @property
    def held(self) -> int:
        return int(self.audit.loc[self.exact, "inside"].astype(bool).sum())


@dataclasses.dataclass(frozen=True)
class Playtest:
    path: Path
    ledger: dict
    tables: tuple  # ((title, DataFrame), ...)


@dataclasses.dataclass(frozen=True)
class RulebookSentences:
    """The rulebook sentences that print a number the report's rules no longer
    give (:func:`gamelab.rulebook.sentences.changed_sentences`), computed
    with the report: the section only shows them."""

    changes: str  # the rule changes in words (``sum cap = 6``)
    table: pd.DataFrame  # one row per sentence: section, line, sentence, printed, new, quantity
    counts: Mapping[str, Any]  # rows, rows_hold, lines, lines_hold (numbers); why_none (words) when none moved


@dataclasses.dataclass(frozen=True)
class Levers:
    """The levers part: the top steps in words, every step's row (the
    tornado chart's data), the metric they move, and the framing by the
    metric's better side (:class:`gamelab.decide.sensitivity.Framing`)."""

    table: pd.DataFrame
    steps: pd.DataFrame
    metric: str
    framing: Any


@dataclasses.dataclass(frozen=True)
class SkillData:
    players: int
    levels: tuple[dict, ...]
    luck: Mapping[str, Any]
    trace: Any = None  # skill.Trace with the head-to-head matrix of the trace's levels (None: no trace)


@dataclasses.dataclass(frozen=True)
class Decisions:
    """The decision tools' parts of a report (:mod:`gamelab.report.decisions`);
    a part is None when its tool did not run, and the page leaves it out."""

    levers: Levers | None = None  # the parameters that move balance most
    proposals: pd.DataFrame | str | None = None  # rule changes a tuner proposes (its summary in attrs)
    cross_model: pd.DataFrame | str | None = None  # does the verdict hold under other agent models / skill
    cross_model_lead: str = ""  # across skill: the answer over every player count in one sentence
    cross_model_lines: tuple[str, ...] = ()  # each verdict's statement in a sentence
    skill: SkillData | None = None  # the skill ladder and luck measures
    traces: Mapping[int, Any] | None = None  # {players: skill.Trace}: the headline finding traced over skill
    climb: Any = None  # skill.Climb: the decided ladder (rungs that beat the one below, stop, headroom)
    metagame: Mapping[int, Any] | None = None  # {players: models.metagame.Analysis}: the strategies' meta-game


@dataclasses.dataclass(frozen=True)
class Report:
    """Everything one report page shows, computed (:func:`gamelab.report.compute.compute_report`)."""

    game: Game
    params: Any
    baseline: Any | None
    n_games: int
    seed: int
    precision: float | None
    label: str
    counts: tuple[int, ...]
    runs: Mapping[int, sweep.CellRun]
    wins: tuple[WinTable, ...]
    identities: pd.DataFrame
    diffs: tuple[tuple[int, str, pd.DataFrame], ...] | None
    with_claims: bool  # the claims section was asked for
    claims: ClaimsData | None  # None: not asked for, or the game publishes no figures
    errata: str
    playtests: tuple[Playtest, ...]
    sentences: RulebookSentences | None  # None: the rulebook's rules, or no rulebook text
    findings: tuple[Finding, ...]
    design: pd.DataFrame | None  # design_table: every balance metric with its interval
    decisions: Decisions = dataclasses.field(default_factory=Decisions)
    version: str = __version__
    built: str = ""
    profile: str | None = None  # the agents' model profile the numbers come from (None: the default model)
    # per player count, a warning that the seats differ where the rules declare them alike (issue 38:
    # a fault of the player model, not a finding about the rules; gamelab.stats.symmetry)
    model_warnings: tuple[tuple[int, str], ...] = ()
    edge: Edge | None = None  # where the headline group's points edge comes from (issue 40)
    typical: Typical | None = None  # a game typical of the headline, as a viewer page
    lever: LeverGame | None = None  # the typical game's deal under the top lever's change

    def lineup(self, players: int) -> str:
        """The agents at the table, in the game's words (``greedy rider × 4``, ``the style mix on every
        seat``, ``lookahead search, greedy rider × 3``, ``hold at 20 × 2``)."""
        from gamelab.core.labels import agent_label, lineup_words

        lineup = list(self.runs[players].lineup)
        family = {re.sub(r"\d+$", "", a) for a in lineup}
        if len(family) == 1 and family.pop() in self.game.report.agent_words and len(set(lineup)) > 1:  # mix1 ... mix4
            return lineup_words(self.game, lineup)
        seats = [agent_label(self.game, a) for a in lineup]
        out, i = [], 0
        while i < len(seats):
            j = i
            while j < len(seats) and seats[j] == seats[i]:
                j += 1
            out.append(seats[i] if j - i == 1 else f"{seats[i]} × {j - i}")
            i = j
        return ", ".join(out)

    @property
    def frames(self) -> dict[int, pd.DataFrame]:
        return {n: r.frame for n, r in self.runs.items()}


def win_tables(frame: pd.DataFrame, groups, n_players: int) -> list[WinTable]:
    """Win rates per grouping with the share of games won and a chi-square
    test of equal wins (per-seat rates)."""
    out = []
    for by in groups:
        if by not in frame:
            continue
        t = stats.win_table(frame, by)
        wins = frame.groupby(by)["win"].sum()
        seats = frame.groupby(by)["win"].size()
        chi = stats.equal_wins(wins.to_numpy(), seats.to_numpy()) if len(wins) > 1 else None
        share = (wins / frame["game"].nunique()).rename("share_of_games_won")
        out.append(WinTable(n_players, by, t.merge(share, left_on=by, right_index=True), chi))
    return out
