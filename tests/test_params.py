"""The shared parameter declaration: coercion, ranges, files."""

import dataclasses

import pytest

from gamelab.params import ParamError, Params, from_mapping, param, specs


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
