"""gamelab: rules, agents and Monte Carlo runners for checking and tuning
the numbers in tabletop rulebooks."""

__version__ = "0.1.0"
