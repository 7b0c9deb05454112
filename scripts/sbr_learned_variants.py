"""SBR's learned rung against the top rung: the variants tried to make it stronger (issue 39).

Each variant plays one seat among three ``lookahead@4`` seats (4 players, every seat rotation
on the same deals, seed 11); its win rate with a normal 95 % interval over deals, and its
speed on every seat as a share of the greedy's (the shared driver, ``sim.play.play_games``, CPU time).  The
criterion of issue 39 is "not below fair - 2 points" (23 %).  Also how the teacher's choices
rank among the greedy's own option values.  Usage:

    .venv/bin/python scripts/sbr_learned_variants.py [DEALS] [VARIANT ...]
"""

from __future__ import annotations

import sys
import time

import numpy as np
from scipy.optimize import minimize

from gamelab.core import registry
from gamelab.sbr import agents, engine, learned
from gamelab.sbr.agent_params import knobs
from gamelab.sbr.options import option_index, option_list
from gamelab.sbr.rules import SbrParams
from gamelab.sbr.search import BUDGETED
from gamelab.sim.play import play_games

RULES = SbrParams()
PARAMS = knobs(RULES)
TOP = BUDGETED[learned.TEACHER]
SEED = 11
SEGMENT_ENDS = frozenset(range(RULES.beats_per_segment - 1, RULES.beats, RULES.beats_per_segment))
CARD_K, SPIN_K = option_list(RULES.max_spin_per_beat)
FINAL = np.array([*RULES.final_points, *[0] * 8])
SEGMENT = np.array([*RULES.segment_points, *[0] * 8])
DEFAULT_W = np.array([getattr(PARAMS, f) for f in learned.FEATURES])
KEPT_GAMES = learned.LEARN_GAMES  # the teacher games the kept rung learns from
GAME = registry.get("sbr")


def play(seats, n_games: int, seed: int) -> dict:
    """The engine's result of ``n_games`` games under ``seats`` (policies) through the shared driver."""
    return engine.result(PARAMS, play_games(GAME, PARAMS, seats, n_games, 4, np.random.default_rng(seed)))


def win_rate(test, n_deals: int) -> tuple[float, float]:
    """One ``test`` seat among ``lookahead@4`` seats: mean win and the 95 % half-width (normal, over deals)."""
    wins = []
    for seat in range(4):
        seats = [TOP] * 4
        seats[seat] = test
        wins.append(play(seats, n_deals, SEED)["win"][:, seat])
    per_deal = np.mean(wins, axis=0)
    return float(per_deal.mean()), float(1.96 * per_deal.std(ddof=1) / np.sqrt(n_deals))


def speed(policy, n_games: int = 2000) -> float:
    """Games per CPU second with ``policy`` on every seat (one call of ``n_games``)."""
    play([policy] * 4, 20, 5)
    t = time.process_time()
    play([policy] * 4, n_games, 5)
    return n_games / (time.process_time() - t)


def rich_features(state, rider, games) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, K, F) the greedy's eight terms and more of every option (the final and segment points
    its end square would earn now, the lead, spin after, card pips and high cards kept with the
    next draw, the card and spin), the legal mask (n, K) and each option's rank by the greedy."""
    x = learned.features(RULES, state, rider, games).astype(np.float64)
    legal = np.isfinite(x[..., 0])
    x = np.where(legal[..., None], x, 0.0)
    i = np.arange(games.size)
    pos, seg0 = state.pos[games].astype(float), state.seg_start[games].astype(float)
    end = pos[i, rider][:, None] + x[..., 0]
    others = pos.copy()
    others[i, rider] = -1e9
    dist = pos - seg0
    dist[i, rider] = -1e9
    fin_now = FINAL[(others[:, None, :] > end[..., None]).sum(-1)]
    seg_now = SEGMENT[(dist[:, None, :] > (end - seg0[i, rider][:, None])[..., None]).sum(-1)]
    lead = np.clip(end - others.max(1)[:, None], -10, 10)
    spin_after = state.spin[games, rider][:, None] + x[..., 2]
    hand = state.hand[games, rider].astype(float)
    drawn, size = state.drawn[games, rider], state.deck.shape[2]
    nxt = np.where(drawn < size, state.deck[games, rider, np.minimum(drawn, size - 1)], 0)[:, None]
    kept_pips = (hand * np.arange(1, 6)).sum(1)[:, None] - CARD_K + nxt
    kept_high = hand[:, 3:].sum(1)[:, None] - (CARD_K >= 4) + (nxt >= 4)
    dv = np.where(legal, x @ DEFAULT_W, -np.inf)
    rank = np.argsort(np.argsort(-dv, axis=1, kind="stable"), axis=1)
    gap = np.maximum(np.where(legal, dv - dv.max(1, keepdims=True), -20), -20)
    ones = np.ones((games.size, 1))
    extra = [fin_now, seg_now, lead, spin_after, kept_pips, kept_high, gap, (rank == 0) * ones, (rank == 1) * ones]
    extra += [(CARD_K == c) * ones for c in range(1, 6)] + [(SPIN_K == s) * ones for s in (1, 2)]
    return np.concatenate([x, np.stack(extra, -1).astype(float)], -1), legal, rank


def record(n_games: int):
    """The teacher on every seat: rich features, legal masks, ranks, its choices and the beats."""
    rows: list = []

    def recorder(params, state, rider, legal, rng=None):
        act = TOP(params, state, rider, legal, rng)
        g = np.flatnonzero(legal.acting & ~act.brk)
        if g.size:
            chosen = option_index(act.card[g], act.spin[g], RULES.max_spin_per_beat)
            rows.append((*rich_features(state, np.asarray(rider)[g], g), chosen, np.full(g.size, state.beat)))
        return act

    play([recorder] * 4, n_games, learned.LEARN_SEED)
    return [np.concatenate(parts) for parts in zip(*rows)]


def fit_logit(x, avail, chosen, beat, ridge=1e-3) -> np.ndarray:
    """Per-beat conditional-logit weights (beats, F), unbounded, over the options ``avail``."""
    keep = avail[np.arange(len(chosen)), chosen] & (avail.sum(1) > 1)
    x, avail, chosen, beat = x[keep], avail[keep], chosen[keep], beat[keep]
    scale = np.abs(x).reshape(-1, x.shape[-1]).max(0)
    scale[scale == 0] = 1
    xs, n, nb = x / scale, len(chosen), RULES.beats
    xc, onehot = xs[np.arange(n), chosen], np.eye(nb)[beat]

    def loss(flat):
        w = flat.reshape(nb, -1)
        u = np.where(avail, np.einsum("nkf,nf->nk", xs, w[beat]), -np.inf)
        top = u.max(1, keepdims=True)
        e = np.exp(u - top)
        z = e.sum(1)
        nll = (np.log(z) + top[:, 0] - (xc * w[beat]).sum(1)).sum() / n + ridge * (w**2).sum()
        grad = onehot.T @ (np.einsum("nk,nkf->nf", e / z[:, None], xs) - xc) / n + 2 * ridge * w
        return nll, grad.ravel()

    res = minimize(loss, np.zeros(nb * x.shape[-1]), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return res.x.reshape(nb, -1) / scale


def logit_student(n_games: int, top3: bool):
    """The greedy (its seals and breaks) choosing its option by a rich-feature logit fitted to the teacher."""
    x, legal, rank, chosen, beat = record(n_games)
    print(f"  teacher's choice by the greedy's rank: {np.bincount(rank[np.arange(len(chosen)), chosen])[:4]}")
    avail = legal & (rank < 3) if top3 else legal
    w = fit_logit(x, avail, chosen, beat)
    agree = np.where(avail, np.einsum("nkf,nf->nk", x, w[beat]), -np.inf).argmax(1) == chosen
    top1 = np.mean(rank[np.arange(len(chosen)), chosen] == 0)
    print(f"  agreement with the teacher: the logit {agree.mean():.3f}, the greedy {top1:.3f}")

    def policy(params, state, rider, legal_, rng=None):
        act = agents.greedy_policy(params, state, rider, legal_)
        g = np.flatnonzero(legal_.acting & ~act.brk)
        if g.size:
            f, ok, r = rich_features(state, np.asarray(rider)[g], g)
            k = np.where(ok & (r < 3) if top3 else ok, np.einsum("nkf,f->nk", f, w[state.beat]), -np.inf).argmax(1)
            card, spin = act.card.copy(), act.spin.copy()
            card[g], spin[g] = CARD_K[k], SPIN_K[k]
            act = act._replace(card=card, spin=spin)
        return act

    return policy


def learned_from(n_games: int, teacher: str = learned.TEACHER):
    """The kept learned rung, its weights fitted to ``n_games`` games of ``teacher``."""
    learned.LEARN_GAMES, learned.TEACHER = n_games, teacher
    learned.learned_params.cache_clear()
    t = time.process_time()
    learned.learned_params(RULES, 4)
    print(f"  learning from {n_games} games of {teacher} took {time.process_time() - t:.1f} s CPU")
    return agents.learned_policy


def at_segment_ends(search):
    """The kept learned rung, with ``search`` deciding on a segment's last beat."""
    learned_from(KEPT_GAMES)

    def policy(params, state, rider, legal, rng=None):
        chosen = search if state.beat in SEGMENT_ENDS else agents.learned_policy
        return chosen(params, state, rider, legal, rng)

    return policy


VARIANTS = {
    "greedy": lambda: agents.greedy_policy,
    "learned (kept, 128 teacher games)": lambda: learned_from(KEPT_GAMES),
    "learned, 1,024 teacher games": lambda: learned_from(1024),
    "learned, 4,096 teacher games": lambda: learned_from(4096),
    **{
        f"learned from {t}": lambda t=t: learned_from(KEPT_GAMES, t)
        for t in ("lookahead@1", "lookahead@2", "lookahead@8")
    },
    "rich-feature logit, every option": lambda: logit_student(1024, top3=False),
    "rich-feature logit, the greedy's 3 best": lambda: logit_student(1024, top3=True),
    "learned + lookahead@4 on segment ends": lambda: at_segment_ends(TOP),
    "lookahead@1": lambda: BUDGETED["lookahead@1"],
    "lookahead@2": lambda: BUDGETED["lookahead@2"],
}


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    names = sys.argv[2:] or list(VARIANTS)
    for name in names:
        policy = VARIANTS[name]()
        rate, half = win_rate(policy, deals)
        share = speed(policy) / speed(agents.greedy_policy)  # the greedy timed beside it: the load changes
        print(
            f"{name}: {100 * rate:.1f} % +- {100 * half:.1f} among lookahead@4 ({4 * deals:,} games), "
            f"speed {share:.3f} of the greedy's",
            flush=True,
        )


if __name__ == "__main__":
    main()
