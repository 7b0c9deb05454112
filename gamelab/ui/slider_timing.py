"""A balance panel's slider move timed, as ``gamelab bench`` reports it (``panel_slider_s``)."""

from __future__ import annotations

import functools
from pathlib import Path

from gamelab.core.contract import Game
from gamelab.ui.balance_panel import BalancePanel


def time_slider_move(game: Game, parameter: str, value, *, reps: int = 3) -> float:
    """Seconds from moving ``parameter``'s slider(s) to ``value`` until the
    panel's numbers are drawn, at the notebook's default sample
    (:data:`QUICK_GAMES`) and 4 players, nothing cached (a fresh chunk store
    each time; one move first to warm imports and compiled code); the median of
    ``reps``.  What ``gamelab bench`` reports as ``panel_slider_s``."""
    import statistics
    import tempfile

    from gamelab.sim.store import ChunkStore

    times = []
    for i in range(reps + 1):
        with tempfile.TemporaryDirectory() as tmp:
            panel = BalancePanel(game.name, sliders=[parameter], n_players=4, seed=100 + i, store=ChunkStore(Path(tmp)))
            panel._draw = functools.partial(_render, panel)  # type: ignore[method-assign]
            panel.update()
            panel.learned_wait()  # the learned rung's run (a thread) does not overlap the timed move
            ws = panel.controls[parameter]
            for widget, v in zip(ws, value if isinstance(value, tuple) else (value,)):
                if widget.value != v:
                    panel._holding = True  # every item but the last: no run of its own
                    widget.value = v
            panel._holding = False
            panel.update()
            panel.learned_wait()
            if i:  # the first: imports and compiled code
                times.append(panel.seconds)
    return statistics.median(times)


def _render(panel) -> None:
    """What a notebook does to show a panel's items: a figure to PNG, a table to HTML."""
    import io

    for item in panel.items(sentences=False):
        if hasattr(item, "savefig"):
            item.savefig(io.BytesIO(), format="png")
        elif hasattr(item, "to_html"):
            item.to_html()
