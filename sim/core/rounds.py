"""The `rounds` table: every player's score at the end of every round (DESIGN.md §6).

One row per (game, seat, round): game_id int64, seat int16, round int16 (1-based), score
int32, in the game's own score unit (the same number players.score holds once the game is
over, so the last round's row equals players.score). "Round" is each game's natural unit
(Dwarfest Evenings, Brewin' USA rounds, Homebrewers months, Dragon Brew years); each game's
page in docs/games/ says when in the round the score is read.

The numba kernels append rows to a preallocated int32[cap, 4] buffer (rows.column_buffer)
with `record_round`, the way they log events (sim/core/rows.py); the wrappers turn the filled
part into the table's columns with `ROUNDS.columns_of`.
"""

from __future__ import annotations

import polars as pl

from .jit import jit_inline
from .schema import Column, Table

ROUNDS = Table("rounds", [
    Column("game_id", pl.Int64, "game number"),
    Column("seat", pl.Int16, "seat, 0 = first player"),
    Column("round", pl.Int16, "round, 1-based, in the game's own unit"),
    Column("score", pl.Int32, "the seat's score at the end of the round, in the game's unit"),
])
ROUND_COLS = ROUNDS.width  # record_round's row: game_id, seat, round, score


@jit_inline
def record_round(buf, g, counter, overflow, game_id, rnd, pl_, col, n):
    """Append rows (game_id, seat, rnd, pl_[seat, col]) for seats 0..n-1 at the next free row
    of buf (counted in g[counter]). Returns False, after raising g[overflow], when buf has no
    room for them."""
    at = g[counter]
    if at + n > buf.shape[0]:
        g[overflow] = 1
        return False
    for s in range(n):
        row = buf[at + s]
        row[0] = game_id
        row[1] = s
        row[2] = rnd
        row[3] = pl_[s, col]
    g[counter] = at + n
    return True

