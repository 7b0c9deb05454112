"""The learned rung's strength criterion (issue 39) at the rulebook and three of the tuner's
STRAND proposals, 4 players: the three decided tests of ``gamelab skill --json``'s learned
row (``gamelab.decide.ladder.learned_tests``), one line each, then the whole as JSON.

    .venv/bin/python scripts/learned_rung.py [--seed 0] [--only NAME ...]

The proposals are those of docs/balance-findings.md: variant D's proposal 1, the styles
proposal (the old model's, still the closest) and the styles tune's proposal 2."""

from __future__ import annotations

import argparse
import json
import time

from gamelab.core import registry
from gamelab.decide.ladder import learned_tests
from gamelab.sim.run import RunConfig

RULE_SETS = {
    "rulebook": {},
    "variant_d_proposal_1": {
        "sum_cap": 5,
        "hand_size": 5,
        "lone_penalty": 5,
        "node_values": (3, 4, 5, 5, 3, 8, 5, 9),
    },
    "styles_proposal": {
        "hand_size": 4,
        "sum_cap": 5,
        "lone_penalty": 5,
        "node_values": (2, 3, 3, 3, 3, 4, 5, 5),
        "half_rounding": "down",
    },
    "styles_proposal_2": {"sum_cap": 5, "lone_penalty": 5, "node_values": (3, 3, 3, 4, 4, 5, 6, 7)},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--only", nargs="*", choices=list(RULE_SETS), default=None)
    args = ap.parse_args()
    game = registry.get("strand")
    out = {}
    for name, changes in RULE_SETS.items():
        if args.only and name not in args.only:
            continue
        print(f"{name}: {changes or 'the rulebook'}", flush=True)
        t0 = time.process_time()
        found = learned_tests(
            game, n_players=args.players, seed=args.seed, params=game.knobs().replace(**changes), run=RunConfig()
        )
        assert found is not None
        out[name] = {"changes": changes, "cpu_s": time.process_time() - t0, **found}
    print(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
