"""The report's rulebook claims audit and errata, built for scanning: per
section how many figures hold, the failures first with the figure that
decides each (published against ours and our interval), the passes folded
into a details block, the balance conclusions, and the errata rendered from
Markdown (markdown-it-py) with repository paths reworded.
"""

from __future__ import annotations

import re

import pandas as pd

from gamelab.core.labels import doc_words, key_words
from gamelab.report import format as fmt
from gamelab.report.blocks import Block, Section
from gamelab.report.data import Report

#: how errata name files of the repository, and the words a reader gets instead
PATH_WORDS = (
    (re.compile(r"Rulebook `shared/seeds/[^`]+`\.\s*"), ""),
    (re.compile(r"`?data/playtests/(\w+)\.json`?"), lambda m: f"the playtest record “{key_words(m[1])}”"),
    (re.compile(r"`?data/claims/(\w+)\.csv`?"), lambda m: f"the claims table “{key_words(m[1])}”"),
    (re.compile(r"`?shared/seeds/[\w./-]+`?"), "the rulebook text"),
    (re.compile(r"`?tests/[\w./-]+\.py(::\w+)?`?"), "our tests"),
    (re.compile(r"`?docs/([\w-]+)\.md`?"), r"the \1 notes"),
    (re.compile(r"`?gamelab/[\w./-]+\.py`?"), "the engine"),
    (re.compile(r"`?(?:data|notebooks|scripts|reports)/[\w./-]+`?"), "the project files"),
)
TEST_NAMES = re.compile(r"\s*\(?Tests?: `?test_\w+`?(?:,\s*`?test_\w+`?)*\)?\.?")
#: a code name in backticks (a claims row ``ex_r7_mule_fragile_sum``, a family ``team_seats_*``, a
#: reading ``node_award="each"``): the reader gets its words
CODE_NAME = re.compile(r'`([a-z][a-z0-9]*(?:_[a-z0-9*]+)+)(?:="?([\w ]+)"?)?`')


def _code_words(m: re.Match) -> str:
    name = re.sub(r"_?\*", " …", m.group(1)).replace("_", " ")
    return f"“{name} {m.group(2)}”" if m.group(2) else f"“{name}”"


def plain_paths(text: str) -> str:
    """Errata text without repository paths, test names or code names (those in words, quoted)."""
    for pattern, words in PATH_WORDS:
        text = pattern.sub(words, text)
    text = TEST_NAMES.sub("", text)
    return CODE_NAME.sub(_code_words, text)


def errata_html(markdown_text: str) -> str:
    """The errata as HTML: Markdown through markdown-it-py (raw HTML in the
    text is escaped, not passed through), headings moved down two levels so
    they sit under the report's section heading."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = md.render(plain_paths(markdown_text))
    for level in (4, 3, 2, 1):
        body = body.replace(f"<h{level}>", f"<h{min(level + 2, 6)}>").replace(
            f"</h{level}>", f"</h{min(level + 2, 6)}>"
        )
    return body


def what(row) -> str:
    """A claim cell in words: ``race · 2 players · mean final square``."""
    parts = [fmt.words(row.get("table", "")), fmt.words(row.get("row", "")), fmt.words(row.get("column", ""))]
    return " · ".join(p for p in dict.fromkeys(parts) if p and p.strip())


def printed_decimals(printed) -> int:
    """Decimals of a figure as the rulebook prints it ("27.5" -> 1, "6" -> 0)."""
    text = str(printed).strip()
    return len(text.split(".")[1]) if "." in text else 0


def _figure(value, unit, decimals: int) -> str:
    text = fmt.number(value, decimals=decimals)
    unit = "%" if isinstance(unit, str) and unit.startswith("%") else unit
    return f"{text} {unit}".strip() if text and isinstance(unit, str) and unit else text


def claim_rows(audit: pd.DataFrame) -> pd.DataFrame:
    """Each audited cell as a row a designer reads."""
    unit = audit["unit"] if "unit" in audit else pd.Series("", index=audit.index)
    note = audit["note"].fillna("") if "note" in audit else pd.Series("", index=audit.index)
    measured = audit["ours"].notna()
    exact = audit["n"].isna() & measured if "n" in audit else measured
    printed = audit["printed"] if "printed" in audit else audit["value"].map(lambda v: f"{v:g}")
    places = [printed_decimals(p) for p in printed]
    rows = pd.DataFrame(
        {
            "section": audit["section"].astype(str),
            "claim": [what(r) for _, r in audit.iterrows()],
            "rulebook": [_figure(v, u, d) for v, u, d in zip(audit["value"], unit, places)],
            "ours": [_figure(v, u, d + (not e)) for v, u, d, e in zip(audit["ours"], unit, places, exact)],
            "how we know": [
                "exact, from the rules"
                if e
                else (
                    f"simulated, 95 % interval {fmt.number(lo, decimals=d + 1)}–{fmt.number(hi, decimals=d + 1)}"
                    if m
                    else ""
                )
                for e, m, lo, hi, d in zip(exact, measured, audit["low"], audit["high"], places)
            ],
            "note": [
                doc_words(fmt.words(n)) if n != "exact" else "" for n in note.map(lambda s: s.removeprefix("exact; "))
            ],
        }
    )
    rows["_state"] = [
        "not measured" if not m else ("holds" if bool(i) else "fails")
        for m, i in zip(measured, audit["inside"].fillna(False))
    ]
    return rows


def section_counts(rows: pd.DataFrame) -> pd.DataFrame:
    c = rows.groupby(["section", "_state"], sort=False).size().unstack(fill_value=0)
    for k in ("fails", "holds", "not measured"):
        if k not in c:
            c[k] = 0
    c = c[["fails", "holds", "not measured"]]
    c.insert(0, "figures", c.sum(axis=1))
    c = c.reset_index().sort_values(["fails", "section"], ascending=[False, True], kind="stable")
    return c.rename(columns={"not measured": "not measured"})


def claims_section(data: Report):
    blocks = []
    c = data.claims
    if c is None:
        blocks.append(Block("text", "No claims audit for this game yet."))
    else:
        rows = claim_rows(c.audit)
        fails, holds, missing = (
            rows[rows["_state"] == k].drop(columns="_state") for k in ("fails", "holds", "not measured")
        )
        blocks.append(
            Block(
                "text",
                f"{len(holds)} of {len(rows)} published figures hold, {len(fails)} fail, "
                f"{len(missing)} not measured. A simulated figure holds when it lies inside "
                f"our 95 % interval ({data.n_games:,} games per player count, seed "
                f"{data.seed}); a rules-decided one when it equals the rules' value up to "
                "its printed rounding.",
            )
        )
        blocks.append(Block("table", fmt.table_html(section_counts(rows), labels={"section": "rulebook section"})))
        if len(fails):
            blocks += [
                Block("heading", f"The {len(fails)} figures that fail"),
                Block("table", fmt.table_html(fails, css="wrap claims")),
            ]
        if len(missing):
            blocks.append(
                Block(
                    "details",
                    [Block("table", fmt.table_html(missing, css="wrap claims"))],
                    caption=f"{len(missing)} figures not measured",
                )
            )
        if len(holds):
            blocks.append(
                Block(
                    "details",
                    [Block("table", fmt.table_html(holds, css="wrap claims"))],
                    caption=f"{len(holds)} figures that hold",
                )
            )
        if c.conclusions is not None:
            blocks += [
                Block("heading", "The rulebook's balance conclusions"),
                Block(
                    "text",
                    "Each statement tested against the runner-up: difference of per-seat "
                    "win rates with its 95 % interval.",
                ),
                Block("table", fmt.table_html(conclusions_table(c.conclusions), css="wrap")),
            ]
    blocks.append(Block("heading", "Errata"))
    blocks.append(Block("html", errata_html(data.errata)) if data.errata else Block("text", "None recorded."))
    return Section("claims", "Rulebook claims audit and errata", blocks)


def conclusions_table(df: pd.DataFrame) -> pd.DataFrame:
    """Appendix conclusions in words: rates in percent, the difference in points."""
    out = df.copy()
    for col in ("who", "compared_with"):
        if col in out:
            out[col] = out[col].map(fmt.choice_label)
    if {"difference", "low", "high"} <= set(out):
        out["difference"] = [
            f"{fmt.points(d)} ({fmt.interval(lo, hi, percent=True).replace(' %', '')} points)"
            for d, lo, hi in zip(out["difference"], out["low"], out["high"])
        ]
        out = out.drop(columns=["low", "high"])
    if "p" in out:
        out = out.drop(columns=["p"])
    for col in ("rate", "their_rate"):
        if col in out:
            out[col] = [fmt.number(v, percent=True) for v in out[col]]
    return out
