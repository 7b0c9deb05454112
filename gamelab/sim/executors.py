"""Where chunks run: in this process, in local worker processes, or on a Dask
cluster.  Every executor yields ``(index, result)`` pairs as chunks finish;
results are placed by index, so the order of completion never changes a table.

A chunk whose worker dies is retried (``retries`` times); one that keeps
failing raises :class:`ChunkFailed` naming the chunk and its seed, so it can be
reproduced alone with :func:`gamelab.sim.runner.run_chunk`.

Local workers die with their parent: on Linux each asks the kernel for
SIGKILL when its parent dies (``prctl(PR_SET_PDEATHSIG)``), and on every
system a watchdog thread in each worker exits it within
:data:`WATCHDOG_SECONDS` once its parent process is gone.  Workers ignore
SIGINT: Ctrl-C reaches the parent, which stops its pool at once (queued
chunks cancelled, running ones killed); every chunk finished before was
already handed to the caller, who stores it as it arrives.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool

from gamelab.core.errors import GamelabError


class ChunkFailed(GamelabError):
    def __init__(self, item, exc):
        seed = getattr(item, "seed", None)
        index = getattr(item, "index", None)
        super().__init__(
            f"chunk {index} (seed {seed}, spawn_key ({index},)) failed repeatedly: {type(exc).__name__}: {exc}"
        )
        self.item = item


class InlineExecutor:
    """Runs chunks one after another in this process."""

    shares_disk = True

    def imap(self, fn: Callable, items: Sequence) -> Iterator[tuple[int, object]]:
        for i, item in enumerate(items):
            yield i, fn(item)


WATCHDOG_SECONDS = 0.5  # how often a worker looks for its parent
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def worker_init(parent_pid: int) -> None:
    """Run first in every local worker: die with the parent, leave Ctrl-C to it.

    PR_SET_PDEATHSIG fires when the *thread* that started the worker ends;
    a :class:`LocalExecutor` keeps its pool only for calls from the thread
    that started it, so that thread outlives its workers.  The watchdog covers systems without
    prctl (it notices within :data:`WATCHDOG_SECONDS`).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no prctl in this libc: the watchdog alone
            pass
    if os.getppid() != parent_pid and not _alive(parent_pid):  # the parent died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watchdog, args=(os.getppid(),), name="gamelab-parent-watchdog", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _watchdog(parent_pid: int) -> None:
    """Exit this worker once its parent is gone (it is then re-parented)."""
    while os.getppid() == parent_pid:
        time.sleep(WATCHDOG_SECONDS)
    os._exit(1)


def stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Shut ``pool`` down without waiting: queued chunks are cancelled and
    running ones killed (Ctrl-C, a failed chunk, a caller that stopped reading)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.kill()
    for p in processes:
        p.join(timeout=5)
    # The pool's manager thread closes its wake-up pipe once it sees the workers gone; left running, it can
    # do so while the interpreter's exit hook writes to that pipe (CPython 3.11), and Ctrl-C then ends in
    # "Exception ignored ... Bad file descriptor" (a clean clone's .ci/run, 2026-12-02).  Joined here, the
    # hook finds the pipe closed.
    if manager is not None:
        manager.join(timeout=5)


def _stop_kept(kept: list) -> None:
    """Stop the pool in ``kept`` (a :class:`LocalExecutor`'s, as it is collected)."""
    if kept[0] is not None:
        stop_pool(kept[0])
        kept[0] = None


class LocalExecutor:
    """Local worker processes, started on the first chunk and kept for the
    next calls from the same thread (a report's many small runs would
    otherwise pay the workers' start-up, imports and compiled code, each
    time); a pool broken by a killed worker is rebuilt and its unfinished
    chunks are run again.  Ctrl-C or a failed chunk stops the pool at once
    (the next call starts another)."""

    shares_disk = True  # the workers write finished chunks to the caller's store themselves

    def __init__(self, workers: int, retries: int = 2):
        self.workers, self.retries = workers, retries
        self._kept: list[cf.ProcessPoolExecutor | None] = [None]  # the kept pool (a list: the finalizer holds it)
        self._thread: int | None = None  # the thread that started the pool (PR_SET_PDEATHSIG follows it)
        # Dropped without close(), an executor stops its pool at once and waits for the pool's manager
        # thread (_stop_kept), rather than leave the pool to be collected: a collected pool's manager thread
        # closes its wake-up pipe on its own while the interpreter's exit hook may write to that pipe
        # unlocked (CPython 3.11's concurrent.futures._python_exit), which ends a command in "OSError:
        # [Errno 9] Bad file descriptor" (or "handle is closed") once in a while: a command's executor is
        # dropped as the command returns, just before the interpreter exits.
        weakref.finalize(self, _stop_kept, self._kept).atexit = False

    @property
    def _pool(self) -> cf.ProcessPoolExecutor | None:
        return self._kept[0]

    @_pool.setter
    def _pool(self, pool: cf.ProcessPoolExecutor | None) -> None:
        self._kept[0] = pool

    def _live_pool(self) -> cf.ProcessPoolExecutor:
        """The kept pool, or a new one when there is none, it broke, or another thread started it."""
        pool, here = self._pool, threading.get_ident()
        if pool is not None and (getattr(pool, "_broken", False) or self._thread != here):
            self._drop()  # never wait on it: its starting thread may have ended, and its workers with it
            pool = None
        if pool is None:
            pool = cf.ProcessPoolExecutor(max_workers=self.workers, initializer=worker_init, initargs=(os.getpid(),))
            self._pool, self._thread = pool, here
        return pool

    def _drop(self) -> None:
        """Stop the kept pool at once (queued chunks cancelled, running ones killed)."""
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None

    def close(self) -> None:
        """End the kept workers (between calls they are idle; they also end with this process)."""
        self._drop()

    def imap(self, fn, items):
        pending = dict(enumerate(items))
        attempts = {i: 0 for i in pending}
        while pending:
            pool = self._live_pool()
            try:
                futures = {pool.submit(fn, item): i for i, item in pending.items()}
                for fut in cf.as_completed(futures):
                    i = futures[fut]
                    result = fut.result()
                    del pending[i]
                    yield i, result
            except BrokenProcessPool as exc:
                self._drop()
                for i in pending:
                    attempts[i] += 1
                    if attempts[i] > self.retries:
                        raise ChunkFailed(pending[i], exc) from None
            except BaseException:  # KeyboardInterrupt, a failing chunk, GeneratorExit
                self._drop()
                raise


class DaskExecutor:
    """Chunks as tasks on a ``dask.distributed.Client``; a task lost with its
    worker is retried by Dask up to ``retries`` times."""

    shares_disk = False  # a cluster's workers may not see the caller's disk: the caller stores chunks

    def __init__(self, client, retries: int = 3):
        self.client, self.retries = client, retries

    def close(self) -> None:
        """Disconnect from the scheduler (the cluster and its workers stay)."""
        self.client.close()

    def imap(self, fn, items):
        from dask.distributed import as_completed

        futures = [self.client.submit(fn, item, pure=False, retries=self.retries) for item in items]
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for fut in as_completed(futures):
                i = index[fut.key]
                try:
                    result = fut.result()
                except Exception as exc:  # the task failed more often than its retries allow
                    raise ChunkFailed(items[i], exc) from None
                fut.release()
                yield i, result
        except BaseException:  # a failed chunk, Ctrl-C, a caller that stopped reading: free the cluster
            for f in futures:
                f.cancel()
            raise


SCHEDULER_TIMEOUT = 5.0  # seconds to reach a Dask scheduler before saying it cannot be reached


def check_scheduler(address: str, timeout: float = SCHEDULER_TIMEOUT) -> None:
    """A ``tcp://HOST:PORT`` scheduler that accepts a connection within ``timeout`` seconds, else a
    one-line :class:`GamelabError` naming it (a refused port says so at once, an address that does not
    answer after ``timeout``; Dask's own wait is 30 s).  Other schemes are left to Dask's handshake,
    itself bounded by ``timeout``."""
    import socket
    from urllib.parse import urlsplit

    if not address.startswith(("tcp://", "tls://")):
        return
    try:
        parts = urlsplit(address)
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise GamelabError(f"--scheduler {address[:80]}: not an address ({exc})") from None
    if not host or port is None:
        raise GamelabError(f"--scheduler {address[:80]}: expected tcp://HOST:PORT")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except TimeoutError:
        raise GamelabError(f"--scheduler {address[:80]}: no answer within {timeout:g} s") from None
    except OSError as exc:
        raise GamelabError(f"--scheduler {address[:80]}: cannot connect ({exc.strerror or exc})") from None


def make_executor(workers: int = 1, scheduler: str | None = None):
    if scheduler:
        try:
            from dask.distributed import Client
        except ImportError:
            raise GamelabError("a Dask scheduler needs the dask extra: pip install 'gamelab[dask]'") from None
        check_scheduler(scheduler)
        return DaskExecutor(Client(scheduler, timeout=SCHEDULER_TIMEOUT))
    return InlineExecutor() if workers <= 1 else LocalExecutor(workers)


LINE_EVERY = 5.0  # seconds between progress lines when the output is not a terminal
#: the command line sets this: work asked with ``progress=None`` then prints a
#: line every few seconds when stderr is not a terminal (a log, a file)
LINES_OFF_TERMINAL = False
#: what a progress line starts with when its work has no name of its own (the command line: the command
#: and its game, so that two commands writing to one log are told apart)
LINE_LABEL = "progress"


class LineProgress:
    """tqdm's ``update`` / ``set_postfix_str`` as one line on stderr every
    :data:`LINE_EVERY` seconds (a log or a file, where a bar would be noise)."""

    def __init__(self, total: int, unit: str, desc: str = "", initial: int = 0):
        import time

        self.total, self.unit, self.desc, self.n, self.postfix = total, unit, desc or LINE_LABEL, initial, ""
        self.clock = time.monotonic
        self.start = self.last = self.clock()

    def update(self, k: int = 1) -> None:
        self.n += k
        now = self.clock()
        if now - self.last >= LINE_EVERY:
            self.last = now
            self.line(now)

    def set_postfix_str(self, text: str) -> None:
        self.postfix = text

    def line(self, now: float) -> None:
        import sys

        extra = f", {self.postfix}" if self.postfix else ""
        print(
            f"{self.desc}: {self.n:,} of {self.total:,} {self.unit}s after {now - self.start:.0f} s{extra}",
            file=sys.stderr,
            flush=True,
        )

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None


def _in_a_kernel() -> bool:
    """Running in a Jupyter kernel (a notebook): IPython's shell there has a ``kernel``.  Not merely
    ``ipykernel`` imported, as a process that ran a notebook's kernel client has it too."""
    import sys

    shell = sys.modules["IPython"].get_ipython() if "IPython" in sys.modules else None
    return shell is not None and hasattr(shell, "kernel")


def progress_bar(*, total: int, unit: str, progress: bool | None, desc: str = "", initial: int = 0):
    """A progress display: ``progress`` None a bar only on a terminal, False
    none, True a bar on a terminal or in a notebook (tqdm.auto draws a widget)
    and a line every few seconds elsewhere (:class:`LineProgress`)."""
    import sys

    from tqdm.auto import tqdm

    lines = progress or (progress is None and LINES_OFF_TERMINAL)
    if lines and not sys.stderr.isatty() and not _in_a_kernel():
        return LineProgress(total, unit, desc, initial)
    disable = None if progress is None else not progress
    return tqdm(total=total, initial=initial, unit=unit, desc=desc or None, delay=1.0, disable=disable, leave=False)


def run_all(
    executor,
    fn: Callable,
    items: Sequence,
    *,
    progress: bool | None = None,
    weights: Iterable[int] | None = None,
    unit: str = "chunk",
    on_result: Callable[[int, object], None] | None = None,
) -> list:
    """Run ``fn`` over ``items``; the results in item order.  A tqdm bar
    (notebook-aware) appears for runs longer than a second unless
    ``progress`` is False."""
    weights = list(weights) if weights is not None else [1] * len(items)
    results: list = [None] * len(items)
    with progress_bar(total=sum(weights), unit=unit, progress=progress) as bar:
        for i, result in executor.imap(fn, items):
            results[i] = result
            if on_result is not None:
                on_result(i, result)
            bar.update(weights[i])
    return results
