"""Nothing is served from a cache unchecked (issue 41): a saved report page damaged in any way
(cut short, overwritten with text, emptied, one byte flipped) or a folder standing where a cache
file belongs is set aside or rebuilt with one warning line, and the next run gives the clean
run's tables; a cache warning is one line (no source line printed under it)."""

import re
import subprocess
import sys
import warnings

import pytest

from gamelab.report import build, memo
from gamelab.report.build import build_report
from gamelab.sim.run import RunConfig
from gamelab.sim.store import CacheWarning, ChunkStore

KW = dict(n_games=200, seed=2, player_counts=(2,))  # the toy game: a report in a second or two


def tables(html: str) -> list[str]:
    """The page's tables, each as its text (tags and the build time left out)."""
    found = re.findall(r"<table.*?</table>", html, flags=re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", t)).strip() for t in found]


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    home = tmp_path_factory.mktemp("clean")
    html = build_report("toy", out=home / "toy.html", run=RunConfig(store=ChunkStore(home / "cache")), **KW)
    return tables(html.read_text())


def _flip(path):
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    path.write_bytes(bytes(raw))


DAMAGE = {
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "text": lambda p: p.write_text("<html><body>a page of 40 bytes</body></html>"),
    "empty": lambda p: p.write_bytes(b""),
    "one byte flipped": _flip,
    "a folder": lambda p: (p.unlink(), p.mkdir(), (p / "x").write_text("x")),
}


@pytest.mark.parametrize("how", list(DAMAGE))
def test_a_damaged_report_page_is_rebuilt_with_one_warning(how, clean, tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    run = RunConfig(store=ChunkStore(tmp_path / "cache"))
    calls = []
    real = build.compute_report
    monkeypatch.setattr(build, "compute_report", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = build_report("toy", out=tmp_path / "first.html", run=run, **KW).read_text()
    assert tables(first) == clean and len(calls) == 1
    (page,) = (tmp_path / "cache" / memo.SUBDIR).glob("*.html")
    DAMAGE[how](page)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = build_report("toy", out=tmp_path / "again.html", run=run, **KW).read_text()
    said = [str(w.message) for w in caught if issubclass(w.category, CacheWarning)]
    assert len(calls) == 2, "the damaged page was served"
    assert tables(again) == clean
    assert len(said) == 1 and page.name in said[0] and "report page is recomputed" in said[0], said
    if how == "a folder":
        assert "a folder where a file belongs" in said[0] and (page.parent / f"{page.name}.set-aside").is_dir()
    assert page.is_file()  # kept again, whole: the third run is served from it
    build_report("toy", out=tmp_path / "third.html", run=run, **KW)
    assert len(calls) == 2


def test_a_folder_in_place_of_a_chunk_file_is_set_aside_and_the_chunk_recomputed(clean, tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELAB_HOME", str(tmp_path))
    store = tmp_path / "cache"
    build_report("toy", out=tmp_path / "first.html", run=RunConfig(store=ChunkStore(store)), reuse=False, **KW)
    victims = sorted(store.glob("??/*.parquet"))
    assert victims
    for path in victims:  # every chunk's table a folder: before issue 41 every later run refused
        path.unlink()
        path.mkdir()
    fresh = ChunkStore(store)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        html = build_report("toy", out=tmp_path / "again.html", run=RunConfig(store=fresh), reuse=False, **KW)
    said = [str(w.message) for w in caught if issubclass(w.category, CacheWarning)]
    assert tables(html.read_text()) == clean
    assert fresh.rejected == len(victims) and len(said) == len(victims), said
    assert all("a folder where a file belongs (set aside as" in s for s in said), said
    assert all(p.is_file() for p in victims) and all(p.with_name(p.name + ".set-aside").is_dir() for p in victims)


def test_a_cache_warning_prints_one_line(tmp_path):
    """As a user sees it: the warning line alone, no line of source code under it (called from a
    file, as the store calls it: ``warnings.warn`` would print the caller's line under the message)."""
    script = tmp_path / "caller.py"
    script.write_text(
        "from pathlib import Path\n"
        "from gamelab.sim.store import warn_untrusted\n"
        "def reject():\n"
        "    warn_untrusted(Path('x.json'), 'a reason')\n"
        "def caller():\n"
        "    reject()  # SOURCE LINE\n"
        "caller()\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "x.json: a reason; the chunk is recomputed" in lines[0], done.stderr
