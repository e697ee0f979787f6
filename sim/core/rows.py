"""Appending rows to the kernels' preallocated buffers (events, replay trace; rounds: rounds.py).

Every buffer row is claimed the same way: the next free row is counted in one slot of the
game's counters array `g`; a full buffer sets the game's overflow flag instead (the chunk
driver then stops with STATUS_OVERFLOW, so nothing is ever silently truncated). The replay
trace is only kept when the caller asks for one: a buffer of a single row means "not tracing".
"""

from typing import NamedTuple

import numpy as np

from .jit import jit, jit_inline


class EventColumns(NamedTuple):
    """The events buffer: one array per column of the events table (sim/core/schema.py
    events_table), each in the table's own type (DESIGN.md §4). The kernel writes every value
    once, already narrow, and the table takes the filled part of each column as it is, with no
    cast and no copy (schema.Table.frame_of). Card and kind hold Enum codes; the labels come
    with the frame. A game whose events table has no target column (Dragon Brew) writes -1
    there, never read. Against one int64[rows, 7] buffer cast column by column into the
    table's types, a Brewin' USA or Dwarfest run takes about 4% less time end to end
    (docs/performance.md, 2026-12-06 evening)."""

    game_id: np.ndarray
    seat: np.ndarray
    round: np.ndarray
    card: np.ndarray
    kind: np.ndarray
    amount: np.ndarray
    target: np.ndarray

    def copy(self) -> "EventColumns":
        """A copy of every column (like ndarray.copy: tests copy a state field by field)."""
        return EventColumns(*(column.copy() for column in self))



EVENT_TYPES = (np.int64, np.int8, np.int8, np.uint16, np.uint8, np.int32, np.int8)  # EventColumns order


def event_columns(rows: int) -> EventColumns:
    """An empty events buffer of `rows` rows (at least one)."""
    return EventColumns(*(np.zeros(max(rows, 1), dtype) for dtype in EVENT_TYPES))


def event_rows(ev: EventColumns, n: int, table) -> np.ndarray:
    """The first n events as int64 rows of the game's events table (schema.Table) columns:
    for replay and tests, which read an event as one row."""
    return np.column_stack([getattr(ev, name)[:n].astype(np.int64) for name in table.row_names])


@jit_inline
def append_event(ev, g, counter, overflow, game_id, seat, round_, card, kind, amount, target):
    """Append one events-table row (its row claimed as next_row does); False, after raising
    g[overflow], when the buffer is full."""
    i = next_row(ev.game_id, g, counter, overflow)
    if i < 0:
        return False
    ev.game_id[i] = game_id
    ev.seat[i] = seat
    ev.round[i] = round_
    ev.card[i] = card
    ev.kind[i] = kind
    ev.amount[i] = amount
    ev.target[i] = target
    return True


def blank(columns):
    """A column buffer (EventColumns, rounds.RoundColumns) of the same size for the next kernel
    call: the filled one now belongs to the tables made from it. np.zeros, not np.zeros_like:
    zeros come from calloc, whose fresh pages cost nothing until the kernel writes them, where
    zeros_like writes every page (Brewin' USA's rounds buffer holds far more rows than a call
    fills: 90 MiB more peak memory with zeros_like, bench/profile.py)."""
    return type(columns)(*(np.zeros(column.shape, column.dtype) for column in columns))


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
def put8(buf, i, a, b, c, d, e, f, h, k):
    """Fill row i of an 8-column buffer (a replay trace row; no-op for i < 0, the claim having
    failed)."""
    if i < 0:
        return
    row = buf[i]
    row[0] = a
    row[1] = b
    row[2] = c
    row[3] = d
    row[4] = e
    row[5] = f
    row[6] = h
    row[7] = k


@jit
def put_trace8(buf, g, counter, overflow, a, b, c, d, e, f, h, k):
    """next_trace_row and put8 in one compiled function, for a game's inlined `trace` to call
    only when `tracing`: inlined, the row writing was re-read by numba at each of
    the dozens of places a game traces a move (Homebrewers: 2.8 s of its cold compile)."""
    i = next_trace_row(buf, g, counter, overflow)
    put8(buf, i, a, b, c, d, e, f, h, k)
