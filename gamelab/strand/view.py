"""How a STRAND game looks (``gamelab show``, the notebook viewer), as data: the
players around the table with the cargo they show, their roles (and uses left),
lone markers as dots, the ropes as arrows (a mutual pair, a team, as one thick
line), the node ahead and its points in the middle, the running totals; the
hands on request (the optional part "hands").  Each decision in words: the
cargo shown, the ropes and teams, the round's points and the node.  Drawn by
the shared layer (:mod:`gamelab.report.viewer`); nothing here draws or plays."""

from __future__ import annotations

import numpy as np

from gamelab.core.scenes import Arrow, Bars, Grid, Ring, Seat, View

from .rules import RAIN_CARDS, ROLES
from .state import CARGO, N_VALUES, REACT, ROPE

PHASE_WORDS = {CARGO: "cargo to choose", ROPE: "ropes to choose", REACT: "reactions, then the settlement"}
NODE_TAKEN, NODE_VOID = 1, 2  # ``scoring``'s node results (a round with no full team: neither)


def _role(state, g, s) -> str:
    code = int(state.role[g, s])
    return f"{ROLES[code - 1]} ({int(state.uses[g, s])} left)" if code > 0 else ""


def scene(params, state, g, names, events):
    P = len(names)
    settled = bool(events) and "gained" in events
    shown = state.phase != CARGO or settled  # this round's cargo is on the table
    ropes = state.phase == REACT or settled  # this round's ropes are out
    arrows: list[Arrow] = []
    if ropes:
        partner = state.partner[g]
        for s in range(P):
            t = int(state.rope[g, s])
            if t < 0 or t >= P:
                continue
            if int(partner[s]) == t and int(partner[t]) == s:
                if s < t:
                    arrows.append(Arrow(s, t, mutual=True))
            else:
                arrows.append(Arrow(s, t))
    winners = events["node_winner"][g] if settled else np.zeros(P, bool)
    seats = tuple(
        Seat(
            names[s],
            value=str(int(state.cargo[g, s])) if shown else "?",
            badge=_role(state, g, s),
            lines=(f"{int(state.score[g, s])} pts",)
            + ((f"+{int(events['gained'][g, s])} this round",) if settled else ())
            + (("stays",) if ropes and int(state.rope[g, s]) < 0 else ()),
            markers=int(state.lone[g, s]),
            active=bool(winners[s]),
        )
        for s in range(P)
    )
    n_nodes = len(params.node_values)
    seg = int(state.seg[g])
    rnd = int(state.rnd[g])
    over = rnd >= params.rounds or seg >= n_nodes
    centre = [f"round {min(rnd + 1, params.rounds)} of {params.rounds}" if not over else "the game is over"]
    if seg < n_nodes:
        centre.append(f"node {seg + 1}: {params.node_values[seg]} pts")
    if settled:
        result = int(events["node_result"][g])
        taken = [names[s] for s in range(P) if winners[s]]
        centre.append(
            f"taken by {' & '.join(taken)}"
            if result == NODE_TAKEN and taken
            else "void (a tie)"
            if result == NODE_VOID
            else "no full team: not taken"
        )
    rain = int(state.rain[g])
    if params.time_rain and 0 <= rain < len(RAIN_CARDS):
        centre.append(f"rain: {RAIN_CARDS[rain]}")
    phase = "" if over else f" (next: {PHASE_WORDS[int(state.phase)]})"
    penalty = params.lone_penalty
    parts = [
        Ring(f"The table{phase}", seats, tuple(arrows), tuple(centre)),
        Bars(
            f"Running totals (gross; each lone marker ● costs {penalty} at the end)",
            tuple(names),
            tuple(float(x) for x in state.score[g]),
        ),
    ]
    if state.tracked:
        hands = tuple((names[s], *(str(int(state.hand[g, s, v])) for v in range(N_VALUES))) for s in range(P))
        parts.append(
            Grid("Hands (cards of each value held)", ("player", "1", "2", "3", "4", "5"), hands, optional="hands")
        )
    return tuple(parts)


def say(params, before, actions, events, after, g, names):
    P = len(names)
    if "cargo" in events:
        porter = events["porter"][g]
        return "cargo shown: " + ", ".join(
            f"{names[s]} {int(events['cargo'][g, s])}" + (" (porter +1)" if porter[s] else "") for s in range(P)
        )
    if "rope" in events:
        rope, partner = events["rope"][g], after.partner[g]
        said = [f"{names[s]} → {names[int(rope[s])]}" if 0 <= rope[s] < P else f"{names[s]} stays" for s in range(P)]
        teams = [f"{names[s]} & {names[int(partner[s])]}" for s in range(P) if s < partner[s]]
        return "ropes: " + ", ".join(said) + ("; teams: " + ", ".join(teams) if teams else "; no team")
    if "gained" in events:
        lone = events["lone"][g]
        gained = ", ".join(f"{names[s]} +{int(events['gained'][g, s])}" for s in range(P))
        text = f"round {int(before.rnd[g]) + 1} settles: {gained}"
        alone = [names[s] for s in range(P) if lone[s]]
        if alone:
            text += f"; a lone marker for {', '.join(alone)}"
        result = int(events["node_result"][g])
        if result == NODE_TAKEN:
            won = [names[s] for s in range(P) if events["node_winner"][g, s]]
            text += f"; node {int(before.seg[g]) + 1} ({int(events['node_value'][g])} pts) to {' & '.join(won)}"
        elif result == NODE_VOID:
            text += "; the node is void (a tie)"
        return text
    return "the rules move on"


def expect_unit(params, key, index):
    """``totals``, ``scores`` and ``segment`` are by round; ``lone`` and ``final`` about the end."""
    return index[0] if key in ("totals", "scores", "segment") and index else None


VIEW = View(scene=scene, say=say, expect_unit=expect_unit, unit_word="round")
