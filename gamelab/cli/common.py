"""What every ``gamelab`` command group shares: bounded argument types,
one-line errors, the executor the flags ask for, writing a table whole."""

from __future__ import annotations

import argparse
import sys

from gamelab.core.errors import GamelabError, short
from gamelab.core.files import MAX_BYTES, check_output, file_problem
from gamelab.core.limits import MAX_GAMES, MAX_TRIALS


def write_table(df, out) -> str:
    """Write a table whole (a temporary file renamed: never half a file)."""
    import os
    from pathlib import Path

    path = check_output(out, (".csv", ".parquet"), "--out")
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        if path.suffix == ".parquet":
            df.to_parquet(tmp, index=False)
        else:
            df.to_csv(tmp, index=False)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise GamelabError(f"--out {out}: cannot write the file ({exc.strerror or exc})") from None
    return str(path)


#: the executors made for the running command, closed when it ends (:func:`close_executors`)
OPENED: list = []


def executor_for(workers: int | None, scheduler: str | None):
    """The executor the flags ask for; a Dask scheduler that cannot be
    reached is a one-line error naming it."""
    from gamelab.sim.executors import make_executor

    try:
        executor = make_executor(workers or 1, scheduler=scheduler)
    except (OSError, ValueError, TimeoutError) as exc:
        raise GamelabError(f"--scheduler {short(scheduler)}: cannot connect ({one_line(str(exc))[:200]})") from None
    OPENED.append(executor)
    return executor


def close_executors() -> None:
    """Close the executors the command made (its local workers end, its Dask client disconnects)."""
    while OPENED:
        close = getattr(OPENED.pop(), "close", None)
        if close is not None:
            close()


def add_where(p, workers_help: str = "processes playing games (default 1)") -> None:
    """``--workers N`` or ``--scheduler tcp://HOST:PORT`` (not both): where a command's games are played.

    Both default to None, not 1: argparse sees a conflict only for a value that is not the default
    object itself, and ``--workers 1`` is that object (small ints are shared); None is read as 1."""
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=WORKERS, default=None, help=workers_help)
    where.add_argument(
        "--scheduler",
        type=scheduler_address,
        default=None,
        metavar="tcp://HOST:PORT",
        help="a Dask scheduler (the same tables as a local run)",
    )


def run_config(args, **kw):
    """The :class:`~gamelab.sim.run.RunConfig` of a command with :func:`add_where`'s flags (``kw``:
    its other fields, e.g. ``progress``, ``store``): local processes or the Dask scheduler asked for."""
    from gamelab.sim.run import RunConfig

    workers = getattr(args, "workers", None) or 1
    return RunConfig(executor=executor_for(workers, getattr(args, "scheduler", None)), workers=workers, **kw)


def add_out(p, *suffixes: str, metavar: str, help: str) -> None:
    """An output file ``--out`` ending in one of ``suffixes`` (default None)."""
    p.add_argument("--out", type=output_file(*suffixes), default=None, metavar=metavar, help=help)


def add_profile(p, help: str = "player-model profile (model knobs, under --params)", **kw) -> None:
    """A player-model profile file ``--profile`` (``kw``: e.g. ``action="append"``)."""
    p.add_argument("--profile", type=INPUT_FILE, default=None, metavar="FILE", help=help, **kw)


MAX_MESSAGE = 400  # characters of an error line


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on stderr (exit 2), not a usage block."""

    def error(self, message: str):
        print(f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


def one_line(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def bounded(kind, low=None, high=None, what=""):
    def parse(text: str):
        if not text.isascii():  # int("٣") is 3 and float("３") is 3.0: only the digits 0-9 are read as numbers
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {what or kind.__name__} in ASCII digits (0-9)")
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not {what or kind.__name__}") from None
        if isinstance(value, float) and value != value:
            raise argparse.ArgumentTypeError("NaN is not a number gamelab accepts")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{text} is out of range: expected {what or kind.__name__} {bounds}")
        return value

    return parse


GAMES_ARG = bounded(int, 1, MAX_GAMES, "a whole number")
TRIALS_ARG = bounded(int, 1, MAX_TRIALS, "a whole number")
SEED = bounded(int, 0, 2**63 - 1, "a whole number")
WORKERS = bounded(int, 1, 256, "a whole number")
PLAYERS = bounded(int, 1, 64, "a whole number")
PRECISION = bounded(float, 1e-4, 0.5, "a number")


class InputFile:
    """The argparse type of every input-file argument (``--params``, ``--profile``,
    ``--playtest``, a goal, a grid, a record): checked by ``stat`` as the command line
    is read, before anything is opened (:func:`gamelab.core.files.file_problem`: a
    regular file of at most ``limit`` bytes; a device, a FIFO, a folder, a socket, an
    empty path or a missing file is one line naming the argument); the file is then
    read by :func:`gamelab.core.files.read_bounded`, which checks again on the open
    file and reads at most :data:`~gamelab.core.files.MAX_BYTES`.  ``words``: values
    that are not files (``calibrate --target published``)."""

    def __init__(self, limit: int = MAX_BYTES, words: tuple[str, ...] = ()):
        self.limit = limit
        self.words = words

    def __call__(self, text: str) -> str:
        if text in self.words:
            return text
        problem = file_problem(text, self.limit)
        if problem is not None:
            raise argparse.ArgumentTypeError(f"{short(text)}: {problem}")
        return text

    def __repr__(self) -> str:  # argparse names the type in some messages
        return "file"


INPUT_FILE = InputFile()


def output_file(*suffixes: str):
    """The argparse type of an output file (``--out``, ``--chart``, ``--rewrite``): a
    non-empty name ending in one of ``suffixes``; that its folder can be written is
    checked by :func:`gamelab.core.files.check_output` before any game."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError("an empty name names no file")
        if not text.lower().endswith(suffixes):
            raise argparse.ArgumentTypeError(f"{short(text)}: expected a file name ending in {' or '.join(suffixes)}")
        return text

    return parse


def folder_arg(text: str) -> str:
    """The argparse type of a folder argument (``--runs-dir``, ``--cache-dir``, tune's
    ``--out``): a non-empty name; that it exists or can be made, and written, is
    :func:`gamelab.core.files.check_directory`'s, before any game."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name names no folder")
    return text


MAX_LABEL = 200  # characters of a report's --label (its title)


def label_text(text: str) -> str:
    """A report title: at most :data:`MAX_LABEL` characters, one line, printable."""
    if len(text) > MAX_LABEL:
        raise argparse.ArgumentTypeError(f"a label of {len(text):,} characters: at most {MAX_LABEL}")
    if not text.isprintable():
        raise argparse.ArgumentTypeError(f"{short(text)}: a label is one line of printable characters")
    return text


def distinct(values: list, flag: str, what: str) -> list:
    """``values`` when none is given twice, else a one-line error naming the repeated one."""
    seen: set = set()
    for v in values:
        if v in seen:
            raise GamelabError(f"{flag}: {short(v)} is given twice; name each {what} once")
        seen.add(v)
    return values


def scheduler_address(text: str) -> str:
    """A Dask scheduler address: tcp://HOST:PORT (or tls://, inproc://)."""
    import re

    if not re.fullmatch(r"(tcp|tls|inproc|ucx|ws|wss)://\S+", text):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a scheduler address: expected tcp://HOST:PORT")
    return text


def words_table(df) -> str:
    """A table as plain text in a designer's words: headers and text cells
    with code names in words, yes/no for flags, no ``NaN`` (an empty cell),
    numbers to four significant figures with a real minus sign."""
    import math

    from gamelab.core.labels import doc_words

    def cell(x) -> str:
        if isinstance(x, bool) or type(x).__name__ == "bool_":
            return "yes" if x else "no"
        if isinstance(x, (int, float)) or type(x).__module__ == "numpy":
            x = float(x)
            return "" if math.isnan(x) else f"{x:.4g}".replace("-", "−")
        return "" if x is None else doc_words(str(x))

    shown = df.map(cell).rename(columns=lambda c: doc_words(str(c).replace("_", " ")))
    return shown.to_string(index=False)
