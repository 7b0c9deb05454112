"""The three questions of docs/balance-findings.md at two skill levels: the
default model and the top decided rung of each game's skill ladder at 4
players (``TOP``: each rung beat the one below by the sequential test,
``gamelab skill GAME --players 4 --trace METRIC``; through the chunk store;
prints one line per figure).  A STRAND style metric at the top rung is
measured by restricted play (one seat of ``heavy@16`` .. ``stay@16`` among
``best@16`` seats, ``GAMES_STRONG`` games a style), not from seats that all
play the same search.  Usage:
    .venv/bin/python scripts/skill_findings.py [GAMES_DEFAULT] [GAMES_STRONG] [GAME]
"""

import sys

import numpy as np

from gamelab.core import registry
from gamelab.core.params import from_mapping
from gamelab.decide.ladder import SEEDS_APART
from gamelab.models import trace
from gamelab.sim import runner
from gamelab.sim.levels import mixed_params, trace_levels
from gamelab.sim.store import ChunkStore

N_DEFAULT = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
N_STRONG = int(sys.argv[2]) if len(sys.argv) > 2 else 400
STORE = ChunkStore()
ONLY = sys.argv[3] if len(sys.argv) > 3 else None
TOP = {"sbr": "lookahead@4", "strand": "best@16"}  # the top decided rungs at 4 players, seed 0 (docs/models.md)

QUESTIONS = [
    (
        "1. SBR seat advantage",
        "sbr",
        [4],
        ["seat_spread", "win_rate[seat=1]"],
        {
            "rulebook": {},
            "sbr-seat proposal (hand_size 3, town_spin 3)": {"hand_size": 3, "town_spin": 3},
            "rotating start (start_player random, seat_order from_start)": {
                "start_player": "random",
                "seat_order": "from_start",
            },
        },
    ),
    (
        "2. STRAND variant D",
        "strand",
        [6],
        ["style_spread"],
        {
            "rulebook": {},
            "variant-D proposal 1": {
                "sum_cap": 5,
                "hand_size": 5,
                "lone_penalty": 5,
                "node_values": (2, 8, 2, 3, 6, 6, 7, 5),
            },
        },
    ),
    (
        "3. STRAND style balance",
        "strand",
        [4, 5, 6],
        ["style_gap"],
        {
            "rulebook": {},
            "styles proposal 1": {
                "hand_size": 4,
                "sum_cap": 5,
                "lone_penalty": 5,
                "node_scale": 0.68,
                "half_rounding": "down",
            },
        },
    ),
]


def params_of(game, changes):
    g = registry.get(game)
    base = g.knobs()
    changes = dict(changes)
    derived = {}
    for k in list(changes):
        if k in g.derived:
            derived.update(g.derived[k](base, changes.pop(k)))
    return from_mapping(g.knobs, {**derived, **changes}, base=base, source="findings")


def restricted(game, lv, n, games):
    """A style metric at a search rung by restricted play: one seat of the rung restricted to
    each style among P - 1 unrestricted seats (a run per style); the spread (largest minus
    smallest of the six win rates) and the gap (largest distance from fair), each with a 95 %
    bootstrap interval over deals (the six runs resampled independently)."""
    g = registry.get(game)
    rates, per_deal = {}, []
    for k, (style, agent) in enumerate(g.skill.restricted(lv.name).items()):
        f = runner.simulate(
            g,
            n_games=games,
            seed=SEEDS_APART * (101 + k),
            n_players=n,
            lineup=[agent, *lv.rest],
            params=mixed_params(g, lv, lv),
            store=STORE,
            progress=False,
        )
        mine = f[f["agent"] == agent].groupby("deal")["win"].mean().to_numpy()
        rates[style], per_deal = mine.mean(), [*per_deal, mine]
    rng = np.random.default_rng(0)
    boot = np.array([[d[rng.integers(0, len(d), len(d))].mean() for d in per_deal] for _ in range(2000)])
    r = np.array(list(rates.values()))
    out = {
        "style_spread": (r.max() - r.min(), np.percentile(boot.max(1) - boot.min(1), [2.5, 97.5])),
        "style_gap": (np.abs(r - 1 / n).max(), np.percentile(np.abs(boot - 1 / n).max(1), [2.5, 97.5])),
    }
    words = ", ".join(f"{s} {100 * v:.1f}" for s, v in sorted(rates.items(), key=lambda x: -x[1]))
    return out, words


for title, game, counts, metrics, settings in QUESTIONS:
    if ONLY and game != ONLY:
        continue
    print(f"\n## {title}", flush=True)
    g = registry.get(game)
    for label, changes in settings.items():
        p = params_of(game, changes)
        for n in counts:
            levels = {lv.name: lv for lv in trace_levels(g, n, p)}
            for lv, games in ((levels["default"], N_DEFAULT), (levels[TOP[game]], N_STRONG)):
                if lv.search and registry.get(game).skill.restricted:  # styles at skill: restricted play
                    found, words = restricted(game, lv, n, games)
                    parts = [
                        f"{m} {100 * found[m][0]:.1f} [{100 * found[m][1][0]:.1f}, {100 * found[m][1][1]:.1f}]"
                        for m in metrics
                    ]
                    print(
                        f"{label} | {n}p | {lv.name} restricted play ({games} games a style) | "
                        + "; ".join(parts)
                        + f" | {words}",
                        flush=True,
                    )
                    continue
                f = runner.simulate(
                    g,
                    n_games=games,
                    seed=0,
                    n_players=n,
                    lineup=lv.lineup,
                    params=lv.params,
                    store=STORE,
                    progress=False,
                )
                parts = []
                for m in metrics:
                    r = trace.measure(g, f, m)
                    parts.append(f"{m} {100 * r['value']:.1f} [{100 * r['low']:.1f}, {100 * r['high']:.1f}]")
                print(f"{label} | {n}p | {lv.name} ({games} games) | " + "; ".join(parts), flush=True)
