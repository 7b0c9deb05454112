"""Bad input refused in one line before any work (issue 41): every command's file arguments (found
from the parsers, so a new one is covered) refuse a device, a FIFO, a folder, a socket, an empty
path and a missing file by ``stat`` before anything is opened; the reader itself reads at most its
bound and never blocks; and each class of bad argument (a bound out of the metric's range, another
game's file, a metric that does not exist, a player count twice or in other digits, an output name
that is empty, a runs folder that cannot be, a run over the run bound, a scheduler that does not
answer) is one line, exit 2, before the first game.

The command lines run through the fuzzer's harness (``scripts/fuzz_inputs.py``: the functions that
would play games are stubs that raise), so a refusal here is before any simulation."""

import importlib.util
import os
import socket
import sys
import time
from pathlib import Path

import pytest

from gamelab.cli import common
from gamelab.cli.commands import build_parser
from gamelab.core import files
from gamelab.core.errors import GamelabError

ROOT = Path(__file__).resolve().parents[1]
_SCRIPT = ROOT / "scripts" / "fuzz_inputs.py"
_spec = importlib.util.spec_from_file_location("fuzz_inputs", _SCRIPT)
fuzz = sys.modules.setdefault("fuzz_inputs", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(fuzz)

GOAL = ROOT / "docs" / "goals" / "strand-metagame.yaml"


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path / "home"))


def refusal(argv) -> str:
    """The one line ``gamelab ARGV`` prints on stderr (exit 2), before any game: the harness's
    stubs would have counted a simulation as ``accepted``."""
    start = time.monotonic()
    outcome, text = fuzz.run_cli_text(argv)
    assert outcome.kind == "refused", f"{argv}: {outcome} {text!r}"
    assert len(text.strip().splitlines()) == 1 and "Traceback" not in text, text
    assert time.monotonic() - start < 20, f"{argv}: {time.monotonic() - start:.0f} s to refuse"
    return text


# -- every command's file arguments ----------------------------------------------------------


def subcommands() -> dict:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return dict(sub.choices)


FILE_LIKE = ("FILE", "RECORD", ".yaml", "GOAL", "GRID")


def file_arguments() -> list[tuple[str, object]]:
    """(command, action) of every input-file argument of every command, by its type."""
    return [(name, a) for name, p in subcommands().items() for a in p._actions if isinstance(a.type, common.InputFile)]


def test_every_argument_naming_a_file_to_read_is_an_input_file_argument():
    """A file argument added without the checked type is caught here: every argument whose
    metavar names a file is either an input file (checked by stat) or an output (a suffix)."""
    loose = []
    for name, p in subcommands().items():
        for a in p._actions:
            shown = str(a.metavar or "")
            if any(w in shown for w in FILE_LIKE) and not isinstance(a.type, common.InputFile):
                if a.dest not in ("out", "chart", "rewrite"):
                    loose.append(f"{name} {a.option_strings or a.dest}")
    assert loose == [], loose
    found = {(n, a.dest) for n, a in file_arguments()}
    # the commands of issue 41 and the older ones: report, replay, metagame, skill, test, tune, ...
    for expected in [("replay", "files"), ("report", "playtest"), ("report", "tune"), ("metagame", "params")]:
        assert expected in found
    for expected in [("skill", "profile"), ("test", "baseline"), ("tune", "goal"), ("calibrate", "target")]:
        assert expected in found
    assert len(found) >= 20


def argv_with(command: str, action, path: str) -> list[str]:
    """The shortest command line of ``command`` with ``path`` given to ``action`` (a game where the
    command takes one, the required player count)."""
    p = subcommands()[command]
    argv = [command]
    for a in p._actions:
        if a.dest == action.dest:  # (another parser object: the same argument by name)
            argv += [*a.option_strings[:1], path]
        elif not a.option_strings and a.dest not in ("help",) and a.required and a.nargs != "?":
            if a.choices:
                argv.append("strand" if "strand" in a.choices else sorted(a.choices)[0])
            else:  # another positional file (none so far takes two)
                argv.append(str(GOAL))
        elif a.option_strings and a.required:
            argv += [a.option_strings[0], "3"]
    return argv


def _fifo(tmp_path) -> str:
    path = tmp_path / "fifo.yaml"
    os.mkfifo(path)
    return str(path)


def _socket(tmp_path):
    path = tmp_path / "s.yaml"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    return str(path), s


KINDS = {
    "a device": (lambda tmp: "/dev/zero", "a character device, not a regular file"),
    "a FIFO": (_fifo, "a FIFO (named pipe), not a regular file"),
    "a folder": (lambda tmp: str(tmp), "a folder, not a regular file"),
    "an empty path": (lambda tmp: "", "an empty path names no file"),
    "a missing file": (lambda tmp: str(tmp / "none.yaml"), "no such file"),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_file_argument_refuses_what_is_not_a_regular_file(kind, tmp_path):
    make, words = KINDS[kind]
    path = make(tmp_path)
    for command, action in file_arguments():
        argv = argv_with(command, action, path)
        text = refusal(argv)
        named = action.option_strings[0] if action.option_strings else action.metavar
        assert f"argument {named}" in text and words in text, (argv, text)


def test_a_socket_is_refused_too(tmp_path):
    path, s = _socket(tmp_path)
    with s:
        text = refusal(["metagame", "strand", "--params", path])
    assert "argument --params" in text and "a socket, not a regular file" in text


def test_the_reader_never_blocks_and_reads_at_most_its_bound(tmp_path, monkeypatch):
    fifo = _fifo(tmp_path)
    with pytest.raises(GamelabError, match="a FIFO"):  # no writer: refused at once, not waited on
        files.load_data(fifo)
    # a regular file swapped for a FIFO after the stat check: the open descriptor is checked again
    monkeypatch.setattr(files, "file_problem", lambda path, limit=files.MAX_BYTES: None)
    start = time.monotonic()
    with pytest.raises(GamelabError, match="a FIFO"):
        files.read_bounded(fifo)
    assert time.monotonic() - start < 2
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 20 + "1]")
    with pytest.raises(GamelabError, match="at most 10 are read"):  # a file grown past its bound
        files.read_bounded(big, limit=10)
    monkeypatch.undo()
    with pytest.raises(GamelabError, match="at most 10 are read"):
        files.read_bounded(big, limit=10)
    with pytest.raises(Exception, match="at most 10 are read"):
        common.InputFile(limit=10)(str(big))


def test_json_and_yaml_with_a_byte_order_mark_are_read(tmp_path):
    for suffix, text in ((".json", '{"hand_size": 4}'), (".yaml", "hand_size: 4\n")):
        path = tmp_path / f"p{suffix}"
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        assert files.load_mapping(path) == {"hand_size": 4}
    record = tmp_path / "record.json"  # a record saved by an editor that writes a BOM: replayed
    record.write_bytes(b"\xef\xbb\xbf" + (ROOT / "data" / "playtests" / "pig_example.json").read_bytes())
    assert fuzz.run_cli(["replay", str(record)]).kind == "accepted"


# -- each class of bad argument, one line before any game -----------------------------------


@pytest.mark.parametrize(
    "argv, words",
    [
        # a metric that does not exist, or an empty one; a rung that does not exist; --top alone
        (["skill", "strand", "--players", "3", "--trace", "bogus"], "unknown metric 'bogus'"),
        (["skill", "strand", "--players", "3", "--trace", "nonsense_metric"], "unknown metric 'nonsense_metric'"),
        (["skill", "strand", "--players", "3", "--trace", ""], "--trace '': names no metric"),
        (["skill", "strand", "--players", "3", "--top", "bogus"], "--top 'bogus' is for --trace"),
        (["skill", "strand", "--players", "3", "--trace", "seat_spread", "--top", "bogus"], "not a rung"),
        (["skill", "strand", "--players", "3", "--trace", "styles_worth_playing"], "a meta-game metric"),
        # a bound out of the metric's range (a count of 6 styles, a share), a fractional count
        (["test", "strand", "styles_worth_playing >= 7", "--players", "3", "--plan"], "outside 0..6"),
        (["test", "strand", "styles_worth_playing >= -1", "--players", "3"], "outside 0..6"),
        (["test", "strand", "styles_worth_playing >= 3.5", "--players", "3"], "3.5 is not one"),
        (["test", "strand", "equilibrium_spread < 1.5", "--players", "3", "--plan"], "outside 0..1"),
        (["test", "strand", "seat_spread < 0.1", "--players", "3", "--max-games", "64"], "fewer than one look"),
        # player counts: once each, ASCII digits
        (["metagame", "strand", "--players", "3", "3"], "--players: 3 is given twice"),
        (["metagame", "strand", "--players", "\u0663"], "ASCII digits"),
        (["skill", "strand", "--players", "\uff13"], "ASCII digits"),
        # output names
        (["metagame", "strand", "--players", "3", "--out", ""], "argument --out: an empty name"),
        (["skill", "strand", "--players", "3", "--out", "plot.txt"], "expected a file name ending in .png"),
        (["report", "strand", "--label", "x" * 100_000], "a label of 100,000 characters"),
        # knobs named twice
        (["calibrate", "strand", "--free", "a,a"], "'a' is named twice"),
        (["calibrate", "strand", "--free", "greedy_move,greedy_move"], "'greedy_move' is named twice"),
        # runs folder, run bound
        (["tune", str(GOAL), "--runs-dir", "/proc/runs"], "under /proc"),
        (["tune", str(GOAL), "--runs-dir", ""], "an empty name names no folder"),
        (["tune", str(GOAL), "--trials", "10000"], "above the run bound"),
    ],
)
def test_each_class_of_bad_argument_is_one_line_before_any_game(argv, words):
    assert words in refusal(argv)


def test_a_runs_dir_that_is_a_file_is_refused(tmp_path):
    afile = tmp_path / "runs"
    afile.write_text("")
    assert "a file, not a folder" in refusal(["tune", str(GOAL), "--runs-dir", str(afile)])


def test_a_tune_goal_with_a_huge_run_or_a_count_out_of_range(tmp_path):
    base = GOAL.read_text()
    huge = tmp_path / "huge.yaml"
    huge.write_text(base.replace("trials: 16", "trials: 10000").replace("games: 30000", "games: 200000"))
    assert "above the run bound" in refusal(["tune", str(huge)])
    for bound, words in (("7", "7 is outside 0..6"), ("-1", "-1 is outside 0..6"), ("2.5", "not one")):
        goal = tmp_path / f"g{bound}.yaml"
        goal.write_text(base.replace("at_least: 4", f"at_least: {bound}"))
        assert words in refusal(["tune", str(goal)])


def test_another_games_file_is_refused_naming_the_game(tmp_path):
    sbr = tmp_path / "sbr.yaml"
    sbr.write_text("beats: 3\nhand_size: 5\n")
    text = refusal(["metagame", "strand", "--players", "3", "--params", str(sbr)])
    assert "'beats' is a parameter of sbr, not of strand" in text
    marked = tmp_path / "marked.yaml"
    marked.write_text("game: sbr\nhand_size: 5\n")
    assert "a file for sbr" in refusal(["test", "strand", "--players", "3", "--params", str(marked)])
    record = str(ROOT / "data" / "playtests" / "sbr_example.json")
    assert "a record of sbr, not of strand" in refusal(["report", "strand", "--playtest", record])
    profile = str(ROOT / "data" / "profiles" / "sbr.yaml")
    assert "sbr" in refusal(["skill", "strand", "--players", "3", "--profile", profile])


@pytest.mark.parametrize("command", [["test", "strand", "--players", "3"], ["simulate", "pig"], ["sensitivity", "pig"]])
def test_the_workers_scheduler_conflict_is_seen_with_the_default_value(command):
    text = refusal([*command, "--workers", "1", "--scheduler", "tcp://127.0.0.1:1"])
    assert "not allowed with argument --workers" in text


def test_a_scheduler_that_cannot_be_reached_is_one_line_within_seconds():
    pytest.importorskip("dask.distributed")
    start = time.monotonic()
    text = refusal(["test", "strand", "seat_spread < 0.1", "--players", "3", "--scheduler", "tcp://127.0.0.1:1"])
    assert "--scheduler tcp://127.0.0.1:1: cannot connect" in text
    assert time.monotonic() - start < 10


def test_a_scheduler_that_does_not_answer_is_given_up_after_the_timeout(monkeypatch):
    from gamelab.sim import executors

    listener = socket.socket()  # accepts nothing within the (shortened) timeout: a full backlog
    listener.bind(("127.0.0.1", 0))
    monkeypatch.setattr(socket, "create_connection", _never_answers)
    with listener, pytest.raises(GamelabError, match="no answer within 0.2 s"):
        executors.check_scheduler(f"tcp://127.0.0.1:{listener.getsockname()[1]}", timeout=0.2)


def _never_answers(address, timeout=None):
    time.sleep(timeout)
    raise TimeoutError


def test_a_records_misspelt_top_level_key_is_refused_naming_it(tmp_path):
    """``expcet`` beside the record's keys would be ignored silently: refused, naming the key it
    is near; a key the format does not name at all (``notes``, ``source``) stays allowed."""
    import json

    record = json.loads((ROOT / "data" / "playtests" / "pig_example.json").read_text())
    record["expcet"] = record.pop("expect")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert "unknown top-level key 'expcet' (did you mean expect?)" in refusal(["replay", str(path)])
    record["expect"], record["location"] = record.pop("expcet"), "club night"
    path.write_text(json.dumps(record))
    assert fuzz.run_cli(["replay", str(path)]).kind == "accepted"


def test_a_scheduler_that_answers_passes_the_check():
    from gamelab.sim import executors

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        executors.check_scheduler(f"tcp://127.0.0.1:{listener.getsockname()[1]}", timeout=2)  # no error
    with pytest.raises(GamelabError, match="expected tcp://HOST:PORT"):
        executors.check_scheduler("tcp://127.0.0.1")
