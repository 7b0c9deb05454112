"""The search agents keep the rules' seat symmetry (issue 38): plain search, search
restricted to a style and level-2 search at budget 1, on every seat at 3 players, each
decided by the sequential test (a file of its own: minutes of play, so the suite's
processes share it out)."""

import pytest

from gamelab.core import registry
from gamelab.decide import symmetry as checks
from gamelab.sim.run import RunConfig
from gamelab.sim.store import ChunkStore

STRAND = registry.get("strand")


@pytest.mark.slow(reason="about 30-60 s each at budget 1: every seat searches")
@pytest.mark.parametrize("agent", ["best@1", "heavy@1", "level2@1"])
def test_every_search_family_keeps_the_seat_symmetry(agent, tmp_path):
    assert agent in STRAND.symmetry.agents
    run = RunConfig(store=ChunkStore(tmp_path / "cache"), progress=False)
    verdicts = checks.check_symmetry(STRAND, agents_=[agent], variants=["standard"], players=[3], run=run, seed=1)
    assert [v.decision for v in verdicts] == ["yes"]
