"""Player-model profiles: the round trip, and what a profile may name."""

import pytest

from gamelab.core import registry
from gamelab.core.errors import ParamError
from gamelab.models.profile import apply, load_profile, model_knobs, write_profile


def test_round_trip_write_load_apply(tmp_path):
    knobs = {"hold_at": 27, "race_step": 5}
    path = write_profile(tmp_path / "pig.yaml", "pig", knobs, name="test", provenance={"target": "unit test"})
    prof = load_profile(path, "pig")
    assert prof.knobs == knobs and prof.name == "test" and prof.provenance["target"] == "unit test"
    assert "date" in prof.provenance
    g = registry.get("pig")
    applied = apply(prof, g.knobs())
    assert applied == g.knobs().replace(**knobs)
    # an explicit parameter wins over the profile
    mine = g.knobs().replace(hold_at=15)
    assert apply(prof, mine).hold_at == 15 and apply(prof, mine).race_step == 5


def test_tuple_knob_round_trip(tmp_path):
    reach = (0.9, 0.8, 0.5)
    path = write_profile(tmp_path / "sbr.yaml", "sbr", {"greedy_seal_reach": reach})
    assert apply(load_profile(path), registry.get("sbr").knobs()).greedy_seal_reach == reach


def test_a_profile_naming_a_rule_is_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("game: pig\nknobs: {target: 50}\n", encoding="utf-8")
    with pytest.raises(ParamError, match="a rule, which a profile never changes"):
        load_profile(path)
    with pytest.raises(ParamError, match="a rule"):
        write_profile(tmp_path / "bad2.yaml", "pig", {"target": 50})


def test_a_profile_for_another_game_or_out_of_range_is_refused(tmp_path):
    path = write_profile(tmp_path / "pig.yaml", "pig", {"hold_at": 30})
    with pytest.raises(ParamError, match="not for strand"):
        load_profile(path, "strand")
    bad = tmp_path / "range.yaml"
    bad.write_text("game: pig\nknobs: {hold_at: 100000}\n", encoding="utf-8")
    with pytest.raises(ParamError, match="hold_at"):
        load_profile(bad)
    assert "hold_at" in model_knobs(registry.get("pig")) and "target" not in model_knobs(registry.get("pig"))


def test_shipped_profiles_load_and_name_model_knobs_only():
    from gamelab.core.paths import PACKAGE

    for game in ("sbr", "strand"):
        path = PACKAGE.parent / "data" / "profiles" / f"{game}.yaml"
        prof = load_profile(path, game)
        assert set(prof.knobs) <= model_knobs(registry.get(game))
        prov = prof.provenance
        assert prov["objective_after"] <= prov["objective_before"]
        assert bool(prof.knobs) == (prov["objective_after"] < prov["objective_before"])
