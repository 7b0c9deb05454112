"""Balance verdicts checked under more than one player model.

A verdict ("seat 1 is the strongest seat", "the node grabber is the
strongest style", the rulebook's own conclusions) is a statement about the
agents as much as about the rules.  :func:`verdicts` computes each one under
at least two models:

* ``calibrated``: the game's fitted profile (``data/profiles/<game>.yaml``
  if shipped, or the one given) applied to the default lineup, else the
  default model;
* ``strong``: the top of ``GAME.skill.ladder`` on every seat;

and says whether it holds under every model tried, only under some, or is
not decided.  A strongest/weakest verdict "holds" under a model when the
leader's win rate differs from the runner-up's with a 95 % interval that
excludes 0 (a two-proportion test, :func:`gamelab.stats.two_proportion`);
otherwise that model's answer is "not sure".
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from gamelab.core import paths
from gamelab.core.contract import Game
from gamelab.sim import runner
from gamelab.sim.run import RunConfig
from gamelab.stats.intervals import two_proportion

GROUPS = ("seat", "style", "role")

#: one statement per verdict, the same words from the report's headline to its tables
HOLDS = "holds under every model we tried"
UNDECIDED = "not decided"
NOT_HELD = "does not hold"
VERDICT_WORDS = {"not resolved": UNDECIDED}  # a rulebook conclusion's verdict, in these words
#: one model's answer to a verdict (:func:`statement` turns the answers into the statement)
HELD, NOT_SURE = "holds", "not sure"
MODEL_WORDS = {"report": "report's"}  # a model's name as a statement says it: "only under the report's model"


def only_under(models) -> str:
    """``only under the calibrated model``."""
    names = [MODEL_WORDS.get(n, n) for n in models]
    return f"only under the {' and '.join(names)} model" + ("s" if len(names) > 1 else "")


def statement(answers: dict) -> str:
    """The one statement of a verdict across models, from each model's
    answer (:data:`HELD`, :data:`NOT_HELD`, :data:`NOT_SURE`, or None where
    a model cannot measure it): "holds under every model we tried", "only
    under the report's model", "does not hold", "not decided"."""
    measured = {m: a for m, a in answers.items() if a is not None}
    if not measured:
        return "not measured"
    held = [m for m, a in measured.items() if a == HELD]
    if len(held) == len(answers):
        return HOLDS
    if len(held) == len(measured):
        missing = [m for m in answers if m not in measured]
        return f"{HOLDS} that can measure it (not the {' and '.join(MODEL_WORDS.get(m, m) for m in missing)})"
    if held:
        return only_under(held)
    return NOT_HELD if NOT_HELD in measured.values() else UNDECIDED


@dataclasses.dataclass(frozen=True)
class Model:
    name: str  # "calibrated", "strong", ...
    words: str  # how the table says it
    params: object
    lineup: tuple | None  # None: the game's default lineup


def default_models(game: Game, n_players: int, profile=None, *, params=None) -> list[Model]:
    """The calibrated model (the given profile, else the one shipped in
    ``data/profiles/``; the default model when there is none or it moves no
    knob) and the game's strong agent (``Game.skill.strong_agent``, else the top of
    its skill ladder) on every seat, both under the rules ``params``."""
    from gamelab.models.profile import apply, describe, load_profile

    params = params if params is not None else game.knobs()
    if profile is None:
        shipped = paths.PACKAGE.parent / "data" / "profiles" / f"{game.name}.yaml"
        profile = load_profile(shipped, game.name) if shipped.exists() else None
    elif isinstance(profile, (str, Path)):
        profile = load_profile(profile, game.name)
    fitted = profile is not None and bool(profile.knobs)
    models = [Model("calibrated" if fitted else "default", describe(profile), apply(profile, params), None)]
    top = game.skill.strong_agent or (game.skill.ladder[-1] if game.skill.ladder else "")
    if top:
        models.append(Model("strong", f"{top} on every seat", params, (top,) * n_players))
    return models


def leader(frame: pd.DataFrame, by: str, side: str) -> dict | None:
    """The strongest (weakest) group of ``by`` against the runner-up."""
    if by not in frame or frame[by].nunique() < 2:
        return None
    g = frame[frame[by].astype(str) != "none"].groupby(by)["win"].agg(["sum", "size"])
    if len(g) < 2:
        return None
    rate = (g["sum"] / g["size"]).sort_values(ascending=side == "weakest")
    who, rival = rate.index[0], rate.index[1]
    diff, _ = two_proportion(g.loc[who, "sum"], int(g.loc[who, "size"]), g.loc[rival, "sum"], int(g.loc[rival, "size"]))
    resolved = diff.low > 0 or diff.high < 0
    return {
        "who": str(who),
        "rate": float(rate[who]),
        "rival": str(rival),
        "rival_rate": float(rate[rival]),
        "resolved": bool(resolved),
    }


def _status(answers: dict) -> tuple[str, str]:
    """(status, plain words) from {model: leader result or None}."""
    held = {m: a for m, a in answers.items() if a is not None and a["resolved"]}
    measured = {m: a for m, a in answers.items() if a is not None}
    if not measured:
        return "not measured", "no model has this grouping"
    whos = {a["who"] for a in held.values()}
    if len(held) == len(answers) and len(whos) == 1:
        return HOLDS, f"{next(iter(whos))} under every model we tried"
    if len(whos) > 1:
        return "models disagree", "; ".join(
            f"{a['who']} under the {MODEL_WORDS.get(m, m)} model" for m, a in held.items()
        )
    if held:
        m, a = next(iter(held.items()))
        others = [f"{x['who']} (not sure)" if x else "not measured" for k, x in answers.items() if k != m]
        return only_under([m]), f"{a['who']} under the {MODEL_WORDS.get(m, m)} model; the others: {', '.join(others)}"
    return UNDECIDED, "no model separates the leader from the runner-up"


def model_frames(
    game: Game,
    n_players: int,
    models: list[Model],
    *,
    n_games: int,
    seed: int,
    frames: dict | None = None,
    run: RunConfig | None = None,
) -> dict:
    """{model name: its games} (those in ``frames`` kept, the others played on the same deals)."""
    run = run or RunConfig()
    frames = dict(frames or {})
    for m in models:
        if m.name not in frames:
            frames[m.name] = runner.simulate(
                game,
                n_games=n_games,
                seed=seed,
                n_players=n_players,
                params=m.params,
                lineup=m.lineup,
                **run.simulate_args(),
            )
    return frames


def verdicts(
    game: Game,
    n_players: int,
    *,
    n_games: int = 20_000,
    seed: int = 0,
    models: list[Model] | None = None,
    profile=None,
    frames: dict | None = None,
    run: RunConfig | None = None,
) -> pd.DataFrame:
    """One row per verdict: verdict, grouping, each model's answer, status, words."""
    run = run or RunConfig()
    models = models or default_models(game, n_players, profile)
    frames = model_frames(game, n_players, models, n_games=n_games, seed=seed, frames=frames, run=run)
    rows = []
    for by in GROUPS:
        for side in ("strongest", "weakest"):
            answers = {m.name: leader(frames[m.name], by, side) for m in models}
            if all(a is None for a in answers.values()):
                continue
            status, words = _status(answers)
            row = {"verdict": f"{side} {by}", "players": n_players}
            for m in models:
                a = answers[m.name]
                who = None if a is None else (f"seat {a['who']}" if by == "seat" else a["who"].replace("_", " "))
                row[m.name] = (
                    "—" if a is None else f"{who} {100 * a['rate']:.1f} %" + ("" if a["resolved"] else " (not sure)")
                )
            rows.append({**row, "status": status, "words": f"{side} {by}: {words}"})
    rows += _conclusions(game, models, n_players, frames, n_games=n_games, seed=seed, run=run)
    return pd.DataFrame(rows)


def _conclusions(
    g: Game,
    models,
    n_players,
    frames,
    *,
    n_games,
    seed,
    run: RunConfig | None = None,
) -> list[dict]:
    """The rulebook's conclusions (``GAME.rulebook.claims.conclusions``) at this player
    count, under each model that has the grouping they speak of."""
    run = run or RunConfig()
    if g.rulebook.claims is None or g.rulebook.claims.conclusions is None:
        return []
    from gamelab.rulebook.claims import conclusions

    results = {}
    for m in models:
        try:
            c = conclusions(
                g,
                n_games=n_games,
                seed=seed,
                params=m.params,
                frames={n_players: frames[m.name]},
                players=n_players,
                run=run,
            )
        except (KeyError, ValueError):  # the model lacks the grouping (e.g. no styles on a strong-agent table)
            continue
        if c is not None and len(c) and "claim" in c:
            results[m.name] = c
    if not results:
        return []
    rows = []
    first = next(iter(results.values()))
    for i, claim in enumerate(first["claim"]):
        if not str(claim).startswith(f"{n_players} players"):
            continue
        verdict = {name: c.iloc[i]["verdict"] for name, c in results.items()}
        held = [n for n, v in verdict.items() if v == "holds"]
        if len(held) == len(models):
            status = HOLDS
        elif held:
            status = only_under(held)
        else:
            status = NOT_HELD
        verdict = {n: VERDICT_WORDS.get(v, v) for n, v in verdict.items()}
        row = {"verdict": str(claim), "players": n_players, **{m.name: verdict.get(m.name, "—") for m in models}}
        words = "; ".join(f"{v} under the {MODEL_WORDS.get(n, n)} model" for n, v in verdict.items())
        rows.append({**row, "status": status, "words": f"the rulebook: {claim} — {words}"})
    return rows
