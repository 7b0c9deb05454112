"""The balance metrics' catalogue: one name for each, used by sensitivity, the tuner,
sequential tests, reports and notebooks (``gamelab metrics GAME`` lists them).

Shared metrics (any game): ``seat_spread`` and ``<group>_spread`` for each
of the game's report groups (largest minus smallest per-seat win rate),
``seat_gap`` / ``<group>_gap`` (the largest distance of one from the fair
1/players: "every style within 5 points of fair"),
``balance`` (1 minus the seat spread, as Ludii defines it),
``first_seat_advantage``, ``decisiveness``, ``mean_margin``,
``mean_length``, ``lead_changes``, ``mean_score``, ``winner_score`` and ``win_rate[GROUP=VALUE]``.  A game
adds its own diagnostics (``Game.report.metrics``) with :func:`ratio`; a game with
strategies has the meta-game's (:mod:`gamelab.stats.metagame_metrics`).  What
a metric is: :mod:`gamelab.stats.balance_metric`; its interval: :mod:`gamelab.stats.bootstrap`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd

from gamelab.core.errors import GamelabError, short
from gamelab.stats.balance_metric import Metric, Sums
from gamelab.stats.bootstrap import estimate
from gamelab.stats.metagame_metrics import metagame_metrics

LENGTH_COLUMNS = ("game_length", "rounds", "turns", "length")


def _game_rows(frame: pd.DataFrame) -> np.ndarray:
    """1.0 on the first row of each game (one per game), else 0.0."""
    return (~frame["game"].duplicated()).to_numpy(float)


def ratio(
    name: str,
    label: str,
    numerator: str,
    denominator: str | None = None,
    *,
    per: str = "game",
    percent: bool = False,
    doc: str = "",
    goal: str = "",
) -> Metric:
    """Sum of ``numerator`` over sum of ``denominator`` (or over the number of
    games, ``per="game"``, or of seats, ``per="seat"``).  A column that is one
    value per game (repeated on each of its rows) is counted once per game."""

    def columns(frame):
        first = _game_rows(frame)
        per_game = _is_per_game(frame, numerator)
        num = frame[numerator].fillna(0).to_numpy(float) * (first if per_game else 1.0)
        if denominator is not None:
            d = frame[denominator].fillna(0).to_numpy(float)
            den = d * (first if _is_per_game(frame, denominator) else 1.0)
        else:
            den = first if per == "game" else np.ones(len(frame))
        return {f"{name}:num": num, f"{name}:den": den}

    def value(s):
        return s[f"{name}:num"] / np.where(s[f"{name}:den"] > 0, s[f"{name}:den"], np.nan)

    return Metric(name, label, doc or label, columns, value, percent, goal)


def complement(m: Metric, name: str, label: str, *, doc: str = "") -> Metric:
    """One minus ``m`` (a share's other side: rounds without a team beside rounds with one);
    what a designer usually wants of it is the opposite of ``m``'s goal."""
    goal = {"higher": "lower", "lower": "higher"}.get(m.goal, "")
    return Metric(name, label, doc or label, m.columns, lambda s: 1 - m.value(s), m.percent, goal)


def _is_per_game(frame: pd.DataFrame, column: str) -> bool:
    """A column whose value is the same on every row of a game."""
    return bool((frame.groupby("game", sort=False)[column].nunique(dropna=False) <= 1).all())


def _group_columns(frame, group):
    win = frame["win"].to_numpy(float)
    out = {}
    for v in pd.unique(frame[group]):
        mine = (frame[group] == v).to_numpy(float)
        out[f"{group}={v}:w"], out[f"{group}={v}:n"] = win * mine, mine
    return out


def _rates(s: Sums, group: str) -> np.ndarray:
    """(..., K) per-seat win rates of the group's values present in ``s``."""
    keys = sorted(k[:-2] for k in s if k.startswith(f"{group}=") and k.endswith(":w"))
    w = np.stack([s[f"{k}:w"] for k in keys], axis=-1)
    n = np.stack([s[f"{k}:n"] for k in keys], axis=-1)
    return w / np.where(n > 0, n, np.nan)


def spread(group: str) -> Metric:
    def value(s):
        r = _rates(s, group)
        return np.nanmax(r, axis=-1) - np.nanmin(r, axis=-1)

    return Metric(
        f"{group}_spread",
        f"{group} spread",
        f"largest minus smallest per-seat win rate by {group}",
        lambda f: _group_columns(f, group),
        value,
        percent=True,
        goal="lower",
    )


def fair_gap(group: str) -> Metric:
    """The largest distance of a ``group`` value's per-seat win rate from the
    fair share ("every style within 5 points of fair"): the wins per seat, which
    is 1 / players where a game's win shares add up to one, and a team's size /
    players where every member of the winning team wins (a team variant)."""

    def columns(frame):
        out = _group_columns(frame, group)
        out["fair:wins"], out["fair:seats"] = frame["win"].to_numpy(float), np.ones(len(frame))
        return out

    def value(s):
        fair = s["fair:wins"] / s["fair:seats"]
        return np.nanmax(np.abs(_rates(s, group) - np.asarray(fair)[..., None]), axis=-1)

    return Metric(
        f"{group}_gap",
        f"{group} gap from fair",
        f"largest distance of a {group}'s per-seat win rate from the fair 1/players",
        columns,
        value,
        percent=True,
        goal="lower",
    )


def group_words(group: str, value) -> str:
    """One group of seats in words: ``seat 1``, ``the heavy style``, ``the strong agent``."""
    text = str(value).replace("_", " ")
    return f"{group} {text}" if group == "seat" else f"the {text} {group.replace('_', ' ')}"


def win_rate(group: str, value) -> Metric:
    key = f"{group}={value}"

    def columns(frame):
        if group not in frame:
            raise GamelabError(f"win_rate[{group}=...]: the table has no column {group!r}")
        mine = (frame[group].astype(str) == str(value)).to_numpy(float)
        if not mine.any():
            raise GamelabError(f"win_rate[{key}]: no seat has {group} {short(value)}")
        return {f"{key}:w": frame["win"].to_numpy(float) * mine, f"{key}:n": mine}

    return Metric(
        f"win_rate[{key}]",
        f"win rate of {group_words(group, value)}",
        f"per-seat win rate of {group} {value}",
        columns,
        lambda s: s[f"{key}:w"] / s[f"{key}:n"],
        percent=True,
    )


def _fsa_columns(frame):
    cols = _group_columns(frame, "seat")
    cols["players"] = _game_rows(frame) * frame.groupby("game")["seat"].transform("size").to_numpy(float)
    cols["games"] = _game_rows(frame)
    return cols


def _first_seat_advantage(s):
    return s["seat=1:w"] / s["seat=1:n"] - s["games"] / s["players"]


def _margin_columns(frame):
    ranked = frame[["game", "score"]].sort_values(["game", "score"], ascending=[True, False])
    top = ranked.groupby("game", sort=False)
    gap = top.nth(0).set_index("game")["score"] - top.nth(1).set_index("game")["score"]
    first = _game_rows(frame)
    return {"margin": frame["game"].map(gap).to_numpy(float) * first, "games": first}


def _decisive_columns(frame):
    single = frame.groupby("game", sort=False)["win"].transform("max").to_numpy() >= 1 - 1e-9
    first = _game_rows(frame)
    return {"decisive": single * first, "games": first}


def _length_column(frame) -> str:
    for col in LENGTH_COLUMNS:
        if col in frame:
            return col
    raise GamelabError("mean_length: the game reports no length column (" + ", ".join(LENGTH_COLUMNS) + ")")


def _length_columns(frame):
    first = _game_rows(frame)
    return {"length": frame[_length_column(frame)].to_numpy(float) * first, "games": first}


def _winner_columns(frame):
    won = (frame["rank"] == 1).to_numpy(float)
    return {"winner_score:num": frame["score"].to_numpy(float) * won, "winner_score:den": won}


def _lead_columns(frame):
    first = _game_rows(frame)
    if "lead_changes" not in frame:
        raise GamelabError("lead_changes: the game does not count lead changes")
    return {"lead": frame["lead_changes"].to_numpy(float) * first, "games": first}


def shared_metrics(groups: Sequence[str]) -> list[Metric]:
    """The metrics every game has, given the game's report groups."""
    out = [spread("seat")] + [spread(g) for g in groups if g != "seat"]
    out += [fair_gap(g) for g in dict.fromkeys(("seat", *groups))]
    seat = out[0]
    out += [
        Metric(
            "balance",
            "balance",
            "1 minus the largest gap between seat win rates (Ludii)",
            seat.columns,
            lambda s: 1 - seat.value(s),
            percent=True,
            goal="higher",
        ),
        Metric(
            "first_seat_advantage",
            "first-seat advantage",
            "seat 1's win rate minus the fair 1/players",
            _fsa_columns,
            _first_seat_advantage,
            percent=True,
            goal="lower",
        ),
        Metric(
            "decisiveness",
            "decisive games",
            "share of games with a single winner",
            _decisive_columns,
            lambda s: s["decisive"] / s["games"],
            percent=True,
        ),
        Metric(
            "mean_margin",
            "winning margin",
            "mean score gap between first and second place",
            _margin_columns,
            lambda s: s["margin"] / s["games"],
        ),
        Metric(
            "mean_length",
            "game length",
            "mean length of a game (beats, rounds or turns)",
            _length_columns,
            lambda s: s["length"] / s["games"],
        ),
        Metric(
            "lead_changes",
            "lead changes",
            "times the sole leader changed, per game",
            _lead_columns,
            lambda s: s["lead"] / s["games"],
        ),
        ratio("mean_score", "mean final score", "score", per="seat", doc="mean final score per player"),
        Metric(
            "winner_score",
            "winner's score",
            "the final score of the game's winner (each of tied winners counted)",
            _winner_columns,
            lambda s: s["winner_score:num"] / s["winner_score:den"],
        ),
    ]
    return out


def catalogue(game) -> dict[str, Metric]:
    """Every named metric of a registered game (``win_rate[...]`` aside);
    a game that declares strategies has the meta-game's too."""
    out = {m.name: m for m in shared_metrics(game.report.groups)}
    out.update({m.name: m for m in game.report.metrics})
    strategies = game.metagame
    if strategies is not None and strategies.profile_agent:
        out.update({m.name: m for m in metagame_metrics(strategies)})
    return out


def panel_table(game, frame: pd.DataFrame) -> pd.DataFrame:
    """A notebook panel's table of the game's measures (``Game.panel_measures``, metric
    names): each metric's label, value and 95 % bootstrap interval over deals (the seat
    rotations of a deal share its chance, so deals are the independent units, not games or
    players), shares in per cent (``measure``, ``value``, ``low``, ``high``, ``deals``)."""
    from gamelab.stats.tables import percent_rows

    metrics = [metric(game, name) for name in game.panel_measures]
    est = estimate(frame, metrics)
    table = est.assign(measure=[m.label for m in metrics])[["measure", "value", "low", "high", "deals"]]
    return percent_rows(table, [m.label for m in metrics if m.percent])


_WIN_RATE = re.compile(r"^win_rate\[(\w+)=([^\]]+)\]$")


def group_values(game, group: str) -> tuple[str, ...] | None:
    """The values a report group takes (as text): seats 1..most players,
    the game's agents, or the game's declared ``report.group_values`` (None: not
    declared, so only the table can tell)."""
    if group == "seat":
        return tuple(str(s) for s in range(1, game.players[1] + 1))
    if group == "agent" and game.agents:
        return game.playable
    values = game.report.group_values.get(group)
    return tuple(values) if values is not None else None


def check_group(game, group: str, value: str) -> None:
    """``win_rate[group=value]``: a declared report group and one of its values."""
    if group not in game.report.groups and group != "agent":  # every table has its seats' agents
        raise GamelabError(
            f"win_rate[{short(group)}=...]: {short(group)} is not a report group of {game.name}; "
            f"its groups are {', '.join(game.report.groups)}"
        )
    known = group_values(game, group)
    if known is not None and value not in known:
        raise GamelabError(
            f"win_rate[{group}={short(value)}]: {short(value)} is not a known {group} of {game.name}; "
            f"known: {', '.join(known)}"
        )


def metric(game, name: str) -> Metric:
    """The metric called ``name`` (``win_rate[GROUP=VALUE]`` included: a
    declared report group and one of its known values)."""
    found = _WIN_RATE.match(name.strip()) if isinstance(name, str) else None
    if found:
        check_group(game, found.group(1), found.group(2))
        return win_rate(found.group(1), found.group(2))
    known = catalogue(game)
    if name not in known:
        import difflib

        close = difflib.get_close_matches(str(name), list(known), n=2)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise GamelabError(
            f"unknown metric {short(name)}{hint}; {game.name} has: {', '.join(known)}, win_rate[GROUP=VALUE]"
        )
    return known[name]
