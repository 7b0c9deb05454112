"""Reports: computed as data (:mod:`.data`, :mod:`.tools`, :mod:`.audit`), then
rendered (:mod:`.render`, :mod:`.format`)."""


def __getattr__(name: str):
    """``from gamelab.report import build_report``: the renderer, loaded on first use."""
    if name in ("build_report", "render_report"):
        from . import render

        return getattr(render, name)
    raise AttributeError(f"module 'gamelab.report' has no attribute {name!r}")
