"""The shared frame helpers: Enum columns gathered from the kernels' integer codes, and the
events and rounds buffers whose columns the tables take as they are."""

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from sim.core.frames import enum_column
from sim.core.rounds import RoundColumns, record_round, round_columns, round_rows, rounds_frame
from sim.core.rows import EVENT_TYPES, EventColumns, append_event, blank, event_columns, event_rows
from sim.core.schema import _NUMPY, ENUM, events_table

LEVELS = ["play", "discard", "offer"]


def test_enum_column_maps_each_code_to_its_name():
    codes = np.array([2, 0, 1, 2, 2], np.int64)
    col = enum_column(LEVELS, codes)
    assert col.dtype == pl.Enum(LEVELS)
    assert col.to_list() == [LEVELS[c] for c in codes]


def test_enum_column_of_a_strided_column_view():
    rows = np.array([[7, 1], [8, 2], [9, 0]], np.int64, order="F")
    assert enum_column(LEVELS, rows[:, 1]).to_list() == ["discard", "offer", "play"]


def test_enum_column_refuses_a_negative_code():
    # polars reads a negative int64 index from the end: -1 would silently become "offer"
    with pytest.raises(ValueError, match="negative code -1"):
        enum_column(LEVELS, np.array([0, -1], np.int64))


def test_enum_column_refuses_a_code_past_the_last_name():
    with pytest.raises(pl.exceptions.OutOfBoundsError):
        enum_column(LEVELS, np.array([0, 3], np.int64))


def test_enum_column_of_no_rows():
    assert enum_column(LEVELS, np.zeros(0, np.int64)).len() == 0


def test_enum_column_of_unsigned_codes():
    # the events buffers keep card and kind codes unsigned (sim/core/rows.EVENT_TYPES)
    for dtype in (np.uint8, np.uint16):
        assert enum_column(LEVELS, np.array([1, 2, 0], dtype)).to_list() == ["discard", "offer", "play"]
    with pytest.raises(pl.exceptions.OutOfBoundsError):
        enum_column(LEVELS, np.array([0, 3], np.uint16))


# --- the events buffer: one array per column, taken by the table without a copy ------------

def filled_events(rows):
    """An EventColumns of capacity 10 holding `rows` (tuples in column order)."""
    ev = event_columns(10)
    g = np.zeros(2, np.int64)  # [counter, overflow]
    for r in rows:
        assert append_event(ev, g, 0, 1, *r)
    return ev, int(g[0])


ROWS = [(5, 0, 1, 2, 1, 300, -1), (5, 3, 2, 0, 0, -7, 2), (6, 1, 12, 1, 2, 0, 0)]
LABELS = {"card": ["ale", "stout", "porter"], "kind": LEVELS}


def test_events_buffer_frame_equals_the_int64_rows_frame():
    for target in (True, False):
        table = events_table() if target else events_table(target=None)
        ev, n = filled_events(ROWS)
        rows = np.array(ROWS, np.int64)[:, :table.width]
        assert_frame_equal(table.frame_of(ev, n, LABELS), table.frame(rows, LABELS))
        assert event_rows(ev, n, table).tolist() == rows.tolist()


def test_events_buffer_columns_are_the_tables_types_so_the_frame_takes_them_as_they_are():
    ev, n = filled_events(ROWS)
    frame = events_table().frame_of(ev, n, LABELS)
    ev.amount[0] = 999  # the table reads the kernel's array itself: no copy was made
    assert frame["amount"][0] == 999
    # which is why the driver hands every kernel call new columns (GameBase.play_chunks)
    new = blank(ev)
    assert type(new) is EventColumns
    copied = ev.copy()  # tests copy a state field by field
    assert all(np.array_equal(a, c) and not np.shares_memory(a, c) for a, c in zip(copied, ev, strict=True))
    assert all(b.shape == c.shape and b.dtype == c.dtype and not np.shares_memory(b, c) and not b.any()
               for b, c in zip(new, ev, strict=True))


def test_a_full_events_buffer_raises_the_overflow_flag():
    ev, g = event_columns(2), np.zeros(2, np.int64)
    assert [append_event(ev, g, 0, 1, *ROWS[0]) for _ in range(3)] == [True, True, False]
    assert g.tolist() == [2, 1]


def test_every_games_events_table_has_the_buffers_types():
    """A column whose buffer type differed from the table's would be copied (cast) for every
    kernel call: slower, silently."""
    from sim.registry import games

    types = dict(zip(EventColumns._fields, EVENT_TYPES, strict=True))
    for game in games().values():
        for c in game.schema.EVENTS.columns:
            if c.dtype != ENUM:
                assert np.dtype(types[c.name]) == np.dtype(_NUMPY[c.dtype]), (game.id, c.name)


def test_rounds_buffer_rows_and_table():
    buf, g = round_columns(5), np.zeros(2, np.int64)  # g: [counter, overflow]
    scores = np.array([[7], [-2], [40]], np.int64)
    assert record_round(buf, g, 0, 1, 9, 1, scores, 0, 3)
    assert not record_round(buf, g, 0, 1, 9, 2, scores, 0, 3)  # two rows left: nothing written
    assert g.tolist() == [3, 1]
    frame = rounds_frame(buf, 3)
    assert frame.schema == pl.Schema({"game_id": pl.Int64, "seat": pl.Int16, "round": pl.Int16, "score": pl.Int32})
    assert frame.rows() == [(9, 0, 1, 7), (9, 1, 1, -2), (9, 2, 1, 40)]
    assert round_rows(buf, 3).tolist() == [list(r) for r in frame.rows()]
    buf.score[0] = 8  # taken as it is, as the events are
    assert frame["score"][0] == 8
    assert type(blank(buf)) is RoundColumns
