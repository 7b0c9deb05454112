"""Every test marked slow says why (``pytest.mark.slow(reason="...")``): the suite's time is spent
knowingly, and a slow test whose reason no longer holds can be moved back to the fast suite."""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _is_slow(node: ast.AST) -> bool:
    """``pytest.mark.slow`` (or ``mark.slow``), bare or called."""
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Attribute) and target.attr == "slow" and ast.unparse(target).endswith("mark.slow")


def slow_markers_without_reason(source: str, name: str) -> list[str]:
    """``file:line`` of each slow marker in ``source`` that gives no non-empty ``reason=``."""
    nodes = list(ast.walk(ast.parse(source)))
    called = {id(n.func) for n in nodes if isinstance(n, ast.Call)}  # a called marker is checked as its call
    missing = []
    for node in nodes:
        if not _is_slow(node) or id(node) in called:
            continue
        reason = next((k.value for k in getattr(node, "keywords", []) if k.arg == "reason"), None)
        if not (isinstance(reason, ast.Constant) and str(reason.value).strip()):
            missing.append(f"{name}:{node.lineno}")
    return missing


def test_every_slow_marker_says_why():
    missing = [
        m for path in sorted(TESTS.glob("*.py")) for m in slow_markers_without_reason(path.read_text(), path.name)
    ]
    assert not missing, f"slow markers without reason=: {missing}"


def test_the_check_finds_a_bare_marker_and_an_empty_reason():
    bare = "import pytest\n@pytest.mark.slow\ndef test_a():\n    pass\n"
    empty = 'import pytest\npytestmark = pytest.mark.slow(reason=" ")\n'
    given = 'import pytest\npytestmark = [pytest.mark.slow(reason="a cluster is started")]\n'
    assert slow_markers_without_reason(bare, "a.py") == ["a.py:2"]
    assert slow_markers_without_reason(empty, "b.py") == ["b.py:2"]
    assert slow_markers_without_reason(given, "c.py") == []
