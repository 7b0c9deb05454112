"""SBR's learned rung checked by the sequential test (issue 39), at the rulebook and three
changed rule sets, 4 players, seats rotated:

1. one ``learned`` seat among greedy seats: above the fair share (zone 0 to 2 points);
2. one ``lookahead@4`` seat (the top decided rung) among learned seats: 2 points above fair?
   (the learned rung holds if "no");
3. one ``learned`` seat among ``lookahead@4`` seats: above fair - 2 points? (holds if "yes").

Also the CPU seconds of learning the rung for each rule set (not from the cache).  Prints one
line per test.  Usage:
    .venv/bin/python scripts/sbr_learned_checks.py [MAX_GAMES] [RULE SET NAME ...]
"""

import sys
import time

from gamelab.core import registry
from gamelab.decide import sequential
from gamelab.sbr import learned
from gamelab.sbr.agent_params import knobs
from gamelab.sbr.rules import SbrParams
from gamelab.sim.run import RunConfig

MAX_GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
ONLY = sys.argv[2:]
TOP = learned.TEACHER
RULES = {  # docs/balance-findings.md, section 1: the SBR proposals
    "rulebook": {},
    "hand_size 3, town_spin 3": {"hand_size": 3, "town_spin": 3},
    "hand_size 3, town_spin 3, card_counts (5,2,4,2,3)": {
        "hand_size": 3,
        "town_spin": 3,
        "card_counts": (5, 2, 4, 2, 3),
    },
    "start_player random, seat_order from_start": {"start_player": "random", "seat_order": "from_start"},
}
TESTS = [  # (what, question, lineup, holds if)
    ("learned among greedy", "win_rate[agent=learned] - fair > 0.01", ("learned", "greedy", "greedy", "greedy"), "yes"),
    (f"{TOP} among learned", f"win_rate[agent={TOP}] - fair > 0.01", (TOP, "learned", "learned", "learned"), "no"),
    (f"learned among {TOP}", "win_rate[agent=learned] - fair > -0.01", ("learned", TOP, TOP, TOP), "yes"),
]

game = registry.get("sbr")
for name, changes in RULES.items():
    if ONLY and name not in ONLY:
        continue
    rules = SbrParams().replace(**changes)
    t = time.process_time()
    learned.learn(rules, 4)
    print(f"{name}: learning the rung took {time.process_time() - t:.1f} s CPU", flush=True)
    learned.prepare(rules, ("learned",), 4)
    for what, question, lineup, holds in TESTS:
        d = sequential.decide(
            game,
            question,
            n_players=4,
            params=knobs(rules),
            lineup=lineup,
            zone=0.02,
            max_games=MAX_GAMES,
            seed=1,
            run=RunConfig().quiet(),
        )
        ok = "holds" if d.decision == holds else "undecided" if d.decision == "undecided" else "FAILS"
        print(
            f"  {what}: {d.decision} ({ok}), win rate {100 * d.estimate:.1f} % "
            f"[{100 * d.low:.1f}, {100 * d.high:.1f}] after {d.games:,} games",
            flush=True,
        )
