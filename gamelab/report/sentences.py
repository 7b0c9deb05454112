"""The report's section "Rulebook sentences to update" (issue 22): shown when
the report's rule parameters differ from the rulebook's.  The sentences are
computed with the report (:func:`gamelab.report.compute.rulebook_sentences`);
this only shows them."""

from __future__ import annotations

from gamelab.report import format as fmt
from gamelab.report.blocks import Block, Section
from gamelab.report.data import RulebookSentences


def sentences_section(part: RulebookSentences | None, game: str) -> Section | None:
    """The section of ``game``'s report, or None when there is nothing to update (``part`` None)."""
    if part is None:
        return None
    table, counts = part.table, part.counts
    blocks = [
        Block(
            "text",
            f"Under {part.changes}, {len(table)} rulebook sentences print a number the rules no longer give "
            f"({counts['rows'] - counts['rows_hold']} of {counts['rows']} rules-decided figures); "
            f"{counts['lines_hold']} of the {counts['lines']} rulebook lines these figures check still hold. "
            "Only the figures the rules decide are asked; the simulated appendices are not. "
            f"The command gamelab claims {game} --params FILE --rewrite FILE.md writes the list to work through.",
        )
    ]
    why = counts.get("why_none")
    if why:  # nothing to update: the reason, in the rulebook's sections and words
        blocks.append(Block("text", why[0].upper() + why[1:] + "."))
    if len(table):
        shown = table.assign(
            line=table["line"].map(lambda n: "" if n != n else str(int(n))),
            new=table["new"].map(lambda x: "no longer defined" if x != x else f"{x:g}"),
            quantity=table["quantity"].map(fmt.words),
        )[["section", "line", "sentence", "printed", "new", "quantity"]]
        blocks.append(Block("table", fmt.table_html(shown, css="wrap claims")))
    return Section("sentences", "Rulebook sentences to update", blocks)
