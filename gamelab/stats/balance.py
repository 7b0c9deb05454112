"""The balance metrics: one name for each, used by sensitivity, the tuner,
sequential tests, reports and notebooks (``gamelab metrics GAME`` lists them).

Every metric is a function of sums over deals: each deal of a run (played
in every seat rotation) contributes a few numbers (wins of seat 1, seats
of style ``heavy``, rounds with a team, ...), and the metric is computed from
their totals.  So one resampling of deals serves every metric at once, and
two runs on the same deals (common random numbers) are compared by
resampling the same deals for both: the paired bootstrap.

Shared metrics (any game): ``seat_spread`` and ``<group>_spread`` for each
of the game's report groups (largest minus smallest per-seat win rate),
``seat_gap`` / ``<group>_gap`` (the largest distance of one from the fair
1/players: "every style within 5 points of fair"),
``balance`` (1 minus the seat spread, as Ludii defines it),
``first_seat_advantage``, ``decisiveness``, ``mean_margin``,
``mean_length``, ``lead_changes``, ``mean_score``, ``winner_score`` and ``win_rate[GROUP=VALUE]``.  A game
adds its own diagnostics (``Game.report.metrics``) with :func:`ratio`.

The bootstrap is written here rather than called from
``scipy.stats.bootstrap``: one multinomial weight matrix over deals, shared
by every metric and by both arms of a paired comparison, is what makes the
comparison paired and costs a single matrix product per run.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from gamelab.core.errors import GamelabError, short

Sums = Mapping[str, np.ndarray]
LENGTH_COLUMNS = ("game_length", "rounds", "turns", "length")
BOOTSTRAP = 400


@dataclasses.dataclass(frozen=True)
class Metric:
    """A balance metric: per-row contributions summed per deal, and the value
    from those sums (vectorised over a leading axis of resamples)."""

    name: str
    label: str
    doc: str
    columns: Callable[[pd.DataFrame], dict[str, np.ndarray]]  # per frame row
    value: Callable[[Sums], np.ndarray]
    percent: bool = False  # shown as a percentage
    goal: str = ""  # "lower" / "higher": what a designer usually wants
    # the per-deal sums straight from a frame (rows: deals, sorted), for a metric of many sums a deal
    # (the meta-game's wins per profile and strategy) that per-row columns would make too wide
    sums: Callable[[pd.DataFrame, np.ndarray], pd.DataFrame] | None = None  # frame, each row's block
    count: bool = False  # a whole number of things ("the number of styles worth playing")

    @property
    def smooth(self) -> bool:
        """Whether the metric is a smooth function of its sums (a gradient weighs it: the SPRT
        of :mod:`gamelab.decide.sequential`); the meta-game's are not (a count of an
        equilibrium's support jumps), and :mod:`gamelab.decide.grouped` decides them."""
        return self.sums is None


DIFFERENCES = ("_spread", "_gap", "_advantage")  # metric names that are differences of two shares


def in_points(m: Metric) -> bool:
    """Whether ``m`` reads in percentage points: a difference of shares (a
    spread, a gap, an advantage), where a share itself reads in per cent."""
    return bool(m.percent) and m.name.endswith(DIFFERENCES)


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


# -- the meta-game's metrics -------------------------------------------------------------------

META_SOLVED = 40  # resamples solved for a meta-game metric's interval (each an equilibrium search)


def _profile_frame(frame: pd.DataFrame, strategies) -> None:
    """Refuse a table that is not a run of random profiles (the strategies' ``profile_agent`` on every seat)."""
    agent = strategies.profile_agent
    if "agent" not in frame or not (frame["agent"] == agent).all():
        raise GamelabError(
            f"the meta-game's metrics need a run with {agent} on every seat (a goal's lineup: [{agent}, ...])"
        )


def _profile_sums(frame: pd.DataFrame, strategies, block: np.ndarray) -> pd.DataFrame:
    """Per block of deals (``block``: each row's), the wins and seats of each strategy in each
    profile (columns ``meta:k:s:w`` / ``:n``)."""
    from gamelab.stats import metagame as solve

    _profile_frame(frame, strategies)
    names = list(strategies.names)
    S = len(names)
    code = pd.Categorical(frame[strategies.column].astype(str), categories=names).codes.astype(np.int64)
    if (code < 0).any():
        raise GamelabError(f"the meta-game's metrics: a seat plays none of {', '.join(names)}")
    game = pd.factorize(frame["game"])[0]
    P = int(np.bincount(game).max())
    counts = np.zeros((game.max() + 1, S), np.int64)
    np.add.at(counts, (game, code), 1)
    index = solve.profile_index(S, P)
    radix = (P + 1) ** np.arange(S)
    lookup = {int(np.dot(c, radix)): k for c, k in index.items()}
    k_game = np.array([lookup[int(v)] for v in counts @ radix])
    K = len(index)
    deals, deal = np.unique(block, return_inverse=True)
    flat = (deal * K + k_game[game]) * S + code
    size = len(deals) * K * S
    wins = np.bincount(flat, frame["win"].to_numpy(float), size).reshape(len(deals), K * S)
    seats = np.bincount(flat, minlength=size).astype(float).reshape(len(deals), K * S)
    present = (solve.profiles(S, P) > 0).ravel()
    cols = {}
    for j in np.flatnonzero(present):
        k, s = divmod(int(j), S)
        cols[f"meta:{k}:{s}:w"], cols[f"meta:{k}:{s}:n"] = wins[:, j], seats[:, j]
    return pd.DataFrame(cols, index=deals)


def _payoff_tables(s: Sums, n_strategies: int) -> tuple[np.ndarray, int]:
    """(..., K, S) the payoff tables of the sums (NaN: a profile never played) and the player count."""
    from gamelab.stats import metagame as solve

    keys = [k for k in s if k.startswith("meta:") and k.endswith(":w")]
    K = 1 + max(int(k.split(":")[1]) for k in keys)
    P = next(p for p in range(1, 64) if len(solve.profiles(n_strategies, p)) == K)
    lead = np.shape(s[keys[0]])
    out = np.full((*lead, K, n_strategies), np.nan)
    for key in keys:
        _, k, st, _ = key.split(":")
        w, n = np.asarray(s[key], float), np.asarray(s[key[:-1] + "n"], float)
        out[..., int(k), int(st)] = w / np.where(n > 0, n, np.nan)
    return out, P


def _solved(s: Sums, n_strategies: int, summary: Callable) -> np.ndarray:
    """``summary(equilibria, n_strategies)`` of each table in ``s`` (NaN where a profile was never played);
    of a batch of resamples, the first META_SOLVED are solved and stand for the rest."""
    from gamelab.stats import metagame as solve

    tables, P = _payoff_tables(s, n_strategies)
    flat = tables.reshape(-1, *tables.shape[-2:])
    present = solve.profiles(n_strategies, P) > 0
    solved = []
    for t in flat[:META_SOLVED]:
        solved.append(np.nan if np.isnan(t[present]).any() else summary(_equilibria(t, P), n_strategies))
    out = np.resize(np.array(solved, float), len(flat))  # the solved resamples, repeated
    return out.reshape(tables.shape[:-2])


_SOLVED: dict = {}  # table bytes -> equilibria: both meta-game metrics of one estimate solve each table once


def _equilibria(table: np.ndarray, n_players: int) -> list:
    from gamelab.stats import metagame as solve

    key = (n_players, table.tobytes())
    if key not in _SOLVED:
        if len(_SOLVED) > 4 * META_SOLVED:
            _SOLVED.clear()
        _SOLVED[key] = solve.equilibria(table, n_players)
    return _SOLVED[key]


def _worth(eqs, n_strategies) -> float:
    from gamelab.stats import metagame as solve

    return float(len({s for e in eqs for s in range(n_strategies) if e.shares[s] >= solve.WORTH})) if eqs else np.nan


def _spread(eqs, n_strategies) -> float:
    return float(eqs[0].shares.max() - eqs[0].shares.min()) if eqs else np.nan


def metagame_metrics(strategies) -> list[Metric]:
    """``<label>s_worth_playing``: how many strategies have at least 1 % of the seats in some
    symmetric equilibrium of the meta-game (what adapting players keep); ``equilibrium_spread``:
    the largest minus the smallest strategy's share in the first equilibrium (0: all played alike).
    Both from a run of random profiles (``strategies.profile_agent`` on every seat)."""
    S = len(strategies.names)
    label = strategies.label

    def columns(frame):
        _profile_frame(frame, strategies)
        return {}

    def sums(frame, block):
        return _profile_sums(frame, strategies, block)

    return [
        Metric(
            f"{label}s_worth_playing",
            f"{label}s worth playing",
            f"{label}s with at least 1 % of the seats in an equilibrium of the {label}s' meta-game "
            "(if players adapt, the ones they keep)",
            columns,
            lambda s: _solved(s, S, _worth),
            goal="higher",
            sums=sums,
            count=True,
        ),
        Metric(
            "equilibrium_spread",
            "equilibrium spread",
            f"largest minus smallest {label}'s share of the seats in the meta-game's equilibrium",
            columns,
            lambda s: _solved(s, S, _spread),
            percent=True,
            goal="lower",
            sums=sums,
        ),
    ]


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


# -- computing ------------------------------------------------------------------------


BLOCKS = 250  # a meta-game metric's deals are summed in this many blocks (see deal_sums)


def deal_blocks(deal: np.ndarray) -> np.ndarray:
    """Each row's block of deals: the sorted deals cut into BLOCKS runs of consecutive ones (two
    tables of the same deals get the same blocks, so paired comparisons stay paired)."""
    deals, inverse = np.unique(deal, return_inverse=True)
    width = max(1, -(-len(deals) // BLOCKS))  # ceil
    return deals[(inverse // width) * width]  # a block is named by its first deal


def deal_sums(frame: pd.DataFrame, metrics: Sequence[Metric]) -> pd.DataFrame:
    """Per deal, every sum the metrics need (rows: deals, columns: parts).

    With a meta-game metric (``Metric.sums``: hundreds of sums a deal) the rows
    are blocks of deals instead (:func:`deal_blocks`): deals are independent,
    so resampling blocks of them is a bootstrap too, and the table stays small."""
    cols: dict[str, np.ndarray] = {}
    direct: list[Callable] = []
    for m in metrics:
        try:
            cols.update(m.columns(frame))
            if m.sums is not None and not any(m.sums is d for d in direct):
                direct.append(m.sums)
        except KeyError as exc:
            raise GamelabError(f"metric {m.name}: the table has no column {exc}") from None
    parts = pd.DataFrame(cols, index=frame.index)
    deal = frame["deal"].to_numpy()
    if not direct:
        return parts.groupby(deal, sort=True).sum()
    block = deal_blocks(deal)
    out = parts.groupby(block, sort=True).sum()
    for fn in direct:
        extra = fn(frame, block)
        out = pd.concat([out, extra.loc[:, ~extra.columns.isin(out.columns)]], axis=1)
    return out.fillna(0.0)


def _weights(n_deals: int, n_boot: int, rng: np.random.Generator | None) -> np.ndarray:
    """(B, D) bootstrap weights: how often each deal is drawn in each resample
    (``rng`` None: those of ``default_rng(0)``, drawn once per size and kept)."""
    if rng is None:
        return _default_weights(n_deals, n_boot)
    return rng.multinomial(n_deals, np.full(n_deals, 1 / n_deals), size=n_boot).astype(float)


@functools.lru_cache(maxsize=8)  # a report's sizes: each player count's deals, the traces' runs
def _default_weights(n_deals: int, n_boot: int) -> np.ndarray:
    """``_weights(n_deals, n_boot, np.random.default_rng(0))``, read-only: a
    report resamples the same deals for many metrics and rule steps."""
    w = _weights(n_deals, n_boot, np.random.default_rng(0))
    w.flags.writeable = False
    return w


def _values(metrics, sums: pd.DataFrame, weights: np.ndarray | None):
    arr = sums.to_numpy(float)
    totals = arr.sum(axis=0) if weights is None else weights @ arr
    named = {c: totals[..., i] for i, c in enumerate(sums.columns)}
    with np.errstate(invalid="ignore", divide="ignore"):
        return {m.name: np.asarray(m.value(named), float) for m in metrics}


def _tail(values: np.ndarray, q: float, m: Metric) -> float:
    """A percentile of resampled values; of a count, one of the values themselves (a count's
    interval is whole numbers: 2 to 2, never 2 to 2.02)."""
    if m.count:
        return float(np.nanpercentile(values, q, method="lower" if q < 50 else "higher"))
    return float(np.nanpercentile(values, q))


def estimate(
    frame: pd.DataFrame, metrics: Sequence[Metric], *, n_boot: int = BOOTSTRAP, rng: np.random.Generator | None = None
) -> pd.DataFrame:
    """Each metric with a 95 % bootstrap interval over deals."""
    sums = deal_sums(frame, metrics)
    point = _values(metrics, sums, None)
    boot = _values(metrics, sums, _weights(len(sums), n_boot, rng))
    return pd.DataFrame(
        [
            {
                "metric": m.name,
                "value": float(point[m.name]),
                "low": _tail(boot[m.name], 2.5, m),
                "high": _tail(boot[m.name], 97.5, m),
                "deals": len(sums),
            }
            for m in metrics
        ]
    )


def paired_change(
    frame: pd.DataFrame,
    base: pd.DataFrame,
    metrics: Sequence[Metric],
    *,
    n_boot: int = BOOTSTRAP,
    rng: np.random.Generator | None = None,
) -> pd.DataFrame:
    """``frame`` minus ``base`` for each metric, on the deals both played,
    with a 95 % paired-bootstrap interval (the same deals resampled for both)."""
    a, b = deal_sums(frame, metrics), deal_sums(base, metrics)
    deals = a.index.intersection(b.index)
    if not len(deals):
        raise GamelabError("the two runs share no deal: play them with the same seed")
    cols = a.columns.union(b.columns)
    a, b = (x.reindex(index=deals, columns=cols, fill_value=0.0) for x in (a, b))
    w = _weights(len(deals), n_boot, rng)
    pa, pb = _values(metrics, a, None), _values(metrics, b, None)
    ba, bb = _values(metrics, a, w), _values(metrics, b, w)
    rows = []
    for m in metrics:
        d = ba[m.name] - bb[m.name]
        rows.append(
            {
                "metric": m.name,
                "value": float(pa[m.name]),
                "base": float(pb[m.name]),
                "change": float(pa[m.name] - pb[m.name]),
                "low": _tail(d, 2.5, m),
                "high": _tail(d, 97.5, m),
                "deals": len(deals),
            }
        )
    return pd.DataFrame(rows)
