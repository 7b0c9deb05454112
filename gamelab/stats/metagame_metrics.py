"""The meta-game's metrics: the strategies worth playing and the equilibrium spread, each
from the payoff tables of a run of random profiles, solved per resample (:mod:`gamelab.stats.metagame`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from gamelab.core.errors import GamelabError
from gamelab.stats.balance_metric import Metric, Sums

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
