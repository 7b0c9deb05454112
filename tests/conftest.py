import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # test helpers (browser.py, *_helpers.py)

import os  # noqa: E402

# the toy game of gamelab.toy, for tests of the shared layer; worker
# processes and Dask workers started by the tests inherit it
os.environ["GAMELAB_GAMES"] = "gamelab.toy"
