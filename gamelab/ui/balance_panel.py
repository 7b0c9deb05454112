"""The balance panel of a notebook: sliders for some rules, a quick re-simulation on every
change, a full-precision run, and a Publish button that writes into ``reports/`` at the
project root and shows a link.

    from gamelab import BalancePanel
    BalancePanel(GAME, sliders=[PARAMETER, ...]).show()   # GAME: a name from registry.available_games()

A panel keeps its last results (``frame``, ``tables``) as attributes, so the
same code path is tested without a browser.  Tables and charts come from
:mod:`gamelab.report.format`, the layer the reports use.
"""

from __future__ import annotations

import functools
import html
import os
import threading
import time
from pathlib import Path

import pandas as pd

from gamelab import stats
from gamelab.core import registry
from gamelab.core.labels import agent_label, lineup_words
from gamelab.core.params import specs
from gamelab.report import charts
from gamelab.report import format as fmt
from gamelab.sim import runner, sweep
from gamelab.sim.run import RunConfig
from gamelab.stats.headline import headline_figure
from gamelab.ui.rulebook_note import rulebook_sentences, sentences_pending
from gamelab.ui.servers import publish_link
from gamelab.ui.widgets import (
    CONTROLS_HEIGHT,
    STALE_CLASS,
    STYLE,
    Busy,
    Note,
    RunId,
    knob_slider,
    mark_stale,
    param_widgets,
    plain_label,
    shown_value,
)

QUICK_GAMES = int(os.environ.get("GAMELAB_QUICK_GAMES", "2000"))


# the learned rung's own run beside the default model's headline (``Game.skill.learned``): fewer games, so that
# it follows a slider move within about 2 s with the rung re-learned for the new rules
LEARNED_GAMES = max(QUICK_GAMES // 2, 100)


LEARNED_DELAY = 0.1  # seconds the learned rung's run waits for a newer move before it starts


# the learned rung's figure follows every move (GAMELAB_PANEL_LEARNED=0: it is left out; the test suite
# does so except where it tests the figure, since learning a rung for new rules can take seconds of CPU)
LEARNED_AUTO = os.environ.get("GAMELAB_PANEL_LEARNED", "1") != "0"

# the meta-game's line (styles worth playing) follows every move, on a payoff table of its own: seconds of CPU
# a move (GAMELAB_PANEL_METAGAME=0: it is left out; the tests of other controls leave it out, the tests that
# read the whole panel keep it)
METAGAME_AUTO = os.environ.get("GAMELAB_PANEL_METAGAME", "1") != "0"


DEFAULT_LINEUP = "(default lineup)"


WIN_LABELS = {
    "n": "seats played",
    "win_rate": "win rate",
    "win_low": "low",
    "win_high": "high",
    "score_mean": "mean score",
    "score_low": "score low",
    "score_high": "score high",
}


IDENTITY_LABELS = {
    "exact": "exact here",
    "exact_at_rulebook": "exact at the rulebook's rules",
    "interval": "95 % interval",
    "n": "sample",
}


def metagame_line(game, params, n_players: int, seed: int, run) -> str | None:
    """The strategies worth playing if players adapt, one line (None: the game has no meta-game)."""
    if game.metagame is None or not game.metagame.profile_agent:
        return None
    from gamelab.models.metagame import worth_line

    return worth_line(game, n_players, params=params, seed=seed, run=run)


def game_panel(game, frame: pd.DataFrame, params) -> list:
    """The game's own panel (``Game.panels``): its measures' table, each with a 95 % interval
    over deals (:func:`gamelab.stats.balance.panel_table`), then its figures."""
    from gamelab.stats import balance

    return [balance.panel_table(game, frame), *game.panels.figures(frame, params)]


class BalancePanel:
    """Sliders for some parameters of ``game``; win rates with intervals,
    plots and the identity table follow every change."""

    def __init__(
        self,
        game: str,
        *,
        sliders=(),
        knobs: dict | None = None,
        n_players: int = 4,
        seed: int = 0,
        quick_games: int | None = None,
        precision: float = 0.01,
        store=None,
        extra=None,
    ):
        import ipywidgets as w

        self.game, self.seed, self.precision = game, seed, precision
        self.game_def = registry.get(game)
        if extra is None and self.game_def.panel_measures:  # the game's own diagnostics (tables, figures)
            extra = functools.partial(game_panel, self.game_def)
        self.extra = extra
        self.quick_games = quick_games or QUICK_GAMES
        self.store = store
        self.base = self.game_def.knobs()
        by_name = {s.name: s for s in specs(self.base)}
        unknown = [n for n in sliders if n not in by_name]
        if unknown:
            raise ValueError(f"no parameter {unknown[0]!r} in {game}; known: {', '.join(by_name)}")
        self.controls = {n: param_widgets(by_name[n], getattr(self.base, n)) for n in sliders}
        self.knobs = {
            name: knob_slider(name, self.game_def.derived[name].__doc__ or "", *spec)
            for name, spec in (knobs or {}).items()
        }
        self.players, self.focus = self._table_controls(n_players)
        self.full_button = w.Button(
            description="Full precision run",
            icon="play",
            tooltip=f"add games until every win rate is within ±{precision * 100:g} points",
        )
        self.publish_button = w.Button(
            description="Publish", icon="file", tooltip="write this view as an HTML report into reports/"
        )
        self.status = w.HTML()
        self.busy_note = w.HTML()
        self.progress = w.FloatProgress(value=0.0, min=0.0, max=1.0, layout=w.Layout(visibility="hidden"))
        self.out = w.Output()
        self.sentence_note = w.HTML()  # the rulebook sentences: after the numbers, without redrawing them
        self.worth_note = w.HTML()  # the styles worth playing (a game with a meta-game): after them too
        # the headline imbalance in a line (a bootstrap interval, 0.1-0.3 s): just after the numbers, above them
        self.headline_note = w.HTML()
        # the headline at the game's learned rung (``Game.skill.learned``): a run of its own, greyed when stale
        self.learned_note = w.HTML()
        self.learned = ""  # its line (empty: the game has no learned rung, or not computed yet)
        self.learned_for: RunId | None = None  # the run it was computed on
        self.learned_thread: threading.Thread | None = None  # computing it (:meth:`_learned_start`)
        # one thread at a time learns and plays: a move while it works leaves only the newest rules waiting
        self._learned_lock = threading.Lock()
        self._learned_next: tuple | None = None  # the newest move's (params, run, start, job) not yet started
        self._learned_busy = False
        self._learned_job = 0  # the last move's number: a thread of an older move does not write
        self.learned_seconds: float | None = None
        self.stale_too = (self.sentence_note, self.worth_note, self.headline_note)
        self._holding = False  # True while a knob writes its derived values into the sliders
        # the values set by hand of the parameters a knob has written into (the knobs act on these)
        self.hand: dict[str, list] = {}
        self.knob_neutral = {name: spec[3] for name, spec in (knobs or {}).items()}
        self.knob_targets = {
            name: tuple(self.game_def.derived[name](self.base, self.knob_neutral[name])) for name in self.knobs
        }
        self.knob_note = w.HTML()  # what the knobs do to the hand-set values, under the sliders
        for name, ws in self.controls.items():
            for widget in ws:
                widget.observe(
                    lambda change, name=name: None if self._holding else self._slider_moved(name), names="value"
                )
        for widget in (self.players, self.focus, self.budget):
            widget.observe(lambda change: None if self._holding else self.update(), names="value")
        for name, slider in self.knobs.items():
            slider.observe(lambda change, name=name: None if self._holding else self._apply_knob(name), names="value")
        self.full_button.on_click(lambda b: self.update(full=True))
        self.publish_button.on_click(lambda b: self.publish())
        self.frame = None
        self.run_id: RunId | None = None  # the run on screen (rules, agents, players, seed, games)
        self.views: list = []  # derived views (Levers, Tune): told when the current run changes
        self.tables: dict[str, pd.DataFrame] = {}
        self.last_path: Path | None = None
        self.seconds_per_game: dict[tuple, float] = {}

    def _table_controls(self, n_players: int):
        """The player count slider and the seat-1 agent: one entry per agent (a style, the mix, ...),
        and a search budget beside it as one control (``best@8`` is ``search`` with 8 play-outs), never
        the same search once per style in the list."""
        import ipywidgets as w

        from gamelab.core import budgets

        lo, hi = self.game_def.players
        players = w.IntSlider(
            value=n_players,
            min=lo,
            max=hi,
            description="players",
            continuous_update=False,
            tooltip=f"players at the table ({lo} to {hi})",
        )
        self.budgets: dict[str, list[int]] = {}
        bases: list[str] = []
        for a in self.game_def.agents:
            agent, at, budget = str(a).partition(budgets.SEPARATOR)
            if agent not in bases:
                bases.append(agent)
            if at:
                self.budgets.setdefault(agent, []).append(int(budget))
        focus = w.Dropdown(
            options=[("default lineup", DEFAULT_LINEUP)] + [(agent_label(self.game_def, a), a) for a in bases],
            description="agent in seat 1",
            style={"description_width": "initial"},
            tooltip="one seat played by this agent against the default lineup (the runner rotates it "
            "through every seat); with a search budget, the agent searches with that budget",
        )
        self.budget = w.Dropdown(
            options=[("no search budget", 0)],
            description="search budget",
            style={"description_width": "initial"},
            disabled=True,
            tooltip="how hard the seat-1 agent searches (slower as it grows); only for an agent that searches",
        )
        focus.observe(lambda change: self._budget_options(), names="value")
        return players, focus

    def _budget_options(self) -> None:
        """The budgets the seat-1 agent has, in words (none: the control is off)."""
        from gamelab.core import budgets

        have = self.budgets.get(self.focus.value, [])
        self._holding = True  # the agent's own observer runs the one update
        try:
            self.budget.options = [("no search budget", 0)] + [
                (agent_label(self.game_def, budgets.at_budget(self.focus.value, b)), b) for b in have
            ]
            self.budget.value = 0
            self.budget.disabled = not have
        finally:
            self._holding = False

    def seat_agent(self) -> str | None:
        """The agent in seat 1 (None: the default lineup), its budget included (``best@8``)."""
        from gamelab.core import budgets

        if self.focus.value == DEFAULT_LINEUP:
            return None
        name = budgets.at_budget(self.focus.value, self.budget.value) if self.budget.value else self.focus.value
        return name if name in self.game_def.agents else None

    def _all_controls(self):
        for ws in self.controls.values():
            yield from ws
        yield from self.knobs.values()
        yield self.players
        yield self.focus
        yield self.budget

    def _hand_params(self):
        """The rules as the designer set them by hand: the rulebook's, with every slider's hand-set value
        (a slider a knob wrote into counts by the value it had before the knobs, :attr:`hand`)."""
        changes = {}
        for name, ws in self.controls.items():
            values = self.hand.get(name, [x.value for x in ws])
            changes[name] = tuple(values) if isinstance(getattr(self.base, name), tuple) else values[0]
        return self.base.replace(**changes)

    def _knob_changes(self) -> dict:
        """What the derived knobs set, in knob order, each acting on the one before it and the first on
        the hand-set values (:meth:`_hand_params`): a knob never resets a value set by hand."""
        changes: dict = {}
        params = self._hand_params()
        for name, slider in self.knobs.items():
            step = self.game_def.derived[name](params, slider.value)
            changes.update(step)
            params = params.replace(**step)
        return changes

    def _apply_knob(self, name: str) -> None:
        """A knob moved: it acts on the values set by hand (node scale 1.05 multiplies the node values
        on the sliders, not the rulebook's), and writes the result into the sliders of the parameters it
        sets, so the sliders show the rules in use; then re-simulate once.  A slider moved by hand after
        it becomes the new hand-set value, and the knobs on it go back to their neutral value
        (:meth:`_slider_moved`): the sliders are what :meth:`params` reads."""
        from gamelab.core.errors import GamelabError

        for param in self.knob_targets[name]:
            if param in self.controls:
                self.hand.setdefault(param, [x.value for x in self.controls[param]])
        try:
            derived = self._knob_changes()
        except GamelabError as exc:
            self.status.value = f"<b style='color:#c62828'>{html.escape(str(exc))}</b>"
            return
        self._write(derived)
        self.knob_note.value = self._knob_words()
        self.update()

    def _write(self, derived: dict) -> None:
        """Values into sliders without a run each (one run follows)."""
        self._holding = True
        try:
            for param, value in derived.items():
                for widget, v in zip(self.controls.get(param, ()), value if isinstance(value, tuple) else (value,)):
                    widget.value = v
        finally:
            self._holding = False

    def _slider_moved(self, name: str) -> None:
        """A rule slider moved by hand: its values are the hand-set ones now, and a knob that acted on
        that parameter goes back to its neutral value (it would otherwise apply twice)."""
        if name in self.hand:
            del self.hand[name]
            self._holding = True
            try:
                for knob, targets in self.knob_targets.items():
                    if name in targets:
                        self.knobs[knob].value = self.knob_neutral[knob]
            finally:
                self._holding = False
            self.knob_note.value = self._knob_words()
        self.update()

    def _knob_words(self) -> str:
        """What the knobs off their neutral value do to the hand-set values, in a line (empty: none)."""
        said = []
        for name, slider in self.knobs.items():
            if slider.value == self.knob_neutral[name]:
                continue
            targets = ", ".join(fmt.words(t) for t in self.knob_targets[name])
            hand = "; ".join(
                f"{fmt.words(p)} {', '.join(fmt.number(v) for v in vs)}" for p, vs in self.hand.items() if p in targets
            )
            said.append(f"{fmt.words(name)} {fmt.number(slider.value)} applied to the {targets} set by hand ({hand})")
        return f"<i>{html.escape('; '.join(said))}: the sliders show the result.</i>" if said else ""

    def params(self):
        """The parameter object the sliders describe (validated): a derived
        knob's values for the parameters without a slider, then every
        slider's value (a knob has already written its values into the
        sliders of the parameters it sets, :meth:`_apply_knob`)."""
        changes = {k: v for k, v in self._knob_changes().items() if k not in self.controls}
        for name, ws in self.controls.items():
            values = [x.value for x in ws]
            changes[name] = tuple(values) if isinstance(getattr(self.base, name), tuple) else values[0]
        return self.base.replace(**changes)

    def lineup(self):
        default = list(self.game_def.default_lineup(self.players.value))
        agent = self.seat_agent()
        if agent is not None:
            default[0] = agent
        return default

    def mark_stale(self, stale: bool):
        mark_stale(self, stale)

    def current(self) -> RunId | None:
        """The run the controls describe now (None: the controls make no valid rules)."""
        from gamelab.core.errors import GamelabError

        try:
            params = self.params()
        except GamelabError:
            return None
        return RunId(params, tuple(self.lineup()), self.players.value, self.seed)

    def _tell_views(self) -> None:
        """The current run changed: each derived view greys itself if computed for other rules (the
        learned rung's headline too)."""
        current = self.current()
        for view in self.views:
            view.panel_changed(current)
        if not self._learned_busy:  # else greyed until it is done
            self._learned_grey()

    def _learned_grey(self) -> None:
        """Grey the learned rung's figure unless it was computed for the rules, players and seed the
        controls describe now."""
        done, current = self.learned_for, self.current()
        same = (
            done is not None
            and current is not None
            and (current.params, current.players, current.seed) == (done.params, done.players, done.seed)
        )
        (self.learned_note.remove_class if same else self.learned_note.add_class)(STALE_CLASS)

    def _learned_start(self, params, run: RunConfig, start: float) -> None:
        """Start the learned rung's headline for ``params`` in a thread of its own (:meth:`_learned_headline`):
        learning the rung for new rules may take a while, and the panel's own numbers must not wait for it.
        The figure on screen stays, greyed, until the new one replaces it; a newer move supersedes it."""
        name = self.game_def.skill.learned
        if not name or not LEARNED_AUTO:
            return
        self._learned_job += 1
        words = html.escape(agent_label(self.game_def, name))
        self.learned_note.add_class(STALE_CLASS)
        self.learned_note.value = (f"<b>{html.escape(self.learned)}</b><br>" if self.learned else "") + (
            f"<i>Playing {LEARNED_GAMES:,} games at the learned rung ({words} on every seat) for these rules, "
            "learning it for them first if they are new…</i>"
        )
        with self._learned_lock:
            self._learned_next = (params, run, start, self._learned_job)
            if self._learned_busy:  # the working thread takes it when it is done (older moves are skipped)
                return
            self._learned_busy = True
        self.learned_thread = threading.Thread(target=self._learned_loop, daemon=True)
        self.learned_thread.start()

    def _learned_loop(self) -> None:
        """Play the newest waiting move's learned rung until none waits (:meth:`_learned_start`): learning
        a rung for new rules is not interrupted, so a burst of moves costs one learning, not one each."""
        while True:
            with self._learned_lock:
                job, self._learned_next = self._learned_next, None
                if job is None:
                    self._learned_busy = False
                    return
            self._learned_headline(*job)

    def learned_wait(self) -> None:
        """Wait for the learned rung's headline of the last move (tests, a snapshot)."""
        if self.learned_thread is not None:
            self.learned_thread.join()

    def _learned_headline(self, params, run: RunConfig, start: float, job: int) -> None:
        """The headline imbalance at the game's learned rung (every seat), on a run of its own of
        :data:`LEARNED_GAMES` games, the rung learned for these rules first if it is not cached
        (``Game.skill.prepare``): :attr:`learned`, shown in :attr:`learned_note` with the run it is."""
        from gamelab.core.errors import GamelabError

        name, n = self.game_def.skill.learned, self.players.value
        lineup = [name] * n
        time.sleep(LEARNED_DELAY)  # moves in quick succession (a knob writing into sliders): only the last is played
        if job != self._learned_job:
            return
        try:
            if self.game_def.skill.prepare is not None:
                self.game_def.skill.prepare(params, tuple(lineup), n)
            if job != self._learned_job:
                return
            frame = runner.simulate(
                self.game_def,
                n_games=LEARNED_GAMES,
                seed=self.seed,
                params=params,
                lineup=lineup,
                n_players=n,
                store=run.store,
                progress=False,
            )
        except Exception as exc:  # noqa: BLE001  a thread's failure is said in the panel, not lost in a log
            if job == self._learned_job:
                self.learned, self.learned_for = "", None
                what = str(exc) if isinstance(exc, GamelabError) else f"{type(exc).__name__}: {exc}"
                self.learned_note.value = f"<i>No figure at the learned rung: {html.escape(what)}</i>"
            return
        if job != self._learned_job:  # a newer move is on its way: this figure is of older rules
            return
        figure = headline_figure(self.game_def, frame, n, self.seed)
        self.learned_for = RunId(params, tuple(lineup), n, self.seed, int(frame["game"].nunique()))
        self.learned = f"At the learned rung: {figure[0].lower()}{figure[1:]}" if figure else ""
        own_run = html.escape(self.learned_for.words(self.game_def))
        self.learned_note.value = (
            f"<b>{html.escape(self.learned)}</b><br><i>Its own run: {own_run}.</i>" if self.learned else ""
        )
        self.learned_seconds = time.perf_counter() - start  # a move's time to the learned rung's figure
        self._learned_grey()  # not greyed if the controls still describe these rules

    def _expected(self, games: int) -> float | None:
        key = (tuple(self.lineup()), self.players.value)
        per = self.seconds_per_game.get(key)
        return per * games if per else None

    def update(self, full: bool = False):
        """Re-simulate (quick, or to the precision target) and redraw."""
        from gamelab.core.errors import GamelabError
        from gamelab.rulebook.identities import identity_table
        from gamelab.sim.store import ChunkStore

        start = time.perf_counter()
        self._tell_views()
        try:
            params = self.params()
        except GamelabError as exc:
            self.status.value = f"<b style='color:#c62828'>{html.escape(str(exc))}</b>"
            return
        if self.run_id is not None and not self.run_id.same_setting(self.current()):
            for note in (self.sentence_note, self.worth_note):  # recomputed below, after the numbers
                note.add_class(STALE_CLASS)
        kw = dict(
            n_games=self.quick_games,
            seed=self.seed,
            base_params=params,
            lineup=self.lineup(),
            n_players=self.players.value,
            run=RunConfig(store=self.store or ChunkStore(), progress=False),
        )
        if full:
            kw.update(precision=self.precision)
        lineup = lineup_words(self.game_def, self.lineup())
        with Busy(
            self,
            f"Simulating {self.quick_games:,} games ({lineup})"
            if not full
            else f"Adding games until every win rate is within ±{self.precision * 100:g} points",
            self._expected(self.quick_games),
        ) as busy:
            run = sweep.run_cell(self.game_def, {}, **kw)
            self.frame = run.frame
            self.frame_params, self.frame_lineup = params, kw["lineup"]  # what the frame was played with
            self.run_id = RunId(
                params,
                tuple(kw["lineup"]),
                self.players.value,
                self.seed,
                run.games,
                self.precision if full else None,
                run.target_met,
            )
            self.tables = {by: stats.win_table(run.frame, by) for by in self.game_def.report.groups if by in run.frame}
            self.tables["identities"] = identity_table(self.game_def, params, frame=run.frame)
            self.extras = [charts.drawn(x) for x in self.extra(run.frame, params)] if self.extra is not None else []
            self.sentences = None
            self.worth = None
            self.headline = ""
        if busy.seconds > 0.2:  # timed a real run, not a cache read
            self.seconds_per_game[(tuple(self.lineup()), self.players.value)] = busy.seconds / run.games
        self.status.value = html.escape(f"This run: {self.run_id.words(self.game_def)}.")
        self.headline_note.value = ""  # never the last run's figure beside these numbers
        self._draw()  # the numbers first; the rulebook sentences (not simulation) after them
        self.seconds = time.perf_counter() - start  # a move's time to its numbers (``gamelab bench``)
        self.headline = headline_figure(self.game_def, self.frame, self.players.value, self.seed)
        self.model_warning = model_warning(self.game_def, self.frame, params, self.players.value)
        self.headline_note.value = (f"<b>{html.escape(self.headline)}</b>" if self.headline else "") + (
            f'<div style="color:#b00">{html.escape(self.model_warning)}</div>' if self.model_warning else ""
        )
        self._learned_start(params, kw["run"], start)  # the same figure at the learned rung, beside it
        if sentences_pending(self.game_def, params):
            self.sentence_note.value = "<i>Checking which rulebook sentences these rules make wrong…</i>"
        self.sentences = rulebook_sentences(self.game_def, params)
        self.sentence_note.value = self.sentences.to_html() if self.sentences is not None else ""
        self.sentence_note.remove_class(STALE_CLASS)
        # the meta-game's line (issue 28): a payoff table of its own, so it comes after the numbers too
        if self.game_def.metagame is not None and METAGAME_AUTO:
            self.worth_note.value = "<i>Solving which styles adapting players would keep…</i>"
        self.worth = (
            metagame_line(self.game_def, params, self.players.value, self.seed, kw["run"]) if METAGAME_AUTO else None
        )
        if self.worth:  # the run it was solved on: these rules, players and seed (its own payoff games)
            self.worth = f"{self.worth} (for this run's rules, {self.players.value} players, seed {self.seed})"
        self.worth_note.value = f"<b>{html.escape(self.worth)}</b>" if self.worth else ""
        self.worth_note.remove_class(STALE_CLASS)

    def items(self, sentences: bool = True) -> list:
        """What the panel shows under its controls, in order: the headline
        imbalance in a line (:func:`headline_figure`), the win-rate
        chart (the headline grouping, the fair share marked), the win
        tables, the game's own diagnostics, the identity table, then (with
        ``sentences``) the styles worth playing and the rulebook sentences note (a widget of its own in
        the notebook, :attr:`sentence_note`)."""
        fair = 1 / self.players.value
        groups = [(by, t) for by, t in self.tables.items() if by != "identities"]
        out: list = []
        shown = [(by, t) for by, t in groups if len(t) > 1]
        if sentences and getattr(self, "headline", None):  # the figure Levers says "now" for (its own widget)
            out.append(Note(f"<b>{html.escape(self.headline)}</b>"))
        if sentences and self.learned and self.learned_for is not None:  # the learned rung's run (its own widget)
            out.append(
                Note(f"<b>{html.escape(self.learned)}</b> ({html.escape(self.learned_for.words(self.game_def))})")
            )
        if getattr(self, "model_warning", ""):  # issue 38: the seats differ where the rules treat them alike
            out.append(Note(f'<p style="color:#b00">{html.escape(self.model_warning)}</p>'))
        headline = self.game_def.report.headline.removesuffix("_spread")
        shown = [x for x in shown if x[0] == headline] or shown[:1]  # one chart: the headline grouping
        if shown:
            panels = [
                fmt.WinPanel(f"win rate by {fmt.words(by)}, {self.players.value} players", t, by, fair)
                for by, t in shown
            ]
            out.append(charts.win_rate_chart(panels, columns=1, width=6.5))
        n = self.players.value
        for by, t in groups:
            t = t.assign(**{by: [fmt.group_label(by, v) for v in t[by]]})
            caption = f"Win rate by {fmt.words(by)}, {n} players (95 % interval; fair share {fair * 100:.1f} %)"
            out.append(fmt.styler(t, labels={**WIN_LABELS, by: fmt.words(by)}, caption=caption))
        for x in self.extras:  # the game's own measures: a table says its player count
            out.append(
                fmt.styler(fmt.measure_frame(x), caption=f"The game's own measures, {n} players, the same games")
                if isinstance(x, pd.DataFrame)
                else x
            )
        ids = self.tables["identities"]
        if len(ids):
            caption = f"Identities (exact: from the rules; simulated: these {n}-player games)"
            shown = fmt.identity_frame(ids).drop(columns=["sim_low", "sim_high"])  # a rate in %, as everywhere
            out.append(fmt.styler(shown, labels=IDENTITY_LABELS, caption=caption))
        if sentences and getattr(self, "worth", None):  # the meta-game's line (issue 28)
            out.append(Note(f"<b>{html.escape(str(self.worth))}</b>"))
        if sentences and getattr(self, "sentences", None) is not None:
            out.append(self.sentences)
        return out

    def _draw(self):
        from IPython.display import display

        self.out.clear_output(wait=True)
        with self.out:
            for item in self.items(sentences=False):
                display(item)

    def snapshot_html(self) -> str:
        """The panel as a static HTML page (controls in words with their
        values, then :meth:`items`): what a notebook shows, for a browser
        test or a file."""
        self.learned_wait()
        parts = [
            f"<li title='{html.escape(getattr(x, 'tooltip', '') or '')}'>{html.escape(plain_label(x))}: "
            f"<b>{html.escape(shown_value(x))}</b></li>"
            for x in self._all_controls()
        ]
        body = [f"<ul class='controls'>{''.join(parts)}</ul><p>{self.status.value}</p>"]
        for item in self.items():
            if hasattr(item, "savefig"):
                body.append(f"<figure>{charts.svg(item)}</figure>")
            elif hasattr(item, "to_html"):
                body.append(item.to_html())
            else:
                body.append(f"<pre>{html.escape(str(item))}</pre>")
        style = (
            "body{font-family:system-ui,sans-serif;max-width:1100px;margin:1em auto;font-size:14px}"
            "table{border-collapse:collapse;margin:.8em 0}td,th{border:1px solid #ddd;padding:2px 6px}"
            "caption{text-align:left;font-weight:600;padding:4px 0}figure svg{max-width:100%;height:auto}"
            ".controls{columns:3}"
        )
        return (
            f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(self.game)} panel</title>"
            f"<style>{style}</style></head><body>{''.join(body)}</body></html>"
        )

    def publish(self, out: str | Path | None = None) -> Path:
        """Write the current view as an HTML report (default
        ``reports/<game>-<time>.html`` at the project root) and show a link."""
        import datetime as dt

        from gamelab.core.paths import reports_dir
        from gamelab.report.build import build_report
        from gamelab.sim.store import ChunkStore

        out = Path(out) if out else reports_dir() / f"{self.game}-{dt.datetime.now():%Y%m%d-%H%M%S}.html"
        if self.run_id is None or not self.run_id.same_setting(self.current()):
            self.update()  # the run on screen is the controls' (a move whose run has not finished: played now)
        shown = self.run_id
        assert shown is not None
        with Busy(self, f"Writing the report of the run on screen ({shown.games:,} games)"):
            self.last_path = build_report(
                self.game,
                params=shown.params,
                n_games=self.quick_games,
                precision=shown.precision,  # after Full precision: those games (the same chunks, from the store)
                seed=shown.seed,
                out=out,
                player_counts=(shown.players,),
                lineups={shown.players: list(shown.lineup)},
                run=RunConfig(store=self.store or ChunkStore(), progress=False),
            )
        self.published = shown
        self.status.value = f"{publish_link(self.last_path)}: {html.escape(shown.words(self.game_def))}"
        return self.last_path

    def widget(self):
        """Controls on the left (scrolling on their own when there are many),
        results on the right: a slider and the numbers it moves are on screen
        together (a 1366 × 900 laptop included)."""
        import ipywidgets as w

        sliders = [x for ws in self.controls.values() for x in ws] + list(self.knobs.values()) + [self.knob_note]
        left = w.VBox(
            sliders,
            layout=w.Layout(width="370px", min_width="370px", max_height=CONTROLS_HEIGHT, overflow="auto"),
        )
        from gamelab.ui.viewer import ShowGame

        self.show_game = ShowGame(self)  # "Show a game": one game under these rules and lineup, shown last
        actions = w.HBox([self.full_button, self.publish_button, self.show_game.button])
        right = w.VBox(
            [
                w.HBox([self.players, self.focus, self.budget]),
                actions,
                self.status,
                w.HBox([self.progress, self.busy_note]),
                self.headline_note,
                self.learned_note,
                self.out,
                self.worth_note,
                self.sentence_note,
                self.show_game.out,
            ],
            layout=w.Layout(flex="1 1 auto", min_width="0"),
        )
        box = w.VBox([w.HTML(STYLE), w.HBox([left, right])])
        box.add_class("gamelab-panel")
        return box

    def show(self):
        from IPython.display import display

        self.update()
        display(self.widget())
        return self


def model_warning(game_def, frame, params, n_players: int) -> str:
    """A warning about the player model when the panel's run breaks a seat symmetry the rules
    declare (``gamelab.stats.symmetry``); empty otherwise."""
    from gamelab.stats.symmetry import seat_warning

    warning = seat_warning(frame, game_def.symmetry.seats(params, n_players), n_players)
    return warning.words() if warning is not None else ""
