"""What a balance report says, computed: a plain data object, no HTML.

:func:`compute_report` simulates each player count the game reports on
(through the chunk store: a rebuilt report reuses finished chunks) and
gathers every table a report shows: win rates by grouping with their
chi-square tests, design metrics, identities, the claims audit and the
rulebook's conclusions, paired differences against a baseline, replayed
playtests.  :mod:`gamelab.report.render` renders a :class:`ReportData`; a notebook
or another renderer may use the same object.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import math
import re
from pathlib import Path
from typing import Any

import pandas as pd

from gamelab import __version__, stats
from gamelab.core import registry
from gamelab.core.contract import Game
from gamelab.core.limits import MAX_GAMES
from gamelab.report.phases import phase
from gamelab.rulebook.identities import identity_table
from gamelab.sim import sweep
from gamelab.sim.run import RunConfig
from gamelab.stats import balance

DOCS = Path(__file__).resolve().parents[2] / "docs"


@dataclasses.dataclass
class WinTable:
    players: int
    by: str
    table: pd.DataFrame  # stats.win_table plus share_of_games_won
    chi: Any | None  # stats.equal_wins result (None: one group)


@dataclasses.dataclass
class Finding:
    """The largest departure from the fair share at one player count: the
    group whose per-seat win rate is furthest from 1 / players."""

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
    decision: str | None = None  # the sequential test's answer, in words (report_tools.decide_findings)
    answer: str | None = None  # the same answer as a key: "yes", "no", "undecided"
    across_models: str | None = None  # the one statement across agent models (report_tools.cross_model_table)

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


def finding(wins: list[WinTable], players: int, games: int) -> Finding | None:
    """The largest departure from the fair share among the groupings of one
    player count (groupings with a single group are skipped)."""
    fair = 1 / players
    best = None
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
        est = balance.estimate(frame, usable)
        for m, (_, r) in zip(usable, est.iterrows()):
            rows.append(
                {
                    "players": n,
                    "metric": m.name,
                    "label": m.label,
                    "doc": m.doc,
                    "percent": m.percent,
                    "points": balance.in_points(m),
                    "value": r["value"],
                    "low": r["low"],
                    "high": r["high"],
                }
            )
    return pd.DataFrame(rows)


@dataclasses.dataclass
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


@dataclasses.dataclass
class Playtest:
    path: Path
    ledger: dict
    tables: list  # [(title, DataFrame)]


@dataclasses.dataclass
class ReportData:
    game: Game
    params: Any
    baseline: Any | None
    n_games: int
    seed: int
    precision: float | None
    label: str
    counts: tuple[int, ...]
    runs: dict[int, sweep.CellRun]
    wins: list[WinTable]
    identities: pd.DataFrame
    diffs: list[tuple[int, str, pd.DataFrame]] | None
    with_claims: bool  # the claims section was asked for
    claims: ClaimsData | None  # None: not asked for, or the game publishes no figures
    errata: str
    playtests: list[Playtest]
    version: str = __version__
    built: str = ""
    profile: str | None = None  # the agents' model profile the numbers come from (None: the default model)
    findings: list[Finding] = dataclasses.field(default_factory=list)
    design: pd.DataFrame | None = None  # design_table: every balance metric with its interval
    # filled by the tools that compute them (sensitivity, tuner, skill); rendered only when present
    levers: pd.DataFrame | None = None  # the parameters that move balance most
    proposals: pd.DataFrame | None = None  # rule changes a tuner proposes
    cross_model: pd.DataFrame | str | None = None  # does the verdict hold under other agent models
    skill: Any = None  # report_tools.SkillData: the skill ladder and luck measures
    levers_steps: Any = None  # every rule step's row (sensitivity.levers), the tornado chart's data
    levers_metric: str = ""  # the metric the levers move
    traces: dict | None = None  # {players: skill.Trace}: the headline finding traced over skill levels
    climb: Any = None  # skill.Climb: the decided ladder (rungs that beat the one below, stop, headroom)
    levers_framing: Any = None  # sensitivity.Framing: the levers framed by the metric's better side
    metagame: dict | None = None  # {players: models.metagame.Analysis}: the strategies' meta-game

    def lineup(self, players: int) -> str:
        """The agents at the table, in the game's words (``greedy rider × 4``, ``the style mix on every
        seat``, ``lookahead search, greedy rider × 3``, ``hold at 20 × 2``)."""
        from gamelab.core.labels import agent_label, lineup_words

        lineup = list(self.runs[players].lineup)
        family = {re.sub(r"\d+$", "", a) for a in lineup}
        if len(family) == 1 and family.pop() in self.game.agent_words and len(set(lineup)) > 1:  # mix1 ... mix4
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


def errata_text(game: Game) -> str:
    """The game's part of docs/errata.md (empty when the docs are not there)."""
    path = DOCS / "errata.md"
    if not game.report.errata_heading or not path.exists():
        return ""
    for part in re.split(r"(?m)^## ", path.read_text(encoding="utf-8")):
        if part.upper().startswith(game.report.errata_heading.upper()):
            return "## " + part.strip()
    return ""


def claims_data(
    game: Game,
    n_games: int,
    seed: int,
    run: RunConfig | None = None,
) -> ClaimsData | None:
    if game.claims is None:
        return None
    from gamelab.rulebook import claims

    audit = claims.measure(game, n_games=n_games, seed=seed, run=run)
    conclusions = claims.conclusions(game, n_games=n_games, seed=seed, run=run)
    return ClaimsData(audit, claims.is_exact(audit), conclusions)


def playtests_data(paths) -> list[Playtest]:
    from gamelab.rulebook import playtest

    out = []
    for path in paths:
        ledger = playtest.replay_file(path)
        out.append(Playtest(Path(path), ledger, playtest.record_format(ledger["game"]).tables(ledger)))
    return out


def compute_report(
    name: str,
    *,
    params=None,
    n_games: int = 20_000,
    seed: int = 0,
    precision: float | None = None,
    baseline=None,
    claims: bool = True,
    run: RunConfig | None = None,
    player_counts=None,
    lineups: dict | None = None,
    label: str = "",
    playtests=(),
    profile=None,
    levers=None,
    proposals=None,
    cross_model=None,
    tools=None,
) -> ReportData:
    """Simulate and gather everything a report shows (see the module doc)."""
    run = (run or RunConfig()).ready()
    game = registry.get(name)
    params = params if params is not None else game.knobs()
    counts = tuple(player_counts or game.report.players or range(game.players[0], game.players[1] + 1))
    kw: dict[str, Any] = dict(
        n_games=n_games,
        seed=seed,
        precision=precision,
        max_games=max(n_games, MAX_GAMES),
        run=run,
        lineups=lineups or {},
    )
    runs = _play_counts(game, params, counts, **kw)
    frames = {n: r.frame for n, r in runs.items()}
    wins = [w for n in counts for w in win_tables(frames[n], game.report.groups, n)]
    diffs = None if baseline is None else _baseline_diffs(game, baseline, frames, **kw)
    with phase(f"{name}: identities", run.progress):
        identities = identity_table(game, params, frames=frames, store=run.store)
    with phase(f"{name}: the rulebook's claims", run.progress):
        claims_part = claims_data(game, n_games, seed, run) if claims else None
    with phase(f"{name}: balance metrics", run.progress):
        design = design_table(game, frames)
    data = ReportData(
        game=game,
        params=params,
        baseline=baseline,
        n_games=n_games,
        seed=seed,
        precision=precision,
        label=label,
        counts=counts,
        runs=runs,
        wins=wins,
        identities=identities,
        diffs=diffs,
        with_claims=claims,
        claims=claims_part,
        errata=errata_text(game) if claims else "",
        playtests=playtests_data(playtests),
        built=_dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
        profile=_model_words(profile),
        findings=[f for n in counts if (f := finding(wins, n, runs[n].games)) is not None],
        design=design,
        levers=levers,
        proposals=proposals,
        cross_model=cross_model,
    )
    if tools is not None:
        from gamelab.report.tools import run_tools

        run_tools(data, tools, profile=None if isinstance(profile, str) else profile, run=run)
    return data


def _play_counts(game: Game, params, counts, *, lineups: dict, run: RunConfig, n_games: int, **kw) -> dict:
    """The report's own tables: one cell per player count (through the chunk store)."""
    runs = {}
    for n in counts:
        with phase(f"{game.name}: {n} players, {n_games:,} games", run.progress):
            runs[n] = sweep.run_cell(
                game, {"n_players": n}, lineup=lineups.get(n), base_params=params, n_games=n_games, run=run, **kw
            )
    return runs


def _baseline_diffs(game: Game, baseline, frames: dict, *, lineups: dict, **kw) -> list:
    """Paired win-rate differences against the baseline rules, on the same deals."""
    diffs = []
    for n, frame in frames.items():
        base = sweep.run_cell(game, {"n_players": n}, lineup=lineups.get(n), base_params=baseline, **kw)
        diffs += [
            (n, by, sweep.paired_difference(frame, base.frame, by=by)) for by in game.report.groups if by in frame
        ]
    return diffs


def _model_words(profile) -> str | None:
    """How the first screen names the model: a profile's name, or None (the default model)."""
    if profile is None or isinstance(profile, str):
        return profile
    from gamelab.models.profile import describe

    return describe(profile)
