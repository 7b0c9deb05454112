"""How a run is played, as one value: where finished chunks are kept, who
plays the missing ones, and whether progress is shown.

The tools that play many runs (sweeps, sensitivity, the tuner, sequential
tests, reports) pass one :class:`RunConfig` down instead of four loose
arguments (``store``, ``executor``, ``workers``, ``progress``)::

    from gamelab.sim.run import RunConfig
    levers(game, n_players=4, run=RunConfig(workers=2))

What is played (the game, the parameters, the number of games, the seed) is
never part of it: the same seed gives the same table under any RunConfig.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store (and pandas under it) is imported when a run needs it: the CLI starts at once
    from gamelab.sim.store import ChunkStore


@dataclasses.dataclass(frozen=True)
class RunConfig:
    """Where and how games are played (never which games)."""

    store: ChunkStore | None = None  # finished chunks (None: the workspace's data/cache)
    executor: Any = None  # an executor of gamelab.sim.executors (None: local processes, ``workers`` of them)
    workers: int = 1
    progress: bool | None = None  # None: a bar on a terminal, lines otherwise; False: silent

    def chunk_store(self) -> ChunkStore:
        """The store, made on first use when none was given."""
        from gamelab.sim.store import ChunkStore

        return self.store if self.store is not None else ChunkStore()

    def pool(self):
        """The executor, made from ``workers`` when none was given."""
        from gamelab.sim.executors import make_executor

        return self.executor if self.executor is not None else make_executor(self.workers)

    def ready(self) -> RunConfig:
        """The same description with its store and executor made (so that
        nested calls share one store and one pool of workers)."""
        return dataclasses.replace(self, store=self.chunk_store(), executor=self.pool())

    def simulate_args(self) -> dict:
        """Where ``runner.simulate`` plays: ``workers``, ``executor``, ``store`` and ``progress`` as its keywords."""
        return dict(workers=self.workers, executor=self.executor, store=self.store, progress=self.progress)

    def quiet(self) -> RunConfig:
        """The same run without progress (for inner runs of a tool that shows its own)."""
        return dataclasses.replace(self, progress=False)
