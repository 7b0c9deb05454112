"""The bottom layer: the game contract and registry, declared parameters,
errors, safe file loading, input schemas, declared limits on work and where
files go.  Imports nothing else from gamelab."""
