"""STRAND: The Last Run for the shared layer: ``GAME`` (``contract.Game``)."""

from __future__ import annotations

from fractions import Fraction

from gamelab.core import budgets, contract
from gamelab.core.params import specs
from gamelab.strand import diagnostics as game_metrics

from . import claims, engine, exact_claims, identities, panels, record, reference, sim, view
from .agents import STREAMS, AgentParams, controller
from .rules import PLAYERS, VARIANT_CHANGES, StrandParams, seat_symmetries
from .state import PHASES

MAX_ROUNDS = next(s.high for s in specs(StrandParams) if s.name == "rounds")
STEP_SLACK = 3  # a few steps more than a game can take, for the conformance suite

GAME = contract.Game(
    name="strand",
    title=sim.TITLE,
    players=PLAYERS,
    rules=StrandParams,
    knobs=AgentParams,
    engine=engine,
    reference=reference,
    agents=sim.AGENTS,
    controller=controller,
    play=sim.play,
    streams=STREAMS,
    record=contract.RecordFormat(replay=record.replay, tables=record.tables),
    variants=VARIANT_CHANGES,
    lineup=sim.default_lineup,  # the style mix: a different style on every seat
    bench=contract.Bench(
        random_batch=sim.random_batch,
        agent_target=50_000,
        # issue 20: best on every seat, a share of the style mix's games/s, at 200-game runs
        extra_lineups={"strong": (4, sim.strong_lineup, Fraction(1, 100))},
        panel_slider=("node_values", (3, 4, 6, 5, 5, 6, 7, 8)),  # issue 31: node value 3 from 4 to 6
    ),
    panels=contract.Panels(measures=panels.MEASURES, explorers={"trust": panels.TRUST}, view=view.VIEW),
    rulebook=contract.Rulebook(
        identities=contract.Identities(rows=identities.rows, simulated=identities.simulated),
        claims=contract.Claims(
            exact_claims=exact_claims.exact_claims,
            runs=claims.runs,
            audit=claims.audit,
            conclusions=claims.conclusions,
            conclusion_players=claims.CONCLUSION_PLAYERS,
            rulebook="004_fe1c54db522c7fe9.txt",
            section_titles=claims.SECTION_TITLES,
        ),
    ),
    skill=contract.SkillSettings(
        ladder=sim.SKILL_LADDER,
        players=4,
        search=sim.BEST,
        budget="best_rollouts",
        budgets=sim.TRACE_BUDGETS,
        beyond=sim.TRACE_BEYOND,
        prepare=sim.prepare,
        search_knobs={"best_proxy": "mix"},  # every level plays the style mix: style verdicts can be traced
        rung_words=sim.rung_words,
        restricted=sim.restricted_agents,
        restricted_group="style",
        report_top="best@4",  # best@8 and best@16 on every seat cost minutes a player count
        learned=sim.LEARNED,  # best@16 distilled (issue 39): its strength at about the styles' cost
    ),
    report=contract.ReportSettings(
        players=sim.REPORT_PLAYERS,
        groups=sim.REPORT_GROUPS,
        headline="style_spread",  # appendix B's styles: the imbalance STRAND's findings are about
        group_values={"style": tuple(map(str, sim.STYLE_NAMES)), "role": tuple(map(str, sim.ROLE_NAMES))},
        assumptions=sim.ASSUMPTIONS,
        errata_heading="STRAND",
        edge=sim.EDGE,
        metrics=game_metrics.METRICS,
        agent_words={
            "mix": "the style mix",
            "best": "search to the end of the game",
            "greedy": "search to the end of the round",
            "random": "random legal play",
        },
        budget_words="search, {budget} play-outs per option",
    ),
    derived=sim.DERIVED,
    # appendix B's styles as the moves of a meta-game (gamelab metagame); PSRO adds best, then best@16
    metagame=contract.Strategies(
        names=sim.STYLES,
        label="style",
        column="style",
        profile_agent=sim.PROFILE,
        searches=(sim.BEST, budgets.at_budget(sim.BEST, 16)),
        proxy_knob="best_proxy",
    ),
    symmetry=contract.Symmetry(
        seats=seat_symmetries,
        why="every seat acts at once and the first player only sets the speaking order (6.1 step 7); "
        "variant E keeps the opposite-seat teams",
        agents=(*sim.STYLES, "random", "best@1", "heavy@1", "level2@1"),
        others="cargo cards of one value are alike: the engine holds hands as counts per value",
    ),
    chunk_deals=sim.CHUNK_DEALS,
    max_steps=int(MAX_ROUNDS) * len(PHASES) + STEP_SLACK,
)
