"""A report phase over a second says so on stderr; a quick one prints nothing."""

import time

from gamelab.report import phases


def test_a_long_phase_is_shown_with_its_time_and_a_quick_one_is_not(capsys, monkeypatch):
    monkeypatch.setattr(phases, "SHOW_AFTER_S", 0.05)
    with phases.phase("quick", progress=True):
        pass
    assert capsys.readouterr().err == ""
    with phases.phase("slow", progress=True):
        time.sleep(0.3)
    err = capsys.readouterr().err.splitlines()
    assert err[0].strip() == "slow …" and err[1].strip().startswith("slow: ") and err[1].endswith(" s")
    with phases.phase("off", progress=False):
        time.sleep(0.1)
    assert capsys.readouterr().err == ""
