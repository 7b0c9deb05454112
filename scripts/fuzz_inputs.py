"""Fuzz everything gamelab reads from outside, by hand: thousands of mutants.

Mutants of the three worked example records (deletions, type swaps, value
perturbations, key renames, duplicated or swapped items, deep nesting, huge
integers, NaN), replayed directly and as JSON/YAML files through
``gamelab replay``; hostile files (alias bombs, deep nesting, huge integers,
duplicate keys, binary, oversized); parameter files; sweep grids; and
random command lines.  Each input must be refused cleanly (a
:class:`~gamelab.core.errors.GamelabError`; on the command line exit 2 and one
line on stderr) or accepted; an accepted record must keep the rules checked
below and replay identically after a JSON round trip.  Nothing is simulated:
the functions that would play games are replaced by a stub that raises
:class:`Accepted` once every check before them has passed.

    GAMELAB_HOME=/tmp/fuzz python scripts/fuzz_inputs.py --mutants 2000 --seed 0

prints one line per family (inputs, accepted, refused, failures) and every
distinct failure; the exit status is 1 if there was any.  ``tests/test_fuzz.py``
uses the same harness (:func:`check_record`, :func:`run_cli`, :func:`mutate`)
under Hypothesis.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import io
import itertools
import json
import os
import random
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gamelab.cli import commands as cli  # noqa: E402
from gamelab.cli import common  # noqa: E402
from gamelab.core import files  # noqa: E402
from gamelab.core.errors import GamelabError  # noqa: E402
from gamelab.rulebook import playtest  # noqa: E402

GAMES = ("sbr", "strand", "pig")
EXAMPLES = {g: ROOT / "data" / "playtests" / f"{g}_example.json" for g in GAMES}
MOVES = {"sbr": "beats", "strand": "rounds", "pig": "turns"}
MAX_LINE = common.MAX_MESSAGE + 100  # "gamelab CMD: error: " and the cut message
SLOW_SECONDS = 60.0  # an input that takes longer is a failure (a run without end)


class Accepted(Exception):  # noqa: N818 - an outcome, not an error
    """Raised in place of a simulation: every check before it passed."""


@dataclasses.dataclass
class Outcome:
    kind: str  # accepted | refused | traceback | bad_exit | broken_rule | round_trip | wrong_acceptance | slow | hang
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.kind not in ("accepted", "refused")


def example(game: str) -> dict:
    return json.loads(EXAMPLES[game].read_text(encoding="utf-8"))


# --- running one input -------------------------------------------------------------
def _stub(*args, **kw):
    raise Accepted


@contextlib.contextmanager
def no_simulation():
    """Every function the command line would simulate with, replaced by :func:`_stub`."""
    import importlib

    targets = [("sim.sweep", "sweep"), ("sim.sweep", "run_cell"), ("sim.runner", "simulate"), ("sim.bench", "run")]
    targets += [("report.build", "build_report"), ("rulebook.claims", "audit"), ("decide.sensitivity", "levers")]
    targets += [("decide.tune", "run"), ("decide.sequential", "plan"), ("decide.sequential", "decide")]
    targets += [("models.calibrate", "calibrate"), ("models.ladder", "ladder"), ("decide.ladder", "climb")]
    targets += [("models.trace", "trace"), ("models.metagame", "metagame")]
    found = []
    for module, name in targets:
        try:
            found.append((importlib.import_module(f"gamelab.{module}"), name))
        except ImportError:  # a command group this checkout does not have
            continue
    targets = [(m, n) for m, n in found if hasattr(m, n)]
    saved = [(m, n, getattr(m, n)) for m, n in targets]
    try:
        for m, n in targets:
            setattr(m, n, _stub)
        yield
    finally:
        for m, n, f in saved:
            setattr(m, n, f)


def _one_line(text: str) -> bool:
    text = text.strip()
    return bool(text) and "\n" not in text and len(text) <= MAX_LINE and "Traceback" not in text


def _signature(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    last = tb[-1] if tb else None
    where = f" at {Path(last.filename).name}:{last.lineno} ({last.name})" if last else ""
    return f"{type(exc).__name__}: {str(exc)[:160]}{where}"


class Hung(Exception):  # noqa: N818 - an outcome, not an error
    """Raised by the alarm of :func:`deadline`: the input ran past it (a read that waits for ever)."""


@contextlib.contextmanager
def deadline(seconds: float):
    """Raise :class:`Hung` in the main thread after ``seconds`` (a FIFO read with no writer blocks
    in the kernel: the alarm interrupts it); a no-op off the main thread or without SIGALRM."""
    import signal
    import threading

    if seconds <= 0 or not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum, frame):
        raise Hung

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


HANG_SECONDS = SLOW_SECONDS  # an input still running after this is a hang (``hang``, a failure)


def run_cli(argv: list[str], _stderr: io.StringIO | None = None) -> Outcome:
    """``gamelab ARGV`` with the output captured: exit 0 (or the stub reached)
    is accepted, exit 2 with one line on stderr refused, anything else a failure
    (a run past :data:`HANG_SECONDS` is a ``hang``)."""
    out, err = io.StringIO(), io.StringIO()
    if _stderr is not None:
        err = _stderr
    try:
        with (
            deadline(HANG_SECONDS),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            no_simulation(),
        ):
            rc = cli.main(argv)
    except Accepted:
        return Outcome("accepted")
    except Hung:
        return Outcome("hang", f"{argv[:6]}: still running after {HANG_SECONDS:g} s")
    except SystemExit as exc:
        rc = exc.code
    except BaseException as exc:  # noqa: BLE001 - exactly what we look for
        return Outcome("traceback", f"{argv[:6]}: {_signature(exc)}")
    text = err.getvalue()
    if rc == 0:
        return Outcome("accepted")
    if rc == 2 and _one_line(text):
        return Outcome("refused")
    return Outcome("bad_exit", f"{argv[:6]}: exit {rc}, stderr {text[:300]!r}")


def run_cli_text(argv: list[str]) -> tuple[Outcome, str]:
    """:func:`run_cli` and what the command printed on stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        outcome = run_cli(argv, _stderr=err)
    return outcome, err.getvalue()


def check_record(record: Any) -> Outcome:
    """Replay a record (a copy): refused cleanly, or accepted keeping the
    rules and replaying identically after a JSON round trip."""
    try:
        ledger = playtest.replay(copy.deepcopy(record))
    except GamelabError as exc:
        if "\n" in str(exc) or not str(exc).strip():
            return Outcome("bad_exit", f"a refusal of {len(str(exc))} characters over lines: {str(exc)[:200]!r}")
        return Outcome("refused")
    except BaseException as exc:  # noqa: BLE001
        return Outcome("traceback", _signature(exc))
    broken = rules_broken(record, ledger)
    if broken:
        return Outcome("broken_rule", broken)
    try:
        again = playtest.replay(json.loads(json.dumps(record, ensure_ascii=False)))
    except BaseException as exc:  # noqa: BLE001
        return Outcome("round_trip", f"the JSON copy is not accepted: {_signature(exc)}")
    if files.dumps(again, sort_keys=True) != files.dumps(ledger, sort_keys=True):
        return Outcome("round_trip", "the JSON copy replays differently")
    return Outcome("accepted")


def rules_broken(record: dict, ledger: dict) -> str:
    """A rule an accepted record breaks (empty: none found)."""
    game = record["game"]
    names = [p if isinstance(p, str) else p["name"] for p in record["players"]]
    if any(c in n for n in names for c in "\x00\n\r\t"):
        return f"a name with a control character: {names}"
    keys = [playtest.name_key(n) for n in names]
    if len(set(keys)) != len(keys):
        return f"two players with one name: {names}"
    if game == "strand":
        if "stay" in keys:
            return "a player named stay"
        roles = [p.get("role") for p in record["players"] if isinstance(p, dict) and p.get("role")]
        if len(set(roles)) != len(roles):
            return f"a role dealt twice: {roles}"
    if game == "sbr":
        return _sbr_broken(record, ledger)
    return ""


def _sbr_broken(record: dict, ledger: dict) -> str:
    from gamelab.core.records import record_params
    from gamelab.sbr.rules import SbrParams, params_for_variant

    _, p = record_params(record, SbrParams, params_for_variant)
    squares = [int(str(k).strip()) for k in record.get("relics", {})]
    if len(set(squares)) != len(squares):
        return f"a relic square written twice: {list(record['relics'])}"
    before = [0] * len(ledger["riders"])
    for beat in ledger["beats"]:
        racing = {r for r, pos in zip(ledger["riders"], before) if pos < p.length}
        if set(beat["order"]) != racing:
            return f"beat {beat['beat']}: {sorted(racing - set(beat['order']))} still racing but did not act"
        before = beat["positions"]
    for beat in record["beats"]:
        for action in beat.values():
            for key in ("spin", "seal", "retrieve"):
                if key in action and (isinstance(action[key], bool) or not isinstance(action[key], int)):
                    return f"{key} {action[key]!r} accepted"
    return ""


# --- mutants ---------------------------------------------------------------------
def nodes(tree: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON tree, as a path of keys and indices."""
    out, stack = [], [(tree, path)]
    while stack:
        value, here = stack.pop()
        out.append(here)
        if isinstance(value, dict):
            stack.extend((v, here + (k,)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, here + (i,)) for i, v in enumerate(value))
    return out


def _at(tree, path):
    for step in path:
        tree = tree[step]
    return tree


def _names(tree) -> list[str]:
    players = tree.get("players") if isinstance(tree, dict) else None
    out = []
    for p in players if isinstance(players, list) else ():
        name = p.get("name") if isinstance(p, dict) else p
        if isinstance(name, str):
            out.append(name)
    return out or ["A"]


def variants(text: str, rng: random.Random) -> str:
    """A near spelling: case, width (NFKC), spaces, a leading zero, a letter more."""
    options = [
        text.upper(),
        text.lower(),
        f" {text}",
        f"{text} ",
        text.replace(" ", "  "),
        "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text),  # full width
        f"0{text}",
        text + rng.choice("xé1 "),
        text[:-1],
    ]
    return rng.choice(options)


def palette(tree, rng: random.Random) -> Any:
    """A value to put somewhere: of another type, extreme, empty or near a real one."""
    names = _names(tree)
    deep: Any = 0
    for _ in range(rng.choice((5, 45, 200))):
        deep = [deep]
    choices = [
        None,
        "",
        [],
        {},
        0,
        -1,
        1,
        2,
        3,
        5,
        6,
        7,
        99,
        10**6,
        2**63,
        10**30,
        -(10**19),
        True,
        False,
        1.5,
        -0.0,
        1e308,
        float("nan"),
        float("inf"),
        "x",
        "stay",
        "07",
        " 7",
        "standard",
        "sbr",
        "strand",
        "pig",
        "toy",
        "x" * rng.choice((100, 10_000)),
        "\x00\n\t",
        deep,
        {"a": 1},
        [1, 2],
        [[1, 2], [3, 4]],
        rng.choice(names),
        variants(rng.choice(names), rng),
        {"card": rng.randint(-1, 6)},
        {"name": rng.choice(names), "role": rng.choice(("veteran", "bb", "fragile", "porter", "x", None))},
    ]
    return copy.deepcopy(rng.choice(choices))


def _perturb(value, tree, rng):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((-2, -1, 1, 2, 5, -value - 1, 10**20))
    if isinstance(value, float):
        return rng.choice((value * -1, value + 0.5, float("nan"), value * 1e300))
    if isinstance(value, str):
        return variants(value, rng) if value else "x"
    return palette(tree, rng)


def _mutate_once(tree, rng: random.Random):
    places = nodes(tree)
    path = rng.choice(places)
    op = rng.choice(("delete", "replace", "perturb", "perturb", "rename", "duplicate", "swap", "nest", "add"))
    if not path:  # the root: replace it whole now and then
        return palette(tree, rng) if op == "replace" and rng.random() < 0.2 else tree
    parent, key = _at(tree, path[:-1]), path[-1]
    value = parent[key]
    if op == "delete":
        del parent[key]
    elif op == "replace":
        parent[key] = palette(tree, rng)
    elif op == "perturb":
        parent[key] = _perturb(value, tree, rng)
    elif op == "rename" and isinstance(parent, dict):
        new = rng.choice([variants(str(key), rng), rng.choice(_names(tree)), "", "x", "stay", *list(parent)])
        parent[new] = parent.pop(key)
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(value))
    elif op == "duplicate" and isinstance(parent, dict):
        parent[variants(str(key), rng)] = copy.deepcopy(value)
    elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
        j = rng.randrange(len(parent))
        parent[key], parent[j] = parent[j], parent[key]
    elif op == "nest":
        for _ in range(rng.choice((1, 3, 60))):
            value = [value] if rng.random() < 0.5 else {"x": value}
        parent[key] = value
    elif op == "add" and isinstance(value, dict):
        value[rng.choice(("extra", "notes", "seal", "spin", "retrieve", "break", "powers", "rain", "07"))] = palette(
            tree, rng
        )
    return tree


def mutate(tree: Any, rng: random.Random, n: int | None = None) -> Any:
    """A copy of ``tree`` with 1-3 (or ``n``) random changes."""
    tree = copy.deepcopy(tree)
    for _ in range(n or rng.choice((1, 1, 2, 3))):
        tree = _mutate_once(tree, rng)
    return tree


def as_text(tree: Any, rng: random.Random) -> tuple[str, str]:
    """The tree as a file (suffix, text): JSON or YAML, sometimes damaged."""
    import yaml

    if rng.random() < 0.3:
        suffix, text = ".yaml", yaml.safe_dump(tree, allow_unicode=True, sort_keys=False)
    else:
        suffix, text = ".json", json.dumps(tree, ensure_ascii=rng.random() < 0.5)
    if rng.random() < 0.1 and text:  # damage: cut, a stray character, a duplicated line
        i = rng.randrange(len(text))
        text = rng.choice((text[:i], text[:i] + rng.choice("{}[]:,\"'&*!\t\x00") + text[i:], text + text[i:]))
    return suffix, text


# --- hostile files ---------------------------------------------------------------
def hostile_files() -> list[tuple[str, str | bytes]]:
    """(suffix, content) of files built to break a loader."""
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi")
    )
    ex = example("sbr")
    out: list[tuple[str, str | bytes]] = [
        (".yaml", "game: sbr\nplayers: [a, b]\nbeats: []\nexpect:\n  " + bomb.replace("\n", "\n  ")),
        (".json", "[" * 1000 + "]" * 1000),
        (".json", '{"game": "sbr", "x": ' + "[" * 1000 + "]" * 1000 + "}"),
        (".yaml", "- " * 500 + "x"),
        (".yaml", "a:\n" + "".join(" " * (i + 1) + "a:\n" for i in range(500))),
        (".json", '{"game": "sbr", "players": [' + "9" * 5000 + "]}"),
        (".yaml", "game: sbr\nplayers: [" + "9" * 5000 + "]\n"),
        (".json", json.dumps({**ex, "players": ["x" * 5_000_000, "b"]})),
        (".json", " " * (files.MAX_BYTES + 1)),
        (".json", '{"game": "sbr", "game": "strand"}'),
        (".yaml", "game: sbr\ngame: pig\n"),
        (".json", json.dumps(ex).replace('"7": "heart"', '"7": "heart", "7": "spine"')),
        (".json", '{"game": NaN}'),
        (".json", '{"game": "sbr", "players": [Infinity]}'),
        (".yaml", "game: sbr\nplayers: [.nan, .inf]\n"),
        (".yaml", "game: !!python/object/apply:os.system [echo hi]\n"),
        (".yaml", "? [1, 2]\n: x\n"),
        (".yaml", "{1: a, true: b, null: c}\n"),
        (".json", b"\xff\xfe\x00\x01binary"),
        (".json", ""),
        (".json", "null"),
        (".yaml", ""),
        (".yaml", "- 1\n- 2\n"),
        (".yaml", "game: sbr\n\tplayers: [a]\n"),
        (".yaml", ":\n  - ][\n"),
        # millions of items under the size limit (issue 23: 2 minutes and 1.8 GB to read before)
        (".yaml", "game: sbr\nplayers: 4\njunk: [" + ",".join(["1"] * 2_400_000) + "]\n"),
        (".json", '{"game": "sbr", "junk": [' + ",".join(["1"] * 2_400_000) + "]}"),
    ]
    return out


def HOSTILE_COMMANDS(path) -> list[list[str]]:  # noqa: N802 - a table, read like a constant
    """Every command a hostile file is given to: records, parameters, sweeps, goals, profiles."""
    path = str(path)
    return [
        ["replay", path],
        ["identities", "sbr", "--params", path],
        ["sweep", path],
        ["tune", path],
        ["skill", "sbr", "--players", "3", "--profile", path],
    ]


# --- parameter files, grids, command lines --------------------------------------------
def param_mutant(game: str, rng: random.Random) -> Any:
    """A parameter mapping for ``game``: real names with values near, at and
    past their ranges, of other types, or unknown names."""
    from gamelab.core import registry
    from gamelab.core.params import specs

    specs_ = specs(registry.get(game).knobs)
    out: dict = {}
    for _ in range(rng.choice((1, 1, 2, 4))):
        s = rng.choice(specs_)
        near = [s.default]
        if s.low is not None:
            near += [s.low, s.low - 1, s.low - 0.5]
        if s.high is not None:
            near += [s.high, s.high + 1, s.high * 10**6]
        if s.choices:
            near += list(s.choices) + [variants(str(s.choices[0]), rng)]
        if isinstance(s.default, tuple):
            near += [list(s.default), list(s.default)[:-1], list(s.default) * 2, [None], list(s.default)[::-1]]
        value = rng.choice(near) if rng.random() < 0.6 else palette({}, rng)
        name = s.name if rng.random() < 0.9 else variants(s.name, rng)
        out[name] = value
    return out if rng.random() < 0.95 else palette({}, rng)


GRID_BASE = {
    "sbr": {
        "game": "sbr",
        "grid": {"relic_scale": [0.5, 1.0], "curve_penalty": [1, 2]},
        "n_games": 200,
        "n_players": 3,
    },
    "strand": {"game": "strand", "grid": {"node_scale": [1.0, 1.5], "node_shift": [-1, 2]}, "n_games": 200},
    "pig": {"game": "pig", "grid": {"target": [50, 100]}, "n_games": 200, "lineup": ["hold_at_20", "hold_at_20"]},
}


def grid_mutant(game: str, rng: random.Random) -> Any:
    spec = mutate(GRID_BASE[game], rng)
    if rng.random() < 0.3 and isinstance(spec, dict) and isinstance(spec.get("grid"), dict):
        extra = param_mutant(game, rng)
        spec["grid"].update(extra if isinstance(extra, dict) else {})
        spec["grid"] = {k: v if isinstance(v, list) else [v] for k, v in spec["grid"].items()}
    return spec


def _parser_words() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every command and every flag the command line has (new command groups included)."""
    import argparse

    sub = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    flags = {o for p in sub.choices.values() for a in p._actions for o in a.option_strings if o.startswith("--")}
    return tuple(sub.choices), tuple(sorted(flags - {"--help"}))


COMMANDS, FLAGS = _parser_words()


def cli_mutant(rng: random.Random, paths: dict) -> list[str]:
    """A random command line: a command, a game, flags with values good and bad."""
    values = [
        "0",
        "-1",
        "1",
        "2",
        "3",
        "4",
        "7",
        "65",
        "1e3",
        "2.5",
        "nan",
        "inf",
        "-inf",
        "0x10",
        "1_000",
        "99999999999999999999999",
        "",
        "x" * 600,
        "greedy",
        "random",
        "hold_at_20",
        "mix1",
        "heavy",
        "sbr",
        "strand",
        "pig",
        "toy",
        "0.01",
        "0",
        "0.6",
        "garbage",
        "tcp://",
        "tcp://host",
        "tcp://h:99999999",
        *paths.values(),
    ]
    argv = [rng.choice(COMMANDS) if rng.random() < 0.95 else rng.choice(values)]
    takes_game = argv[0] in COMMANDS and argv[0] not in ("replay", "sweep", "bench", "claims", "tune")
    if (takes_game and rng.random() < 0.9) or rng.random() < 0.1:
        argv.append(rng.choice(("sbr", "strand", "pig", "toy", "")))
    if argv[0] == "replay":
        argv.append(rng.choice([paths["record"], paths["bad_record"], paths["missing"], paths["folder"]]))
    if argv[0] == "sweep":
        argv.append(rng.choice([paths["grid"], paths["bad_grid"], paths["record"], paths["missing"]]))
    for _ in range(rng.choice((0, 1, 2, 3, 5))):
        argv.append(rng.choice(FLAGS))
        for _ in range(rng.choice((0, 1, 1, 1, 2))):
            argv.append(rng.choice(values))
    return argv


def fixture_paths(folder: Path) -> dict:
    """Files a command line may name: good and bad records, parameters, grids, outputs."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "regular").write_text("x")
    good = {"record": EXAMPLES["pig"], "grid": folder / "grid.json", "params": folder / "params.json"}
    good["grid"].write_text(json.dumps(GRID_BASE["pig"]))
    good["params"].write_text('{"target": 60}')
    bad = {
        "bad_record": folder / "bad.json",
        "bad_grid": folder / "bad_grid.yaml",
        "bad_params": folder / "bad_params.yaml",
        "missing": folder / "missing.json",
        "folder": folder,
        "under_file": folder / "regular" / "x.csv",
        "proc": "/proc/gamelab-fuzz/x.csv",
        "csv": folder / "out.csv",
        "html": folder / "out.html",
        "txt": folder / "out.txt",
    }
    bad["bad_record"].write_text('{"game": "sbr", "players": "a"}')
    bad["bad_grid"].write_text("game: sbr\ngrid: 5\n")
    bad["bad_params"].write_text("target: .nan\n")
    return {k: str(v) for k, v in {**good, **bad}.items()}


# --- the decision tools' inputs: goal files, expressions, profiles, arguments (issue 23) -------
GOAL_BASE = {
    "sbr": {
        "game": "sbr",
        "players": [3, 4],
        "free": {"hand_size": [3, 8], "card_counts": [[2, 7]], "relic_scale": [0.5, 1.5], "skull_cards": [0, 3]},
        "targets": [{"metric": "seat_spread", "at_most": 0.05}, {"metric": "win_rate[seat=1]", "at_least": 0.2}],
        "trials": 60,
        "games": 4000,
        "seed": 1,
    },
    "strand": {
        "game": "strand",
        "players": 4,
        "free": {"sum_cap": [5, 9], "node_shift": [-1, 2], "teams": [False, True], "half_rounding": ["up", "down"]},
        "targets": [{"metric": "style_spread", "at_most": 0.2}, {"metric": "rounds_with_team", "at_least": 0.85}],
        "trials": 80,
        "games": 4000,
        "verify": 3,
        "verify_games": 8000,
    },
    "pig": {
        "game": "pig",
        "players": 2,
        "free": {"target": [50, 120]},
        "targets": [{"metric": "seat_spread", "at_most": 0.05}],
        "lineup": ["hold_at_20", "hold_at_20"],
    },
}
GOAL_VALUES = [
    [1, 0], [0, 1], [True, False], [0.2, 0.8], [0, 0], [1e-300, 1e300], [5, 5], [9, 5], [2, 10**6], [-3, 2],
    [[2, 10]], [[2.5, 7]], [[2, 7], [1, 3]], ["up", 1], [True], [0.5, 1.5], [-1.0, 2.0], [1, 2, 3],
    10**9, 10**12, 200_000, 200_001, 0, -1, 1e308, 1.0e-308, 2, 0.5, 51, 10_001, "0x10", [4, 9], [4, 4], [1], [],
]  # fmt: skip


def goal_mutant(game: str, rng: random.Random) -> Any:
    """A goal file: the base goal mutated, and now and then a value of
    ``GOAL_VALUES`` at a place that matters (a range, a count, a bound)."""
    tree = mutate(GOAL_BASE[game], rng) if rng.random() < 0.4 else copy.deepcopy(GOAL_BASE[game])
    if not isinstance(tree, dict):
        return tree
    for _ in range(rng.choice((0, 1, 1, 2))):
        where = rng.choice(("free", "count", "target", "players"))
        value = copy.deepcopy(rng.choice(GOAL_VALUES))
        if where == "free" and isinstance(tree.get("free"), dict):
            extra = param_mutant(game, rng) if rng.random() < 0.3 else {}
            names = list(tree["free"]) + (list(extra) if isinstance(extra, dict) else [])
            if names:
                tree["free"][rng.choice(names)] = value
        elif where == "count":
            tree[rng.choice(("games", "verify_games", "trials", "verify", "seed"))] = value
        elif where == "target" and isinstance(tree.get("targets"), list) and tree["targets"]:
            t = rng.choice(tree["targets"])
            if isinstance(t, dict):
                t[rng.choice(("at_most", "at_least"))] = value
                if rng.random() < 0.5:
                    t.pop("at_most" if "at_least" in t and rng.random() < 0.5 else "at_least", None)
        elif where == "players":
            tree["players"] = value
    return tree


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v) -> bool:
    import math

    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def goal_wrongly_accepted(mapping: Any) -> str:
    """Why a goal the tuner accepted should have been refused ("" none),
    checked straight from the file's mapping."""
    from gamelab.core import registry
    from gamelab.core.limits import MAX_GAMES, MAX_TRIALS, MAX_VERIFY
    from gamelab.core.params import from_mapping, specs
    from gamelab.stats import balance

    g = registry.get(mapping["game"])
    for key, top in (("games", MAX_GAMES), ("verify_games", MAX_GAMES), ("trials", MAX_TRIALS), ("verify", MAX_VERIFY)):
        v = mapping.get(key)
        if v is not None and not (_whole(v) and 1 <= v <= top):
            return f"{key}: {v!r}"
    counts = mapping["players"] if isinstance(mapping["players"], list) else [mapping["players"]]
    if any(not g.players[0] <= n <= g.players[1] for n in counts) or len(set(counts)) != len(counts):
        return f"players: {mapping['players']!r}"
    base = from_mapping(g.knobs, mapping.get("params") or {}, source="oracle")
    declared = {s.name: s for s in specs(g.knobs)}

    def bad_range(r, kind, spec) -> bool:
        if not (isinstance(r, list) and len(r) == 2 and all(_number(v) for v in r)):
            return True
        if kind is int and not all(_whole(v) for v in r):
            return True
        lo, hi = r
        return (
            not lo < hi
            or (spec is not None and spec.low is not None and lo < spec.low)
            or (spec is not None and spec.high is not None and hi > spec.high)
        )

    for name, rng_ in mapping["free"].items():
        if name in g.derived:
            if bad_range(rng_, float, None):
                return f"free.{name}: {rng_!r}"
            for v in rng_:
                try:
                    from_mapping(g.knobs, g.derived[name](base, v), base=base, source="oracle")
                except Exception:  # noqa: BLE001 - any refusal of an end
                    return f"free.{name}: the end {v!r} gives no valid rules"
            continue
        spec = declared[name]
        if spec.kind is bool or spec.choices is not None:
            allowed = spec.choices if spec.choices is not None else (False, True)
            if not all(any(type(v) is type(a) and v == a for a in allowed) for v in rng_) or len(set(rng_)) < 2:
                return f"free.{name}: {rng_!r}"
        elif spec.kind is tuple:
            n = len(getattr(base, name))
            ranges = rng_ * n if len(rng_) == 1 else rng_
            if len(ranges) != n or any(bad_range(r, spec.item_kind, spec) for r in ranges):
                return f"free.{name}: {rng_!r}"
        elif bad_range(rng_, spec.kind, spec):
            return f"free.{name}: {rng_!r}"
    for t in mapping["targets"]:
        bound = t.get("at_most", t.get("at_least"))
        m = balance.metric(g, t["metric"])
        if not _number(bound) or abs(bound) > 1e6 or (m.percent and not 0 <= bound <= 1):
            return f"target {t['metric']}: bound {bound!r}"
    return ""


def check_goal_file(path: Path) -> Outcome:
    """``gamelab tune GOAL`` (the search stubbed): refused in one line, or
    accepted and right to be (:func:`goal_wrongly_accepted`)."""
    outcome = run_cli(["tune", str(path)])
    if outcome.kind != "accepted":
        return outcome
    try:
        why = goal_wrongly_accepted(files.load_mapping(path))
    except BaseException as exc:  # noqa: BLE001
        return Outcome("wrong_acceptance", f"{path.name}: the oracle cannot read what tune accepted: {_signature(exc)}")
    return Outcome("wrong_acceptance", why) if why else outcome


GOOD_NUMBERS = ["0", "0.02", "1", "3", "0.5", "1e6", ".5", "7e-3", "-0", "00", "1e-6", "999999", "0.1", "2", "10"]
BAD_NUMBERS = ["1000001", "1e999", "1e308", "1e-320", "0.0000001", "０.1", "٠.٥", "1_000", "0x10", "nan", "inf"]


def expression_mutant(game: str, rng: random.Random) -> str:
    """A question for ``gamelab test``: metric names (real, near, win_rate
    of real and unknown groups and values), numbers (finite, huge, tiny,
    infinite, non-ASCII digits), operators and comparisons, sometimes damaged."""
    from gamelab.core import registry
    from gamelab.stats import balance

    g = registry.get(game)
    names = list(balance.catalogue(g))
    groups = list(g.report.groups) + ["deal", "game", "score", "rotation", "win", "x"]

    def atom() -> str:
        r = rng.random()
        if r < 0.35:
            return rng.choice(names) + rng.choice(("", "", "", "(params)", "(baseline)", "(other)"))
        if r < 0.55:
            group = rng.choice(list(g.report.groups) * 3 + groups)
            known = balance.group_values(g, group) if group in g.report.groups else None
            odd = ["0", "9", "١", "x", "", "1]", "heavy", "greedy"]
            value = rng.choice(list(known or ("1",))) if rng.random() < 0.7 else rng.choice(odd)
            return f"win_rate[{group}={value}]"
        if r < 0.65:
            return "fair"
        return rng.choice(GOOD_NUMBERS) if rng.random() < 0.8 else rng.choice(BAD_NUMBERS)

    def expr(depth=0) -> str:
        out = atom()
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            op = rng.choice("+-*/")
            right = f"({expr(depth + 1)})" if depth < 2 and rng.random() < 0.2 else atom()
            out = f"{out} {op} {right}"
        return out

    compare = rng.choice(("<", ">", "<=", ">=")) if rng.random() < 0.9 else rng.choice(("==", "> >", "=>", ""))
    text = f"{expr()} {compare} {expr()}"
    if rng.random() < 0.1:  # damage: a stray, a cut, a doubled piece
        i = rng.randrange(len(text))
        text = rng.choice((text[:i], text[:i] + rng.choice("()[]=,;$\x00é") + text[i:], text + text[i:]))
    return text


def question_wrongly_accepted(game: str, question) -> str:
    """Why an accepted question should have been refused ("" none)."""
    import math
    import re

    from gamelab.core import registry
    from gamelab.stats import balance

    g = registry.get(game)
    if any(c.isdigit() and not c.isascii() for c in question.text):
        return f"a digit that is not ASCII in {question.text!r}"
    for t in question.terms:
        if not (math.isfinite(t.coef) and 1e-6 <= abs(t.coef) <= 1e6):
            return f"coefficient {t.coef!r} of {t.metric}"
        found = re.fullmatch(r"win_rate\[(\w+)=([^\]]+)\]", t.metric)
        if found:
            group, value = found.groups()
            if group not in g.report.groups:
                return f"win_rate of {group!r}, not a report group of {game}"
            known = balance.group_values(g, group)
            if known is not None and value not in known:
                return f"win_rate[{group}={value}]: not a known value"
    for n in range(g.players[0], g.players[1] + 1):
        c = question.threshold(n)
        if not (math.isfinite(c) and abs(c) <= 2e6):
            return f"threshold {c!r} at {n} players"
    return ""


def check_expression(game: str, text: str) -> Outcome:
    """Parse ``text`` as ``gamelab test`` does: refused in one line, or
    accepted and right to be (:func:`question_wrongly_accepted`)."""
    from gamelab.core import registry
    from gamelab.decide import sequential

    try:
        q = sequential.question_for(registry.get(game), text, with_baseline=True)
    except GamelabError as exc:
        message = str(exc)
        said = message.split("...: ", 1)[-1] if message.startswith("expression '") else message  # a cut quote
        said = re.sub(r"'[^']*'", "''", said)  # what the user wrote, quoted, may say nan
        if "\n" in message or not message.strip() or re.search(r"\b(nan|inf)\b", said):
            return Outcome("bad_exit", f"{text!r}: {message[:200]!r}")
        return Outcome("refused")
    except BaseException as exc:  # noqa: BLE001
        return Outcome("traceback", f"{text!r}: {_signature(exc)}")
    why = question_wrongly_accepted(game, q)
    return Outcome("wrong_acceptance", f"{text!r}: {why}") if why else Outcome("accepted")


def profile_base(game: str) -> dict:
    import yaml

    return yaml.safe_load((ROOT / "data" / "profiles" / f"{game}.yaml").read_text(encoding="utf-8"))


def profile_mutant(game: str, rng: random.Random) -> Any:
    """A profile: the shipped one mutated, its game swapped now and then,
    knob values near and past their ranges, rules among the knobs."""
    tree = profile_base(game)
    if rng.random() < 0.5:
        tree = mutate(tree, rng)
    if isinstance(tree, dict) and rng.random() < 0.3 and isinstance(tree.get("knobs"), dict):
        extra = param_mutant(game, rng)
        tree["knobs"].update(extra if isinstance(extra, dict) else {})
    if isinstance(tree, dict) and rng.random() < 0.15:
        tree["game"] = rng.choice(("sbr", "strand", "pig", "toy", "SBR", ""))
    return tree


def profile_wrongly_accepted(mapping: dict, run_games: list[str]) -> str:
    """Why a profile accepted for a run of ``run_games`` should have been refused."""
    from gamelab.core import registry
    from gamelab.core.params import specs
    from gamelab.models.profile import model_knobs

    if mapping.get("game") not in run_games:
        return f"a profile for {mapping.get('game')!r} accepted for {run_games}"
    g = registry.get(mapping["game"])
    model = model_knobs(g)
    declared = {s.name: s for s in specs(g.knobs)}
    for k, v in mapping["knobs"].items():
        if k not in model:
            return f"knobs.{k}: not a model knob"
        spec = declared[k]
        items = v if isinstance(v, list) else [v]
        for item in items:
            if spec.choices is not None and item not in spec.choices:
                return f"knobs.{k}: {item!r}"
            if _number(item) and (
                (spec.low is not None and item < spec.low) or (spec.high is not None and item > spec.high)
            ):
                return f"knobs.{k}: {item!r} outside {spec.low}..{spec.high}"
    return ""


def check_profile_file(path: Path, game: str, rng: random.Random, others: dict) -> Outcome:
    """A profile through a command of ``game`` (``skill``, ``simulate``,
    ``claims``): refused in one line, or accepted and right to be."""
    choice = rng.randrange(4)
    if choice == 0:
        argv, run_games = ["skill", game, "--players", "4", "--profile", str(path)], [game]
    elif choice == 1:
        argv, run_games = ["simulate", game, "--players", "4", "--profile", str(path)], [game]
    elif choice == 2:
        argv, run_games = ["claims", "--games", game, "--profile", str(path)], [game]
    else:  # a second profile, for the same game or the other one
        other = rng.choice(list(others))
        argv, run_games = ["claims", "--profile", str(path), "--profile", others[other]], ["sbr", "strand"]
        run_games = [g for g in run_games if g != other]  # the other profile takes its game
    outcome = run_cli(argv)
    if outcome.kind != "accepted":
        return outcome
    try:
        why = profile_wrongly_accepted(files.load_mapping(path), run_games)
    except BaseException as exc:  # noqa: BLE001
        return Outcome("wrong_acceptance", f"{argv}: the oracle cannot read what was accepted: {_signature(exc)}")
    return Outcome("wrong_acceptance", f"{argv[:3]}: {why}") if why else outcome


COUNT_FLAGS = {"--games": "MAX_GAMES", "--max-games": "MAX_GAMES", "--trials": "MAX_TRIALS"}
COUNT_VALUES = ["1", "2", "1000", "200000", "200001", "1000000000", "1e9", "10000", "10001", "-1", "0", "x", ""]
LIST_VALUES = [",", " , ", "", ",,", "nothing", "hand_size", "hand_size,", "sum_cap,lone_penalty", "greedy_move", "x,y"]
METRIC_VALUES = ["bogus", "seat_spread", "style_spread", "win_rate[seat=1]", "win_rate[deal=0]", "", "nan"]


def decision_argv(rng: random.Random, paths: dict) -> list[str]:
    """A command line of ``sensitivity``, ``skill``, ``calibrate``, ``test``
    or ``tune`` with counts, lists, metrics and profiles good and bad."""
    command = rng.choice(("sensitivity", "skill", "calibrate", "test", "tune"))
    game = rng.choice(("sbr", "strand", "pig"))
    argv = [command] if command == "tune" else [command, game]
    if command == "tune":
        argv.append(rng.choice([paths["goal"], paths["bad_goal"], paths["missing"]]))
    if command == "test":
        argv.append(rng.choice(["seat_spread > 0.1", "seat_spread < 1e999", "win_rate[deal=0] > 0.1", "fair > 0"]))
    if command in ("sensitivity", "skill", "test") and rng.random() < 0.9:
        argv += ["--players", rng.choice(("2", "3", "4", "7", "0"))]
    flags = {
        "sensitivity": ["--games", "--only", "--metric", "--json", "--seed"],
        "skill": ["--games", "--json", "--profile"],
        "calibrate": ["--games", "--trials", "--free"],
        "test": ["--max-games", "--plan", "--json", "--zone"],
        "tune": ["--trials"],
    }[command]
    for flag in rng.sample(flags, rng.randint(0, len(flags))):
        argv.append(flag)
        if flag in COUNT_FLAGS:
            argv.append(rng.choice(COUNT_VALUES))
        elif flag in ("--only", "--free"):
            argv.append(rng.choice(LIST_VALUES))
        elif flag == "--metric":
            argv.append(rng.choice(METRIC_VALUES))
        elif flag == "--profile":
            argv.append(rng.choice([paths["sbr_profile"], paths["strand_profile"]]))
        elif flag in ("--seed", "--zone"):
            argv.append(rng.choice(("0", "1", "0x10", "1e-7", "nan")))
    return argv


def decision_wrongly_accepted(argv: list[str]) -> str:
    """Why an accepted decision command line should have been refused."""
    from gamelab.core import limits, registry
    from gamelab.stats import balance

    for i, word in enumerate(argv[:-1]):
        value = argv[i + 1]
        if word in COUNT_FLAGS and not (value.isdigit() and 1 <= int(value) <= getattr(limits, COUNT_FLAGS[word])):
            return f"{word} {value}"
        if word in ("--only", "--free") and not [n for n in value.split(",") if n.strip()]:
            return f"{word} {value!r}"
        if word == "--metric":
            try:
                balance.metric(registry.get(argv[1]), value)
            except GamelabError:
                return f"--metric {value!r}"
        if word == "--profile" and Path(value).stem != argv[1]:
            return f"a {Path(value).stem} profile for {argv[1]}"
    return ""


def check_decision_argv(argv: list[str]) -> Outcome:
    outcome = run_cli(argv)
    if outcome.kind != "accepted":
        return outcome
    why = decision_wrongly_accepted(argv)
    return Outcome("wrong_acceptance", f"{argv}: {why}") if why else outcome


def decision_families(n: int, rng: random.Random, folder: Path):
    """(family, label, thunk) of the decision tools' inputs."""
    import yaml

    folder.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        for i in range(max(1, n // 4)):
            suffix, text = as_text(goal_mutant(game, rng), rng)
            path = folder / f"goal_{game}_{i}{suffix}"
            path.write_text(text, encoding="utf-8")
            yield "goal file", text[:80], lambda p=path: check_goal_file(p)
        for _ in range(max(1, n // 2)):
            text = expression_mutant(game, rng)
            yield "expression", text, lambda g=game, t=text: check_expression(g, t)
    for _ in range(max(1, n // 20)):  # the same questions through the command line
        game = rng.choice(GAMES)
        argv = ["test", game, expression_mutant(game, rng), "--players", "3"] + (
            ["--plan"] if rng.random() < 0.5 else []
        )
        yield "expression (command line)", argv, lambda a=argv: run_cli(a)
    others = {g: str(ROOT / "data" / "profiles" / f"{g}.yaml") for g in ("sbr", "strand")}
    for game in ("sbr", "strand"):
        for i in range(max(1, n // 4)):
            suffix, text = as_text(profile_mutant(game, rng), rng)
            path = folder / f"profile_{game}_{i}{suffix}"
            path.write_text(text, encoding="utf-8")
            seed = rng.random()
            yield (
                "profile",
                text[:80],
                lambda p=path, g=game, s=seed: check_profile_file(p, g, random.Random(s), others),
            )
    good_goal, bad_goal = folder / "goal.yaml", folder / "bad_goal.yaml"
    good_goal.write_text(yaml.safe_dump(GOAL_BASE["pig"]))
    bad_goal.write_text(yaml.safe_dump({**GOAL_BASE["pig"], "games": 10**12}))
    paths = {
        "goal": str(good_goal),
        "bad_goal": str(bad_goal),
        "missing": str(folder / "missing.yaml"),
        **{f"{g}_profile": p for g, p in others.items()},
    }
    for _ in range(n):
        argv = decision_argv(rng, paths)
        yield "decision arguments", argv, lambda a=argv: check_decision_argv(a)


# --- issue 41: metagame, skill --trace, the meta-game metrics, every file argument ------------
def file_arguments() -> list[tuple[str, str, str | None]]:
    """(command, dest, flag or None for a positional) of every input-file argument of every
    command, read from the parsers by their type (:class:`gamelab.cli.common.InputFile`)."""
    import argparse

    sub = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return [
        (name, a.dest, a.option_strings[0] if a.option_strings else None)
        for name, p in sub.choices.items()
        for a in p._actions
        if isinstance(a.type, common.InputFile)
    ]


def file_kinds(folder: Path) -> dict[str, str]:
    """Paths that are not a regular file (each must be refused wherever a file is read), and
    good files with a byte-order mark (each must be read)."""
    folder.mkdir(parents=True, exist_ok=True)
    kinds = {"device": "/dev/zero", "random device": "/dev/urandom", "null device": "/dev/null"}
    kinds |= {"folder": str(folder), "empty path": "", "missing": str(folder / "missing.yaml")}
    kinds |= {"under a file": str(folder / "regular.yaml" / "x.yaml"), "proc": "/proc/self/status"}
    (folder / "regular.yaml").write_text("x: 1\n")
    fifo = folder / "fifo.yaml"
    if hasattr(os, "mkfifo") and not fifo.exists():
        os.mkfifo(fifo)
    if fifo.exists():
        kinds["fifo"] = str(fifo)
    return kinds


def good_files(folder: Path) -> dict[str, str]:
    """Files each command may be given that are good (a BOM included) or of another game."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for suffix, text in ((".json", '{"hand_size": 4}'), (".yaml", "hand_size: 4\n")):
        path = folder / f"bom_params{suffix}"
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        out[f"bom{suffix}"] = str(path)
    (folder / "sbr_params.yaml").write_text("beats: 3\nhand_size: 5\n")
    (folder / "marked_sbr.yaml").write_text("game: sbr\nhand_size: 5\n")
    out |= {"sbr params": str(folder / "sbr_params.yaml"), "marked sbr": str(folder / "marked_sbr.yaml")}
    out |= {"sbr record": str(EXAMPLES["sbr"]), "strand record": str(EXAMPLES["strand"])}
    out |= {f"{g} profile": str(ROOT / "data" / "profiles" / f"{g}.yaml") for g in ("sbr", "strand")}
    out["strand goal"] = str(ROOT / "docs" / "goals" / "strand-metagame.yaml")
    return out


#: the shortest command line around each command's file argument (a game, a player count)
FILE_PREFIX = {
    "simulate": ["simulate", "strand", "--players", "3"],
    "report": ["report", "strand"],
    "claims": ["claims", "strand"],
    "identities": ["identities", "strand"],
    "sensitivity": ["sensitivity", "strand", "--players", "3"],
    "test": ["test", "strand", "seat_spread < 0.1", "--players", "3"],
    "skill": ["skill", "strand", "--players", "3"],
    "metagame": ["metagame", "strand", "--players", "3"],
    "calibrate": ["calibrate", "strand"],
}


def file_argv(command: str, flag: str | None, path: str) -> list[str]:
    """``command`` with ``path`` given to its file argument ``flag`` (None: the positional)."""
    if flag is None:
        return [command, path]
    prefix = FILE_PREFIX.get(command, [command])
    if command == "tune":
        prefix = ["tune", str(ROOT / "docs" / "goals" / "strand-metagame.yaml")]
    if command == "sweep":
        prefix = ["sweep", str(ROOT / "docs" / "goals" / "strand-metagame.yaml")]
    return [*prefix, flag, path]


def strand_styles() -> int:
    """How many styles STRAND declares (the range of a count of styles: 0..this)."""
    from gamelab.core import registry

    return len(registry.get("strand").metagame.names)


PLAYER_WORDS = ["3", "4", "3 3", "3 4", "\u0663", "\uff13", "0", "9", "3.0", "", "-3"]
TRACE_METRICS = ["seat_spread", "style_spread", "bogus", "nonsense_metric", "", "styles_worth_playing"]
TRACE_METRICS += ["equilibrium_spread", "win_rate[seat=1]"]
RUNGS = ["best@1", "best@4", "default", "bogus", "", "best@99"]
OUT_NAMES = ["", " ", "chart.png", "chart.txt", "/proc/gamelab-fuzz/x.png", "chart.PNG", "x"]
COUNT_BOUNDS = ["-1", "0", "3", "3.5", "4", "6", "7", "100", "1e9"]
SHARE_BOUNDS = ["-0.1", "0", "0.3", "1", "1.5", "1e9"]
MAX_GAMES_WORDS = ["64", "100", "767", "768", "1000", "200000"]


def meta_argv(rng: random.Random, kinds: dict, good: dict, folder: Path) -> list[str]:
    """A command line of ``metagame``, ``skill --trace``, ``test`` or ``tune`` on the meta-game's
    metrics, or any command's file argument given a path good or bad."""
    pick = rng.random()
    if pick < 0.25:  # metagame
        argv = ["metagame", rng.choice(["strand", "strand", "sbr", "pig"])]
        if rng.random() < 0.8:
            argv += ["--players", *rng.choice(PLAYER_WORDS).split(" ")]
        if rng.random() < 0.3:
            argv += ["--out", rng.choice(OUT_NAMES)]
        if rng.random() < 0.4:
            argv += ["--params", rng.choice([*kinds.values(), *good.values()])]
        if rng.random() < 0.2:
            argv += ["--deals", rng.choice(["16", "15", "100000", "x", "\u0661\u0666"])]
        return argv
    if pick < 0.45:  # skill --trace
        argv = ["skill", "strand", "--players", rng.choice(["3", "4", "\u0663"])]
        if rng.random() < 0.85:
            argv += ["--trace", rng.choice(TRACE_METRICS)]
        if rng.random() < 0.5:
            argv += ["--top", rng.choice(RUNGS)]
        if rng.random() < 0.2:
            argv += ["--out", rng.choice(OUT_NAMES)]
        if rng.random() < 0.2:
            argv += ["--profile", rng.choice([*kinds.values(), good["strand profile"], good["sbr profile"]])]
        return argv
    if pick < 0.65:  # test on the meta-game's metrics (and others)
        if rng.random() < 0.5:
            expr = f"styles_worth_playing {rng.choice(['>=', '>', '<', '<='])} {rng.choice(COUNT_BOUNDS)}"
        else:
            expr = f"equilibrium_spread {rng.choice(['<', '>', '<='])} {rng.choice(SHARE_BOUNDS)}"
        argv = ["test", "strand", expr, "--players", rng.choice(["3", "4"])]
        if rng.random() < 0.4:
            argv += ["--max-games", rng.choice(MAX_GAMES_WORDS)]
        if rng.random() < 0.2:
            argv += ["--workers", "1", "--scheduler", "tcp://127.0.0.1:1"]
        if rng.random() < 0.2:
            argv += [rng.choice(["--params", "--baseline"]), rng.choice([*kinds.values(), *good.values()])]
        if rng.random() < 0.5:
            argv.append("--plan")
        return argv
    if pick < 0.8:  # tune on a goal with the meta-game's metrics
        return tune_argv(rng, folder)
    command, _dest, flag = rng.choice(file_arguments())  # every file argument, any path
    return file_argv(command, flag, rng.choice([*kinds.values(), *good.values()]))


def tune_argv(rng: random.Random, folder: Path) -> list[str]:
    import yaml

    goal = yaml.safe_load((ROOT / "docs" / "goals" / "strand-metagame.yaml").read_text())
    if rng.random() < 0.5:
        goal["targets"] = [{"metric": "styles_worth_playing", "at_least": _num(rng.choice(COUNT_BOUNDS))}]
    else:
        goal["targets"] = [{"metric": "equilibrium_spread", "at_most": _num(rng.choice(SHARE_BOUNDS))}]
    if rng.random() < 0.3:
        goal["trials"] = rng.choice([16, 10_000])
        goal["games"] = rng.choice([30_000, 200_000])
    path = folder / f"goal_{rng.randrange(10**9)}.yaml"
    path.write_text(yaml.safe_dump(goal))
    argv = ["tune", str(path)]
    if rng.random() < 0.3:
        argv += ["--runs-dir", rng.choice(["/proc/runs", "", str(folder / "regular.yaml"), str(folder / "runs")])]
    if rng.random() < 0.2:
        argv += ["--trials", rng.choice(["16", "10000"])]
    return argv


def _num(text: str):
    value = float(text)
    return int(value) if value == int(value) and abs(value) < 1e6 else value


def meta_wrongly_accepted(argv: list[str], kinds: dict, good: dict) -> str:
    """Why an accepted command line of :func:`meta_argv` should have been refused (written from
    the declarations: the paths' kinds, the games' metrics and styles, the limits), or ''."""
    from gamelab.core import limits, registry
    from gamelab.decide.sequential import CHUNK_DEALS
    from gamelab.stats import balance

    bad_paths = set(kinds.values())
    other_game = {good["sbr params"]: "sbr", good["marked sbr"]: "sbr", good["sbr record"]: "sbr"}
    other_game |= {good["sbr profile"]: "sbr"}
    game = argv[1] if len(argv) > 1 and argv[1] in registry.available_games() else None
    file_flags = {flag for _, _, flag in file_arguments() if flag}
    positional = {command for command, _, flag in file_arguments() if flag is None}
    for i, word in enumerate(argv):
        value = argv[i + 1] if i + 1 < len(argv) else None
        if value in bad_paths and (word in file_flags or (i == 0 and word in positional)):
            return f"{word} {value!r}: not a regular file"
        if value in other_game and game is not None and other_game[value] != game and word.startswith("--"):
            return f"{word} {value}: a file of {other_game[value]} given to {game}"
        if word == "--players":
            counts = list(itertools.takewhile(lambda w: not w.startswith("--"), argv[i + 1 :]))
            if any(not c.isascii() or not c.isdigit() for c in counts):
                return f"--players {counts}: not ASCII digits"
            if len(set(counts)) != len(counts):
                return f"--players {counts}: a count twice"
        if word == "--out" and value is not None and (not value.strip() or value.startswith("/proc")):
            return f"--out {value!r}"
        if word == "--runs-dir" and value is not None and (not value.strip() or value.startswith("/proc")):
            return f"--runs-dir {value!r}"
        if word == "--runs-dir" and value is not None and Path(value).is_file():
            return f"--runs-dir {value!r}: a file"
        if word == "--trace" and game is not None:
            try:
                if not balance.metric(registry.get(game), value).smooth:
                    return f"--trace {value}: a meta-game metric on the ladder's tables"
            except GamelabError:
                return f"--trace {value!r}: no such metric"
        if word == "--top" and "--trace" not in argv:
            return "--top without --trace"
        if word == "--top" and value in ("bogus", "", "best@99"):
            return f"--top {value!r}: no such rung"
        if word == "--max-games" and game is not None and "styles_worth_playing" not in " ".join(argv):
            if "equilibrium_spread" not in " ".join(argv) and value.isdigit():
                players = int(argv[argv.index("--players") + 1]) if "--players" in argv else 3
                if int(value) < CHUNK_DEALS * players:
                    return f"--max-games {value}: fewer than one look"
        if word == "--max-games" and value.isdigit() and int(value) < CHUNK_DEALS:
            return f"--max-games {value}: fewer than one look"
        if word == "--scheduler" and "--workers" in argv:
            return "--workers and --scheduler both"
    if argv[0] == "test" and len(argv) > 2:
        name, _, bound = argv[2].split(" ", 2)
        if name == "styles_worth_playing" and (not 0 <= float(bound) <= strand_styles() or float(bound) % 1):
            return f"{argv[2]}: outside 0..{strand_styles()} or not whole"
        if name == "equilibrium_spread" and not 0 <= float(bound) <= 1:
            return f"{argv[2]}: outside 0..1"
    if argv[0] == "tune":
        import yaml

        goal = yaml.safe_load(Path(argv[1]).read_text())
        t = goal["targets"][0]
        bound = t.get("at_least", t.get("at_most"))
        if t["metric"] == "styles_worth_playing" and (not 0 <= bound <= strand_styles() or bound % 1):
            return f"target {bound} of {t['metric']}"
        if t["metric"] == "equilibrium_spread" and not 0 <= bound <= 1:
            return f"target {bound} of {t['metric']}"
        trials = int(argv[argv.index("--trials") + 1]) if "--trials" in argv else goal["trials"]
        if trials * goal["games"] > limits.MAX_RUN_GAMES:
            return f"{trials} trials of {goal['games']} games"
    return ""


def check_meta_argv(argv: list[str], kinds: dict, good: dict) -> Outcome:
    outcome = run_cli(argv)
    if outcome.kind != "accepted":
        return outcome
    why = meta_wrongly_accepted(argv, kinds, good)
    return Outcome("wrong_acceptance", f"{argv}: {why}") if why else outcome


def meta_families(n: int, rng: random.Random, folder: Path):
    """(family, label, thunk) of issue 41's inputs: every file argument given every kind of path
    that is not a regular file (each must be refused), then ``n`` random command lines of
    ``metagame``, ``skill --trace``, ``test``/``tune`` on the meta-game's metrics and file arguments."""
    kinds, good = file_kinds(folder / "kinds"), good_files(folder / "good")
    for command, _dest, flag in file_arguments():
        for path in kinds.values():
            argv = file_argv(command, flag, path)
            yield "file arguments", argv, lambda a=argv: _must_refuse(a)
    for _ in range(n):
        argv = meta_argv(rng, kinds, good, folder / "kinds")
        yield "metagame, trace, meta metrics", argv, lambda a=argv: check_meta_argv(a, kinds, good)


def _must_refuse(argv: list[str]) -> Outcome:
    outcome = run_cli(argv)
    return (
        Outcome("wrong_acceptance", f"{argv}: a path that is not a regular file")
        if outcome.kind == "accepted"
        else outcome
    )


# --- the run -------------------------------------------------------------------
def families(n: int, rng: random.Random, folder: Path):
    """(family, label, thunk) for every input to try."""
    for game in GAMES:
        base = example(game)
        for _ in range(n):
            m = mutate(base, rng)
            yield f"{game} record", m, lambda m=m: check_record(m)
        for i in range(max(1, n // 4)):
            suffix, text = as_text(mutate(base, rng), rng)
            path = folder / f"{game}_{i}{suffix}"
            path.write_text(text, encoding="utf-8")
            yield f"{game} record file", text[:80], lambda p=path: run_cli(["replay", str(p)])
    for i, (suffix, content) in enumerate(hostile_files()):
        path = folder / f"hostile_{i}{suffix}"
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        for argv in HOSTILE_COMMANDS(path):
            yield "hostile file", argv, lambda a=argv: run_cli(a)
    for game in GAMES:
        for i in range(max(1, n // 10)):
            suffix, text = as_text(param_mutant(game, rng), rng)
            path = folder / f"params_{game}_{i}{suffix}"
            path.write_text(text, encoding="utf-8")
            command = rng.choice((["identities", game], ["simulate", game, "--players", "3"]))
            yield "parameter file", text[:80], lambda a=[*command, "--params", str(path)]: run_cli(a)
        for i in range(max(1, n // 10)):
            suffix, text = as_text(grid_mutant(game, rng), rng)
            path = folder / f"grid_{game}_{i}{suffix}"
            path.write_text(text, encoding="utf-8")
            yield "sweep grid", text[:80], lambda p=path: run_cli(["sweep", str(p), "--runs-dir", str(folder / "runs")])
    paths = fixture_paths(folder / "fixtures")
    for _ in range(n):
        argv = cli_mutant(rng, paths)
        yield "command line", argv, lambda a=argv: run_cli(a)
    yield from decision_families(n, rng, folder / "decision")
    yield from meta_families(n, rng, folder / "meta")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=1000, help="mutants per record family and command lines")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only-decision", action="store_true", help="only the decision tools' inputs (issue 23)")
    ap.add_argument(
        "--only-meta", action="store_true", help="only metagame, skill --trace, the meta metrics, file arguments (41)"
    )
    args = ap.parse_args(argv)
    os.environ.setdefault("GAMELAB_HOME", tempfile.mkdtemp(prefix="gamelab-fuzz-home-"))
    rng = random.Random(args.seed)
    counts: dict[str, Counter] = {}
    slowest: dict[str, float] = {}
    failures: dict[str, tuple[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="gamelab-fuzz-") as tmp:
        if args.only_meta:
            todo = meta_families(args.mutants, rng, Path(tmp) / "meta")
        elif args.only_decision:
            todo = decision_families(args.mutants, rng, Path(tmp) / "decision")
        else:
            todo = families(args.mutants, rng, Path(tmp))
        for family, label, thunk in todo:
            start = time.perf_counter()
            outcome = thunk()
            took = time.perf_counter() - start
            slowest[family] = max(slowest.get(family, 0.0), took)
            if took > SLOW_SECONDS and not outcome.failed:
                outcome = Outcome("slow", f"{took:.0f} s")
            counts.setdefault(family, Counter())[outcome.kind] += 1
            if outcome.failed:
                failures.setdefault(f"{family}: {outcome.kind}: {outcome.detail[:200]}", (family, label))
    total = Counter()
    print(f"{'family':26} {'inputs':>7} {'accepted':>9} {'refused':>8} {'failures':>9} {'slowest s':>10}")
    for family, c in counts.items():
        total.update(c)
        bad = sum(v for k, v in c.items() if k not in ("accepted", "refused"))
        print(f"{family:26} {sum(c.values()):7d} {c['accepted']:9d} {c['refused']:8d} {bad:9d} {slowest[family]:10.2f}")
    bad = sum(v for k, v in total.items() if k not in ("accepted", "refused"))
    top = max(slowest.values(), default=0.0)
    print(f"{'all':26} {sum(total.values()):7d} {total['accepted']:9d} {total['refused']:8d} {bad:9d} {top:10.2f}")
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(total.items()) if k not in ("accepted", "refused")) or "none"
    print(f"failures by kind: {kinds}; distinct: {len(failures)}")
    for key, (_family, label) in sorted(failures.items()):
        shown = label if isinstance(label, (str, list)) else json.dumps(label, ensure_ascii=False, default=str)
        print(f"  {key}\n      input: {str(shown)[:300]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
