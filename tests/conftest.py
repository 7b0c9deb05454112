import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # test helpers (browser.py, *_helpers.py)

import os  # noqa: E402

# the toy game of gamelab.toy, for tests of the shared layer, then the games already named in
# GAMELAB_GAMES (a designer's own game, checked by the suite as the shipped ones are:
# tests/test_a_new_game.py); worker processes and Dask workers started by the tests inherit it
_named = [m.strip() for m in os.environ.get("GAMELAB_GAMES", "").split(",") if m.strip()]
os.environ["GAMELAB_GAMES"] = ",".join(dict.fromkeys(["gamelab.toy", *_named]))
# the panels' figure at the learned rung is left out (gamelab.ui.widgets.LEARNED_AUTO): it learns the rung
# for every new rule set, seconds of CPU a move; the tests of that figure switch it on
os.environ["GAMELAB_PANEL_LEARNED"] = "0"
