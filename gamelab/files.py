"""Reading the user's JSON/YAML files with one-line errors that name the file."""
from __future__ import annotations

import json
from pathlib import Path

from .errors import GamelabError


def load_mapping(path: str | Path, *, what: str = "file", error: type = GamelabError) -> dict:
    """A JSON or YAML mapping (by suffix: .yaml/.yml is YAML, anything else JSON)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{path}: cannot read the file ({exc})") from None
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise error(f"{path}: not valid YAML ({exc})") from None
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise error(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise error(f"{path}: a {what} is a mapping of names to values")
    return data


RULES = {"sbr": ("gamelab.sbr.rules", "SbrParams"), "strand": ("gamelab.strand.rules", "StrandParams")}


def rules_class(game: str) -> type:
    """The game's rule parameter class (without any agent-model knobs)."""
    import importlib

    if game not in RULES:
        raise GamelabError(f"unknown game {game!r}: expected one of {', '.join(sorted(RULES))}")
    module, name = RULES[game]
    return getattr(importlib.import_module(module), name)


def load_params(game: str, path: str | Path | None, base=None, *, cls: type | None = None):
    """A parameter file (``{"sum_cap": 8}``) validated against the game's
    parameters: ``cls``, or the simulation adapter's class (rules plus model
    knobs) for games the runner knows."""
    from . import runner
    from .errors import ParamError
    from .params import from_mapping

    if cls is None:
        cls = runner.adapter(game).param_class
    if path is None:
        return base if base is not None else cls()
    mapping = load_mapping(path, what="parameter file", error=ParamError)
    return from_mapping(cls, mapping, base=base, source=str(path))
