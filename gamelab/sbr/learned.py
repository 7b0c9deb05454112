"""STEEL BALL RUN's learned rung (issue 39): the greedy's own option values, reweighted to
choose as the top decided search rung chooses.

The greedy (:mod:`gamelab.sbr.heuristic`) values an option by a weighted sum of what the move
does: squares gained, relic points, spin held, terrain tax, the card's pips, a skull's card
back, the segment and final points its end square would earn.  Each term is one knob
(:class:`~gamelab.sbr.agent_params.AgentParams`), so the value is linear in the knobs: the
greedy's values with one knob at 1 and the other seven at 0 are that term's feature of every
option (:func:`features`).  The learned rung records the decisions of the top decided rung
(:data:`TEACHER`, on every seat) on :data:`LEARN_GAMES` deals with the eight features of every
legal option at each, and fits one set of weights per beat (what a square, a relic or a spin
is worth changes through the race) by a conditional logit over the legal options (McFadden
1974): the chosen option's probability is ``exp(w . x_chosen) / sum over legal options of
exp(w . x)``, ``w`` by maximum likelihood (``scipy.optimize``, each weight within its knob's
range up to a common scale).  The learned player is the greedy with this beat's knobs, its
argmax (a positive scale changes no choice), so it plays in the greedy's compiled code at the
greedy's speed.  Seals and breaking stay the greedy's.

The weights are a function of the rules, the player count and the code: re-learned per rule
set and cached on disk by :mod:`gamelab.core.learned` (``GAME.skill.prepare`` learns them
before a run's workers start).
"""

from __future__ import annotations

import dataclasses
import sys
from functools import lru_cache

import numpy as np
from scipy.optimize import minimize
from threadpoolctl import threadpool_limits

from gamelab.core.driver import play_out
from gamelab.core.params import specs

from . import engine
from .agent_params import AgentParams
from .heuristic import greedy_policy, greedy_values
from .options import option_index
from .rules import SbrParams
from .search import BUDGETED
from .state import Actions

NAME = "learned"  # the agent's name on a seat
TEACHER = "lookahead@4"  # the top decided rung at 4 players (docs/agents.md, the decided skill ladder)
LEARN_GAMES = 128  # deals the teacher plays on every seat to be learned from
LEARN_SEED = 0x5B12  # their deals: the same for every run, so the weights are a function of code and rules
#: the greedy's linear terms, each a knob: the learned weights
FEATURES = (
    "greedy_move",
    "greedy_relic",
    "greedy_spin",
    "greedy_tax",
    "greedy_card",
    "greedy_skull_card",
    "greedy_segment",
    "greedy_final",
)
MIN_DECISIONS = 50  # a beat with fewer recorded decisions takes the weights fitted to every beat
RIDGE = 1e-3  # a small L2 penalty: weights of features the teacher's choices never separate stay near 0


def rules_only(params) -> SbrParams:
    """The rules of ``params`` (its agent knobs dropped): what the learned weights depend on."""
    if type(params) is SbrParams:
        return params
    return SbrParams(**{f.name: getattr(params, f.name) for f in dataclasses.fields(SbrParams)})


@lru_cache(maxsize=16)
def _unit_params(rules: SbrParams) -> tuple[AgentParams, ...]:
    """The rules with one linear knob at 1 and the others at 0, one per :data:`FEATURES`."""
    base = AgentParams(**rules.as_dict())
    zero = dict.fromkeys(FEATURES, 0.0)
    return tuple(dataclasses.replace(base, **{**zero, name: 1.0}) for name in FEATURES)


def features(rules: SbrParams, state, rider, games) -> np.ndarray:
    """(n, K, F) the feature of each linear term of every (card, spin) option of rider
    ``rider[i]`` in game ``games[i]``: the greedy's value with that term's knob alone at 1
    (-inf where the option is not legal)."""
    return np.stack([greedy_values(p, state, rider, games) for p in _unit_params(rules)], axis=-1)


class Recorder:
    """A policy that plays as ``teacher`` and keeps, at each of its decisions that breaks no
    seal, the features of every option and the option it chose; and the controller
    (``contract.Controller``) of a table with it on every seat, for the batch driver."""

    def __init__(self, rules: SbrParams, teacher):
        self.rules, self.teacher = rules, teacher
        self.x: list[np.ndarray] = []
        self.chosen: list[np.ndarray] = []
        self.beat: list[np.ndarray] = []

    def __call__(self, params, state, rider, legal, rng=None) -> Actions:
        act = self.teacher(params, state, rider, legal, rng)
        g = np.flatnonzero(legal.acting & ~act.brk)
        if g.size:
            self.x.append(features(self.rules, state, np.asarray(rider)[g], g))
            self.chosen.append(option_index(act.card[g], act.spin[g], self.rules.max_spin_per_beat))
            self.beat.append(np.full(g.size, state.beat))
        return act

    def act(self, state, legal) -> Actions:
        """The teacher's move for the rider to move in each game (none asked where no rider acts)."""
        if not legal.acting.any():
            return engine.idle_actions(state.n_games)
        return self(self.rules, state, engine.to_move(state), legal)

    def observe(self, events: dict) -> None:
        """Full information: the teacher reads the state."""


def record(rules: SbrParams, n_players: int, n_games: int | None = None, seed: int = LEARN_SEED):
    """The teacher's decisions on ``n_games`` deals with it on every seat: x (N, K, F), chosen
    (N,) and the beat (N,) of each."""
    rec = Recorder(rules, BUDGETED[TEACHER])
    n_games = n_games or LEARN_GAMES
    chance = engine.draw_chance(rules, n_games, n_players, np.random.default_rng(seed))
    play_out(engine, rules, engine.init(rules, n_games, n_players, chance), chance, rec)
    return np.concatenate(rec.x), np.concatenate(rec.chosen), np.concatenate(rec.beat)


@lru_cache(maxsize=1)
def _ranges() -> tuple[np.ndarray, np.ndarray]:
    """The declared (low, high) of each knob of :data:`FEATURES`."""
    sp = {s.name: s for s in specs(AgentParams)}
    return np.array([sp[n].low for n in FEATURES], float), np.array([sp[n].high for n in FEATURES], float)


def fit(x: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """The conditional-logit weights (F,) of the decisions (``x`` (N, K, F) with -inf on illegal
    options, ``chosen`` (N,)), by maximum likelihood (L-BFGS-B, analytic gradient); a weight is
    >= 0 where its knob is (a feature that never varies gets 0)."""
    legal = np.isfinite(x[..., 0])
    keep = legal.sum(1) > 1  # a decision with one legal option says nothing
    x, legal, chosen = np.where(legal[..., None], x, 0.0)[keep], legal[keep], chosen[keep]
    span = np.abs(x).reshape(-1, x.shape[-1]).max(0, initial=0.0)
    scale = np.where(span > 0, span, 1.0)  # features on one scale for the fit
    xs = (x / scale).astype(np.float64)
    xc = xs[np.arange(len(chosen)), chosen]  # (N, F) the chosen options' features
    n = max(len(chosen), 1)

    def loss(w):
        u = np.where(legal, np.einsum("nkf,f->nk", xs, w), -np.inf)
        top = u.max(1, keepdims=True)
        e = np.exp(u - top)
        z = e.sum(1)
        p = e / z[:, None]
        nll = (np.log(z) + top[:, 0] - np.einsum("nf,f->n", xc, w)).sum() / n + RIDGE * float(np.sum(w * w))
        grad = (np.einsum("nk,nkf->f", p, xs) - xc.sum(0)) / n + 2 * RIDGE * w
        return nll, grad

    low, _ = _ranges()
    bounds = [(None if lo < 0 else 0.0, None) if s > 0 else (0.0, 0.0) for lo, s in zip(low, span)]
    with threadpool_limits(1):  # a threaded BLAS spends more time waking its threads than on these sizes
        res = minimize(loss, np.where(span > 0, 1.0, 0.0), jac=True, method="L-BFGS-B", bounds=bounds)
    return res.x / scale


def knob_values(w: np.ndarray) -> dict[str, float]:
    """The weights as knob values inside the knobs' declared ranges (a positive scale: the same choices)."""
    low, high = _ranges()
    ratio = np.where(w > 0, w / high, np.where(low < 0, w / np.minimum(low, -1e-12), 0.0))
    s = ratio.max()
    w = w / s if s > 0 else np.ones_like(w)
    return {name: float(np.clip(v, lo, h)) for name, v, lo, h in zip(FEATURES, w, low, high)}


def learn(rules: SbrParams, n_players: int) -> dict[str, np.ndarray]:
    """The arrays the learned rung keeps: ``weights`` (beats, F), each beat's knob values by
    :data:`FEATURES`."""
    print(f"  recording {TEACHER} on every seat, {LEARN_GAMES} games ...", file=sys.stderr, flush=True)
    x, chosen, beat = record(rules, n_players)
    print(f"  fitting the option weights of {rules.beats} beats to {len(chosen):,} decisions ...", file=sys.stderr)
    pooled = fit(x, chosen)
    rows = []
    for b in range(rules.beats):
        mine = beat == b
        w = knob_values(fit(x[mine], chosen[mine]) if mine.sum() >= MIN_DECISIONS else pooled)
        rows.append([w[name] for name in FEATURES])
    return {"weights": np.array(rows, np.float64)}


@lru_cache(maxsize=16)
def learned_params(rules: SbrParams, n_players: int) -> tuple[AgentParams, ...]:
    """The rules with each beat's learned knobs (learned now, or read from the cache)."""
    from gamelab.core import learned
    from gamelab.core.paths import PACKAGE

    identity = {"rules": rules.as_dict(), "teacher": TEACHER, "players": n_players, "games": LEARN_GAMES}
    arrays = learned.cached(
        "sbr-learned",
        identity,
        [PACKAGE / "sbr"],
        lambda: learn(rules, n_players),
        say=f"learning sbr's learned rung for these rules at {n_players} players (a few seconds, once) ...",
    )
    base = AgentParams(**rules.as_dict())
    return tuple(
        dataclasses.replace(base, **dict(zip(FEATURES, map(float, row), strict=True))) for row in arrays["weights"]
    )


def learned_policy(params, state, rider, legal, rng=None) -> Actions:
    """The greedy with this beat's learned weights (see the module doc), for the rules of ``params``."""
    n_players = state.pos.shape[1] // params.riders_per_player
    return greedy_policy(learned_params(rules_only(params), n_players)[state.beat], state, rider, legal)


def prepare(params, lineup, n_players: int) -> None:
    """``GAME.skill.prepare``: the learned weights a lineup's ``learned`` seats play, learned once here."""
    if NAME in lineup:
        learned_params(rules_only(params), n_players)
