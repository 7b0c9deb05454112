"""The SBR rulebook's sentences about one move or one set-up (movement, spin,
seals, set-up, variants), asked of the engine in scripted states; whole games
are in :mod:`gamelab.sbr.exact_games`.

Scripted states (:func:`table`) are run through :mod:`gamelab.sbr.engine`
(``init``, ``outcome``, ``act``, ``step``, ``legal_for``, ``begin_beat``,
``end_beat``, ``result``) and the worked example through
:func:`gamelab.sbr.record.replay`.  The board data only picks *where* to ask
(the square before a curve, the rivers); every figure is what the engine
answers.  Every call goes through the module attribute ``engine`` (or
``record``), so ``tests/test_exact_claims.py`` can make the engine play by
other rules and require every value here to move.  :mod:`gamelab.sbr.exact_claims`
gathers these parts.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gamelab.core.params import specs

from . import engine
from .identities import terrain_squares
from .rules import (
    CURVE,
    HEART,
    N_VALUES,
    RELIC_TYPES,
    RIVER,
    ROCK,
    SPINE,
    TOWN,
    SbrParams,
    n_riders,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "playtests" / "sbr_example.json"
TRUE = 1  # a sentence that holds ("1 = true" in the CSV)
#: 7.6 (segments 3-6): distances of 乔尼, 杰洛, 迪亚哥, 露西 as printed
SUMMARY_DISTANCES = ((10, 10, 9, 9), (9, 9, 6, 10), (11, 6, 13, 8), (8, 8, 8, 6))
#: 7.6's final table: the relic icons beside each rider
SUMMARY_RELICS = (
    ("heart", "heart", "eye", "eye", "spine"),
    ("spine", "heart", "spine", "skull", "skull"),
    ("eye",),
    (),
)


# --- scripted states -----------------------------------------------------------------
def _chance(params, G, R, layout=None):
    """Decks in sorted order; ``layout`` {square: relic kind} on every board."""
    deck = np.repeat(np.arange(1, N_VALUES + 1, dtype=np.int8), params.card_counts)
    relics = np.full((G, params.length + 1), -1, np.int8)
    for sq, kind in (layout or {}).items():
        relics[:, sq] = kind
    return engine.Chance(np.broadcast_to(deck, (G, R, deck.size)).copy(), relics, np.zeros(G, np.int8))


def table(params, G, n_players=None, *, pos=0, spin=0, layout=None):
    """G games set up by the engine (6.1), rider 0 then put on ``pos``
    holding ``spin``; every card in every hand and nothing to draw (any card
    may be played); acting order: seat order.  ``n_players`` defaults to two
    (or the fewest the rules seat, when that is more)."""
    n_players = n_players or min(max(2, params.min_players), params.max_players)
    R = n_riders(params, n_players)
    st = engine.init(params, G, n_players, _chance(params, G, R, layout))
    st.pos[:, 0], st.spin[:, 0] = pos, spin
    st.hand[:] = np.asarray(params.card_counts, np.int8)
    st.drawn[:] = st.deck.shape[2]
    st.order[:] = np.arange(R, dtype=np.int8)
    return st


def ask(params, st, card, spin=0, brk=False, rider=0) -> dict:
    """``engine.outcome`` of one option per game for ``rider``: (G,) arrays."""
    G = st.n_games
    col = [np.broadcast_to(np.asarray(x), (G,)).reshape(G, 1) for x in (card, spin, brk)]
    out = engine.outcome(params, st, np.full(G, rider), *col)
    return {k: v[:, 0] for k, v in out.items()}


def moves(params: SbrParams, starts, card: int, spin: int = 0, layout=None) -> dict:
    """A rider on each square of ``starts`` plays ``card`` + ``spin`` (held):
    (n,) ``stop``, ``end``, ``tax``, ``gain`` (spin gained), ``relic``."""
    starts = np.asarray(starts, np.intp)
    out = ask(params, table(params, starts.size, pos=starts, spin=spin, layout=layout), card, spin)
    return {k: out[v] for k, v in MOVES.items()}


#: the figures of a move, by the names the scripts read, from ``engine.outcome``'s
MOVES = {"stop": "stop", "end": "end", "tax": "tax", "gain": "spin", "relic": "relic"}


def actions(G, card, spin=0, seal=0, brk=False, retrieve=0):
    return engine.Actions(*(np.broadcast_to(np.asarray(v), (G,)).copy() for v in (card, spin, seal, brk, retrieve)))


def _largest(mask) -> int:
    return int(np.flatnonzero(mask)[-1]) if mask.any() else 0


#: spin held in the scripts that read a cap or a cost from the spin a rider is left with: more than any
#: spin cap allows (the spin_cap parameter's declared top), so that neither the cap nor the hold decides
#: the figure instead of the rule asked (the engine caps spin only when some is gained)
SPIN_TOP = next(s.high for s in specs(SbrParams) if s.name == "spin_cap")


def plain(params: SbrParams) -> SbrParams:
    """``params`` on a board of straights (no square pays spin or costs extra):
    for the figures read from the spin a move leaves, which the board's rivers
    and towns would add to (and the cap clip)."""
    return params.replace(board=("straight",) * (params.length - 1) + ("finish",))


def max_spin(params) -> int:
    """The most spin the engine lets a rider spend in one beat (holding 9)."""
    return _largest(engine.legal_for(params, table(params, 1, spin=9), np.zeros(1, np.intp)).spin[0])


def _options(params):
    return [(c, s) for c in range(1, N_VALUES + 1) for s in range(max_spin(params) + 1)]


# --- movement (4.2, 5.1, FAQ Q2-Q5) -----------------------------------------------------
def _moved(params, start, card, spin=0):
    return int(moves(params, [start], card, spin)["stop"][0]) - start


def curve_figures(params: SbrParams) -> dict:
    """5.1 / 8.1 ① and FAQ Q2: a 5 and a 2 from the square before the first
    curve; a 5 from the square before the first two adjacent curves."""
    curves = terrain_squares(params, CURVE)
    out = {}
    if curves:
        s = curves[0] - 1
        out["five_through_one_curve"] = _moved(params, s, 5)
        out["two_through_one_curve"] = _moved(params, s, 2)
        out["five_minus_two_through_one_curve"] = out["five_through_one_curve"] - out["two_through_one_curve"]
        out["curve_extra_cost"] = int(moves(params, [s], 5)["tax"][0])
        paying = [c for c in range(1, N_VALUES + 1) if moves(params, [s], c)["tax"][0] > 0]
        out["smallest_card_paying_at_curve"] = paying[0] if paying else 0
        # cards 2 and 3 move from before every curve exactly as a 1 with the same movement in spin
        small = [(c, k) for c in curves for k in (2, 3)]
        differ = sum(_moved(params, c - 1, k) != _moved(params, c - 1, 1, k - 1) for c, k in small)
        out["small_cards_free_at_every_curve"] = int(differ == 0)
    pairs = [c for c in curves if c + 1 in curves]
    if pairs:
        s = pairs[0] - 1
        m = moves(params, [s], 5)
        stop = int(m["stop"][0])
        out |= {
            "five_through_two_curves": stop - s,
            "five_through_two_curves_stop": stop,
            "five_through_two_curves_tax": int(m["tax"][0]),
            "five_through_two_curves_stops_on_first": int(stop == pairs[0]),
        }
    return out


def _all_moves(params, layout=None):
    """Every start square and every (card, spin) option: {(card, spin): moves}.  One batch of
    games, a start and an option each (the games of a batch are independent), the same as
    ``{o: moves(params, starts, *o, layout=layout) for o in _options(params)}``."""
    starts, options = np.arange(params.length), _options(params)
    card, spin = (np.repeat([o[i] for o in options], starts.size) for i in (0, 1))
    pos = np.tile(starts, len(options))
    out = ask(params, table(params, pos.size, pos=pos, spin=spin, layout=layout), card, spin)
    part = {k: np.split(out[v], len(options)) for k, v in MOVES.items()}
    return starts, {o: {k: part[k][i] for k in MOVES} for i, o in enumerate(options)}


def movement_figures(params: SbrParams) -> dict:
    out = curve_figures(params)
    starts, every = _all_moves(params)
    rivers = np.zeros(params.length + 1, int)
    rivers[terrain_squares(params, RIVER)] = 1
    two = np.zeros(starts.size, bool)
    for m in every.values():
        entered = np.array([rivers[s + 1 : e + 1].sum() if e > s else 0 for s, e in zip(starts, m["stop"])])
        two |= entered >= 2
        if (entered >= 2).any():
            out.setdefault("spin_from_two_rivers", int(m["gain"][np.flatnonzero(entered >= 2)[0]]))
    out["two_river_starts"] = int(two.sum())
    moved = np.concatenate([m["stop"] - starts for m in every.values()])
    out["reach_max"] = int(moved.max())
    rocks = terrain_squares(params, ROCK)
    if rocks:
        out["rock_extra_cost"] = int(moves(params, [rocks[0] - 1], 3)["tax"][0])
    out["last_square_free"] = _last_square_free(params, starts, every)
    relic_sq = params.relic_squares()
    layout = {q: SPINE for q in relic_sq}
    _, with_relics = _all_moves(params, layout)
    on = np.isin(np.arange(params.length + 1), relic_sq)
    bad = sum(int(((m["relic"] >= 0) != on[np.maximum(m["stop"], 0)]).sum()) for m in with_relics.values())
    out["relic_only_on_exact_stop"] = int(bad == 0)
    return out


def _last_square_free(params, starts, every) -> int:
    """4.2 key detail / FAQ Q3: one more point of movement that only carries
    a rider onto a rock or curve (nothing left) never costs its extra."""
    terr = params.terrain_array()
    bad = 0
    for (c, s), m in every.items():
        if s == 0:
            continue
        less = every[(c, s - 1)]
        onto = (less["stop"] == m["stop"] - 1) & np.isin(terr[np.maximum(m["stop"], 0)], (ROCK, CURVE))
        bad += int((onto & (m["tax"] > less["tax"])).sum())
    return int(bad == 0)


# --- spin (4.2, 5.2, 5.4, FAQ Q5, Q18) --------------------------------------------------
def spin_figures(params: SbrParams) -> dict:
    rivers, towns = terrain_squares(params, RIVER), terrain_squares(params, TOWN)
    pass_river = moves(params, np.array(rivers) - 1, 2)["gain"] if rivers else np.zeros(0)
    stop_river = moves(params, np.array(rivers) - 1, 1)["gain"] if rivers else np.zeros(0)
    stop_town = moves(params, np.array(towns) - 1, 1)["gain"] if towns else np.zeros(0)
    pass_town = moves(params, np.array(towns) - 1, 2)["gain"] if towns else np.zeros(0)
    q = params.relic_squares()[0]
    eye = moves(params, [q - 1], 1, layout={q: 0})["gain"][0]
    st = table(params, 1, pos=q - 1, spin=max(params.spin_cap - 1, 0), layout={q: 0})  # one short of the cap
    heart = moves(params, [q - 1], 1, layout={q: HEART})
    out = {
        "spin_from_rivers": int(pass_river.sum()),
        "rivers_paying_on_stop": int((stop_river > 0).sum()),
        "spin_from_towns": int(stop_town.sum()),
        "towns_paying_when_passed": int((pass_town > 0).sum()),
        "eye_spin": int(eye),
        "eye_over_cap": int(ask(params, st, 1)["spin"][0]),
        "heart_steps": int(heart["end"][0] - heart["stop"][0]),
        "max_spin_per_beat": max_spin(params),
        # a rider holding more than any cap passes a river: he keeps what the cap lets him
        "spin_cap": int(ask(params, table(params, 1, pos=rivers[0] - 1, spin=SPIN_TOP), 1)["spin"][0]) if rivers else 0,
    }
    out |= _heart_walk(params, q)
    out |= _skull(params)
    out["spin_income_terrain"] = out["spin_from_rivers"] + out["spin_from_towns"]
    out["spin_income_max"] = out["spin_income_terrain"] + params.relic_counts[0] * out["eye_spin"]
    terrain = out["spin_income_terrain"]
    out["eye_share_of_terrain_spin_pct"] = 100 * out["eye_spin"] / terrain if terrain else 0.0
    return out


def _heart_walk(params, q) -> dict:
    """5.4: a heart's squares meet no terrain and no relic (played by ``act``)."""
    after = [s for s in range(q + 1, q + 8) if s in params.relic_squares()]
    layout = {q: HEART} | {s: SPINE for s in after}
    st = table(params, 1, pos=q - 1, layout=layout)
    engine.act(params, st, actions(1, 1), 0, inplace=True)
    taken_after = sum(int(st.relic[0, s] < 0) for s in after)
    return {"heart_walk_triggers": int(st.spin[0, 0]) + taken_after}


def _skull(params) -> dict:
    """5.4: a skull takes a card back from the discard (played by ``act``)."""
    q = params.relic_squares()[0]
    st = table(params, 1, pos=q - 1, layout={q: RELIC_TYPES.index("skull")})
    st.hand[0, 0, N_VALUES - 1] -= 1
    st.discard[0, 0, N_VALUES - 1] += 1
    before = int(st.hand[0, 0].sum())
    engine.act(params, st, actions(1, 1, retrieve=N_VALUES), 0, inplace=True)
    return {"skull_cards_back": int(st.hand[0, 0].sum()) - (before - 1)}


# --- seals (5.3, 6.2 step 3-4, 8.2, FAQ Q8-Q10) ---------------------------------------
def _free_run(params, length=N_VALUES):
    """The first square q >= 2 from which ``length`` squares carry no extra cost."""
    terr = params.terrain_array()
    for q in range(2, params.length - length):
        if not np.isin(terr[q : q + length], (ROCK, CURVE)).any():
            return q
    return 2


def _sealed(params, q, owner=0, n_players=4, **kw):
    st = table(params, 1, n_players, **kw)
    st.seal[0, q] = owner
    return st


def seal_figures(params: SbrParams) -> dict:
    """5.3 with four riders (nothing when the rules seat fewer)."""
    if params.max_players * params.riders_per_player < 4 or params.min_players > 4:
        return {}
    q = _free_run(params)
    free = ask(params, table(params, 1, 4, pos=q - 1, spin=SPIN_TOP), N_VALUES, brk=True)
    hit = ask(params, _sealed(params, q, owner=1, pos=q - 1), N_VALUES)
    broke = ask(params, _sealed(params, q, owner=1, pos=q - 1, spin=SPIN_TOP), N_VALUES, brk=True)
    # the cost: the spin a break takes, on a board that pays no spin (the board's river and town on the
    # way would add spin the cap may clip), from a hold more than any break costs
    flat = plain(params)
    kept = ask(flat, table(flat, 1, 4, pos=q - 1, spin=SPIN_TOP), N_VALUES, brk=True)
    spent = ask(flat, _sealed(flat, q, owner=1, pos=q - 1, spin=SPIN_TOP), N_VALUES, brk=True)
    own = ask(params, _sealed(params, q, owner=0, pos=q - 1), N_VALUES)
    out = {
        "seal_penalty": int(free["stop"][0] - hit["stop"][0]),
        "seal_break_cost": int(kept["spin"][0] - spent["spin"][0]),
        "break_keeps_movement": int(broke["stop"][0] == free["stop"][0]),
        "own_seal_no_effect": int(own["stop"][0] == free["stop"][0] and own["hits"][0] == 0),
    }
    out["break_equals_penalty"] = int(out["seal_penalty"] == out["seal_break_cost"])
    # a leader's seal just behind him: the riders who would walk into it
    st = _sealed(params, q, owner=0, pos=q + 1)
    st.pos[0, 1:] = q - 1
    out["riders_behind_leader_4p"] = sum(int(ask(params, st, N_VALUES, rider=r)["hits"][0]) for r in (1, 2, 3))
    for r in (1, 2, 3):  # they all walk over it in one beat
        st.order[0] = [1, 2, 3, 0]
        engine.act(params, st, actions(1, N_VALUES), r - 1, inplace=True)
    out["one_seal_bites"] = int(st.stats["seal_hits"][0].sum())
    out |= _seal_placing(params)
    return out


def _seal_placing(params) -> dict:
    """Where the legal masks allow a seal; seals a rider holds; the clearing."""
    far = 20
    st = table(params, 1, 4, pos=far)
    rider = np.zeros(1, np.intp)
    out = {"seal_range": _largest(engine.legal_for(params, st, rider).seal[0])}
    st.seal[0, far - 1 if params.seal_direction == "behind" else far + 1] = 1  # the next square a seal may go
    out["sealed_square_refused"] = int(not engine.legal_for(params, st, rider).seal[0, 1])
    relic = params.relic_squares()[0]
    out["seal_on_relic_square_allowed"] = int(
        engine.legal_for(params, table(params, 1, 4, pos=relic + 1), rider).seal[0, 1]
    )
    st = table(params, 1, pos=far)
    st.seal[0, far - 1] = 1
    while (st.seal >= 0).any() and st.beat < params.length:
        engine.end_beat(params, st, inplace=True)
    out["seals_cleared_after_beat"] = st.beat
    return out


def set_up_figures(params: SbrParams) -> dict:
    """3.3 by player count: what the engine's set-up (6.1) hands out."""
    out = {}
    for P in range(params.min_players, params.max_players + 1):
        st = engine.init(params, 1, P, engine.draw_chance(params, 1, P, np.random.default_rng(0)))
        out[f"seals_{P}p"] = int(st.seals_left.sum())
        out[f"riders_{P}p"], out[f"spin_tracks_{P}p"] = st.pos.shape[1], st.spin.shape[1]
        out[f"drive_cards_{P}p"] = int(st.deck.shape[1] * st.deck.shape[2])
    out["seals_per_player"] = int(st.seals_left[0, 0])
    return out


def variant_figures(params: SbrParams) -> dict:
    """9.3 (seals ahead) and 9.5 (two riders a player), through the engine
    under each variant's own rule changes (:func:`params_for_variant`)."""
    from .rules import params_for_variant

    out: dict = {}
    if params.max_players * params.riders_per_player < 4 or params.min_players > 4:  # the scripts seat four riders
        return out
    ahead = params_for_variant("forward_seals")
    fp = params.replace(**{k: getattr(ahead, k) for k in ("seal_direction", "seal_owner_bonus", "spin_cap")})
    q = _free_run(fp)
    free = ask(fp, table(fp, 1, 4, pos=q - 1), N_VALUES)
    own = ask(fp, _sealed(fp, q, owner=0, pos=q - 1), N_VALUES)
    hit = ask(fp, _sealed(fp, q, owner=1, pos=q - 1), N_VALUES)
    out["forward_own_bonus"] = int(own["stop"][0] - free["stop"][0])
    out["forward_seal_penalty"] = int(free["stop"][0] - hit["stop"][0])
    out["forward_seal_range"] = _largest(engine.legal_for(fp, table(fp, 1, 4, pos=20), np.zeros(1, np.intp)).seal[0])
    out["forward_spin_cap"] = spin_figures(fp)["spin_cap"]
    dual = params_for_variant("dual")
    dp = params.replace(riders_per_player=dual.riders_per_player, min_players=2, max_players=2)
    st = engine.init(dp, 1, 2, engine.draw_chance(dp, 1, 2, np.random.default_rng(0)))
    out["dual_riders_2p"] = int(st.pos.shape[1])
    out["dual_seals_per_rider"] = int(st.seals_left[0, 0])
    out["dual_cards_per_rider"] = int(st.deck.shape[2])
    return out


#: this module's parts of the exact claims (``exact_claims.py``), in order
FIGURES = (movement_figures, spin_figures, seal_figures, set_up_figures, variant_figures)
