"""STRAND's design identities (appendix A ① to ⑥) as exact functions of the
rule parameters: enumeration and combinatorics, no simulation.

Each function takes a :class:`~gamelab.strand.rules.StrandParams` and returns
numbers or a small DataFrame; :func:`identity_table` gathers them beside the
rulebook's stated values.  The simulated column (from the runner) is joined
by :func:`gamelab.rulebook.identities.with_simulation`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from gamelab.stats.intervals import Estimate

from .rules import StrandParams, half

VALUES = (1, 2, 3, 4, 5)

#: the rulebook's own numbers for identity ② (section "appendix A ②")
RULEBOOK_NODE_SHARE = 6.0  # "互指成功收益 = v + 结点（平均约 6 分）"
RULEBOOK_STAY_VALUE = 1.2  # "留守收益 ≈ 1.2 分"
RULEBOOK_P_STAR = {1: 0.275, 2: 0.244, 3: 0.133, 4: 0.120, 5: 0.020}


def cargo_probabilities(params: StrandParams) -> dict[int, Fraction]:
    """Chance that a random card from the deck shows each value (section 2 deck)."""
    total = sum(params.cargo_counts)
    return {v: Fraction(n, total) for v, n in zip(VALUES, params.cargo_counts)}


def pairable_rate(params: StrandParams, *, replacement: bool = True) -> Fraction:
    """① Chance that two random cards sum to at most ``sum_cap``: with
    replacement (the rulebook's 19/25) or drawn from one deck without."""
    counts = dict(zip(VALUES, params.cargo_counts))
    total = sum(counts.values())
    num = Fraction(0)
    for a in VALUES:
        for b in VALUES:
            if a + b <= params.sum_cap:
                if replacement:
                    num += Fraction(counts[a] * counts[b], total * total)
                else:
                    same = 1 if a == b else 0
                    num += Fraction(counts[a] * (counts[b] - same), total * (total - 1))
    return num


def pairable_table(params: StrandParams) -> pd.DataFrame:
    """① per cargo value: how many of the five values it can team with in full,
    and the chance a random partner fits, with and without replacement."""
    counts = dict(zip(VALUES, params.cargo_counts))
    total = sum(counts.values())
    rows = []
    for v in VALUES:
        fits = [w for w in VALUES if v + w <= params.sum_cap]
        with_r = Fraction(sum(counts[w] for w in fits), total)
        without = Fraction(sum(counts[w] for w in fits) - (1 if v in fits else 0), total - 1)
        rows.append(
            {
                "cargo": v,
                "partners": f"{len(fits)} / {len(VALUES)}",
                "p_with_replacement": float(with_r),
                "p_without_replacement": float(without),
            }
        )
    return pd.DataFrame(rows)


RULEBOOK_NODE_TOTAL = 42  # the node values the rulebook's N = 6 was stated for (3+4+4+5+5+6+7+8)


def rulebook_node_share(params: StrandParams) -> float:
    """② The rulebook's N followed to other node values: 6 scaled by the
    track's node total (6 with the rulebook's 42 points)."""
    return RULEBOOK_NODE_SHARE * node_total(params) / RULEBOOK_NODE_TOTAL


def partner_fit(params: StrandParams, value: int) -> tuple[int, float]:
    """5.1: how many cargo values can team in full with ``value`` under the
    sum cap, and the chance a random partner card (drawn with replacement
    from the deck's counts) is one of them."""
    fits = [w for w in VALUES if value + w <= params.sum_cap]
    counts = dict(zip(VALUES, params.cargo_counts))
    return len(fits), sum(counts[w] for w in fits) / sum(counts.values())


def threshold(mutual: float, lone: float, stay: float) -> float:
    """p with p mutual + (1 - p) lone = stay: 0 when even lone beats staying,
    NaN (never) when a mutual result does not."""
    if lone >= stay:
        return 0.0
    if mutual <= stay:
        return float("nan")
    return (stay - lone) / (mutual - lone)


def ev_threshold(
    params: StrandParams, *, node_share: float | None = None, stay_value: float = RULEBOOK_STAY_VALUE
) -> pd.DataFrame:
    """② The trust rate p* above which betting on a rope beats staying:

        EV(p) = p (v + N) + (1 - p) (half(v) - L) = S   =>   p* = (S - lone) / (mutual - lone)

    with N the mean node share (default: the rulebook's 6, followed to the
    node values), L = ``lone_penalty`` and S the value of a stay.  p* is 0
    when even a lone result beats a stay, NaN (never) when a mutual team
    does not, and NaN when the cargo can team in full with no value under the
    sum cap (``full_team`` False: the rulebook's mutual v + N cannot happen).
    ``p_star_with_cap`` counts overweight teams (6.3: both score half, no
    node): mutual = fit (v + N) + (1 - fit) half(v), with ``fit`` the chance a
    random partner fits.
    """
    node_share = rulebook_node_share(params) if node_share is None else node_share
    rows = []
    for v in VALUES:
        mutual = v + node_share
        lone = half(v, params.half_rounding) - params.lone_penalty
        partners, fit = partner_fit(params, v)
        expected = fit * mutual + (1 - fit) * half(v, params.half_rounding)
        rows.append(
            {
                "cargo": v,
                "mutual": mutual,
                "lone": lone,
                "p_star": threshold(mutual, lone, stay_value) if partners else float("nan"),
                "partners": partners,
                "full_team": partners > 0,
                "fit": fit,
                "p_star_with_cap": threshold(expected, lone, stay_value),
            }
        )
    return pd.DataFrame(rows)


def ev_curve(params: StrandParams, value: int, p, *, node_share: float = RULEBOOK_NODE_SHARE) -> np.ndarray:
    """② EV of betting with cargo ``value`` at trust rates ``p`` (for plots)."""
    p = np.asarray(p, dtype=float)
    lone = half(value, params.half_rounding) - params.lone_penalty
    return p * (value + node_share) + (1 - p) * lone


def full_team_pairs(params: StrandParams, cap: int | None = None) -> pd.DataFrame:
    """③ Every full team (unordered cargo pair with sum <= cap), what it beats
    and what it ties with under the node rule (sum, then the heavier card,
    then void)."""
    cap = params.sum_cap if cap is None else cap
    pairs = [(a, b) for a in VALUES for b in VALUES if a <= b and a + b <= cap]
    rows = []
    for a, b in pairs:
        same_sum = [(c, d) for c, d in pairs if c + d == a + b and (c, d) != (a, b)]
        rows.append(
            {
                "pair": f"{b}+{a}",
                "sum": a + b,
                "heavier": b,
                "beats_by_heavier_card": ", ".join(f"{d}+{c}" for c, d in same_sum if d < b),
                "loses_by_heavier_card": ", ".join(f"{d}+{c}" for c, d in same_sum if d > b),
                "voids_against": f"{b}+{a}",
            }
        )
    return pd.DataFrame(rows).sort_values(["sum", "heavier"], ascending=[False, False]).reset_index(drop=True)


def node_tie_odds(params: StrandParams) -> dict[str, float]:
    """③ Two independent full teams (cards drawn with replacement, each team
    conditioned on being full): the chance their sums tie, and of those ties
    the share the heavier card decides versus the share that voids the node."""
    q = {v: float(p) for v, p in cargo_probabilities(params).items()}
    teams: dict[tuple, float] = {}
    for a in VALUES:
        for b in VALUES:
            if a + b <= params.sum_cap:
                key = (min(a, b), max(a, b))
                teams[key] = teams.get(key, 0.0) + q[a] * q[b]
    z = sum(teams.values())
    teams = {k: w / z for k, w in teams.items()}
    tie = decided = 0.0
    for t1, w1 in teams.items():
        for t2, w2 in teams.items():
            if sum(t1) == sum(t2):
                tie += w1 * w2
                if t1[1] != t2[1]:
                    decided += w1 * w2
    return {"sum_tie": tie, "decided_by_heavier": decided, "void": tie - decided}


def node_total(params: StrandParams) -> int:
    """④ All node points on the track (42 with the rulebook's values)."""
    return int(sum(params.node_values))


def stall_cost(params: StrandParams, stalls: int = 1) -> int:
    """⑤ Node points no one can take after ``stalls`` rounds without a team:
    the track then never reaches its last ``stalls`` segments."""
    stalls = max(0, min(stalls, len(params.node_values)))
    return int(sum(params.node_values[len(params.node_values) - stalls :]))


def trust_price(params: StrandParams) -> pd.DataFrame:
    """⑥ What a mutual rope is worth over a lone one, per cargo value: the
    cargo difference plus the lone penalty, and with the largest node."""
    rows = []
    for v in VALUES:
        gap = v - (half(v, params.half_rounding) - params.lone_penalty)
        rows.append({"cargo": v, "without_node": gap, "with_largest_node": gap + max(params.node_values)})
    return pd.DataFrame(rows)


def rows(params: StrandParams, *, node_share: float | None = None, stay_value: float = RULEBOOK_STAY_VALUE) -> list:
    """Appendix A's identities as table rows (exact values; the simulated
    metric each row can be checked against is named in ``sim_key``)."""
    from gamelab.core.identity_row import Row, rounding

    out = [
        Row(
            "①",
            "pairable rate, two random cards (with replacement)",
            19 / 25,
            float(pairable_rate(params)),
            1e-9,
            percent=True,
        ),
        Row(
            "①",
            "pairable rate, two cards from one deck (no replacement)",
            None,
            float(pairable_rate(params, replacement=False)),
            percent=True,
        ),
    ]
    node_share = rulebook_node_share(params) if node_share is None else node_share
    ev = ev_threshold(params, node_share=node_share, stay_value=stay_value).set_index("cargo")
    for v, claimed in RULEBOOK_P_STAR.items():
        alone = "" if ev.loc[v, "full_team"] else f"; cargo {v} cannot team in full under sum cap {params.sum_cap}"
        out.append(
            Row(
                "②",
                f"trust threshold p* for cargo {v} (N={node_share:.3g}, L={params.lone_penalty}, "
                f"S={stay_value:g}){alone}",
                claimed,
                float(ev.loc[v, "p_star"]),
                rounding(f"{claimed * 100:.1f}") / 100,
                percent=True,
            )
        )
    for v in VALUES:
        out.append(
            Row(
                "②",
                f"p* for cargo {v} at the measured N and S, overweight teams counted "
                f"({ev.loc[v, 'partners']} of 5 partner values fit; simulated)",
                None,
                None,
                sim_key=f"p_star_measured_{v}",
                percent=True,
            )
        )
    for v in VALUES:
        out.append(
            Row(
                "②",
                f"trust reached with cargo {v}: share of its ropes that end mutual (simulated)",
                None,
                None,
                sim_key=f"mutual_rate_{v}",
                percent=True,
            )
        )
    pairs = full_team_pairs(params)
    six = pairs[pairs["sum"] == 6]
    top = six.iloc[0]["pair"] if len(six) else ""
    out.append(
        Row(
            "③",
            "at sum 6 the pair with the heavier card (5+1) takes the node (1 = yes)",
            1.0,
            1.0 if top == "5+1" else 0.0,
        )
    )
    odds = node_tie_odds(params)
    out.append(Row("③", "two random full teams tie on their sum", None, odds["sum_tie"], percent=True))
    out.append(Row("③", "... and the tie voids the node (same heavier card)", None, odds["void"], percent=True))
    out.append(
        Row(
            "③",
            "rounds whose node is voided by a full tie, 4 players (appendix B)",
            0.039,
            None,
            0.0005,
            sim_key="node_void_rate",
            percent=True,
        )
    )
    out.append(Row("④", "node points on the track", 42, node_total(params), 0))
    out.append(Row("④", "mean points scored in a 4-player game (all players)", 145, None, 2.5, sim_key="total_points"))
    out.append(Row("⑤", "node points lost to one stalled round", 8, stall_cost(params, 1), 0))
    out.append(Row("⑤", "node points lost to two stalled rounds", 8 + 7, stall_cost(params, 2), 0))
    for players, claimed in ((3, 0.85), (4, 0.93), (5, 0.95), (6, 0.98)):
        out.append(
            Row(
                "⑤",
                f"rounds with a team, {players} players",
                claimed,
                None,
                0.005,
                sim_key=f"team_round_rate@{players}",
                percent=True,
            )
        )
        out.append(
            Row(
                "⑤",
                f"node points no one can take (track short of the end), {players} players",
                None,
                None,
                sim_key=f"stall_cost@{players}",
            )
        )
        out.append(
            Row(
                "④",
                f"node share of all points, {players} players",
                0.29 if players == 4 else None,
                None,
                0.005,
                sim_key=f"node_share@{players}",
                percent=True,
            )
        )
    out.append(
        Row(
            "②",
            "mean node share N of a player in a team (simulated)",
            RULEBOOK_NODE_SHARE,
            None,
            0.5,
            sim_key="node_share_N",
        )
    )
    out.append(
        Row(
            "②",
            "value S of a stay: next-round points after a stay minus otherwise (simulated)",
            stay_value,
            None,
            0.05,
            sim_key="stay_value_S",
        )
    )
    price = trust_price(params).set_index("cargo")
    out.append(Row("⑥", "a mutual 5 over a lone 5, no node", 4, float(price.loc[5, "without_node"]), 0))
    out.append(Row("⑥", "a mutual 5 over a lone 5, largest node", 11, float(price.loc[5, "with_largest_node"]), 0))
    return out


def simulated(params: StrandParams, frames: dict, extra: dict) -> dict:
    """The simulated quantities the rows name (``sim_key``) from runner frames
    by player count: ``key@P`` for P players, plain ``key`` from the 4-player
    frame (or the only one)."""
    from gamelab.stats.intervals import mean_interval

    from .sim import measures

    out = {}
    for players, frame in frames.items():
        m = measures(frame)
        games = frame.groupby("game").first()
        nodes = np.asarray(params.node_values)
        tail = np.concatenate([np.cumsum(nodes[::-1])[::-1], [0]])  # node points beyond each track position
        m["stall_cost"] = mean_interval(tail[np.minimum(games["team_rounds"].to_numpy(), len(nodes))])
        m.update(measured_thresholds(params, m["node_share_N"], m["stay_value_S"]))
        out.update({f"{k}@{players}": v for k, v in m.items()})
    ref = f"@{4 if 4 in frames else next(iter(frames))}"
    out.update({k[: -len(ref)]: v for k, v in list(out.items()) if k.endswith(ref)})
    return out


def measured_thresholds(params: StrandParams, node: Estimate, stay: Estimate) -> dict:
    """② p* with the sum cap (``p_star_with_cap``) at the simulated N and S,
    as Estimates: the interval from the corners of N's and S's intervals
    (p* falls with N and rises with S)."""
    out = {}
    corners = [
        ev_threshold(params, node_share=n, stay_value=st).set_index("cargo")["p_star_with_cap"]
        for n in (node.low, node.high)
        for st in (stay.low, stay.high)
    ]
    point = ev_threshold(params, node_share=node.value, stay_value=stay.value).set_index("cargo")["p_star_with_cap"]
    for v in VALUES:
        ends = [float(c[v]) for c in corners]
        out[f"p_star_measured_{v}"] = Estimate(float(point[v]), min(ends), max(ends), node.n)
    return out


def trust_table(
    frame: pd.DataFrame,
    params=None,
    *,
    node_share: float | None = None,
    stay_value: float = RULEBOOK_STAY_VALUE,
) -> pd.DataFrame:
    """② beside simulated play (``frame``, a runner table played under
    ``params``): per cargo value the threshold p* of the rulebook's formula
    at these rules and at the N and S given (default: the rulebook's 6
    followed to the node values, and 1.2), the very figure of the exact table
    (:func:`ev_threshold` called alike, so a cell has one p*), the threshold at
    the N and S the simulation measures with overweight teams counted (what
    play does: a mutual pair over the cap scores half each, 6.3), the
    mutual-trust rate the style mix actually reaches (95 % interval), and
    whether betting beats staying at that rate: the reached rate's interval
    above the threshold as played (no when a team never beats a stay there)."""
    from .sim import measures

    rules = params if params is not None else StrandParams()
    m = measures(frame)
    node_share = rulebook_node_share(rules) if node_share is None else node_share
    book = ev_threshold(rules, node_share=node_share, stay_value=stay_value).set_index("cargo")["p_star"]
    sim_n, sim_s = m["node_share_N"].value, m["stay_value_S"].value
    played = ev_threshold(rules, node_share=sim_n, stay_value=sim_s).set_index("cargo")
    measured = played["p_star_with_cap"]  # the trust reached counts overweight mutual pairs too
    rows = []
    for v in VALUES:
        r = m[f"mutual_rate_{v}"]
        rows.append(
            {
                "cargo": v,
                "p_star_rulebook": book[v],
                "p_star_measured_N_S": measured[v],
                "trust_reached": r.value,
                "low": r.low,
                "high": r.high,
                "ropes": r.n,
                "betting_beats_staying": bool(r.n and not np.isnan(measured[v]) and r.low > measured[v]),
            }
        )
    out = pd.DataFrame(rows)
    out.attrs.update(
        N=sim_n,
        S=sim_s,
        games=int(frame["game"].nunique()),
        caption=f"the rulebook's formula at N = {number(node_share)} and S = {number(stay_value)} (the exact "
        f"table's p*); as played N = {number(sim_n)} and S = {number(sim_s)}; betting beats staying where the "
        "trust reached (its 95 % interval) lies above the p* as played, which counts overweight teams",
    )
    return out


def number(x: float, digits: int = 2) -> str:
    """``x`` to ``digits`` decimals as a caption prints it: never a negative zero
    (a measured S of -0.001 is "0.00"), a real minus sign otherwise."""
    shown = f"{round(x, digits) + 0.0:.{digits}f}"  # + 0.0: round(-0.001, 2) is -0.0
    return shown.replace("-", "\u2212")
