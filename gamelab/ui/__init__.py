"""The notebook panels (ipywidgets)."""


def __getattr__(name: str):
    """``gamelab.ui.GameViewer``, imported when first asked for (``import gamelab.ui`` stays light)."""
    if name == "GameViewer":
        from gamelab.ui.viewer import GameViewer

        return GameViewer
    raise AttributeError(f"module 'gamelab.ui' has no attribute {name!r}")
