"""A tuner that proposes rule changes: the smallest changes that meet a
designer's targets, verified on fresh deals.

    result = run("goal.yaml", workers=2)      # result.proposals, result.out

The goal file (:mod:`gamelab.decide.goals`) names the game, the player counts, the
free parameters with their ranges and the targets.  The search is Optuna's
multi-objective TPE sampler over two objectives, both minimised:

1. the *miss*: for every target and player count, how far the measured
   metric is on the wrong side of its bound, summed (0: every target met);
2. the *distance* from the rules the goal starts from (the rulebook unless
   it gives ``params``): the number of free values changed plus the size of
   each change as a share of its declared range (a changed choice counts 1).

Every candidate is played with the same seed (common random numbers: the
same deals for all), through the chunk store and the executor (``workers``
or a Dask scheduler), a batch of candidates at a time.  The study lives in
``data/runs/tune-<id>/study.db`` (an Optuna SQLite storage): a tune that is
interrupted resumes where it stopped, and the candidates it had played come
back from the chunk store.  Then the verification stage, as the literature
on noisy game tuning recommends (a search on one seed flatters its best
candidates): the candidates (least miss, then least change) and the
starting rules are re-played on a fresh seed with more games, a few at a
time until one meets the targets, and only those verified figures, with
95 % bootstrap intervals, are reported.  A proposal "meets" the targets only
when a sequential test (:mod:`gamelab.decide.sequential`) on fresh deals
decides it (:func:`judge`); proposals are ranked meets, not sure, misses,
the smallest change first, and one worse on the goal than the starting
rules is never shown (:func:`rank`).  Outputs: ``proposals.csv``,
``proposal-N.yaml`` (parameter files ``simulate``, ``report --params`` and
``report --baseline`` accept, headed by the verdict's sentence) and, given
a ``chart`` (:func:`gamelab.report.charts.front_figure`: this layer draws
nothing), ``front.png``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamelab.core import paths
from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError
from gamelab.core.files import named_game
from gamelab.core.limits import MAX_GAMES
from gamelab.core.params import from_mapping
from gamelab.decide import sensitivity
from gamelab.decide.goals import Dim, Goal, candidate, changes_in_words, dims, distance, load_goal
from gamelab.decide.skill_checks import check_goal, rung_levels, skill_checks
from gamelab.sim import runner, sweep
from gamelab.sim.run import RunConfig
from gamelab.sim.store import key_of
from gamelab.stats import balance, balance_metric, bootstrap

VERIFY_SEED_OFFSET = 1_000_003  # the verification seed: the goal's seed plus this (fresh deals)
VERIFY_FACTOR = 4  # verification games: this many times the search's, by default
VERIFY_ROUNDS = 4  # at most this many rounds of ``verify`` candidates, until one meets the targets
SURE_FACTOR = 10  # a sequential verdict stops undecided after this many times the search's games
FLOAT_STEPS = 100  # a float range is searched on about this many round steps
STARTUP_TRIALS = 10  # random trials before TPE models the front

__all__ = ["Goal", "load_goal", "run", "TuneResult"]


def point_values(frame: pd.DataFrame, metrics) -> dict[str, float]:
    """Each metric's value on the whole table (no interval)."""
    totals = bootstrap.deal_sums(frame, metrics).sum(axis=0)
    named = {c: np.asarray(totals[c], float) for c in totals.index}
    with np.errstate(invalid="ignore", divide="ignore"):
        return {m.name: float(m.value(named)) for m in metrics}


@dataclasses.dataclass
class Setting:
    """A goal made concrete: the game, the starting rules, the searched values."""

    goal: Goal
    game: Game
    base: Any
    dims: list[Dim]
    metrics: list
    lineups: dict  # players -> lineup
    source: str
    # skill levels every candidate is also played at in the search (the goal's ``skill:`` levels
    # that cost about what the default model costs: ``default`` and the game's learned rung)
    levels: tuple[str, ...] = ()

    def key(self, target, n: int, level: str = "") -> str:
        """``style_gap@4`` (the goal's lineup), ``style_gap@4@learned`` (a searched skill level)."""
        return f"{target.metric}@{n}" + (f"@{level}" if level else "")

    def cells(self):
        """``(players, level)`` of every measured cell: the goal's lineup (level ``""``), then each
        searched skill level, per player count."""
        return [(n, lv) for n in self.lineups for lv in ("", *self.levels)]

    def cell(self, params, n: int, level: str) -> tuple[tuple[str, ...], Any]:
        """The lineup and the parameters of cell ``(n, level)`` under the candidate ``params``."""
        if not level:
            return self.lineups[n], params
        lv = rung_levels(self.game, n, params)[level]
        return lv.lineup, lv.params


def setting(goal: Goal, source: str = "goal") -> Setting:
    game = named_game(goal.game)  # the goal file names its game: found here, passed down as the object
    base = from_mapping(game.knobs, goal.params, source=f"{source}: params") if goal.params else game.knobs()
    counts = goal.player_counts()
    if goal.lineup is not None and len(counts) > 1:
        raise GamelabError(f"{source}: a lineup is for one player count; players lists {counts}")
    lo, hi = game.players
    for n in counts:
        if not lo <= n <= hi:
            raise GamelabError(f"{source}: players: {n} is out of range: {game.name} is for {lo}-{hi} players")
    if len(set(counts)) != len(counts):
        raise GamelabError(f"{source}: players: {counts} lists a player count twice")
    try:
        lineups = {n: runner.resolve(game, base, goal.lineup, n)[1] for n in counts}
        metrics = {t.metric: balance.metric(game, t.metric) for t in goal.targets}
    except GamelabError as exc:
        raise GamelabError(f"{source}: {exc}") from None
    for i, t in enumerate(goal.targets):
        _check_bound(game, t, metrics[t.metric], f"{source}: targets[{i}]")
    check_goal(goal, game, source)  # skill levels named by the goal exist
    return Setting(
        goal,
        game,
        base,
        dims(game, base, goal.free, source),
        list(metrics.values()),
        lineups,
        source,
        searched_levels(goal, game, base, lineups),
    )


def searched_levels(goal: Goal, game: Game, base, lineups: dict) -> tuple[str, ...]:
    """The goal's ``skill:`` levels the search plays every candidate at as well as the goal's
    lineup: the default model and the game's learned rung (``GAME.skill.learned``), which cost
    about what the default model costs; the search rungs, hundreds of times slower, are only
    verified (:mod:`gamelab.decide.skill_checks`).  A level that is the goal's own lineup is not
    played twice."""
    fast = {"default", game.skill.learned} - {""}
    out = []
    for name in goal.skill or ():
        if name not in fast:
            continue
        cells = [(rung_levels(game, n, base)[name], tuple(lu)) for n, lu in lineups.items()]
        if not all(lv.lineup == lu and lv.params == base for lv, lu in cells):
            out.append(name)
    return tuple(out)


def _check_bound(game: Game, target, metric, where: str) -> None:
    """A target's bound inside what the metric can be: a share within 0..1,
    any other metric at most MAX_NUMBER in size (a bound outside is met or
    missed by every candidate: no question to tune)."""
    from gamelab.decide.expressions import MAX_NUMBER
    from gamelab.decide.sequential import metric_range

    bound = target.at_most if target.at_most is not None else target.at_least
    side = "at_most" if target.at_most is not None else "at_least"
    known = metric_range(game, metric)
    if known is not None:
        low, high, whole = known
        what = f"the count {target.metric}" if whole else f"the share {target.metric}"
        if not low <= bound <= high:
            raise GamelabError(f"{where}.{side}: {bound:g} is outside {low:g}..{high:g}, the range of {what}")
        if whole and bound != int(bound):
            raise GamelabError(f"{where}.{side}: {target.metric} is a whole number; {bound:g} is not one")
    if not abs(bound) <= MAX_NUMBER:
        raise GamelabError(f"{where}.{side}: {bound:g} is larger than {MAX_NUMBER:,.0f} in size")


def verify_games(goal: Goal) -> int:
    """Games per player count of the verification: the goal's
    ``verify_games``, else VERIFY_FACTOR times the search's, at most MAX_GAMES."""
    return goal.verify_games or min(MAX_GAMES, VERIFY_FACTOR * goal.games)


def expected_games(goal: Goal, trials: int | None = None) -> int:
    """Games a whole tune plays (search and verification, every player count)."""
    counts = len(goal.player_counts())
    return ((trials or goal.trials) * goal.games + (goal.verify + 1) * verify_games(goal)) * counts


def _runs(st: Setting, params_list, *, n_games, seed, run: RunConfig):
    """Per candidate, ``{(players, level): CellRun}`` (:meth:`Setting.cells`): every candidate,
    player count and searched level on the same deals, all missing chunks in one pass."""
    cells = [{c: st.cell(p, *c) for c in st.cells()} for p in params_list]
    prepare = st.game.skill.prepare
    for by_cell in cells:
        for (n, level), (lu, p) in by_cell.items():
            if level and prepare is not None:  # a learned level's model, learned once here, not in every worker
                prepare(p, lu, n)
    jobs = [(p, lu, n) for by_cell in cells for (n, _), (lu, p) in by_cell.items()]
    sensitivity.prefetch(st.game, jobs, n_games=n_games, seed=seed, run=run)
    return [
        {
            (n, level): sweep.run_cell(
                st.game,
                {},
                n_games=n_games,
                seed=seed,
                base_params=p,
                lineup=lu,
                n_players=n,
                run=run.quiet(),
            )
            for (n, level), (lu, p) in by_cell.items()
        }
        for by_cell in cells
    ]


def miss(st: Setting, values: dict) -> float:
    """The targets' total shortfall over every player count and searched level; ``values``:
    ``{"metric@players[@level]": value}``."""
    return float(sum(t.miss(values[st.key(t, *c)]) for t in st.goal.targets for c in st.cells()))


@dataclasses.dataclass
class TuneResult:
    proposals: pd.DataFrame  # the rules it started from first, then proposal 1, 2, ... (verified)
    out: Path
    study: Any  # the optuna Study
    trials: int  # trials finished (this call and earlier ones)
    resumed: int  # trials found finished from an earlier call
    files: list
    summary: str = ""  # the answer in one sentence (:func:`summary`)


def _study(st: Setting, runs_dir):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    spec = st.goal.model_dump(exclude={"trials", "verify", "verify_games", "sure_games"})
    name = f"tune-{key_of(spec)[:16]}"
    folder = Path(runs_dir or paths.runs_dir()) / name
    folder.mkdir(parents=True, exist_ok=True)
    storage = f"sqlite:///{folder / 'study.db'}"
    sampler = optuna.samplers.TPESampler(seed=st.goal.seed, n_startup_trials=STARTUP_TRIALS)
    study = optuna.create_study(
        study_name=name, storage=storage, directions=["minimize", "minimize"], sampler=sampler, load_if_exists=True
    )
    if not study.trials and all(_inside(d, d.base) for d in st.dims):
        study.enqueue_trial({d.name: d.base for d in st.dims})  # the starting rules: distance 0
    return study, folder


def _inside(d: Dim, v) -> bool:
    return v in d.choices if d.kind == "choice" else d.low <= v <= d.high


def _suggest(trial, d: Dim):
    if d.kind == "int":
        return trial.suggest_int(d.name, d.low, d.high)
    if d.kind == "float":
        return trial.suggest_float(d.name, d.low, d.high, step=float_step(d.low, d.high))
    return trial.suggest_categorical(d.name, list(d.choices))


def float_step(low: float, high: float) -> float:
    """A round step for a float range (about a hundredth of it: 0.01 for
    [0, 3]), so proposals read 0.33, not 0.3333289."""
    import math

    span = high - low
    return 10.0 ** math.floor(math.log10(span / FLOAT_STEPS)) if span > 0 else 1.0


def finished_trials(study) -> list:
    from optuna.trial import TrialState

    return study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.FAIL))


def search(st: Setting, study, n_trials: int, *, run: RunConfig, batch: int, on_trial=None) -> int:
    """Run trials until ``n_trials`` are finished (``batch`` at a time, so
    that every worker has a candidate); returns how many were before.
    The progress bar counts trials and shows the best miss so far."""
    from gamelab.sim.executors import progress_bar

    before = len(finished_trials(study))
    best = min((t.values[0] for t in study.best_trials), default=float("inf"))
    with progress_bar(
        total=n_trials, initial=min(before, n_trials), unit="trial", desc="tune", progress=run.progress
    ) as bar:
        while len(finished_trials(study)) < n_trials:
            asked = _ask(st, study, min(batch, n_trials - len(finished_trials(study))), bar)
            runs = _runs(st, [p for _, _, p in asked], n_games=st.goal.games, seed=st.goal.seed, run=run.quiet())
            for (trial, values, _), by_n in zip(asked, runs):
                best = min(best, _tell(st, study, trial, values, by_n))
                bar.update(1)
                bar.set_postfix_str(f"best miss so far {best:.4g}")
                if on_trial is not None:
                    on_trial(len(finished_trials(study)), n_trials, best)
    return before


def _ask(st: Setting, study, k: int, bar) -> list[tuple]:
    """``k`` new trials as ``(trial, values, params)``; a candidate the rules
    refuse is told to the study as failed (and counted on the bar)."""
    from optuna.trial import TrialState

    asked = []
    for _ in range(k):
        trial = study.ask()
        values = {d.name: _suggest(trial, d) for d in st.dims}
        try:
            asked.append((trial, values, candidate(st.game, st.base, st.dims, values)))
        except GamelabError as exc:
            trial.set_user_attr("refused", str(exc))
            study.tell(trial, state=TrialState.FAIL)
            bar.update(1)
    return asked


def _tell(st: Setting, study, trial, values: dict, by_n: dict) -> float:
    """Give the study a trial's two objectives (target miss, size of the
    change), keeping what was measured on the trial; returns the miss."""
    measured = {
        st.key(t, *c): point_values(by_n[c].frame, st.metrics)[t.metric] for t in st.goal.targets for c in st.cells()
    }
    n_changed, size = distance(st.dims, values)
    trial.set_user_attr("measured", measured)
    trial.set_user_attr("changed", n_changed)
    m = miss(st, measured)
    study.tell(trial, [m, n_changed + size])
    return m


def shortlist(st: Setting, study, k: int | None = None) -> list:
    """Distinct changed candidates in the order they are verified: least
    miss on the search seed first, then least change (the first ``k``; all
    when ``k`` is None)."""
    from optuna.trial import TrialState

    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    order = sorted(done, key=lambda t: (t.values[0], t.values[1], t.number))
    out, seen = [], set()
    for t in order:
        values = {d.name: t.params[d.name] for d in st.dims}
        frozen = tuple(sorted(values.items()))
        if t.values[1] == 0 or frozen in seen:
            continue
        seen.add(frozen)
        out.append((t, values))
        if len(out) == k:
            break
    return out


#: a proposal's verdict, best first (the order proposals are ranked in)
MEETS, NOT_SURE, MISSES = "meets", "not sure", "misses"
VERDICT_ORDER = {MEETS: 0, NOT_SURE: 1, MISSES: 2}


def sure_games(goal: Goal) -> int:
    """The most games a sequential test plays on one question before it
    stops undecided ("not sure")."""
    return goal.sure_games or min(MAX_GAMES, SURE_FACTOR * goal.games)


def judge(st: Setting, params, *, seed: int, max_games: int, run: RunConfig) -> tuple[str, int, list]:
    """Every target at every player count decided by a sequential test on
    fresh deals (:func:`gamelab.decide.sequential.decide`): ``(verdict,
    games played, decisions)``; the verdict is :data:`MEETS` when every test
    says yes, :data:`MISSES` when one says no, else :data:`NOT_SURE`.

    The question is asked half the indifference zone inside the bound
    (``style_spread <= 0.185`` for a target of at most 0.19, zone 0.01), so
    a yes is wrong at most 5 % of the time even for rules exactly on the
    bound; a no means the rules miss the target or clear it by less than
    the zone.  A metric with no smooth margin (the meta-game's) is asked on
    the bound itself: its group-sequential test has no indifference zone
    (``styles_worth_playing >= 4`` holds at 4, :mod:`gamelab.decide.grouped`)."""
    from gamelab.decide import sequential

    smooth = {m.name: m.smooth for m in st.metrics}
    cells = {c: st.cell(params, *c) for c in st.cells()}  # the goal's lineup and each searched level
    decisions = [
        sequential.decide(
            st.game,
            t.question(room=sequential.DEFAULT_ZONE / 2 if smooth.get(t.metric, True) else 0.0),
            n_players=n,
            params=p,
            lineup=lu,
            seed=seed,
            max_games=max_games,
            run=run.quiet(),
        )
        for t in st.goal.targets
        for (n, _), (lu, p) in cells.items()
    ]
    answers = {d.decision for d in decisions}
    verdict = MEETS if answers == {"yes"} else MISSES if "no" in answers else NOT_SURE
    return verdict, sum(d.games for d in decisions), decisions


def verdict_sentence(verdict: str, games: int, n_targets: int, room: str = "") -> str:
    """How sure a proposal is, in one sentence (the same words in
    ``proposals.csv``, the ``proposal-N.yaml`` header, the CLI and the panel);
    ``room``: the indifference zone in the metric's unit (``1 point``)."""
    what = "the target" if n_targets == 1 else "every target"
    if verdict == MEETS:
        return f"meets {what}: a sequential test on fresh deals decided it after {games:,} games"
    if verdict == MISSES:
        near = f" (or clears it by less than {room})" if room else ""
        return (
            f"misses {'the target' if n_targets == 1 else 'a target'}{near}: "
            f"a sequential test on fresh deals decided it after {games:,} games"
        )
    return f"not sure: a sequential test on fresh deals was still undecided after {games:,} games"


def zone_words(st: Setting) -> str:
    """The sequential test's indifference zone in the targets' unit: ``1 point``."""
    from gamelab.decide.sequential import DEFAULT_ZONE

    if all(m.percent for m in st.metrics):
        pts = DEFAULT_ZONE * 100
        return f"{pts:g} point" + ("s" if pts != 1 else "")
    return f"{DEFAULT_ZONE:g}"


def verify(
    st: Setting,
    chosen: list,
    *,
    n_games: int,
    seed: int,
    run: RunConfig,
    max_games: int | None = None,
    per_round: int | None = None,
) -> pd.DataFrame:
    """The starting rules and each chosen candidate on fresh deals: every
    target's value with its 95 % bootstrap interval (``n_games`` games, the
    same deals for all), and a verdict from sequential tests (up to
    ``max_games`` games a question).  ``chosen`` is verified ``per_round``
    candidates at a time, until one meets the targets (a search seed
    flatters its best candidates, so the first few may not).  Then
    :func:`rank`."""
    base_values = {d.name: d.base for d in st.dims}
    rows: list[dict] = []
    per_round = per_round or max(1, len(chosen))
    for first in range(0, max(1, len(chosen)), per_round):
        batch = chosen[first : first + per_round]
        rows += _measure(st, [(None, base_values)] * (first == 0) + batch, n_games, seed, run, max_games)
        if any(r["verdict"] == MEETS for r in rows[1:]):
            break  # a proposal that meets: the next candidates only change more or meet less on the search seed
    return rank(pd.DataFrame(rows))


def _measure(st, chosen, n_games, seed, run: RunConfig, max_games) -> list[dict]:
    """One row per candidate ``(trial or None, values)``: figures and verdict."""
    params = [candidate(st.game, st.base, st.dims, v) for _, v in chosen]
    runs = _runs(st, params, n_games=n_games, seed=seed, run=run)
    rows = []
    for (trial, values), by_n, p in zip(chosen, runs, params):
        n_changed, size = distance(st.dims, values)
        row = {
            "proposal": "start" if trial is None else "",
            "changes": changes_in_words(st.dims, values),
            "verdict": "",
            "how sure": "",
            "trial": None if trial is None else trial.number,
            "changed": n_changed,
            "size": round(size, 4),
        }
        measured, kept = {}, True
        for (n, level), cell in by_n.items():
            est = bootstrap.estimate(cell.frame, st.metrics).set_index("metric")
            for t in st.goal.targets:
                e = est.loc[t.metric]
                key = st.key(t, n, level)
                measured[key] = e["value"]
                row.update({key: e["value"], f"{key} low": e["low"], f"{key} high": e["high"]})
            if level:
                continue  # the skill checks once per player count, below
            across, skill_kept = skill_checks(
                st.goal,
                st.game,
                p,
                st.metrics,
                n,
                n_games=n_games,
                seed=seed,
                run=run,
            )
            row.update(across)
            kept &= skill_kept
        n_targets = len(st.goal.targets) * len(st.cells())
        verdict, tested, _ = judge(st, p, seed=seed, max_games=max_games or 4 * n_games, run=run)
        smooth = all(m.smooth for m in st.metrics)  # else a group-sequential test: no zone to clear
        how = verdict_sentence(verdict, tested, n_targets, zone_words(st) if smooth else "")
        if not kept:  # the goal's skill: or keep_skill: checks fail (decide/skill_checks.py)
            verdict = MISSES
        row.update(
            verdict=verdict,
            **{"how sure": how},
            miss=miss(st, measured),
            games=sum(r.games for r in by_n.values()),
            tested=tested,
        )
        row.update({d.name: values[d.name] for d in st.dims})
        row["_params"] = p
        rows.append(row)
    return rows


def rank(table: pd.DataFrame) -> pd.DataFrame:
    """The starting rules first, then the proposals: those worse on the goal
    than the starting rules dropped, the rest ranked meets, not sure,
    misses, the smallest change first within each."""
    head, rest = table.iloc[:1], table.iloc[1:]
    start_miss = float(head["miss"].iloc[0])
    rest = rest[(rest["verdict"] == MEETS) | (rest["miss"] < start_miss - 1e-12)]  # never worse than the start
    rest = rest.assign(_order=rest["verdict"].map(VERDICT_ORDER))
    rest = rest.sort_values(["_order", "changed", "size", "miss"]).drop(columns="_order")
    rest = rest.assign(proposal=[str(i + 1) for i in range(len(rest))])
    return pd.concat([head, rest], ignore_index=True)


def summary(st: Setting, proposals: pd.DataFrame) -> str:
    """The tuner's answer in one sentence: the first proposal and how sure
    it is, or that nothing improves on the starting rules."""
    start = "the rulebook" if not st.goal.params else "the starting rules"
    rest = proposals[proposals["proposal"] != "start"]
    if rest.empty:
        return f"Nothing found that improves on {start}."
    first = rest.iloc[0]
    return f"Proposal 1, {first['changes']}, {first['how sure']}."


def figure_words(value: float, low: float, high: float, percent: bool, points: bool = True) -> str:
    """``16.9 points (15.8–18.0)`` for a difference of shares (a spread),
    ``41.7 % (40.1–43.2)`` for a share, ``0.42 (0.40–0.44)`` otherwise."""
    if not np.isfinite(value):
        return "cannot be computed"
    if percent:
        return f"{value * 100:.1f}{' points' if points else ' %'} ({low * 100:.1f}–{high * 100:.1f})"
    return f"{value:.3g} ({low:.3g}–{high:.3g})"


def shown_rows(st: Setting, proposals: pd.DataFrame) -> pd.DataFrame:
    """The proposals as a designer reads them: the changes in words, each
    target's verified figure in its unit under a heading that says which run
    it is (the player count, the fresh games), how sure (one sentence)."""
    rows = []
    fresh = verify_games(st.goal)
    for r in proposals.to_dict("records"):
        row = {"proposal": "rules now" if r["proposal"] == "start" else r["proposal"], "changes": r["changes"]}
        for t in st.goal.targets:
            m = next(m for m in st.metrics if m.name == t.metric)
            for n, level in st.cells():
                key = st.key(t, n, level)
                at = f", {level}" if level else ""
                head = f"{m.label}, {n} players{at} ({fresh:,} fresh games)"
                row[head] = figure_words(
                    r[key], r[f"{key} low"], r[f"{key} high"], m.percent, balance_metric.in_points(m)
                )
        row["how sure"] = r["how sure"]
        rows.append(row)
    return pd.DataFrame(rows)


def goal_words(st: Setting) -> str:
    """``style spread at most 19 points at 4 players``."""
    labels = {m.name: (m.label, m.percent) for m in st.metrics}
    targets = " and ".join(t.words(*labels[t.metric]) for t in st.goal.targets)
    counts = ", ".join(map(str, st.lineups))
    levels = "".join(f" and with {lv} play" for lv in st.levels)
    return f"{targets} at {counts} players{levels}"


def write_outputs(st: Setting, study, proposals: pd.DataFrame, out: Path, chart=None) -> list[Path]:
    import yaml

    files = []
    shown = proposals.drop(columns=["_params"])
    path = out / "proposals.csv"
    shown.to_csv(path, index=False)
    files.append(path)
    for r in proposals.to_dict("records"):
        if r["proposal"] == "start":
            continue
        changed = {k: list(v) if isinstance(v, tuple) else v for k, v in r["_params"].changed().items()}
        path = out / f"proposal-{r['proposal']}.yaml"
        head = f"# {st.goal.game} proposal {r['proposal']}: {r['changes']}\n# {r['how sure']}\n"
        path.write_text(head + yaml.safe_dump(changed, sort_keys=False, allow_unicode=True))
        files.append(path)
    if chart is not None:
        path = out / "front.png"
        chart(st, study, proposals).savefig(path, dpi=110)
        files.append(path)
    return files


def run(
    goal,
    *,
    trials: int | None = None,
    scheduler: str | None = None,
    out=None,
    runs_dir=None,
    run: RunConfig | None = None,
    on_trial=None,
    chart=None,
) -> TuneResult:
    """Search, verify, write the proposals (see the module docstring).
    ``goal``: a goal file path or a :class:`~gamelab.decide.goals.Goal`;
    ``chart``: ``(setting, study, proposals) -> figure`` to write ``front.png``."""
    from gamelab.core.files import check_directory
    from gamelab.sim.executors import make_executor
    from gamelab.sim.store import ChunkStore

    run = run or RunConfig()
    source = str(goal) if not isinstance(goal, Goal) else "goal"
    goal = goal if isinstance(goal, Goal) else load_goal(goal)
    st = setting(goal, source)
    n_trials = trials or goal.trials
    run = dataclasses.replace(
        run,
        store=run.store if run.store is not None else ChunkStore(paths.cache_dir()),
        executor=run.executor or make_executor(run.workers, scheduler=scheduler),
    )
    study, folder = _study(st, runs_dir)
    out = check_directory(out or folder, "--out")
    batch = max(1, getattr(run.executor, "workers", 1))
    before = search(st, study, n_trials, run=run, batch=batch, on_trial=on_trial)
    chosen = shortlist(st, study, goal.verify * VERIFY_ROUNDS)
    proposals = verify(
        st,
        chosen,
        n_games=verify_games(goal),
        seed=goal.seed + VERIFY_SEED_OFFSET,
        run=run,
        max_games=sure_games(goal),
        per_round=goal.verify,
    )
    files = write_outputs(st, study, proposals, Path(out), chart)
    return TuneResult(
        proposals.drop(columns=["_params"]),
        Path(out),
        study,
        len(finished_trials(study)),
        before,
        files,
        summary(st, proposals),
    )
