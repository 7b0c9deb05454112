"""Calibration: the objective recovers known knobs; claims bands and residuals."""

import numpy as np
import pandas as pd
import pytest

from gamelab.core import registry
from gamelab.core.errors import ParamError
from gamelab.models import calibrate, targets
from gamelab.rulebook import claims
from gamelab.sim import runner
from gamelab.sim.run import RunConfig

pytestmark = pytest.mark.slow(
    reason="Optuna studies of thousands of games a trial, and the claims measured at both rules"
)

TRUE_HOLD = 28
COLUMNS = ("score", "holds", "rolls", "busts")


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    return tmp_path


def _pig_target(hold_at: int):
    params = registry.get("pig").knobs().replace(hold_at=hold_at)
    frame = runner.simulate(registry.get("pig"), n_games=4000, seed=99, n_players=2, params=params)
    return targets.from_frames(registry.get("pig"), {2: frame}, COLUMNS)


def test_objective_is_smallest_near_the_true_knob():
    target = _pig_target(TRUE_HOLD)
    base = registry.get("pig").knobs()
    values = {}
    for h in (16, 22, TRUE_HOLD, 34):
        summary, _ = calibrate.evaluate(
            target, base, {"hold_at": h}, n_games=2000, seed=0, run=RunConfig(), excluded=[]
        )
        values[h] = summary["objective"]
    assert min(values, key=values.get) == TRUE_HOLD
    assert values[16] > values[22] > values[TRUE_HOLD] < values[34]


def test_calibration_recovers_known_knobs_from_their_own_tables(workspace):
    target = _pig_target(TRUE_HOLD)
    result = calibrate.calibrate(registry.get("pig"), target=target, free=["hold_at"], trials=14, n_games=2000, seed=0)
    assert abs(result.knobs["hold_at"] - TRUE_HOLD) <= 2
    assert result.after["objective"] < result.before["objective"] / 5
    path = result.write(workspace / "pig.yaml")
    from gamelab.models.profile import load_profile

    prof = load_profile(path, "pig")
    assert prof.knobs == result.knobs and prof.provenance["target"] == "simulated tables"
    # resumable: the same study is read back, no trial replayed
    again = calibrate.calibrate(registry.get("pig"), target=target, free=["hold_at"], trials=14, n_games=2000, seed=0)
    assert again.knobs == result.knobs and again.study == result.study


def test_calibration_refuses_rules():
    with pytest.raises(ParamError, match="a rule"):
        calibrate.free_knobs(registry.get("pig"), ["target"], {})
    with pytest.raises(ParamError, match="not a model knob"):
        calibrate.free_knobs(registry.get("pig"), ["nonsense"], {})


def test_residuals_and_objective():
    m = pd.DataFrame(
        dict(
            value=[1.0, 2.0, 5.0],
            ours=[1.0, 1.0, 1.0],
            se=[0.0, 0.0, 0.0],
            se_target=[0.5, 0.5, 0.0],
            rounding=[0.0, 0.0, 0.0],
        )
    )
    z = targets.residuals(m)
    assert z[0] == 0 and z[1] == pytest.approx(2.0) and np.isnan(z[2])
    excluded = pd.Series([False, False, True])
    assert targets.objective(m, excluded) == pytest.approx(4.0)
    assert targets.objective(m) == pytest.approx(4.0 + targets.MISSING_Z**2)


def test_reading_parameters_come_from_the_rules_docs():
    assert "seal_spent_on_stop" in {s.name for s in targets.reading_params(registry.get("sbr"))}
    assert "node_award" in {s.name for s in targets.reading_params(registry.get("strand"))}


def test_claims_have_published_sample_bands_and_residuals():
    st = claims.measure(registry.get("strand"), n_games=600, seed=0)
    sim = st[~claims.is_exact(st)]
    assert {"se600", "low600", "high600", "inside600", "residual"} <= set(sim.columns)
    ok = sim["se600"] > 0
    assert np.allclose(sim.loc[ok, "residual"], (sim["value"] - sim["ours"])[ok] / sim.loc[ok, "se600"])
    assert (sim["low600"] <= sim["ours"]).all() and (sim["ours"] <= sim["high600"]).all()
    sb = claims.measure(registry.get("sbr"), n_games=600, seed=0)
    sim = sb[~claims.is_exact(sb)]
    assert {"se300", "inside300", "residual"} <= set(sim.columns)
    means = sim["column"] == "mean_score"
    assert (sim.loc[means, "se300"] > sim.loc[means, "se"]).all()  # 300 games are noisier than 600
