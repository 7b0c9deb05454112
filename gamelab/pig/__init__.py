"""Pig, the classic dice game (``docs/rules-pig.md``): gamelab's third game,
added through the game contract alone (``docs/adding-a-game.md``)."""
