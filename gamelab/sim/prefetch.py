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

from gamelab.core.contract import Game, Run
from gamelab.sim import runner
from gamelab.sim.run import RunConfig
from gamelab.sim.store import chunk_key


def run_args(r: Run) -> dict:
    """A run's description as :func:`gamelab.sim.runner.simulate`'s (and ``plan``'s) keyword arguments."""
    lineup = None if r.lineup is None else list(r.lineup)
    return dict(n_games=r.n_games, seed=r.seed, params=r.params, lineup=lineup, n_players=r.n_players)


def missing_chunks(game: Game, runs: Iterable[Run], store, *, chunk_deals=None) -> list:
    """The chunks of ``runs`` that ``store`` does not hold, in the runs' order,
    each once (two runs may share chunks)."""
    todo, seen = [], set()
    for r in runs:
        for c in runner.plan(game, **run_args(r), chunk_deals=chunk_deals):
            key = chunk_key(c)
            if key not in seen and store.get(c) is None:
                seen.add(key)
                todo.append(c)
    return todo


def prefetch(game: Game, runs: Iterable[Run], *, run: RunConfig, chunk_deals=None) -> int:
    """Play every chunk of ``runs`` missing from the run's store in one pass
    through its executor (progress in games), and keep them in the store.
    Returns the number of games played (0: all were there).  Put the most
    expensive runs first: a pool starts the chunks in the order given."""
    store = run.chunk_store()
    todo = missing_chunks(game, runs, store, chunk_deals=chunk_deals)
    play_chunks(todo, store, run=run)
    return sum(c.n_games for c in todo)


def play_chunks(chunks: list, store, *, run: RunConfig, on_result=None) -> None:
    """Play ``chunks`` through the run's executor (progress in games), each
    put into ``store`` as it lands, then handed to ``on_result(i, table)``."""
    from gamelab.sim.executors import run_all

    executor = run.pool()
    fn, writes = runner.chunk_job(executor, store)

    def keep(i, df):
        if writes:
            store.computed += 1
        else:
            store.put(chunks[i], df)
        if on_result is not None:
            on_result(i, df)

    if chunks:
        run_all(
            executor,
            fn,
            chunks,
            progress=run.progress,
            weights=[c.n_games for c in chunks],
            unit="game",
            on_result=keep,
        )
