"""The bottom layer: the game contract and registry, declared parameters,
errors, safe file loading, input schemas, declared limits on work and where
files go, and what every game's code would otherwise repeat (the whole-game
driver, budget names, hot-path array helpers).  Imports nothing else from gamelab."""
