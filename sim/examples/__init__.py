"""Worked examples for contributors, not games brewbalance ships: `dice_race` is the toy game
of docs/adding_a_game.md (tests/test_adding_a_game.py plays it end to end). Its data lives in
sim/examples/data/games/dice_race/ (point BREWBALANCE_DATA at sim/examples/data to load it)."""
