"""Every notebook runs headless (nbclient, the venv's kernel) at a small size;
committed notebooks carry no outputs."""
import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path, monkeypatch):
    raw = json.loads(path.read_text())
    assert not any(c.get("outputs") for c in raw["cells"] if c["cell_type"] == "code"), "commit without outputs"
    monkeypatch.setenv("GAMELAB_QUICK_GAMES", "300")
    monkeypatch.chdir(tmp_path)  # caches and reports land in a scratch folder
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors


def test_there_are_notebooks():
    assert {p.name for p in NOTEBOOKS} >= {"identity2_ev_threshold.ipynb", "strand_balance.ipynb"}
