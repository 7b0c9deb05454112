"""How a STEEL BALL RUN game looks (``gamelab show``, the notebook viewer), as data:
the track (start line and squares 1-60) coloured by terrain, relic squares with
their relic or "taken", seals with their owner, every rider on its square; the
beat and this beat's acting order, the points so far; the hands on request (the
optional part "hands").  Each decision in words: the card and spin played, the
move, the seal placed, the relic taken, and a segment's scoring when a beat ends.
Drawn by the shared layer (:mod:`gamelab.report.viewer`); nothing here draws or plays."""

from __future__ import annotations

import numpy as np

from gamelab.core.scenes import Bars, Facts, Grid, Square, Token, Track, View

from .rules import N_VALUES, RELIC_TYPES, TERRAIN

#: terrain colours (section 4.2's kinds); "start" is square 0, the start line
PALETTE = {
    "start": "#ffffff",
    "straight": "#f3ead7",
    "curve": "#f7c98b",
    "rock": "#b5aea4",
    "river": "#9cc9ef",
    "town": "#d7b7e8",
    "finish": "#222222",
}


def rider_names(names, n_riders: int) -> list[str]:
    """One name per rider: the seats' own (one rider each), or ``NAME/1``, ``NAME/2`` (9.5)."""
    if len(names) == n_riders:
        return list(names)
    k = n_riders // max(1, len(names))
    return [f"{names[r // k]}/{r % k + 1}" for r in range(n_riders)]


def seat_of(names, n_riders: int, r: int) -> int:
    return r // max(1, n_riders // max(1, len(names)))


def scene(params, state, g, names, events):
    R = state.pos.shape[1]
    riders = rider_names(names, R)
    terrain = params.terrain_array()
    relic_squares = set(params.relic_squares())
    squares = []
    for sq in range(params.length + 1):
        kind = "start" if sq == 0 else TERRAIN[int(terrain[sq])]
        marks = []
        if sq in relic_squares:
            kind_code = int(state.relic[g, sq])
            marks.append(
                RELIC_TYPES[kind_code] if 0 <= kind_code < len(RELIC_TYPES) else "relic" if kind_code >= 0 else "taken"
            )
        if state.seal[g, sq] >= 0:
            marks.append(f"seal {riders[int(state.seal[g, sq])]}"[:10])
        squares.append(Square(str(sq) if sq else "start", kind, tuple(marks)))
    tokens = tuple(Token(int(min(state.pos[g, r], params.length)), str(r + 1), seat_of(names, R, r)) for r in range(R))
    over = state.beat >= params.beats
    order = [int(r) for r in state.order[g]]
    slot = int(state.slot)
    acting = (
        "the race is over"
        if over
        else ", ".join(
            (f"[{riders[r]}]" if i == slot else riders[r])
            for i, r in enumerate(order)
            if state.pos[g, r] < params.length
        )
    )
    beat_shown = min(int(state.beat) + 1, params.beats)
    ends = ", ".join(map(str, params.segment_ends()))
    points = state.seg_points[g].astype(int) + state.relic_pts[g].astype(int)
    table = tuple(
        (
            f"{r + 1}: {riders[r]}",
            str(int(state.pos[g, r])),
            str(int(state.spin[g, r])),
            str(int(state.seals_left[g, r])),
            str(int(state.seg_points[g, r])),
            str(int(state.relic_pts[g, r])),
            f"beat {int(state.finish_beat[g, r])}" if state.finish_beat[g, r] else "",
        )
        for r in range(R)
    )
    hands = tuple((riders[r], *(str(int(state.hand[g, r, v])) for v in range(N_VALUES))) for r in range(R))
    return (
        Track(
            f"The track: beat {beat_shown} of {params.beats}" + (" (over)" if over else ""),
            tuple(squares),
            tokens,
            PALETTE,
            per_row=max(10, -(-(params.length + 1) // 6)),
        ),
        Facts(
            "This beat",
            (
                (
                    "beat",
                    f"{beat_shown} of {params.beats} (segments end after beats {ends})",
                ),
                ("acting order", acting + ("" if over else "  ([…]: to act next)")),
            ),
        ),
        Bars(
            "Points so far (segment and relic points; final places come at the end)",
            tuple(riders),
            tuple(float(p) for p in points),
        ),
        Grid("Riders", ("rider", "square", "spin", "seals left", "segment pts", "relic pts", "finished"), table),
        Grid("Hands (cards of each value held)", ("rider", "1", "2", "3", "4", "5"), hands, optional="hands"),
    )


def say(params, before, actions, events, after, g, names):
    R = before.pos.shape[1]
    riders = rider_names(names, R)
    parts = []
    if actions is not None and events.get("acted") is not None and events["acted"][g]:
        r = int(events["rider"][g])
        card, spin, seal = (int(np.asarray(x)[g]) for x in (actions.card, actions.spin, actions.seal))
        text = f"{riders[r]} plays a {card}" + (f" with {spin} spin" if spin else "")
        text += f": square {int(before.pos[g, r])} → {int(after.pos[g, r])}"
        if seal:
            text += f", seals the square {seal} {'ahead' if params.seal_direction == 'ahead' else 'behind'}"
        relic = int(events["relic"][g])
        if relic >= 0:
            text += f", takes a relic ({RELIC_TYPES[relic] if relic < len(RELIC_TYPES) else 'unknown'})"
        if after.finish_beat[g, r] and not before.finish_beat[g, r]:
            text += ", reaches the finish"
        parts.append(text)
    elif actions is not None:
        parts.append("no rider acts")
    if after.beat > before.beat:
        parts.append(f"beat {int(before.beat) + 1} ends")
        gained = after.seg_points[g].astype(int) - before.seg_points[g].astype(int)
        if gained.any():
            parts.append(
                "the segment is scored: " + ", ".join(f"{riders[r]} +{int(p)}" for r, p in enumerate(gained) if p)
            )
    return "; ".join(parts) or "nothing changes"


def expect_unit(params, key, index):
    """``positions`` and ``spin`` are by beat, ``segment_points`` and ``segment_totals``
    by segment (its last beat); the rest are about the end."""
    if not index:
        return None
    if key in ("positions", "spin"):
        return index[0]
    if key in ("segment_points", "segment_totals"):
        ends = params.segment_ends()
        return ends[index[0]] - 1 if index[0] < len(ends) else None
    return None


VIEW = View(scene=scene, say=say, expect_unit=expect_unit, unit_word="beat")
