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
from gamelab.report.render import page_href, render_report
from gamelab.sim.run import RunConfig

PAGES = ("typical", "lever")  # the viewer pages a report links beside it


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
    beside: dict[str, str] = {}  # the pages the report links beside it: kind -> HTML
    if html is not None and key and store_dir is not None:
        for kind in PAGES:
            if f'href="{page_href(game.name, kind)}"' in html:
                page = memo.lookup(store_dir, f"{key}-{kind}")
                if page is None:
                    html = None  # a page it links is gone: built again
                    break
                beside[kind] = page
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
        beside = {k: part.page for k, part in (("typical", report.typical), ("lever", report.lever)) if part}
        if key and store_dir is not None:
            for kind, page in beside.items():  # kept first: a page served from the memo finds its pages
                memo.keep(store_dir, f"{key}-{kind}", page)
            memo.keep(store_dir, key, html)
    path = Path(out or reports_dir() / f"{game.name}.html")
    path.parent.mkdir(parents=True, exist_ok=True)
    for kind, page in beside.items():  # beside the report, named after it: reports/GAME-typical.html
        there = path.with_name(f"{path.stem}-{kind}.html")
        html = html.replace(f'href="{page_href(game.name, kind)}"', f'href="{there.name}"')
        there.write_text(page, encoding="utf-8")
    path.write_text(html, encoding="utf-8")
    return path
