"""STEEL BALL RUN's record for the shared layer (:class:`gamelab.core.contract.Game`).

Everything the runner, sweeps, reports, notebooks, bench and conformance
tests know of the game; :mod:`gamelab.core.registry` finds ``GAME`` here.
"""

from __future__ import annotations

from fractions import Fraction

from gamelab.core import contract
from gamelab.core.params import specs
from gamelab.sbr import diagnostics as game_metrics

from . import agents, claims, engine, exact_claims, identities, learned, panels, record, reference, rules, sim, view


def _spec(name: str):
    return next(s for s in specs(rules.SbrParams) if s.name == name)


# One engine step is one slot of a beat: a game is beats x riders steps.  The
# ranges allow 40 beats and at most 10 riders (8 players x 2 riders, but the
# points tables, which need a rank per rider, have at most 10 ranks); plus one
# beat's slots of slack.
_MAX_RIDERS = min(
    _spec("max_players").high * _spec("riders_per_player").high,
    _spec("segment_points").length[1],
    _spec("final_points").length[1],
)
MAX_STEPS = _spec("beats").high * _MAX_RIDERS + _MAX_RIDERS

GAME = contract.Game(
    name="sbr",
    title=sim.TITLE,
    players=rules.PLAYERS,
    rules=rules.SbrParams,
    knobs=agents.AgentParams,
    engine=engine,
    reference=reference,
    agents=tuple(agents.POLICIES),
    controller=agents.controller,
    compiled=sim.compiled,  # whole games of greedy, lookahead and deep seats in the compiled search
    counts=sim.COUNTS,
    record=contract.RecordFormat(replay=record.replay, tables=record.tables),
    variants=rules.VARIANT_CHANGES,
    default_agent="greedy",
    skill=contract.SkillSettings(
        ladder=("random", "greedy", "lookahead", "deep"),
        players=2,  # deep on a 4-player table plays about 4 games a second
        strong_agent="lookahead",  # the cross-model check: lookahead on every seat (deep is too slow for a report)
        search="lookahead",  # the skill trace: the lookahead at doubling play-out depths
        budget="lookahead_beats",
        budgets=(1, 2, 4, 8),
        rung_words=sim.rung_words,
        # issue 39: the greedy with per-beat weights fitted to lookahead@4's choices (sbr/learned.py)
        learned=learned.NAME,
        prepare=learned.prepare,
    ),
    bench=contract.Bench(
        agent_target=10_000,
        extra_lineups={
            "lookahead": (4, sim.lookahead_lineup, 300.0),
            "lookahead_2p": (2, sim.lookahead_lineup, 1500.0),
            # issue 20: the search on every seat, a share of the greedy's games/s, at 200-game runs
            "strong": (4, sim.strong_lineup, Fraction(1, 300)),
            "strong_lookahead": (4, sim.all_lookahead_lineup, Fraction(1, 10)),
        },
        panel_slider=("curve_penalty", 3),  # issue 31: 10.9 s in the notebook before the fix
    ),
    panels=contract.Panels(measures=panels.MEASURES, figures=panels.figures, view=view.VIEW),
    rulebook=contract.Rulebook(
        identities=contract.Identities(rows=identities.rows, simulated=identities.simulated, needs=identities.needs),
        claims=contract.Claims(
            exact_claims=exact_claims.exact_claims,
            runs=claims.runs,
            audit=claims.audit,
            rulebook="000_dd784b01c1fe9a1b.txt",
        ),
    ),
    report=contract.ReportSettings(
        players=sim.REPORT_PLAYERS,
        groups=sim.REPORT_GROUPS,
        assumptions=sim.ASSUMPTIONS,
        errata_heading="STEEL BALL RUN",
        edge=sim.EDGE,
        metrics=game_metrics.METRICS,
        agent_words={
            "greedy": "greedy rider",
            "lookahead": "lookahead search",
            "deep": "deep lookahead search",
            "random": "random legal play",
            "learned": "learned rider",
        },
        budget_words="lookahead, {budget} beats deep",
    ),
    derived=sim.DERIVED,
    # no seat relabelling leaves the rules alone: riders act one at a time in a set order
    symmetry=contract.Symmetry(
        why="riders act one at a time, the first player first and then by position (6.1 step 6, 6.2 step 0)"
    ),
    chunk_deals=sim.CHUNK_DEALS,
    max_steps=MAX_STEPS,
)
