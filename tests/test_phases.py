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


def test_phases_show_in_a_log_the_command_line_writes(capsys, monkeypatch):
    """``make report`` into a file: not a terminal, yet every long phase is named (the command
    line turns progress lines on off a terminal)."""
    from gamelab.sim import executors

    monkeypatch.setattr(phases, "SHOW_AFTER_S", 0.05)
    monkeypatch.setattr(executors, "LINES_OFF_TERMINAL", False)
    assert not phases.enabled(None)  # capsys's stderr is not a terminal
    monkeypatch.setattr(executors, "LINES_OFF_TERMINAL", True)
    with phases.phase("slow", progress=None):
        time.sleep(0.3)
    assert capsys.readouterr().err.splitlines()[-1].strip().startswith("slow: ")
