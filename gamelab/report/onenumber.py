"""One number per quantity (issue 37): a checker over a saved page.

A report (and a notebook panel's published report) tags every figure it prints
with the quantity it shows (:func:`gamelab.report.format.quantity`: a ``<span
class="q" data-q=NAME data-v=VALUE data-scale=SCALE>``) and puts the values each
chart plots beside the chart (``<div class="chart-data" hidden data-values=JSON>``,
no script: the page runs none).  :func:`check_page` reads the page as a designer sees it
(scripts, styles and the charts' own drawing left out) and finds:

- a figure whose shown text is not its value at the shown precision;
- two figures of one quantity that disagree at their shown precision (a sentence
  that quotes another sample than the table beside it);
- a figure and the chart data of its quantity that disagree;
- a rate or a difference of rates (a number followed by ``%`` or ``points``) in the
  visible text that no quantity claims, outside a part of the page marked as
  showing its own sample (``data-own-sample="why"``: the claims audit's printed
  figures, the tuner's fresh deals, ...) — a figure nobody can check is a finding.

    problems = check_page(Path("reports/strand.html").read_text())
    assert not problems, problems

:func:`check_text` does the same for a command's answer: every figure in it must
be a figure of the page, of a quantity the page names.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import defaultdict
from decimal import Decimal, InvalidOperation
from html.parser import HTMLParser
from pathlib import Path

from gamelab.report.format import Q_CLOSE, Q_OPEN, Q_SEP

#: a figure with a unit of rates: ``41.9 %``, ``+16.7 points``, ``−3 points``
RATE_FIGURE = re.compile(r"(?<![\w.,])[−+-]?\d[\d,]*(?:\.\d+)?\s?(?:%|points?\b)")
#: a number as a figure shows it (a real minus sign, thousands commas, an exponent)
NUMBER = re.compile(r"[−+-]?\d[\d,]*(?:\.\d+)?(?:e[−+-]?\d+)?")
#: the confidence level of an interval: a convention, not a figure of the run
CONFIDENCE = re.compile(r"95 %(?= (?:interval|paired|bootstrap|confidence|half-width))")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclasses.dataclass(frozen=True)
class Figure:
    """One figure the page shows: its quantity, its text, what the text says (in the value's unit)
    and how precisely (half its last digit), the value it was tagged with, and where it is."""

    name: str
    shown: str
    value: float
    half: float
    tagged: float
    section: str

    def agrees(self, other: float, slack: float = 0.0) -> bool:
        return abs(self.value - other) <= (self.half + slack) * (1 + 1e-9) + 1e-12


@dataclasses.dataclass
class Page:
    """What :func:`read_page` found: every tagged figure, every chart's values by quantity, every
    untagged rate figure (with its section and the reason its part shows its own sample, if any)."""

    figures: list[Figure] = dataclasses.field(default_factory=list)
    charts: dict[str, list[float]] = dataclasses.field(default_factory=lambda: defaultdict(list))
    untagged: list[tuple[str, str, str, str]] = dataclasses.field(default_factory=list)  # figure, section, own, text
    exempt: dict[str, str] = dataclasses.field(default_factory=dict)  # the parts with their own sample: why
    problems: list[str] = dataclasses.field(default_factory=list)

    def by_name(self) -> dict[str, list[Figure]]:
        out: dict[str, list[Figure]] = defaultdict(list)
        for f in self.figures:
            out[f.name].append(f)
        return out


def parse_figure(text: str, scale: float) -> tuple[float, float] | None:
    """What a figure's text says, in its quantity's unit (``41.9 %`` at scale 100: 0.419), and half its
    last digit in the same unit (0.0005); None when the text holds no number."""
    m = NUMBER.search(text)
    if m is None:
        return None
    raw = m.group(0).replace("−", "-").replace(",", "")
    try:
        d = Decimal(raw)
    except InvalidOperation:
        return None
    exponent = d.as_tuple().exponent
    last = Decimal(1).scaleb(exponent if isinstance(exponent, int) else 0)
    return float(d) / scale, float(last) / 2 / scale


class _Reader(HTMLParser):
    def __init__(self, page: Page):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.stack: list[tuple[str, dict]] = []
        self.tag: dict | None = None  # the quantity span being read, and its text so far
        self.text: list[str] = []

    def _inside(self, name: str) -> bool:
        return any(t == name for t, _ in self.stack)

    def _attr(self, key: str) -> str:
        for _, attrs in reversed(self.stack):
            if attrs.get(key):
                return attrs[key]
        return ""

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag in VOID:
            return
        self.stack.append((tag, a))
        if tag == "span" and "q" in a.get("class", "").split() and "data-q" in a:
            self.tag, self.text = a, []
        if "chart-data" in a.get("class", "").split() and a.get("data-values"):
            for name, value in json.loads(a["data-values"]).items():
                self.page.charts[name].append(float(value))
        if a.get("data-own-sample"):
            self.page.exempt.setdefault(a.get("data-section") or a.get("id") or tag, a["data-own-sample"])

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            top, a = self.stack.pop()
            if top == "span" and self.tag is a:
                self._figure(a, "".join(self.text))
                self.tag = None
            if top == tag:
                break

    def _figure(self, a: dict, shown: str) -> None:
        scale = float(a.get("data-scale") or 1)
        said = parse_figure(shown, scale)
        section = self._attr("data-section")
        if said is None:
            self.page.problems.append(f"{a['data-q']}: {shown!r} shows no number ({section})")
            return
        value, half = said
        self.page.figures.append(Figure(a["data-q"], shown, value, half, float(a["data-v"]), section))

    def handle_data(self, data):
        if self._inside("style") or self._inside("svg"):
            return  # the page's style, a chart's drawing (its values: the chart data beside it)
        if self._inside("script"):
            return
        if self.tag is not None:
            self.text.append(data)
            return
        own = self._attr("data-own-sample")
        section = self._attr("data-section")
        text = CONFIDENCE.sub("", data)
        for m in RATE_FIGURE.finditer(text):
            self.page.untagged.append((m.group(0), section, own, " ".join(data.split())[:160]))


def read_page(html: str) -> Page:
    """Every figure of a saved page, its charts' data and its untagged rate figures."""
    page = Page()
    if any(c in html for c in (Q_OPEN, Q_SEP, Q_CLOSE)):
        page.problems.append("a figure's tag was left in the page's text (drawn without tagged_html)")
    reader = _Reader(page)
    reader.feed(html)
    reader.close()
    return page


def check_page(page: str | Path | Page) -> list[str]:
    """Every disagreement of a saved page (its HTML, a path to it, or a page read): one line each,
    naming the quantity, the figures and where they are.  Empty: one number per quantity."""
    if isinstance(page, Path):
        page = read_page(page.read_text(encoding="utf-8"))
    elif isinstance(page, str):
        page = read_page(page)
    problems = list(page.problems)
    for f in page.figures:
        if not f.agrees(f.tagged):
            problems.append(f"{f.name}: shows {f.shown!r} for {f.tagged!r} ({f.section})")
    named = page.by_name()
    for name, figures in named.items():
        first = figures[0]
        for f in figures[1:]:
            if not f.agrees(first.value, first.half):
                problems.append(
                    f"{name}: {first.shown!r} ({first.section}) and {f.shown!r} ({f.section}): two values "
                    "of one quantity"
                )
        for value in page.charts.get(name, ()):
            for f in figures:
                if not f.agrees(value):
                    problems.append(f"{name}: the text shows {f.shown!r} ({f.section}), the chart plots {value:.6g}")
    for name, values in page.charts.items():
        if max(values) - min(values) > 1e-9 * max(1.0, abs(max(values))):
            problems.append(f"{name}: the charts plot {sorted(set(values))}")
    for shown, section, own, text in page.untagged:
        if not own:
            problems.append(f"{shown!r} in {section or 'the page'} is no quantity's figure: {text}")
    return problems


def check_text(answer: str, page: str | Path | Page) -> list[str]:
    """A command's answer against the page it quotes: every rate figure (``%``, ``points``) of the
    answer is a figure the page shows, to the shown precision, for some quantity the page names
    in the same words (the line around it); empty when every one is."""
    if isinstance(page, Path):
        page = read_page(page.read_text(encoding="utf-8"))
    elif isinstance(page, str):
        page = read_page(page)
    problems = []
    digits = {m.group(0) for f in page.figures if (m := NUMBER.search(f.shown))}  # each figure's digits as shown
    text = CONFIDENCE.sub("", answer)
    for m in RATE_FIGURE.finditer(text):
        figure = m.group(0).strip()
        if NUMBER.search(figure).group(0) not in digits:  # type: ignore[union-attr]
            problems.append(f"{figure!r} in the answer is no figure of the page: {answer.strip()[:160]}")
    return problems


def assert_one_number(page: str | Path | Page) -> Page:
    """:func:`check_page`, raising with every problem listed; the page read (its figures counted)."""
    read = read_page(page.read_text(encoding="utf-8")) if isinstance(page, Path) else page
    read = read_page(read) if isinstance(read, str) else read
    problems = check_page(read)
    if problems:
        raise AssertionError(f"{len(problems)} figures disagree:\n" + "\n".join(problems[:40]))
    return read


class _Verdicts(HTMLParser):
    """The text of each verdict line (``<ul class="verdict">`` items, ``<p class="verdict">``, the edge's
    sentence ``<p class="edge">``) of the first screen (the section ``summary``)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.section = ""
        self.depth = 0  # inside a verdict item: its element depth
        self.lines: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        a = {k: v or "" for k, v in attrs}
        self.stack.append(tag)
        if tag == "section":
            self.section = a.get("data-section", "")
        in_list = len(self.stack) >= 2 and self.stack[-2] == "ul" and getattr(self, "_verdict_ul", False)
        if tag == "ul":
            self._verdict_ul = "verdict" in a.get("class", "").split()
        if (
            self.section == "summary"
            and not self.depth
            and ((tag == "li" and in_list) or (tag == "p" and {"verdict", "edge"} & set(a.get("class", "").split())))
        ):
            self.depth = len(self.stack)
            self.lines.append("")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.depth and len(self.stack) == self.depth:
            self.depth = 0
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if self.depth:
            self.lines[-1] += data


def first_screen(html: str) -> list[str]:
    """The first screen's verdict lines as a terminal prints them (``gamelab report`` does): read
    from the saved page, so each figure is the page's own."""
    reader = _Verdicts()
    reader.feed(html)
    reader.close()
    return [" ".join(line.split()) for line in reader.lines if line.strip()]


def main(argv: list[str] | None = None) -> int:
    """``python -m gamelab.report.onenumber PAGE.html ...``: each page's disagreements, one a line;
    exit status 1 when any page has one."""
    import sys

    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: python -m gamelab.report.onenumber PAGE.html ...", file=sys.stderr)
        return 2
    bad = 0
    for path in paths:
        if not path.is_file():
            print(f"{path}: no such page", file=sys.stderr)
            return 2
        page = read_page(path.read_text(encoding="utf-8"))
        problems = check_page(page)
        bad += bool(problems)
        print(f"{path}: {len(page.figures):,} figures of {len(page.by_name()):,} quantities, {len(problems)} problems")
        for p in problems:
            print(f"  {p}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
