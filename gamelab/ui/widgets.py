"""The controls every notebook panel shares: sliders made from the parameter
declarations (never retyped; labels and tooltips from the same place), the
progress shown while work runs, and the greying of numbers computed for
other rules than the ones on screen.

Work that takes longer than half a second (:data:`SLOW`) shows progress in
the panel, and the numbers on screen are marked stale until the new ones
arrive.
"""

from __future__ import annotations

import dataclasses
import html
import threading
import time
from typing import Any

from gamelab.core.labels import lineup_words
from gamelab.report import format as fmt

SLOW = 0.5  # seconds: longer work shows progress and marks the old numbers stale


TICK = 0.25  # seconds between progress updates


STALE_CLASS = "gamelab-stale"


CONTROLS_HEIGHT = "560px"  # the controls column scrolls past this: results stay beside the sliders


STYLE = (
    f"<style>.{STALE_CLASS} {{ opacity: 0.35; filter: grayscale(1); transition: opacity 0.2s; }}"
    ".gamelab-panel .widget-label { min-width: 11em; }"
    # a wide table (the identity table) wraps its words inside the results column at 1366 px, never clipped
    ".gamelab-panel .widget-output table { max-width: 100%; table-layout: auto; }"
    ".gamelab-panel .widget-output td, .gamelab-panel .widget-output th "
    "{ white-space: normal; overflow-wrap: anywhere; }</style>"
)


def param_widgets(spec, value):
    """One widget per parameter (a tuple gets one slider per item), bounded by
    the declared range, labelled in words, with the declaration's doc and
    rulebook section as tooltip; ``continuous_update=False`` so a drag
    simulates once; a choice's values shown in words."""
    import ipywidgets as w

    tip = fmt.param_tooltip(spec)
    common = dict(
        continuous_update=False, style={"description_width": "initial"}, layout=w.Layout(width="340px"), tooltip=tip
    )
    label = fmt.param_label(spec)
    # a dropdown or a checkbox with a description shows no tooltip in ipywidgets 8 (their views set
    # ``title`` only without one): the description carries it, as an HTML span with a title
    hover = f"<span title='{html.escape(tip, quote=True)}'>{html.escape(label)}</span>"
    if spec.choices is not None:
        return [
            w.Dropdown(
                options=[(fmt.choice_label(c), c) for c in spec.choices],
                value=value,
                description=hover,
                description_allow_html=True,
                style=common["style"],
                tooltip=tip,
            )
        ]
    if spec.kind is bool:
        return [w.Checkbox(value=value, description=hover, description_allow_html=True, tooltip=tip, indent=False)]
    if spec.kind is tuple:
        lo = int(spec.low if spec.low is not None else 0)
        hi = int(spec.high if spec.high is not None else max(value) * 2)
        return [
            w.IntSlider(value=v, min=lo, max=hi, description=fmt.param_label(spec, i), **common)
            for i, v in enumerate(value)
        ]
    if spec.kind is int:
        return [w.IntSlider(value=value, min=int(spec.low), max=int(spec.high), description=label, **common)]
    return [
        w.FloatSlider(
            value=value,
            min=float(spec.low),
            max=float(spec.high),
            step=(float(spec.high) - float(spec.low)) / 100,
            description=label,
            **common,
        )
    ]


def mark_stale(panel, stale: bool) -> None:
    """Grey a panel's shown numbers (``panel.out`` and ``panel.stale_too``) and show its progress bar
    and note (or undo all three): every panel with slow work shares this."""
    shown = [panel.out, *getattr(panel, "stale_too", ())]  # e.g. a sentence above the chart
    if stale:
        for widget in shown:
            widget.add_class(STALE_CLASS)
        panel.progress.layout.visibility = "visible"
    else:
        for widget in shown:
            widget.remove_class(STALE_CLASS)
        panel.progress.layout.visibility = "hidden"
        panel.busy_note.value = ""


class Busy:
    """Progress in the panel while work runs: after :data:`SLOW` seconds the
    output is marked stale (greyed, a line says so) and a bar shows the
    elapsed time against the expected time (when a similar run was timed
    before), until the block ends."""

    def __init__(self, panel, what: str, expected: float | None = None):
        self.panel, self.what, self.expected = panel, what, expected
        self.done = threading.Event()
        self.shown = False

    def __enter__(self):
        self.start = time.perf_counter()
        self.thread = threading.Thread(target=self._tick, daemon=True)
        self.thread.start()
        return self

    def _tick(self):
        while not self.done.wait(TICK):
            elapsed = time.perf_counter() - self.start
            if elapsed < SLOW:
                continue
            if not self.shown:
                self.shown = True
                self.panel.mark_stale(True)
            bar = self.panel.progress
            if self.expected and elapsed < self.expected:
                bar.value = min(0.97, elapsed / self.expected)
                left = f", about {max(1.0, self.expected - elapsed):.0f} s left"
            elif self.expected:  # past the estimate: say so rather than "0 s left"
                bar.value = (elapsed % 4) / 4
                left = f", longer than the {self.expected:.0f} s the last similar run took"
            else:
                bar.value = (elapsed % 4) / 4
                left = ""
            bar.description = f"{elapsed:.0f} s"
            self.panel.busy_note.value = (
                f"<i>{html.escape(self.what)}{left}. The numbers below are from the previous setting.</i>"
            )

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        self.seconds = time.perf_counter() - self.start
        if self.shown:
            self.panel.mark_stale(False)
        return False


def knob_slider(name: str, doc: str, lo: float, hi: float, step: float, default: float):
    """A slider for a derived knob (one that sets several rule parameters at
    once); its tooltip is the knob's docstring, first sentence."""
    import ipywidgets as w

    what = doc.strip().split("\n\n")[0]  # the docstring's first paragraph, in the designer's words
    what = " ".join(what.split()).removeprefix("Sweep knob: ").rstrip(".")

    return w.FloatSlider(
        value=default,
        min=lo,
        max=hi,
        step=step,
        description=fmt.words(name),
        continuous_update=False,
        style={"description_width": "initial"},
        layout=w.Layout(width="340px"),
        tooltip=f"{fmt.words(name)}: {what or 'sets several rule parameters at once'}; "
        f"it acts on the values of those sliders as you set them (or the rulebook's) and moves them to the "
        f"result; move one of them by hand and that becomes the value set by hand, this back at {fmt.number(default)}",
    )


RERUN_NOTE = "computed for the rules before your change, rerun"


@dataclasses.dataclass(frozen=True)
class RunId:
    """One run of a panel: its rules, agents, player count, seed and games (0: not played yet). Every
    view derived from a run keeps the RunId it was computed on, states it (:meth:`words`) and is greyed
    when the panel's current run has other rules, agents or players (:meth:`same_setting`)."""

    params: Any
    lineup: tuple
    players: int
    seed: int
    games: int = 0
    precision: float | None = None  # the Full precision run's target; None: the quick games
    target_met: bool | None = None  # with a precision: whether every win rate reached it (else: the cap)

    def same_setting(self, other: RunId | None) -> bool:
        return other is not None and (self.params, self.lineup, self.players, self.seed) == (
            other.params,
            other.lineup,
            other.players,
            other.seed,
        )

    def words(self, game_def) -> str:
        """``rules: sum cap = 8; 4 players, the style mix on every seat; 2,000 games, seed 0``."""
        from gamelab.report.render import changed_from_rulebook

        changed = self.params.changed()
        rules = changed_from_rulebook(self.params).removeprefix("Changed from the rulebook: ")
        rules = "the rulebook's rules" if not changed else f"the rulebook's rules but {rules}"
        games = f"{self.games:,} games" + (
            f" (Full precision: ±{self.precision * 100:g} points, "
            f"{'target met' if self.target_met else 'cap reached before the target'})"
            if self.precision is not None
            else ""
        )
        return (
            f"{rules}; {self.players} players, {lineup_words(game_def, list(self.lineup))}; {games}, seed {self.seed}"
        )


def stale_view(view, current: RunId | None, note) -> None:
    """Grey a derived view (``view.out`` and ``view.stale_too``) and say :data:`RERUN_NOTE` in ``note``
    when ``current`` has other rules than the run it was computed for (``view.computed_for``); current again
    (not greyed, no note) when they agree."""
    computed = getattr(view, "computed_for", None)
    if computed is None:
        return
    shown = [view.out, *getattr(view, "stale_too", ())]
    if computed.same_setting(current):
        for widget in shown:
            widget.remove_class(STALE_CLASS)
        note.value = ""
    else:
        for widget in shown:
            widget.add_class(STALE_CLASS)
        note.value = f"<b style='color:#c62828'>{html.escape(RERUN_NOTE[0].upper() + RERUN_NOTE[1:])}.</b>"


class Note:
    """A line of HTML among a panel's items (shown by the notebook and by :meth:`BalancePanel.snapshot_html`)."""

    def __init__(self, body: str):
        self.body = body

    def _repr_html_(self) -> str:
        return f"<p>{self.body}</p>"

    to_html = _repr_html_


def plain_label(widget) -> str:
    """A control's description as text (a dropdown's or checkbox's is an HTML span carrying its tooltip)."""
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", widget.description))


def shown_value(widget) -> str:
    """A control's value as the widget shows it (a dropdown's label, not its key)."""
    options = getattr(widget, "options", None)
    if options and isinstance(options[0], tuple):
        return next((str(label) for label, v in options if v == widget.value), str(widget.value))
    return fmt.number(widget.value) if not isinstance(widget.value, str) else widget.value
