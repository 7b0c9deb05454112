"""SHA-256 of simulated frames over a fixed set of runs, one line per run.

Run it on two commits and diff the output: a refactor or a speed pass that
claims "results identical" must print the same lines.  Uses only
``gamelab.sim.runner.simulate``, so it runs on old and new code alike::

    python scripts/frame_hashes.py > before.txt   # on the old commit
    python scripts/frame_hashes.py > after.txt    # on the new one
    diff before.txt after.txt

A change that adds run columns (and claims the old ones unchanged) is held to the old
commit's hashes by hashing without them: ``python scripts/frame_hashes.py --without REGEX``
leaves out every column whose name matches ``REGEX`` (``'^round_[0-9]+_points$'``).
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import re

import pandas as pd

try:
    from gamelab.sim import runner
except ImportError:  # the tree before the layered restructure
    from gamelab import runner  # type: ignore[no-redef]

RUNS = [
    ("sbr", {}, None, 2),
    ("sbr", {}, None, 3),
    ("sbr", {}, None, 4),
    ("sbr", {}, None, 5),
    ("sbr", {"seat_order": "from_start", "start_player": "random"}, None, 4),
    ("sbr", {"seal_spent_on_stop": False, "curve_penalty": 2}, None, 3),
    ("sbr", {}, ["greedy", "random", "greedy", "random"], None),
    ("sbr", {}, ["lookahead", "greedy"], None),
    ("strand", {}, None, 3),
    ("strand", {}, None, 4),
    ("strand", {}, None, 5),
    ("strand", {}, None, 6),
    ("strand", {"node_award": "split", "sum_cap": 8}, None, 4),
    ("strand", {"time_rain": True}, None, 5),
    ("strand", {"teams": True}, None, 6),
    ("strand", {}, ["heavy", "key", "random", "stay"], None),
    ("strand", {"roles": "none", "reneging": 0.5}, None, 4),
    ("strand", {}, ["best", "best", "best", "best"], None),
    ("strand", {"time_rain": True, "renege_to": "best"}, ["best", "heavy", "greedy", "random", "best"], None),
    ("strand", {"silent": True, "best_proxy": "mix"}, ["best", "mirror", "steady", "best"], None),
    ("pig", {}, None, 2),
    ("pig", {}, None, 6),
    ("pig", {"target": 50, "hold_minimum": 10}, ["race", "hold_at_20", "random"], None),
]


def frame_hash(df: pd.DataFrame, without: re.Pattern | None = None) -> str:
    if without is not None:
        df = df[[c for c in df.columns if not without.search(c)]]
    h = hashlib.sha256()
    h.update(",".join(df.columns).encode())
    for col in df.columns:
        h.update(pd.util.hash_pandas_object(df[col], index=False).to_numpy().tobytes())
    return h.hexdigest()[:16]


def _registry():
    try:
        from gamelab.core import registry
    except ImportError:  # before the layered tree (gamelab.registry), and before the registry (runner.adapter)
        try:
            from gamelab import registry  # type: ignore[no-redef]
        except ImportError:
            return None
    return registry


def _params_class(game: str) -> type:
    registry = _registry()
    if registry is None:
        return runner.adapter(game).param_class
    return registry.get(game).knobs


def _game_arg(game: str):
    """What ``simulate`` takes: the game's object (``simulate(game: Game, ...)``), or its
    name on the trees before the shared layer passed games as objects."""
    annotation = str(inspect.signature(runner.simulate).parameters["game"].annotation)
    return _registry().get(game) if "Game" in annotation else game


def main(n_games: int = 3000, without: re.Pattern | None = None) -> None:
    for game, changes, lineup, players in RUNS:
        params = _params_class(game)().replace(**changes)
        n = n_games if "lookahead" not in (lineup or ()) else 60
        if "best" in (lineup or ()):  # STRAND's search agent: fewer games
            n = 200
        df = runner.simulate(
            _game_arg(game), n_games=n, seed=7, params=params, lineup=lineup, n_players=players, progress=False
        )
        print(game, changes, lineup, players, len(df), frame_hash(df, without), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="hashes of simulated frames over a fixed set of runs")
    parser.add_argument("n_games", nargs="?", type=int, default=3000, help="games per run (default 3000)")
    parser.add_argument("--without", type=re.compile, help="leave out the columns whose names match this regex")
    args = parser.parse_args()
    main(args.n_games, args.without)
