"""Issue 42: a conformance failure is actionable. A reference with a planted fault (Pig's, forgetting
that a seat may hold once its turn total reaches 12, or misreading a state's roll count) fails with the
game, the seed, the game of the batch, the step, both sides, and a command that replays the case."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gamelab.sim import conformance

ROOT = Path(__file__).resolve().parent.parent

FAULTY = textwrap.dedent(
    """
    import dataclasses, os, types

    from gamelab.pig import reference as pig_ref
    from gamelab.pig.game import GAME as PIG
    from gamelab.pig.state import HOLD

    PART = os.environ.get("FAULTY_PART", "")

    def legal_mask(params, game):
        mask = list(pig_ref.legal_mask(params, game))
        if PART == "mask" and game.turn_total >= 12:
            mask[HOLD] = False  # the planted fault: no holding from 12 on
        return mask

    def observe(game):
        seen = pig_ref.observe(game)
        if PART == "state" and game.rolls == 7:
            seen["rolls"] = 70  # the planted fault: the seventh roll misread
        return seen

    reference = types.SimpleNamespace(
        play_random=pig_ref.play_random,
        start=pig_ref.start,
        advance=pig_ref.advance,
        legal_mask=legal_mask,
        observe=observe,
        result=pig_ref.result,
    )
    GAME = dataclasses.replace(PIG, name="faulty", reference=reference)
    """
)


@pytest.fixture
def faulty(tmp_path, monkeypatch):
    (tmp_path / "faulty.py").write_text(FAULTY)
    monkeypatch.syspath_prepend(str(tmp_path))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "GAMELAB_GAMES": f"{os.environ.get('GAMELAB_GAMES', '')},faulty",
    }

    def load(part: str):
        monkeypatch.setenv("FAULTY_PART", part)
        sys.modules.pop("faulty", None)
        import faulty as module

        return module.GAME, {**env, "FAULTY_PART": part}

    yield load
    sys.modules.pop("faulty", None)


def _failure(game) -> str:
    with pytest.raises(conformance.ConformanceError) as info:
        conformance.engine_equals_reference(game)
    return str(info.value)


def _replay(message: str, env) -> subprocess.CompletedProcess:
    command = re.search(r"^replay: (python -m gamelab\.sim\.conformance .*)$", message, re.M).group(1)
    argv = [sys.executable, *command.split()[1:]]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_a_mask_difference_names_the_case_shows_both_masks_and_replays(faulty):
    game, env = faulty("mask")
    message = _failure(game)
    head = re.match(
        r"faulty: the legal moves before step (\d+) of game (\d+) differ \(seed (\d+), (\d) players, "
        r"a batch of (\d+) games, the default rules\)",
        message,
    )
    assert head, message
    step, g = int(head.group(1)), int(head.group(2))
    lines = message.splitlines()
    assert lines[1] == "  engine:    11" and lines[2] == "  reference: 10", message  # roll and hold, side by side
    assert lines[3] == "  differ at action 1 (engine only)", message
    # the replay plays the same batch again: the same failure, after game g's states up to that step
    out = _replay(message, env)
    assert out.returncode == 1 and message in out.stdout, out.stdout + out.stderr
    traced = re.findall(r"^step (\d+): .*turn_total=(\d+)", out.stdout, re.M)
    assert [int(s) for s, _ in traced] == list(range(step))  # the set-up (0), then every step before the failure
    assert int(traced[-1][1]) >= 12  # the fault's condition holds in the last state shown, and in no earlier one
    assert all(int(t) < 12 or n == len(traced) - 1 for n, (_, t) in enumerate(traced)), out.stdout
    assert f"--game {g}" in message


def test_a_state_difference_shows_the_differing_field_and_the_unfaulted_case_replays_clean(faulty):
    game, env = faulty("state")
    message = _failure(game)
    assert re.match(r"faulty: the states after step \d+ of game \d+ differ \(seed \d+, ", message), message
    assert message.splitlines()[1] == "  rolls  engine 7 | reference 70", message  # only the field that differs
    out = _replay(message, env)
    assert out.returncode == 1 and message in out.stdout, out.stdout + out.stderr
    clean = _replay(message, {**env, "FAULTY_PART": ""})
    assert clean.returncode == 0 and "the engine equals the reference in all" in clean.stdout, clean.stdout
