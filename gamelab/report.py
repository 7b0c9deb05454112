"""Self-contained HTML balance reports (one file: CSS inline, plots as inline
SVG, no network needed to open it).

Tables are rendered with pandas Styler (every cell, index and header
HTML-escaped), the page with a Jinja2 template with autoescaping, so a
player name or a label from a user's file can never become markup.

``build_report(game, ...)`` simulates each player count the game reports on
(through the chunk store: a rebuilt report reuses finished chunks), then
assembles: summary verdict, parameters, reproducibility, win rates by every
grouping with intervals and a chi-square verdict, design metrics, score
distributions, identities, the rulebook claims audit and errata, and the
agents' model assumptions.  With ``baseline`` it adds paired differences
against another parameter set played on the same deals.
"""
from __future__ import annotations

import dataclasses
import datetime as _dt
import importlib
import io
import re
from pathlib import Path
from typing import Any

import pandas as pd

from . import __version__, runner, stats, sweep
from .identities import identity_table
from .store import ChunkStore

DOCS = Path(__file__).resolve().parent.parent / "docs"


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

def win_section_blocks(frame: pd.DataFrame, groups, n_players: int) -> tuple[list, list]:
    """Win-rate tables per grouping with a chi-square verdict; verdict lines."""
    blocks, verdicts = [], []
    primary = next((g for g in groups if g in frame and frame[g].nunique() > 1), None)
    for by in groups:
        if by not in frame:
            continue
        t = stats.win_table(frame, by)
        wins = frame.groupby(by)["win"].sum()
        seats = frame.groupby(by)["win"].size()
        chi = stats.equal_wins(wins.to_numpy(), seats.to_numpy()) if len(wins) > 1 else None
        share = (wins / frame["game"].nunique()).rename("share_of_games_won")
        t = t.merge(share, left_on=by, right_index=True)
        blocks.append(Block("heading", f"{n_players} players: win rate by {by}"))
        blocks.append(Block("table", table_html(
            t.rename(columns={"win_rate": "win %", "win_low": "low %", "win_high": "high %",
                              "share_of_games_won": "games won %"}),
            percent=("win %", "low %", "high %", "games won %"))))
        if chi is not None and by == primary:
            hi, lo = t.loc[t["win_rate"].idxmax()], t.loc[t["win_rate"].idxmin()]
            name_hi, name_lo = t[by][t["win_rate"].idxmax()], t[by][t["win_rate"].idxmin()]
            verdicts.append(("", f"{n_players} players: strongest {by} {name_hi} "
                                 f"{hi['win_rate'] * 100:.1f}% [{hi['win_low'] * 100:.1f}, {hi['win_high'] * 100:.1f}], "
                                 f"weakest {name_lo} {lo['win_rate'] * 100:.1f}% "
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


def errata_text(game: str) -> str:
    """The game's part of docs/errata.md (empty when the docs are not there)."""
    path = DOCS / "errata.md"
    if not path.exists():
        return ""
    text = path.read_text(encoding="utf-8")
    heads = {"sbr": "STEEL BALL RUN", "strand": "STRAND"}
    parts = re.split(r"(?m)^## ", text)
    for p in parts:
        if game in heads and p.upper().startswith(heads[game]):
            return "## " + p.strip()
    return ""


def _claims_blocks(game: str, n_games: int, seed: int, workers: int, progress):
    try:
        mod = importlib.import_module(f"gamelab.{game}.claims")
    except ModuleNotFoundError:
        return [Block("text", "No claims audit for this game yet.")], None
    from .claims import load_claims
    audit = mod.measure(load_claims(game), n_games=n_games, seed=seed, workers=workers, progress=progress)
    inside = int(audit["inside"].fillna(False).astype(bool).sum())
    judged = int(audit["inside"].notna().sum())
    cols = [c for c in ("section", "table", "row", "column", "value", "ours", "low", "high", "n", "inside", "note")
            if c in audit]
    from .claims import is_exact
    exact = is_exact(audit)
    held = int(audit.loc[exact, "inside"].astype(bool).sum())
    blocks = [Block("text", f"{inside} of {judged} published figures reproduced: {held} of {int(exact.sum())} "
                            "rules-decided figures hold exactly (up to their printed rounding), "
                            f"{inside - held} of {judged - int(exact.sum())} simulated cells lie inside our "
                            f"95% interval ({n_games} games per player count, seed {seed})."),
              Block("table", table_html(audit[cols].rename(columns={"value": "published"})))]
    if hasattr(mod, "conclusions"):
        c = mod.conclusions(n_games=n_games, seed=seed, workers=workers, progress=progress)
        blocks += [Block("heading", "The rulebook's balance conclusions"),
                   Block("text", "Each statement tested against the runner-up: difference of per-seat win rates "
                                 "with its 95% interval (two-proportion test)."),
                   Block("table", table_html(c))]
    return blocks, (inside, judged)


def build_report(game: str, *, params=None, n_games: int = 20_000, seed: int = 0, precision: float | None = None,
                 baseline=None, workers: int = 1, out: str | Path | None = None, claims: bool = True,
                 store: ChunkStore | None = None, progress: bool | None = None,
                 player_counts=None, lineups: dict | None = None, label: str = "",
                 playtests=()) -> Path:
    """Build the report and write it (default ``reports/<game>.html``)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    ad = runner.adapter(game)
    params = params if params is not None else ad.param_class()
    store = store or ChunkStore()
    counts = tuple(player_counts or ad.report_players or range(ad.players[0], ad.players[1] + 1))
    kw = dict(n_games=n_games, seed=seed, base_params=params, precision=precision, store=store,
              progress=progress, max_games=max(n_games, 200_000))
    from .executors import make_executor
    executor = make_executor(workers)
    frames, runs = {}, {}
    lineups = lineups or {}
    for n in counts:
        runs[n] = sweep.run_cell(game, {"n_players": n}, executor=executor, lineup=lineups.get(n), **kw)
        frames[n] = runs[n].frame
    sections, verdicts = [], []

    changed = params.changed()
    ptab = pd.DataFrame([{"parameter": s.name, "value": _value_text(getattr(params, s.name), s.default),
                          "rulebook": _value_text(s.default, s.default),
                          "section": s.section, "meaning": s.doc} for s in _specs(params)])
    ptab = ptab.sort_values("parameter", key=lambda c: ~c.isin(list(changed)), kind="stable").reset_index(drop=True)
    sections.append(Section("parameters", "Parameters", [
        Block("text", "Changed from the rulebook: " + (", ".join(f"{k} = {v}" for k, v in changed.items())
                                                       if changed else "nothing (the rulebook's rules).")),
        Block("table", table_html(ptab))]))

    repro = pd.DataFrame([{"players": n, "games": runs[n].games, "seed": seed, "lineup": ", ".join(runs[n].lineup),
                           "precision target": precision, "target met": runs[n].target_met} for n in counts])
    sections.append(Section("reproduce", "Sample sizes and how to reproduce", [
        Block("table", table_html(repro)),
        Block("pre", f"gamelab {__version__}\n" + _command(game, params, n_games, seed, precision))]))

    blocks = []
    for n in counts:
        b, v = win_section_blocks(frames[n], ad.report_groups, n)
        blocks += b
        verdicts += v
    sections.append(Section("win-rates", "Win rates", blocks))

    met = pd.DataFrame([{"players": n, **stats.design_metrics(frames[n]),
                         "mean score": frames[n]["score"].mean()} for n in counts])
    sections.append(Section("metrics", "Design metrics", [
        Block("text", "balance: 1 minus the largest gap between seat win rates; first-seat advantage: seat 1's "
                      "win rate minus 1/players; decisiveness: share of games with a single winner; margin: mean "
                      "score gap between first and second place."),
        Block("table", table_html(met))]))
    group = ad.report_groups[0] if ad.report_groups else "seat"
    sections.append(Section("scores", "Score distributions",
                            [Block("figure", score_figure(frames, group), caption=f"Final scores by {group}")]))

    ref_n = 4 if 4 in frames else counts[0]
    ids = identity_table(game, params, frames=frames)
    holds = ids["status"].str.startswith("holds").sum()
    sections.append(Section("identities", "Identities", [
        Block("text", f"Exact values from the parameters; simulated values from this report's games (rows "
                      f"without a player count: the {ref_n}-player games)."),
        Block("table", table_html(ids))]))
    if len(ids):
        verdicts.append(("ok" if holds == len(ids) else "warn", f"Identities: {holds} of {len(ids)} hold."))

    if baseline is not None:
        blocks = [Block("text", "Paired differences (this report's parameters minus the baseline), played on "
                                "the same deals; an interval that excludes 0 is a real change.")]
        for n in counts:
            base = sweep.run_cell(game, {"n_players": n}, executor=executor, lineup=lineups.get(n),
                                  **{**kw, "base_params": baseline})
            for by in ad.report_groups:
                if by in frames[n]:
                    d = sweep.paired_difference(frames[n], base.frame, by=by)
                    blocks += [Block("heading", f"{n} players, by {by}"), Block("table", table_html(d))]
        diff = {k: (getattr(baseline, k), v) for k, v in params.as_dict().items() if getattr(baseline, k) != v}
        blocks.insert(0, Block("text", "Baseline differs in: " + ", ".join(f"{k}: {a} -> {b}" for k, (a, b) in diff.items())))
        sections.append(Section("diff", "Against the baseline", blocks))

    if claims:
        blocks, counts_in = _claims_blocks(game, n_games, seed, workers, progress)
        if counts_in:
            verdicts.append(("ok" if counts_in[0] == counts_in[1] else "warn",
                             f"Rulebook claims: {counts_in[0]} of {counts_in[1]} published cells reproduced."))
        errata = errata_text(game)
        blocks += [Block("heading", "Errata"), Block("pre", errata or "None recorded.")]
        sections.append(Section("claims", "Rulebook claims audit and errata", blocks))

    if playtests:
        sections.append(Section("playtests", "Playtest replays", playtest_blocks(playtests)))

    sections.append(Section("assumptions", "Model assumptions", [Block("text", ad.assumptions or
                                                                       "See docs/agents.md.")]))
    sections.insert(0, Section("summary", "Summary verdict", [Block("list", verdicts, css="verdict")]))

    env = Environment(loader=PackageLoader("gamelab", "templates"), autoescape=select_autoescape(["j2", "html"]))
    html = env.get_template("report.html.j2").render(
        title=f"{ad.title or game} balance report" + (f": {label}" if label else ""), version=__version__,
        built=_dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
        subtitle=f"players {', '.join(map(str, counts))}; seed {seed}", sections=sections)
    out = Path(out or Path("reports") / f"{game}.html")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")
    return out


def playtest_blocks(paths) -> list:
    """Each record replayed through the rules: its ledger tables and every
    figure of its ``expect`` the rules do not give."""
    from . import playtest

    blocks = []
    for path in paths:
        ledger = playtest.replay_file(path)
        module = importlib.import_module(playtest.GAMES[ledger["game"]])
        blocks.append(Block("heading", f"{Path(path).name} ({ledger['game']})"))
        mism = ledger["mismatches"]
        items = [("warn", f"{m['key']}{''.join(f'[{i}]' for i in m['index'])}: record says {m['expected']!r}, "
                          f"rules give {m['actual']!r}") for m in mism]
        blocks.append(Block("list", items or [("ok", "The record's expect agrees with the rules everywhere.")]))
        for title, frame in module.tables(ledger):
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
