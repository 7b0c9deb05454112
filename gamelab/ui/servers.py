"""Jupyter server discovery: the running servers, and a published file's link on the one serving it."""

from __future__ import annotations

import html
import os
from pathlib import Path

LINK_STYLE = "color:#1565c0;text-decoration:underline;cursor:pointer"


def running_servers() -> list[dict]:
    """The running Jupyter servers' info files (``jpserver-*.json`` in the
    runtime folder, whose process is alive): what
    ``jupyter_server.serverapp.list_running_servers`` reads, by hand because
    importing ``jupyter_server.serverapp`` takes 6 s of a kernel's first
    slider move (it loads jsonschema's format grammars)."""
    import json

    from jupyter_core.paths import jupyter_runtime_dir

    out = []
    for file in sorted(Path(jupyter_runtime_dir()).glob("jpserver-*.json")):
        try:
            info = json.loads(file.read_text(encoding="utf-8"))
            pid = int(info["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        try:
            os.kill(pid, 0)  # signal 0: only asks whether the process exists
        except PermissionError:  # another user's process: it exists
            pass
        except OSError:
            continue
        out.append(info)
    return out


def server_href(path: Path) -> str | None:
    """The address of ``path`` on the Jupyter server this kernel belongs to:
    ``<base_url>files/<path under the server's root>``, which opens from any
    JupyterLab location (``/lab/tree/notebooks`` too).  The server is the
    running one whose root holds the kernel's working directory (the
    notebook's folder); None when no running server serves the file."""
    from urllib.parse import quote

    here = Path.cwd().resolve()
    best = None
    for info in running_servers():
        root = Path(info.get("root_dir") or info.get("notebook_dir") or "").resolve()
        if not info.get("root_dir") and not info.get("notebook_dir"):
            continue
        if here.is_relative_to(root) and path.is_relative_to(root):
            if best is None or len(str(root)) > len(str(best[0])):
                best = (root, info)
    if best is None:
        return None
    root, info = best
    base = info.get("base_url") or "/"
    return f"{base.rstrip('/')}/files/{quote(path.relative_to(root).as_posix())}"


def publish_link(path: Path) -> str:
    """An HTML link to a published file that looks like a link: on the
    Jupyter server's ``files/`` route when a server serves it
    (:func:`server_href`), else relative to the notebook's folder (the
    kernel's working directory); its name relative to the project root."""
    from gamelab.core.paths import workspace

    path = Path(path).resolve()
    href = server_href(path)
    if href is None:
        try:
            href = os.path.relpath(path, Path.cwd())
        except ValueError:  # another drive
            href = path.as_uri()
    try:
        name = str(path.relative_to(workspace()))
    except ValueError:
        name = str(path)
    return (
        f'published <a href="{html.escape(href)}" target="_blank" rel="noopener" style="{LINK_STYLE}">'
        f"{html.escape(name)}</a>"
    )
