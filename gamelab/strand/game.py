"""STRAND: The Last Run for the shared layer: ``GAME`` (``contract.Game``)."""

from __future__ import annotations

from pathlib import Path

from .. import contract
from ..params import specs
from . import claims, engine, exact, identities, panels, record, reference, sim
from . import metrics as game_metrics
from .agents import AgentParams
from .controller import controller
from .rules import PLAYERS, VARIANTS, StrandParams, params_for_variant
from .state import PHASES

_DATA = Path(__file__).resolve().parents[2] / "data" / "playtests"
EXAMPLES = tuple(sorted(_DATA.glob("strand_*.json")))

MAX_ROUNDS = next(s.high for s in specs(StrandParams) if s.name == "rounds")
STEP_SLACK = 3  # a few steps more than a game can take, for the conformance suite

GAME = contract.Game(
    name="strand",
    title=sim.TITLE,
    players=PLAYERS,
    rules=StrandParams,
    knobs=AgentParams,
    variants=VARIANTS,
    params_for_variant=params_for_variant,
    engine=engine,
    reference=reference,
    agents=sim.AGENTS,
    default_lineup=sim.default_lineup,
    controller=controller,
    play=sim.play,
    bench=contract.Bench(
        agent_lineup=sim.default_lineup,
        random_lineup=sim.random_lineup,
        random_batch=sim.random_batch,
        agent_target=50_000,
    ),
    panels=contract.Panels(table=panels.panel_table, extras=panels.panel_extras),
    record=contract.RecordFormat(replay=record.replay, tables=record.tables, examples=EXAMPLES),
    identities=contract.Identities(rows=identities.rows, simulated=identities.simulated),
    claims=contract.Claims(measure=claims.measure, exact_claims=exact.exact_claims, conclusions=claims.conclusions),
    derived=sim.DERIVED,
    metrics=game_metrics.METRICS,
    skill_ladder=sim.SKILL_LADDER,
    skill_players=4,
    report_players=sim.REPORT_PLAYERS,
    report_groups=sim.REPORT_GROUPS,
    group_values={"style": tuple(map(str, sim.STYLE_NAMES)), "role": tuple(map(str, sim.ROLE_NAMES))},
    assumptions=sim.ASSUMPTIONS,
    chunk_deals=sim.CHUNK_DEALS,
    errata_heading="STRAND",
    max_steps=int(MAX_ROUNDS) * len(PHASES) + STEP_SLACK,
)
