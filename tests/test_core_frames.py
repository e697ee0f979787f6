"""The shared frame helpers: Enum columns gathered from the kernels' integer codes."""

import numpy as np
import polars as pl
import pytest

from sim.core.frames import enum_column

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
