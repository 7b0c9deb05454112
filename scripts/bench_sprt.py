"""The sequential test's error rates on questions with a known answer (run by hand).

    GAMELAB_GAMES=gamelab.toy python scripts/bench_sprt.py --reps 300

The toy game (gamelab.toy: two seats roll a ten-sided die, the strong
agent adds 3 x bonus_scale) has exact win rates, so the truth of every
question is known.  Each question is put at an edge of the indifference
zone, where the test promises its error rates (a wrong "yes" at most
alpha of the time at D = -zone/2, a wrong "no" at most beta at D = +zone/2),
and on the threshold itself (D = 0, either answer is acceptable); each
repetition plays fresh deals (seed = repetition).  Printed as a markdown
table for docs/decisions.md: wrong-answer rate, mean games, coverage of
the corrected 95 % interval and of the naive one, and the mean error of the
corrected and the naive estimates.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from gamelab.core import registry
from gamelab.sim.run import RunConfig
from gamelab.sim.store import MemoryStore

os.environ.setdefault("GAMELAB_GAMES", "gamelab.toy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamelab.decide import sequential  # noqa: E402
from gamelab.toy import ToyParams  # noqa: E402

LINEUP = ["strong", "weak"]
STRONG = "win_rate[agent=strong]"


def exact_strong(bonus: float, die: int = 10) -> float:
    """The strong agent's exact win rate against the weak one (ties split)."""
    x = np.arange(die)
    s, w = x[:, None] + bonus, x[None, :]
    return float(((s > w) + 0.5 * (s == w)).mean())


def questions(zone: float):
    """(label, expression, true T, true answer or None, params, baseline)."""
    p = exact_strong(3.0)
    diff = exact_strong(1.5) - exact_strong(0.9)
    paired = f"{STRONG}(params) - {STRONG}(baseline)"
    arms = dict(params=ToyParams(bonus_scale=0.5), baseline=ToyParams(bonus_scale=0.3))
    return [
        ("one arm, D = -zone/2", f"{STRONG} > {p + zone / 2:.6f}", p, "no", {}),
        ("one arm, D = +zone/2", f"{STRONG} > {p - zone / 2:.6f}", p, "yes", {}),
        ("one arm, D = 0", f"{STRONG} > {p:.6f}", p, None, {}),
        ("paired, D = -zone/2", f"{paired} > {diff + zone / 2:.6f}", diff, "no", arms),
        ("paired, D = +zone/2", f"{paired} > {diff - zone / 2:.6f}", diff, "yes", arms),
    ]


def run(reps: int, alpha: float, beta: float, zone: float) -> list[str]:
    lines = []
    for label, expr, truth, answer, arms in questions(zone):
        t0 = time.perf_counter()
        ds = [
            sequential.decide(
                registry.get("toy"),
                expr,
                lineup=LINEUP,
                alpha=alpha,
                beta=beta,
                zone=zone,
                seed=rep,
                **arms,
                run=RunConfig(store=MemoryStore(), progress=False),
            )
            for rep in range(reps)
        ]
        games = np.array([d.games for d in ds])
        yes = np.mean([d.decision == "yes" for d in ds])
        undecided = np.mean([d.decision == "undecided" for d in ds])
        wrong = np.mean([d.decision not in (answer, "undecided") for d in ds]) if answer else float("nan")
        cover = np.mean([d.low <= truth <= d.high for d in ds])
        naive_half = [1.96 * (d.high - d.low) / (2 * 1.96) for d in ds]  # same width, centred on the naive value
        naive_cover = np.mean([abs(d.naive - truth) <= h for d, h in zip(ds, naive_half)])
        bias = np.mean([d.estimate - truth for d in ds])
        naive_bias = np.mean([d.naive - truth for d in ds])
        promise = {"no": f"≤ {alpha}", "yes": f"≤ {beta}"}.get(answer, "-")
        lines.append(
            f"| {label} | {alpha}/{beta}/{zone} | {promise} | "
            + (f"{wrong:.3f}" if answer else f"P(yes) {yes:.2f}")
            + f" | {undecided:.3f} | {games.mean():,.0f} | {cover:.3f} | {naive_cover:.3f} | "
            f"{bias:+.5f} | {naive_bias:+.5f} | {time.perf_counter() - t0:.0f} s |"
        )
        print(lines[-1], flush=True)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=300)
    ap.add_argument("--zone", type=float, default=0.02)
    args = ap.parse_args()
    print(f"{args.reps} repetitions per row\n")
    print(
        "| question | alpha/beta/zone | promised wrong rate | wrong answers | undecided | mean games | "
        "corrected 95% interval covers | naive interval covers | corrected bias | naive bias | time |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for alpha, beta in ((0.05, 0.05), (0.1, 0.2)):
        run(args.reps, alpha, beta, args.zone)


if __name__ == "__main__":
    main()
