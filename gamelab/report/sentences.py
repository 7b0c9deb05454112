"""The report's section "Rulebook sentences to update" (issue 22): shown when
the report's rule parameters differ from the rulebook's, from
:func:`gamelab.rulebook.sentences.changed_sentences`."""

from __future__ import annotations

from gamelab.report import format as fmt


def sentences_section(data):
    """The section, or None when the rules are the rulebook's (or the game has no rulebook text)."""
    from gamelab.report.blocks import Block, Section
    from gamelab.rulebook import coverage, sentences

    game = data.game.name
    if game not in coverage.rulebooks() or not coverage.seed_path(game).exists():
        return None
    rules = sentences.rules_of(data.game, data.params)
    if not rules.changed():
        return None
    table, counts = sentences.changed_sentences(data.game, rules)
    from gamelab.core.labels import changes_words

    said = changes_words(rules.changed())
    blocks = [
        Block(
            "text",
            f"Under {said}, {len(table)} rulebook sentences print a number the rules no longer give "
            f"({counts['rows'] - counts['rows_hold']} of {counts['rows']} rules-decided figures); "
            f"{counts['lines_hold']} of the {counts['lines']} rulebook lines these figures check still hold. "
            "Only the figures the rules decide are asked; the simulated appendices are not. "
            f"The command gamelab claims {game} --params FILE --rewrite FILE.md writes the list to work through.",
        )
    ]
    if len(table):
        shown = table.assign(
            line=table["line"].map(lambda n: "" if n != n else str(int(n))),
            new=table["new"].map(lambda x: "no longer defined" if x != x else f"{x:g}"),
            quantity=table["quantity"].map(fmt.words),
        )[["section", "line", "sentence", "printed", "new", "quantity"]]
        blocks.append(Block("table", fmt.table_html(shown, css="wrap claims")))
    return Section("sentences", "Rulebook sentences to update", blocks)
