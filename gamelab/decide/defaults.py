"""The decision tools' defaults the command line shows in its help, kept
apart from the tools (which import pandas and scipy) so that ``gamelab --help``
answers at once."""

DEFAULT_GAMES = 4000  # games per setting of a sensitivity step (gamelab.decide.sensitivity)
DEFAULT_ZONE = 0.01  # width of a sequential test's indifference zone, in the metric's units (gamelab.decide.sequential)
