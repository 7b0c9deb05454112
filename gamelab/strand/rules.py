"""STRAND: The Last Run -- rule parameters, card data, variants.

Every number the rulebook fixes is a declared parameter (``StrandParams``);
every place the rulebook can be read two ways is a parameter too, defaulting
to the most natural reading (``docs/rules-strand.md`` lists them).  Section
numbers refer to the rulebook (its sections as docs/rules-strand.md lists them).
"""

from __future__ import annotations

import dataclasses

from gamelab.core.params import ParamError, Params, param, variant_maker
from gamelab.core.symmetry import every_permutation

__all__ = [
    "StrandParams",
    "ROLES",
    "RAIN_CARDS",
    "VARIANTS",
    "PLAYERS",
    "params_for_variant",
    "check_players",
    "role_code",
    "team_of_seat",
    "half",
    "seat_symmetries",
]

#: role names as a record writes them; the engine codes them 1..6 (0 = no role)
ROLES = ("veteran", "bb", "fragile", "porter", "musician", "engineer")
NO_ROLE, VETERAN, BB, FRAGILE, PORTER, MUSICIAN, ENGINEER = range(7)

#: Variant F's eight time-rain cards (engine codes 0..7, -1 = no card)
RAIN_CARDS = ("acid", "fog", "static", "bt_tide", "crate", "tools", "tower", "clear")
ACID, FOG, STATIC, BT_TIDE, CRATE, TOOLS, TOWER, CLEAR = range(8)

#: players a game may seat (section 1: 3-6; the box has six rope sets)
PLAYERS = (3, 6)
TEAM_PLAYERS = (4, 6)  # variant E: opposite seats pair up

VARIANTS = ("standard", "short", "silent", "three_player", "six_player", "teams", "time_rain")

_HALF = ("up", "down")


@dataclasses.dataclass(frozen=True, kw_only=True)
class StrandParams(Params):
    """The rules of STRAND as numbers and readings (rulebook sections in ``section``)."""

    # --- the base game --------------------------------------------------
    sum_cap: int = param(7, low=2, high=10, section="5.1", doc="a team whose cargo sum is at most this crosses in full")
    node_values: tuple = param(
        (3, 4, 4, 5, 5, 6, 7, 8),
        low=0,
        high=30,
        length=(1, 20),
        section="5.4",
        doc="node points of each segment, from the first to the last",
    )
    rounds: int = param(8, low=1, high=20, section="6.4", doc="rounds in a game")
    lone_penalty: int = param(2, low=0, high=10, section="6.4", doc="final points lost per lone marker")
    hand_size: int = param(3, low=1, high=10, section="6.1", doc="cards dealt and the normal hand limit")
    max_hand: int = param(5, low=1, high=10, section="5.2", doc="highest hand limit stays can reach")
    cargo_counts: tuple = param(
        (12, 12, 12, 12, 12),
        low=0,
        high=40,
        length=(5, 5),
        section="2",
        doc="cards of each cargo value, 1 to 5, in the deck",
    )
    half_rounding: str = param("up", choices=_HALF, section="6.3", doc="rounding of half scores (lone, overweight)")
    # --- readings of ambiguous sentences ---------------------------------
    node_award: str = param(
        "each",
        choices=("each", "split"),
        section="5.4",
        doc="each: both team members score the node's value; "
        "split: they share it, the heavier card takes the larger half",
    )
    stay_bonus: str = param(
        "accumulate",
        choices=("accumulate", "one_round"),
        section="5.2",
        doc="a stay raises the hand limit by 1 for good (to max_hand) or only until the next round without a stay",
    )
    stay_returns_cargo: bool = param(
        False, section="5.2", doc="a stayer takes the revealed card back instead of discarding it"
    )
    bb_lock: str = param(
        "override",
        choices=("override", "yield"),
        section="5.5",
        doc="override: the locked player joins the bb whatever his rope; "
        "yield: a mutual pair of the locked player stands and the bb is lone",
    )
    fragile_sum: str = param(
        "full",
        choices=("full", "half"),
        section="5.5",
        doc="a fragile switch counts the card's full or halved value in the team sum",
    )
    musician_on_overweight: bool = param(
        True, section="5.5", doc="the musician's +1 also applies in an overweight team"
    )
    # --- roles (section 5.5) ---------------------------------------------
    veteran_uses: int = param(2, low=0, high=8, section="5.5", doc="lone but full cargo (still a marker)")
    bb_uses: int = param(1, low=0, high=8, section="5.5", doc="lock a partner before ropes are shown")
    fragile_uses: int = param(1, low=0, high=8, section="5.5", doc="switch to someone who pointed at you")
    porter_uses: int = param(3, low=0, high=8, section="5.5", doc="+porter_bonus to the revealed cargo")
    porter_bonus: int = param(1, low=0, high=4, section="5.5", doc="porter's cargo bonus (cargo stays at 5 at most)")
    musician_uses: int = param(4, low=0, high=8, section="5.5", doc="+musician_bonus in a formed team")
    musician_bonus: int = param(1, low=0, high=5, section="5.5", doc="musician's points")
    engineer_uses: int = param(2, low=0, high=8, section="5.5", doc="+engineer_bonus to your team's cap")
    engineer_bonus: int = param(1, low=0, high=5, section="5.5", doc="engineer's cap raise (7 -> 8)")
    # --- variants ----------------------------------------------------------
    silent: bool = param(False, section="variant B", doc="no negotiation (a flag agents read)")
    teams: bool = param(False, section="variant E", doc="opposite seats score as teams (4 or 6 players)")
    time_rain: bool = param(False, section="variant F", doc="a time-rain card modifies each round")
    rain_cards: tuple = param(
        RAIN_CARDS, length=(1, 16), section="variant F", doc="the time-rain deck (names from RAIN_CARDS)"
    )
    clear_redraw: bool = param(
        False, section="variant F", doc="'clear' is set aside and the next card shown instead of no effect"
    )
    acid_minus: int = param(1, low=0, high=4, section="variant F", doc="acid rain: cargo minus (min 1)")
    static_cap: int = param(6, low=2, high=10, section="variant F", doc="static: the round's sum cap")
    tools_cap: int = param(8, low=2, high=10, section="variant F", doc="tools: the round's sum cap")
    bt_markers: int = param(2, low=0, high=5, section="variant F", doc="BT tide: markers per lone player")
    crate_bonus: int = param(2, low=0, high=10, section="variant F", doc="crate: extra points per formed team")
    crate_to: str = param(
        "each",
        choices=("each", "split"),
        section="variant F",
        doc="each member scores crate_bonus, or the two split it (half each, floored)",
    )
    tower_factor: int = param(2, low=1, high=5, section="variant F", doc="tower: node value multiplier")

    def check(self) -> None:
        if len(self.node_values) != self.rounds:
            raise ParamError(
                f"node_values has {len(self.node_values)} items but rounds = {self.rounds}: "
                f"expected exactly one node per round ({self.rounds} values)"
            )
        if self.hand_size > self.max_hand:
            raise ParamError(
                f"hand_size = {self.hand_size} is above max_hand = {self.max_hand}: "
                f"expected hand_size in 1..{self.max_hand}"
            )
        if sum(self.cargo_counts) < PLAYERS[1] * (self.max_hand + 1):
            raise ParamError(
                f"cargo_counts = {self.cargo_counts} has {sum(self.cargo_counts)} cards: "
                f"expected at least {PLAYERS[1] * (self.max_hand + 1)} "
                f"(six full hands of max_hand plus their revealed cards)"
            )
        bad = [c for c in self.rain_cards if c not in RAIN_CARDS]
        if bad:
            raise ParamError(f"rain_cards has unknown card(s) {bad}: expected names from {RAIN_CARDS}")

    @property
    def rain_codes(self) -> tuple:
        return tuple(RAIN_CARDS.index(c) for c in self.rain_cards)

    def role_uses(self) -> tuple:
        """Uses per game indexed by role code (0 = no role)."""
        return (
            0,
            self.veteran_uses,
            self.bb_uses,
            self.fragile_uses,
            self.porter_uses,
            self.musician_uses,
            self.engineer_uses,
        )


def half(v, rounding: str):
    """Half a cargo value, rounded per ``half_rounding`` (section 6.3: up)."""
    return (v + 1) // 2 if rounding == "up" else v // 2


def role_code(name) -> int:
    if name is None:
        return NO_ROLE
    if name not in ROLES:
        raise ParamError(f"role {name!r} is unknown: expected one of {', '.join(ROLES)} or none")
    return ROLES.index(name) + 1


def check_players(params: StrandParams, n_players: int) -> None:
    """Section 1: 3-6 players; variant E needs 4 or 6 (opposite seats pair up)."""
    if isinstance(n_players, bool) or not isinstance(n_players, int) or not PLAYERS[0] <= n_players <= PLAYERS[1]:
        raise ParamError(
            f"n_players = {n_players!r} is out of range: expected int in "
            f"{PLAYERS[0]}..{PLAYERS[1]} (the rulebook seats 3-6 players)"
        )
    if params.teams and n_players not in TEAM_PLAYERS:
        raise ParamError(f"n_players = {n_players} cannot play variant E (teams): expected 4 or 6")


def team_of_seat(seat: int, n_players: int) -> int:
    """Variant E: opposite seats form a team (6 players: 1&4, 2&5, 3&6; 4 players: 1&3, 2&4)."""
    return seat % (n_players // 2)


def seat_symmetries(params: StrandParams, n_players: int) -> tuple[tuple[int, ...], ...]:
    """Generators of the seat permutations that leave the rules unchanged.  Every seat
    acts at once (6.2 steps 2 and 4), a rope pairs only players who point at each other
    (5-1), the roles are dealt in a random order per deal, and the first player only
    sets the negotiation's speaking order (6.1 step 7): every permutation.  Variant E
    scores opposite seats as teams: the permutations that keep the teams (one step
    round the table, and the swap of two teammates)."""
    if not params.teams:
        return every_permutation(n_players)
    step = tuple((s + 1) % n_players for s in range(n_players))
    mate = n_players // 2  # seat 0's teammate (team_of_seat)
    swap = tuple(mate if s == 0 else 0 if s == mate else s for s in range(n_players))
    return (step, swap)


def _short(base):
    return {"rounds": 5, "node_values": base.node_values[:5]}


def _three(base):
    nodes = list(base.node_values)
    for seg in (3, 4):  # segments 4 and 5 (0-based 3, 4) lose one point each
        if seg < len(nodes):
            nodes[seg] = max(0, nodes[seg] - 1)
    return {"node_values": tuple(nodes)}


def _no_change(base):
    return {}


def _silent(base):
    return {"silent": True}


def _teams(base):
    return {"teams": True}


def _time_rain(base):
    return {"time_rain": True}


VARIANT_CHANGES = {
    "standard": _no_change,
    "short": _short,  # variant A
    "silent": _silent,  # variant B
    "three_player": _three,  # variant C (its fragile advice is cut off)
    "six_player": _no_change,  # variant D (its advice is cut off entirely)
    "teams": _teams,  # variant E
    "time_rain": _time_rain,  # variant F
}

#: player counts a variant is written for
VARIANT_PLAYERS = {"three_player": (3,), "six_player": (6,), "teams": TEAM_PLAYERS}


#: ``params_for_variant(name, **overrides)``: the rulebook's variant as parameters, then single overrides on top
params_for_variant = variant_maker(StrandParams, VARIANT_CHANGES)
