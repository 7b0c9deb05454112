"""Dash: a tiny dice race, the game ``tests/test_a_new_game.py`` adds in a temporary folder."""
