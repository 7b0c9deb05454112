"""The decisions a report states, played by the decision tools: the
sequential verdict on each headline finding, the top levers (sensitivity),
the tuner's proposals, the strategies' meta-game, the verdicts across agent
models or across skill, and the skill ladder.

:func:`decisions` runs the tools a :class:`Tools` asks for over a computed
:class:`~gamelab.report.data.Report` and returns their parts as one frozen
:class:`~gamelab.report.data.Decisions` (with the findings, now carrying
their verdicts); :func:`gamelab.report.compute.compute_report` puts them in
the report.  Each part is plain data (tables, and sentences in words from
:mod:`gamelab.report.decision_words`) the renderer shows in the first screen
or in its own section.
"""

from __future__ import annotations

import dataclasses
import types
from pathlib import Path

import pandas as pd

from gamelab.report import format as fmt
from gamelab.report.data import Decisions, Finding, Levers, Report, SkillData
from gamelab.report.decision_words import (
    across_words,
    cross_model_summary,
    fmt_subject,
    lever_rows,
    skill_lead,
    skill_summary,
    tagged_framing,
    tagged_leaders,
)
from gamelab.report.names import trace_name, win_name
from gamelab.report.phases import phase
from gamelab.sim.run import RunConfig
from gamelab.stats import balance


@dataclasses.dataclass(frozen=True)
class Tools:
    """Which decision tools a report runs, and how many games each plays
    (per setting, model or ladder level)."""

    levers: bool = False
    cross_model: bool = False
    skill: bool = False
    decide: bool = False
    tune: str | None = None  # a goal file: the tuner's proposals ("What to change")
    games: int = 2000  # per rule step (levers)
    model_games: int = 1000  # per model and ladder level (strong agents are slow)
    trace_games: int = 300  # per skill-trace level and player count, and per cell of the skill matrix
    metagame: bool = False  # the meta-game of the game's strategies at each player count (no PSRO: gamelab metagame)


METAGAME_FULL = 20_000  # a report of at least this many games a player count plays the meta-game in full


def metagame_deals(game, n_games: int) -> int | None:
    """Deals per profile of a report's meta-game: None (as many as every win share needs to be
    within ±1 point, :func:`gamelab.sim.profiles.payoff_table`) for a report of METAGAME_FULL
    games or more, else a tenth of the report's games (at least 32, at most ``Strategies.deals``)."""
    if n_games >= METAGAME_FULL:
        return None
    return max(32, min(game.metagame.deals, n_games // 10))


METAGAME_TARGET_OTHERS = 0.02  # the report's meta-game tables away from the reference player count: ±2 points


def metagame_target(n_players: int, reference: int) -> float:
    """How close every win share of a report's meta-game table is (95 % half-width): ±1 point at
    the reference player count, whose table the first screen and the findings read, ±2 points at
    the others (a quarter of the games: 6 players alone would be 4 M games at ±1 point; the
    section states each table's own half-width, and ``gamelab metagame`` plays any count at ±1)."""
    from gamelab.sim.profiles import TARGET

    return TARGET if n_players == reference else METAGAME_TARGET_OTHERS


def reference_players(data: Report) -> int:
    return 4 if 4 in data.counts else data.counts[0]


def decisions(
    data: Report,
    tools: Tools,
    *,
    profile=None,
    run: RunConfig | None = None,
) -> tuple[tuple[Finding, ...], Decisions]:
    """The report's decision parts (levers, proposals, meta-game, cross-model
    or across-skill status, skill, sequential verdicts), each computed as a
    value, and the findings with the verdicts they carry."""
    run = run or RunConfig()
    n = reference_players(data)
    name = data.game.name
    findings = data.findings
    if tools.decide:
        with phase(f"{name}: sequential verdicts", run.progress):
            findings = decide_findings(data, max_games=max(tools.games * 10, data.n_games), run=run)
        data = dataclasses.replace(data, findings=findings)  # the cross-model rows start from these answers
    levers = None
    if tools.levers:
        with phase(f"{name}: top levers", run.progress):
            levers = levers_part(data, n_players=n, n_games=tools.games, run=run)
    metagame = metagame_part(data, n, run=run) if tools.metagame and data.game.metagame is not None else None
    proposals = None
    if tools.tune:
        with phase(f"{name}: tuner proposals", run.progress):
            proposals = proposals_table(tools.tune, run=run)
    climb = None
    if data.game.skill.search and (tools.cross_model or tools.skill):
        climb = climb_part(data, tools, run=run)
    across: dict = {}
    if tools.cross_model:
        findings, across = across_part(data, tools, climb, profile=profile, run=run)
    skill_part = None
    if tools.skill:
        k = data.game.skill.players or data.game.players[0]
        with phase(f"{name}: skill ladder, luck and the head-to-head matrix", run.progress):
            skill_part = skill_data(
                data, n_players=k, n_games=tools.model_games, trace_games=tools.trace_games, climb=climb, run=run
            )
    parts = Decisions(levers=levers, proposals=proposals, skill=skill_part, climb=climb, metagame=metagame, **across)
    return findings, parts


def across_part(data: Report, tools: Tools, climb, *, profile, run: RunConfig) -> tuple[tuple[Finding, ...], dict]:
    """Whether each headline verdict holds beyond this report's agents: traced
    over the decided skill ladder when the game has search agents (issue 20),
    else asked again under other agent models (the findings then carry the
    statement across models).  The findings, and the :class:`Decisions` fields
    of this part (``cross_model``, its lead and lines, ``traces``)."""
    name = data.game.name
    if data.game.skill.search:
        rungs = [lv.name for lv in climb.rungs] if climb is not None else None
        with phase(f"{name}: skill traces of the headline verdicts", run.progress):
            traces, table = skill_verdicts(data, n_games=tools.trace_games, rungs=rungs, run=run)
        if not len(table):
            return data.findings, {"traces": types.MappingProxyType(traces)}
        lines = tuple(skill_summary(table))
        said = {"cross_model_lead": skill_lead(table), "traces": types.MappingProxyType(traces)}
        return data.findings, {"cross_model": table, "cross_model_lines": lines, **said}
    with phase(f"{name}: verdicts under other models", run.progress):
        max_games = max(tools.games * 10, data.n_games)
        table, findings = cross_model_table(
            data, n_games=tools.model_games, profile=profile, run=run, max_games=max_games
        )
    if not len(table):
        return findings, {}
    return findings, {"cross_model": table, "cross_model_lines": tuple(cross_model_summary(table))}


def levers_part(data: Report, *, n_players: int, n_games: int, run: RunConfig) -> Levers:
    """The top levers at ``n_players``, their "now" read from the report's own run, and their framing."""
    from gamelab.decide.sensitivity import framing

    table, steps, metric = levers_table(data, n_players=n_players, n_games=n_games, run=run)
    design_now(data, steps, metric, n_players)
    return Levers(table, steps, metric, tagged_framing(framing(steps, metric)))


def metagame_part(data: Report, reference: int, *, run: RunConfig):
    """The styles' meta-game at every player count of the report: {players: Analysis}."""
    from gamelab.models import metagame

    found = {}
    deals = metagame_deals(data.game, data.n_games)
    for k in data.counts:
        with phase(f"{data.game.name}: the styles' meta-game at {k} players (every profile)", run.progress):
            found[k] = metagame.metagame(
                data.game,
                k,
                params=data.params,
                deals=deals,
                seed=data.seed,
                run=run.quiet(),
                psro_limit=0,
                target=metagame_target(k, reference),
            )
    return types.MappingProxyType(found)


def climb_part(data: Report, tools: Tools, *, run: RunConfig):
    """The decided skill ladder (rungs that beat the one below), then every
    game its traces, matrix and luck will read, played in one pass."""
    from gamelab.decide import ladder as decided_ladder
    from gamelab.sim.prefetch import prefetch

    name = data.game.name
    k = data.game.skill.players or data.game.players[0]
    with phase(f"{name}: the skill ladder, each rung decided against the one below ({k} players)", run.progress):
        top = data.game.skill.report_top or None
        steps = min(decided_ladder.STEP_MAX_GAMES, LADDER_GAMES_PER_TRACE_GAME * tools.trace_games)
        climb = decided_ladder.climb(
            data.game, n_players=k, seed=data.seed, params=data.params, up_to=top, max_games=steps, run=run.quiet()
        )
    with phase(f"{name}: games at every decided rung (traces, matrix, luck)", run.progress):
        rungs = [lv.name for lv in climb.rungs]
        prefetch(data.game, skill_runs(data, tools, rungs), run=run)  # one pass: every worker busy to the end
    return climb


def skill_runs(data: Report, tools: Tools, rungs: list[str] | None) -> list:
    """Every run the skill phases play (:func:`skill_verdicts`' traces and
    :func:`skill_data`'s trace and luck), the strongest levels of every trace
    first (round robin over the traces: the longest runs start first)."""
    from itertools import chain, zip_longest

    from gamelab.models import luck as skill_luck
    from gamelab.models import trace as skill_trace

    g, kw = data.game, dict(seed=data.seed, params=data.params, rungs=rungs)
    lists = []
    if tools.cross_model:
        for f in data.findings:
            frames = {"default": data.frames[f.players]}
            name = f"win_rate[{f.by}={f.group}]"
            n = tools.trace_games
            lists.append(
                skill_trace.trace_runs(
                    g, n_players=f.players, n_games=n, frames=frames, pairs="none", metric=name, **kw
                )
            )
    if tools.skill:
        k = g.skill.players or g.players[0]
        k_frames: dict | None = {"default": data.frames[k]} if k in data.frames else None
        lists.append(
            skill_trace.trace_runs(g, n_players=k, n_games=tools.trace_games, frames=k_frames, pairs="none", **kw)
        )
        lists.append([skill_luck.luck_run(g, n_players=k, n_games=tools.trace_games, **kw)])
    return [r for r in chain.from_iterable(zip_longest(*lists)) if r is not None]


LADDER_GAMES_PER_TRACE_GAME = 80  # a ladder step may play this many times a trace level's games (300: 24,000)


MARGIN = 0.02  # "advantaged by more than 2 points": the sequential test's threshold around fair


def headline_metric(data: Report) -> str:
    """The spread of the grouping the report's findings are about (seats, or
    a game's styles), else the seat spread."""
    bys = [f.by for f in data.findings]
    by = max(set(bys), key=bys.count) if bys else "seat"
    name = f"{by}_spread"
    return name if name in balance.catalogue(data.game) else "seat_spread"


def levers_table(
    data: Report,
    *,
    n_players: int,
    n_games: int,
    run: RunConfig | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """The rule changes (one step of each declared rule parameter) sure to
    help the headline metric, then those sure to hurt it, played on the
    report's deals, in words; every step's row (the tornado chart's data)
    and the metric's name.  The framing (:func:`lever_framing`) says it in
    a sentence."""
    run = run or RunConfig()
    from gamelab.decide.sensitivity import framing, levers

    name = headline_metric(data)
    steps = levers(
        data.game,
        n_players=n_players,
        lineup=data.runs[n_players].lineup,
        params=data.params,
        n_games=n_games,
        seed=data.seed,
        metrics=[name],
        run=run.quiet(),
    )
    steps.attrs["players"] = n_players
    return lever_rows(tagged_framing(framing(steps, name)), n_players), steps, name


def design_now(data: Report, steps: pd.DataFrame, metric: str, n_players: int) -> None:
    """The levers' "now" read from the report's own run at ``n_players`` (the
    Design metrics figure: one number for the metric in the whole report, the
    sentence and the chart's title alike); the steps' paired games are that
    run's first deals (the same seed and chunks).  Unchanged when the Design
    metrics table has no such row."""
    design = data.design
    if design is None or not len(design):
        return
    row = design[(design["players"] == n_players) & (design["metric"] == metric)]
    if not len(row):
        return
    r = row.iloc[0]
    paired = steps.attrs["games"]
    steps.attrs["now"] = {**steps.attrs.get("now", {}), metric: (float(r["value"]), float(r["low"]), float(r["high"]))}
    steps.attrs["games"] = int(data.runs[n_players].games)
    steps.attrs["now_source"] = f"as in Design metrics; each step is played on the first {paired:,} of those games"


def proposals_table(
    goal_path: str | Path,
    *,
    run: RunConfig | None = None,
) -> pd.DataFrame:
    """The tuner's proposals for a goal file as rows of words (changes, each
    target's verified figure, how sure); ``attrs["summary"]`` its answer."""
    run = run or RunConfig()
    from gamelab.decide import tune

    goal = tune.load_goal(goal_path)
    from gamelab.report import charts

    result = tune.run(goal, run=run.quiet(), chart=charts.front_figure)
    table = tune.shown_rows(tune.setting(goal, str(goal_path)), result.proposals)
    table.attrs["summary"] = result.summary
    return table


def skill_data(
    data: Report,
    *,
    n_players: int,
    n_games: int,
    trace_games: int = 300,
    climb=None,
    run: RunConfig | None = None,
) -> SkillData | None:
    """The game's skill ladder at one player count, with the luck measures,
    and the head-to-head matrix of its trace's levels (``climb``: the decided
    ladder, :func:`climb_part`)."""
    run = run or RunConfig()
    from gamelab.models import ladder
    from gamelab.models import luck as skill_luck
    from gamelab.models import trace as skill_trace

    kw = dict(n_players=n_players, seed=data.seed, params=data.params, run=run)
    if data.game.skill.search:  # the decided rungs: random, the default model, the search rungs that climb
        frames = {"default": data.frames[n_players]} if n_players in data.frames else None
        trace = skill_trace.trace(
            data.game,
            "seat_spread",
            n_games=trace_games,
            frames=frames,
            decided=climb,
            pairs="none",  # each step's own test is the ladder's figure
            styles=data.game.skill.restricted is not None,
            style_games=STYLE_GAMES,
            **{**kw, "run": run.quiet()},
        )
        rungs = [lv.name for lv in climb.rungs] if climb is not None else None
        luck = skill_luck.trace_luck(data.game, n_games=trace_games, rungs=rungs, **kw)
        return SkillData(n_players, tuple(skill_trace.ladder_from_trace(trace)), types.MappingProxyType(luck), trace)
    if not data.game.skill.ladder:
        return None
    levels = ladder.ladder(data.game, n_games=n_games, **kw)
    luck = skill_luck.luck(data.game, n_games=n_games, **kw)
    return SkillData(n_players, tuple(levels), types.MappingProxyType(luck))


ACROSS_MAX_GAMES = 3072  # games a test of a verdict at the default model or the top rung may play


STYLE_GAMES = 1024  # games per restricted-play style row in a report


TOP_CHUNK_DEALS = 64  # deals per look of a verdict's test at the top rung (search on every seat is slow)


def skill_verdicts(
    data: Report,
    *,
    n_games: int,
    rungs: list[str] | None,
    run: RunConfig | None = None,
) -> tuple[dict, pd.DataFrame]:
    """Each player count's headline finding (its group's win rate) traced
    over the report's decided rungs (each level's value and interval, for
    the chart) and classified by sequential tests at the default model and
    the top rung (:func:`gamelab.models.across_skill.decided_class`): {players:
    Trace} and one row per finding (players, verdict, one column per rung,
    status, words, rules: whether it is a property of the rules or of naive
    play, games: what the two tests took).  ``rungs``: the decided ladder's
    rung names (None: no ladder was decided)."""
    run = run or RunConfig()
    from gamelab.models import across_skill, skill_words
    from gamelab.models import trace as skill_trace

    traces, rows = {}, []
    k = data.game.skill.players or data.game.players[0]
    for f in data.findings:
        name = f"win_rate[{f.by}={f.group}]"
        t = skill_trace.trace(
            data.game,
            name,
            n_players=f.players,
            n_games=n_games,
            seed=data.seed,
            params=data.params,
            frames={"default": data.frames[f.players]},
            pairs="none",
            run=run.quiet(),
            rungs=rungs,
            decided_at=k if rungs is not None else 0,
        )
        t = with_report_point(data, f, t)
        traces[f.players] = t
        tests = across_tests(data, f, t, run=run)
        kind = across_skill.decided_class(*tests)
        verdict = f"{fmt.group_words(f.by, f.group)}'s {'edge' if f.effect > 0 else 'handicap'}"
        words = across_words(data.game, verdict, t, kind, tests)
        row = {"players": f.players, "verdict": verdict}
        for r in t.rows:
            shown = fmt.q_percent(trace_name(t, r["level"]), r["value"])
            row[skill_words.rung_words(data.game, r["level"])] = "—" if r["value"] is None else shown
        rules = kind in across_skill.RULES_CLASSES
        games = sum(x["games"] for x in tests if x)
        rows.append({**row, "status": across_skill.DECIDED_KINDS[kind], "rules": rules, "words": words, "games": games})
    return traces, pd.DataFrame(rows)


def with_report_point(data: Report, f: Finding, t):
    """The trace with its default-model point read from the report's own win table: the same games
    (the trace reads the report's frame there) give one rate and one interval, the table's (the
    trace's own interval there is clustered by deal, the table's is not: two intervals of one
    quantity, issue 37).  Unchanged when the table has no such row."""
    table = next((w.table for w in data.wins if w.players == f.players and w.by == f.by), None)
    if table is None:
        return t
    hit = table[table[f.by].astype(str) == str(f.group)]
    if not len(hit):
        return t
    r = hit.iloc[0]
    point = {"value": float(r["win_rate"]), "low": float(r["win_low"]), "high": float(r["win_high"])}
    rows = [{**row, **point} if row["level"] == "default" and row["value"] is not None else row for row in t.rows]
    return dataclasses.replace(t, rows=rows)


def across_tests(data: Report, f: Finding, t, *, run: RunConfig) -> tuple[dict, dict, dict | None]:
    """The sequential tests of a finding ("more than 2 points from fair on
    its side?") at the default model (the report's own lineup) and at the
    top rung of trace ``t`` (a style there by restricted play), and the
    opposite side's test at the top rung when the first says no."""
    from gamelab.decide.sequential import CHUNK_DEALS, decide
    from gamelab.models import restricted
    from gamelab.sim.levels import mixed_params, trace_levels

    g = data.game
    above = f.effect > 0
    levels = {lv.name: lv for lv in trace_levels(g, f.players, data.params)}
    top = levels[t.rows[-1]["level"]]

    def asked(expr, lineup, params, seed_key=0):
        # the default model's test is the headline's own (same chunks: read from the store); the top
        # rung's looks are small (TOP_CHUNK_DEALS), so a clear answer stops after a few hundred games
        chunk_deals = CHUNK_DEALS if seed_key == 0 else TOP_CHUNK_DEALS
        d = decide(
            g,
            expr,
            params=params,
            lineup=list(lineup),
            n_players=f.players,
            seed=data.seed + seed_key,
            max_games=ACROSS_MAX_GAMES,
            chunk_deals=chunk_deals,
            run=run.quiet(),
        )
        return {
            "decision": d.decision,
            "estimate": d.estimate,
            "low": d.low,
            "high": d.high,
            "games": d.games,
            "sign": 1 if above else -1,
        }

    at_default = asked(_finding_question(f), data.runs[f.players].lineup, data.params)
    played = restricted.restricted_table(g, top, f"win_rate[{f.by}={f.group}]", n_players=f.players, n_games=1, seed=0)
    if played is not None:
        agent = played[0]
        lineup, params, subject = (agent, *top.rest), mixed_params(g, top, top), f"win_rate[agent={agent}]"
    else:
        lineup, params, subject = top.lineup, top.params, f"win_rate[{f.by}={f.group}]"
    side = "fair >" if above else "fair <"
    at_top = asked(f"{subject} - {side} {MARGIN if above else -MARGIN}", lineup, params, 1)
    reverse = None
    if at_top["decision"] == "no":
        other = "fair <" if above else "fair >"
        reverse = asked(f"{subject} - {other} {-MARGIN if above else MARGIN}", lineup, params, 2)
    return at_default, at_top, reverse


def cross_model_table(
    data: Report,
    *,
    n_games: int,
    profile=None,
    run: RunConfig | None = None,
    max_games: int | None = None,
) -> tuple[pd.DataFrame, tuple[Finding, ...]]:
    """Every headline verdict under this report's model, the calibrated
    profile (when one is shipped or given) and the strongest agent on every
    seat, with one statement across them: first each headline finding
    (:func:`headline_rows`, whose statement the headline sentence repeats:
    ``Finding.across_models``), then the strongest and weakest groups and
    the rulebook's conclusions.  ``attrs["models"]``: {column: the model in
    words}; ``attrs["games"]``: {column: the games it played per player count}.
    Also the report's findings, each with its statement across models."""
    run = run or RunConfig()
    from gamelab.models import crossmodel

    g = data.game
    frames_out, named = [], {}
    played: dict[str, dict[int, int]] = {}  # {model: {players: games}}
    statements: dict[int, str] = {}  # {index of the finding: its statement across models}
    for n in data.counts:
        others = crossmodel.default_models(g, n, profile, params=data.params)
        # the default model is this report's own: its frames are the report's
        models = [crossmodel.Model("report", "this report's model", data.params, None)]
        models += [m for m in others if m.name != "default"]
        if len(models) < 2:
            continue
        named.update({m.name: m.words for m in models})
        frames = crossmodel.model_frames(
            g, n, models, n_games=n_games, seed=data.seed, frames={"report": data.frames[n]}, run=run
        )
        for m in models:
            played.setdefault(m.name, {})[n] = int(frames[m.name]["game"].nunique())
        heads = headline_rows(data, n, models, frames, max_games=max_games, run=run)
        statements.update({i: row["status"] for i, row in heads})
        rest = crossmodel.verdicts(g, n, n_games=n_games, seed=data.seed, models=models, frames=frames, run=run)
        rest = tagged_leaders(rest, frames, [m.name for m in models], n)
        frames_out.append(pd.concat([pd.DataFrame([row for _, row in heads]), rest], ignore_index=True))
    table = pd.concat(frames_out, ignore_index=True) if frames_out else pd.DataFrame()
    table.attrs["models"] = named
    table.attrs["games"] = {m: sorted(set(by_n.values())) for m, by_n in played.items()}
    findings = tuple(
        dataclasses.replace(f, across_models=statements[i]) if i in statements else f
        for i, f in enumerate(data.findings)
    )
    return table, findings


def _finding_question(f) -> str:
    """The headline's question about a finding, as an expression: its group
    more than :data:`MARGIN` above (below) the fair share."""
    above = f.effect > 0
    return f"win_rate[{f.by}={f.group}] - fair {'>' if above else '<'} {MARGIN if above else -MARGIN}"


def _interval_answer(low: float, high: float, fair: float, above: bool) -> str:
    """Answer "yes" when the 95 % interval clears the fair share on the finding's
    side, "no" when it clears it on the other side, else "undecided"."""
    if (low > fair) if above else (high < fair):
        return "yes"
    if (high < fair) if above else (low > fair):
        return "no"
    return "undecided"


def headline_rows(
    data: Report, n: int, models, frames: dict, *, max_games: int | None, run: RunConfig
) -> list[tuple[int, dict]]:
    """Each headline finding at ``n`` players asked again under every model:
    this report's answer is the headline's own (its sequential test, else
    its interval); another model answers the same question on its own games
    (a sequential test when the headline had one, else whether the group's
    95 % interval clears the fair share on the same side).  Each row comes
    with its finding's index in ``data.findings``; the statement across the
    models (:func:`gamelab.models.crossmodel.statement`) is the row's status,
    which the headline sentence repeats."""
    from gamelab.decide.sequential import decide
    from gamelab.models import crossmodel
    from gamelab.stats import win_table

    rows = []
    for i, f in enumerate(data.findings):
        if f.players != n:
            continue
        above = f.effect > 0
        answers: dict[str, str | None] = {}
        cells: dict[str, str] = {}
        for m in models:
            table = win_table(frames[m.name], f.by) if f.by in frames[m.name] else None
            hit = None if table is None else table[table[f.by].astype(str) == str(f.group)]
            if hit is None or not len(hit):
                answers[m.name], cells[m.name] = None, "—"
                continue
            rate, low, high = (float(hit.iloc[0][c]) for c in ("win_rate", "win_low", "win_high"))
            if m.name == "report" and f.answer is not None:
                key = f.answer
            elif m.name == "report" or f.answer is None:
                key = _interval_answer(low, high, f.fair, above)
            else:
                key = decide(
                    data.game,
                    _finding_question(f),
                    n_players=n,
                    params=m.params,
                    lineup=list(m.lineup) if m.lineup else None,
                    seed=data.seed,
                    max_games=max_games or 10 * len(frames[m.name]),
                    run=run.quiet(),
                ).decision
            answers[m.name] = {"yes": crossmodel.HELD, "no": crossmodel.NOT_HELD}.get(key, crossmodel.NOT_SURE)
            name = win_name(n, f.by, f.group)  # this report's model: the report's own table
            name = name if m.name == "report" else fmt.qname("model_win_rate", model=m.name, of=name)
            cells[m.name] = f"{fmt.q_percent(name, rate)} ({answers[m.name]})"
        said = crossmodel.statement(answers)
        side = "edge" if above else "handicap"
        rows.append(
            (
                i,
                {
                    "verdict": f"{fmt_subject(f.by, f.group)}'s {side}",
                    "players": n,
                    **cells,
                    "status": said,
                    "words": f"the headline: {fmt_subject(f.by, f.group)}'s {side}: {said}",
                },
            )
        )
    return rows


def decide_findings(
    data: Report,
    *,
    max_games: int,
    run: RunConfig | None = None,
) -> tuple[Finding, ...]:
    """The findings, each with its sureness replaced by a sequential test of
    "is this group more than 2 points from its fair share?" (``Finding.decision``,
    ``Finding.answer``)."""
    run = run or RunConfig()
    from gamelab.decide.sequential import decide

    out = []
    for f in data.findings:
        above = f.effect > 0
        expr = _finding_question(f)
        d = decide(
            data.game,
            expr,
            n_players=f.players,
            params=data.params,
            lineup=list(data.runs[f.players].lineup),
            seed=data.seed,
            max_games=max_games,
            run=run.quiet(),
        )
        side = "above" if above else "below"
        answer = {"yes": "yes", "no": "no", "undecided": "not decided"}[d.decision]
        # the sentence already gives the report's own estimate; the test answers the question
        # on its own deals (its corrected estimate is in d, for the details)
        margin = fmt.quantity(fmt.qname("margin"), MARGIN, f"{MARGIN * 100:.0f}", 100)  # the test's threshold
        question = f"more than {margin} points {side} its fair share with this report's agents?"
        decision = (
            f"{question} {answer}, decided by a sequential test after {d.games:,} games"
            if d.decision != "undecided"
            else f"{question} not decided within {d.games:,} games"
        )
        out.append(dataclasses.replace(f, decision=decision, answer=d.decision))
    return tuple(out)
