import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # test helpers (browser.py, *_helpers.py)

import os  # noqa: E402

# the toy game of gamelab.toy, for tests of the shared layer; worker
# processes and Dask workers started by the tests inherit it
os.environ["GAMELAB_GAMES"] = "gamelab.toy"
# the panels' figure at the learned rung is left out (gamelab.ui.balance_panel.LEARNED_AUTO): it learns the rung
# for every new rule set, seconds of CPU a move; the tests of that figure switch it on
os.environ["GAMELAB_PANEL_LEARNED"] = "0"
