"""STEEL BALL RUN's design identities (appendix B ① to ⑤) and the map
statistics of section 4.3, as exact functions of the rule parameters.

Nothing here simulates: counts come from the board, pools from the point
tables, averages from the deck.  The simulated side (terrain tax actually
paid, mean card actually played) is joined by :mod:`gamelab.rulebook.identities`.
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from gamelab.core.contract import Run

from .rules import CURVE, FINISH, RIVER, ROCK, STRAIGHT, TOWN, SbrParams, parse_code

TERRAIN_NAMES = {STRAIGHT: "straight", CURVE: "curve", ROCK: "rock", RIVER: "river", TOWN: "town", FINISH: "finish"}


def mean_card(params: SbrParams) -> Fraction:
    """The mean value of a drive deck (section 5.1: 3.0)."""
    counts = params.card_counts
    return Fraction(sum((v + 1) * n for v, n in enumerate(counts)), sum(counts))


def mileage_deficit(params: SbrParams) -> Fraction:
    """① Squares to the finish minus beats x mean card (60 - 18 x 3 = 6)."""
    return params.length - params.beats * mean_card(params)


def map_statistics(params: SbrParams) -> pd.DataFrame:
    """Section 4.3: squares of each terrain, relic squares, and by segment
    (``length / (beats / beats_per_segment)`` squares a segment)."""
    parsed = [parse_code(c) for c in params.board]
    n_segments = max(1, params.beats // params.beats_per_segment)
    seg_len = params.length // n_segments
    rows = []
    for seg in range(n_segments + 1):
        part = parsed if seg == 0 else parsed[(seg - 1) * seg_len : seg * seg_len]
        row = {"segment": "all" if seg == 0 else seg}
        for code, name in TERRAIN_NAMES.items():
            row[name] = sum(1 for t, _ in part if t == code)
        row["relic"] = sum(1 for _, r in part if r)
        rows.append(row)
    return pd.DataFrame(rows)


def terrain_squares(params: SbrParams, terrain: int) -> list[int]:
    return [i + 1 for i, c in enumerate(params.board) if parse_code(c)[0] == terrain]


def terrain_tax_bound(params: SbrParams) -> dict[str, float]:
    """② The terrain tax if every curve and rock on the board were entered
    with movement to spare: all curves with a big card (``worst``), or with
    the deck's share of big cards (``card_mix``).  What a rider actually pays
    is less (a stop on a curve or rock costs nothing extra, section 4.2), so
    the measured tax comes from simulation."""
    curves, rocks = len(terrain_squares(params, CURVE)), len(terrain_squares(params, ROCK))
    counts = params.card_counts
    big = Fraction(sum(n for v, n in enumerate(counts) if v + 1 >= params.big_card), sum(counts))
    return {
        "curves": curves,
        "rocks": rocks,
        "worst": curves * params.curve_penalty + rocks * params.rock_penalty,
        "card_mix": float(curves * params.curve_penalty * big + rocks * params.rock_penalty),
    }


def spin_income(params: SbrParams) -> dict[str, int]:
    """③ The most spin the board pays a rider: each river once (at most one a
    beat) and each town stopped on; with every eye as well."""
    rivers = len(terrain_squares(params, RIVER)) * params.river_spin
    towns = len(terrain_squares(params, TOWN)) * params.town_spin
    eyes = params.relic_counts[0] * params.eye_spin
    return {"rivers": rivers, "towns": towns, "terrain": rivers + towns, "with_all_eyes": rivers + towns + eyes}


def point_pools(params: SbrParams, n_players: int) -> dict[str, int]:
    """④ Points on offer in a game of ``n_players`` riders: segment ranks,
    relics on the board (their expected sum when only some relic cards are
    laid out, as in 9.1), final ranks, and their total (110 at 4-5 players)."""
    n_segments = len(params.segment_ends())
    seg = n_segments * sum(params.segment_points[:n_players])
    relic_squares = len(params.relic_squares())
    deck = [p for p, n in zip(params.relic_points, params.relic_counts) for _ in range(n)]
    # fewer squares than relic cards (9.1): the cards laid out are random, so their expected sum
    relics = sum(deck) if relic_squares >= len(deck) else Fraction(sum(deck) * relic_squares, len(deck))
    final = sum(params.final_points[:n_players])
    return {"segments": seg, "relics": relics, "final": final, "total": seg + relics + final}


def deck_runs_out(params: SbrParams) -> int:
    """⑤ The beat whose draw empties a rider's deck (20 - 5 = 15): from the
    next beat on he plays from his hand alone."""
    return sum(params.card_counts) - params.hand_size


def cards_left_in_hand(params: SbrParams) -> int:
    """⑤ Cards never played: deck size minus beats (20 - 18 = 2)."""
    return max(0, sum(params.card_counts) - params.beats)


def rows(params: SbrParams) -> list:
    """Appendix B's identities and section 4.3's map statistics as rows."""
    from gamelab.core.identity_row import Row

    stats = map_statistics(params).set_index("segment")
    whole = stats.loc["all"]
    out = [
        Row("①", "mileage deficit: squares - beats x mean card", 6, float(mileage_deficit(params)), 0),
        Row("①", "mean drive card", 3.0, float(mean_card(params)), 0.05),
    ]
    tax = terrain_tax_bound(params)
    out += [
        Row(
            "②", "terrain tax if every curve and rock is crossed at the deck's big-card share", 11, tax["card_mix"], 0.5
        ),
        Row("②", "terrain tax paid per rider over the game, simulated lineup", 11, None, 0.5, sim_key="terrain_tax"),
        Row("②", "terrain tax paid per rider, greedy agent on every seat", 11, None, 0.5, sim_key="terrain_tax_greedy"),
        Row("②", "terrain tax paid per rider, random agent on every seat", 11, None, 0.5, sim_key="terrain_tax_random"),
    ]
    spin = spin_income(params)
    out += [
        Row("③", "spin the board pays: rivers + towns", 10, spin["terrain"], 0),
        Row("③", "... with every eye as well", None, spin["with_all_eyes"]),
    ]
    for n in (4, 5):
        pools = point_pools(params, n)
        out += [
            Row("④", f"segment points on offer, {n} players", 66, pools["segments"], 0),
            Row("④", f"relic points on offer, {n} players", 24, pools["relics"], 0),
            Row("④", f"total points on offer, {n} players", 110, pools["total"], 0),
        ]
    out += [
        Row(
            "④",
            "segment points / relic points",
            2.75,
            pools["segments"] / pools["relics"] if pools["relics"] else None,
            0.005,
        )
    ]
    out += [
        Row("⑤", "beat whose draw empties the deck", 15, deck_runs_out(params), 0),
        Row("⑤", "cards left in hand at the end", 2, cards_left_in_hand(params), 0),
        Row("⑤", "mean card played (simulated)", 3.19, None, 0.005, sim_key="mean_card_played"),
    ]
    for name, claimed in (
        ("straight", 30),
        ("curve", 13),
        ("rock", 6),
        ("river", 6),
        ("town", 4),
        ("relic", 12),
        ("finish", 1),
    ):
        out.append(Row("4.3", f"{name} squares on the board", claimed, int(whole[name]), 0))
    for seg, (curves, rocks) in enumerate([(1, 0), (2, 2), (3, 2), (2, 0), (3, 1), (2, 1)], start=1):
        if seg in stats.index:
            out.append(Row("4.3", f"curves in segment {seg}", curves, int(stats.loc[seg, "curve"]), 0))
            out.append(Row("4.3", f"rocks in segment {seg}", rocks, int(stats.loc[seg, "rock"]), 0))
    return out


TAX_AGENTS = ("greedy", "random")  # identity ②'s tax is measured under each on every seat


def _tax_frame(frames: dict) -> tuple[int, pd.DataFrame]:
    """The frame identities ② and ⑤ are measured in: 4 players, or the only count."""
    players = 4 if 4 in frames else next(iter(frames))
    return players, frames[players]


def needs(params: SbrParams, frames: dict) -> dict:
    """The runs :func:`simulated` needs besides ``frames``: each agent of
    :data:`TAX_AGENTS` on every seat, at the measured frame's size and player
    count, when that frame has fewer games with the agent seated."""
    from .agents import AgentParams

    players, frame = _tax_frame(frames)
    n = min(int(frame["game"].nunique()), 20_000)
    sim_params = params if isinstance(params, AgentParams) else AgentParams(**params.as_dict())
    out = {}
    for agent in TAX_AGENTS:
        if frame.loc[frame["agent"] == agent, "game"].nunique() < n:
            out[agent] = Run(n_players=players, n_games=n, seed=0, lineup=(agent,) * players, params=sim_params)
    return out


def simulated(params: SbrParams, frames: dict, extra: dict) -> dict:
    """Identity ② and ⑤ as measured (game means, t intervals: the riders of a
    game are not independent): terrain tax per rider and the mean card played
    in the 4-player frame (or the only one), and identity ②'s tax under the
    greedy and under the random agent (each from its own run, :func:`needs`,
    when the frame has too few games with it seated)."""
    from gamelab.stats.intervals import mean_interval

    players, frame = _tax_frame(frames)

    def tax_of(f):
        return mean_interval(f.groupby("game")["terrain_tax"].mean().astype(float))

    g = frame.groupby("game")
    out = {
        "terrain_tax": tax_of(frame),
        "mean_card_played": mean_interval((g["card_sum"].sum() / g["cards_played"].sum()).astype(float)),
    }
    for agent in TAX_AGENTS:
        mine = extra[agent] if agent in extra else frame[frame["agent"] == agent]
        out[f"terrain_tax_{agent}"] = tax_of(mine)
    return out
