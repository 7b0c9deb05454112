"""The game's headline imbalance on one run, as a sentence with its 95 % interval and games."""

from __future__ import annotations


def headline_figure(game_def, frame, n_players: int, seed: int) -> str:
    """``Style spread, 4 players: 24.6 points (95 % interval 20.8–27.8), these
    2,000 games``: the game's headline imbalance on the panel's run, estimated as
    Levers estimates its "now" (the same games give the same figure); empty
    when this run cannot give it."""
    import numpy as np

    from gamelab.core.errors import GamelabError
    from gamelab.stats import balance, balance_metric, bootstrap

    m = balance.metric(game_def, game_def.report.headline)
    try:
        e = bootstrap.estimate(frame, [m], rng=np.random.default_rng(seed)).iloc[0]
    except (GamelabError, KeyError, ValueError):
        return ""
    if not np.isfinite(e["value"]):
        return ""
    scale, unit = (100, " points" if balance_metric.in_points(m) else " %") if m.percent else (1, "")
    value, low, high = (f"{x * scale:.1f}" if scale == 100 else f"{x:.3g}" for x in (e["value"], e["low"], e["high"]))
    games = frame["game"].nunique()
    return (
        f"{m.label[0].upper()}{m.label[1:]}, {n_players} players: {value}{unit} (95 % interval {low}–{high}), "
        f"these {games:,} games"
    )
