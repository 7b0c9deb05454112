"""The skill ladder, trace, luck and styles in words and plain text for the command line and the report."""

from __future__ import annotations

import numpy as np

from gamelab.core.contract import Game
from gamelab.decide.ladder import Climb
from gamelab.models.trace import Trace


def render(levels: list[dict], luck_measures: dict | None = None) -> str:
    """Plain text for the command line."""
    lines = [f"{'level':>5}  {'agent':<16} {'vs below':<16} {'win rate':>9}  95% interval     games"]
    for r in levels:
        if r["win_rate_vs_below"] is None:
            lines.append(f"{r['level']:>5}  {r['agent']:<16} (weakest)")
            continue
        mark = "beats it" if r["beats_below"] else "does not beat it"
        lines.append(
            f"{r['level']:>5}  {r['agent']:<16} {r['below']:<16} {100 * r['win_rate_vs_below']:8.1f}%  "
            f"[{100 * r['low']:5.1f}, {100 * r['high']:5.1f}]  {r['games']:>6}  {mark}"
        )
    if levels:
        lines.append(f"fair share of one seat: {100 * levels[0]['fair']:.1f}%")
    if luck_measures:
        m = luck_measures
        lines.append(
            f"luck: one {m['weakest']} seat against {m['strongest']} wins {100 * m['weakest_wins']:.1f}% "
            f"[{100 * m['low']:.1f}, {100 * m['high']:.1f}] of {m['games']} games (fair {100 * m['fair']:.1f}%); "
            + (
                f"the deal explains {100 * m['deal_share']:.0f}% of its score variance"
                if np.isfinite(m["deal_share"])
                else "how much of its score variance the deal explains cannot be measured (one rotation per deal)"
            )
        )
    return "\n".join(lines)


def steps_words(t: Trace) -> str:
    """The decided ladder in words: the rungs that beat one another, where
    skill stops and the headroom, and the games the tests took."""
    if any(s.get("decision") == "interval" for s in t.steps):  # levels measured, not decided
        fails = [s for s in t.steps if not s["beats"]]
        return "Levels measured, not decided: " + (
            "each beats the one below by its interval."
            if not fails
            else "; ".join(
                f"{s['level']} does not beat {s['below']} ({100 * s['win_rate']:.1f} % for one seat, fair "
                f"{100 / t.players:.1f} %, not above it)"
                for s in fails
            )
            + "."
        )
    if not t.steps and t.stop is None:
        if t.decided_at:
            return f"The rungs were decided at {t.decided_at} players; here the metric is measured at them."
        return "No step of the ladder was decided."
    top = t.steps[-1]["level"] if t.steps else t.rows[0]["level"]
    return ladder_words(t.game, top, t.steps, t.stop, t.headroom, t.ladder_games, t.players)


def metric_words(t: Trace) -> tuple[str, bool]:
    """The traced metric's label from its declaration (``style spread``) and
    whether it reads in points (shares and spreads of shares)."""
    from gamelab.stats import balance

    m = balance.metric(t.game, t.metric)
    return m.label, bool(m.percent)


def _in_points(t: Trace) -> bool:
    """Whether the traced metric reads in points (a spread) rather than per cent (a win rate)."""
    from gamelab.stats import balance, balance_metric

    return balance_metric.in_points(balance.metric(t.game, t.metric))


def trace_sentence(t: Trace) -> str:
    """The answer first: how the metric moves from random play to the strongest search."""
    label, pct = metric_words(t)
    measured = [r for r in t.rows if r["value"] is not None]
    if len(measured) < 2:
        return f"The {label} could not be measured at two skill levels."

    def amount(x):
        return (f"{100 * x:.1f} points" if _in_points(t) else f"{100 * x:.1f} %") if pct else f"{x:.3g}"

    first, last = measured[0], measured[-1]
    return (
        f"The {label} is {amount(first['value'])} at the {first['level']} level and {amount(last['value'])} "
        f"at the strongest ({last['level']}); levels named agent@b search with a budget of b."
    )


def render_trace(t: Trace) -> str:
    """Plain text for the command line: the answer in a sentence, the levels, the matrix."""
    label, pct = metric_words(t)

    def num(x):
        return "—" if x is None else (f"{100 * x:.1f}" if pct else f"{x:.3g}")

    unit = (" (points)" if _in_points(t) else " (%)") if pct else ""
    lines = [trace_sentence(t), steps_words(t), ""]
    lines.append(f"{'level':<14} {'agent':<28} {'budget':>6}  {label + unit:>22}  95% interval   games")
    for r in t.rows:
        interval = "" if r["value"] is None else f"[{num(r['low'])}, {num(r['high'])}]"
        b = "" if r["budget"] is None else str(r["budget"])
        lines.append(
            f"{r['level']:<14} {r['agent'][:28]:<28} {b:>6}  {num(r['value']):>22}  {interval:<14} {r['games']:>6}"
            + (f"  ({r['note']})" if r.get("note") else "")
        )
    if t.fair is not None:
        lines.append(f"fair: {num(t.fair)}{' ' + unit.strip(' ()') if unit else ''}")
    if t.steps or t.stop:
        lines.append("\nsteps (one seat of the rung among the rung below, sequential test, 2 points over fair):")
        shown = t.steps + ([t.stop] if t.stop else [])
        if t.headroom:
            shown.append(dict(t.headroom, level=f"headroom: {t.headroom['level']}"))
        for s in shown:
            lines.append(
                f"  {s['level']:<22} vs {s['below']:<14} {100 * s['win_rate']:5.1f} % "
                f"[{100 * s['low']:5.1f}, {100 * s['high']:5.1f}]  {s['decision']:<9} {s['games']:>7,} games"
            )
    if t.styles:
        lines.append("\nstyles by restricted play (one seat restricted to the style among unrestricted seats):")
        for r in t.styles:
            lines.append(
                f"  {r['rung']:<10} {r['style']:<13} {100 * r['win_rate']:5.1f} % "
                f"[{100 * r['low']:5.1f}, {100 * r['high']:5.1f}]  {r['games']:>6} games  {r['edge']} fair"
            )
    names = [r["level"] for r in t.rows]
    cell = {(c["row"], c["column"]): c for c in t.matrix}
    lines.append(
        "\nhead to head: one seat of the row's level among the column's (win rate %, fair "
        f"{100 / t.players:.1f} %; * = interval above fair)"
    )
    w = max(11, max(len(n) for n in names) + 2)  # column width: the longest level name
    lines.append(" " * 14 + "".join(f"{n:>{w}}" for n in names[:-1]))
    for hi in names[1:]:
        parts = []
        for lo in names[:-1]:
            c = cell.get((hi, lo))
            parts.append(" " * w if c is None else f"{100 * c['win_rate']:>{w - 2}.1f}{'*' if c['beats'] else ' '} ")
        lines.append(f"{hi[:14]:<14}" + "".join(parts))
    return "\n".join(lines)


def level_ticks(game: Game, levels: list[str]) -> tuple[list[str], str]:
    """A trace chart's x ticks in the game's words: a search rung by its
    budget alone (``best@8`` -> ``8``) and one line saying what the number is
    (``N: search, N play-outs per option``); other levels as named."""
    from gamelab.core import budgets
    from gamelab.core.labels import agent_label

    searched = [parts for lv in levels if (parts := budgets.split(lv))]
    ticks = [str(b) if (b := budgets.budget_of(lv)) else lv for lv in levels]
    if not searched:
        return ticks, ""
    return ticks, "N: " + agent_label(game, f"{searched[0][0]}{budgets.SEPARATOR}N")


def verdict_words(subject: str, t: Trace, kind: str) -> str:
    """``seat 1's edge holds at every skill level (41.7 % with the default
    model, 45.6 % with best@8)``."""
    measured = [r for r in t.rows[1:] if r["value"] is not None]
    pct = t.metric.startswith("win_rate[") or t.metric.endswith(("_spread", "_gap"))

    def num(x):
        return f"{100 * x:.1f} %" if pct else f"{x:.3g}"

    if not measured:
        return f"{subject}: not measured above random play"
    first, last = measured[0], measured[-1]
    return (
        f"{subject} {kind} ({num(first['value'])} with the {first['level']} model"
        if first["level"] == "default"
        else f"{subject} {kind} ({num(first['value'])} with {first['level']}"
    ) + f", {num(last['value'])} with the strongest search, {last['level']})"


def rung_words(game: Game, name: str) -> str:
    """A rung in the game's words (``GAME.skill.rung_words``; else its name)."""
    words = game.skill.rung_words
    return words(name) if words else name


def climb_words(game: Game, c: Climb, players: int) -> str:
    """:func:`ladder_words` of a climb."""
    accepted = [s for s in c.steps if s["beats"]]
    return ladder_words(game, c.rungs[-1].name, accepted, c.stop, c.headroom, c.games, players)


def ladder_words(game: Game, top: str, accepted, stop, headroom, games: int, players: int) -> str:
    """The rungs that beat one another (``accepted`` steps), where skill
    stops (``stop``) and the headroom, with the games the tests took."""

    def pct(x):
        return f"{100 * x:.1f} %"

    parts = []
    if accepted:
        parts.append(
            "Each rung beats the one below (one seat among the rung below, decided by the sequential test): "
            + "; ".join(
                f"{rung_words(game, s['level'])} {pct(s['win_rate'])} against {rung_words(game, s['below'])} "
                f"({s['games']:,} games)"
                for s in accepted
            )
            + "."
        )
    if stop is not None:
        why = (
            "a sample that could have shown 2 points did not"
            if stop["decision"] == "no"
            else f"{stop['games']:,} games did not settle it"
        )
        parts.append(
            f"Skill stops at {rung_words(game, top)}: {rung_words(game, stop['level'])} wins "
            f"{pct(stop['win_rate'])} [{pct(stop['low'])}, {pct(stop['high'])}] against it "
            f"(fair {pct(stop['fair'])}; {why}, {stop['games']:,} games)."
        )
    if headroom is not None:
        h = headroom
        low_ceiling = h["high"] < h["fair"] + 0.05
        parts.append(
            f"Skill headroom: one seat of the top rung, {rung_words(game, top)}, among default-model players "
            f"wins {pct(h['win_rate'])} [{pct(h['low'])}, {pct(h['high'])}] against a fair {pct(h['fair'])} "
            f"({h['games']:,} games)" + ("; a low ceiling: skill buys little in this game." if low_ceiling else ".")
        )
    parts.append(f"The ladder's tests took {games:,} games at {players} players.")
    return " ".join(parts)


def style_words(game: Game, rows: list[dict]) -> str:
    """The styles' edges at the top rung of ``rows`` in words (restricted play)."""
    if not rows:
        return ""
    top = rows[-1]["rung"]
    at = [r for r in rows if r["rung"] == top]
    best = max(at, key=lambda r: r["win_rate"])
    worst = min(at, key=lambda r: r["win_rate"])

    def pct(x):
        return f"{100 * x:.1f} %"

    def said(r):
        return f"the {r['style'].replace('_', ' ')} style {pct(r['win_rate'])} [{pct(r['low'])}, {pct(r['high'])}]"

    return (
        f"Styles at {rung_words(game, top)} (the rung's player restricted to each style's defining choice, "
        f"one seat among unrestricted ones, fair {pct(best['fair'])}): {said(best)} wins the most, {said(worst)} "
        "the least."
    )


def learned_words(game: Game, found: dict) -> str:
    """The learned rung's tests in words."""
    t = found["tests"]

    def said(step: dict) -> str:
        return (
            f"{100 * step['win_rate']:.1f} % [{100 * step['low']:.1f}, {100 * step['high']:.1f}] for one seat, "
            f"{step['decision']} after {step['games']:,} games"
        )

    top = rung_words(game, found["top"])
    return "\n".join(
        (
            f"learned rung ({found['rung']}):",
            f"  one seat among the default model: {said(t['beats_default'])} (beats it: yes wanted)",
            f"  one seat of {top} among it: {said(t['top_beats_it'])} (2 points over fair: no wanted)",
            f"  one seat of it among {top}: {said(t['holds_vs_top'])} (not below fair - 2 points: yes wanted)",
            *([style_words(game, found["styles"])] if found.get("styles") else []),
        )
    )
