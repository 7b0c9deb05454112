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
import json
import os
import random
import sys
import tempfile
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


class Accepted(Exception):  # noqa: N818 - an outcome, not an error
    """Raised in place of a simulation: every check before it passed."""


@dataclasses.dataclass
class Outcome:
    kind: str  # accepted | refused | traceback | bad_exit | broken_rule | round_trip
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
    targets += [("report.render", "build_report"), ("rulebook.claims", "audit"), ("decide.sensitivity", "levers")]
    targets += [("decide.tune", "run"), ("decide.sequential", "plan"), ("decide.sequential", "decide")]
    targets += [("models.calibrate", "calibrate"), ("models.skill", "ladder")]
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


def run_cli(argv: list[str]) -> Outcome:
    """``gamelab ARGV`` with the output captured: exit 0 (or the stub reached)
    is accepted, exit 2 with one line on stderr refused, anything else a failure."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), no_simulation():
            rc = cli.main(argv)
    except Accepted:
        return Outcome("accepted")
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
    from gamelab.sbr import record as sbr_record

    p = sbr_record._params(record)
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
        (".json", "\ufeff" + json.dumps(ex)),
        (".json", ""),
        (".json", "null"),
        (".yaml", ""),
        (".yaml", "- 1\n- 2\n"),
        (".yaml", "game: sbr\n\tplayers: [a]\n"),
        (".yaml", ":\n  - ][\n"),
    ]
    return out


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
        for argv in (["replay", str(path)], ["identities", "sbr", "--params", str(path)], ["sweep", str(path)]):
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", type=int, default=1000, help="mutants per record family and command lines")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    os.environ.setdefault("GAMELAB_HOME", tempfile.mkdtemp(prefix="gamelab-fuzz-home-"))
    rng = random.Random(args.seed)
    counts: dict[str, Counter] = {}
    failures: dict[str, tuple[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="gamelab-fuzz-") as tmp:
        for family, label, thunk in families(args.mutants, rng, Path(tmp)):
            outcome = thunk()
            counts.setdefault(family, Counter())[outcome.kind] += 1
            if outcome.failed:
                failures.setdefault(f"{family}: {outcome.kind}: {outcome.detail[:200]}", (family, label))
    total = Counter()
    print(f"{'family':22} {'inputs':>7} {'accepted':>9} {'refused':>8} {'failures':>9}")
    for family, c in counts.items():
        total.update(c)
        bad = sum(v for k, v in c.items() if k not in ("accepted", "refused"))
        print(f"{family:22} {sum(c.values()):7d} {c['accepted']:9d} {c['refused']:8d} {bad:9d}")
    bad = sum(v for k, v in total.items() if k not in ("accepted", "refused"))
    print(f"{'all':22} {sum(total.values()):7d} {total['accepted']:9d} {total['refused']:8d} {bad:9d}")
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(total.items()) if k not in ("accepted", "refused")) or "none"
    print(f"failures by kind: {kinds}; distinct: {len(failures)}")
    for key, (_family, label) in sorted(failures.items()):
        shown = label if isinstance(label, (str, list)) else json.dumps(label, ensure_ascii=False, default=str)
        print(f"  {key}\n      input: {str(shown)[:300]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
