"""How much skill matters: a game's skill ladder, level against level (``gamelab skill``).

``GAME.skill.ladder`` names agents from weakest to strongest.  Level k is
measured against the level below on paired, seat-rotated deals: one seat of
level k among P - 1 seats of level k - 1, every deal played once per seat
rotation (``gamelab.sim.runner``), so the stronger agent sits in every seat on
the same cards.  Its win rate, with a 95 % interval over deals (the
rotations of a deal share its cards, so the deal is the unit), is compared
with the fair share 1 / P: a level "beats the one below" when the whole
interval lies above it.

Luck, in the spirit of restricted play (Jaffe et al., "Evaluating
competitive game balance with restricted play", 2012): how often one seat of
the weakest level beats the strongest on the other seats, and how much of a
seat's score variance the deal explains (the intraclass correlation of the
score by deal across seat rotations: 1 when the cards decide everything, 0
when they decide nothing).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from gamelab.core import registry
from gamelab.core.errors import GamelabError
from gamelab.sim import runner
from gamelab.stats.intervals import mean_interval


def ladder_of(game: str, ladder=None) -> tuple[str, ...]:
    g = registry.get(game)
    names = tuple(ladder or g.skill.ladder)
    if len(names) < 2:
        raise GamelabError(f"{game} has no skill ladder (GAME.skill.ladder names fewer than two agents)")
    unknown = [a for a in names if g.agents and a not in g.agents]
    if unknown:
        raise GamelabError(f"skill ladder: unknown agent {unknown[0]!r} of {game}")
    return names


def head_to_head(
    game: str, strong: str, weak: str, *, n_players: int, n_games: int, seed: int, params=None, workers: int = 1
) -> tuple[dict, pd.DataFrame]:
    """One seat of ``strong`` among ``weak`` seats: its win rate over deals."""
    lineup = [strong] + [weak] * (n_players - 1)
    frame = runner.simulate(
        game, n_games=n_games, seed=seed, n_players=n_players, lineup=lineup, params=params, workers=workers
    )
    mine = frame[frame["agent"] == strong]
    e = mean_interval(mine.groupby("deal")["win"].mean())
    low, high = max(0.0, e.low), min(1.0, e.high)  # a rate: the t interval clipped to [0, 1]
    return {"win_rate": e.value, "low": low, "high": high, "games": int(frame["game"].nunique())}, frame


def deal_share(frame: pd.DataFrame, agent: str) -> float:
    """Share of ``agent``'s score variance explained by the deal (one-way
    ANOVA intraclass correlation over the seat rotations of each deal)."""
    rows = frame[frame["agent"] == agent]
    groups = rows.groupby("deal")["score"]
    k = float(groups.size().mean())
    if k < 2 or groups.ngroups < 2:
        return float("nan")
    means = groups.mean()
    grand = rows["score"].mean()
    msb = k * ((means - grand) ** 2).sum() / (groups.ngroups - 1)
    msw = groups.var(ddof=1).sum() / groups.ngroups
    denom = msb + (k - 1) * msw
    return float(np.clip((msb - msw) / denom, 0.0, 1.0)) if denom > 0 else float("nan")


def ladder(
    game: str, *, n_players: int, n_games: int = 1000, seed: int = 0, params=None, workers: int = 1, levels=None
) -> list[dict]:
    """One object per level: level, agent, win_rate_vs_below, low, high,
    games, fair, beats_below (the interval above the fair share), deal_share.
    Level 0 (the weakest) has no level below: its win figures are None."""
    names = ladder_of(game, levels)
    out = [
        dict(
            level=0,
            agent=names[0],
            below=None,
            win_rate_vs_below=None,
            low=None,
            high=None,
            games=0,
            fair=1 / n_players,
            beats_below=None,
            deal_share=None,
        )
    ]
    for k in range(1, len(names)):
        res, frame = head_to_head(
            game,
            names[k],
            names[k - 1],
            n_players=n_players,
            n_games=n_games,
            seed=seed + k,
            params=params,
            workers=workers,
        )
        out.append(
            dict(
                level=k,
                agent=names[k],
                below=names[k - 1],
                win_rate_vs_below=res["win_rate"],
                low=res["low"],
                high=res["high"],
                games=res["games"],
                fair=1 / n_players,
                beats_below=bool(res["low"] > 1 / n_players),
                deal_share=deal_share(frame, names[k]),
            )
        )
    return out


def luck(
    game: str, *, n_players: int, n_games: int = 1000, seed: int = 0, params=None, workers: int = 1, levels=None
) -> dict:
    """How often one seat of the weakest level beats the strongest (win rate
    with its interval, against the fair share), and the share of the weakest
    seat's score variance the deal explains in that match."""
    names = ladder_of(game, levels)
    res, frame = head_to_head(
        game, names[0], names[-1], n_players=n_players, n_games=n_games, seed=seed, params=params, workers=workers
    )
    return {
        "weakest": names[0],
        "strongest": names[-1],
        "weakest_wins": res["win_rate"],
        "low": res["low"],
        "high": res["high"],
        "games": res["games"],
        "fair": 1 / n_players,
        "deal_share": deal_share(frame, names[0]),
    }


def figure(levels: list[dict], *, title: str = ""):
    """The skill trace: each level's win rate against the level below, with
    its interval and the fair share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in levels if r["win_rate_vs_below"] is not None]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    x = np.arange(len(rows))
    y = np.array([r["win_rate_vs_below"] for r in rows])
    err = np.array(
        [[r["win_rate_vs_below"] - r["low"] for r in rows], [r["high"] - r["win_rate_vs_below"] for r in rows]]
    )
    ax.errorbar(x, 100 * y, yerr=100 * err, marker="o", capsize=4)
    ax.axhline(100 * rows[0]["fair"] if rows else 50, ls="--", color="grey", label="fair share")
    ax.set_xticks(x, [f"{r['agent']}\nvs {r['below']}" for r in rows])
    ax.set_ylabel("win rate of one seat, %")
    ax.set_ylim(0, 100)
    ax.set_title(title or "Skill trace: each level against the level below")
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def render(levels: list[dict], luck_measures: dict | None = None) -> str:
    """Plain text for the command line."""
    lines = [f"{'level':>5}  {'agent':<16} {'vs below':<16} {'win rate':>9}  95% interval     games"]
    for r in levels:
        if r["win_rate_vs_below"] is None:
            lines.append(f"{r['level']:>5}  {r['agent']:<16} (weakest)")
            continue
        mark = "beats it" if r["beats_below"] else "does not beat it"
        lines.append(
            f"{r['level']:>5}  {r['agent']:<16} {r['below']:<16} {100 * r['win_rate_vs_below']:8.1f}%  "
            f"[{100 * r['low']:5.1f}, {100 * r['high']:5.1f}]  {r['games']:>6}  {mark}"
        )
    if levels:
        lines.append(f"fair share of one seat: {100 * levels[0]['fair']:.1f}%")
    if luck_measures:
        m = luck_measures
        lines.append(
            f"luck: one {m['weakest']} seat against {m['strongest']} wins {100 * m['weakest_wins']:.1f}% "
            f"[{100 * m['low']:.1f}, {100 * m['high']:.1f}] of {m['games']} games (fair {100 * m['fair']:.1f}%); "
            + (
                f"the deal explains {100 * m['deal_share']:.0f}% of its score variance"
                if np.isfinite(m["deal_share"])
                else "how much of its score variance the deal explains cannot be measured (one rotation per deal)"
            )
        )
    return "\n".join(lines)
