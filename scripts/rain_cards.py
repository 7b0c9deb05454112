"""STRAND variant F: which 3 or 4 of the eight time-rain cards keep the
balance closest to the rulebook's game (no time rain)?  The rulebook (variant
F) says the variant is not numerically verified and suggests playing with
only 3 or 4 of its cards.  Every deck of 3 and of 4 cards is played on the
same deals as the rulebook's game (common random numbers, through the chunk
store); each deck's distance is the largest change of any style's win rate,
in points, with the style spread's change beside it.  Prints the closest
decks first, then the full deck.  Usage:
    .venv/bin/python scripts/rain_cards.py [GAMES] [PLAYERS]
"""

import itertools
import sys

from gamelab.core import registry
from gamelab.report import format as fmt
from gamelab.sim import sweep
from gamelab.sim.run import RunConfig
from gamelab.stats import balance, bootstrap
from gamelab.strand.rules import RAIN_CARDS

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
PLAYERS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
SEED = 31
SHOWN = 10


def main() -> None:
    game = registry.get("strand")
    styles = [s for s in balance.group_values(game, "style") or () if s not in ("random", "custom")]
    metrics = [balance.metric(game, "style_spread")] + [balance.metric(game, f"win_rate[style={s}]") for s in styles]
    run = RunConfig(progress=False)

    def frame(cell):
        return sweep.run_cell(game, cell, n_games=GAMES, seed=SEED, n_players=PLAYERS, run=run).frame

    base = frame({})
    decks = [c for k in (3, 4) for c in itertools.combinations(RAIN_CARDS, k)] + [RAIN_CARDS]
    rows = []
    for deck in decks:
        ch = bootstrap.paired_change(frame({"time_rain": True, "rain_cards": deck}), base, metrics).set_index("metric")
        wins = ch.drop(index="style_spread")
        worst = wins["change"].abs().idxmax()
        rows.append((float(wins["change"].abs().max()), deck, worst, ch))
    rows.sort(key=lambda r: r[0])
    spread = rows[0][3].loc["style_spread", "base"]
    print(f"STRAND, {PLAYERS} players, {GAMES:,} games per deck (seed {SEED}); the rulebook's game without time rain:")
    print(f"style spread {spread * 100:.1f} points. Decks closest to it (largest change of a style's win rate):")
    full = next(r for r in rows if r[1] == RAIN_CARDS)
    blank = [r for r in rows if "clear" not in r[1]][:3]  # "clear" changes nothing: the decks without it
    for i, (dist, deck, worst, ch) in enumerate(rows[:SHOWN] + [full] + blank):
        if i == SHOWN + 1:
            print("Closest decks without the clear card (which changes nothing in its round):")
        s = ch.loc["style_spread"]
        w = ch.loc[worst]
        name = "all eight" if deck == RAIN_CARDS else ", ".join(fmt.words(c) for c in deck)
        print(
            f"  {name}: at most {dist * 100:.1f} points ({fmt.words(worst.split('=')[1].rstrip(']'))} "
            f"{w['change'] * 100:+.1f}, {w['low'] * 100:+.1f} to {w['high'] * 100:+.1f}); style spread "
            f"{s['value'] * 100:.1f} ({s['change'] * 100:+.1f}, {s['low'] * 100:+.1f} to {s['high'] * 100:+.1f})"
        )


if __name__ == "__main__":
    main()
