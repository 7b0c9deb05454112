"""The rulebook sentences to update are right for every declared parameter
(issue 37, item 5): each parameter of both games changed alone, to another
value in its range, lists only figures whose printed number depends on it
(:data:`DEPENDS`, read from the rules: which figures a rule can move), with the
old number the rulebook's rules give and the new one the new rules give; the
figure named after the rule shows its new value (:data:`DIRECT`, worked out
here from the change); a change that moves no printed number says so, and why.

Only the rules-decided figures are asked (no simulation): about a second per
parameter."""

from __future__ import annotations

import math
import re

import pytest

from gamelab.core import registry
from gamelab.core.errors import ParamError
from gamelab.core.params import specs
from gamelab.rulebook import coverage, sentences


@pytest.fixture(autouse=True)
def _rulebooks_beside_the_checkout():
    """The sentences to update are read from the rulebooks' text (``../shared/seeds``): without it there are none."""
    for game in ("sbr", "strand"):
        if not coverage.seed_path(game).exists():
            pytest.skip(f"rulebook text {coverage.seed_path(game)} is not beside the checkout")


NOTHING = r"(?!)"  # a pattern no figure matches: the rule moves no printed number
EXAMPLE = r"ex_"  # the worked example (section 7 / the STRAND record), replayed under the new rules

#: the changes asked (the value each parameter takes alone); None: no other value is valid alone
CHANGES = {
    "sbr": {
        "board": "square 2 a rock",
        "max_players": 4,
        "riders_per_player": None,  # two riders a player need max_players <= 2 (ranks for 10 riders)
    },
    "strand": {
        "rounds": None,  # one node per round: node_values would have to change with it
        "rain_cards": "reversed",
    },
}

#: param -> the figures it may move (a regular expression matched from the start of the quantity)
DEPENDS = {
    "sbr": {
        "board": rf"{EXAMPLE}|rock_|rocks_in_segment_|segments_with_rocks$|straight_squares$",
        "relics_on_straights": NOTHING,  # the board's relics are on straights already
        "curve_penalty": rf"{EXAMPLE}|curve_extra_cost$|five_through_|two_through_",
        "big_card": rf"{EXAMPLE}|smallest_card_paying_at_curve$|five_through_|two_through_",
        "rock_penalty": rf"{EXAMPLE}|rock_extra_cost$",
        "seal_penalty": r"(forward_)?seal_penalty$|break_equals_penalty$",
        "seal_break_cost": r"seal_break_cost$|break_equals_penalty$",
        "seals_per_player": r"seals_per_player$|seals_\dp$|dual_seals_per_rider$",
        "seal_range": r"(forward_)?seal_range$",
        "seal_direction": NOTHING,  # 9.3's figures are asked under the variant's own changes
        "seal_owner_bonus": r"own_seal_no_effect$",
        "spin_cap": r"spin_cap$|eye_over_cap$",
        "max_spin_per_beat": rf"{EXAMPLE}|max_spin_per_beat$|reach_max$",
        "river_spin": rf"{EXAMPLE}|spin_from_rivers$|spin_from_two_rivers$|spin_income_|spin_margin$|eye_share_",
        "town_spin": rf"{EXAMPLE}|spin_from_towns$|spin_income_|spin_margin$|eye_share_",
        "card_counts": r"card_copies_|deck_|drive_cards_|mean_card$|reach_min$|beats_from_hand$|cards_left_in_hand$"
        r"|mileage_deficit$|movement_total$|short_deficit$|short_movement$|spin_margin$",
        "hand_size": r"hand_size$|beats_from_hand$|deck_after_deal$|deck_runs_out$|deck_empty_from_beat$"
        r"|cards_left_in_hand$",
        "beats": r"beats$|beats_from_hand$|cards_left_in_hand$|mileage_deficit$|movement_total$|pool_|segments$"
        r"|segments_over_relics_|spin_margin$|segment_end_beat_|score_cells$",
        # the board's checkpoints are the scored segments' ends (4.1: a segment = 10 squares = 3 beats)
        "beats_per_segment": rf"{EXAMPLE}|beats_per_segment$|checkpoint|(curve|river|rock|relic|town)s_in_segment_"
        r"|pool_|score_cells$|seals_cleared_after_beat$|segment_|segments$|segments_over_relics_|short_segments$"
        r"|towns_in_back_half$|squares_per_relic$",
        "segment_points": rf"{EXAMPLE}|segment_points_rank_|segment_first$|pool_|relic_total_in_first_places$"
        r"|segments_over_relics_",
        "final_points": rf"{EXAMPLE}|final_points_rank_|final_first|pool_",
        "relic_counts": r"eye_count$|relic_cards|relic_total|pool_|segments_over_relics_|spin_income_max$",
        "relic_points": rf"{EXAMPLE}|eye_points$|relic_|pool_|segments_over_relics_|final_first_beats_best_relic$",
        "eye_spin": rf"{EXAMPLE}|eye_spin$|eye_share_|spin_income_max$|eye_over_cap$",
        "heart_steps": rf"{EXAMPLE}|heart_",
        "skull_cards": r"skull_cards_back$",
        "min_players": r"min_players$|.*_2p(_|$)",  # two players no longer seated
        "max_players": r"max_players$|.*_5p(_|$)|.*_rank_5$|score_cells$",  # five players no longer seated
        "seal_empty": NOTHING,
        "seal_spent_on_stop": NOTHING,
        "break_on_stop": NOTHING,
        "extra_cost_rule": rf"{EXAMPLE}|five_through_|two_through_|last_square_free$",
        "start_player": NOTHING,
        "seat_order": NOTHING,
        "heart_passes_seals": NOTHING,
        "skull_takes_current": NOTHING,
        "team_seals_ignored": NOTHING,
    },
    "strand": {
        "sum_cap": rf"{EXAMPLE}|sum_cap$|overweight_|pair_full_|partners_|fit_|pairable_rate|engineer_cap$",
        "node_values": rf"{EXAMPLE}|node_|short_node_total$|stall_cost_|highest_node_|trust_gap_5_largest_node$"
        r"|three_player_node_",
        "lone_penalty": rf"{EXAMPLE}|lone_|p_star_|trust_gap_5",
        "hand_size": r"hand_size$|hand_after_stay$",
        "max_hand": r"max_hand$",
        "cargo_counts": r"cards_|cargo_|fit_|overweight_rate$|pairable_rate|print_cargo_",
        "half_rounding": rf"{EXAMPLE}|lone_|overweight_score_|best_without_light_partner_|p_star_|trust_gap_5",
        # a split node is rounded per player: the tower's doubled node splits into more than twice as much
        "node_award": rf"{EXAMPLE}|rain_tower_factor$",
        "stay_bonus": NOTHING,
        "stay_returns_cargo": NOTHING,
        "bb_lock": r"bb_lock_holds$",
        "fragile_sum": NOTHING,
        "musician_on_overweight": NOTHING,
        "veteran_uses": r"uses_veteran$",
        "bb_uses": r"uses_bb$",
        "fragile_uses": r"uses_fragile$",
        "porter_uses": r"uses_porter$",
        "porter_bonus": rf"{EXAMPLE}|porter_",
        "musician_uses": r"uses_musician$",
        "musician_bonus": r"musician_bonus$",
        "engineer_uses": r"uses_engineer$",
        "engineer_bonus": r"engineer_cap$",
        "silent": NOTHING,
        "teams": r"tie_|fair_share_3p",  # variant E seats 4 or 6: a 3-player game's ties are not defined
        "time_rain": EXAMPLE,  # the example's rounds draw time-rain cards now
        "rain_cards": NOTHING,
        "clear_redraw": NOTHING,
        "acid_minus": r"rain_acid_",
        "static_cap": r"rain_static_cap$",
        "tools_cap": r"rain_tools_cap$",
        "bt_markers": r"rain_tide_markers$",
        "crate_bonus": r"rain_crate_bonus$",
        "crate_to": r"rain_crate_bonus$",  # the crate's bonus split in two
        "tower_factor": r"rain_tower_factor$",
    },
}

#: param -> {figure: its new value}, worked out here from the change (None: no longer defined)
DIRECT = {
    "sbr": {
        "board": {"rock_squares": 7, "rock_square_1": 2, "straight_squares": 29},
        "curve_penalty": {"curve_extra_cost": 3},
        "big_card": {"smallest_card_paying_at_curve": 5},
        "rock_penalty": {"rock_extra_cost": 2},
        "seal_penalty": {"seal_penalty": 3, "forward_seal_penalty": 3, "break_equals_penalty": 0},
        "seal_break_cost": {"seal_break_cost": 3, "break_equals_penalty": 0},
        "seals_per_player": {"seals_per_player": 5, **{f"seals_{p}p": 5 * p for p in range(2, 6)}},
        "seal_range": {"seal_range": 4, "forward_seal_range": 4},
        "seal_owner_bonus": {"own_seal_no_effect": 0},
        "spin_cap": {"spin_cap": 10, "eye_over_cap": 10},
        "max_spin_per_beat": {"max_spin_per_beat": 3},
        "river_spin": {"spin_from_two_rivers": 2},
        "card_counts": {"card_copies_1": 5, "deck_size": 21},
        "hand_size": {"hand_size": 6},
        "beats": {"beats": 19},
        "beats_per_segment": {"beats_per_segment": 4},
        "segment_points": {"segment_points_rank_1": 6},
        "final_points": {"final_first": 11},
        "relic_counts": {"eye_count": 4, "relic_cards": 13},
        "relic_points": {"eye_points": 3},
        "eye_spin": {"eye_spin": 3},
        "heart_steps": {"heart_steps": 4},
        "skull_cards": {"skull_cards_back": 2},
        "min_players": {"min_players": 3, "riders_2p": None},
        "max_players": {"max_players": 4, "riders_5p": None},
    },
    "strand": {
        "sum_cap": {"sum_cap": 8, "overweight_from": 9},
        "node_values": {"node_value_1": 4, "node_total": 43},
        "lone_penalty": {"lone_penalty": 3, "p_star_1_pct": 100 * (1.2 + 2) / (7 + 2)},  # (S - lone) / (v + N - lone)
        "hand_size": {"hand_size": 4},
        "max_hand": {"max_hand": 6},
        "cargo_counts": {"cargo_count_1": 13},
        "bb_lock": {"bb_lock_holds": 0},
        "veteran_uses": {"uses_veteran": 3},
        "bb_uses": {"uses_bb": 2},
        "fragile_uses": {"uses_fragile": 2},
        "porter_uses": {"uses_porter": 4},
        "musician_uses": {"uses_musician": 5},
        "musician_bonus": {"musician_bonus": 2},
        "engineer_uses": {"uses_engineer": 3},
        "engineer_bonus": {"engineer_cap": 9},
        "teams": {"tie_shared": None},
        "acid_minus": {"rain_acid_minus": 2},
        "static_cap": {"rain_static_cap": 7},
        "tools_cap": {"rain_tools_cap": 9},
        "bt_markers": {"rain_tide_markers": 3},
        "crate_bonus": {"rain_crate_bonus": 3},
        "tower_factor": {"rain_tower_factor": 3},
    },
}


def _another(spec):
    """Another value in the parameter's range: the next one up (else down), the
    other choice, the first item of a list one up, a list of names reversed."""
    d = spec.default
    if spec.kind is bool:
        return not d
    if spec.choices:
        return next(c for c in spec.choices if c != d)
    if spec.kind is tuple:
        if isinstance(d[0], str):
            return tuple(reversed(d))
        first = d[0] + 1 if spec.high is None or d[0] + 1 <= spec.high else d[0] - 1
        return (first, *d[1:])
    if spec.kind is float:
        step = 0.1 * (spec.high - spec.low)
        return d + step if d + step <= spec.high else d - step
    return d + 1 if spec.high is None or d + 1 <= spec.high else d - 1


def _change(game, spec):
    asked = CHANGES[game.name].get(spec.name, "next")
    if asked is None:
        return None
    if asked == "square 2 a rock":
        return game.rules().board[:1] + ("rock",) + game.rules().board[2:]
    if asked == "reversed":
        return tuple(reversed(spec.default))
    return _another(spec) if asked == "next" else asked


CASES = [(g, s.name) for g in ("sbr", "strand") for s in specs(registry.get(g).rules)]


def test_every_declared_parameter_is_asked():
    for g in ("sbr", "strand"):
        names = {s.name for s in specs(registry.get(g).rules)}
        assert names == set(DEPENDS[g]) | {n for n, v in CHANGES[g].items() if v is None}, g
        assert set(DIRECT[g]) <= set(DEPENDS[g])


def _same(a, b) -> bool:
    if a is None or (isinstance(a, float) and math.isnan(a)):
        return b is None or (isinstance(b, float) and math.isnan(b))
    return b is not None and not (isinstance(b, float) and math.isnan(b)) and float(a) == pytest.approx(float(b))


@pytest.mark.parametrize("game_name, name", CASES)
def test_one_parameter_changed_alone_lists_only_the_figures_that_depend_on_it(game_name, name):
    game = registry.get(game_name)
    spec = next(s for s in specs(game.rules) if s.name == name)
    value = _change(game, spec)
    if value is None:  # no other value is valid with the rest as the rulebook's: a one-line refusal
        with pytest.raises(ParamError):
            game.rules().replace(**{name: _another(spec)})
        return
    params = game.rules().replace(**{name: value})
    table, counts = sentences.changed_sentences(game, params)
    listed = set(table["quantity"])
    pattern = re.compile(DEPENDS[game_name][name])
    assert sorted(q for q in listed if not pattern.match(q)) == [], f"{name} = {value!r} lists figures it cannot move"
    # each entry: the old number the rulebook's rules give, the new one the new rules give
    old, new = sentences.exact_values(game), sentences.exact_values(game, params)
    for r in table.itertuples():
        assert _same(old[r.quantity], r.rulebook), r.quantity
        assert _same(new.get(r.quantity), r.new), r.quantity
        assert not _same(r.rulebook, r.new) or r.printed != sentences._fmt(r.rulebook), r.quantity
    by_quantity = dict(zip(table["quantity"], table["new"]))
    for q, expected in DIRECT[game_name].get(name, {}).items():
        assert q in by_quantity, f"{name} = {value!r}: {q} is not listed"
        assert _same(expected, by_quantity[q]), (q, by_quantity[q], expected)
    # a change that moves no printed number says so, and why: the rule, its section and its words
    why = counts.get("why_none", "")
    assert bool(why) == table.empty
    if table.empty:
        text = sentences.render(game, table, counts, params.changed())
        assert "no printed number changes" in text and f"section {spec.section}: {spec.doc}" in text


def test_the_spin_cap_alone_moves_the_cap_and_never_the_seal_break_cost():
    """The issue's case: spin cap 2 listed "printed 2, now 0" for the break cost
    (the rider's spin on the break's road was capped, not spent)."""
    game = registry.get("sbr")
    for cap in (0, 1, 2, 10, 20):
        table, _ = sentences.changed_sentences(game, game.rules().replace(spin_cap=cap))
        got = dict(zip(table["quantity"], table["new"]))
        assert got["spin_cap"] == cap and got["eye_over_cap"] == cap, cap
        assert not {"seal_break_cost", "break_equals_penalty", "break_keeps_movement"} & set(got), cap


def test_a_report_says_why_no_sentence_changes():
    from gamelab.report.compute import rulebook_sentences
    from gamelab.report.sentences import sentences_section

    game = registry.get("sbr")
    sec = sentences_section(rulebook_sentences(game, game.knobs(seat_order="from_start")), "sbr")
    texts = [b.body for b in sec.blocks if b.kind == "text"]
    assert any(t.startswith("No printed number changes") and "seat order (section 6.1" in t for t in texts)
