"""``docs/adding-a-game.md`` walked through: every path, name and figure it
states about Pig, the worked example, is checked against the code (a guide
that drifts from the code misleads the next person who adds a game); and a
game's plumbing (what is not its rules, state, engine, reference, agents,
identities or record) is at most 80 lines, Pig's and any new game's."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from gamelab.core import registry

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "adding-a-game.md"
TEXT = GUIDE.read_text(encoding="utf-8")
PIG = ROOT / "gamelab" / "pig"
PIG_MODULES = sorted(p.stem for p in PIG.glob("*.py") if p.stem != "__init__")
CODE = re.findall(r"`([^`\n]+)`", TEXT)  # every inline code span


#: the modules a game writes for its own sake; every other module of its folder is plumbing
NOT_PLUMBING = ("rules", "state", "engine", "reference", "agents", "identities", "record")
PLUMBING_MAX = 80


def code_lines(path: Path) -> int:
    """Lines of code: not blank, not a comment, not in a docstring (module, class or function)."""
    text = path.read_text(encoding="utf-8")
    docs: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                docs.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return sum(1 for i, line in enumerate(text.splitlines(), 1) if line.strip()[:1] not in ("", "#") and i not in docs)


def plumbing(folder: Path) -> dict[str, int]:
    """{module: lines of code} of a game folder's plumbing."""
    return {p.name: code_lines(p) for p in sorted(folder.glob("*.py")) if p.stem not in NOT_PLUMBING}


def test_code_lines_leave_out_blanks_comments_and_docstrings(tmp_path):
    path = tmp_path / "m.py"
    path.write_text('"""Doc\nmore."""\n\n# why\nX = 1  # counted\n\n\ndef f():\n    """Doc."""\n    return X\n')
    assert code_lines(path) == 3


NEW_GAMES = sorted(set(registry.game_folders()) - set(registry.shipped_games()))


@pytest.mark.parametrize("game", ["pig", *NEW_GAMES])
def test_a_game_s_plumbing_is_at_most_80_lines(game):
    """Pig's, and that of every game from outside the package (``GAMELAB_GAMES``): the shared layer
    owns the loop, the columns' counting, the panels' defaults; a folder holds its game."""
    lines = plumbing(registry.game_folders()[game])
    assert sum(lines.values()) <= PLUMBING_MAX, lines


def test_the_guide_states_pig_s_plumbing():
    lines = plumbing(PIG)
    found = re.search(r"Pig's plumbing is (\d+) lines of code \(([^)]*)\)", TEXT)
    assert found, "the guide states Pig's plumbing and its files"
    assert int(found.group(1)) == sum(lines.values()) <= PLUMBING_MAX
    assert re.findall(r"`(\w+\.py)` (\d+)", found.group(2)) == [(k, str(v)) for k, v in lines.items() if v]


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _resolve(dotted: str):
    """The object a dotted name names: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(dotted)


def test_every_path_the_guide_names_exists():
    paths = {c for c in CODE if re.fullmatch(r"(gamelab|tests|data|docs|notebooks|scripts)/[\w./-]+", c)}
    assert len(paths) >= 8, paths
    assert sorted(p for p in paths if not (ROOT / p).exists()) == []


def test_every_dotted_name_the_guide_names_exists():
    names = {m.group(1) for c in CODE for m in [re.fullmatch(r"(gamelab(?:\.\w+)+)(?:\(.*\))?", c)] if m}
    assert len(names) >= 10, names
    missing = []
    for name in sorted(names):
        try:
            _resolve(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert missing == []


def test_every_pig_module_attribute_the_guide_names_exists():
    """``engine.prefer``, ``agents.Controller``, ``sim.ASSUMPTIONS``: a Pig module's attribute."""
    pattern = rf"({'|'.join(PIG_MODULES)})\.(\w+)(?:\(.*\))?"
    named = {m.groups() for c in CODE for m in [re.fullmatch(pattern, c)] if m and m.group(2) != "py"}
    assert len(named) >= 5, named
    missing = [f"{mod}.{attr}" for mod, attr in sorted(named) if not hasattr(_resolve(f"gamelab.pig.{mod}"), attr)]
    assert missing == []


def test_the_folder_table_lists_pigs_files():
    """The table of section 1 names every file of the folder, and besides them only files a
    game has when it needs them ("only if", "only for", "only with", "when ...")."""
    section = TEXT.split("## 1.", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `(\w+)\.py`\s*\|([^\n]*)", section, flags=re.M))
    assert set(PIG_MODULES) <= set(rows)
    assert [f for f in set(rows) - set(PIG_MODULES) if not re.search(r"\bonly (if|for|with)\b|\bwhen\b", rows[f])] == []


def test_line_counts():
    """The guide's line counts: the whole folder, its largest module, the engine."""
    found = re.search(r"read in one sitting: ([\d,]+)\s+lines in all, each module under (\d+)", TEXT)
    assert found, "the guide states the folder's size and its largest module's"
    assert sum(_lines(p) for p in PIG.glob("*.py")) == int(found.group(1).replace(",", ""))
    assert max(_lines(PIG / f"{m}.py") for m in PIG_MODULES) < int(found.group(2))
    engine = re.search(r"^\| `engine.py`[^\n]*\| (\d+) lines", TEXT, flags=re.M)
    assert engine and _lines(PIG / "engine.py") == int(engine.group(1))


def test_the_figures_of_pig_the_guide_states():
    game = registry.get("pig")
    from gamelab.pig import identities

    assert f"`{game.players}`" in TEXT
    assert f"`{tuple(game.agents)}`".replace("'", '"') in TEXT
    assert f"`{tuple(game.report.players)}`" in TEXT
    assert f"| {game.chunk_deals} (the default) |" in TEXT
    assert f"{game.max_steps:,}: `rules.max_steps`" in TEXT
    assert f"{game.bench.agent_target:,.0f} games/s, {game.bench.ratio_target:g}x over the reference" in TEXT
    assert f"Pig's table has {len(game.panel_measures)} measures" in TEXT
    rows = identities.rows(game.knobs())
    measured = sum(1 for r in rows if r.sim_key)
    assert f"{len(rows)} exact rows, {measured} measured" in TEXT
    banked, busted = identities.hold_at_turn(game.rules(), 20)
    assert f"{float(banked):.4f} and {float(busted):.4f}" in TEXT
    tests = len(re.findall(r"^def test_", (ROOT / "tests" / "test_pig.py").read_text(), flags=re.M))
    assert f"Pig's has {tests} test functions)" in TEXT


@pytest.mark.parametrize("variant", registry.get("pig").variants)
def test_the_variants_the_guide_names(variant):
    assert f"`{variant}`" in TEXT
