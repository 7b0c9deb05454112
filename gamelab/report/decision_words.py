"""The decision tools' results in words: the levers' rows, the verdicts across skill and across
agent models in sentences, and their figures tagged with their quantities (for the one-number checker)."""

from __future__ import annotations

import dataclasses
import re
import types
from collections.abc import Mapping

import pandas as pd

from gamelab.core.contract import Game
from gamelab.decide.sensitivity import Framing
from gamelab.report import format as fmt
from gamelab.report.names import lever_name, metric_name, trace_name, win_name


@dataclasses.dataclass(frozen=True)
class TaggedFraming(Framing):
    """A :class:`~gamelab.decide.sensitivity.Framing` whose figures in words (its "now" and each
    step's change) are tagged with their quantities (:func:`gamelab.report.format.quantity`): the
    Design metrics figure's name for "now", a step's own name for its change, so the checker
    (:mod:`gamelab.report.onenumber`) compares them with the tables and the tornado chart."""

    names: Mapping[float, str] = dataclasses.field(default_factory=dict)  # {a step's change: its quantity}

    def amount(self, x: float, unit: bool = True) -> str:
        return fmt.quantity(self.names.get(x, ""), x, super().amount(x, unit), 100 if self.percent else 1)

    def level(self) -> str:
        text = super().level()
        if self.players is None:
            return text
        name, scale = metric_name(self.players, self.metric), 100 if self.percent else 1
        figures = [(self.now, name)]
        if self.now_low is not None and self.now_high is not None:
            figures += [(self.now_low, f"{name}.low"), (self.now_high, f"{name}.high")]
        out, at = "", 0
        for value, q in figures:  # each figure where Framing.level put it, in order
            shown = f"{value * 100:.1f}" if self.percent else f"{value:.3g}"
            i = text.index(shown, at)
            out += text[at:i] + fmt.quantity(q, value, shown, scale)
            at = i + len(shown)
        return out + text[at:]


def tagged_framing(fr: Framing) -> TaggedFraming:
    """``fr`` with its figures tagged (:class:`TaggedFraming`)."""
    names: dict[float, str] = {}
    for x in [*fr.helps, *fr.hurts, *fr.unsure, *fr.idle]:
        names.setdefault(x.change, lever_name(fr.players, fr.metric, x.words))
    fields = {f.name: getattr(fr, f.name) for f in dataclasses.fields(fr)}
    return TaggedFraming(**fields, names=types.MappingProxyType(names))


TOP_LEVERS = 5


def lever_rows(fr, n_players: int) -> pd.DataFrame:
    """The top steps sure to help, then sure to hurt, as rows of words."""
    rows = []
    for levers, effect in ((fr.helps, "better"), (fr.hurts, "worse")):
        for x in levers[:TOP_LEVERS]:
            rows.append(
                {
                    "rule change": x.words,
                    f"change of the {fr.label} ({n_players} players)": fr.amount(x.change),
                    "95 % interval": f"{_end(fr, x, 'low')} to {_end(fr, x, 'high')}",
                    "effect": f"{effect}, sure",
                }
            )
    return pd.DataFrame(rows)


def _end(fr: Framing, x, end: str) -> str:
    """One end of a step's 95 % interval, tagged as its quantity's end."""
    value = getattr(x, end)
    text = Framing.amount(fr, value, unit=False)
    return fmt.quantity(f"{lever_name(fr.players, fr.metric, x.words)}.{end}", value, text, 100 if fr.percent else 1)


def across_words(game: Game, subject: str, t, kind: str, tests) -> str:
    """``seat 1's edge holds from the default model to the top rung (41.7 % with the default model in
    this report's 20,000 games, 45.6 % with search, 8 play-outs per option, the top rung that beats the
    one below, in the trace's 300 games; the class decided by sequential tests of their own after 3,072
    games)``.  The rates are the trace chart's (its default-model point is the report's own table);
    the tests are cited by their games, never as a second value of the same rates."""
    from gamelab.models import across_skill, skill_words

    games = sum(x["games"] for x in tests if x)
    rows = [r for r in t.rows if r["value"] is not None]
    at = {r["level"]: r for r in rows}
    top = t.rows[-1]
    default = at.get("default")
    said = []
    if default is not None:
        said.append(
            f"{fmt.q_percent(trace_name(t, 'default'), default['value'])} with the default model in this "
            f"report's {default['games']:,} games"
        )
    if top["value"] is not None and top["level"] != "default":
        said.append(
            f"{fmt.q_percent(trace_name(t, top['level']), top['value'])} "
            f"with {skill_words.rung_words(game, top['level'])}, "
            f"the top rung that beats the one below, in the trace's {top['games']:,} games"
        )
    figures = ", ".join(said)
    return (
        f"{subject} {across_skill.DECIDED_KINDS[kind]} ({figures}; the class decided by sequential tests of their own "
        f"after {games:,} games)"
    )


def skill_summary(table: pd.DataFrame) -> list[str]:
    """One sentence per player count: is the headline imbalance a property of
    the rules (it holds across skill) or of naive play?"""
    return [
        f"{r['players']} players: the headline imbalance is {skill_class_words(r)}; {r['words']}."
        for _, r in table.iterrows()
    ]


def skill_lead(table: pd.DataFrame) -> str:
    """The answer across skill in one sentence over every player count (the first screen's lead, above
    the charts): the counts grouped by their class, in the order the classes first appear."""
    by: dict[str, list[int]] = {}
    for _, r in table.iterrows():
        by.setdefault(skill_class_words(r), []).append(int(r["players"]))
    parts = [f"{what} at {_counts_words(counts)} players" for what, counts in by.items()]
    return "Across skill, the headline imbalance is " + "; ".join(parts) + " (each count's sentence under the charts)."


def _counts_words(counts: list[int]) -> str:
    said = [str(c) for c in counts]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def skill_class_words(r) -> str:
    """A row of the across-skill table in words: a property of the rules, of naive play, absent, or not decided."""
    status = r["status"]
    if r["rules"]:
        return "a property of the rules: skilled play keeps it"
    if status in (skill_kind("vanishes"), skill_kind("reverses")):
        return "a product of naive play: skilled play does not keep it"
    if status == skill_kind("absent"):
        return "not there at the default model or the top rung"
    return "not decided across skill"


def skill_kind(key: str) -> str:
    from gamelab.models import across_skill

    return across_skill.DECIDED_KINDS[key]


def tagged_leaders(table: pd.DataFrame, frames: dict, models: list[str], n: int) -> pd.DataFrame:
    """The strongest and weakest groups' rates (``seat 1 36.4 % (not sure)``) tagged with their
    quantity: under this report's model the report's win rate, under another model that model's;
    each value read from the model's games.  Rows of other verdicts (the rulebook's conclusions)
    unchanged."""
    from gamelab.stats import win_table

    out = table.copy()
    for i, row in table.iterrows():
        by = str(row.get("verdict", "")).split(" ")[-1]
        if not str(row.get("verdict", "")).startswith(("strongest ", "weakest ")):
            continue
        for m in models:
            cell = str(row.get(m, ""))
            hit = re.match(r"(.+?) (\d+\.\d) %", cell)
            if hit is None or by not in frames[m]:
                continue
            t = win_table(frames[m], by)
            said = {(f"seat {v}" if by == "seat" else str(v).replace("_", " ")): v for v in t[by]}
            if hit.group(1) not in said:
                continue
            group = said[hit.group(1)]
            rate = float(t.loc[t[by] == group, "win_rate"].iloc[0])
            name = win_name(n, by, group)
            name = name if m == "report" else fmt.qname("model_win_rate", model=m, of=name)
            out.at[i, m] = cell[: hit.start(2)] + fmt.q_percent(name, rate) + cell[hit.end(2) + 2 :]
    return out


def fmt_subject(by: str, group) -> str:
    """``seat 1``, ``the heavy style``."""
    from gamelab.report import format as fmt

    return f"seat {group}" if by == "seat" else f"the {fmt.choice_label(group)} {fmt.words(by)}"


def cross_model_summary(table: pd.DataFrame) -> list[str]:
    """The cross-model check in sentences, each verdict by its one
    statement (the table's status column, the headline's words): the
    headline verdicts first, then a count of the others."""
    from gamelab.models.crossmodel import HOLDS

    if table is None or not len(table):
        return []
    models = table.attrs.get("models") or {}
    games = table.attrs.get("games") or {}

    def with_games(name: str) -> str:
        counts = games.get(name) or []
        if not counts:
            return models[name]
        low, high = min(counts), max(counts)
        return f"{models[name]}, {low:,} games" if low == high else f"{models[name]}, {low:,}–{high:,} games"

    tried = "; ".join(with_games(name) for name in models)
    heads = table[table["words"].astype(str).str.startswith("the headline: ")]
    out = [f"{r['players']} players, {r['verdict']}: {r['status']}." for _, r in heads.iterrows()]
    rest = table.drop(heads.index)
    if len(rest):
        status = rest["status"].astype(str)
        every = int((status == HOLDS).sum())
        text = f"Of the {len(rest)} other verdicts (which group is strongest or weakest, and any rulebook conclusion)"
        text += f", {every} hold under every model we tried"
        counts = status[status != HOLDS].value_counts()
        if len(counts):
            text += "; " + "; ".join(f"{k}: {v}" for k, v in counts.items())
        text += f". The models, per player count: {tried} (with fewer games, more answers are not sure)"
        shaky = rest[status.str.startswith("only under")]
        if len(shaky):
            text += ". Only under some models: " + "; ".join(
                f"{r['players']} players, {r['verdict']} ({r['status']})" for _, r in shaky.head(6).iterrows()
            )
        out.append(text.replace("_", " ") + ".")
    return out
