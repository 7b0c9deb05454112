"""An agent at a budget, named once: ``best@8`` is the agent ``best`` with a
budget of 8 (play-outs per option in one game, play-out depth in another) on its own
seat, so that seats of different strength meet at one table.  The skill
ladder (``SkillSettings.search`` and ``budgets``) names its rungs so, and each
game accepts these names for every budget of :data:`BUDGETS`.
"""

from __future__ import annotations

BUDGETS = (1, 2, 4, 8, 16)  # the doubling schedule a game's search accepts (SkillSettings.budgets picks from it)
SEPARATOR = "@"


def at_budget(agent: str, budget: int) -> str:
    """``best@8``: ``agent`` at ``budget``."""
    return f"{agent}{SEPARATOR}{int(budget)}"


def split(name: str) -> tuple[str, int] | None:
    """(agent, budget) of a name ``agent@budget`` (``best@8``: ("best", 8)), else None."""
    agent, at, budget = str(name).partition(SEPARATOR)
    return (agent, int(budget)) if at and agent and budget.isdigit() else None


def budget_of(name: str) -> int | None:
    """The budget of ``agent@budget``, else None."""
    parts = split(name)
    return None if parts is None else parts[1]


def agent_of(name: str) -> str:
    """The agent of ``agent@budget`` (``best@8``: ``best``); a plain name as it is."""
    parts = split(name)
    return str(name) if parts is None else parts[0]


def named(agent: str, budgets=BUDGETS) -> tuple[str, ...]:
    """``agent`` at every budget of ``budgets``: ``("best@1", "best@2", ...)``."""
    return tuple(at_budget(agent, b) for b in budgets)


LEVEL = "level"  # a level-k search's agent: ``level2@16``, level 2 at a budget of 16


def at_level(k: int, budget: int) -> str:
    """``level2@16``: the level-``k`` search at ``budget`` (level k models every other seat as
    level k - 1; level 1 is the game's plain search)."""
    return at_budget(f"{LEVEL}{int(k)}", budget)


def level_of(name: str) -> tuple[int, int] | None:
    """(k, budget) of a level-k search agent's name (``level2@16``: (2, 16)), else None."""
    parts = split(name)
    if parts is None or not (parts[0].startswith(LEVEL) and parts[0][len(LEVEL) :].isdigit()):
        return None
    return int(parts[0][len(LEVEL) :]), parts[1]
