"""The report's section "Skill and luck": the game's skill ladder, each level
against the level below, how much is luck, and the skill trace's levels head
to head (computed by :func:`gamelab.report.decisions.skill_data`), every
level named in the game's words."""

from __future__ import annotations

import pandas as pd

from gamelab.core.contract import Game
from gamelab.report import charts
from gamelab.report import format as fmt
from gamelab.report.blocks import Block, Section
from gamelab.report.data import SkillData


def level_words(game: Game, name: str) -> str:
    """A level of a ladder or trace in the game's words: a rung as the game says it
    (``GAME.skill.rung_words``: ``search, 8 play-outs per option`` for ``best@8``), any other
    agent as it declares (:func:`gamelab.core.labels.agent_label`)."""
    from gamelab.core.labels import agent_label
    from gamelab.models import skill_words

    said = skill_words.rung_words(game, name)
    return said if said != name else agent_label(game, name)


def matrix_table(t, game: Game) -> pd.DataFrame:
    """The head-to-head matrix: one seat of the row's level among the column's."""
    names = [r["level"] for r in t.rows]
    cell = {(c["row"], c["column"]): c for c in t.matrix}
    rows = []
    for hi in names[1:]:
        row = {"one seat of": level_words(game, hi)}
        for lo in names[:-1]:
            c = cell.get((hi, lo))
            row[f"among {level_words(game, lo)}"] = (
                "" if c is None else fmt.number(c["win_rate"], percent=True) + (" ✓" if c["beats"] else "")
            )
        rows.append(row)
    return pd.DataFrame(rows)


def skill_figure(sk: SkillData) -> str:
    """Each ladder level's win rate against the level below, as inline SVG."""
    return charts.svg(charts.skill_figure(sk.levels, title=f"{sk.players} players"))


def skill_section(sk: SkillData, game: Game) -> Section:
    """The skill ladder: each level against the level below, and how much is luck."""
    rows = []
    for lv in sk.levels:
        if lv["below"] is None:
            continue
        rows.append(
            {
                "agent": level_words(game, lv["agent"]),
                "against": f"{level_words(game, lv['below'])} on the other seats",
                "win rate": fmt.number(lv["win_rate_vs_below"], percent=True),
                "95 % interval": fmt.interval(lv["low"], lv["high"], percent=True),
                "fair share": fmt.number(lv["fair"], percent=True),
                "beats the level below": "yes" if lv["beats_below"] else "no",
                "games": f"{lv['games']:,}",
            }
        )
    luck = sk.luck
    text = (
        f"Luck: one {level_words(game, luck['weakest'])} seat among {level_words(game, luck['strongest'])} seats still "
        f"wins {fmt.number(luck['weakest_wins'], percent=True)} of {sk.players}-player games "
        f"({fmt.interval(luck['low'], luck['high'], percent=True)}; fair "
        f"{fmt.number(luck['fair'], percent=True)}), and the deal explains "
        f"{fmt.number(luck['deal_share'], percent=True)} of its score variance."
    )
    return Section(
        "skill",
        "Skill and luck",
        [
            Block(
                "text",
                f"The game's agents from weakest to strongest, {sk.players} players: one seat of each "
                "level against the level below on every other seat, every seat rotation of the same deals.",
            ),
            Block("table", fmt.table_html(pd.DataFrame(rows))),
            Block(
                "figure",
                skill_figure(sk),
                caption="Win rate of each level against the level below (95 % interval); "
                "the dashed line is the fair share.",
            ),
            Block("text", text),
            *(matrix_blocks(sk.trace, game) if sk.trace is not None else []),
            *(style_blocks(sk.trace) if sk.trace is not None and sk.trace.styles else []),
        ],
    )


def style_blocks(t) -> list:
    """Styles at skill by restricted play: each style's edge at the default
    model and at the top rung."""
    from gamelab.models import skill_words

    rows = [
        {
            "rung": skill_words.rung_words(t.game, r["rung"]),
            "style": fmt.choice_label(r["style"]),
            "win rate of one seat": fmt.number(r["win_rate"], percent=True),
            "95 % interval": fmt.interval(r["low"], r["high"], percent=True),
            "fair share": fmt.number(r["fair"], percent=True),
            "edge": {"above": "above fair", "below": "below fair", "neither": "not apart from fair"}[r["edge"]],
            "games": f"{r['games']:,}",
        }
        for r in t.styles
    ]
    return [
        Block(
            "text",
            "Styles at skill by restricted play (Jaffe et al. 2012): at a search rung, one seat of the rung's "
            "player restricted to the style's defining choice among unrestricted players of the rung; at the "
            "default model, one seat of the style among the style mix. " + skill_words.style_words(t.game, t.styles),
        ),
        Block("table", fmt.table_html(pd.DataFrame(rows))),
    ]


def matrix_blocks(t, game: Game) -> list:
    from gamelab.models import skill_words

    if not t.matrix:  # the decided ladder: each step's own test (the table above) is the figure
        return [Block("text", skill_words.steps_words(t))]
    return [
        Block(
            "text",
            f"The skill trace's levels head to head, {t.players} players: one seat of the row's level among "
            f"{t.players - 1} seats of the column's, every seat rotation of the same deals (win rate of that seat; "
            f"fair {100 / t.players:.1f} %; ✓: its 95 % interval lies above fair). " + skill_words.steps_words(t),
        ),
        Block("table", fmt.table_html(matrix_table(t, game))),
    ]
