"""STRAND: The Last Run (the rules as implemented: docs/rules-strand.md).

``rules`` (parameters, variants) <- ``state`` (the batch state, the chance,
action codes) <- ``engine`` (the game contract: chance, setup, pure steps;
action codes in ``actions``, legal actions in ``legal``, the round's
settlement in ``scoring``, the deck and counts by card value in ``cards``)
<- ``agent_params`` (the model's knobs) <- ``heuristic`` (the
table model of the six styles; their look-up tables in ``heuristic_tables``)
<- ``search`` (the search agents: ``greedy``, a one-round search, and ``best``)
<- ``learned`` (a search rung distilled into tables) <- ``agents`` (the
policies, a seating's deal, the ``Controller`` one decision at a time, and
``SELF_PLAY``: what is learned from what, for ``core.learned.SelfPlay``);
``reference`` is the one-game executable specification the engine is tested
against; ``record`` replays playtests; ``sim`` is the runner's entry point (``play``,
through ``core.driver.play_out``, with the game's columns),
``panels`` the notebook parts, ``game`` the ``GAME`` record.
"""
