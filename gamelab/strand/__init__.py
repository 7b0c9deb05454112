"""STRAND: The Last Run (rulebook shared/seeds/004_fe1c54db522c7fe9.txt).

``rules`` (parameters, variants) <- ``engine`` (batch state, pure steps,
``play``) <- ``agents``; ``reference`` is the one-game executable
specification the engine is tested against; ``record`` replays playtests.
"""
