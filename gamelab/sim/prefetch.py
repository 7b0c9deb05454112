"""Many runs played as one job: every missing chunk of every run handed to
the executor at once, so that its workers share the whole job.

A tool that needs many small runs (a skill trace: six levels and fifteen
head-to-head cells of 300 games each; the levers: forty parameter steps)
would otherwise play them one :func:`gamelab.sim.runner.simulate` call at a
time, each a single chunk, and a second worker would have nothing to do.
:func:`prefetch` plans every run (:func:`gamelab.sim.runner.plan`), keeps
the chunks the store lacks, plays them in one pass through the run's
executor and puts them in the store; the tool's own ``simulate`` calls then
read them back.  The tables are the ones ``simulate`` gives: a chunk is
played the same way whoever plays it and in whatever order.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamelab.core.contract import Run
from gamelab.sim import runner
from gamelab.sim.run import RunConfig
from gamelab.sim.store import chunk_key


def missing_chunks(game: str, runs: Iterable[Run], store, *, chunk_deals=None) -> list:
    """The chunks of ``runs`` that ``store`` does not hold, in the runs' order,
    each once (two runs may share chunks)."""
    todo, seen = [], set()
    for r in runs:
        for c in runner.plan(
            game,
            n_games=r.n_games,
            seed=r.seed,
            params=r.params,
            lineup=None if r.lineup is None else list(r.lineup),
            n_players=r.n_players,
            chunk_deals=chunk_deals,
        ):
            key = chunk_key(c)
            if key not in seen and store.get(c) is None:
                seen.add(key)
                todo.append(c)
    return todo


def prefetch(game: str, runs: Iterable[Run], *, run: RunConfig, chunk_deals=None) -> int:
    """Play every chunk of ``runs`` missing from the run's store in one pass
    through its executor (progress in games), and keep them in the store.
    Returns the number of games played (0: all were there).  Put the most
    expensive runs first: a pool starts the chunks in the order given."""
    from gamelab.sim.executors import run_all

    store = run.chunk_store()
    todo = missing_chunks(game, runs, store, chunk_deals=chunk_deals)
    if todo:
        run_all(
            run.pool(),
            runner.run_chunk,
            todo,
            progress=run.progress,
            weights=[c.n_games for c in todo],
            unit="game",
            on_result=lambda i, df: store.put(todo[i], df),
        )
    return sum(c.n_games for c in todo)
