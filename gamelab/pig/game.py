"""Pig's entry in the registry: everything the shared layer knows of it."""

from __future__ import annotations

from gamelab.core import contract
from gamelab.pig import diagnostics as game_metrics

from . import engine, identities, panels, record, reference, sim, view
from .agents import POLICIES, AgentParams
from .rules import PLAYERS, VARIANT_CHANGES, PigParams, max_steps, params_for_variant

#: games per second the default lineup must reach in ``gamelab bench`` (measured
#: about 13,000 at 4 players on the development machine; this leaves room for
#: a slower, shared one)
AGENT_TARGET = 4000.0
#: batch engine over the plain reference under random play: a Pig turn is a
#: few additions, so the one-game reference is already cheap (about 5.5x
#: measured; the card games' 30x target does not fit a dice race)
RATIO_TARGET = 4.0


#: weakest to strongest: race beats hold at 20 head to head (about 56 % at 2 players)
SKILL_LADDER = ("random", "hold_at_20", "race")


def _max_steps() -> int:
    """A true bound on the decisions of any game of a shipped variant (rule 10)."""
    return max(max_steps(params_for_variant(v), PLAYERS[1]) for v in VARIANT_CHANGES)


GAME = contract.Game(
    name="pig",
    title="Pig",
    players=PLAYERS,
    rules=PigParams,
    knobs=AgentParams,
    engine=engine,
    reference=reference,
    agents=tuple(POLICIES),
    controller=sim.controller,
    play=sim.play,
    streams=sim.STREAMS,
    record=contract.RecordFormat(replay=record.replay, tables=record.tables),
    variants=VARIANT_CHANGES,
    default_agent="hold_at_20",
    bench=contract.Bench(agent_target=AGENT_TARGET, ratio_target=RATIO_TARGET),
    panels=contract.Panels(measures=panels.MEASURES, figures=panels.figures),
    identities=contract.Identities(rows=identities.rows, simulated=identities.simulated),
    report=contract.ReportSettings(players=(2, 3, 4), assumptions=sim.ASSUMPTIONS),
    # a ladder, no trace: Pig has no search agent with a budget to double, so its report checks each
    # verdict under a second model (race on every seat, the strongest rung) rather than over skill
    skill=contract.SkillSettings(ladder=SKILL_LADDER, players=2),
    metrics=game_metrics.METRICS,
    max_steps=_max_steps(),
    view=view.VIEW,
)
