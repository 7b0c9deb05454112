"""A report computed: :func:`compute_report` plays the games and gathers every
figure, table and sentence the page shows into a frozen
:class:`~gamelab.report.data.Report`.

It simulates each player count the game reports on (through the chunk
store: a rebuilt report reuses finished chunks), measures the identities,
the claims audit and the design metrics, replays playtests, asks the
rulebook which of its sentences the new rules make wrong, and, when asked,
runs the decision tools (:mod:`gamelab.report.decisions`), each of which
returns its part as a value.  Nothing is filled in place; rendering
(:mod:`gamelab.report.render`) only reads the result.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
import types
from pathlib import Path
from typing import Any

from gamelab.core.contract import Game
from gamelab.core.limits import MAX_GAMES
from gamelab.report.data import ClaimsData, Playtest, Report, RulebookSentences, design_table, finding, win_tables
from gamelab.report.phases import phase
from gamelab.rulebook.identities import identity_table
from gamelab.sim import sweep
from gamelab.sim.run import RunConfig
from gamelab.stats.symmetry import seat_warning

DOCS = Path(__file__).resolve().parents[2] / "docs"


def compute_report(
    game: Game,
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
    tools=None,
) -> Report:
    """Simulate and gather everything a report of ``game`` shows (see the module doc);
    ``tools`` (:class:`gamelab.report.decisions.Tools`): the decision tools to run."""
    run = (run or RunConfig()).ready()
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
    wins = tuple(w for n in counts for w in win_tables(frames[n], game.report.groups, n))
    diffs = None if baseline is None else _baseline_diffs(game, baseline, frames, **kw)
    with phase(f"{game.name}: identities", run.progress):
        identities = identity_table(game, params, frames=frames, store=run.store)
    with phase(f"{game.name}: the rulebook's claims", run.progress):
        claims_part = claims_data(game, n_games, seed, run) if claims else None
    with phase(f"{game.name}: balance metrics", run.progress):
        design = design_table(game, frames)
    with phase(f"{game.name}: the rulebook's sentences the new rules make wrong", run.progress):
        sentences = rulebook_sentences(game, params)
    report = Report(
        game=game,
        params=params,
        baseline=baseline,
        n_games=n_games,
        seed=seed,
        precision=precision,
        label=label,
        counts=counts,
        runs=types.MappingProxyType(runs),
        wins=wins,
        identities=identities,
        diffs=diffs,
        with_claims=claims,
        claims=claims_part,
        errata=errata_text(game) if claims else "",
        playtests=playtests_data(playtests),
        sentences=sentences,
        built=_dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
        profile=_model_words(profile),
        findings=tuple(  # about the grouping the first chart shows (the headline's)
            f
            for n in counts
            if (f := finding(wins, n, runs[n].games, by=game.report.headline.removesuffix("_spread"))) is not None
        ),
        design=design,
        model_warnings=model_warnings(game, params, frames),
    )
    report = dataclasses.replace(report, **edge_parts(game, params, frames, report.findings, lineups or {}, run, seed))
    if tools is None:
        return report
    from gamelab.report.decisions import decisions

    findings, parts = decisions(report, tools, profile=None if isinstance(profile, str) else profile, run=run)
    report = dataclasses.replace(report, findings=findings, decisions=parts)
    if parts.levers is not None and report.typical is not None and len(parts.levers.steps):
        from gamelab.report.typical import lever_game

        with phase(f"{game.name}: the typical game under the top lever", run.progress):
            lever = lever_game(game, report.typical, top_lever(parts.levers))
        report = dataclasses.replace(report, lever=lever)
    return report


def top_lever(levers) -> str:
    """The top lever's words: the step surest to help the headline metric, else the one that moves it most."""
    if levers.framing.helps:
        return levers.framing.helps[0].words
    steps = levers.steps[levers.steps["metric"] == levers.metric] if "metric" in levers.steps else levers.steps
    return str(steps.loc[steps["change"].abs().idxmax(), "words"])


def edge_parts(game: Game, params, frames: dict, findings, lineups: dict, run: RunConfig, seed: int = 0) -> dict:
    """Where the headline's edge comes from (by the game's declared sources and phases) and a
    typical game behind it (:mod:`gamelab.report.edge`, :mod:`gamelab.report.typical`)."""
    from gamelab.report.edge import edge_of
    from gamelab.report.typical import typical_game

    with phase(f"{game.name}: where the edge comes from", run.progress):
        edge = edge_of(game, params, frames, findings)
    if edge is None:
        return {}
    n = edge.players
    with phase(f"{game.name}: a typical game", run.progress):
        lineup = lineups.get(n) or game.default_lineup(n)
        typical = typical_game(game, params, frames[n], edge.by, edge.group, lineup, n, seed=seed)
    return {"edge": edge, "typical": typical}


def _play_counts(game: Game, params, counts, *, lineups: dict, run: RunConfig, n_games: int, **kw) -> dict:
    """The report's own tables: one cell per player count (through the chunk store)."""
    runs = {}
    for n in counts:
        with phase(f"{game.name}: {n} players, {n_games:,} games", run.progress):
            runs[n] = sweep.run_cell(
                game, {"n_players": n}, lineup=lineups.get(n), base_params=params, n_games=n_games, run=run, **kw
            )
    return runs


def _baseline_diffs(game: Game, baseline, frames: dict, *, lineups: dict, **kw) -> tuple:
    """Paired win-rate differences against the baseline rules, on the same deals."""
    diffs = []
    for n, frame in frames.items():
        base = sweep.run_cell(game, {"n_players": n}, lineup=lineups.get(n), base_params=baseline, **kw)
        diffs += [
            (n, by, sweep.paired_difference(frame, base.frame, by=by)) for by in game.report.groups if by in frame
        ]
    return tuple(diffs)


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
    """The claims audit and the rulebook's conclusions (None: the game publishes no figures)."""
    if game.rulebook.claims is None:
        return None
    from gamelab.rulebook import claims

    audit = claims.measure(game, n_games=n_games, seed=seed, run=run)
    conclusions = claims.conclusions(game, n_games=n_games, seed=seed, run=run)
    return ClaimsData(audit, claims.is_exact(audit), conclusions)


def playtests_data(paths) -> tuple[Playtest, ...]:
    """Each playtest record replayed through the rules, with its ledger's tables."""
    from gamelab.rulebook import playtest

    out = []
    for path in paths:
        ledger = playtest.replay_file(path)
        out.append(Playtest(Path(path), ledger, tuple(playtest.record_format(ledger["game"]).tables(ledger))))
    return tuple(out)


def rulebook_sentences(game: Game, params) -> RulebookSentences | None:
    """The rulebook sentences the report's rules make wrong (issue 22): the
    worked examples replayed under the new rules, exact figures only (cheap:
    asked with or without the claims audit).  None when the rules are the
    rulebook's or the game has no rulebook text."""
    from gamelab.core.labels import changes_words
    from gamelab.rulebook import coverage, sentences

    if game.name not in coverage.rulebooks() or not coverage.seed_path(game.name).exists():
        return None
    rules = sentences.rules_of(game, params)
    if not rules.changed():
        return None
    table, counts = sentences.changed_sentences(game, rules)
    return RulebookSentences(changes_words(rules.changed()), table, types.MappingProxyType(dict(counts)))


def model_warnings(game: Game, params, frames: dict) -> tuple[tuple[int, str], ...]:
    """(players, words) for each run whose seats differ where the rules declare them alike."""
    out = []
    for n, frame in frames.items():
        warning = seat_warning(frame, game.symmetry.seats(params, n), n)
        if warning is not None:
            out.append((n, f"{n} players: {warning.words()}"))
    return tuple(out)


def _model_words(profile) -> str | None:
    """How the first screen names the model: a profile's name, or None (the default model)."""
    if profile is None or isinstance(profile, str):
        return profile
    from gamelab.models.profile import describe

    return describe(profile)
