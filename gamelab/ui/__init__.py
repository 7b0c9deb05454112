"""The notebook panels (ipywidgets)."""
