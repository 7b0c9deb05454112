"""STRAND: The Last Run (rulebook shared/seeds/004_fe1c54db522c7fe9.txt).

``rules`` (parameters, variants) <- ``engine`` (batch state, pure steps,
``play``; the round's settlement in ``scoring``, the deck in ``cards``,
shared array helpers in ``arrays``) <- ``agents`` and ``styles`` (the table
model; the styles as look-up tables in ``style_tables``); ``reference`` is the
one-game executable specification the engine is tested against; ``record``
replays playtests.
"""
