"""One formatting layer for everything a designer reads: report tables,
notebook panels, sliders and charts.

Labels come from the declarations, never from column keys typed again: a
parameter's label and tooltip from its :func:`gamelab.core.params.param` (name,
doc, rulebook section), a metric's from :class:`gamelab.stats.balance_metric.Metric`
(``label``, ``percent``), the runner's own columns from :data:`COLUMN_LABELS`.
Rates are shown as percentages, other numbers with sensible decimals, a
missing value as an empty cell (never ``nan``), and tables without their
index column.

    from gamelab import format as fmt
    fmt.table_html(stats.win_table(frame, "seat"))      # a report table
    fmt.styler(stats.win_table(frame, "seat"))          # the same in a notebook
    fmt.win_rate_chart([fmt.WinPanel("4 players", table, "seat", 0.25)])
"""

from __future__ import annotations

import dataclasses
import html
import math
import re
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from gamelab.core.labels import CHOICE_WORDS, doc_words, value_words
from gamelab.stats.tables import percent_rows  # noqa: F401 (one formatting vocabulary: reports and panels)

#: the shared layer's own column keys, in words
COLUMN_LABELS = {
    "win_rate": "win rate",
    "win_low": "low",
    "win_high": "high",
    "n": "sample",
    "seats": "seats",
    "wins": "wins",
    "share_of_games_won": "share of games won",
    "score_mean": "mean score",
    "score_low": "score low",
    "score_high": "score high",
    "sim_low": "low",
    "sim_high": "high",
    "value": "value",
    "low": "low",
    "high": "high",
    "deals": "deals",
    "games": "games",
    "players": "players",
    "n_players": "players",
    "p_star": "trust threshold p*",
    "p_with_replacement": "chance a partner fits (with replacement)",
    "p_without_replacement": "chance a partner fits (one deck)",
    "change": "change",
    "base": "baseline",
    "diff": "difference",
    "diff_low": "low",
    "diff_high": "high",
    "mean score": "mean score",
    "target met": "target met",
    "precision target": "precision target",
    "first_seat_advantage": "first-seat advantage",
    "mean_margin": "winning margin",
    "decisiveness": "decisive games",
    "lead_changes": "lead changes",
    "game_length": "game length",
}

#: columns holding a rate (a share of 1): shown as percentages
RATE_COLUMNS = {
    "win_rate",
    "win_low",
    "win_high",
    "share_of_games_won",
    "p_star",
    "p_with_replacement",
    "p_without_replacement",
    "balance",
    "first_seat_advantage",
    "decisiveness",
}

MISSING = ""
FAIR_COLOUR = "#555555"
POINT_COLOUR = "#1f5fa8"
CLEAR_COLOUR = "#c0392b"

_KEY = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)+$")


# -- words -----------------------------------------------------------------------------


def words(key) -> str:
    """A snake_case key in words (``mean_final_square`` -> ``mean final square``);
    anything else unchanged."""
    text = str(key)
    if text in COLUMN_LABELS:
        return COLUMN_LABELS[text]
    return text.replace("_", " ") if _KEY.match(text) else text


def choice_label(value) -> str:
    """A dropdown value in words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return CHOICE_WORDS.get(str(value), str(value).replace("_", " "))


def group_words(by: str, group) -> str:
    """How a sentence names a group in its middle: ``seat 1``, ``the heavy style``."""
    return f"seat {group}" if by == "seat" else f"the {choice_label(group)} {words(by)}"


def param_label(spec, item: int | None = None) -> str:
    """A parameter's label: its name in words; a list's item by its declared
    name (``relic points: skull``) or else its number (``node values 3``)."""
    name = spec.name.replace("_", " ")
    if item is None:
        return name
    names = getattr(spec, "items", None)
    if names and item < len(names):
        return f"{name}: {names[item]}"
    return f"{name} {item + 1}"


def param_tooltip(spec) -> str:
    """What a parameter means, where the rulebook says so and what it may be."""
    parts = [doc_words(spec.doc).rstrip(".") + "." if spec.doc else spec.name.replace("_", " ") + "."]
    if spec.section:
        parts.append(f"Rulebook {spec.section}.")
    default = spec.default
    if isinstance(default, tuple):
        default = value_words(default) if len(default) <= 12 else f"{len(default)} items"
    if spec.choices is not None:  # the choices in words, as the dropdown shows them
        allowed = ", ".join(choice_label(c) for c in spec.choices)
    elif spec.kind is bool:
        allowed, default = "on or off", "on" if default else "off"
    else:
        allowed = spec.allowed()
    parts.append(f"Rulebook value: {choice_label(default) if spec.choices else default}; allowed: {allowed}.")
    return " ".join(parts)


def metric_labels(game) -> dict[str, str]:
    """Every metric of ``game`` (see :func:`gamelab.stats.balance.catalogue`) by its label."""
    from gamelab.stats.balance import catalogue

    return {name: m.label for name, m in catalogue(game).items()}


def metric_percent(game) -> set[str]:
    from gamelab.stats.balance import catalogue

    return {name for name, m in catalogue(game).items() if m.percent}


def column_label(column, game=None) -> str:
    if game is not None:
        labels = metric_labels(game)
        if column in labels and column not in COLUMN_LABELS:
            return labels[column]
    return words(column)


# -- numbers ---------------------------------------------------------------------------


def is_missing(x) -> bool:
    if x is None or x is pd.NA or x is pd.NaT:
        return True
    try:
        return isinstance(x, (float, np.floating)) and math.isnan(x)
    except TypeError:
        return False


def number(x, *, percent: bool = False, decimals: int | None = None, signed: bool = False) -> str:
    """A number as a designer reads it: ``7,711``, ``41.7 %``, ``0.416``,
    ``3.25``; a missing value as an empty string."""
    if is_missing(x):
        return MISSING
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if not isinstance(x, (int, float, np.integer, np.floating)):
        return str(x)
    x = float(x)
    if percent:
        x *= 100
        d = 1 if decimals is None else decimals
        return _minus(f"{x:+.{d}f} %" if signed else f"{x:.{d}f} %")
    if decimals is None:
        decimals = _decimals(x)
    sign = "+" if signed else ""
    return _minus(f"{x:{sign},.{decimals}f}")


def _decimals(x: float) -> int:
    """No decimals for whole numbers and big ones, three significant digits
    for the rest (at most four decimals)."""
    if x == int(x) or abs(x) >= 100:
        return 0
    if abs(x) >= 10:
        return 1
    if abs(x) >= 1:
        return 2
    return min(4, max(3, 2 - int(math.floor(math.log10(abs(x)))) if x else 3))


def rate(x) -> str:
    """A rate (a share of 1) as every report table, sentence and panel shows one: a percentage to one
    decimal, ``27.5 %``, ``76.0 %``, ``2.4 %`` (the Design metrics table's figure for the same quantity)."""
    return number(x, percent=True)


def points(x) -> str:
    """A difference of rates in percentage points: ``+16.7 points``."""
    return MISSING if is_missing(x) else _minus(f"{x * 100:+.1f} points")


def interval(low, high, *, percent: bool = False) -> str:
    if is_missing(low) or is_missing(high):
        return MISSING
    sep = " to " if low < 0 or high < 0 else "–"
    if percent:
        a, b = _minus(f"{low * 100:.1f}"), _minus(f"{high * 100:.1f}")
        return f"{a} %" if a == b else f"{a}{sep}{b} %"  # both ends agree as shown: one figure ("100.0 %")
    a, b = _minus(number(low)), _minus(number(high))
    return a if a == b else f"{a}{sep}{b}"


def _minus(text: str) -> str:
    return text.replace("-", "−", 1) if text.startswith("-") else text


# -- quantities --------------------------------------------------------------------------
#
# One number per quantity (issue 37): every figure a report prints is tagged with the name of the
# quantity it shows and its full value, so a checker (:mod:`gamelab.report.onenumber`) can read the
# saved page and find two figures of one quantity that disagree.  A tag travels inside a plain string
# (three private-use characters that no text uses) and becomes ``<span class="q" data-q=NAME
# data-v=VALUE data-scale=SCALE>shown</span>`` when the page is drawn (:func:`tagged_html`).

Q_OPEN, Q_SEP, Q_CLOSE = "\ue000", "\ue001", "\ue002"
_TAG = re.compile(f"{Q_OPEN}([^{Q_SEP}]*){Q_SEP}([^{Q_SEP}]*){Q_SEP}([^{Q_SEP}]*){Q_SEP}([^{Q_CLOSE}]*){Q_CLOSE}")


def qname(kind: str, **keys) -> str:
    """A quantity's name: ``win_rate[players=4,seat=1]`` (``kind`` and its keys in order)."""
    return f"{kind}[" + ",".join(f"{k}={v}" for k, v in keys.items()) + "]"


def quantity(name: str, value, text: str, scale: float = 1.0) -> str:
    """``text`` (the figure as shown, ``value * scale`` rounded) tagged as quantity ``name``; a
    missing value stays untagged text."""
    if is_missing(value) or not name:
        return text
    return f"{Q_OPEN}{name}{Q_SEP}{float(value)!r}{Q_SEP}{scale:g}{Q_SEP}{text}{Q_CLOSE}"


def q_percent(name: str, value, decimals: int = 1) -> str:
    """``41.9 %`` tagged."""
    return quantity(name, value, number(value, percent=True, decimals=decimals), 100)


def q_points(name: str, value, *, unit: bool = True) -> str:
    """``+16.7 points`` (a difference of shares) tagged; ``unit=False``: ``+16.7``."""
    text = points(value)
    return quantity(name, value, text if unit else text.removesuffix(" points"), 100)


def q_interval(name: str, low, high, *, percent: bool = False, unit: bool = True) -> str:
    """``41.1–42.8 %``: the two ends of ``name``'s 95 % interval (``name.low``, ``name.high``) tagged."""
    text = interval(low, high, percent=percent)
    if not text:
        return text
    scale = 100 if percent else 1
    sep = " to " if low < 0 or high < 0 else "–"
    tail = " %" if percent and unit else ""
    if sep not in text:  # both ends agree as shown: one figure (``interval``), the low end's
        return quantity(f"{name}.low", low, text.removesuffix(" %"), scale) + tail
    lo_text, hi_text = text.removesuffix(" %").split(sep)
    return quantity(f"{name}.low", low, lo_text, scale) + sep + quantity(f"{name}.high", high, hi_text, scale) + tail


def outside_tags(text, change) -> str:
    """``change`` applied to a tagged string's words, never to its tags (a quantity's name keeps its ``_``)."""
    text, out, at = str(text), [], 0
    for m in _TAG.finditer(text):
        out += [change(text[at : m.start()]), m.group(0)]
        at = m.end()
    return "".join([*out, change(text[at:])])


def untagged(text: str) -> str:
    """A tagged string as plain text (what a notebook or a terminal prints)."""
    return _TAG.sub(lambda m: m.group(4), str(text))


def tagged_html(text) -> str:
    """A tagged string as escaped HTML, each tag a ``<span class="q">`` with its quantity's name,
    value and scale (the figure's unit: 100 for a percentage or points)."""
    out, at = [], 0
    text = str(text)
    for m in _TAG.finditer(text):
        out.append(html.escape(text[at : m.start()]))
        name, value, scale, shown = (html.escape(x, quote=True) for x in m.groups())
        out.append(f'<span class="q" data-q="{name}" data-v="{value}" data-scale="{scale}">{shown}</span>')
        at = m.end()
    out.append(html.escape(text[at:]))
    return "".join(out)


def chart_data(values: dict[str, float]) -> str:
    """The values a chart plots, by quantity name, as an empty element to put beside the chart in a
    page (a drawing cannot be read back; no script: the page runs none): the checker
    (:mod:`gamelab.report.onenumber`) compares them with the figures the text prints."""
    import json

    clean = {k: float(v) for k, v in values.items() if not is_missing(v)}
    values_json = html.escape(json.dumps(clean, sort_keys=True), quote=True)
    return f'<div class="chart-data" hidden data-values="{values_json}"></div>'


# -- tables ----------------------------------------------------------------------------


def display_frame(df: pd.DataFrame, **kw) -> pd.DataFrame:
    """``df`` as the strings a designer reads: columns in words, rates in
    percent, sensible decimals, no ``nan``, no index (a meaningful index
    becomes the first column).  Keywords: ``percent`` (more rate columns),
    ``labels`` (column -> header), ``game`` (metric labels), ``keep``
    (columns to show, in order), ``decimals`` (column -> decimals),
    ``missing`` (the text of a missing value)."""
    return _prepare(df, **kw)[0]


def _prepare(
    df: pd.DataFrame,
    *,
    percent: Iterable[str] = (),
    labels: dict | None = None,
    game=None,
    missing: str = MISSING,
    keep: Sequence[str] | None = None,
    decimals: dict | None = None,
) -> tuple[pd.DataFrame, set]:
    """(the shown frame, the headers of its numeric columns)."""
    df = df.copy()
    named = isinstance(df.index, pd.MultiIndex) or df.index.name is not None
    df = df.reset_index(drop=not named)  # a named index is a column; a row number is not shown
    if keep is not None:
        df = df[[c for c in keep if c in df]]
    rates = set(RATE_COLUMNS) | set(percent) | (metric_percent(game) if game is not None else set())
    decimals, labels = decimals or {}, labels or {}
    out, numeric = pd.DataFrame(index=df.index), set()
    for col in df.columns:
        values = df[col]
        name = labels.get(col) or column_label(col, game)
        while name in out.columns:
            name += " "
        shown_values = [v for v in values if not (isinstance(v, str) and v == MISSING) and not is_missing(v)]
        if shown_values and all(isinstance(v, str) and v.startswith(Q_OPEN) for v in shown_values):
            text = [MISSING if is_missing(v) else v for v in values]  # figures already shown and tagged
            numeric.add(name)
        elif pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
            text = [number(v, percent=col in rates, decimals=decimals.get(col)) for v in values]
            numeric.add(name)
        else:
            text = [
                MISSING if is_missing(v) else (number(v) if isinstance(v, (bool, np.bool_)) else words(v))
                for v in values
            ]
        out[name] = [missing if t == MISSING else t for t in text]
    return out, numeric


def styler(df: pd.DataFrame, *, caption: str = "", **kw):
    """A notebook table: :func:`display_frame` as a pandas Styler, no index,
    numbers right-aligned, text left-aligned."""
    shown, num = _prepare(df, **kw)
    shown = shown.map(lambda v: untagged(v) if isinstance(v, str) else v)  # a notebook shows no quantity tags
    sty = shown.style.hide(axis="index")
    text = [c for c in shown.columns if c not in num]
    if num:
        sty = sty.set_properties(subset=sorted(num), **{"text-align": "right", "font-variant-numeric": "tabular-nums"})
    if text:
        sty = sty.set_properties(subset=text, **{"text-align": "left"})
    sty = sty.set_table_styles([{"selector": "th", "props": [("text-align", "left")]}])
    if caption:
        sty = sty.set_caption(caption)
    return sty


def table_html(df: pd.DataFrame, *, css: str = "", **kw) -> str:
    """A report table: every cell escaped, no index, numbers in cells of
    class ``num`` (right-aligned by the page's style)."""
    shown, num = _prepare(df, **kw)

    def cell(tag, column, value):
        cls = ' class="num"' if column in num else ""
        return f"<{tag}{cls}>{tagged_html(str(value).strip() if tag == 'th' else str(value))}</{tag}>"

    head = "".join(cell("th", c, c) for c in shown.columns)
    body = "".join(
        "<tr>" + "".join(cell("td", c, v) for c, v in zip(shown.columns, row)) + "</tr>"
        for row in shown.itertuples(index=False)
    )
    cls = f' class="{html.escape(css)}"' if css else ""
    return f"<table{cls}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def measure_frame(table: pd.DataFrame, columns=("value", "low", "high")) -> pd.DataFrame:
    """A measures table (:func:`gamelab.stats.tables.percent_rows`: a rate row's numbers times 100, `` (%)``
    after its label) with each rate in % in its cells, as every other table shows a rate (``2.65 %``, the
    label without ``(%)``), each figure tagged as its measure; any other table unchanged."""
    if "measure" not in table:
        return table
    out = table.astype(object)
    for i, label in table["measure"].items():
        percent = str(label).endswith(" (%)")
        name = str(label).removesuffix(" (%)")
        out.at[i, "measure"] = name
        for c in columns:
            if c in table:
                v = table.at[i, c]
                v = v / 100 if percent and not is_missing(v) else v
                shown = rate(v) if percent else number(v)
                out.at[i, c] = quantity(qname("measure", name=name, column=c), v, shown, 100 if percent else 1)
    return out


def identity_frame(ids: pd.DataFrame) -> pd.DataFrame:
    """An identity table (:func:`gamelab.rulebook.identities.identity_table`) as the figures a designer
    reads, each in its row's declared format (a rate in % in every column: ``Row.percent``) and tagged
    as the row's quantity; ``interval`` joins the simulated 95 % interval's ends, ``status`` gives a
    gap between rates in points.  Tables (:func:`table_html`, :func:`styler`) show it as it is."""
    from gamelab.rulebook.identities import DIFFERS, VALUE_COLUMNS, gap_words

    out = ids.drop(columns=["percent"], errors="ignore").astype(object)
    percents = ids["percent"] if "percent" in ids else pd.Series(False, index=ids.index)
    intervals, statuses = [], []
    for i, row in ids.iterrows():
        percent = bool(percents[i])
        base = qname("identity", row=f"{row['identity']} {row['quantity']}")
        scale = 100 if percent else 1
        for c in VALUE_COLUMNS:
            if c in ids:
                v = row[c]
                out.at[i, c] = quantity(f"{base}.{c}", v, rate(v) if percent else number(v), scale)
        lo, hi = row.get("sim_low"), row.get("sim_high")
        if is_missing(lo) or is_missing(hi):
            intervals.append(MISSING)
        elif percent:
            a, b = rate(lo).removesuffix(" %"), rate(hi).removesuffix(" %")
            sep = " to " if lo < 0 or hi < 0 else "–"
            ends = [quantity(f"{base}.sim_low", lo, a, 100)]
            if a != b:  # both ends agree as shown: one figure (``100 %``)
                ends.append(quantity(f"{base}.sim_high", hi, b, 100))
            intervals.append(sep.join(ends) + " %")
        else:
            intervals.append(q_interval(f"{base}.simulated", lo, hi))
        status = str(row.get("status", ""))
        exact, claimed = row.get("exact"), row.get("rulebook")
        gap = None if is_missing(exact) or is_missing(claimed) else float(exact) - float(claimed)
        said = f"{DIFFERS} by {gap_words(gap, percent)}" if gap is not None else None
        if said and status.startswith(said) and percent:
            status = f"{DIFFERS} by " + q_points(f"{base}.gap", gap) + status[len(said) :]
        statuses.append(status)
    if "n" in out:
        out["n"] = [
            MISSING if is_missing(n) else quantity(qname("identity_games", row=f"{r} {q}"), int(n), number(int(n)))
            for r, q, n in zip(ids["identity"], ids["quantity"], ids["n"])
        ]
    out.insert(
        list(out.columns).index("simulated") + 1 if "simulated" in out else len(out.columns), "interval", intervals
    )
    if "status" in out:
        out["status"] = statuses
    return out


# -- charts ----------------------------------------------------------------------------


@dataclasses.dataclass
class WinPanel:
    """One panel of a win-rate chart: a win table (``stats.win_table``) by a
    grouping, and the fair share (1 / players)."""

    title: str
    table: pd.DataFrame
    by: str
    fair: float
    players: int | None = None  # names the plotted quantities (a report's chart data)


def group_label(by: str, value) -> str:
    """``seat 1``, ``heavy``: a group as the chart and the sentences name it."""
    return f"seat {value}" if by == "seat" else choice_label(value)


def chart_limit(tables: Iterable[pd.DataFrame], fair: Iterable[float] = ()) -> float:
    """The shared upper end of the win-rate axis, in percent (a multiple of 10)."""
    top = max([float(t["win_high"].max()) for t in tables if len(t)] + list(fair) + [0.1])
    return min(100.0, 10 * math.ceil((top * 100 + 1) / 10))


#: chart text in points: at a figure's own size (100 dpi) 9.5 pt is 13 px, and a 10-inch chart
#: squeezed into a 1366 x 900 laptop's report column (about 1,000 px) keeps it above 11 px
TICK_PT, TITLE_PT = 9.5, 10.5
LEGEND_PT = 8  # a legend inside a panel of a 10-inch chart: 12 px in that column


def score_edges(frames: dict, bins: int) -> np.ndarray:
    """Shared histogram edges: one bin per whole score when scores are whole
    and their range is small (no empty gaps between bins), else ``bins`` bins."""
    scores = np.concatenate([f["score"].to_numpy(float) for f in frames.values()])
    lo, hi = float(scores.min()), float(scores.max())
    if np.all(scores == np.round(scores)) and hi - lo <= 2 * bins:
        step = max(1, math.ceil((hi - lo + 1) / bins))
        return np.arange(lo - 0.5, hi + step + 0.5, step)
    return np.linspace(lo, hi + 1e-9, bins + 1)
