"""STEEL BALL RUN for the runner: agents by name, diagnostics of appendix A.

Agents: ``greedy`` (default on every seat), ``random``, ``lookahead``, ``deep``
(``gamelab.sbr.agents``; their knobs are parameters of
:class:`~gamelab.sbr.agents.AgentParams`, the game's parameter class, ``GAME.knobs``).

Per seat (G, P), one row per player per game in the runner's table:

* ``score``, ``win`` (ties split 1/k), ``rank`` (1 = best; ties share);
* ``segment_points``, ``relic_points``, ``final_points`` (the three parts);
  ``segment_1_points`` .. ``segment_S_points`` (each segment's, S segments: they
  sum to ``segment_points``) and ``segment_k_relic_points`` (the relic points taken
  in segment k: they sum to ``relic_points``): the report's edge by phase, ``EDGE``;
* ``final_square`` (appendix A "final square"), ``finished`` (reached the
  finish), ``arrival_beat`` (the beat he reached it, NaN if not);
* ``start_player`` (the start player of section 6.1, exactly one per game:
  beat 1's order counts from him, and every seat-order tie-break too under
  ``seat_order = from_start``);
* ``relics`` (relics taken), ``spin_spent``, ``seals_placed``,
  ``seal_hits`` (seals triggered on this rider: movement lost or spin paid);
* ``terrain_tax`` (movement lost to rocks and curves, identity 2),
  ``cards_played``, ``card_sum`` and ``mean_card`` (identity 5);

per game (G,): ``seal_triggers`` (all seals triggered in the game, appendix
A "seal triggers per game"), ``lead_changes`` (times the sole leader by points
so far changed, beat by beat), ``game_length`` (beats until every rider was in,
or all of them).  Under the dual variant (9.5) a player's two
riders are summed (squares and arrival: the mean and the later rider;
``finished`` only if both are in).

The games are played by the shared play (:mod:`gamelab.sim.play`: the batch
driver with the agents' controller), which asks :func:`compiled` first (whole
games of compiled agents); the columns are :func:`columns` of the engine's
result and the lead changes it counts (``COUNTS``).

Also here: the sweep knobs ``relic_scale`` / ``segment_scale`` (``DERIVED``),
the lineups and ``ASSUMPTIONS``;
:data:`gamelab.sbr.game.GAME` wires them into the contract.  The notebook
panel lives in :mod:`gamelab.sbr.panels`.
"""

from __future__ import annotations

import numpy as np

from gamelab.core import budgets
from gamelab.core.contract import Counts, EdgeSources, PointPart
from gamelab.core.driver import play_out
from gamelab.core.params import knob_value, specs
from gamelab.stats.leads import lead_changes

from . import agents, engine, search


def compiled(params, seating, state, chance, rng) -> dict | None:
    """``GAME.compiled``, the shared play's compiled twin: for a seating whose seats are all
    greedy, lookahead or deep, at least one searching (an all-greedy table runs faster through
    the batch driver, a slot of every game per call: docs/performance.md), the set-up games of
    ``state`` played whole by :func:`search.play_games`, and the counts the shared play would
    have counted (decisions per game, lead changes after each beat); None for any other seating.
    The agents draw no random numbers, so ``rng`` is not read; the results are identical."""
    if not (all(name in search.AGENT_CODES for name in seating) and any(name != "greedy" for name in seating)):
        return None
    points = search.play_games(params, state, seating)
    G, R = state.pos.shape
    return {"length": np.full(G, params.beats * R, np.int32), "lead_changes": lead_changes(points, G)}


def columns(params, state, result: dict, counts: dict) -> dict:
    """``GAME.counts.columns``: appendix A's quantities per seat and per game (:func:`diagnostics`)
    from the engine's result and the lead changes, then the start player of each game."""
    out = diagnostics(params, {**result, "lead_changes": counts["lead_changes"]}, state.n_players)
    out["start_player"] = start_column(params, state.start, state.n_players)
    return out


COUNTS = Counts(leads="points_so_far", leads_on="beat_over", columns=columns)  # GAME.counts: lead changes per beat


def start_column(params, start, n_players: int) -> np.ndarray:
    """(G, P) True for the start player of each game (section 6.1: seat 1
    under ``start_player = seat``, else the random one; a dual player whose
    first rider starts)."""
    seat = np.asarray(start, np.intp) // params.riders_per_player
    return np.arange(n_players)[None, :] == seat[:, None]


def diagnostics(params, res: dict, n_players: int) -> dict:
    """Appendix A's quantities per seat (and per game) from the engine's result and the lead changes."""
    G, k = res["score"].shape[0], params.riders_per_player

    def per(a):
        """(G, P, riders per player)."""
        return np.asarray(a).reshape(G, n_players, k)

    def total(a):
        """Summed over a player's riders."""
        return per(a).sum(axis=2)

    fin = per(res["finish_beat"])
    arrived = (fin > 0).all(axis=2)
    cards = total(res["cards_played"])
    out = dict(
        score=res["score"],
        win=res["win"],
        rank=res["rank"],
        segment_points=total(res["segment_points"]),
        relic_points=total(res["relic_points"]),
        final_points=total(res["final_points"]),
        final_square=per(res["position"]).mean(axis=2) if k > 1 else per(res["position"])[:, :, 0],
        finished=arrived,
        arrival_beat=np.where(arrived, fin.max(axis=2), np.nan),
        relics=total(res["relics"]),
        spin_spent=total(res["spin_spent"]),
        seals_placed=total(res["seals_placed"]),
        seal_hits=total(res["seal_hits"]),
        terrain_tax=total(res["terrain_tax"]),
        cards_played=cards,
        card_sum=total(res["card_sum"]),
        mean_card=total(res["card_sum"]) / np.maximum(cards, 1),
        seal_triggers=np.asarray(res["seal_hits"]).sum(axis=1),
        lead_changes=res["lead_changes"],
        game_length=np.where((fin > 0).all(axis=(1, 2)), fin.max(axis=(1, 2)), params.beats),
    )
    seg = np.asarray(res["segment_points_each"])  # (G, S, R): segment k's points, the report's edge by phase
    relic = np.asarray(res["relic_points_each"])  # the relic points taken in segment k
    for s in range(seg.shape[1]):
        out[f"segment_{s + 1}_points"] = total(seg[:, s])
        out[f"segment_{s + 1}_relic_points"] = total(relic[:, s])
    return out


def _scale_range(base, name: str) -> float:
    """The largest factor that keeps every point of ``name`` within its declared range."""
    high = next(s.high for s in specs(base) if s.name == name)
    top = max(getattr(base, name))
    return high / top if top > 0 else high


def lookahead_lineup(n_players):
    """One lookahead against greedy riders (the bench's search rate)."""
    return ["lookahead"] + ["greedy"] * (n_players - 1)


def all_lookahead_lineup(n_players):
    """The lookahead on every seat (the bench's ``strong_lookahead``)."""
    return ["lookahead"] * n_players


def strong_lineup(n_players):
    """The strongest agent, deep, on every seat (the bench's ``strong``)."""
    return ["deep"] * n_players


def relic_scale(base, value):
    """Sweep knob: every relic's points times ``value`` (rounded); ``value``
    from 0 to the factor that keeps each relic within 0..20 (section 5.4)."""
    value = knob_value("relic_scale", value, 0, _scale_range(base, "relic_points"), meaning="relic points times it")
    return {"relic_points": tuple(int(round(p * value)) for p in base.relic_points)}


def segment_scale(base, value):
    """Sweep knob: every segment rank's points times ``value`` (rounded);
    ``value`` from 0 to the factor that keeps each within 0..100 (section 6.2)."""
    value = knob_value(
        "segment_scale", value, 0, _scale_range(base, "segment_points"), meaning="segment points times it"
    )
    return {"segment_points": tuple(int(round(p * value)) for p in base.segment_points)}


DERIVED = {"relic_scale": relic_scale, "segment_scale": segment_scale}
REPORT_PLAYERS = (2, 3, 4, 5)
CHUNK_DEALS = 8192
REPORT_GROUPS = ("agent", "seat")


def edge_sources(params, n_players: int) -> tuple[PointPart, ...]:
    """Section 6's three scoring sources: segment points, relic points, final places (6.3)."""
    return (
        PointPart("segment points", {"segment_points": 1}),
        PointPart("relics", {"relic_points": 1}),
        PointPart("final places", {"final_points": 1}),
    )


def edge_phases(params, n_players: int) -> tuple[PointPart, ...]:
    """Each segment (6.2): its segment points and the relic points taken in it; then the final places (6.3)."""
    segments = tuple(
        PointPart(f"segment {k + 1}", {f"segment_{k + 1}_points": 1, f"segment_{k + 1}_relic_points": 1})
        for k in range(len(params.segment_ends()))
    )
    return (*segments, PointPart("the final ranking", {"final_points": 1}))


EDGE = EdgeSources(
    sources=edge_sources,
    phases=edge_phases,
    why="Seals score no points themselves: what they cost a rider (movement, spin) shows in the sources "
    "they move him out of.",
)


def rung_words(name: str) -> str:
    """A rung of the skill ladder in words (``GAME.skill.rung_words``):
    ``lookahead, play-outs 4 beats deep``."""
    if name == "random":
        return "random play"
    if name == "default":
        return "the default model (greedy)"
    if budgets.agent_of(name) == "lookahead" and (b := budgets.budget_of(name)):
        return f"lookahead, play-outs {b} beat{'s' if b > 1 else ''} deep"
    if name == "learned":
        return "the learned rider (the greedy reweighted to choose as the lookahead)"
    return name


TITLE = "STEEL BALL RUN: CONTINENTAL SPIN"


ASSUMPTIONS = (
    "Every seat is the greedy agent unless a lineup says otherwise: a deterministic, full-information rider "
    "that scores each legal card and spin by what the engine says it would do (squares gained, relic points and "
    "effects, spin kept, the card spent, terrain lost, the segment rank it would take on a segment's last beat "
    "and the final rank on the last beat) and places a seal where the most pursuers are within reach. The "
    "rulebook's own AI is not described beyond 'deterministic greedy, full information', so the weights are "
    "ours (docs/agents.md). A lookahead agent (greedy play-outs of its top three options) beats it easily: "
    "these tables describe greedy tables, not strong play."
)


def warm() -> float:
    """Compile every entry point of the game's compiled code once (or load it
    from the on-disk cache): a short game of each kind of seating and every
    query.  Returns the seconds it took."""
    import time

    t0 = time.perf_counter()
    params = agents.AgentParams(beats=2, lookahead_beats=1, deep_reply_beats=0)
    for seating in (["deep", "lookahead"], ["greedy", "random"], ["lookahead", "random"]):
        rng = np.random.default_rng(0)
        chance = engine.draw_chance(params, 1, 2, rng)
        state = engine.init(params, 1, 2, chance)
        if compiled(params, seating, state, chance, rng) is None:
            play_out(engine, params, state, chance, agents.controller(params, seating, 1, rng))
    st = engine.init(params, 1, 2, engine.draw_chance(params, 1, 2, np.random.default_rng(0)))
    engine.options(params, st, engine.to_move(st))
    engine.seal_ahead(params, st, engine.to_move(st))
    agents.greedy_values(params, st, engine.to_move(st))
    return time.perf_counter() - t0
