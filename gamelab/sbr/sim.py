"""STEEL BALL RUN for the runner: agents by name, diagnostics of appendix A.

Agents: ``greedy`` (default on every seat), ``random``, ``lookahead``
(``gamelab.sbr.agents``; their knobs are parameters of
:class:`~gamelab.sbr.agents.AgentParams`, the adapter's parameter class).

Per seat (G, P), one row per player per game in the runner's table:

* ``score``, ``win`` (ties split 1/k), ``rank`` (1 = best; ties share);
* ``segment_points``, ``relic_points``, ``final_points`` (the three parts);
* ``final_square`` (appendix A "final square"), ``finished`` (reached the
  finish), ``arrival_beat`` (the beat he reached it, NaN if not);
* ``relics`` (relics taken), ``spin_spent``, ``seals_placed``,
  ``seal_hits`` (seals triggered on this rider: movement lost or spin paid);
* ``terrain_tax`` (movement lost to rocks and curves, identity 2),
  ``cards_played``, ``card_sum`` and ``mean_card`` (identity 5);

per game (G,): ``seal_triggers`` (all seals triggered in the game, appendix
A "seal triggers per game").  Under the dual variant (9.5) a player's two
riders are summed (squares and arrival: the mean and the later rider;
``finished`` only if both are in).
"""
from __future__ import annotations

import numpy as np

from ..runner import GameAdapter
from . import agents, engine

POLICIES = {"greedy": agents.greedy_policy, "random": agents.random_policy,
            "lookahead": agents.lookahead_policy}


def play(params, seating, n_deals, n_players, seed_seq) -> dict:
    """The runner's entry point: chance first from one child of ``seed_seq``,
    the agents' randomness from the other."""
    chance_seq, agent_seq = seed_seq.spawn(2)
    chance = engine.draw_chance(params, n_deals, n_players, np.random.default_rng(chance_seq))
    policies = [POLICIES[name] for name in seating]
    res = engine.play(params, policies, n_deals, np.random.default_rng(agent_seq), n_players, chance=chance)
    return diagnostics(params, res, n_players)


def diagnostics(params, res: dict, n_players: int) -> dict:
    """Appendix A's quantities per seat (and per game) from ``engine.play``."""
    G, k = res["score"].shape[0], params.riders_per_player
    per = lambda a: np.asarray(a).reshape(G, n_players, k)  # noqa: E731
    total = lambda a: per(a).sum(axis=2)  # noqa: E731
    fin = per(res["finish_beat"])
    arrived = (fin > 0).all(axis=2)
    cards = total(res["cards_played"])
    out = dict(score=res["score"], win=res["win"], rank=res["rank"],
               segment_points=total(res["segment_points"]), relic_points=total(res["relic_points"]),
               final_points=total(res["final_points"]),
               final_square=per(res["position"]).mean(axis=2) if k > 1 else per(res["position"])[:, :, 0],
               finished=arrived, arrival_beat=np.where(arrived, fin.max(axis=2), np.nan),
               relics=total(res["relics"]), spin_spent=total(res["spin_spent"]),
               seals_placed=total(res["seals_placed"]), seal_hits=total(res["seal_hits"]),
               terrain_tax=total(res["terrain_tax"]), cards_played=cards, card_sum=total(res["card_sum"]),
               mean_card=total(res["card_sum"]) / np.maximum(cards, 1),
               seal_triggers=np.asarray(res["seal_hits"]).sum(axis=1))
    return out


def _lineup(n_players):
    return ["greedy"] * n_players


def _relic_scale(base, value):
    return {"relic_points": tuple(int(round(p * value)) for p in base.relic_points)}


def _segment_scale(base, value):
    return {"segment_points": tuple(int(round(p * value)) for p in base.segment_points)}


ADAPTER = GameAdapter("sbr", play, agents.AgentParams, _lineup, agents=tuple(POLICIES), players=(2, 5),
                      derived={"relic_scale": _relic_scale, "segment_scale": _segment_scale})

BENCH = {"agent_lineup": lambda n_players: ["greedy"] * n_players,
         "random_lineup": lambda n_players: ["random"] * n_players}
