"""Appending rows to the kernels' preallocated buffers (events, replay trace).

Every buffer row is claimed the same way: the next free row is counted in one slot of the
game's counters array `g`; a full buffer sets the game's overflow flag instead (the chunk
driver then stops with STATUS_OVERFLOW, so nothing is ever silently truncated). The replay
trace is only kept when the caller asks for one: a buffer of a single row means "not tracing".
"""

import numpy as np

from .jit import jit, jit_inline


def column_buffer(rows: int, cols: int) -> np.ndarray:
    """An event or rounds buffer, int32[rows, cols] (at least one row), column-major: each
    column the tables are built from is then one contiguous run. With row-major buffers,
    building a shard's tables read every row once per column (measured: 10% of the Dwarfest
    kernel's time).

    int32, not int64: every column but game_id is at most 32 bits in the tables (schema.py),
    and the Parquet writer reads the buffer's columns after the shard (half the bytes to bring
    back from memory). A game id of 2**31 or more is kept modulo 2**32 (numba stores the low
    32 bits), and `restore_game_ids` gives it back: one call's games are far fewer than 2**32
    apart.

    This is the buffer's shape and layout: in a run, each kernel call is handed a buffer like
    it from the pool (GameBase.play_chunks, frames.pooled_like), holding whatever a written
    shard left there, so a kernel reads only rows it has written. The buffer itself is not
    zeroed either: in a run it is only the pattern of the pooled ones, and zeroing it (9 MiB
    for Dwarfest's events of a shard) cost 0.3 µs a game."""
    return np.empty((max(rows, 1), cols), np.int32, order="F")


def output_rows(rows: int, width: int) -> np.ndarray:
    """The games or players rows a kernel fills, int64[rows, width], column-major: each
    column of the tables is then one contiguous copy (Dwarfest's players, 25 columns, split
    into their typed columns out of cache: 0.30 µs a game row-major, 0.04 column-major).

    The array is the first `rows` rows of one with a spare row, so no slice of it is C- or
    F-contiguous: numba types every slice the kernel is handed (`players[at_row:]`, from row 0
    or not) as layout 'A' and compiles the kernel once (an exact-size array's slice from row 0
    would be 'F', the others 'A': two compiles of the whole kernel). A run takes them from the
    pool in this layout (frames.pooled_rows)."""
    return np.zeros((rows + 1, width), np.int64, order="F")[:rows]


def restore_game_ids(column: np.ndarray, first_game: int, n_games: int) -> np.ndarray:
    """The game ids first_game .. first_game + n_games - 1 of a buffer's game_id column: the
    column itself unless some are 2**31 or more, else an int64 copy with the ids restored."""
    if first_game + n_games <= 1 << 31:
        return column
    column = column.astype(np.int64)
    np.subtract(column, first_game, out=column)
    np.bitwise_and(column, 0xFFFFFFFF, out=column)
    np.add(column, first_game, out=column)
    return column


@jit_inline
def next_row(buf, g, counter, overflow):
    """Index of the next free row of `buf` (and count it), or -1 after raising g[overflow]."""
    i = g[counter]
    if i >= buf.shape[0]:
        g[overflow] = 1
        return -1
    g[counter] = i + 1
    return i


@jit_inline
def tracing(buf):
    """Whether a replay trace is kept in `buf` (a one-row buffer means "not tracing")."""
    return buf.shape[0] > 1


@jit_inline
def next_trace_row(buf, g, counter, overflow):
    """Like next_row, but -1 without any flag when not tracing."""
    if not tracing(buf):
        return -1
    return next_row(buf, g, counter, overflow)


@jit_inline
def put6(buf, i, a, b, c, d, e, f):
    """Fill row i of a 6-column buffer (no-op for i < 0, the claim having failed)."""
    if i < 0:
        return
    row = buf[i]
    row[0] = a
    row[1] = b
    row[2] = c
    row[3] = d
    row[4] = e
    row[5] = f


@jit_inline
def put7(buf, i, a, b, c, d, e, f, h):
    """Fill row i of a 7-column buffer (no-op for i < 0)."""
    if i < 0:
        return
    put6(buf, i, a, b, c, d, e, f)
    buf[i, 6] = h


@jit_inline
def put8(buf, i, a, b, c, d, e, f, h, k):
    """Fill row i of an 8-column buffer (no-op for i < 0)."""
    if i < 0:
        return
    put7(buf, i, a, b, c, d, e, f, h)
    buf[i, 7] = k


@jit
def put_trace8(buf, g, counter, overflow, a, b, c, d, e, f, h, k):
    """next_trace_row and put8 in one compiled function, for a game's inlined `trace` to call
    only when `tracing`: inlined, the row writing was re-read by numba at each of
    the dozens of places a game traces a move (Homebrewers: 2.8 s of its cold compile)."""
    i = next_trace_row(buf, g, counter, overflow)
    put8(buf, i, a, b, c, d, e, f, h, k)
