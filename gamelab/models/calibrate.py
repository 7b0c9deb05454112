"""Calibration: fit the agents' model knobs to a target (``gamelab calibrate``).

    result = calibrate(GAME, trials=60, seed=0)
    result.write("data/profiles/GAME.yaml")

Only model knobs move (``GAME.knobs`` minus ``GAME.rules``; a rule reading
never does).  Each candidate is measured on the same deals (one seed) and
scored by :func:`gamelab.models.targets.objective`, a chi-square at the target's own
sample sizes; Optuna's TPE sampler proposes the candidates, the defaults
first.  The study is an SQLite file under ``gamelab.core.paths.runs_dir()``
(``calibrate/``), named by what it fits, so an interrupted or repeated run
resumes and only plays the trials still missing.  The best few candidates
and the defaults are then re-measured on fresh deals (another seed, twice
the games): the verified objective decides, and is what the profile reports.

A game's ``data/calibration/<game>.yaml`` names its default free knobs, their
search ranges, the knobs the rulebook itself describes (kept fixed) and the
published cells no model of the described kind can meet (shown, excluded from
the objective; the argument is in ``docs/agents.md``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pandas as pd

from gamelab.core import paths
from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError, ParamError
from gamelab.core.params import ParamSpec, from_mapping, specs
from gamelab.models import targets
from gamelab.models.profile import model_knobs, write_profile
from gamelab.sim.run import RunConfig

RECHECK = 3  # best candidates re-measured on fresh deals
VERIFY_SEED_OFFSET = 1_000_003  # the fresh deals' seed: seed + this
STEP = 0.01  # grid of a fitted float knob
SPREAD = 1.6  # default search range: default / SPREAD .. default * SPREAD (within the declared range)
ITEM_SPREAD = 0.3  # a tuple knob's items: default -+ this (within the declared range)
STARTUP = 5  # trials sampled at random before TPE models the objective


@dataclasses.dataclass
class Calibration:
    game: str
    target: str
    free: list[str]
    knobs: dict  # the fitted values of the free knobs
    before: dict  # defaults on the fresh deals: objective, band, cells
    after: dict  # the fitted knobs on the fresh deals
    measured: pd.DataFrame  # the fitted knobs' cells on the fresh deals (with z and excluded)
    readings: pd.DataFrame  # how each rule reading fits at the fitted knobs
    study: str  # the study's storage file
    seed: int
    n_games: int
    trials: int

    def provenance(self) -> dict:
        return {
            "target": self.target,
            "objective_before": round(self.before["objective"], 2),
            "objective_after": round(self.after["objective"], 2),
            "cells_in_band_before": self.before["band"],
            "cells_in_band_after": self.after["band"],
            "cells": self.after["cells"],
            "excluded": self.after["excluded"],
            "objective": "chi-square at the published sample sizes, verified on fresh deals",
            "seed": self.seed,
            "verify_seed": self.seed + VERIFY_SEED_OFFSET,
            "games_per_candidate": self.n_games,
            "trials": self.trials,
            "free": list(self.free),
            "study": _relative(self.study),
            "readings": _reading_summary(self.readings),
        }

    def write(self, path) -> Path:
        return write_profile(path, self.game, self.knobs, name=f"fitted to {self.target}", provenance=self.provenance())


def _relative(path: str) -> str:
    """``path`` under the workspace, as the workspace-relative path."""
    try:
        return str(Path(path).resolve().relative_to(paths.workspace()))
    except ValueError:
        return str(path)


def _reading_summary(readings: pd.DataFrame) -> dict:
    out: dict = {}
    for r in readings.itertuples():
        out.setdefault(r.parameter, {})[str(r.reading)] = round(float(r.objective), 1)
    return out


# --- the search space ------------------------------------------------------------
def free_knobs(game: Game, free: list[str] | None, config: dict) -> list[ParamSpec]:
    """The knobs to fit: ``free`` if given (model knobs only), else the
    calibration file's ``free``, else every model knob neither ``fixed`` (the
    rulebook describes it) nor ``inert`` (no agent of the target plays it)."""
    model = model_knobs(game)
    rules = {s.name for s in specs(game.rules)}
    by_name = {s.name: s for s in specs(game.knobs)}
    left_out = set(config.get("fixed", {})) | set(config.get("inert", []))
    names = free or config.get("free") or [n for n in by_name if n in model and n not in left_out]
    for n in names:
        if n in rules:
            raise ParamError(
                f"--free {n}: a rule, which calibration never changes (model knobs: {', '.join(sorted(model))})"
            )
        if n not in model:
            raise ParamError(f"--free {n}: not a model knob of {game.name} (model knobs: {', '.join(sorted(model))})")
    return [by_name[n] for n in names]


def _range(spec: ParamSpec, default, config: dict, name: str) -> tuple[float, float]:
    if name in config.get("space", {}):
        lo, hi = config["space"][name]
        return float(lo), float(hi)
    lo = spec.low if spec.low is not None else default - 1
    hi = spec.high if spec.high is not None else default + 1
    if spec.kind is tuple:  # a profile of chances: each item within ITEM_SPREAD of its default
        return float(max(lo, default - ITEM_SPREAD)), float(min(hi, default + ITEM_SPREAD))
    if default > 0:
        lo, hi = max(lo, default / SPREAD), min(hi, default * SPREAD)
    return float(lo), float(hi)


def suggest(trial, spec: ParamSpec, config: dict):
    """One knob's value for an Optuna trial (tuples item by item)."""
    if spec.choices is not None:
        return trial.suggest_categorical(spec.name, list(spec.choices))
    if spec.kind is bool:
        return trial.suggest_categorical(spec.name, [True, False])
    if spec.kind is tuple:
        return tuple(
            _float(trial, f"{spec.name}[{i}]", *_range(spec, d, config, f"{spec.name}[{i}]"))
            for i, d in enumerate(spec.default)
        )
    lo, hi = _range(spec, spec.default, config, spec.name)
    if spec.kind is int:
        return trial.suggest_int(spec.name, int(round(lo)), max(int(round(hi)), int(round(lo))))
    return _float(trial, spec.name, lo, hi)


def _float(trial, name: str, lo: float, hi: float) -> float:
    """A float on a grid of STEP (profiles stay readable)."""
    lo, hi = (round(round(x / STEP) * STEP, 6) for x in (lo, hi))
    return round(trial.suggest_float(name, lo, max(hi, lo), step=STEP), 6)


def _trial_values(spec: ParamSpec, value) -> dict:
    """The Optuna parameters that give ``value`` (to enqueue the defaults)."""
    if spec.kind is tuple:
        return {f"{spec.name}[{i}]": v for i, v in enumerate(value)}
    return {spec.name: value}


# --- measuring a candidate ---------------------------------------------------------
def evaluate(target, base, knobs: dict, *, n_games: int, seed: int, run: RunConfig, excluded: list) -> tuple:
    """(summary, measured cells) of the model ``base`` with ``knobs`` (played as ``run`` says)."""
    params = from_mapping(type(base), knobs, base=base, source="calibration")
    measured = target.measure(params, n_games=n_games, seed=seed, run=run)
    measured["excluded"] = targets.excluded_mask(measured, excluded)
    measured["z"] = targets.residuals(measured)
    kept = measured[~measured["excluded"]]
    summary = {
        "objective": targets.objective(measured, measured["excluded"]),
        "band": int(kept["band"].sum()),
        "band_all": int(measured["band"].sum()),
        "cells": len(kept),
        "excluded": int(measured["excluded"].sum()),
    }
    return summary, measured


def study_path(game: Game, key: dict) -> tuple[Path, str]:
    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:12]
    folder = paths.runs_dir() / "calibrate"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{game.name}-{digest}.db", f"{game.name}-{digest}"


def calibrate(
    game: Game,
    *,
    target: targets.Target | None = None,
    free: list[str] | None = None,
    trials: int = 30,
    n_games: int = 2400,
    seed: int = 0,
    run: RunConfig | None = None,
    base=None,
    readings: bool = True,
    log=None,
) -> Calibration:
    """Fit ``free`` knobs of ``game`` to ``target`` (default: the published tables); every
    candidate's games played as ``run`` says (local processes or a Dask cluster: the same fit)."""
    import optuna

    run = run or RunConfig()
    run = dataclasses.replace(run, executor=run.pool())  # one pool of workers for every trial
    config = targets.calibration_file(game)
    target = target or targets.published(game)
    base = base if base is not None else game.knobs()
    space = free_knobs(game, free, config)
    if not space:
        raise GamelabError(f"{game.name}: no model knob to fit (give --free NAME,...)")
    excluded = list(config.get("excluded", [])) if target.label == "published" else []
    say = log or (lambda text: None)
    study, storage = _open_study(game, target, space, base, config, n_games=n_games, seed=seed)
    done = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]

    def objective(trial):
        knobs = {s.name: suggest(trial, s, config) for s in space}
        plain = {k: list(v) if isinstance(v, tuple) else v for k, v in knobs.items()}
        trial.set_user_attr("knobs", plain)
        seen = _seen(trial.study, plain)  # the same candidate on the same deals: the same objective
        if seen is not None:
            trial.set_user_attr("band", seen.user_attrs.get("band"))
            return seen.value
        summary, _ = evaluate(target, base, knobs, n_games=n_games, seed=seed, run=run, excluded=excluded)
        trial.set_user_attr("band", summary["band"])
        say(f"trial {trial.number}: objective {summary['objective']:.1f}, {summary['band']} cells in the band")
        return summary["objective"]

    if trials > len(done):
        say(f"{game.name}: {trials - len(done)} trials to play ({len(done)} read back from {storage})")
        study.optimize(objective, n_trials=trials - len(done))
    return _verify(
        game,
        target,
        base,
        study,
        space,
        excluded,
        config,
        n_games=n_games,
        seed=seed,
        run=run,
        storage=storage,
        trials=trials,
        readings=readings,
        say=say,
    )


def _open_study(g: Game, target, space, base, config, *, n_games: int, seed: int):
    """The calibration's Optuna study, resumed from ``data/runs/`` when one
    with the same key exists (game, target cells, free knobs, sizes, seed,
    start, search settings), else new and started at ``base``'s knobs;
    ``(study, storage path)``."""
    import optuna

    key = dict(
        game=g.name,
        target=target.label,
        cells=target.cells.to_dict("list"),
        free=[s.name for s in space],
        n_games=n_games,
        seed=seed,
        base=base.changed(),
        config=config,
        search=(SPREAD, ITEM_SPREAD, STEP, STARTUP),
    )
    storage, name = study_path(g, key)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=STARTUP)
    study = optuna.create_study(study_name=name, storage=f"sqlite:///{storage}", sampler=sampler, load_if_exists=True)
    if not study.trials:
        study.enqueue_trial({k: v for s in space for k, v in _trial_values(s, getattr(base, s.name)).items()})
    return study, storage


def _seen(study, plain: dict):
    """A finished trial of ``study`` with exactly these knobs, if any."""
    import optuna

    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)):
        if t.user_attrs.get("knobs") == plain:
            return t
    return None


def _verify(
    g: Game, target, base, study, space, excluded, config, *, n_games, seed, run, storage, trials, readings, say
):
    """Re-measure the defaults and the best candidates on fresh deals; the best verified wins."""
    import optuna

    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    unique = {json.dumps(t.user_attrs["knobs"], sort_keys=True): t for t in sorted(complete, key=lambda t: -t.value)}
    best = sorted(unique.values(), key=lambda t: t.value)[:RECHECK]
    fresh = dict(n_games=2 * n_games, seed=seed + VERIFY_SEED_OFFSET, run=run, excluded=excluded)
    defaults = {s.name: getattr(base, s.name) for s in space}
    before, measured_before = evaluate(target, base, {}, **fresh)
    say(f"defaults on fresh deals: objective {before['objective']:.1f}, {before['band']} cells in the band")
    chosen, after, measured = {}, before, measured_before
    for t in best:
        knobs = {k: tuple(v) if isinstance(v, list) else v for k, v in t.user_attrs["knobs"].items()}
        summary, cells = evaluate(target, base, knobs, **fresh)
        say(f"trial {t.number} on fresh deals: objective {summary['objective']:.1f}, {summary['band']} in the band")
        if summary["objective"] < after["objective"]:
            chosen, after, measured = knobs, summary, cells
    fitted = {k: v for k, v in chosen.items() if v != defaults.get(k)}
    table = (
        reading_table(g, target, base, fitted, **fresh)
        if readings
        else pd.DataFrame(columns=["parameter", "reading", "default", "objective", "band", "cells"])
    )
    return Calibration(
        g.name,
        target.label,
        [s.name for s in space],
        fitted,
        before,
        after,
        measured,
        table,
        str(storage),
        seed,
        n_games,
        trials,
    )


def reading_table(g: Game, target, base, knobs: dict, **fresh) -> pd.DataFrame:
    """For each rule reading (``targets.reading_params``), every reading's
    objective at the fitted knobs (the other rules as ``base``): which
    reading the target supports.  Calibration never changes a reading."""
    rows = []
    for spec in targets.reading_params(g):
        values = list(spec.choices) if spec.choices is not None else [spec.default, not spec.default]
        current = getattr(base, spec.name)
        for v in values:
            try:
                rule_base = from_mapping(type(base), {spec.name: v}, base=base, source="reading")
            except ParamError:
                continue
            summary, _ = evaluate(target, rule_base, knobs, **fresh)
            rows.append(
                {
                    "parameter": spec.name,
                    "reading": v,
                    "default": v == current,
                    **{k: summary[k] for k in ("objective", "band", "cells")},
                }
            )
    return pd.DataFrame(rows, columns=["parameter", "reading", "default", "objective", "band", "cells"])
