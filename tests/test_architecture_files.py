"""docs/architecture.md names every file of every game, in a line saying what it is for."""

from pathlib import Path

from gamelab.core.registry import game_packages

ROOT = Path(__file__).resolve().parents[1]


def test_every_game_file_is_named_in_the_architecture():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = []
    for package in game_packages():
        game = package.rpartition(".")[2]
        for path in sorted((ROOT / "gamelab" / game).rglob("*.py")):
            name = f"{game}/{path.relative_to(ROOT / 'gamelab' / game).as_posix()}"
            if f"- `{name}`:" not in text:
                missing.append(name)
    assert not missing, f"docs/architecture.md, 'Every file of each game', names no line for: {missing}"
