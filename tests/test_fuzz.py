"""Property-based tests of every input from outside (Hypothesis).

Mutants of the worked example records, parameter files, sweep grids and
command lines: each is refused cleanly (a GamelabError; on the command line
exit 2 and one line on stderr) or accepted, never a traceback; an accepted
record keeps the rules and replays identically after a JSON round trip.
The harness is ``scripts/fuzz_inputs.py`` (the by-hand fuzzer).

Sized for CI (the whole file well under a minute); for a long run by hand
set ``GAMELAB_FUZZ_EXAMPLES`` (examples per test, e.g. 5000).
"""

import importlib.util
import json
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelab.core import registry
from gamelab.core.params import specs

_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "fuzz_inputs.py"
_spec = importlib.util.spec_from_file_location("fuzz_inputs", _SCRIPT)
fuzz = sys.modules.setdefault("fuzz_inputs", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(fuzz)

LONG = int(os.environ.get("GAMELAB_FUZZ_EXAMPLES", "0"))


def sized(n: int):
    """Hypothesis settings: ``n`` examples in CI, GAMELAB_FUZZ_EXAMPLES by hand."""
    return settings(
        max_examples=LONG or n,
        deadline=None,
        database=None,
        derandomize=not LONG,  # CI: the same examples on every run of the same code (a long run: fresh ones)
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


@pytest.fixture(scope="module", autouse=True)
def _workspace(tmp_path_factory):
    """Caches and runs of the command lines under a temporary workspace."""
    old = os.environ.get("GAMELAB_HOME")
    os.environ["GAMELAB_HOME"] = str(tmp_path_factory.mktemp("home"))
    yield
    if old is None:
        os.environ.pop("GAMELAB_HOME", None)
    else:
        os.environ["GAMELAB_HOME"] = old


SPECIAL = st.sampled_from(
    ["", "stay", "07", " 7", "Ａ", "standard", "sbr", "x" * 5000, 10**30, 2**63, -(10**19), -0.0, 1e308]
)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12) | SPECIAL
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
OPS = ("delete", "replace", "perturb", "rename", "duplicate", "swap", "nest")


@st.composite
def mutants(draw, base):
    """``base`` with one to three changes, each at a place Hypothesis picks."""
    tree = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in fuzz.nodes(tree) if p]
        if not places:
            break
        path = places[draw(st.integers(0, len(places) - 1))]
        parent, key = fuzz._at(tree, path[:-1]), path[-1]
        op = draw(st.sampled_from(OPS))
        if op == "delete":
            del parent[key]
        elif op == "replace":
            parent[key] = draw(JSON_VALUES)
        elif op == "perturb":
            parent[key] = fuzz._perturb(parent[key], tree, random.Random(draw(st.integers(0, 2**16))))
        elif op == "rename" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6) | st.sampled_from([*parent, "stay", "07"]))] = parent.pop(key)
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(parent[key])))
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[j] = parent[j], parent[key]
        elif op == "nest":
            value = parent[key]
            for _ in range(draw(st.sampled_from([1, 5, 60]))):
                value = [value]
            parent[key] = value
    return tree


def _assert_clean(outcome):
    assert not outcome.failed, f"{outcome.kind}: {outcome.detail}"


@pytest.mark.parametrize("game", fuzz.GAMES)
def test_record_mutants_are_refused_or_replay_the_same(game):
    @sized(300)
    @given(mutants(fuzz.example(game)))
    def check(record):
        _assert_clean(fuzz.check_record(record))

    check()


@pytest.mark.parametrize("game", fuzz.GAMES)
def test_record_files_through_the_command_line(game, tmp_path):
    @sized(60)
    @given(mutants(fuzz.example(game)), st.randoms(use_true_random=False))
    def check(record, rng):
        suffix, text = fuzz.as_text(record, rng)
        path = tmp_path / f"record{suffix}"
        path.write_text(text, encoding="utf-8")
        _assert_clean(fuzz.run_cli(["replay", str(path)]))

    check()


@pytest.mark.parametrize("index", range(len(fuzz.hostile_files())))
def test_hostile_files_are_refused_in_one_line(index, tmp_path):
    suffix, content = fuzz.hostile_files()[index]
    path = tmp_path / f"hostile{suffix}"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    for argv in (["replay", str(path)], ["identities", "sbr", "--params", str(path)], ["sweep", str(path)]):
        outcome = fuzz.run_cli(argv)
        assert outcome.kind == "refused", f"{argv}: {outcome}"


def _param_values(game):
    names = [s.name for s in specs(registry.get(game).knobs)]
    return st.dictionaries(st.sampled_from(names) | st.text(max_size=8), JSON_VALUES, max_size=4)


@pytest.mark.parametrize("game", fuzz.GAMES)
def test_parameter_files(game, tmp_path):
    @sized(80)
    @given(_param_values(game) | JSON_VALUES, st.randoms(use_true_random=False))
    def check(mapping, rng):
        if rng.random() < 0.5:  # names near the declared ones, values near their ranges
            mapping = fuzz.param_mutant(game, rng)
        suffix, text = fuzz.as_text(mapping, rng)
        path = tmp_path / f"params{suffix}"
        path.write_text(text, encoding="utf-8")
        _assert_clean(fuzz.run_cli(["identities", game, "--params", str(path)]))

    check()


@pytest.mark.parametrize("game", fuzz.GAMES)
def test_sweep_grids(game, tmp_path):
    @sized(80)
    @given(mutants(fuzz.GRID_BASE[game]), st.randoms(use_true_random=False))
    def check(spec, rng):
        suffix, text = fuzz.as_text(spec, rng)
        path = tmp_path / f"grid{suffix}"
        path.write_text(text, encoding="utf-8")
        _assert_clean(fuzz.run_cli(["sweep", str(path), "--runs-dir", str(tmp_path / "runs")]))

    check()


def test_command_lines(tmp_path):
    paths = fuzz.fixture_paths(tmp_path / "fixtures")
    words = list(fuzz.COMMANDS) + list(fuzz.FLAGS) + list(paths.values())
    words += ["sbr", "strand", "pig", "toy", "0", "-1", "2", "4", "nan", "inf", "1e3", "", "x" * 500, "greedy"]

    @sized(300)
    @given(st.randoms(use_true_random=False), st.lists(st.sampled_from(words) | st.text(max_size=6), max_size=6))
    def check(rng, tail):
        argv = fuzz.cli_mutant(rng, paths) if rng.random() < 0.7 else tail
        _assert_clean(fuzz.run_cli(argv))

    check()
