"""A computed report rendered as a self-contained HTML page (one file: CSS
inline, plots as inline SVG, no network needed to open it).

:func:`render_report` takes a frozen :class:`~gamelab.report.data.Report`
(:func:`gamelab.report.compute.compute_report`) and only renders it: it
plays no game and asks no rule; :mod:`gamelab.report.build` computes,
renders and writes.  The page reads like a balance review: first, per
player count, one plain sentence on the largest imbalance with how sure it
is, one win-rate chart on a shared axis with the fair share, which agents
and model produced the numbers, and (when the decision tools ran) the top
levers, proposals and cross-model status; test statistics fold into a
details block.  Then the model's assumptions, the
parameters, the full tables, identities, the claims audit (failures first)
and the errata.

Every table goes through :mod:`gamelab.report.format` (labels from the
declarations, percentages, no ``nan``, every cell escaped); the page is a
Jinja2 template with autoescaping, so a name from a user's file can never
become markup.
"""

from __future__ import annotations

import pandas as pd

from gamelab.core.labels import doc_words, value_words
from gamelab.report import charts
from gamelab.report import format as fmt
from gamelab.report.audit import claims_section, plain_paths
from gamelab.report.blocks import Block, Section
from gamelab.report.data import Finding, Levers, Report, WinTable
from gamelab.report.names import lever_name, metric_name, trace_name, win_name


def table_html(df: pd.DataFrame, **kw) -> str:
    """A DataFrame as an escaped, readable HTML table (see :func:`gamelab.report.format.table_html`)."""
    return fmt.table_html(df, **kw)


def figure_svg(fig) -> str:
    return charts.svg(fig)


# -- the first screen ----------------------------------------------------------------


def players_words(n: int) -> str:
    return f"{n}-player"


def subject(by: str, group) -> str:
    """How a sentence names a group: ``Seat 1``, ``The heavy style``."""
    text = fmt.group_words(by, group)
    return text[:1].upper() + text[1:]


def trace_chart_data(traces) -> str:
    """The trace chart's plotted values by quantity (each level's point and its band's ends)."""
    values = {}
    for t in traces.values():
        for r in t.rows:
            if r["value"] is None:
                continue
            name = trace_name(t, r["level"])
            values.update({name: r["value"], f"{name}.low": r["low"], f"{name}.high": r["high"]})
    return fmt.chart_data(values)


def fair_text(players: int) -> str:
    return fmt.q_percent(fmt.qname("fair_share", players=players), 1 / players)


def sureness(f: Finding) -> str:
    """How sure the finding is, in words ("clear" / "not yet clear, N more
    games would settle it").  One small function so a sequential test can
    replace the normal approximation."""
    if f.decision is not None:
        return f.decision
    if f.clear:
        return "a real imbalance, not noise (the interval excludes the fair share)"
    more = f.more_games
    if more is None or more > 50 * f.games:
        half = fmt.quantity(
            fmt.qname("half_width", of=win_name(f.players, f.by, f.group)),
            (f.high - f.low) / 2,
            f"{((f.high - f.low) / 2) * 100:.1f}",
            100,
        )
        return f"no clear imbalance: fair to within {half} points"
    return f"not yet clear, about {more:,} more games would settle it"


def sentence(f: Finding) -> str:
    """``Seat 1 wins 41.7 % of 4-player games against a fair 25.0 % (+16.7 points): a real imbalance, ...``"""
    verb = "wins"
    other = ""
    name = win_name(f.players, f.by, f.group)
    if f.weakest is not None and f.weakest_rate is not None and f.weakest != f.group:
        weakest = fmt.q_percent(win_name(f.players, f.by, f.weakest), f.weakest_rate)
        other = (
            f"; {subject(f.by, f.weakest)[0].lower() + subject(f.by, f.weakest)[1:]} "
            f"{'only ' if f.weakest_rate < f.fair else ''}{weakest}"
        )
    across = f" Across agent models: {f.across_models}." if f.across_models else ""
    return (
        f"{subject(f.by, f.group)} {verb} {fmt.q_percent(name, f.rate)} of its {players_words(f.players)} games "
        f"against a fair {fair_text(f.players)} ({fmt.q_points(fmt.qname('edge', of=name), f.effect)}, 95 % "
        f"interval {fmt.q_interval(name, f.low, f.high, percent=True)}){other}: {sureness(f)}.{across}"
    )


def chart_panels(data: Report) -> list[fmt.WinPanel]:
    """One panel per player count and grouping with more than one group."""
    return [
        fmt.WinPanel(f"{w.players} players, by {fmt.words(w.by)}", w.table, w.by, 1 / w.players, w.players)
        for w in data.wins
        if len(w.table) > 1
    ]


def headline_group(data: Report) -> str:
    """The grouping of the game's headline imbalance (a game's styles, or its seats)."""
    return data.game.report.headline.removesuffix("_spread")


def win_chart(data: Report, half: bool = False, only: str | None = None) -> str:
    """The win-rate panels (``only``: of that grouping, when it has panels);
    ``half``: for half the page's width (beside the trace chart), two panels
    a row when there is one grouping."""
    panels = chart_panels(data)
    if only is not None and any(p.by == only for p in panels):
        panels = [p for p in panels if p.by == only]
    if not panels:
        return ""
    groups = list(dict.fromkeys(p.by for p in panels))
    ordered = [p for by in groups for p in panels if p.by == by]  # a row per grouping, a column per count
    columns = (
        len(data.counts)
        if all(sum(p.by == by for p in panels) == len(data.counts) for by in groups)
        else min(4, len(panels))
    )
    if half and len(groups) == 1:
        columns = min(2, columns)
    width = charts.HALF_PANEL_IN * columns if half else 10.0  # inches: the trace chart's panel width when beside it
    return figure_svg(charts.win_rate_chart(ordered, columns=columns, width=width)) + win_chart_data(ordered)


def win_chart_data(panels: list[fmt.WinPanel]) -> str:
    """The win-rate chart's plotted values by quantity (each point and its interval's ends)."""
    values = {}
    for p in panels:
        n = p.players or round(1 / p.fair)
        t = p.table
        for group, rate, low, high in zip(t[p.by], t["win_rate"], t["win_low"], t["win_high"]):
            name = win_name(n, p.by, group)  # the group as the table has it (iterrows would make seat 1 a 1.0)
            values.update({name: rate, f"{name}.low": low, f"{name}.high": high})
        values[fmt.qname("fair_share", players=n)] = p.fair
    return fmt.chart_data(values)


def provenance(data: Report) -> str:
    seats = "; ".join(f"{n} players: {data.lineup(n)}" for n in data.counts)
    return (
        f"Agents at the table: {seats}. Model: "
        f"{data.profile or 'the one Model assumptions describes, not calibrated to playtests'}. "
        f"Games per player count: {games_words(data)}."
    )


def games_words(data: Report) -> str:
    """The games each player count played, and once, why a count is not the one asked for (issue 37: a
    report read "20,001, 20,000, 20,000, 20,004" with no word why): each deal is played once in every seat
    rotation (:mod:`gamelab.sim.runner`), so a count is the games asked for rounded up to whole deals."""
    played = [data.runs[n].games for n in data.counts]
    games = ", ".join(f"{g:,}" for g in played)
    if data.precision is None and any(g != data.n_games for g in played):
        rounded = [f"{g:,} at {n} players" for n, g in zip(data.counts, played) if g != data.n_games]
        return (
            f"{games} (seed {data.seed}; {data.n_games:,} asked for, each deal played once in every seat rotation, "
            f"so rounded up to whole deals: {', '.join(rounded)})"
        )
    return f"{games} (seed {data.seed})"


def summary_section(data: Report) -> Section:
    blocks = [Block("text", provenance(data), css="meta")]
    if data.params.changed():  # other rules than the rulebook's: said before any figure (issue 37)
        blocks.insert(0, Block("text", changed_from_rulebook(data.params)))
    if data.model_warnings:  # issue 38: seats that differ where the rules treat them alike
        warnings = [("warn", words) for _, words in data.model_warnings]
        why = "a check of the model on this run: each seat against the share of the seats it is interchangeable with"
        blocks.append(Block("list", warnings, css="verdict", own=why))
    sentences = [("bad" if f.clear else "", sentence(f)) for f in data.findings]
    skill_blocks = across_skill_blocks(data)
    chart = win_chart(data, half=bool(skill_blocks), only=headline_group(data))  # the grid: under Win rates
    wins = Block(
        "figure",
        chart,
        caption=f"Win rate by {fmt.words(headline_group(data))} with its 95 % interval, per player count; the "
        "dashed line is the fair share (1 / players). Red: the interval excludes the fair share. "
        "Every grouping: the section Win rates.",
    )
    verdicts = Block("list", sentences or [("", "One group per table: nothing to compare.")], css="verdict")
    if skill_blocks:  # first the answer across skill, its trace chart beside the win-rate chart, then the detail
        # the one-sentence answer, then the two charts (within the first screen at 1366 x 900), then each count's
        heading, lead, across, trace, details = skill_blocks
        blocks += [heading, lead, Block("row", [wins, trace] if chart else [trace]), across]
        blocks += [Block("heading", "With this report's agents"), verdicts, *edge_blocks(data), details]
    else:
        edge = edge_blocks(data)  # its sentence under the verdicts, its chart and the typical game under the win rates
        blocks += [verdicts, *edge[:1]]
        if chart:
            blocks.append(wins)
        blocks += edge[1:]
    if data.decisions.metagame:  # issue 28: what adapting players keep, one sentence (the section: beside the claims)
        from gamelab.report.metagame import front_sentence

        blocks.append(Block("text", front_sentence(data.decisions.metagame) + " (Styles when players adapt, below.)"))
    blocks += levers_blocks(data.decisions.levers)
    if data.lever is not None:  # the typical game's deal under the top lever's change
        own = "one game replayed by gamelab show under the change"
        link = (f"The typical game under the top lever: {data.lever.why()}.", page_href(data.game.name, "lever"))
        blocks.append(Block("link", (*link, "Watch it"), css="typical", own=own))
    if data.decisions.proposals is not None:
        blocks += proposal_blocks(data.decisions.proposals)
    blocks += cross_model_blocks(data)
    blocks += status_blocks(data)
    return Section("summary", "Balance review", blocks)


def page_href(game_name: str, kind: str = "typical") -> str:
    """A page beside the report: the typical game's (``typical``), the same deal under the top lever
    (``lever``); ``build_report`` names it after the report's file."""
    return f"{game_name}-{kind}.html"


def edge_blocks(data: Report) -> list:
    """Where the headline's edge comes from (one sentence, its chart) and the typical game's link."""
    from gamelab.report import edge as edge_words

    out: list = []
    e = data.edge
    if e is not None:
        out.append(Block("text", edge_words.sentence(e), css="edge"))
        chart = figure_svg(charts.edge_figure(e.sources, e.phases)) + fmt.chart_data(edge_words.chart_values(e))
        why = f" {e.why}" if e.why else ""
        out.append(
            Block(
                "figure",
                chart,
                caption=f"Each part's points a game for {edge_words.subject(e)} minus the other seats' mean, "
                f"{e.players} players, with its 95 % interval over deals; the parts add up to the gap (grey).{why}",
            )
        )
    t = data.typical
    if t is not None:
        out.append(
            Block(
                "link",
                (f"A typical game: {t.why(command=False)}.", page_href(data.game.name), "Watch it, step by step"),
                css="typical",
                own="one game replayed by gamelab show, its margin against the report's median",
            )
        )
        if t.deal is None:  # a seed of gamelab show: the command that plays it again, to copy
            out.append(Block("pre", t.command))
    return out


def across_skill_blocks(data: Report) -> list:
    """Whether each headline verdict holds across skill, with the trace chart."""
    blocks: list = []
    d = data.decisions
    if d.traces and isinstance(d.cross_model, pd.DataFrame):
        blocks.append(Block("heading", "Across skill: a property of the rules, or of naive play?"))
        blocks.append(Block("text", d.cross_model_lead, css="verdict"))
        blocks.append(Block("list", [("", line) for line in d.cross_model_lines], css="verdict"))
        blocks.append(
            Block(
                "figure",
                figure_svg(charts.trace_chart(d.traces, data.game)) + trace_chart_data(d.traces),
                caption="The headline group's win rate at each rung of the decided skill ladder (random play, "
                "the default model, then each search rung that beats the one below; a style at a search rung "
                "by restricted play), its 95 % interval as a band; the dashed line is the fair share. The "
                "sentence's class comes from sequential tests at the default model and the top rung.",
            )
        )
        shown = d.cross_model.drop(columns=["words", "rules"]).map(lambda x: fmt.outside_tags(x, _spaced))
        blocks.append(Block("details", [Block("table", table_html(shown))], caption="Every verdict, level by level"))
    return blocks


def _spaced(text: str) -> str:
    return text.replace("_", " ")


def cross_model_blocks(data: Report) -> list:
    """For a game without a skill trace: whether each verdict survives another agent model."""
    blocks: list = []
    d = data.decisions
    if d.cross_model is not None and not d.traces:
        blocks.append(Block("heading", "Across agent models: does each verdict survive another model?"))
        if isinstance(d.cross_model, str):
            blocks.append(Block("text", d.cross_model))
        else:
            table = d.cross_model
            shown = table.drop(columns=["words"]).map(lambda x: fmt.outside_tags(x, _spaced))
            labels = {**table.attrs.get("models", {}), "status": "across models"}
            lines = [("", line) for line in d.cross_model_lines]
            blocks.append(Block("list", lines, css="verdict"))
            blocks.append(
                Block(
                    "details",
                    [Block("table", table_html(shown, labels=labels))],
                    caption="Every verdict, model by model",
                )
            )
    return blocks


def status_blocks(data: Report) -> list:
    """The identities' and the claims audit's counts, and the test statistics (folded)."""
    blocks: list = []
    status = []
    if len(data.identities):
        from gamelab.rulebook.identities import summary

        status.append(("", f"Identities: {summary(data.identities)}."))
    if data.claims is not None:
        from gamelab.report.audit import claim_rows

        state = claim_rows(data.claims.audit)["_state"].value_counts()
        status.append(
            (
                "",
                f"Rulebook claims: of {int(state.sum())} published figures {state.get('holds', 0)} "
                f"hold, {state.get('fails', 0)} fail, {state.get('not measured', 0)} not measured "
                "(see the claims audit).",
            )
        )
    if status:
        blocks.append(Block("list", status, css="status"))
    stats_lines = [Block("text", line) for line in chi_lines(data.wins)]
    if stats_lines:
        blocks.append(Block("details", stats_lines, caption="Do the groups win equally? (chi-square tests)"))
    return blocks


def proposal_blocks(value) -> list[Block]:
    """The tuner's answer in a sentence, then its proposals in words."""
    own = OWN_SAMPLE["what-to-change"]
    out = [Block("heading", "What to change: the tuner's proposals, each decided on fresh deals")]
    if isinstance(value, str):
        return out + [Block("text", value, own=own)]
    if value.attrs.get("summary"):
        out.append(Block("text", value.attrs["summary"], own=own))
    return out + [Block("table", table_html(value), own=own)]


def levers_blocks(levers: Levers | None) -> list[Block]:
    """The levers framed by the headline metric's better side: a sentence,
    the steps sure to help (green, "better") and sure to hurt (red,
    "worse"), the table and the tornado chart one click away."""
    if levers is None:
        return []
    fr = levers.framing
    out = [Block("heading", f"Levers: what would {fr.goal or 'move'} the {fr.label}"), Block("text", fr.text())]
    items = [("good", f"better: {x.words} ({fr.amount(x.change)})") for x in fr.helps[:5]]
    items += [("bad", f"worse: {x.words} ({fr.amount(x.change)})") for x in fr.hurts[:5]]
    if items:
        out.append(Block("list", items, css="levers"))
    inner = [Block("table", table_html(levers.table))] if len(levers.table) else []
    chart = figure_svg(charts.tornado_figure(levers.steps, levers.metric)) + tornado_data(levers)
    inner.append(
        Block(
            "figure",
            chart,
            caption="Every step of every rule parameter, ranked by how far it moves the metric: green "
            "sure to help, red sure to make it worse, grey not sure (95 % paired intervals).",
        )
    )
    out.append(Block("details", inner, caption="Every rule step, with its interval"))
    return out


def tornado_data(levers: Levers) -> str:
    """The tornado chart's plotted values by quantity: each step's change and interval, and the "now"
    its title states (the Design metrics figure)."""
    steps, metric = levers.steps, levers.metric
    players = steps.attrs.get("players")
    fr = levers.framing
    values = {}
    for x in [*fr.helps, *fr.hurts, *fr.unsure, *fr.idle]:
        name = lever_name(players, metric, x.words)
        values.update({name: x.change, f"{name}.low": x.low, f"{name}.high": x.high})
    now = steps.attrs.get("now", {}).get(metric)
    if now is not None and players is not None:
        name = metric_name(players, metric)
        values.update({name: now[0], f"{name}.low": now[1], f"{name}.high": now[2]})
    return fmt.chart_data(values)


def chi_lines(wins: tuple[WinTable, ...]) -> list[str]:
    out = []
    for w in wins:
        if w.chi is None:
            continue
        fair = "no evidence that they differ" if w.chi.pvalue >= 0.05 else "they do not win equally"
        chi = fmt.quantity(
            fmt.qname("chi_square", players=w.players, by=w.by), w.chi.statistic, f"{w.chi.statistic:.1f}"
        )
        p = fmt.quantity(fmt.qname("p_value", players=w.players, by=w.by), w.chi.pvalue, f"{w.chi.pvalue:.3g}")
        out.append(  # the answer first, the statistic after it
            f"{w.players} players, by {fmt.words(w.by)}: {fair} (chi-square {chi} on {w.chi.df} "
            f"degrees of freedom, p = {p})."
        )
    return out


# -- the other sections --------------------------------------------------------------


def win_table(w: WinTable) -> pd.DataFrame:
    """A win table as a designer reads it: group, seats, win rate with its
    interval, share of games won, mean score with its interval."""
    t = w.table
    names = [win_name(w.players, w.by, v) for v in t[w.by]]
    out = pd.DataFrame(
        {
            fmt.words(w.by): [fmt.group_label(w.by, v) for v in t[w.by]],
            "seats played": t["n"],
            "win rate": [fmt.q_percent(q, x) for q, x in zip(names, t["win_rate"])],
            "95 % interval": [
                fmt.q_interval(q, lo, hi, percent=True) for q, lo, hi in zip(names, t["win_low"], t["win_high"])
            ],
        }
    )
    if "share_of_games_won" in t:
        out["share of games won"] = [
            fmt.q_percent(fmt.qname("share_of_games_won", of=q), x) for q, x in zip(names, t["share_of_games_won"])
        ]
    if "score_mean" in t:
        scores = [fmt.qname("score_mean", players=w.players, **{w.by: v}) for v in t[w.by]]
        out["mean score"] = [fmt.quantity(q, x, fmt.number(x)) for q, x in zip(scores, t["score_mean"])]
        out["score interval"] = [
            fmt.q_interval(q, lo, hi) for q, lo, hi in zip(scores, t["score_low"], t["score_high"])
        ]
    return out


def win_grid_blocks(data: Report) -> list:
    """Every grouping's win rates at every player count, as one chart (the first screen shows the headline's)."""
    chart = win_chart(data)
    caption = "Win rates with 95 % intervals, a row per grouping, a column per player count; dashed: the fair share."
    return [Block("figure", chart, caption=caption)] if chart else []


def win_blocks(wins: tuple[WinTable, ...]) -> list:
    """Win-rate tables per grouping, in words and percent."""
    blocks: list = []
    for w in wins:
        blocks.append(Block("heading", f"{w.players} players: win rate by {fmt.words(w.by)}"))
        blocks.append(Block("table", table_html(win_table(w))))
    return blocks


def score_figure(frames: dict[int, pd.DataFrame], group: str) -> str:
    return figure_svg(charts.score_multiples(frames, group))


def design_blocks(data: Report) -> list:
    d = data.design
    if d is None or not len(d):
        return [Block("text", "No design metrics.")]
    rows = []
    for _, g in d.groupby("metric", sort=False):
        first = g.iloc[0]
        row = {"metric": first["label"], "meaning": first["doc"]}
        for _, r in g.iterrows():
            row[f"{r['players']} players"] = design_cell(r)
        rows.append(row)
    return [
        Block(
            "text",
            "Each metric with its 95 % bootstrap interval over deals, per player count; spreads, gaps "
            "and advantages (differences of win rates) in percentage points.",
        ),
        Block("table", table_html(pd.DataFrame(rows), css="wrap")),
    ]


def design_cell(r) -> str:
    """``12.3 points (11.0–13.5)``, ``41.0 % (40.1–41.9 %)``, ``23.4 (23.1–23.8)``: a metric with its interval,
    tagged; a difference of shares in percentage points, as everywhere else."""
    name = metric_name(int(r["players"]), str(r["metric"]))
    pct, pts = bool(r["percent"]), bool(r.get("points", False))
    scale = 100 if pct else 1
    value = fmt.number(r["value"], percent=pct)
    if pts:
        value = value.removesuffix(" %") + " points"
    shown = fmt.quantity(name, r["value"], value, scale)
    band = fmt.q_interval(name, r["low"], r["high"], percent=pct, unit=not pts)
    return f"{shown} ({band})"


def parameter_section(params) -> Section:
    from gamelab.core.params import specs

    changed = params.changed()
    ptab = pd.DataFrame(
        [
            {
                "parameter": fmt.param_label(s),
                "value": _value_text(getattr(params, s.name), s.default),
                "rulebook": _value_text(s.default, s.default),
                "section": s.section,
                "meaning": doc_words(s.doc),
                "_changed": s.name in changed,
            }
            for s in specs(params)
        ]
    )
    ptab = ptab.sort_values("_changed", ascending=False, kind="stable").drop(columns="_changed")
    return Section(
        "parameters",
        "Parameters",
        [
            Block("text", changed_from_rulebook(params)),
            Block(
                "details",
                [Block("table", table_html(ptab, css="wrap"))],
                caption=f"All {len(ptab)} parameters with their meaning",
            ),
        ],
    )


def changed_from_rulebook(params) -> str:
    """``Changed from the rulebook: sum cap = 8, node values = 4, 5, ...``: one wording for the report's
    first screen, its Parameters section and the notebook panel."""
    changed = params.changed()
    said = ", ".join(f"{fmt.param_label(_spec(params, k))} = {_value_text(v, v)}" for k, v in changed.items())
    return "Changed from the rulebook: " + (said if changed else "nothing (the rulebook's rules).")


def _spec(params, name):
    from gamelab.core.params import specs

    return next(s for s in specs(params) if s.name == name)


def identity_blocks(data: Report) -> list:
    from gamelab.rulebook.identities import summary

    ids = data.identities
    if not len(ids):
        return [Block("text", "No identities for this game.")]
    ref_n = 4 if 4 in data.frames else data.counts[0]
    shown = fmt.identity_frame(ids)  # each row's figures in its declared format (a rate in %)
    keep = ["identity", "quantity", "rulebook", "exact", "exact_at_rulebook", "simulated", "interval", "status"]
    labels = {
        "exact": "exact here",
        "exact_at_rulebook": "exact at the rulebook's rules",
        "simulated": "simulated",
        "interval": "95 % interval",
    }
    text = (
        f"{summary(ids)}. Exact values from the parameters; simulated values from this report's games "
        f"(rows without a player count: the {ref_n}-player games). A rulebook figure is judged only at the "
        "rules it was stated for: after a rule change it stays as a reference beside the new value."
    )
    return [Block("text", text), Block("table", table_html(shown, keep=keep, labels=labels, css="wrap"))]


def diff_section(data: Report) -> Section:
    blocks = [
        Block(
            "text",
            "Paired differences (this report's parameters minus the baseline), played on "
            "the same deals; an interval that excludes 0 is a real change.",
        )
    ]
    for n, by, d in data.diffs or []:
        blocks += [
            Block("heading", f"{n} players: change in win rate by {fmt.words(by)}"),
            Block("table", table_html(diff_table(d))),
        ]
    diff = {
        k: (getattr(data.baseline, k), v) for k, v in data.params.as_dict().items() if getattr(data.baseline, k) != v
    }
    blocks.insert(
        0,
        Block(
            "text",
            "Baseline differs in: " + ", ".join(f"{k.replace('_', ' ')}: {a} → {b}" for k, (a, b) in diff.items()),
        ),
    )
    return Section("diff", "Against the baseline", blocks)


def diff_table(d: pd.DataFrame) -> pd.DataFrame:
    """A paired difference of win rates in words: group, change in points, interval, games."""
    by = d["by"].iloc[0] if len(d) else "group"
    return pd.DataFrame(
        {
            fmt.words(by): [fmt.group_label(by, g) for g in d["group"]],
            "change": [fmt.points(x) for x in d["difference"]],
            "95 % interval": [
                f"{fmt.points(lo).removesuffix(' points')} to {fmt.points(hi)}" for lo, hi in zip(d["low"], d["high"])
            ],
            "real change": ["yes" if lo > 0 or hi < 0 else "no" for lo, hi in zip(d["low"], d["high"])],
            "games": d["n"],
        }
    )


def reproduce_section(data: Report) -> Section:
    repro = pd.DataFrame(
        [
            {
                "players": n,
                "games": data.runs[n].games,
                "seed": data.seed,
                "agents": data.lineup(n),
                "precision target": data.precision,
                "target met": data.runs[n].target_met,
            }
            for n in data.counts
        ]
    )
    return Section(
        "reproduce",
        "Sample sizes and how to reproduce",
        [
            Block("table", table_html(repro)),
            Block(
                "pre",
                f"gamelab {data.version}\n"
                + _command(data.game.name, data.params, data.n_games, data.seed, data.precision),
            ),
        ],
    )


#: the sections whose figures are not the report's run, and why (the checker, gamelab.report.onenumber,
#: reads their rates as their own: every other rate figure on the page must be a tagged quantity's)
OWN_SAMPLE = {
    "assumptions": "the model's description: its figures are the studies it cites",
    "parameters": "the rules' values, no figure of a run",
    "skill": "each skill level against the level below, in its own games (the games column)",
    "identities": "figures the rules give exactly, beside the rulebook's printed ones",
    "diff": "paired games of these rules against the baseline's",
    "claims": "the rulebook's printed figures beside the audit's own games",
    "metagame": "every mix of styles played on deals of its own (each table states them)",
    "sentences": "the rulebook's printed figures and the new rules' exact ones",
    "playtests": "the playtest records' own figures",
    "what-to-change": "the tuner's proposals, each verified on fresh deals of its own",
}


def sections_of(data: Report) -> list[Section]:
    """The report's sections, in reading order, from the computed data (each part showing a sample
    of its own marked so: :data:`OWN_SAMPLE`)."""
    import dataclasses

    return [dataclasses.replace(s, own=OWN_SAMPLE.get(s.id, s.own)) for s in _sections(data)]


def _sections(data: Report) -> list[Section]:
    game = data.game
    sections = [
        summary_section(data),
        Section(
            "assumptions",
            "Model assumptions",
            [Block("text", plain_paths(game.report.assumptions) or "The agents' model is not described.")],
        ),
        parameter_section(data.params),
        Section("win-rates", "Win rates", win_grid_blocks(data) + win_blocks(data.wins)),
        Section("metrics", "Design metrics", design_blocks(data)),
    ]
    group = game.report.groups[0] if game.report.groups else "seat"
    sections.append(
        Section(
            "scores",
            "Score distributions",
            [Block("figure", score_figure(data.frames, group), caption=f"Final scores by {fmt.words(group)}")],
        )
    )
    if data.decisions.proposals is not None:
        sections.append(
            Section(
                "what-to-change",
                "What to change",
                [
                    Block(
                        "text",
                        "The tuner's proposals for the goal file: each a set of rule changes, its "
                        "figures re-played on fresh deals with more games (only verified figures "
                        "are shown). Each row's parameters are also written as a parameter file "
                        "that --params accepts.",
                    ),
                    Block("table", table_html(data.decisions.proposals)),
                ],
            )
        )
    if data.decisions.skill is not None:
        from gamelab.report.skill import skill_section

        sections.append(skill_section(data.decisions.skill, game))
    sections.append(Section("identities", "Identities", identity_blocks(data)))
    if data.baseline is not None:
        sections.append(diff_section(data))
    if data.with_claims:
        sections.append(claims_section(data))
    if data.decisions.metagame:  # beside appendix B's comparison (in the claims section)
        from gamelab.report.metagame import section as metagame_section

        sections.append(metagame_section(data.decisions.metagame, figure_svg))
    from gamelab.report.sentences import sentences_section

    changed = sentences_section(data.sentences, game.name)  # shown with or without the claims audit
    if changed is not None:
        sections.append(changed)
    if data.playtests:
        sections.append(Section("playtests", "Playtest replays", playtest_blocks(data.playtests)))
    sections.append(reproduce_section(data))
    return sections


def render_report(data: Report) -> str:
    """The report as one self-contained HTML page."""
    from jinja2 import Environment, PackageLoader, select_autoescape
    from markupsafe import Markup

    env = Environment(loader=PackageLoader("gamelab.report", "templates"), autoescape=select_autoescape(["j2", "html"]))
    env.filters["tagged"] = lambda text: Markup(fmt.tagged_html(text))  # figures tagged with their quantity
    return env.get_template("report.html.j2").render(
        title=f"{data.game.title or data.game.name} balance report" + (f": {data.label}" if data.label else ""),
        version=data.version,
        built=data.built,
        subtitle=f"players {', '.join(map(str, data.counts))}; seed {data.seed}",
        sections=sections_of(data),
    )


def playtest_blocks(playtests) -> list:
    """Each record replayed through the rules: its ledger tables and every
    figure of its ``expect`` the rules do not give."""
    blocks = []
    for pt in playtests:
        ledger = pt.ledger
        blocks.append(Block("heading", f"{pt.path.name} ({ledger['game']})"))
        mism = ledger["mismatches"]
        items = [
            (
                "warn",
                f"{m['key']}{''.join(f'[{i}]' for i in m['index'])}: record says {m['expected']!r}, "
                f"rules give {m['actual']!r}",
            )
            for m in mism
        ]
        blocks.append(Block("list", items or [("ok", "The record's expect agrees with the rules everywhere.")]))
        for title, frame in pt.tables:
            blocks += [Block("text", title), Block("table", table_html(frame))]
    return blocks


def _value_text(value, default) -> str:
    """A parameter's value for the table: long lists (a board) summarised."""
    if isinstance(value, tuple) and len(value) > 12:
        if value == default:
            return f"the rulebook's ({len(value)} items)"
        changed = [
            i + 1
            for i in range(max(len(value), len(default)))
            if i >= len(value) or i >= len(default) or value[i] != default[i]
        ]
        shown = ", ".join(f"{i}: {value[i - 1] if i <= len(value) else '-'}" for i in changed[:12])
        return f"{len(value)} items; changed {shown}" + (" ..." if len(changed) > 12 else "")
    if isinstance(value, tuple):
        return value_words(value)  # items in words: a rain card "BT tide", not its code name
    if isinstance(value, str):
        return fmt.choice_label(value)
    return fmt.number(value) if not isinstance(value, bool) else ("yes" if value else "no")


def _command(game, params, n_games, seed, precision) -> str:
    cmd = f"gamelab report {game} --games {n_games} --seed {seed}"
    if precision:
        cmd += f" --precision {precision}"
    if params.changed():  # the file's content as YAML, as the designer would write it
        import yaml

        changed = {k: list(v) if isinstance(v, tuple) else v for k, v in params.changed().items()}
        cmd += " --params FILE   # FILE: " + yaml.safe_dump(changed, default_flow_style=True, width=1000).strip()
    return cmd
