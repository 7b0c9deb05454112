"""Progress of a report's phases: a phase that runs longer than a second
says so on stderr (its name after one second, its time when it ends), so a
long ``gamelab report`` never sits silent; a quick phase prints nothing."""

from __future__ import annotations

import contextlib
import sys
import threading
import time

SHOW_AFTER_S = 1.0


def enabled(progress: bool | None) -> bool:
    """``progress`` None: on a terminal, and in a log the command line writes (as the chunk
    progress, :data:`gamelab.sim.executors.LINES_OFF_TERMINAL`)."""
    from gamelab.sim import executors

    return (sys.stderr.isatty() or executors.LINES_OFF_TERMINAL) if progress is None else bool(progress)


@contextlib.contextmanager
def phase(label: str, progress: bool | None = None):
    """``with phase("top levers"): ...``: ``label …`` on stderr once the
    phase has run a second, ``label: 3.2 s`` when it ends (if it was shown)."""
    if not enabled(progress):
        yield
        return
    start = time.perf_counter()
    shown = threading.Event()

    def show():
        shown.set()
        print(f"  {label} …", file=sys.stderr, flush=True)

    timer = threading.Timer(SHOW_AFTER_S, show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if shown.is_set():
            print(f"  {label}: {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
