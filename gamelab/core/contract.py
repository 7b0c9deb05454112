"""What a game owes the shared layer: one :class:`Game` record, registered once.

A game lives in its own package ``gamelab/<name>/`` with the same parts as
every other (``rules.py``, ``state.py``, ``engine.py``, ``reference.py``,
``agents.py`` and, where the game has them, ``record.py``, ``identities.py``,
``diagnostics.py``, ``view.py``, ``claims.py``; ``docs/adding-a-game.md``) and
a ``game.py`` whose ``GAME`` is a :class:`Game`: the rules side every game
gives, then optional capabilities, each with its default.  :mod:`gamelab.core.registry` finds it there; the
shared layer (runner, sweep, stats, playtest, report, widgets, bench, cli)
reads the registry only and never names a game.

The engine contract (:class:`Engine`), one signature for every game, after
Pgx's ``init / step / legal_action_mask`` and OpenSpiel's chance outcomes:

* ``draw_chance(params, n_games, n_players, rng) -> Chance``: every random
  number a batch of games will use, drawn up front from the caller's
  ``numpy.random.Generator`` (or a key per game, whose k-th number
  :mod:`gamelab.core.chance` derives on demand).  Nothing else in the engine draws.
* ``init(params, n_games, n_players, chance) -> State``: the set-up.
* ``legal(params, state) -> Legal``: what the players to move may do, for
  every game of the batch (the game says whose move it is in its state:
  one rider at a time in a race, every seat at once in a simultaneous game).
* ``step(params, state, actions, chance, *, inplace=False) -> (State, events)``:
  one decision of every game still running; ``actions`` must be legal.
* ``done(params, state) -> (G,) bool`` and ``result(params, state) -> dict``
  with at least ``score``, ``win`` (ties split 1/k) and ``rank`` (1 = best),
  each (G, P).
* ``random_actions(params, state, legal, rng) -> Actions``: uniformly random
  legal actions (the ``random`` agent, and the conformance suite's driver);
  ``is_legal(params, state, legal, actions) -> (G,) bool``.

**The state rule.**  A ``State`` is a mutable dataclass of numpy arrays
whose leading axis is the batch of games (a replay is a batch of one), with
``copy()`` and ``take(games)``.  No engine function changes a state it is
given, except with ``inplace=True``, when it updates that state and returns
it (for loops that keep no reference to the old state).

Agents: a game names its agents and builds, for a seating (one agent name
per seat), a :class:`Controller` that answers ``act(state, legal)`` for every
game of a batch and may watch the events (``observe(events)``);
:mod:`gamelab.core.driver` has the default one (a policy per agent, asked for
the seat to move) and the whole-game loop.  The runner plays a batch from the
random streams the game declares (``Game.streams``, split by the runner)
through the shared play (:mod:`gamelab.sim.play`, counting ``Game.counts``;
it first asks the game's compiled twin ``Game.compiled``, if declared, to play
the batch whole), or through the game's own fast path ``Game.play``, and gets
the per-seat and per-game columns of its table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from gamelab.core.errors import GamelabError, ParamError
from gamelab.core.params import Params, specs
from gamelab.core.paths import ERRATA, PLAYTESTS
from gamelab.core.scenes import View
from gamelab.core.symmetry import Symmetry as Symmetry  # a game's declaration: contract.Symmetry

State = Any  # each game's ``state.State``
Actions = Any  # each game's action arrays
Legal = Any  # each game's legal masks
Chance = Any  # each game's ``state.Chance``


class Engine(Protocol):
    """The batch rules of one game (a module satisfies it)."""

    def draw_chance(self, params: Any, n_games: int, n_players: int, rng: np.random.Generator) -> Chance: ...

    def init(self, params: Any, n_games: int, n_players: int, chance: Chance) -> State: ...

    def legal(self, params: Any, state: State) -> Legal: ...

    def step(
        self, params: Any, state: State, actions: Actions, chance: Chance, *, inplace: bool = False
    ) -> tuple[State, dict]: ...

    def done(self, params: Any, state: State) -> np.ndarray: ...

    def result(self, params: Any, state: State) -> dict: ...

    def random_actions(self, params: Any, state: State, legal: Legal, rng: np.random.Generator) -> Actions: ...

    def is_legal(self, params: Any, state: State, legal: Legal, actions: Actions) -> np.ndarray: ...


class Controller(Protocol):
    """The agents of one seating over a batch of games."""

    def act(self, state: State, legal: Legal) -> Actions: ...

    def observe(self, events: dict) -> None: ...


class Reference(Protocol):
    """The one-game-at-a-time specification, driven like the batch engine so
    that the conformance suite can hold one to the other step by step."""

    def play_random(self, params: Any, n_players: int, rng: np.random.Generator) -> Any: ...

    def start(self, params: Any, n_players: int, chance: Chance, g: int) -> Any:
        """The reference game for game ``g`` of a batch drawn as ``chance``."""

    def advance(self, params: Any, game: Any, state: State, actions: Actions, chance: Chance, g: int) -> None:
        """Make on ``game`` the decision the engine's ``step(state, actions,
        chance)`` makes for game ``g`` (``state``: before the step)."""

    def observe(self, game: Any) -> dict:
        """The rule-relevant state as plain Python values."""

    def observe_batch(self, state: State, g: int) -> dict:
        """The same keys from game ``g`` of the batch state (optional: without it, the
        state's fields of the same names, as plain values: :func:`observe_state`)."""

    def result(self, game: Any) -> dict:
        """``score`` and ``win`` per seat, as lists."""

    # optional: ``legal_mask(params, game)``, the reference's legal moves as the engine's legal mask of
    # one game (``engine.legal(...)[g]``); the conformance suite compares the two at every step


def observe_state(state: State, g: int, keys) -> dict:
    """Game ``g``'s fields ``keys`` of a batch state as plain Python values: what a
    reference without its own ``observe_batch`` is compared with."""
    return {key: np.asarray(getattr(state, key))[g].tolist() for key in keys}


@dataclasses.dataclass(frozen=True, kw_only=True)
class RecordFormat:
    """Playtest records (``docs/playtest-format.md``)."""

    # record -> (ledger, observed values for ``expect``); optionally ``watch=``: every decision shown to
    # ``watch(before, actions, events, after, unit)`` (``gamelab show RECORD``, ``rulebook.story``)
    replay: Callable[..., tuple[dict, dict]]
    tables: Callable[[dict], list]  # ledger -> [(title, DataFrame)]
    # worked examples shipped as records (empty: ``data/playtests/<game>_*.json``, found when the game is made)
    examples: tuple[Path, ...] = ()


@dataclasses.dataclass(frozen=True, kw_only=True)
class Run:
    """A run a game asks the shared layer to play for it (a game never
    simulates): ``n_games`` games at ``n_players`` with ``lineup`` (None: the
    default lineup) and ``params`` (None: the caller's), from ``seed``."""

    n_players: int
    n_games: int
    seed: int = 0
    lineup: tuple[str, ...] | None = None
    params: Any = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Identities:
    """The rulebook's design identities: exact functions of the parameters,
    and their measured sides as pure functions of results tables."""

    rows: Callable[..., list]  # params -> [identities.Row]
    # params, {players: frame}, {name: frame of a requested run} -> {sim_key: Estimate}
    simulated: Callable[[Any, dict, dict], dict]
    # params, {players: frame} -> {name: Run}: more runs ``simulated`` needs (default none)
    needs: Callable[[Any, dict], Mapping[str, Run]] = lambda params, frames: {}


@dataclasses.dataclass(frozen=True, kw_only=True)
class Claims:
    """The rulebook's published figures (``data/claims/<game>*.csv``), as pure
    functions: the shared layer (:mod:`gamelab.rulebook.claims`) plays the
    runs they ask for and hands them the tables."""

    exact_claims: Callable[[Any], dict]  # params -> {quantity: value} of the rules-decided figures
    # simulated rows, n_games, seed -> {key: Run}: what the published simulation figures need
    runs: Callable[[Any, int, int], Mapping[Any, Run]]
    # claims rows, exact part (audited rows or None), {key: frame}, seed -> audit frame
    audit: Callable[[Any, Any, dict, int], Any]
    # the rulebook's balance conclusions: {players: frame} -> frame (None: the rulebook draws none)
    conclusions: Callable[[dict], Any] | None = None
    conclusion_players: tuple[int, ...] = ()  # the player counts the conclusions are about
    rulebook: str = ""  # the rulebook text's file name (in $GAMELAB_SEEDS, or shared/seeds beside the checkout)
    # headings that open a section without a number (heading word -> section label), for the coverage map
    section_titles: Mapping[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, kw_only=True)
class Rulebook:
    """What the rulebook layer (:mod:`gamelab.rulebook`) checks of the game: its design
    identities and its published figures (None: the game has none)."""

    identities: Identities | None = None
    claims: Claims | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Counts:
    """What the shared play (``Game.play`` None: :func:`gamelab.sim.play.play_batch`) counts
    while a batch is played, from the engine's events: metrics, not rules, so never in the state.

    ``seat``: column -> an event's name or ``fn(events) -> (G,)``: the amounts, summed per seat
    into a (G, P) int32 column, credited to the seat ``events[mover]``.  The shared play also
    counts ``length`` (G,), the decisions of each game, and, with ``leads`` (a (G, P) state field
    of points), ``lead_changes`` (G,) through :class:`gamelab.stats.leads.LeadCounter`, after
    every step whose event ``leads_on`` is true in some game ("": every step).
    ``columns(params, state, result, counts) -> dict``: the runner's columns from the engine's
    ``result`` and the counts (None: the result, then the counts)."""

    seat: Mapping[str, str | Callable[[dict], np.ndarray]] = dataclasses.field(default_factory=dict)
    mover: str = "player"
    leads: str = ""
    leads_on: str = ""
    columns: Callable[[Any, Any, dict, dict], dict] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Bench:
    """What ``gamelab bench`` times."""

    agent_target: float  # games per second the default lineup must reach
    # params, n_games, n_players, rng: random legal play of a batch (None: ``core.driver.random_play``)
    random_batch: Callable[[Any, int, int, np.random.Generator], Any] | None = None
    ratio_target: float = 30.0  # batch engine over the reference, random play
    memory_mib: float = 1024.0  # peak memory of 100,000 games in flight
    agent_lineup: Callable[[int], Sequence[str]] | None = None  # None: the game's default lineup
    random_lineup: Callable[[int], Sequence[str]] | None = None  # None: "random" on every seat
    # more timed lineups: name -> (n_players, lineup fn, target games/s); bench reports ``<name>_games_per_s``
    extra_lineups: Mapping[str, tuple[int, Callable[[int], Sequence[str]], float]] = dataclasses.field(
        default_factory=dict
    )
    # one rule slider of the game's notebook panel and the value it is moved to: ``panel_slider_s``
    # times that move at the notebook's default sample (the numbers drawn, nothing cached)
    panel_slider: tuple[str, Any] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Explorer:
    """An identity a designer explores with sliders (a notebook panel,
    :class:`gamelab.ui.explorer.ExplorerPanel`): pure functions of the rule
    parameters and the panel's own declared quantities."""

    title: str
    rules: tuple[str, ...]  # rule parameters shown as sliders (declared in the game's rules)
    controls: type[Params]  # the panel's own quantities, declared like rules
    table: Callable[[Any, Any], Any]  # rules, controls -> DataFrame
    figure: Callable[[Any, Any], Any] | None = None  # rules, controls -> charts.Panel (described, not drawn)
    # rules, controls -> {control: value}: controls the rules decide now (shown, their slider disabled)
    derived: Callable[[Any, Any], dict] = lambda rules, controls: {}
    # rules, controls -> {rule: why}: rules the exact table and figure do not use now (their sliders
    # are disabled, the reason as tooltip, unless the simulated side follows the sliders)
    idle: Callable[[Any, Any], dict] = lambda rules, controls: {}
    labels: Mapping[str, str] = dataclasses.field(default_factory=dict)  # column -> words
    percent: tuple[str, ...] = ()  # columns shown as percentages
    caption: str | Callable[[Any], str] = ""  # the table's caption, or a function of the table that writes it
    # the same table beside play: rules, controls, frame -> DataFrame (None: exact only); a figure of
    # the exact table shown again here is computed at the same controls (one value per cell)
    simulated: Callable[[Any, Any, Any], Any] | None = None
    sim_players: int = 0  # the player count ``simulated`` is played at


@dataclasses.dataclass(frozen=True, kw_only=True)
class Panels:
    """What the notebook panels and ``gamelab show`` show of the game besides win rates.

    ``measures``: a table of the game's measures, balance metrics by name (the game's own,
    ``ReportSettings.metrics``, or the shared ones of :mod:`gamelab.stats.balance`; the
    shared layer computes each with its 95 % interval over deals,
    :func:`gamelab.stats.balance.panel_table`); () : the game's own metrics, then
    ``lead_changes`` when the shared play counts them and ``winner_score``, for a game the shared
    play plays (``Game.panel_measures``; none for a game with its own ``play``).
    ``figures``: the panel's figures, described (``core.charts``).  ``explorers``:
    identities a designer explores with sliders.  ``view``: how a state looks and what a
    decision says (``core.scenes``; None: the state's fields as a table)."""

    measures: tuple[str, ...] = ()  # metric names, in the table's order
    figures: Callable[[Any, Any], list] = lambda frame, params: []  # frame, params -> [charts.Panel]
    explorers: Mapping[str, Explorer] = dataclasses.field(default_factory=dict)
    view: View | None = None


@dataclasses.dataclass(frozen=True)
class PointPart:
    """One part of a seat's points: ``words`` ("segment points", "round 3") and the run columns it is
    made of, each with its weight (a seat's part = the sum of weight x column: ``{"lone": -2}`` for a
    penalty of 2 a marker)."""

    words: str
    columns: Mapping[str, float]


@dataclasses.dataclass(frozen=True, kw_only=True)
class EdgeSources:
    """Where a seat's points come from, as data (the report's edge: the headline group's points
    against the others', split by source and by phase, :mod:`gamelab.stats.edge`).  ``sources`` and
    ``phases`` each take ``(params, n_players)`` and return parts that add up to the ``points``
    column exactly, seat by seat, in every game (the report checks it on its own games)."""

    points: str = "score"
    sources: Callable[[Any, int], tuple[PointPart, ...]]  # what scored the points (the rules' sources)
    phases: Callable[[Any, int], tuple[PointPart, ...]]  # when (the game's rounds, segments, ...)
    why: str = ""  # one line the report adds under the chart (what the parts leave out, ...)


@dataclasses.dataclass(frozen=True, kw_only=True)
class ReportSettings:
    """How a default report covers the game."""

    players: tuple[int, ...] = ()  # player counts (() : the fewest and the most)
    groups: tuple[str, ...] = ("agent", "seat")  # columns win rates are tabulated by
    # the values each group other than seat (1..players) and agent (``Game.agents``) takes
    # (``win_rate[GROUP=VALUE]`` is checked against them; a group not here: against the table)
    group_values: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    assumptions: str = ""  # the agents' model, one paragraph
    errata_heading: str = ""  # the game's ``## `` heading in docs/errata.md
    # the game's headline imbalance: what ``sensitivity``, ``test`` and the Levers panel ask by default
    headline: str = "seat_spread"
    # where the headline group's points come from (None: the report shows no edge by source)
    edge: EdgeSources | None = None
    metrics: tuple = ()  # the game's own balance.Metric diagnostics (arrival_rate, ...)
    # agents as the rulebook and docs/agents.md name them (``labels.agent_label``): name -> words; a
    # numbered seat of a family (``mix1``) takes its family's words; ``budget_words`` says a search
    # agent at a budget (``best@8``), with ``{agent}`` and ``{budget}``
    agent_words: Mapping[str, str] = dataclasses.field(default_factory=dict)
    budget_words: str = "{agent}, budget {budget}"


@dataclasses.dataclass(frozen=True, kw_only=True)
class SkillSettings:
    """The game's skill ladder (``gamelab skill``)."""

    ladder: tuple[str, ...] = ()  # agent names from weakest to strongest
    players: int = 0  # the player count a report's ladder is measured at (0: the fewest)
    strong_agent: str = ""  # the agent seated everywhere for the cross-model check ("": the ladder's top)
    # the skill trace (``gamelab skill --trace``, models/trace.py): random on every seat, the default
    # model, then ``search`` on every seat at each budget of ``budgets`` (the value of its declared
    # knob ``budget``: play-outs per option, depth), weakest first, each double the one before.
    # In a lineup of mixed levels a seat of the search agent at budget b is named ``search@b``
    # (``core.budgets.at_budget``)
    # (the game accepts these names for every b of ``budgets``: a per-seat budget).
    search: str = ""  # the search agent ("": the game has no trace)
    budget: str = ""  # its budget knob, an agent knob of ``Game.knobs``
    budgets: tuple[int, ...] = ()  # the doubling schedule
    search_knobs: Mapping[str, Any] = dataclasses.field(default_factory=dict)  # more knob values at search levels
    # candidate rungs after the top budget, weakest first, each an agent name the game accepts on any
    # seat (level-k search: the search whose play-outs model the other seats as the rung before)
    beyond: tuple[str, ...] = ()
    # learns (or reads from the cache) the models a lineup's agents need, ``prepare(params, lineup,
    # n_players)``, in the process that decides a step, so that its workers find them on disk
    prepare: Callable[[Any, tuple[str, ...], int], None] | None = None
    # a rung's name (``random``, ``default``, ``search@b``) in the game's words for sentences a designer reads
    # ("search, 8 play-outs per option"); None: the name itself
    rung_words: Callable[[str], str] | None = None
    # styles at skill by restricted play (Jaffe et al. 2012): {style: agent name} of a rung's player
    # restricted to each style's defining choice, for a rung's name (empty: none at that rung)
    restricted: Callable[[str], Mapping[str, str]] | None = None
    restricted_group: str = ""  # the report group whose values ``restricted`` names (a win rate of it is traced so)
    # the highest rung a report's ladder tries ("": every candidate): the report's first screen must be
    # played in minutes, ``gamelab skill --trace`` climbs further
    report_top: str = ""
    # the learned rung (issue 39): an agent name the game accepts on any seat that plays about as
    # strongly as the top decided search rung at a share of the default model's cost, learned from
    # that rung's games (re-learned per rule set through ``prepare``); "": the game has none
    learned: str = ""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Strategies:
    """The moves of the game's meta-game (``gamelab metagame``, :mod:`gamelab.models.metagame`):
    agents a designer asks "which would adapting players keep?" about, each a lineup entry
    that plays the same way on any seat.  A profile seats one on every seat; every profile is
    played on the same deals."""

    names: tuple[str, ...]  # agent names (appendix B's styles, say)
    label: str = "strategy"  # one of them in the game's words ("style")
    column: str = "agent"  # the results table's column naming each seat's strategy
    # a lineup entry that plays a random profile per deal (every multiset equally likely; "": none):
    # with it on every seat one run holds the whole meta-game, so its metrics (styles_worth_playing,
    # equilibrium_spread) are metrics of a run like any other (sensitivity, tune, test)
    profile_agent: str = ""
    deals: int = 2048  # deals per profile (each played in every seat rotation)
    # PSRO: the search agents added in turn as best responses to the equilibrium (weakest first;
    # () : none), and the agent knob that names the strategy the search plays its own seat as in
    # its play-outs and is seen as by the others (set to the equilibrium's leading strategy)
    searches: tuple[str, ...] = ()
    proxy_knob: str = ""
    search_deals: int = 128  # deals per profile with a search seat (a search is slow)


def players_check(players: tuple[int, int], words: str) -> Callable[[Any, int], None]:
    """A game's ``check_players(params, n_players)``: a :class:`ParamError` naming the value
    and the range ``players`` (fewest, most) unless ``n_players`` is a whole number in it;
    ``words`` says where the range comes from (``"Pig seats 2-6 players, rule 1"``)."""

    def check_players(params, n_players: int) -> None:
        lo, hi = players
        if isinstance(n_players, bool) or not isinstance(n_players, int) or not lo <= n_players <= hi:
            raise ParamError(f"n_players = {n_players!r} is out of range: expected int in {lo}..{hi} ({words})")

    return check_players


@dataclasses.dataclass(frozen=True, kw_only=True)
class Game:
    """Everything the shared layer knows of one game: the rules side every game gives, then
    optional capabilities, each one part with a default that a game without it keeps.

    The rules side is what Pgx's ``Env`` asks of a game (``init``, ``step``, ``observe``): the
    parameters, the batch engine and its reference, the agents, the playtest records and a bound
    on a game's length.  The shared layer owns the loop around them (``core.driver``)."""

    # -- the rules side: what every game gives
    name: str  # the short name: command lines, files, cache keys
    title: str  # the game's name in reports
    players: tuple[int, int]  # fewest and most players
    rules: type[Params]  # the rule parameters (``rules.py``)
    knobs: type[Params]  # rules plus the agents' model knobs: the runner's parameters
    engine: Engine
    reference: Reference
    agents: tuple[str, ...]  # agent names a lineup may use
    controller: Callable[[Any, Sequence[str], int, np.random.Generator], Controller]  # params, seating, G, rng
    record: RecordFormat | None  # playtest records (None: the game has no record format yet)
    max_steps: int  # engine steps a game takes at most (a true bound: the conformance checks hold it)

    # -- the rules side with defaults
    variants: Mapping[str, Any] = dataclasses.field(default_factory=lambda: {"standard": {}})  # name -> changes
    default_agent: str = ""  # the default lineup's agent on every seat ("": the first agent)
    lineup: Callable[[int], Sequence[str]] | None = None  # a default lineup that is not one agent everywhere
    # a game's own fast path: params, seating, n_deals, n_players, streams ({name: Generator}) -> the
    # per-seat and per-game columns of one batch (None: the shared play, ``sim.play.play_batch``,
    # counting ``counts``)
    play: Callable[..., dict] | None = None
    counts: Counts = Counts()  # what the shared play counts besides the engine's result
    # the shared play's compiled twin, asked first: ``compiled(params, seating, state, chance, rng)`` plays
    # the set-up games of ``state`` whole, in place, and returns the counts the shared play would have
    # counted (``sim.play.Tally.columns()``), if it can play this seating; else None, ``state`` untouched,
    # and the shared play plays the batch (None: no compiled twin)
    compiled: Callable[..., dict | None] | None = None
    # the named random streams a batch draws from, split by the runner from a chunk's seed (stream k: the
    # seed's k-th child, ``core.driver.split_streams``); part of what a seed means, like ``chunk_deals``.
    # The shared play draws the chance from ``chance`` and gives ``agents`` to the controller.
    streams: tuple[str, ...] = ("chance", "agents")
    chunk_deals: int = 1024  # deals per chunk (part of what a seed means)
    derived: Mapping[str, Callable[[Any, Any], dict]] = dataclasses.field(default_factory=dict)  # sweep knobs

    # -- optional capabilities
    report: ReportSettings = ReportSettings()  # the default report, the game's metrics, agents in words
    panels: Panels = Panels()  # notebook panels, explorers, the viewer's look
    rulebook: Rulebook = Rulebook()  # design identities and published figures
    skill: SkillSettings = SkillSettings()  # the skill ladder and trace
    metagame: Strategies | None = None  # the meta-game's moves (None: the game has no meta-game)
    bench: Bench | None = None  # what ``gamelab bench`` times (None: nothing of the game's own)
    symmetry: Symmetry = Symmetry()  # the seat relabellings the rules ignore (default: none)

    def __post_init__(self) -> None:
        if self.record is not None and not self.record.examples:  # the game's worked records, by its name
            found = tuple(sorted(PLAYTESTS.glob(f"{self.name}_*.json")))
            object.__setattr__(self, "record", dataclasses.replace(self.record, examples=found))

    @property
    def panel_measures(self) -> tuple[str, ...]:
        """The panel's measures: the declared ones, else, for a game played by the shared play, the
        game's own metrics, then ``lead_changes`` when it counts them, and ``winner_score``."""
        if self.panels.measures or self.play is not None:  # a fast path's columns: the game names its measures
            return self.panels.measures
        leads = ("lead_changes",) if self.play is None and self.counts.leads else ()
        return (*(m.name for m in self.report.metrics), *leads, "winner_score")

    @property
    def playable(self) -> tuple[str, ...]:
        """Every name a lineup may use: ``agents``, then the skill trace's rungs beyond its budgets,
        the learned rung and the symmetry checks' agent families (a cheap level-k rung, say)."""
        learned = (self.skill.learned,) if self.skill.learned else ()
        return tuple(dict.fromkeys((*self.agents, *self.skill.beyond, *learned, *self.symmetry.agents)))

    def default_lineup(self, n_players: int) -> list[str]:
        """The lineup a run uses when none is given."""
        if self.lineup is not None:
            return list(self.lineup(n_players))
        return [self.default_agent or self.agents[0]] * n_players

    def params_for_variant(self, name: str = "standard", **overrides) -> Params:
        """A named variant's rule parameters, then single overrides on top."""
        from .params import variant_maker

        return variant_maker(self.rules, self.variants)(name, **overrides)


ENGINE_FUNCTIONS = ("draw_chance", "init", "legal", "step", "done", "result", "random_actions", "is_legal")
REFERENCE_FUNCTIONS = ("play_random", "start", "advance", "observe", "result")


def check_declarations(game: Game) -> None:
    """The game's declarations are well formed and agree with each other, or a
    :class:`GamelabError` naming the game and the field (``Game.skill.ladder``) and what is
    wrong.  The registry runs it on every game it loads; the conformance checks list it first."""
    for problem in declaration_problems(game):
        raise GamelabError(f"{game.name}: {problem}")


def declaration_problems(game: Game) -> list[str]:
    """What :func:`check_declarations` refuses, one sentence each (the rules side first)."""
    problems = _rules_side_problems(game)
    return problems or _agreement_problems(game)


def _rules_side_problems(game: Game) -> list[str]:
    out = []
    lo_hi = game.players
    if not (isinstance(lo_hi, tuple) and len(lo_hi) == 2 and all(type(n) is int for n in lo_hi)):
        out.append(f"Game.players is {lo_hi!r}: expected (fewest, most), two whole numbers")
    elif not 1 <= lo_hi[0] <= lo_hi[1]:
        out.append(f"Game.players is {lo_hi!r}: expected 1 <= fewest <= most")
    for field in ("rules", "knobs"):
        if not (isinstance(getattr(game, field), type) and issubclass(getattr(game, field), Params)):
            out.append(f"Game.{field} is {getattr(game, field)!r}: expected a Params class (core.params)")
    if not out and not issubclass(game.knobs, game.rules):
        out.append(f"Game.knobs ({game.knobs.__name__}) does not extend Game.rules ({game.rules.__name__})")
    for field, names in (("engine", ENGINE_FUNCTIONS), ("reference", REFERENCE_FUNCTIONS)):
        missing = [n for n in names if not callable(getattr(getattr(game, field), n, None))]
        if missing:
            out.append(f"Game.{field} lacks {', '.join(missing)} (the contract's {field} functions)")
    if not (isinstance(game.agents, tuple) and game.agents and all(isinstance(a, str) for a in game.agents)):
        out.append(f"Game.agents is {game.agents!r}: expected a non-empty tuple of agent names")
    if not callable(game.controller):
        out.append("Game.controller is not callable: expected (params, seating, n_games, rng) -> Controller")
    if type(game.max_steps) is not int or game.max_steps < 1:
        out.append(f"Game.max_steps is {game.max_steps!r}: expected a whole number of steps >= 1")
    if game.compiled is not None and (game.play is not None or not callable(game.compiled)):
        out.append("Game.compiled is the shared play's compiled twin: a callable, and Game.play None")
    if game.play is None and not {"chance", "agents"} <= set(game.streams):
        out.append(f"Game.streams is {game.streams!r}: the shared play (Game.play None) draws chance and agents")
    return out


def _agreement_problems(game: Game) -> list[str]:
    """The declarations agree: every name they use is an agent, a knob or a player count of the game."""
    out = []
    agents, playable, (lo, hi) = set(game.agents), set(game.playable), game.players
    knobs = {s.name for s in specs(game.knobs)}

    def names(field: str, used, among: set, what: str) -> None:
        wrong = [u for u in used if u and u not in among]
        if wrong:
            out.append(f"{field} names {wrong[0]!r}, which is not {what} ({', '.join(sorted(among))})")

    names("Game.default_agent", [game.default_agent], agents, "one of its agents")
    for n in range(lo, hi + 1):
        lineup = game.default_lineup(n)
        if len(lineup) != n:
            out.append(f"Game.lineup({n}) has {len(lineup)} seats, not {n}")
        names(f"Game.lineup({n})", lineup, playable, "an agent a lineup may use")
    names("Game.skill.ladder", game.skill.ladder, playable, "an agent a lineup may use")
    names("Game.skill.strong_agent", [game.skill.strong_agent], agents, "one of its agents")
    names("Game.skill.search", [game.skill.search], agents, "one of its agents")
    names("Game.skill.budget", [game.skill.budget], knobs, "a knob of Game.knobs")
    if game.metagame is not None:
        names("Game.metagame.names", game.metagame.names, playable, "an agent a lineup may use")
    counts = [("Game.report.players", n) for n in game.report.players] + [("Game.skill.players", game.skill.players)]
    out += [f"{f} is {n}: the game is for {lo}-{hi} players" for f, n in counts if n and not lo <= n <= hi]
    out += _variant_problems(game)
    heading = game.report.errata_heading
    if heading and ERRATA.is_file():
        headings = [line[3:].strip().upper() for line in ERRATA.read_text().splitlines() if line.startswith("## ")]
        if not any(h.startswith(heading.upper()) for h in headings):
            out.append(f"Game.report.errata_heading {heading!r} is no '## ' heading of {ERRATA.name}")
    missing = [p.name for p in (game.record.examples if game.record else ()) if not p.is_file()]
    if missing:
        out.append(f"Game.record.examples names {missing[0]}, which does not exist")
    return out


def _variant_problems(game: Game) -> list[str]:
    out = []
    for variant in game.variants:
        try:
            game.params_for_variant(variant)
        except GamelabError as exc:
            out.append(f"Game.variants[{variant!r}] does not build: {exc}")
    return out
