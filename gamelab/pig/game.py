"""Pig's entry in the registry: everything the shared layer knows of it."""

from __future__ import annotations

from gamelab.core import charts, contract

from . import agents, diagnostics, engine, identities, record, reference, view
from .rules import PLAYERS, VARIANT_CHANGES, PigParams, max_steps, params_for_variant

GAME = contract.Game(
    name="pig",
    title="Pig",
    players=PLAYERS,
    rules=PigParams,
    knobs=agents.AgentParams,
    engine=engine,
    reference=reference,
    agents=tuple(agents.POLICIES),  # the first, hold_at_20, is the default lineup's on every seat
    controller=agents.controller,
    record=contract.RecordFormat(replay=record.replay, tables=record.tables),
    # a true bound on the decisions of any game of a shipped variant (rule 10)
    max_steps=max(max_steps(params_for_variant(v), PLAYERS[1]) for v in VARIANT_CHANGES),
    variants=VARIANT_CHANGES,
    counts=diagnostics.COUNTS,  # the shared play (Game.play None) counts these
    report=contract.ReportSettings(players=(2, 3, 4), assumptions=agents.ASSUMPTIONS, metrics=diagnostics.METRICS),
    panels=contract.Panels(figures=charts.length_and_wins, view=view.VIEW),
    rulebook=contract.Rulebook(identities=contract.Identities(rows=identities.rows, simulated=identities.simulated)),
    # weakest to strongest (race beats hold at 20 head to head, about 56 % at 2 players); no trace: Pig has no
    # search agent with a budget to double, so its report checks each verdict under a second model
    skill=contract.SkillSettings(ladder=("random", "hold_at_20", "race"), players=2),
    # games per second the default lineup must reach (about 13,000 measured at 4 players on the development
    # machine: room for a slower, shared one), and the batch engine over the plain reference under random
    # play (a Pig turn is a few additions, so the reference is already cheap: about 5.5x measured)
    bench=contract.Bench(agent_target=4000.0, ratio_target=4.0),
)
