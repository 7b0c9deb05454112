"""Property-based tests of every input from outside (Hypothesis).

Mutants of the worked example records, parameter files, sweep grids,
command lines, and the decision tools' inputs (tuner goal files, ``gamelab
test`` expressions, player-model profiles, the arguments of sensitivity,
skill, calibrate, test and tune): each is refused cleanly (a GamelabError;
on the command line exit 2 and one line on stderr) or accepted, never a
traceback; an accepted record keeps the rules and replays identically after
a JSON round trip; an accepted goal, expression, profile or command line is
checked by an oracle written from the declarations (no wrong acceptance).
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
    for argv in fuzz.HOSTILE_COMMANDS(path):
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


# -- the decision tools' inputs (issue 23): goal files, expressions, profiles, arguments ------------


@pytest.mark.parametrize("game", fuzz.GAMES)
def test_goal_files(game, tmp_path):
    @sized(60)
    @given(st.randoms(use_true_random=False), mutants(fuzz.GOAL_BASE[game]), st.booleans())
    def check(rng, hyp_goal, targeted):
        tree = fuzz.goal_mutant(game, rng) if targeted else hyp_goal
        suffix, text = fuzz.as_text(tree, rng)
        path = tmp_path / f"goal{suffix}"
        path.write_text(text, encoding="utf-8")
        _assert_clean(fuzz.check_goal_file(path))

    check()


EXPR_PIECES = st.sampled_from(
    ["seat_spread", "win_rate[seat=1]", "win_rate[deal=0]", "win_rate[seat=٣]", "fair", "(", ")", "+", "-", "*", "/"]
    + ["<", ">", "<=", "1e999", "1e308", "1e-320", "0.02", "３", "nan", "inf", "(baseline)", "mean_score", "7"]
)


@pytest.mark.parametrize("game", fuzz.GAMES)
def test_expressions(game):
    @sized(300)
    @given(st.randoms(use_true_random=False), st.lists(EXPR_PIECES | st.text(max_size=3), max_size=12), st.booleans())
    def check(rng, pieces, from_grammar):
        text = fuzz.expression_mutant(game, rng) if from_grammar else " ".join(pieces)
        _assert_clean(fuzz.check_expression(game, text))

    check()


@pytest.mark.parametrize("game", ["sbr", "strand"])
def test_profiles(game, tmp_path):
    others = {g: str(fuzz.ROOT / "data" / "profiles" / f"{g}.yaml") for g in ("sbr", "strand")}

    @sized(40)
    @given(st.randoms(use_true_random=False))
    def check(rng):
        suffix, text = fuzz.as_text(fuzz.profile_mutant(game, rng), rng)
        path = tmp_path / f"profile{suffix}"
        path.write_text(text, encoding="utf-8")
        _assert_clean(fuzz.check_profile_file(path, game, rng, others))

    check()


def test_decision_command_lines(tmp_path):
    import yaml

    goal = tmp_path / "goal.yaml"
    goal.write_text(yaml.safe_dump(fuzz.GOAL_BASE["pig"]))
    bad = tmp_path / "bad_goal.yaml"
    bad.write_text(yaml.safe_dump({**fuzz.GOAL_BASE["pig"], "verify_games": 10**12}))
    paths = {"goal": str(goal), "bad_goal": str(bad), "missing": str(tmp_path / "none.yaml")}
    paths |= {f"{g}_profile": str(fuzz.ROOT / "data" / "profiles" / f"{g}.yaml") for g in ("sbr", "strand")}

    @sized(150)
    @given(st.randoms(use_true_random=False))
    def check(rng):
        _assert_clean(fuzz.check_decision_argv(fuzz.decision_argv(rng, paths)))

    check()


def test_the_oracles_catch_the_issues_wrong_acceptances():
    """The fuzzer's oracles are not vacuous: each wrongly accepted input of
    issue 23 is named by them."""
    from gamelab.decide.expressions import Question, Term

    goal = json.loads(json.dumps(fuzz.GOAL_BASE["strand"]))
    for free, bad in (("teams", [1, 0]), ("sum_cap", [0.2, 0.8]), ("sum_cap", [9, 5]), ("node_scale", [1e-300, 1e300])):
        assert fuzz.goal_wrongly_accepted({**goal, "free": {free: bad}}), free
    assert fuzz.goal_wrongly_accepted({**goal, "games": 10**12})
    assert fuzz.goal_wrongly_accepted({**goal, "targets": [{"metric": "style_spread", "at_most": 1e308}]})
    assert not fuzz.goal_wrongly_accepted(goal)
    for terms, c in (
        ((Term(1.0, "win_rate[deal=0]", "params"),), 0.1),
        ((Term(float("inf"), "seat_spread", "params"),), 0.0),
        ((Term(1.0, "seat_spread", "params"),), float("inf")),
    ):
        assert fuzz.question_wrongly_accepted("strand", Question("q", terms, c, 0.0, 1))
    assert fuzz.decision_wrongly_accepted(["sensitivity", "sbr", "--only", ","])
    assert fuzz.decision_wrongly_accepted(["sensitivity", "sbr", "--metric", "bogus", "--json"])
    assert fuzz.decision_wrongly_accepted(["skill", "sbr", "--games", "1000000000"])
    assert fuzz.profile_wrongly_accepted(fuzz.profile_base("sbr"), ["strand"])


# -- issue 41: metagame, skill --trace, the meta-game metrics, every file argument -----------------


def test_metagame_trace_meta_metrics_and_every_file_argument(tmp_path):
    """Every file argument of every command (from the parsers) given each kind of path that is not
    a regular file (a device, a FIFO, a folder, an empty path, a file under /proc, ...) is refused,
    and random command lines of ``metagame``, ``skill --trace``, ``test``/``tune`` on
    ``styles_worth_playing`` / ``equilibrium_spread`` are refused or accepted rightly: 0 tracebacks,
    0 hangs (a FIFO read is cut by an alarm), 0 wrongly accepted.  Everything is refused or accepted
    before any game (the stubs), so each case takes milliseconds."""
    rng = random.Random(LONG or 41)
    outcomes = {}
    for family, _label, thunk in fuzz.meta_families(LONG or 150, rng, tmp_path):
        outcome = thunk()
        outcomes[family] = outcomes.get(family, 0) + 1
        _assert_clean(outcome)
    assert outcomes["file arguments"] >= 20 * 8  # every file argument, each kind of bad path


def test_the_oracles_catch_the_wrong_acceptances_of_issue_41(tmp_path):
    """The issue's wrongly accepted inputs, as the oracle sees them: each is named."""
    kinds, good = fuzz.file_kinds(tmp_path / "kinds"), fuzz.good_files(tmp_path / "good")
    wrong = [
        ["metagame", "strand", "--out", ""],
        ["metagame", "strand", "--params", good["sbr params"]],
        ["skill", "strand", "--players", "3", "--trace", ""],
        ["skill", "strand", "--players", "3", "--top", "bogus"],
        ["skill", "strand", "--players", "3", "--trace", "styles_worth_playing"],
        ["metagame", "strand", "--players", "3", "3"],
        ["metagame", "strand", "--players", "\u0663"],
        ["test", "strand", "styles_worth_playing >= 7", "--players", "3"],
        ["test", "strand", "equilibrium_spread < 1.5", "--players", "3"],
        ["test", "strand", "styles_worth_playing >= 3.5", "--players", "3"],
        ["test", "strand", "seat_spread < 0.1", "--players", "3", "--max-games", "64"],
        ["test", "strand", "seat_spread < 0.1", "--workers", "1", "--scheduler", "tcp://127.0.0.1:1"],
        ["report", "strand", "--playtest", kinds["fifo"]],
        ["metagame", "strand", "--params", "/dev/zero"],
    ]
    for argv in wrong:
        assert fuzz.meta_wrongly_accepted(argv, kinds, good), argv
    assert not fuzz.meta_wrongly_accepted(["metagame", "strand", "--players", "3", "4"], kinds, good)
    assert not fuzz.meta_wrongly_accepted(
        ["test", "strand", "styles_worth_playing >= 4", "--players", "4"], kinds, good
    )
