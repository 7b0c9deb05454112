"""Playing many games: the seeded runner, executors (inline, processes, Dask),
the on-disk chunk cache, sweeps and the speed bench.  Knows no rule: every game
is reached through the registry."""
