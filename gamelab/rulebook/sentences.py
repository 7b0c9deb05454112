"""The rulebook sentences that change when the rules change (issue 22).

Every rules-decided claims row (``quantity`` set) is asked of the rules twice:
at the rulebook's parameters and at new ones.  A row *no longer holds* when
its printed figure is wrong under the new rules although it held under the
rulebook's, or when the new rules give another number than the rulebook's
rules did (an erratum whose figure moves is listed too).  The coverage map
(:mod:`gamelab.rulebook.coverage`) names the rulebook lines each row checks, so each
entry carries the sentence, the number printed, the number under the new
rules and the row behind it.  Rows the new rules no longer define (a player
count the new rules do not seat) are listed with no new number.

The simulated figures (appendices) are asked only on request
(``simulate``): each is measured at the rulebook's rules and at the new
ones, and listed when the two 95 % intervals part; the entry shows the new
figure with its interval.
"""

from __future__ import annotations

import math
import re

import pandas as pd

from gamelab.core.contract import Game
from gamelab.core.errors import ParamError
from gamelab.core.params import specs
from gamelab.rulebook import coverage
from gamelab.rulebook.claims import exact_audit, is_exact, load_claims
from gamelab.sim.run import RunConfig

COLUMNS = [
    "section",
    "line",
    "sentence",
    "printed",
    "rulebook",
    "new",
    "low",
    "high",
    "unit",
    "row",
    "quantity",
    "note",
]
SENTENCE_END = re.compile(r"(?<=[。；！？!?])\s*")
MAX_SENTENCE = 160  # characters of a sentence shown


def rules_of(game: Game, params):
    """The rule parameters of ``params`` (which may carry the agents' knobs too)."""
    rules = game.rules
    if params is None or type(params) is rules:
        return params
    return rules(**{s.name: getattr(params, s.name) for s in specs(rules())})


def exact_values(game: Game, params=None) -> dict:
    """``{quantity: value}`` of the game's exact rows (its ``Claims.exact_claims``)."""
    claims = game.rulebook.claims
    if claims is None:
        raise ParamError(f"{game.name} publishes no rulebook figures to check")
    return claims.exact_claims(rules_of(game, params))


def _lines_of(game: Game) -> tuple[dict, dict, dict]:
    """{row key: [line numbers]} and {line: section} from the coverage map,
    {line: text} from the rulebook (empty when it is not beside the checkout)."""
    try:
        cov = coverage.load_coverage(game.name)
    except FileNotFoundError:
        return {}, {}, {}
    by_key: dict[str, list[int]] = {}
    for r in cov.itertuples():
        for k in coverage.split_rows(r.rows):
            by_key.setdefault(k, []).append(int(r.line))
    path = coverage.seed_path(game.name)
    text = dict(enumerate(path.read_text(encoding="utf-8").splitlines(), 1)) if path.exists() else {}
    return by_key, dict(zip(cov["line"].astype(int), cov["section"])), text


def sentence(line: str, printed: str) -> str:
    """The sentence of ``line`` that states ``printed`` (else the whole line), shortened."""
    parts = [p for p in SENTENCE_END.split(line.strip()) if p]
    number = re.compile(rf"(?<![0-9.]){re.escape(printed)}(?![0-9])")
    hit = next((p for p in parts if number.search(p)), line.strip())
    return hit if len(hit) <= MAX_SENTENCE else hit[: MAX_SENTENCE - 1] + "…"


def _printed_in(row, numbers: set) -> bool:
    """Whether a line with these numbers prints the row's figure: the figure
    itself, or the rulebook's own form of it kept in the row (``19/25``)."""
    form = set(coverage.numbers_in(str(row["column"])))  # two numbers at least: "19/25", not "3 + node 3"
    return row["printed"] in numbers or len(form) >= 2 and form <= numbers


def _is_mark(unit: str) -> bool:
    """A row whose figure the rulebook prints as a mark or a statement (✅/⚠️, "1 = true")."""
    return "(1)" in str(unit) or "true" in str(unit)


def _fmt(x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return f"{x:g}" if isinstance(x, float) else str(x)


_RULEBOOK: dict[str, tuple[pd.DataFrame, pd.DataFrame]] = {}  # game name -> its exact rows, audited at the rulebook


def _at_rulebook(game: Game) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The game's exact claims rows and their audit at the rulebook's rules,
    computed once a process (the same for every new rule set asked)."""
    if game.name not in _RULEBOOK:
        claims = load_claims(game.name)
        rows = claims[is_exact(claims)].reset_index(drop=True)
        _RULEBOOK[game.name] = rows, exact_audit(rows, exact_values(game))
    return _RULEBOOK[game.name]


def _exact_part(game: Game, params) -> tuple[pd.DataFrame, pd.Series]:
    """The exact rows with ``key``, ``rulebook``, ``new`` and whether each moved."""
    rows, base = _at_rulebook(game)
    new = exact_audit(rows, exact_values(game, params))
    moved = ~new["inside"] & (base["inside"] | ~((new["ours"] - base["ours"]).abs() <= 1e-9))
    rows = rows.assign(key=rows["quantity"], rulebook=base["ours"], new=new["ours"], low=math.nan, high=math.nan)
    return rows, moved


def _simulated_part(game: Game, params, n_games: int, seed: int, workers: int) -> tuple[pd.DataFrame, pd.Series]:
    """The simulated rows at the rulebook's rules and at ``params``: a figure
    moved when the two 95 % intervals do not overlap."""
    from gamelab.rulebook.claims import audit

    knobs = game.knobs
    full = knobs(**{s.name: getattr(params, s.name) for s in specs(params)})
    base, new = (
        audit([game], n_games=n_games, seed=seed, params={game.name: p}, run=RunConfig(workers=workers, progress=False))
        for p in (knobs(), full)
    )
    keep = ~is_exact(base)
    base, new = base[keep].reset_index(drop=True), new[keep].reset_index(drop=True)
    moved = (new["low"] > base["high"]) | (new["high"] < base["low"])
    rows = base.assign(
        key=[coverage.row_key(r) for r in base.itertuples()],
        rulebook=base["ours"],
        new=new["ours"],
        low=new["low"],
        high=new["high"],
    )
    return rows, moved


def changed_sentences(game: Game, params, *, simulate: dict | None = None) -> tuple[pd.DataFrame, dict]:
    """The sentences whose number no longer holds under ``params`` (one row
    per figure and rulebook line) and the counts: ``rows`` (rows asked),
    ``rows_hold`` (rows that still hold), ``lines_hold`` (rulebook lines
    all of whose rows still hold).  ``simulate`` (``n_games``, ``seed``,
    ``workers``) adds the simulated figures: each measured at the rulebook's
    rules and at the new ones, listed when the two 95 % intervals part, with
    the new interval in ``low`` / ``high``."""
    parts = [_exact_part(game, rules_of(game, params))]
    if simulate:
        parts.append(_simulated_part(game, params, **simulate))
    rows = pd.concat([p[0] for p in parts], ignore_index=True)
    moved = pd.concat([p[1] for p in parts], ignore_index=True)
    by_key, sections, text = _lines_of(game)
    out = []
    for key, idx in rows.groupby("key", sort=False).groups.items():
        if not moved[idx].any():  # none of the figure's rows moved: no line of it is listed
            continue
        for n in by_key.get(key, []) or [None]:
            # the row whose figure this line prints (a figure may be printed differently in two places)
            nums = set(coverage.numbers_in(text[n])) if n in text else set()
            printed_here = [i for i in idx if _printed_in(rows.loc[i], nums)]
            same_section = [i for i in printed_here if rows.loc[i, "section"] == sections.get(n)]
            i = (same_section or printed_here or [j for j in idx if moved[j]] or list(idx))[0]
            if not moved[i]:
                continue
            if n in text and not printed_here and not _is_mark(rows.loc[i, "unit"]):
                continue  # the line does not print this figure (it holds the plays the row replays)
            r = rows.loc[i]
            label = f"{r['row']} · {r['column']}"
            out.append(
                dict(
                    section=sections.get(n, r["section"]),
                    line=n,
                    sentence=sentence(text[n], r["printed"]) if n in text else label,
                    printed=r["printed"],
                    rulebook=r["rulebook"],
                    new=r["new"],
                    low=r["low"],
                    high=r["high"],
                    unit=r["unit"],
                    row=label,
                    quantity=key,
                    note=r["note"],
                )
            )
    table = pd.DataFrame(out, columns=COLUMNS)
    table = table.sort_values(["line", "quantity"], na_position="last", kind="stable").reset_index(drop=True)
    bad_lines = set(table["line"].dropna().astype(int))
    asked_lines = {n for k in rows["key"] for n in by_key.get(k, [])}
    counts: dict = {
        "rows": len(rows),
        "rows_hold": int(len(rows) - moved.sum()),
        "lines_hold": len(asked_lines - bad_lines),
        "lines": len(asked_lines),
    }
    changed = rules_of(game, params).changed() if params is not None else {}
    if table.empty and changed:
        counts["why_none"] = no_change_words(game, changed, len(rows))
    return table, counts


def no_change_words(game: Game, changed: dict, rows: int) -> str:
    """Why a change of the rules moves no printed number: every figure the
    rules decide keeps its value, and the rule changed, in the rulebook's
    section and words, decides none of them at its new value."""
    from gamelab.core.labels import changes_words, param_words

    by_name = {s.name: s for s in specs(game.rules)}
    rules = "; ".join(
        f"{param_words(k)} (section {by_name[k].section}: {by_name[k].doc})" if k in by_name else param_words(k)
        for k in changed
    )
    one = len(changed) == 1
    return (
        f"no printed number changes: all {rows} rules-decided figures of the rulebook keep their values with "
        f"{changes_words(changed)}; {'this rule' if one else 'these rules'}, {rules}, "
        f"{'decides' if one else 'decide'} none of them at {'this value' if one else 'these values'}"
    )


def render(game: Game, table: pd.DataFrame, counts: dict, changed) -> str:
    """The sentences to update as text: a head line (the changed rules in words), then the table."""
    from gamelab.core.labels import changes_words, key_words

    head = (
        f"{game.name} with {changes_words(changed)}: {len(table)} rulebook sentences to update "
        f"({table['quantity'].nunique()} of {counts['rows']} figures asked); "
        f"{counts['rows_hold']} rows and {counts['lines_hold']} of {counts['lines']} lines still hold"
    )
    if table.empty:
        return head + (f"\n{counts['why_none']}" if counts.get("why_none") else "")
    shown = table.assign(
        line=table["line"].map(lambda n: "" if pd.isna(n) else str(int(n))),
        rulebook=table["rulebook"].map(_fmt),
        new=[_new_text(r) for r in table.itertuples()],
        quantity=table["quantity"].map(key_words),
    )[["section", "line", "printed", "new", "quantity", "sentence"]]
    with pd.option_context("display.width", 250, "display.max_colwidth", 90, "display.unicode.east_asian_width", True):
        return head + "\n" + shown.to_string(index=False)


def _new_text(r) -> str:
    """The number under the new rules: exact, or simulated with its 95 % interval."""
    if not _fmt(r.new):
        return "no longer defined"
    if _fmt(r.low):
        return f"{r.new:.3g} [{r.low:.3g}, {r.high:.3g}]"
    return _fmt(r.new)


def to_records(table: pd.DataFrame) -> list[dict]:
    recs = table.astype(object).where(table.notna(), None).to_dict("records")
    for r in recs:
        r["line"] = None if r["line"] is None else int(r["line"])
    return recs


def rewrite(game: Game, table: pd.DataFrame, changed) -> str:
    """A Markdown list to work through while editing the rulebook: section,
    the old text, the corrected number (``changed``: the changed rules, a
    ``{name: value}`` mapping or words)."""
    from gamelab.core.labels import changes_words, key_words

    out = [f"# {game.title}: rulebook sentences to update", ""]
    out += [f"Rules changed from the rulebook: {changes_words(changed)}.", ""]
    if table.empty and isinstance(changed, dict) and changed:
        rows = len(_at_rulebook(game)[0]) if game.rulebook.claims is not None else 0
        why = no_change_words(game, changed, rows)
        out += [why[0].upper() + why[1:] + ".", ""]
    for section, part in table.groupby("section", sort=False):
        out.append(f"## {section}")
        out.append("")
        for r in part.itertuples():
            where = f"line {int(r.line)}" if not pd.isna(r.line) else "no line"
            new = _new_text(r)
            out.append(
                f"- [ ] {where}: 「{r.sentence}」 — printed **{r.printed}**, now **{new}** {r.unit} "
                f"({key_words(r.quantity)})"
            )
        out.append("")
    return "\n".join(out)
