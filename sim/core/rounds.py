"""The `rounds` table: every player's score at the end of every round (DESIGN.md §6).

One row per (game, seat, round): game_id int64, seat int16, round int16 (1-based), score
int32, in the game's own score unit (the same number players.score holds once the game is
over, so the last round's row equals players.score). "Round" is each game's natural unit
(Dwarfest Evenings, Brewin' USA rounds, Homebrewers months, Dragon Brew years); each game's
page in docs/games/ says when in the round the score is read.

The numba kernels append rows to a preallocated buffer of one array per column, in the
table's types (`RoundColumns`, the way they log events: sim/core/rows.EventColumns), with
`record_round`; `rounds_frame` makes the table of the filled part without a copy.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import polars as pl

from .jit import jit_inline


class RoundColumns(NamedTuple):
    """The rounds buffer: game_id int64, seat int16, round int16, score int32."""

    game_id: np.ndarray
    seat: np.ndarray
    round: np.ndarray
    score: np.ndarray

    def copy(self) -> RoundColumns:
        """A copy of every column (like ndarray.copy: tests copy a state field by field)."""
        return RoundColumns(*(column.copy() for column in self))


def round_columns(rows: int) -> RoundColumns:
    """An empty rounds buffer of `rows` rows (at least one)."""
    rows = max(rows, 1)
    return RoundColumns(*(np.zeros(rows, dtype) for dtype in (np.int64, np.int16, np.int16, np.int32)))


@jit_inline
def record_round(buf, g, counter, overflow, game_id, rnd, pl_, col, n):
    """Append rows (game_id, seat, rnd, pl_[seat, col]) for seats 0..n-1 at the next free row
    of buf (counted in g[counter]). Returns False, after raising g[overflow], when buf has no
    room for them."""
    at = g[counter]
    if at + n > buf.game_id.shape[0]:
        g[overflow] = 1
        return False
    for s in range(n):
        buf.game_id[at + s] = game_id
        buf.seat[at + s] = s
        buf.round[at + s] = rnd
        buf.score[at + s] = pl_[s, col]
    g[counter] = at + n
    return True


def rounds_frame(buf: RoundColumns, n: int) -> pl.DataFrame:
    """The first n rows of a rounds buffer -> the rounds table, in the order the kernels write
    it (game, then round, then seat). The table takes the arrays as they are: the kernel must
    not write into them again (GameBase.play_chunks hands the next call new ones)."""
    return pl.DataFrame({name: column[:n] for name, column in zip(buf._fields, buf, strict=True)})


def round_rows(buf: RoundColumns, n: int) -> np.ndarray:
    """The first n rounds rows as int64 rows (game_id, seat, round, score), for replay."""
    return np.column_stack([column[:n].astype(np.int64) for column in buf])
