"""What a calibration fits to, and how far a model is from it.

A *target* is a table of cells, each a statistic with the sample size it was
measured on; a model is measured on the same cells by simulation and the
distance is a chi-square at the target's own sample sizes:

    z = (target - ours) / sqrt(se_target^2 + se_ours^2 + rounding^2 / 3)

``se_target`` is the standard error the statistic has, under our model, in
a sample as large as the target's (300 or 600 games per published
cell); ``se_ours`` that of our estimate; the rounding term is the variance of
the published figure's rounding (uniform over half a unit of its last digit
either side).  The objective is the sum of z^2 over the cells not excluded:
smooth in the model's knobs, never a count of cells inside a band.

Two kinds of target:

* :func:`published`: the rulebook's simulated tables (``data/claims``),
  measured by the game's ``GAME.rulebook.claims.measure``; its ``se300``/``se600``
  column is ``se_target`` and ``inside300``/``inside600`` the band.
* :func:`from_records` / :func:`from_frames`: outcome statistics (the mean
  of every per-seat value a record's ``final`` gives that is also a column of
  the simulated table: scores, lone markers, relic points, ...) per player
  count, measured by :func:`gamelab.sim.runner.simulate` with the default lineup.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError
from gamelab.core.files import named_game
from gamelab.sim.run import RunConfig

Z95 = 1.959964
KEYS = ["table", "row", "column"]  # what names a cell
SCORE_KEYS = ("total", "scores", "score")  # a record's final scores, as games name them


@dataclasses.dataclass(frozen=True)
class Target:
    """Cells to fit: ``label`` (for provenance), ``cells`` (at least
    ``table, row, column, value``) and ``measure(params, n_games, seed,
    run) -> frame`` (``run``: a :class:`~gamelab.sim.run.RunConfig`) with, per cell, ``ours``, ``se``, ``se_target``,
    ``band`` (the target inside the band its sample size allows) and
    ``rounding``."""

    game: str  # the game's name (the cells are its data)
    label: str
    cells: pd.DataFrame
    measure: Callable[..., pd.DataFrame]


def _band_columns(frame: pd.DataFrame) -> tuple[str | None, str | None]:
    se = next((c for c in frame.columns if re.fullmatch(r"se\d+", str(c))), None)
    band = next((c for c in frame.columns if re.fullmatch(r"inside\d+", str(c))), None)
    return se, band


def published(game: Game) -> Target:
    """The rulebook's simulated cells of ``game`` (not the rules-decided ones)."""
    from gamelab.rulebook.claims import is_exact, load_claims
    from gamelab.rulebook.claims import measure as measure_claims
    from gamelab.rulebook.identities import rounding

    published = game.rulebook.claims
    if published is None:
        raise GamelabError(f"{game.name} publishes no tables to calibrate to: give --target RECORDS")
    claims = load_claims(game.name)
    rows = claims[~is_exact(claims)].reset_index(drop=True)
    if rows.empty:
        raise GamelabError(f"{game.name}: no published simulated cells in data/claims")

    def measure(params, n_games: int, seed: int, run: RunConfig | None = None) -> pd.DataFrame:
        out = measure_claims(game, rows, n_games=n_games, seed=seed, params=params, run=(run or RunConfig()).quiet())
        se, band = _band_columns(out)
        res = out[KEYS + ["value", "ours"]].copy()
        res["se"] = out["se"] if "se" in out else (out["high"] - out["low"]) / (2 * Z95)
        res["se_target"] = out[se] if se else res["se"]
        res["band"] = out[band].astype(bool) if band else out["inside"].astype(bool)
        res["rounding"] = [rounding(str(p)) for p in out["printed"]]
        return res

    return Target(game.name, "published", rows[KEYS + ["value"]], measure)


def _final_values(ledger: dict) -> dict:
    """Per-seat lists of a finished record's ``final``: {column: values}."""
    final = ledger.get("final") or {}
    out = {}
    for key, value in final.items():
        if isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value):
            out["score" if key in SCORE_KEYS else key] = [float(v) for v in value]
    return out


def from_records(paths) -> Target:
    """Outcome statistics of recorded playtests (finished games only)."""
    from gamelab.rulebook import playtest

    by_players: dict[int, list[dict]] = {}
    game = None
    for path in paths:
        ledger = playtest.replay_file(path)
        if ledger.get("final", {}).get("complete") is False:
            continue
        values = _final_values(ledger)
        if "score" not in values:
            continue
        if game not in (None, ledger["game"]):
            raise GamelabError(f"{path}: a record of {ledger['game']}, the others are of {game}")
        game = ledger["game"]
        by_players.setdefault(len(values["score"]), []).append(values)
    if game is None:
        raise GamelabError("no finished playtest record with final scores among the targets")
    rows = []
    for P, games in sorted(by_players.items()):
        for col in sorted(set.intersection(*(set(v) for v in games))):
            per_game = [float(np.mean(v[col])) for v in games]
            rows.append(("records", f"{P} players", f"mean_{col}", float(np.mean(per_game)), len(games)))
    cells = pd.DataFrame(rows, columns=KEYS + ["value", "n"])
    label = f"{sum(map(len, by_players.values()))} playtest records"
    return statistics_target(named_game(game), cells, label=label)  # the records name their game


def from_frames(game: Game, frames: dict, columns) -> Target:
    """A target made of our own simulated tables ({players: frame}): the
    per-seat mean of each of ``columns``, with the frame's number of games as
    the sample size (for tests: a model must recover its own knobs)."""
    rows = []
    for P, frame in sorted(frames.items()):
        per_game = frame.groupby("game")[list(columns)].mean()
        for col in columns:
            rows.append(("frames", f"{P} players", f"mean_{col}", float(per_game[col].mean()), len(per_game)))
    return statistics_target(game, pd.DataFrame(rows, columns=KEYS + ["value", "n"]), label="simulated tables")


def statistics_target(game: Game, cells: pd.DataFrame, *, label: str) -> Target:
    """Cells ``mean_<column>`` per ``"<P> players"`` row, measured as the
    per-seat mean of that column of :func:`gamelab.sim.runner.simulate`."""
    from gamelab.sim import runner

    def measure(params, n_games: int, seed: int, run: RunConfig | None = None) -> pd.DataFrame:
        run = run or RunConfig()
        out = []
        for row, group in cells.groupby("row", sort=False):
            P = int(str(row).split()[0])
            frame = runner.simulate(
                game,
                n_games=n_games,
                seed=seed,
                n_players=P,
                params=params,
                **run.simulate_args(),
            )
            per_game = frame.groupby("game").mean(numeric_only=True)
            for r in group.itertuples():
                col = str(r.column).removeprefix("mean_")
                if col not in per_game:
                    raise GamelabError(f"{label}: {col!r} is not a column of {game.name}'s simulated table")
                x = per_game[col].astype(float)
                sd = float(x.std(ddof=1))
                se_t = sd / np.sqrt(r.n)
                out.append(
                    dict(
                        table=r.table,
                        row=r.row,
                        column=r.column,
                        value=r.value,
                        ours=float(x.mean()),
                        se=sd / np.sqrt(len(x)),
                        se_target=se_t,
                        band=bool(abs(r.value - x.mean()) <= Z95 * se_t),
                        rounding=0.0,
                    )
                )
        return pd.DataFrame(out)

    return Target(game.name, label, cells, measure)


# --- the objective ---------------------------------------------------------------
def residuals(measured: pd.DataFrame) -> pd.Series:
    """z per cell (NaN where the cell was not measured)."""
    var = measured["se_target"] ** 2 + measured["se"] ** 2 + measured["rounding"] ** 2 / 3
    z = (measured["value"] - measured["ours"]) / np.sqrt(var.where(var > 0))
    same = (var == 0) & (measured["value"] == measured["ours"])
    return z.mask(same, 0.0)


def objective(measured: pd.DataFrame, excluded: pd.Series | None = None) -> float:
    """Chi-square over the cells not ``excluded`` (an unmeasured or
    impossible-to-scale cell counts as a large z, never as a pass)."""
    z = residuals(measured)
    keep = ~excluded if excluded is not None else pd.Series(True, index=z.index)
    z = z[keep].fillna(MISSING_Z).clip(-MISSING_Z, MISSING_Z)
    return float((z**2).sum())


MISSING_Z = 100.0  # z given to a cell we could not measure (and the largest counted)


def excluded_mask(measured: pd.DataFrame, excluded: list[dict]) -> pd.Series:
    """Cells named by the calibration file's ``excluded`` list."""
    mask = pd.Series(False, index=measured.index)
    for cell in excluded:
        hit = pd.Series(True, index=measured.index)
        for k in KEYS:
            if k in cell:
                hit &= measured[k].astype(str) == str(cell[k])
        mask |= hit
    return mask


def calibration_file(game: Game) -> dict:
    """``data/calibration/<game>.yaml``: the game's default ``free`` knobs,
    their search ``space``, the ``fixed`` knobs the rulebook describes, and
    the ``excluded`` cells no model of the described kind can meet."""
    from gamelab.core.files import load_mapping
    from gamelab.core.paths import PACKAGE

    path = PACKAGE.parent / "data" / "calibration" / f"{game.name}.yaml"
    return load_mapping(path, what="calibration file") if path.exists() else {}


def reading_params(game: Game) -> list:
    """Rule parameters that are readings of an ambiguous sentence: named in
    the "Readings" / "Ambiguities" section of ``docs/rules-<game>.md``, with
    a finite set of values (choices or true/false)."""
    from gamelab.core.params import specs
    from gamelab.core.paths import PACKAGE

    path = PACKAGE.parent / "docs" / f"rules-{game.name}.md"
    if not path.exists():
        return []
    text, names = path.read_text(encoding="utf-8"), []
    for section in re.split(r"\n(?=## )", text):
        head = section.splitlines()[0] if section else ""
        if re.search(r"reading|ambigu", head, re.I):
            names += re.findall(r"`(\w+)`", section)
    rules = {s.name: s for s in specs(game.rules)}
    chosen = [rules[n] for n in dict.fromkeys(names) if n in rules]
    return [s for s in chosen if s.choices is not None or s.kind is bool]


def records_or_published(game: Game, target: list[str] | None) -> Target:
    """``--target``: ``published`` (or nothing) or record files."""
    if not target or target == ["published"]:
        return published(game)
    missing = [t for t in target if not Path(t).exists()]
    if missing:
        raise GamelabError(f"--target {missing[0]}: no such record file (or say 'published')")
    t = from_records(target)
    if t.game != game.name:
        raise GamelabError(f"--target: the records are of {t.game}, not {game.name}")
    return t
