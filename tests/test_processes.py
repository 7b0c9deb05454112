"""Local worker processes die with their parent, and Ctrl-C stops a run at
once keeping every finished chunk (subprocesses of the toy game)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process tables from /proc"),
    pytest.mark.slow(reason="subprocesses started, killed and interrupted, waiting on their workers to die"),
]

# A parent that keeps two workers busy for a long time (each chunk sleeps 5 s).
BUSY_PARENT = """
from gamelab.core import registry
from gamelab import runner
from gamelab.sim.executors import LocalExecutor, run_all
from gamelab.toy import ToyParams
toy = registry.get("toy")
chunks = runner.plan(toy, n_games=4000, seed=1, params=ToyParams(delay=5.0), n_players=2, chunk_deals=100)
run_all(LocalExecutor(2), runner.run_chunk, chunks, progress=False)
"""


def _env():
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a live process; None once it is gone or a zombie."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text.rsplit(")", 1)[1].split()[:2]
    return None if state in "ZX" else (state, int(ppid))


def _children(pid: int) -> list[int]:
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None and st[1] == pid:
                kids.append(int(entry.name))
    return kids


def _wait_for(condition, timeout: float, step: float = 0.05):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


def test_killed_parent_leaves_no_worker():
    parent = subprocess.Popen([sys.executable, "-c", BUSY_PARENT], env=_env(), cwd=ROOT)
    workers = []
    try:
        workers = _wait_for(lambda: (k := _children(parent.pid)) and len(k) >= 2 and k, 30)
        assert workers and len(workers) >= 2, f"the parent started no workers: {workers}"
        time.sleep(0.3)  # the workers are inside their 5 s chunks now
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        left = _wait_for(lambda: not [w for w in workers if _stat(w)], 5) or [w for w in workers if _stat(w)]
        assert left is True, f"workers still alive 5 s after their parent was killed: {left}"
    finally:
        if parent.poll() is None:
            parent.kill()
        for w in workers or []:
            if _stat(w):
                os.kill(w, signal.SIGKILL)


def test_ctrl_c_stops_at_once_and_keeps_finished_chunks(tmp_path):
    params = tmp_path / "slow.json"
    params.write_text(json.dumps({"delay": 0.25}))
    cache = tmp_path / "cache"
    # 24 chunks of 1024 deals x 2 rotations, 0.5 s each on 2 workers: about 6 s uninterrupted
    cmd = [
        sys.executable,
        "-m",
        "gamelab",
        "simulate",
        "toy",
        "--lineup",
        "strong",
        "weak",
        "--games",
        "49152",
        "--workers",
        "2",
        "--params",
        str(params),
        "--cache-dir",
        str(cache),
    ]
    env = _env()
    proc = subprocess.Popen(
        cmd, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert _wait_for(lambda: len(list(cache.rglob("*.json"))) >= 3, 30), "no chunk finished"
        workers = _children(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole process group
        t0 = time.time()
        _, err = proc.communicate(timeout=20)
        took = time.time() - t0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.strip() == "gamelab simulate: interrupted", err
    # the rest of the run is about 5 s of work: stopping well before it is "at once" (2.0 s was
    # too tight on a loaded 2-core machine: 2.03 s once in CI, the pool's shutdown under load)
    assert took < 3.0, f"Ctrl-C took {took:.1f} s to stop the run"
    assert _wait_for(lambda: not [w for w in workers if _stat(w)], 5) is True
    kept = len(list(cache.rglob("*.json")))
    assert 3 <= kept < 24
    # the run again: every chunk kept is read back, only the rest is played
    again = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert f"({24 - kept} chunks simulated, {kept} read from the cache)" in again.stdout, again.stdout + again.stderr


def test_a_stopped_pool_has_no_thread_left_for_the_exit_hook():
    """A caller that stops reading (or Ctrl-C) stops the pool, and its manager thread has ended when the stop
    returns. Left running, that thread closes its wake-up pipe while the interpreter's exit hook may be writing
    to it: a Ctrl-C in a clean clone's .ci/run once ended in "Exception ignored ... Bad file descriptor"."""
    from gamelab.sim.executors import LocalExecutor

    ex = LocalExecutor(2)
    run = ex.imap(time.sleep, [0.2] * 20)
    next(run)
    manager = ex._pool._executor_manager_thread
    assert manager.is_alive()
    run.close()
    assert ex._pool is None and not manager.is_alive()


# A caller that lets its executor go as it returns (as every command does just before the interpreter
# exits), with the race's window widened: the exit hook's wake-up of the pool's manager thread
# (concurrent.futures._python_exit, unlocked on CPython 3.11) waits 0.2 s between its "is the pipe
# closed?" check and its write.  Left to be collected, the pool's manager thread closes that pipe in the
# window, and the write fails ("handle is closed", or Errno 9 "Bad file descriptor" when the close lands
# inside the write): the error seen once at the end of "gamelab simulate --workers 2".
DROPPED_AT_EXIT = """
import time
import concurrent.futures.process as cfp

def wakeup_slowly(self):
    if not self._closed:
        time.sleep(0.2)
        self._writer.send_bytes(b"")

cfp._ThreadWakeup.wakeup = wakeup_slowly
from gamelab.sim.executors import LocalExecutor, run_all

def command():
    ex = LocalExecutor(2)
    print(sorted(run_all(ex, abs, [-1, -2, -3, -4], progress=False)))
    %s

command()
"""


@pytest.mark.parametrize("ending", ["pass", "ex.close()"], ids=["dropped", "closed"])
def test_an_executor_dropped_before_exit_leaves_no_pipe_to_the_exit_hook(ending):
    proc = subprocess.run(
        [sys.executable, "-c", DROPPED_AT_EXIT % ending],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "[1, 2, 3, 4]", proc.stdout + proc.stderr
    assert proc.stderr == "", proc.stderr  # no "Exception ignored ... OSError" from the exit hook
