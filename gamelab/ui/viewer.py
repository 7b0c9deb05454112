"""The game viewer in a notebook: :class:`GameViewer` (one game, or a playtest record,
with a step slider, play, previous and next), and the balance panels' "Show a game"
button (:func:`show_game_box`), which plays one game under the panel's current rules
and lineup.  The pictures are :mod:`gamelab.report.viewer`'s, the same as
``gamelab show``'s page; the game is played by :mod:`gamelab.sim.story` (the
game's own engine and agents) or replayed by :mod:`gamelab.rulebook.story`.
"""

from __future__ import annotations

from pathlib import Path

from gamelab.core import registry
from gamelab.core.contract import Game
from gamelab.report import viewer
from gamelab.rulebook.story import record_story
from gamelab.sim.story import Story, play_story

#: the viewer's page style, inside the widget only
WIDGET_STYLE = viewer.STYLE.replace("body{", ".gamelab-viewer{").replace("h1{", ".gamelab-viewer h1{")


class GameViewer:
    """One game to step through in a notebook::

        GameViewer.play("GAME", seed=3, n_players=3)         # a seeded game
        GameViewer.record("data/playtests/sbr_example.json")  # a playtest record

    ``slider`` (the step), ``play_button``, ``prev``/``next``, a box per optional part
    (the hidden hands) and ``html`` (the step's words and pictures); :meth:`show`
    displays it, and a notebook shows a ``GameViewer`` as the widget."""

    def __init__(self, story: Story):
        import ipywidgets as w

        self.story = story
        defs: dict[str, str] = {}
        optional: list[str] = []
        self.blocks = [
            viewer.step_block(story, k, defs, optional).replace(" hidden>", ">", 1) for k in range(len(story.steps))
        ]
        self.defs = viewer.shared_defs(defs)
        n = len(self.blocks) - 1
        self.slider = w.IntSlider(
            value=0, min=0, max=n, description="step", continuous_update=True, layout=w.Layout(width="90%")
        )
        self.play_button = w.Play(
            value=0, min=0, max=n, interval=800, description="play", layout=w.Layout(min_width="150px")
        )
        w.jslink((self.play_button, "value"), (self.slider, "value"))
        self.prev = w.Button(description="previous", icon="step-backward", layout=w.Layout(width="110px"))
        self.next = w.Button(description="next", icon="step-forward", layout=w.Layout(width="90px"))
        self.prev.on_click(lambda b: self.go(self.slider.value - 1))
        self.next.on_click(lambda b: self.go(self.slider.value + 1))
        self.optional = {name: w.Checkbox(value=False, description=f"show {name}", indent=False) for name in optional}
        for box in self.optional.values():
            box.observe(lambda change: self._draw(), names="value")
        self.html = w.HTML()
        self.slider.observe(lambda change: self._draw(), names="value")
        self._draw()

    @classmethod
    def play(cls, game: str | Game, *, seed: int = 0, n_players=None, lineup=None, params=None) -> GameViewer:
        """One seeded game of ``game`` (a name or the game) under ``params`` and ``lineup``."""
        g = game if isinstance(game, Game) else registry.get(game)
        return cls(play_story(g, seed=seed, params=params, lineup=lineup, n_players=n_players))

    @classmethod
    def record(cls, path: str | Path) -> GameViewer:
        """A playtest record, its disagreements with the rules marked."""
        return cls(record_story(path))

    def go(self, k: int) -> None:
        self.slider.value = max(0, min(self.slider.max, k))

    def _draw(self) -> None:
        shown = "".join(f".gamelab-viewer .opt-{n}{{display:block}}" for n, b in self.optional.items() if b.value)
        self.html.value = (
            f"<style>{WIDGET_STYLE}{shown}</style><div class='gamelab-viewer'>{self.defs}"
            f"{self.blocks[self.slider.value]}</div>"
        )

    def widget(self):
        import ipywidgets as w

        story = self.story
        head = w.HTML(f"<b>{viewer.esc(story.title)}</b><br><small>{viewer.esc(story.about)}</small>")
        buttons = w.HBox([self.prev, self.play_button, self.next, *self.optional.values()])
        return w.VBox([head, buttons, self.slider, self.html])  # the slider on a row of its own: wide in a panel

    def show(self) -> GameViewer:
        from IPython.display import display

        display(self.widget())
        return self

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget())

    def page(self) -> str:
        """The same game as ``gamelab show``'s self-contained page."""
        return viewer.page(self.story)


class ShowGame:
    """The balance panel's "Show a game" button and where its game appears (``out``; both in
    ``box`` for a notebook of its own; the panel puts the button beside Publish and ``out`` last): each
    click plays one game (the next seed) under the panel's current rules (``panel.params()``),
    player count and lineup (``panel.lineup()``) and shows it in a :class:`GameViewer`
    (``viewer``: the last one shown)."""

    def __init__(self, panel):
        import ipywidgets as w

        self.panel = panel
        self.button = w.Button(
            description="Show a game",
            icon="eye",
            tooltip="play one game under these rules and this lineup, and step through it",
        )
        self.out = w.Output()
        self.clicks = 0
        self.viewer: GameViewer | None = None
        self.button.on_click(lambda b: self.show())
        self.box = w.VBox([self.button, self.out])

    def show(self) -> GameViewer | None:
        from IPython.display import HTML, display

        from gamelab.core.errors import GamelabError

        panel = self.panel
        seed = panel.seed + self.clicks
        self.clicks += 1
        self.out.clear_output()
        with self.out:
            try:
                self.viewer = GameViewer.play(panel.game_def, seed=seed, params=panel.params(), lineup=panel.lineup())
            except (GamelabError, ValueError) as exc:  # rules the sliders made unplayable: one line
                display(HTML(f"<p style='color:#c0392b'>cannot show a game: {viewer.esc(exc)}</p>"))
                return None
            self.viewer.show()
        return self.viewer
