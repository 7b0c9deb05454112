import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # test helpers (browser.py, extra_game.py, *_helpers.py)

import os  # noqa: E402

import extra_game  # noqa: E402

# the toy game of gamelab.toy, for tests of the shared layer, then the games already named in
# GAMELAB_GAMES (a designer's own game, checked by the suite as the shipped ones are:
# tests/test_a_new_game.py); worker processes and Dask workers started by the tests inherit it
_named = [m.strip() for m in os.environ.get("GAMELAB_GAMES", "").split(",") if m.strip()]
os.environ["GAMELAB_GAMES"] = ",".join(dict.fromkeys(["gamelab.toy", *_named]))
# the panels' figure at the learned rung is left out (gamelab.ui.balance_panel.LEARNED_AUTO): it learns the rung
# for every new rule set, seconds of CPU a move; the tests of that figure switch it on
os.environ["GAMELAB_PANEL_LEARNED"] = "0"
# and Dash, a game from a folder outside the checkout, runs through the whole suite (issue 42; extra_game.py)
_run_with_dash = extra_game.start()


def pytest_sessionfinish(session):
    """The session that added Dash fails if the run changed or added a file of the checkout."""
    if _run_with_dash is not None:
        _run_with_dash.check(session)


def pytest_terminal_summary(terminalreporter):
    if _run_with_dash is not None:
        _run_with_dash.report(terminalreporter)


def pytest_unconfigure(config):
    if _run_with_dash is not None:
        _run_with_dash.remove()


def pytest_collection_modifyitems(config, items):
    """Under ``make test`` (pytest-xdist, ``--dist loadgroup``) tests are shared out one by one, so
    that the slow ones spread over both cores; a test file whose own fixtures live longer than a test
    (a module-scoped JupyterLab server, Dask cluster or report built once) runs whole on one worker,
    so that such a fixture starts once.  The group is the file's: ``xdist_group(name=<file>)``.  The
    tests marked slow go first."""
    import pytest

    for item in items:
        defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
        # a fixture of the tests' own files (plugins' fixtures have no baseid) that outlives a test
        if any(d and d[-1].scope != "function" and d[-1].baseid for d in defs.values()):
            item.add_marker(pytest.mark.xdist_group(name=item.nodeid.split("::", 1)[0]))
    # the tests marked slow first (each file's in its order), so that no long test starts last while the
    # other process has nothing left to do: the longest jobs first, as a scheduler of unequal jobs should
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
