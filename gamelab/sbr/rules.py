"""STEEL BALL RUN: CONTINENTAL SPIN: every rule number, the board, the variants.

Section numbers refer to the rulebook (its sections as docs/rules-sbr.md lists them).
Every reading of an unclear sentence is a parameter here with the most
natural default; ``docs/rules-sbr.md`` lists them with what each changes.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from gamelab.core.errors import ParamError
from gamelab.core.params import Params, param, variant_maker

# Terrain codes (section 4.2).  A relic square is a flag on top of its terrain;
# the rulebook's relic squares are straights ("relic" = "straight+relic").
TERRAIN = ("straight", "curve", "rock", "river", "town", "finish")
STRAIGHT, CURVE, ROCK, RIVER, TOWN, FINISH = range(6)
RELIC_TYPES = ("eye", "heart", "spine", "skull")
EYE, HEART, SPINE, SKULL = range(4)
N_VALUES = 5  # drive card values 1..5 (section 5.1): the last axis of a hand or discard

# Section 4.1, squares 1-60 (index 0 here is square 1).
_MAP = (
    "S S C X W S X T S S "  # segment 1
    "S K X C S K W X S C "  # segment 2
    "C K X C W S K C X S "  # segment 3
    "S X C S T X C S W S "  # segment 4
    "X W C S K X C T S C "  # segment 5
    "S K X W S C X T C F"
)  # segment 6
_CODE = {"S": "straight", "C": "curve", "K": "rock", "W": "river", "T": "town", "X": "relic", "F": "finish"}
DEFAULT_BOARD = tuple(_CODE[c] for c in _MAP.split())
PLAYERS = (2, 5)  # the player counts of section 2 (``SbrParams.min_players`` .. ``max_players``)
VARIANTS = ("standard", "short", "no_relics", "forward_seals", "solo", "dual")


def parse_code(code: str) -> tuple[int, bool]:
    """'curve' -> (CURVE, False); 'relic' or 'straight+relic' -> (STRAIGHT, True)."""
    parts = code.split("+")
    relic = "relic" in parts
    rest = [p for p in parts if p != "relic"] or ["straight"]
    if len(rest) != 1 or rest[0] not in TERRAIN or parts.count("relic") > 1:
        raise ValueError(code)
    return TERRAIN.index(rest[0]), relic


@dataclasses.dataclass(frozen=True, kw_only=True)
class SbrParams(Params):
    """Rule parameters, rulebook defaults (section in each ``section=``)."""

    board: tuple = param(
        DEFAULT_BOARD,
        length=(5, 120),
        section="4.1",
        doc="terrain of each square from the first to the last: straight, curve, rock, river, town, "
        "relic (a straight with a relic), any terrain with a relic on it, finish (the last square only)",
    )
    relics_on_straights: bool = param(True, section="4.3", doc="relic squares must be straights")
    curve_penalty: int = param(2, low=0, high=10, section="4.2", doc="extra cost of a curve for a big card")
    big_card: int = param(4, low=1, high=6, section="4.2", doc="cards of this value or more pay the curve penalty")
    rock_penalty: int = param(1, low=0, high=10, section="4.2", doc="extra cost of a rock")
    seal_penalty: int = param(2, low=0, high=10, section="5.3", doc="movement an opponent's seal takes")
    seal_break_cost: int = param(2, low=0, high=9, section="5.3", doc="spin spent to break a seal")
    seals_per_player: int = param(4, low=0, high=20, section="5.3", doc="seals per rider per game")
    seal_range: int = param(3, low=1, high=6, section="5.3", doc="a seal goes 1 square away up to this many")
    seal_direction: str = param(
        "behind", choices=("behind", "ahead"), section="5.3 / 9.3", doc="where seals are placed (9.3: ahead)"
    )
    seal_owner_bonus: int = param(
        0, low=0, high=10, section="9.3", doc="movement an owner gains entering his own seal (9.3: 2)"
    )
    spin_cap: int = param(9, low=0, high=20, section="5.2", doc="most spin a rider holds")
    max_spin_per_beat: int = param(2, low=0, high=9, section="5.2", doc="most spin spent per beat")
    river_spin: int = param(1, low=0, high=5, section="4.2", doc="spin for a river, once per beat")
    town_spin: int = param(1, low=0, high=5, section="4.2", doc="spin for stopping on a town")
    card_counts: tuple = param(
        (4, 4, 4, 4, 4),
        low=0,
        high=10,
        length=(5, 5),
        section="5.1",
        doc="copies of each drive card, 1 to 5, in each deck",
    )
    hand_size: int = param(5, low=1, high=10, section="6.1", doc="cards in the opening hand")
    beats: int = param(18, low=1, high=40, section="6.2", doc="beats in a game")
    beats_per_segment: int = param(3, low=1, high=40, section="6.2", doc="beats per scored segment")
    segment_points: tuple = param(
        (5, 3, 2, 1, 0), low=0, high=100, length=(1, 10), section="6.2", doc="points by segment rank"
    )
    final_points: tuple = param(
        (10, 6, 3, 1, 0), low=0, high=100, length=(1, 10), section="6.3", doc="points by final position rank"
    )
    relic_counts: tuple = param(
        (3, 3, 3, 3),
        low=0,
        high=20,
        length=(4, 4),
        section="5.4",
        doc="relic cards: eye, heart, spine, skull",
        items=RELIC_TYPES,
    )
    relic_points: tuple = param(
        (2, 2, 3, 1),
        low=0,
        high=20,
        length=(4, 4),
        section="5.4",
        doc="points of eye, heart, spine, skull",
        items=RELIC_TYPES,
    )
    eye_spin: int = param(2, low=0, high=9, section="5.4", doc="spin an eye gives")
    heart_steps: int = param(3, low=0, high=10, section="5.4", doc="squares a heart moves forward")
    skull_cards: int = param(1, low=0, high=5, section="5.4", doc="cards a skull takes back")
    min_players: int = param(2, low=1, high=8, section="2", doc="fewest players")
    max_players: int = param(5, low=1, high=8, section="2", doc="most players")
    riders_per_player: int = param(1, low=1, high=2, section="9.5", doc="riders each player runs")
    # --- readings of unclear sentences (docs/rules-sbr.md) ---
    seal_empty: str = param(
        "no_seal",
        choices=("no_seal", "no_seal_no_rider"),
        section="5.3 / 6.2",
        doc="'empty square' for a seal: no seal there, or no seal and no rider",
    )
    seal_spent_on_stop: bool = param(True, section="5.3", doc="a seal entered with no movement left is still removed")
    break_on_stop: bool = param(
        False, section="5.3 / FAQ Q10", doc="a rider who chose to break also pays when the seal would cost nothing"
    )
    extra_cost_rule: str = param(
        "clamp",
        choices=("clamp", "stop_before"),
        section="4.2 / FAQ Q3",
        doc="rock/curve cost beyond what remains: take what remains (clamp) "
        "or the rider stops before the square (stop_before)",
    )
    start_player: str = param(
        "seat",
        choices=("seat", "random"),
        section="6.1",
        doc="who breaks beat-1 ties: seat 1, or a random start player (the flip)",
    )
    seat_order: str = param(
        "fixed",
        choices=("fixed", "from_start"),
        section="6.1 / 6.2 / 6.3",
        doc="'seat order' in every tie-break: seats 1, 2, ... (beat 1 counted from the "
        "start player), or always clockwise from the start player",
    )
    heart_passes_seals: bool = param(
        False, section="5.4", doc="the heart's 3 squares meet seals (terrain and relics never)"
    )
    skull_takes_current: bool = param(True, section="5.4", doc="the card played this beat is already in the discard")
    team_seals_ignored: bool = param(True, section="9.5", doc="dual riders ignore their team mate's seals")

    def check(self) -> None:
        try:
            parsed = [parse_code(c) for c in self.board]
        except ValueError as exc:
            raise ParamError(
                f"board: unknown terrain code {exc.args[0]!r}: expected one of "
                f"{', '.join(TERRAIN)}, relic, or <terrain>+relic"
            ) from None
        terr = [t for t, _ in parsed]
        if terr[-1] != FINISH or FINISH in terr[:-1]:
            raise ParamError(f"board: the finish must be the last square (square {len(terr)}) and only there")
        if parsed[-1][1]:
            raise ParamError("board: the finish cannot be a relic square")
        if self.relics_on_straights:
            bad = [i + 1 for i, (t, r) in enumerate(parsed) if r and t != STRAIGHT]
            if bad:
                raise ParamError(
                    f"board: relic squares {bad} are not straights (relics_on_straights = true, section 4.3)"
                )
        n_relic = sum(r for _, r in parsed)
        if sum(self.relic_counts) < n_relic:
            raise ParamError(
                f"relic_counts = {self.relic_counts} gives {sum(self.relic_counts)} relics for {n_relic} relic squares"
            )
        if self.min_players > self.max_players:
            raise ParamError(f"min_players = {self.min_players} is more than max_players = {self.max_players}")
        riders = self.max_players * self.riders_per_player
        for name in ("segment_points", "final_points"):
            if len(getattr(self, name)) < riders:
                raise ParamError(f"{name} has {len(getattr(self, name))} ranks for up to {riders} riders")
        if sum(self.card_counts) < self.hand_size:
            raise ParamError(f"card_counts = {self.card_counts} has fewer cards than hand_size = {self.hand_size}")

    # --- derived data (cheap; engines cache what they need) ---
    @property
    def length(self) -> int:
        """The finish square's number (60)."""
        return len(self.board)

    def terrain_array(self) -> np.ndarray:
        """Terrain code by square 0..N (square 0 is the start line, a straight)."""
        return np.array([STRAIGHT] + [parse_code(c)[0] for c in self.board], dtype=np.int8)

    def relic_squares(self) -> list[int]:
        return [i + 1 for i, c in enumerate(self.board) if parse_code(c)[1]]

    def segment_ends(self) -> list[int]:
        """Beats after which a segment is scored (every 3rd and the last)."""
        ends = list(range(self.beats_per_segment, self.beats + 1, self.beats_per_segment))
        return ends if ends and ends[-1] == self.beats else ends + [self.beats]


def check_players(params: SbrParams, n_players: int) -> None:
    """Validate the player count (section 2): a :class:`ParamError` naming
    the value and the allowed range."""
    if not params.min_players <= n_players <= params.max_players:
        raise ParamError(
            f"n_players = {n_players} is not allowed: this game takes "
            f"{params.min_players}-{params.max_players} players (section 2)"
        )


def n_riders(params: SbrParams, n_players: int) -> int:
    """Riders in a game of ``n_players`` (checked): one each, two under the
    dual variant (9.5)."""
    check_players(params, n_players)
    return n_players * params.riders_per_player


#: the variants of section 9: name -> changes from the defaults
VARIANT_CHANGES = {
    "standard": {},
    "short": dict(board=DEFAULT_BOARD[:39] + ("finish",), beats=12, final_points=(8, 5, 3, 1, 0)),
    "no_relics": dict(board=tuple("straight" if c == "relic" else c for c in DEFAULT_BOARD)),
    "forward_seals": dict(seal_direction="ahead", seal_owner_bonus=2, spin_cap=7),
    "solo": dict(min_players=1, max_players=1),
    "dual": dict(riders_per_player=2, min_players=2, max_players=2),
}
assert tuple(VARIANT_CHANGES) == VARIANTS
#: ``params_for_variant(name, **overrides)``: a variant's parameters, then single overrides on top
params_for_variant = variant_maker(SbrParams, VARIANT_CHANGES)
