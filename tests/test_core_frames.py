"""The shared frame helpers: Enum columns gathered from the kernels' integer codes, and the
columns of a kernel's int64 rows split out a block of rows at a time."""

import numpy as np
import polars as pl
import pytest

from sim.core import frames
from sim.core.frames import enum_column, split_columns

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
    with pytest.raises(pl.exceptions.OutOfBoundsError):
        enum_column(LEVELS, np.array([0, -1], np.int64))


def test_enum_column_refuses_a_code_past_the_last_name():
    with pytest.raises(pl.exceptions.OutOfBoundsError):
        enum_column(LEVELS, np.array([0, 3], np.int64))


def test_enum_column_of_no_rows():
    assert enum_column(LEVELS, np.zeros(0, np.int64)).len() == 0


@pytest.mark.parametrize("n_rows", [0, 1, frames.BLOCK_ROWS - 1, frames.BLOCK_ROWS, 2 * frames.BLOCK_ROWS + 5])
def test_split_columns_equals_a_cast_of_each_column(n_rows):
    rng = np.random.default_rng(n_rows)
    rows = rng.integers(-300, 300, (n_rows, 5))
    picks = [(0, np.int64), (3, np.int8), (1, np.int16), (3, np.int32), (4, np.uint64)]
    out = split_columns(rows, picks)
    assert len(out) == len(picks)
    for column, (at, dtype) in zip(out, picks, strict=True):
        assert column.dtype == dtype
        np.testing.assert_array_equal(column, rows[:, at].astype(dtype))


def test_split_columns_returns_copies_not_views_of_the_buffer():
    # the kernels' buffers are overwritten by their next call
    rows = np.arange(12, dtype=np.int64).reshape(4, 3)
    (first,) = split_columns(rows, [(0, np.int64)])
    rows[:] = -1
    assert first.tolist() == [0, 3, 6, 9]
