"""The compiled SBR rules and greedy held to the plain reference (gamelab/sbr/reference.py).

Every variant and every reading of an unclear sentence (rules.py), each away
from its default: the engine (whose turn, walk and beat are the kernel's) is
played step by step beside the reference under random legal play, every
array of the state compared after every turn; and the compiled greedy's
values and choice equal the reference greedy's at every decision of random
and greedy play.  The search (lookahead, deep) is held to a plain search in
tests/test_sbr_search.py.
"""

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

from gamelab.core.compiled import COMPILED
from gamelab.sbr import agents, engine, reference
from gamelab.sbr.agent_params import AgentParams
from gamelab.sbr.rules import params_for_variant

sys.path.insert(0, str(Path(__file__).parent))
import sbr_diff  # noqa: E402

pytestmark = pytest.mark.skipif(not COMPILED, reason="numba is not installed")

READINGS = {
    "standard": {},
    "short": dict(variant="short"),
    "no_relics": dict(variant="no_relics"),
    "forward_seals": dict(variant="forward_seals"),
    "dual": dict(variant="dual"),
    "dual_mates_seals": dict(variant="dual", team_seals_ignored=False),
    "seal_empty_no_rider": dict(seal_empty="no_seal_no_rider"),
    "seal_not_spent_on_stop": dict(seal_spent_on_stop=False),
    "break_on_stop": dict(break_on_stop=True),
    "stop_before": dict(extra_cost_rule="stop_before", max_spin_per_beat=3),
    "random_start_from_start": dict(start_player="random", seat_order="from_start"),
    "heart_passes_seals": dict(heart_passes_seals=True),
    "skull_not_current": dict(skull_takes_current=False, skull_cards=2),
    "heavy_seals": dict(seal_penalty=4, seal_break_cost=1, seal_range=5, seals_per_player=8),
    "no_seals": dict(seals_per_player=0),
    "tight_hand": dict(hand_size=3, curve_penalty=3, big_card=3, max_spin_per_beat=3, spin_cap=5),
    "forward_expect": dict(variant="forward_seals", greedy_expect=2.5),
}


def params_of(reading: str, **knobs) -> AgentParams:
    changes = dict(READINGS[reading])
    variant = changes.pop("variant", "standard")
    knob_names = {f.name for f in dataclasses.fields(AgentParams)} - set(params_for_variant(variant).as_dict())
    knobs |= {k: changes.pop(k) for k in list(changes) if k in knob_names}
    rules = params_for_variant(variant, **changes)
    return AgentParams(**rules.as_dict(), **knobs)


def players_of(params) -> int:
    return 2 if params.riders_per_player == 2 else 4


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_the_rules_step_by_step(reading):
    """Random play under the reading: after every turn and beat end, every
    array of the engine's state equals the reference's game."""
    params = params_of(reading)
    sbr_diff.run(params, 60, players_of(params), 3)


def _greedy_step_by_step(params, n_games, seed, choose):
    """Play the engine beside the reference games; at every decision the
    compiled greedy's values and choice must be the reference greedy's."""
    n_players = players_of(params)
    rng = np.random.default_rng(seed)
    chance = engine.draw_chance(params, n_games, n_players, rng)
    st = engine.init(params, n_games, n_players, chance)
    refs = [reference.start(params, n_players, chance, g) for g in range(n_games)]
    decisions = 0
    orders = None
    while not engine.done(params, st).all():
        if st.slot == 0:
            orders = [ref.order() for ref in refs]
        lg = engine.legal(params, st)
        rider = engine.to_move(st)
        values = agents.greedy_values(params, st, rider)
        got = agents.greedy_policy(params, st, rider, lg)
        for g in np.flatnonzero(lg.acting):
            r = int(rider[g])
            want_values = reference.greedy_values(refs[g], r, orders[g])
            want = np.array([-np.inf if v is None else v for v in want_values], np.float32)
            np.testing.assert_array_equal(values[g], want, err_msg=f"values game {g} beat {st.beat}")
            choice = (int(got.card[g]), int(got.spin[g]), int(got.seal[g]), bool(got.brk[g]))
            assert choice == reference.greedy_choice(refs[g], r, orders[g]), (g, st.beat, st.slot)
            decisions += 1
        acts = choose(params, st, rider, lg, rng)
        before = st
        st, _ = engine.step(params, st, acts, chance)
        for g, ref in enumerate(refs):
            reference.advance(params, ref, before, acts, chance, g)
    return decisions


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_greedy_is_the_reference_greedy_in_random_play(reading):
    params = params_of(reading)
    assert _greedy_step_by_step(params, 12, 5, lambda p, st, r, lg, rng: engine.random_actions(p, st, lg, rng)) > 100


@pytest.mark.parametrize("reading", sorted(READINGS))
def test_greedy_is_the_reference_greedy_in_greedy_play(reading):
    params = params_of(reading)
    assert _greedy_step_by_step(params, 6, 7, lambda p, st, r, lg, rng: agents.greedy_policy(p, st, r, lg)) > 50
