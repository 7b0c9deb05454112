"""A typical game behind the headline (issue 40): one game, replayed by ``gamelab show``'s
machinery (:func:`gamelab.sim.story.play_story`) and drawn as a viewer page
(:mod:`gamelab.report.viewer`), whose outcome is typical of the headline: the headline's top
group winning by about its median margin over the best other seat in the report's games.

The report's games are played many at a time (a chunk's deals in one batch), so one of them
is not a seed ``gamelab show`` can replay; the typical game is the first of the seeds 0, 1,
... (``gamelab show GAME --seed N``) whose margin is within a tolerance of the report's
median, among at most :data:`TRIES` seeds (else the closest of them): the page says which seed
it is, the median it matches and how to play it again."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from gamelab.core.contract import Game

TRIES = 100  # seeds tried at most (a story takes about 0.05-0.1 s)


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

    def why(self) -> str:
        """Why this game is typical, in words (the page's and the report's line)."""
        group = f"seat {self.group}" if self.by == "seat" else f"the {self.group} {self.by}"
        sits = "" if self.by == "seat" else f" (on seat {self.seat})"
        how = f"seed {self.seed} is the first seed this close" if self.close else f"the closest of {self.tried} seeds"
        return (
            f"seed {self.seed} ({self.command}): {group}{sits} wins by {self.margin:g} points over the best other "
            f"seat; in the {self.won:,} of the report's {self.players}-player games {group} won alone, its median "
            f"margin was {self.median:g} points ({how})"
        )


def margins(frame: pd.DataFrame, by: str, group, points: str = "score") -> np.ndarray:
    """The group's points minus the best other seat's, in each game where it sits once and wins alone."""
    inside = frame[by].astype(str).to_numpy() == str(group)
    df = pd.DataFrame({"game": frame["game"].to_numpy(), "inside": inside, "p": frame[points].to_numpy(float)})
    mine = df[df.inside].groupby("game")["p"].agg(["max", "size"])
    theirs = df[~df.inside].groupby("game")["p"].max()
    both = mine.index.intersection(theirs.index)
    mine = mine.loc[both]
    m = (mine["max"] - theirs.loc[both]).to_numpy()
    return m[(mine["size"].to_numpy() == 1) & (m > 0)]


def typical_game(game: Game, params, frame: pd.DataFrame, by: str, group, lineup, players: int, *, title: str = ""):
    """The typical game's :class:`Typical` (None: the group is neither a seat nor an agent to sit)."""
    from gamelab.report.viewer import page
    from gamelab.sim.story import play_story

    lineup = tuple(lineup)
    if by == "seat":
        seat = int(group)
    elif str(group) in game.playable:
        seat, lineup = 1, (str(group), *lineup[1:])
    else:
        return None
    won = margins(frame, by, group)
    if not len(won):
        return None
    median = float(np.median(won))
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
    t = Typical(
        players, by, str(group), seed, lineup, seat, margin, median, len(won), tried, close, "", command, params
    )
    story.title = f"{title or 'A typical game'}: {story.title}"
    story.about = f"{story.about}. Why this game: {t.why()}."
    return dataclasses.replace(t, page=page(story))


@dataclasses.dataclass(frozen=True)
class LeverGame:
    """The typical game's deal played again under the top lever's change: the page and its words."""

    words: str  # the change, in words ("hand size 5 → 4")
    seed: int
    margin: float  # the group's margin under the change (the typical game's: ``Typical.margin``)
    before: float
    subject: str
    command: str
    page: str

    def why(self) -> str:
        return (
            f"seed {self.seed} again, the same deal under {self.words}: {self.subject} "
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
    story = play_story(game, seed=typical.seed, params=params, lineup=list(typical.lineup))
    score = story.result["score"]
    margin = float(score[typical.seat - 1] - max(s for i, s in enumerate(score) if i != typical.seat - 1))
    group = f"seat {typical.group}" if typical.by == "seat" else f"the {typical.group} {typical.by}"
    out = LeverGame(words, typical.seed, margin, typical.margin, group, f"{typical.command} --params FILE", "")
    story.title = f"The typical game under {words}: {story.title}"
    story.about = f"{story.about}. Why this game: {out.why()}; FILE holds the change."
    return dataclasses.replace(out, page=page(story))
