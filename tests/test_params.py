"""The shared parameter declaration: coercion, ranges, files."""

import dataclasses

import pytest

from gamelab.core import registry
from gamelab.core.params import ParamError, Params, from_mapping, param, specs


@dataclasses.dataclass(frozen=True, kw_only=True)
class Toy(Params):
    cap: int = param(7, low=2, high=12, section="5.1", doc="sum cap")
    values: tuple = param((3, 4, 5), low=0, high=20, length=(1, 10))
    mode: str = param("full", choices=("full", "shared"))
    flag: bool = param(False)

    def check(self):
        if len(self.values) > self.cap:
            raise ParamError(f"values has {len(self.values)} items, more than cap = {self.cap}")


def test_defaults_and_specs():
    t = Toy()
    assert t.cap == 7 and t.values == (3, 4, 5)
    names = [s.name for s in specs(Toy)]
    assert names == ["cap", "values", "mode", "flag"]
    assert specs(Toy)[0].section == "5.1"
    assert t.changed() == {}


def test_out_of_range_names_parameter_and_range():
    with pytest.raises(ParamError, match=r"cap = 1 is out of range: expected int in 2\.\.12"):
        Toy(cap=1)
    with pytest.raises(ParamError, match=r"values = \(3, 40\)"):
        Toy(values=(3, 40))
    with pytest.raises(ParamError, match="mode = 'half' is not allowed"):
        Toy(mode="half")
    with pytest.raises(ParamError, match="flag"):
        Toy(flag=1)


def test_cross_field_check_and_coercion():
    with pytest.raises(ParamError, match="more than cap"):
        Toy(cap=2, values=(1, 2, 3))
    t = from_mapping(Toy, {"values": [1, 2], "cap": 8.0})
    assert t.values == (1, 2) and t.cap == 8 and isinstance(t.cap, int)
    assert t.changed() == {"cap": 8, "values": (1, 2)}
    assert t.replace(cap=9).cap == 9


def test_unknown_name_suggests():
    with pytest.raises(ParamError, match=r"unknown parameter 'cpa' \(did you mean cap\?\)"):
        from_mapping(Toy, {"cpa": 3})


@pytest.mark.parametrize(
    "game,cell,match",
    [
        ("strand", {"node_scale": -5}, r"node_scale = -5 is not valid: expected a number in 0\.\.3\.75"),
        ("strand", {"node_scale": "x"}, r"node_scale = 'x' is not valid"),
        ("strand", {"node_scale": float("nan")}, r"node_scale = nan is not valid"),
        ("strand", {"node_shift": -4}, r"node_shift = -4 is not valid: expected a whole number in -3\.\.22"),
        ("strand", {"node_shift": 0.5}, r"node_shift = 0\.5 is not valid"),
        ("sbr", {"relic_scale": -1}, r"relic_scale = -1 is not valid: expected a number in 0\.\.6\.667"),
        ("sbr", {"relic_scale": True}, r"relic_scale = True is not valid"),
        ("sbr", {"segment_scale": 1e300}, r"segment_scale = 1e\+300 is not valid: expected a number in 0\.\.20"),
        ("sbr", {"segment_scale": None}, r"segment_scale = None is not valid"),
    ],
)
def test_derived_knobs_refuse_values_that_make_no_sense(game, cell, match):
    from gamelab.sim.sweep import cell_setting

    with pytest.raises(ParamError, match=match):
        cell_setting(registry.get(game), {**cell, "n_players": 4})


def test_derived_knobs_in_range_are_unchanged():
    from gamelab.sim.sweep import cell_setting

    params, _, _ = cell_setting(registry.get("strand"), {"node_scale": 3.75, "n_players": 4})
    assert params.node_values == (11, 15, 15, 19, 19, 23, 26, 30)  # the largest factor: 8 -> 30, none clipped
    params, _, _ = cell_setting(registry.get("strand"), {"node_shift": -3, "n_players": 4})
    assert params.node_values == (0, 1, 1, 2, 2, 3, 4, 5)
    params, _, _ = cell_setting(registry.get("sbr"), {"relic_scale": 0, "n_players": 4})
    assert params.relic_points == (0, 0, 0, 0)
