"""List the rulebook lines that hold a number and are not yet accounted for
in ``data/claims/<game>_coverage.csv``, with candidate claims rows (rows of
the line's section whose printed figure the line states) to read and judge.

    python scripts/coverage_candidates.py sbr [--all]

``--all`` lists every line with a number, its status and what the coverage
file says.  The candidates are a reading aid, not a classification: a line
is linked to rows or given a reason by reading it.
"""

from __future__ import annotations

import argparse

from gamelab.core import registry
from gamelab.rulebook import coverage
from gamelab.rulebook.claims import load_claims


def candidates(game: str, line_section: str, numbers: str, claims) -> list[str]:
    section = "example" if line_section.startswith("example") else line_section
    said = set(numbers.split())
    rows = claims[(claims["section"] == section) & claims["printed"].isin(said)]
    return list(dict.fromkeys(coverage.row_key(r) for r in rows.itertuples()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=sorted(coverage.rulebooks()))
    ap.add_argument("--all", action="store_true", help="every line with a number, not only the unaccounted")
    args = ap.parse_args()
    table = coverage.coverage_table(registry.get(args.game))
    claims = load_claims(args.game)
    for r in table.itertuples():
        if r.status != "unaccounted" and not args.all:
            continue
        print(f"{r.line} [{r.section}] {r.status}: {r.text.strip()}")
        print(f"    numbers: {r.numbers}")
        if r.status == "unaccounted":
            print(f"    candidate rows: {'; '.join(candidates(args.game, r.section, r.numbers, claims)) or '-'}")
        else:
            print(f"    rows: {r.rows or '-'}  reason: {r.reason or '-'}")


if __name__ == "__main__":
    main()
