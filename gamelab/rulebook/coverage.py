"""Every number of the rulebooks accounted for (issue 22).

Each rulebook line that holds a number (:func:`numbers_in`) is linked, in
``data/claims/<game>_coverage.csv``, either to the claims rows that check it
(``rows``: keys as :func:`row_key` names them, rows that can fail) or to a
stated ``reason`` it is not a checkable claim (``category: explanation``,
the category one of :data:`REASONS`).  :func:`coverage_table` puts the
rulebook beside that file, :func:`problems` lists what is wrong with it
(a line with a number that is not accounted for, a row that does not exist,
an empty reason, a line whose numbers changed) and :func:`summary` counts
per section: lines with numbers, checked by rows, explained, unaccounted.

The rulebooks live outside the repository, in ``../shared/seeds`` beside the
checkout (``$GAMELAB_SEEDS`` overrides the folder).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from gamelab.core.contract import Game
from gamelab.rulebook.claims import CLAIMS_DIR, load_claims

COLUMNS = ["line", "section", "numbers", "rows", "reason"]

# Why a number is not a claim the rules or a measurement could contradict.
REASONS = {
    "section": "a section, step, question, identity or list number",
    "label": "a name or identifier: a seat, player number, square or card label, a seed, a file name",
    "elsewhere": "the same figure as another line, which holds rows (the reason names it: 'line N')",
    "physical": "the physical product: play time, age, paper, print advice, timer (no rule decides it)",
    "flavour": "story, theme or dates: not a statement about the game",
    "advice": "a recommendation or opinion, not a statement of fact",
    "notation": "a number inside a formula's notation or a legend (⌈v/2⌉, '1 = true'), not a figure",
    "unverifiable": "a figure nothing here can reproduce (the author's own runs, data the rulebook does not print)",
    "identity": "measured by the game's identity table (gamelab identities GAME), not a claims row",
    "structure": "what the engine's actions encode (one card a beat, one seal slot in an action): nothing to compute",
}

# --- what counts as a number -------------------------------------------------
ASCII = r"[0-9]+(?:\.[0-9]+)?"
FULLWIDTH = "[\uff10-\uff19]+"
# ① … ⑳, ㉑ … ㉟, ㊱ … ㊿, ❶ … ❿ / ➀ … ➓ (the dingbat circled digits)
CIRCLED = "[\u2460-\u2473\u3251-\u325f\u32b1-\u32bf\u2776-\u2793]"
HAN_DIGITS = "零〇一二两三四五六七八九十百千万"
MEASURE_WORDS = "|".join(["回合", "小时", *"个张枚拍段格人分点次件条轮套份名局步种倍支队位组对把根号成年箱天秒招类样"])
HAN = (
    rf"第\s*[{HAN_DIGITS}]+"  # an ordinal: 第三段, 第二条
    rf"|(?:[{HAN_DIGITS}]{{2,}}|[{HAN_DIGITS.replace('一', '')}])(?=\s*(?:{MEASURE_WORDS}))"
)
NUMBER = re.compile(rf"{ASCII}|{FULLWIDTH}|{CIRCLED}|{HAN}")


def numbers_in(text: str) -> list[str]:
    """The numbers a rulebook line states, in order: the one detection rule.

    * ASCII digits (with a decimal part: ``3.19``), also inside ``24%``,
      ``1-7``, ``A4``, keycaps (``0️⃣``);
    * fullwidth digits (``１２``);
    * circled and negative circled numbers (``①`` … ``㊿``, ``➊`` … ``➓``),
      which the rulebooks use for squares, segments, steps and cards;
    * Chinese numerals that state a quantity or an order: an ordinal
      (``第三段``) or a numeral followed by a measure word (``两人``,
      ``三件``, ``十一年``).  A lone ``一`` is left out: it is mostly the
      article "a" (``一张牌``, ``一个人``); ``一`` inside a longer numeral
      (``十一``) counts.  So are numerals not followed by a measure word
      (the countdown ``三、二、一``, ``两端``, ``一样``).
    """
    return [m.group(0).replace(" ", "") for m in NUMBER.finditer(text)]


# --- where each line sits -----------------------------------------------------
NUMBERED = re.compile(r"^(\d+\.\d+|\d+)\.?\s+\S")
NAMED = (
    (re.compile(r"^附录\s*([A-Z])[：:]"), "appendix {}"),
    (re.compile(r"^(Q\d+)[：:]"), "FAQ {}"),
    (re.compile(r"^变体\s*([A-Z])[：:]"), "variant {}"),
    (re.compile(r"^第\s*(\d+)\s*回合\s*｜"), "example round {}"),
)


def rulebooks() -> dict[str, str]:
    """``{game: rulebook file name}`` for every game that declares its rulebook text
    (``Game.rulebook.claims.rulebook``)."""
    from gamelab.core import registry

    claims = {g.name: g.rulebook.claims for g in registry.games()}
    return {name: c.rulebook for name, c in claims.items() if c is not None and c.rulebook}


def _title(line: str, titles) -> str | None:
    """A heading without a number (an emoji and a title word), by the game's declared titles."""
    words = line.strip().split(maxsplit=1)
    if words and words[-1] in titles and (len(words) == 1 or not words[0][0].isalnum()):
        return titles[words[-1]]
    return None


def section_of(line: str, titles=None) -> str | None:
    """The section a heading line opens (None for any other line)."""
    if line.startswith((" ", "\t")):
        return None
    m = NUMBERED.match(line)
    if m and "." in line.split()[0]:
        return m.group(1)
    for pattern, label in NAMED:
        m = pattern.match(line)
        if m:
            return label.format(m.group(1))
    return _title(line, titles or {})


def seeds_dir() -> Path:
    """The folder of the rulebook texts: ``$GAMELAB_SEEDS``, else ``../shared/seeds`` beside the checkout."""
    env = os.environ.get("GAMELAB_SEEDS")
    if env:
        return Path(env).expanduser()
    return Path(__file__).resolve().parents[3] / "shared" / "seeds"  # gamelab/rulebook/ -> the checkout -> beside it


def seed_path(game: str) -> Path:
    """Where the rulebook text of the game named ``game`` is read from."""
    return seeds_dir() / rulebooks()[game]


def rulebook_lines(game: Game, path: Path | None = None) -> pd.DataFrame:
    """Every line of the rulebook holding a number: ``line`` (1-based),
    ``section``, ``numbers`` (space-separated, as :func:`numbers_in` finds
    them) and ``text``."""
    path = Path(path or seed_path(game.name))
    titles = game.rulebook.claims.section_titles  # type: ignore[union-attr]
    rows, section = [], "front"
    for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        section = section_of(text, titles) or section
        found = numbers_in(text)
        if found:
            rows.append((i, section, " ".join(found), text))
    return pd.DataFrame(rows, columns=["line", "section", "numbers", "text"])


# --- the claims rows a line may name -----------------------------------------
def row_key(row) -> str:
    """How a coverage line names a claims row: its ``quantity`` for the
    rules-decided rows (every row with that quantity checks it), else
    ``table/row/column`` for a simulated cell (``race/2 players/arrival_rate``)."""
    q = str(getattr(row, "quantity", "") or "")
    return q if q else f"{row.table}/{row.row}/{row.column}"


def row_keys(game: str, directory: Path | None = None) -> set[str]:
    claims = load_claims(game, directory)
    return {row_key(r) for r in claims.itertuples()}


def coverage_path(game: str, directory: Path | None = None) -> Path:
    return Path(directory or CLAIMS_DIR) / f"{game}_coverage.csv"


def load_coverage(game: str, directory: Path | None = None) -> pd.DataFrame:
    df = pd.read_csv(coverage_path(game, directory), dtype=str, keep_default_na=False)
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{coverage_path(game, directory).name}: missing columns {missing}")
    df["line"] = df["line"].astype(int)
    return df


def split_rows(cell: str) -> list[str]:
    return [k.strip() for k in str(cell).split(";") if k.strip()]


def coverage_table(game: Game, *, seed: Path | None = None, directory: Path | None = None) -> pd.DataFrame:
    """The rulebook's lines with numbers beside the coverage file: ``status``
    is ``checked`` (rows), ``explained`` (a reason) or ``unaccounted``."""
    lines = rulebook_lines(game, seed)
    cov = load_coverage(game.name, directory).drop(columns=["section"])
    cov = cov.rename(columns={"numbers": "numbers_recorded"})
    out = lines.merge(cov, on="line", how="left").fillna({"rows": "", "reason": "", "numbers_recorded": ""})
    out["status"] = [
        "checked" if split_rows(r) else "explained" if s.strip() else "unaccounted"
        for r, s in zip(out["rows"], out["reason"])
    ]
    return out


def problems(game: Game, *, seed: Path | None = None, directory: Path | None = None) -> list[str]:
    """Everything wrong with the coverage of one rulebook, one line each."""
    table = coverage_table(game, seed=seed, directory=directory)
    cov = load_coverage(game.name, directory)
    keys = row_keys(game.name, directory)
    out = []
    for r in table.itertuples():
        where = f"{game.name} line {r.line} ({r.section})"
        if r.status == "unaccounted":
            out.append(f"{where}: numbers {r.numbers} with neither rows nor a reason")
            continue
        if r.numbers_recorded != r.numbers:
            out.append(f"{where}: the rulebook now has {r.numbers!r}, the coverage file {r.numbers_recorded!r}")
        for k in split_rows(r.rows):
            if k not in keys:
                out.append(f"{where}: no claims row {k!r}")
        if r.status == "explained":
            cat, _, why = r.reason.partition(":")
            if cat.strip() not in REASONS or not why.strip():
                out.append(f"{where}: reason {r.reason!r} is not 'category: explanation' ({', '.join(REASONS)})")
            elif cat.strip() == "elsewhere":
                m = re.search(r"line (\d+)", why)
                other = table[table["line"] == int(m.group(1))] if m else table.iloc[0:0]
                if other.empty or other["status"].iloc[0] != "checked":
                    out.append(f"{where}: 'elsewhere' must name a line with rows ('line N'), got {why.strip()!r}")
    stray = sorted(set(cov["line"]) - set(table["line"]))
    out += [f"{game.name} line {n}: in the coverage file but holds no number" for n in stray]
    return out


def summary(game: Game, *, seed: Path | None = None, directory: Path | None = None) -> pd.DataFrame:
    """Per section (in the rulebook's order) and in all: lines with numbers,
    checked by rows, explained, unaccounted."""
    t = coverage_table(game, seed=seed, directory=directory)
    order = list(dict.fromkeys(t["section"]))
    counts = pd.crosstab(t["section"], t["status"]).reindex(order, fill_value=0)
    for c in ("checked", "explained", "unaccounted"):
        if c not in counts:
            counts[c] = 0
    counts.insert(0, "lines", counts[["checked", "explained", "unaccounted"]].sum(axis=1))
    counts = counts[["lines", "checked", "explained", "unaccounted"]]
    counts.loc["all"] = counts.sum()
    return counts.reset_index().rename(columns={"index": "section", "status": ""})


def render(games: Sequence[Game]) -> str:
    """The text of ``gamelab claims --coverage`` for ``games`` (each with a rulebook text, :func:`rulebooks`)."""
    parts = []
    for game in games:
        path = seed_path(game.name)
        if not path.exists():
            parts.append(f"{game.name}: rulebook text not found at {path} (set GAMELAB_SEEDS to its folder)")
            continue
        s = summary(game)
        s.columns.name = None
        total = s.iloc[-1]
        parts.append(
            f"{game.name} ({path.name}): {total['lines']} lines with numbers, "
            f"{total['checked']} checked by claims rows, {total['explained']} explained, "
            f"{total['unaccounted']} unaccounted\n" + s.to_string(index=False)
        )
        bad = problems(game)
        if bad:
            parts.append("\n".join(bad[:50]) + (f"\n... {len(bad) - 50} more" if len(bad) > 50 else ""))
    return "\n\n".join(parts)
