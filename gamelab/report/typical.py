"""A typical game behind the headline (issue 40): one game, replayed by ``gamelab show``'s
machinery (:func:`gamelab.sim.story.play_story`) and drawn as a viewer page
(:mod:`gamelab.report.viewer`), whose outcome is typical of the headline: the headline's top
group winning by about its median margin over the best other seat in the report's games.

First the report's own games closest to that median are replayed on the run's deal
(:func:`gamelab.sim.story.run_deal`) and one is kept when the replay ends with the run's scores
(agents that draw no random numbers, deals drawn as the engine's chance).  Else the first of the
seeds 0, 1, ... (``gamelab show GAME --seed N``) whose margin is within a tolerance of the median,
among at most :data:`TRIES` seeds (else the closest of them).  The page says which game it is, the
median it matches and how to play it again."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from gamelab.core.contract import Game
from gamelab.report import format as fmt

TRIES = 100  # seeds tried at most (a story takes about 0.05-0.1 s)
RUN_TRIES = range(5)  # the report's own games tried first: the closest to the median margin


@dataclasses.dataclass(frozen=True)
class Typical:
    """The typical game: its seed and lineup, its margin against the report's median, the page."""

    players: int
    by: str
    group: str
    seed: int
    lineup: tuple[str, ...]
    seat: int  # the group's seat in the typical game (1-based)
    margin: float  # the group's points minus the best other seat's, in this game
    median: float  # the median of the same in the report's games the group won
    won: int  # the report's games the group won alone
    tried: int
    close: bool  # within the tolerance of the median (else: the closest of the seeds tried)
    page: str  # the viewer page (HTML)
    command: str  # the ``gamelab show`` command that plays it again
    params: object = None  # the rules it is played under (the report's, or a lever's change)
    story: object = None  # while it is being chosen: the story drawn into ``page``
    deal: tuple | None = None  # a game of the report's run: (seed, chunk, deals in the chunk, deal), else None

    def label(self) -> str:
        """``seed 14`` (a ``gamelab show`` seed) or ``game 30000123 of the report's run``."""
        return self.command.split(" (")[0] if self.deal is not None else f"seed {self.seed}"

    def subject(self) -> str:
        """``seat 1``, ``the node grabber style``: the headline group in words."""
        return f"seat {self.group}" if self.by == "seat" else f"the {fmt.group_label(self.by, self.group)} {self.by}"

    def why(self, command: bool = True) -> str:
        """Why this game is typical, in words (the page's and the report's line; ``command``: with
        the ``gamelab show`` command that plays a seed again, else the report shows it on a line of its own)."""
        group = self.subject()
        sits = "" if self.by == "seat" else f" (on seat {self.seat})"
        how = f"seed {self.seed} is the first seed this close" if self.close else f"the closest of {self.tried} seeds"
        if self.deal is not None:
            return (
                f"{self.command}: {group}{sits} wins by {self.margin:g} points over the best other seat, about its "
                f"median margin of {self.median:g} points in the {self.won:,} of the report's {self.players}-player "
                f"games {group} won alone"
            )
        copy = f" ({self.command})" if command else ""
        return (
            f"seed {self.seed}{copy}: {group}{sits} wins by {self.margin:g} points over the best other "
            f"seat; in the {self.won:,} of the report's {self.players}-player games {group} won alone, its median "
            f"margin was {self.median:g} points ({how})"
        )


def margins(frame: pd.DataFrame, by: str, group, points: str = "score") -> pd.Series:
    """The group's points minus the best other seat's, by game, in the games where it sits once and wins alone."""
    inside = frame[by].astype(str).to_numpy() == str(group)
    df = pd.DataFrame({"game": frame["game"].to_numpy(), "inside": inside, "p": frame[points].to_numpy(float)})
    mine = df[df.inside].groupby("game")["p"].agg(["max", "size"])
    theirs = df[~df.inside].groupby("game")["p"].max()
    both = mine.index.intersection(theirs.index)
    mine = mine.loc[both]
    m = mine["max"] - theirs.loc[both]
    return m[(mine["size"] == 1) & (m > 0)]


def from_the_run(game: Game, params, frame: pd.DataFrame, won: pd.Series, median: float, seed: int, tries: int = 5):
    """``(story, game id, seat, lineup)`` of one of the report's own games the group won by about its median
    margin, replayed (:func:`gamelab.sim.story.play_story` on the run's deal,
    :func:`gamelab.sim.story.run_deal`) and the same scores as the run's row; None when none of the
    ``tries`` closest replays gives the run's scores (agents that draw random numbers, deals drawn apart
    from the engine's chance)."""
    from gamelab.core.errors import GamelabError
    from gamelab.sim.story import play_story, run_deal

    closest = (won - median).abs().sort_values(kind="stable").index[: len(RUN_TRIES[:tries])]
    for gid in closest:
        rows = frame[frame["game"] == gid].sort_values("seat")
        deal = int(rows["deal"].iloc[0])
        chunk, index = divmod(deal, 10**7)  # the runner's deal numbers: chunk x 10^7 + the deal in the chunk
        n_deals = int(frame.loc[frame["deal"] // 10**7 == chunk, "deal"].nunique())
        lineup = [str(a) for a in rows["agent"]]
        try:
            chance = run_deal(game, params, len(lineup), seed, chunk, n_deals, index)
            story = play_story(game, params=params, lineup=lineup, chance=chance)
        except (GamelabError, TypeError, ValueError, AttributeError):
            return None
        if [float(x) for x in story.result["score"]] == [float(x) for x in rows["score"]]:
            return story, int(gid), rows, lineup
    return None


def typical_game(
    game: Game, params, frame: pd.DataFrame, by: str, group, lineup, players: int, *, seed: int = 0, title: str = ""
):
    """The typical game's :class:`Typical` (None: the group never won alone, or is neither a seat nor
    an agent to sit): one of the report's own games replayed when the replay gives its scores
    (:func:`from_the_run`), else the first ``gamelab show`` seed as close to the median margin."""
    from gamelab.report.viewer import page

    won = margins(frame, by, group)
    if not len(won):
        return None
    median = float(np.median(won.to_numpy()))
    found = from_the_run(game, params, frame, won, median, seed)
    if found is not None:
        story, gid, rows, seats = found
        seat = int(rows.loc[rows[by].astype(str) == str(group), "seat"].iloc[0])
        deal = int(rows["deal"].iloc[0])
        where = f"game {gid} of the report's run (seed {seed}: chunk {deal // 10**7}, deal {deal % 10**7}"
        where += f", seat rotation {int(rows['rotation'].iloc[0])}), replayed with the run's scores"
        coords = (
            seed,
            deal // 10**7,
            int(frame.loc[frame["deal"] // 10**7 == deal // 10**7, "deal"].nunique()),
            deal % 10**7,
        )
        t = Typical(
            players,
            by,
            str(group),
            -1,
            tuple(seats),
            seat,
            float(won[gid]),
            median,
            len(won),
            1,
            True,
            "",
            where,
            params,
            deal=coords,
        )
    else:
        t = by_seed(game, params, by, group, tuple(lineup), players, median, len(won))
        if t is None:
            return None
        story = t.story
    story.title = f"{title or 'A typical game'}: {story.title}"
    story.about = f"{story.about}. Why this game: {t.why()}."
    return dataclasses.replace(t, page=page(story), story=None)


def by_seed(game: Game, params, by: str, group, lineup: tuple, players: int, median: float, won: int):
    """The first ``gamelab show`` seed whose margin is within a point (or a tenth) of ``median`` (of
    :data:`TRIES`; else the closest), with its story (``Typical.story``)."""
    from gamelab.sim.story import play_story

    if by == "seat":
        seat = int(group)
    elif str(group) in game.playable:
        seat, lineup = 1, (str(group), *lineup[1:])
    else:
        return None
    tolerance = max(1.0, 0.1 * abs(median))
    best, tried, close = None, 0, False
    for seed in range(TRIES):
        tried += 1
        story = play_story(game, seed=seed, params=params, lineup=list(lineup))
        score = story.result["score"]
        others = [s for i, s in enumerate(score) if i != seat - 1]
        margin = float(score[seat - 1] - max(others))
        if best is None or abs(margin - median) < abs(best[1] - median):
            best = (seed, margin, story)
        if abs(margin - median) <= tolerance:
            close = True
            break
    assert best is not None
    seed, margin, story = best
    command = f"gamelab show {game.name} --seed {seed} --lineup {' '.join(lineup)}"
    return Typical(
        players, by, str(group), seed, lineup, seat, margin, median, won, tried, close, "", command, params, story
    )


@dataclasses.dataclass(frozen=True)
class LeverGame:
    """The typical game's deal played again under the top lever's change: the page and its words."""

    words: str  # the change, in words ("hand size 5 → 4")
    seed: str  # which game: ``seed 14``, ``game 123 of the report's run``
    margin: float  # the group's margin under the change (the typical game's: ``Typical.margin``)
    before: float
    subject: str
    command: str
    page: str

    def why(self) -> str:
        return (
            f"{self.seed} again, the same deal under {self.words}: {self.subject} "
            f"{'wins' if self.margin > 0 else 'does not win'} ({signed(self.margin)} points against the best other "
            f"seat, {signed(self.before)} under the report's rules)"
        )


def signed(x: float) -> str:
    """``+12`` or ``−14`` (a real minus sign)."""
    return f"{x:+g}".replace("-", "−")


def step_params(game: Game, base, words: str):
    """The rules of the lever step called ``words`` (:func:`gamelab.decide.sensitivity.settings`), or None."""
    from gamelab.core.labels import change_words
    from gamelab.decide.sensitivity import old_value, settings

    found, _ = settings(game, base)
    for step, params in found:
        if change_words(step.parameter, old_value(base, step), step.value) == words:
            return params
    return None


def lever_game(game: Game, typical: Typical, words: str) -> LeverGame | None:
    """The typical game's seed and lineup under the lever step ``words`` (None: no such step)."""
    from gamelab.report.viewer import page
    from gamelab.sim.story import play_story

    params = step_params(game, typical.params, words)
    if params is None:
        return None
    if typical.deal is not None:  # the run's deal, drawn under the changed rules from the same streams
        from gamelab.sim.story import run_deal

        seed, chunk, n_deals, deal = typical.deal
        chance = run_deal(game, params, len(typical.lineup), seed, chunk, n_deals, deal)
        story = play_story(game, params=params, lineup=list(typical.lineup), chance=chance)
    else:
        story = play_story(game, seed=typical.seed, params=params, lineup=list(typical.lineup))
    score = story.result["score"]
    margin = float(score[typical.seat - 1] - max(s for i, s in enumerate(score) if i != typical.seat - 1))
    group = typical.subject()
    again = typical.label()
    command = "" if typical.deal is not None else f"{typical.command} --params FILE"
    out = LeverGame(words, again, margin, typical.margin, group, command, "")
    story.title = f"The typical game under {words}: {story.title}"
    story.about = f"{story.about}. Why this game: {out.why()}."
    return dataclasses.replace(out, page=page(story))
