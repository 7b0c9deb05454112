"""Player-model profiles: a named set of the agents' model knobs, with where
it came from.

A profile is a YAML (or JSON) file::

    game: GAME
    name: fitted to the rulebook's appendix B
    knobs: {reneging: 0.3, negotiation: greedy}
    provenance: {target: published, objective_before: 812.4, objective_after: 97.1, seed: 1, date: 2026-12-01}

``knobs`` may name only model knobs (the parameters of ``GAME.knobs`` that
are not rules): a profile describes how the table plays, never the rules.
Every command that simulates takes ``--profile FILE``; the knobs are applied
under any ``--params`` file (rules and explicit knobs win), and reports
state the profile's name.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from pathlib import Path
from typing import Any

from pydantic import Field, StrictStr

from gamelab.core.contract import Game
from gamelab.core.errors import GamelabError, ParamError, short
from gamelab.core.files import load_mapping, named_game
from gamelab.core.params import Params, from_mapping, specs
from gamelab.core.schemas import _Strict, parse


class ProfileFile(_Strict):
    game: StrictStr
    name: StrictStr = Field(default="", max_length=200)
    knobs: dict[StrictStr, Any]
    provenance: dict[StrictStr, Any] = Field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Profile:
    game: str
    name: str
    knobs: dict
    provenance: dict
    path: str = ""

    @property
    def label(self) -> str:
        """How reports name the model: the profile's name, else its file."""
        return self.name or Path(self.path).stem or "unnamed profile"


def model_knobs(game: Game) -> set[str]:
    """Names of the game's model knobs (not rules)."""
    rules = {s.name for s in specs(game.rules)}
    return {s.name for s in specs(game.knobs)} - rules


def load_profile(path: str | Path, game: str | None = None) -> Profile:
    """Read and check a profile file (one-line errors naming the file)."""
    data = parse(ProfileFile, load_mapping(path, what="profile", error=ParamError), str(path))
    if game is not None and data.game != game:
        raise ParamError(f"{path}: a profile for {short(data.game)}, not for {game}")
    g = named_game(data.game)  # the profile names its game
    allowed = model_knobs(g)
    for key in data.knobs:
        if key not in allowed:
            kind = (
                "a rule, which a profile never changes"
                if key in {s.name for s in specs(g.rules)}
                else "not a model knob"
            )
            raise ParamError(
                f"{path}: knobs.{short(key)} is {kind}; model knobs of {g.name}: {', '.join(sorted(allowed))}"
            )
    from_mapping(g.knobs, data.knobs, source=f"{path}: knobs")  # values in range
    return Profile(data.game, data.name, dict(data.knobs), dict(data.provenance), str(path))


def apply(profile: Profile | None, params: Params) -> Params:
    """``params`` with the profile's knobs, except those ``params`` changed itself."""
    if profile is None:
        return params
    own = params.changed()
    keep = {k: v for k, v in profile.knobs.items() if k not in own}
    return from_mapping(type(params), keep, base=params, source=f"profile {profile.path}")


def write_profile(path: str | Path, game: str, knobs: dict, *, name: str = "", provenance: dict | None = None) -> Path:
    """Write a profile file (YAML), checked by reading it back."""
    import yaml

    path = Path(path)
    prov = {"date": _dt.date.today().isoformat(), **(provenance or {})}
    clean = {k: list(v) if isinstance(v, tuple) else v for k, v in knobs.items()}
    text = yaml.safe_dump(
        {"game": game, "name": name, "knobs": clean, "provenance": _plain(prov)}, sort_keys=False, allow_unicode=True
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    load_profile(path, game)
    return path


def _plain(obj):
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item):
        return obj.item()
    return obj


def describe(profile: Profile | None) -> str:
    """One line for a report: which model produced the numbers."""
    if profile is None:
        return "the default model (no profile)"
    return f"profile {profile.label!r}"


__all__ = ["Profile", "load_profile", "apply", "write_profile", "describe", "model_knobs", "GamelabError"]
