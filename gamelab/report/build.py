"""A report built end to end: computed (:func:`gamelab.report.compute.compute_report`),
rendered (:func:`gamelab.report.render.render_report`) and written, or, when
nothing it depends on changed, the page built before copied
(:mod:`gamelab.report.memo`).  ``gamelab report`` and the notebooks call
:func:`build_report`."""

from __future__ import annotations

import sys
from pathlib import Path

from gamelab.core.contract import Game
from gamelab.report import memo
from gamelab.report.compute import compute_report
from gamelab.report.phases import enabled as phases_enabled
from gamelab.report.phases import phase
from gamelab.report.render import render_report, typical_href
from gamelab.sim.run import RunConfig


def build_report(
    game: Game | str,
    *,
    params=None,
    n_games: int = 20_000,
    seed: int = 0,
    precision: float | None = None,
    baseline=None,
    out: str | Path | None = None,
    claims: bool = True,
    run: RunConfig | None = None,
    player_counts=None,
    lineups: dict | None = None,
    label: str = "",
    playtests=(),
    profile=None,
    tools=None,
    reuse: bool = True,
) -> Path:
    """Compute the report, render it and write it (default ``reports/<game>.html``
    at the workspace root).  ``game``: the game, or its name as a notebook
    gives it (resolved here, once).  With ``reuse``, a page built before from
    exactly the same inputs is copied instead (:mod:`gamelab.report.memo`)."""
    from gamelab.core.paths import reports_dir

    if isinstance(game, str):
        from gamelab.core import registry

        game = registry.get(game)
    run = run or RunConfig()
    inputs = dict(
        params=params,
        n_games=n_games,
        seed=seed,
        precision=precision,
        baseline=baseline,
        claims=claims,
        player_counts=player_counts,
        lineups=lineups,
        label=label,
        playtests=playtests,
        profile=profile,
        tools=tools,
    )
    files = [*playtests, *([tools.tune] if tools is not None and tools.tune else [])]
    store_dir = getattr(run.chunk_store(), "dir", None)  # a store kept in memory keeps no pages
    key = None
    if reuse and store_dir is not None:
        key = memo.inputs_key(game, {**inputs, "playtests": [str(p) for p in playtests]}, files)
    html = memo.lookup(store_dir, key) if key and store_dir is not None else None
    typical = None
    if html is not None:
        typical = memo.lookup(store_dir, key + "-typical") if key and store_dir is not None else None
        if typical is None and f'href="{typical_href(game.name)}"' in html:
            html = None  # its typical game's page is gone: built again
    if html is not None:
        if phases_enabled(run.progress):
            print(
                f"  {game.name}: nothing changed since this report was built (code, data, rulebook, options)",
                file=sys.stderr,
            )
    else:
        report = compute_report(game, **inputs, run=run)
        with phase(f"{game.name}: drawing the report", run.progress):
            html = render_report(report)
        typical = report.typical.page if report.typical is not None else None
        if key and store_dir is not None:
            if typical is not None:  # kept first: a page served from the memo finds its typical game
                memo.keep(store_dir, key + "-typical", typical)
            memo.keep(store_dir, key, html)
    path = Path(out or reports_dir() / f"{game.name}.html")
    path.parent.mkdir(parents=True, exist_ok=True)
    beside = path.with_name(f"{path.stem}-typical.html")  # the typical game's page, linked from the first screen
    html = html.replace(f'href="{typical_href(game.name)}"', f'href="{beside.name}"')
    path.write_text(html, encoding="utf-8")
    if typical is not None:
        beside.write_text(typical, encoding="utf-8")
    return path
