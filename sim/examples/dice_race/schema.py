"""Dice Race's output tables: the columns every game has, then its own (sim/core/schema.py)."""

import polars as pl

from sim.core.schema import Column, events_table, games_table, players_table

GAMES = games_table([Column("busts", pl.Int16, "turns lost to the bust face, all players")])
PLAYERS = players_table([
    Column("busts", pl.Int16, "this player's turns lost to the bust face"),
    Column("rolls", pl.Int16, "dice this player rolled"),
], faction_in_rows=False)
EVENTS = events_table(target="unused (-1)")  # one row per turn: card "turn", kind bank or bust, amount = turn total
