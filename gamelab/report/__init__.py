"""Reports: computed into a frozen result (:mod:`.compute`, with :mod:`.decisions`
for the decision tools' parts, :mod:`.decision_words` their sentences; the result's types in :mod:`.data`), then
rendered (:mod:`.render`, :mod:`.format`, :mod:`.audit`, :mod:`.sentences`);
:mod:`.build` does both and writes the page (or copies it, :mod:`.memo`)."""


def __getattr__(name: str):
    """``from gamelab.report import build_report``: loaded on first use."""
    if name == "build_report":
        from . import build

        return build.build_report
    if name == "render_report":
        from . import render

        return render.render_report
    raise AttributeError(f"module 'gamelab.report' has no attribute {name!r}")
