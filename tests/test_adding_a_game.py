"""``docs/adding-a-game.md`` walked through: every path, name and figure it
states about Pig, the worked example, is checked against the code (a guide
that drifts from the code misleads the next person who adds a game)."""

from __future__ import annotations

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
    from gamelab.pig import identities, panels

    assert f"`{game.players}`" in TEXT
    assert f"`{tuple(game.agents)}`".replace("'", '"') in TEXT
    assert f"`{tuple(game.report.players)}`" in TEXT
    assert f"| {game.chunk_deals} (the default) |" in TEXT
    assert f"{game.max_steps:,}: `rules.max_steps`" in TEXT
    assert f"{game.bench.agent_target:,.0f} games/s, {game.bench.ratio_target:g}x over the reference" in TEXT
    assert f"{len(panels.MEASURES)} measures" in TEXT
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
