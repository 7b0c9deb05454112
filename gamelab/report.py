"""Self-contained HTML balance reports (one file: CSS inline, plots as inline
SVG, no network needed to open it).

Tables are rendered with pandas Styler (every cell, index and header
HTML-escaped), the page with a Jinja2 template with autoescaping, so a
player name or a label from a user's file can never become markup.

``build_report(game, ...)`` computes first (:func:`gamelab.report_data.compute_report`,
a plain :class:`~gamelab.report_data.ReportData`), then renders it
(:func:`render_report`): summary verdict, parameters, reproducibility, win
rates by every grouping with intervals and a chi-square verdict, design
metrics, score distributions, identities, the rulebook claims audit and
errata, and the agents' model assumptions.  With ``baseline`` it adds paired
differences against another parameter set played on the same deals.
"""
from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path
from typing import Any

import pandas as pd

from .report_data import ReportData, WinTable, compute_report
from .store import ChunkStore


@dataclasses.dataclass
class Block:
    kind: str            # text, list, heading, pre, table, figure
    body: Any
    caption: str = ""
    css: str = ""


@dataclasses.dataclass
class Section:
    id: str
    title: str
    blocks: list


def table_html(df: pd.DataFrame, *, precision: int = 3, percent: tuple = ()) -> str:
    """A DataFrame as an escaped HTML table (pandas Styler)."""
    df = df.copy()
    for c in percent:
        if c in df:
            df[c] = df[c] * 100
    sty = (df.style.format(precision=precision, escape="html", na_rep="")
           .format_index(escape="html", axis=0).format_index(escape="html", axis=1))
    if not isinstance(df.index, pd.MultiIndex) and df.index.equals(pd.RangeIndex(len(df))):
        sty = sty.hide(axis="index")
    text = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
    if text:
        sty = sty.set_properties(subset=text, **{"text-align": "left"})
    return sty.to_html()


def figure_svg(fig) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]  # drop the XML prolog and doctype: inline SVG
    return re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)


def _figure():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# -- the parts of a report ---------------------------------------------------------------

def win_blocks(wins: list[WinTable]) -> tuple[list, list]:
    """Win-rate tables per grouping with a chi-square verdict; verdict lines."""
    blocks: list = []
    verdicts: list = []
    primary: dict[int, str] = {}  # per player count: the first grouping with more than one group
    for w in wins:
        if len(w.table) > 1:
            primary.setdefault(w.players, w.by)
    for w in wins:
        t, by, n_players, chi = w.table, w.by, w.players, w.chi
        blocks.append(Block("heading", f"{n_players} players: win rate by {by}"))
        blocks.append(Block("table", table_html(
            t.rename(columns={"win_rate": "win %", "win_low": "low %", "win_high": "high %",
                              "share_of_games_won": "games won %"}),
            percent=("win %", "low %", "high %", "games won %"))))
        if chi is not None and by == primary.get(n_players):
            hi, lo = t.loc[t["win_rate"].idxmax()], t.loc[t["win_rate"].idxmin()]
            verdicts.append(("", f"{n_players} players: strongest {by} {hi[by]} "
                                 f"{hi['win_rate'] * 100:.1f}% [{hi['win_low'] * 100:.1f}, {hi['win_high'] * 100:.1f}], "
                                 f"weakest {lo[by]} {lo['win_rate'] * 100:.1f}% "
                                 f"[{lo['win_low'] * 100:.1f}, {lo['win_high'] * 100:.1f}] (per-seat win rates; "
                                 f"fair {100 / n_players:.1f}%)"))
        if chi is not None:
            fair = "no evidence that they differ" if chi.pvalue >= 0.05 else "they do not win equally"
            css = "ok" if chi.pvalue >= 0.05 else "warn"
            line = (f"{n_players} players, by {by}: chi-square {chi.statistic:.1f} on {chi.df} df, "
                    f"p = {chi.pvalue:.3g}: {fair}; rates {t['win_rate'].min() * 100:.1f}% to "
                    f"{t['win_rate'].max() * 100:.1f}%")
            blocks.append(Block("text", line))
            verdicts.append((css, line))
    return blocks, verdicts


def score_figure(frames: dict[int, pd.DataFrame], group: str) -> str:
    plt = _figure()
    n = len(frames)
    fig, axes = plt.subplots(1, n, figsize=(3.6 * n, 3.0), squeeze=False)
    for ax, (players, df) in zip(axes[0], frames.items()):
        for key, g in df.groupby(group if group in df else "seat"):
            ax.hist(g["score"], bins=30, histtype="step", density=True, label=str(key))
        ax.set_title(f"{players} players")
        ax.set_xlabel("final score")
    axes[0][0].set_ylabel("density")
    axes[0][-1].legend(fontsize=7, title=group)
    fig.tight_layout()
    return figure_svg(fig)


def claims_blocks(data: ReportData) -> tuple[list, tuple[int, int] | None]:
    c = data.claims
    if c is None:
        return [Block("text", "No claims audit for this game yet.")], None
    audit, exact = c.audit, c.exact
    cols = [k for k in ("section", "table", "row", "column", "value", "ours", "low", "high", "n", "inside", "note")
            if k in audit]
    blocks = [Block("text", f"{c.inside} of {c.judged} published figures reproduced: {c.held} of "
                            f"{int(exact.sum())} rules-decided figures hold exactly (up to their printed "
                            f"rounding), {c.inside - c.held} of {c.judged - int(exact.sum())} simulated cells lie "
                            f"inside our 95% interval ({data.n_games} games per player count, seed {data.seed})."),
              Block("table", table_html(audit[cols].rename(columns={"value": "published"})))]
    if c.conclusions is not None:
        blocks += [Block("heading", "The rulebook's balance conclusions"),
                   Block("text", "Each statement tested against the runner-up: difference of per-seat win rates "
                                 "with its 95% interval (two-proportion test)."),
                   Block("table", table_html(c.conclusions))]
    return blocks, (c.inside, c.judged)


def parameter_section(params) -> Section:
    changed = params.changed()
    ptab = pd.DataFrame([{"parameter": s.name, "value": _value_text(getattr(params, s.name), s.default),
                          "rulebook": _value_text(s.default, s.default),
                          "section": s.section, "meaning": s.doc} for s in _specs(params)])
    ptab = ptab.sort_values("parameter", key=lambda c: ~c.isin(list(changed)), kind="stable").reset_index(drop=True)
    return Section("parameters", "Parameters", [
        Block("text", "Changed from the rulebook: " + (", ".join(f"{k} = {v}" for k, v in changed.items())
                                                       if changed else "nothing (the rulebook's rules).")),
        Block("table", table_html(ptab))])


def diff_section(data: ReportData) -> Section:
    blocks = [Block("text", "Paired differences (this report's parameters minus the baseline), played on "
                            "the same deals; an interval that excludes 0 is a real change.")]
    for n, by, d in data.diffs or []:
        blocks += [Block("heading", f"{n} players, by {by}"), Block("table", table_html(d))]
    diff = {k: (getattr(data.baseline, k), v) for k, v in data.params.as_dict().items()
            if getattr(data.baseline, k) != v}
    blocks.insert(0, Block("text", "Baseline differs in: " + ", ".join(f"{k}: {a} -> {b}"
                                                                       for k, (a, b) in diff.items())))
    return Section("diff", "Against the baseline", blocks)


def sections_of(data: ReportData) -> list[Section]:
    """The report's sections, in reading order, from the computed data."""
    game, counts, frames = data.game, data.counts, data.frames
    sections, verdicts = [parameter_section(data.params)], []
    repro = pd.DataFrame([{"players": n, "games": data.runs[n].games, "seed": data.seed,
                           "lineup": ", ".join(data.runs[n].lineup), "precision target": data.precision,
                           "target met": data.runs[n].target_met} for n in counts])
    sections.append(Section("reproduce", "Sample sizes and how to reproduce", [
        Block("table", table_html(repro)),
        Block("pre", f"gamelab {data.version}\n" + _command(game.name, data.params, data.n_games, data.seed,
                                                             data.precision))]))
    blocks, v = win_blocks(data.wins)
    verdicts += v
    sections.append(Section("win-rates", "Win rates", blocks))
    sections.append(Section("metrics", "Design metrics", [
        Block("text", "balance: 1 minus the largest gap between seat win rates; first-seat advantage: seat 1's "
                      "win rate minus 1/players; decisiveness: share of games with a single winner; margin: mean "
                      "score gap between first and second place."),
        Block("table", table_html(data.metrics))]))
    group = game.report_groups[0] if game.report_groups else "seat"
    sections.append(Section("scores", "Score distributions",
                            [Block("figure", score_figure(frames, group), caption=f"Final scores by {group}")]))
    ref_n = 4 if 4 in frames else counts[0]
    ids = data.identities
    holds = ids["status"].str.startswith("holds").sum()
    sections.append(Section("identities", "Identities", [
        Block("text", f"Exact values from the parameters; simulated values from this report's games (rows "
                      f"without a player count: the {ref_n}-player games)."),
        Block("table", table_html(ids))]))
    if len(ids):
        verdicts.append(("ok" if holds == len(ids) else "warn", f"Identities: {holds} of {len(ids)} hold."))
    if data.baseline is not None:
        sections.append(diff_section(data))
    if data.with_claims:
        blocks, counts_in = claims_blocks(data)
        if counts_in:
            verdicts.append(("ok" if counts_in[0] == counts_in[1] else "warn",
                             f"Rulebook claims: {counts_in[0]} of {counts_in[1]} published cells reproduced."))
        blocks += [Block("heading", "Errata"), Block("pre", data.errata or "None recorded.")]
        sections.append(Section("claims", "Rulebook claims audit and errata", blocks))
    if data.playtests:
        sections.append(Section("playtests", "Playtest replays", playtest_blocks(data.playtests)))
    sections.append(Section("assumptions", "Model assumptions",
                            [Block("text", game.assumptions or "See docs/agents.md.")]))
    sections.insert(0, Section("summary", "Summary verdict", [Block("list", verdicts, css="verdict")]))
    return sections


def render_report(data: ReportData) -> str:
    """The report as one self-contained HTML page."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(loader=PackageLoader("gamelab", "templates"), autoescape=select_autoescape(["j2", "html"]))
    return env.get_template("report.html.j2").render(
        title=f"{data.game.title or data.game.name} balance report" + (f": {data.label}" if data.label else ""),
        version=data.version, built=data.built,
        subtitle=f"players {', '.join(map(str, data.counts))}; seed {data.seed}", sections=sections_of(data))


def build_report(game: str, *, params=None, n_games: int = 20_000, seed: int = 0, precision: float | None = None,
                 baseline=None, workers: int = 1, out: str | Path | None = None, claims: bool = True,
                 store: ChunkStore | None = None, progress: bool | None = None,
                 player_counts=None, lineups: dict | None = None, label: str = "",
                 playtests=()) -> Path:
    """Compute the report, render it and write it (default ``reports/<game>.html``)."""
    data = compute_report(game, params=params, n_games=n_games, seed=seed, precision=precision,
                          baseline=baseline, workers=workers, claims=claims, store=store, progress=progress,
                          player_counts=player_counts, lineups=lineups, label=label, playtests=playtests)
    html = render_report(data)
    from .paths import reports_dir

    path = Path(out or reports_dir() / f"{game}.html")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8")
    return path


def playtest_blocks(playtests) -> list:
    """Each record replayed through the rules: its ledger tables and every
    figure of its ``expect`` the rules do not give."""
    blocks = []
    for pt in playtests:
        ledger = pt.ledger
        blocks.append(Block("heading", f"{pt.path.name} ({ledger['game']})"))
        mism = ledger["mismatches"]
        items = [("warn", f"{m['key']}{''.join(f'[{i}]' for i in m['index'])}: record says {m['expected']!r}, "
                          f"rules give {m['actual']!r}") for m in mism]
        blocks.append(Block("list", items or [("ok", "The record's expect agrees with the rules everywhere.")]))
        for title, frame in pt.tables:
            blocks += [Block("text", title), Block("table", table_html(frame))]
    return blocks


def _value_text(value, default) -> str:
    """A parameter's value for the table: long lists (a board) summarised."""
    if isinstance(value, tuple) and len(value) > 12:
        if value == default:
            return f"the rulebook's ({len(value)} items)"
        changed = [i + 1 for i in range(max(len(value), len(default)))
                   if i >= len(value) or i >= len(default) or value[i] != default[i]]
        shown = ", ".join(f"{i}: {value[i - 1] if i <= len(value) else '-'}" for i in changed[:12])
        return f"{len(value)} items; changed {shown}" + (" ..." if len(changed) > 12 else "")
    return str(value)


def _specs(params):
    from .params import specs
    return specs(params)


def _command(game, params, n_games, seed, precision) -> str:
    cmd = f"gamelab report {game} --games {n_games} --seed {seed}"
    if precision:
        cmd += f" --precision {precision}"
    if params.changed():
        cmd += " --params FILE   # FILE: " + str({k: list(v) if isinstance(v, tuple) else v
                                                  for k, v in params.changed().items()})
    return cmd
