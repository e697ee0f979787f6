"""The shared table helpers: a shard's tables as numpy columns (Columns), the columns of a
kernel's int64 rows split out into one allocation, Enum codes checked against their labels,
and Enum columns gathered from the codes when a DataFrame is asked for."""

import numpy as np
import polars as pl
import pytest

from sim.core import frames
from sim.core.frames import (
    BlockPool,
    Columns,
    check_codes,
    column_block,
    enum_column,
    split_columns,
)
from sim.core.rows import restore_game_ids

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


@pytest.mark.parametrize("n_rows", [0, 1, 8191, 8192, 16389])
def test_split_columns_equals_a_cast_of_each_column(n_rows):
    rng = np.random.default_rng(n_rows)
    rows = rng.integers(-300, 300, (n_rows, 5))
    picks = [(0, np.int64), (3, np.int8), (1, np.int16), (3, np.int32), (4, np.uint64)]
    out, _ = split_columns(rows, picks)
    assert len(out) == len(picks)
    for column, (at, dtype) in zip(out, picks, strict=True):
        assert column.dtype == dtype
        np.testing.assert_array_equal(column, rows[:, at].astype(dtype))


def test_split_columns_returns_copies_not_views_of_the_buffer():
    # the kernels' buffers are overwritten by their next call
    rows = np.arange(12, dtype=np.int64).reshape(4, 3)
    (first,), _ = split_columns(rows, [(0, np.int64)])
    rows[:] = -1
    assert first.tolist() == [0, 3, 6, 9]


def test_split_columns_of_a_column_major_buffer_casts_each_column():
    rows = np.asfortranarray(np.random.default_rng(3).integers(-300, 300, (1000, 4)))
    out, _ = split_columns(rows[:700], [(2, np.int8), (0, np.int64)])
    np.testing.assert_array_equal(out[0], rows[:700, 2].astype(np.int8))
    np.testing.assert_array_equal(out[1], rows[:700, 0])


@pytest.mark.parametrize("n", [0, 1, 13, 100_000])
def test_a_column_block_holds_separate_aligned_columns(n):
    types = [np.int64, np.int8, np.int16, np.uint8, np.int32, np.float64]
    cols, block = column_block(n, types)
    assert all(np.shares_memory(c, block) for c in cols if n)
    assert [c.dtype for c in cols] == [np.dtype(t) for t in types]
    assert all(len(c) == n and c.ctypes.data % 16 == 0 for c in cols)
    for k, c in enumerate(cols):
        c[:] = k + 1
    assert all((c == k + 1).all() for k, c in enumerate(cols))  # no column overlaps another


def test_check_codes_names_the_column_and_the_bad_code():
    check_codes(LEVELS, np.array([0, 2, 1]), "kind")
    check_codes(LEVELS, np.zeros(0, np.int64), "kind")
    for bad in (-1, 3):
        with pytest.raises(ValueError, match=f"column kind: code {bad} is not one of its 3 labels"):
            check_codes(LEVELS, np.array([0, bad, 1]), "kind")


def test_columns_concat_and_frame():
    schema = {"game_id": pl.Int64, "kind": pl.Enum(LEVELS), "win": pl.Float64}
    a = Columns(schema, {"game_id": [np.array([1, 1])], "kind": [np.array([2, 0], np.uint8)],
                         "win": [np.array([0.5, 0.5])]})
    b = Columns(schema, {"game_id": [np.array([2])], "kind": [np.array([1], np.uint8)], "win": [np.array([1.0])]})
    both = Columns.concat([a, b])
    assert both.height == 3 and both.columns == ["game_id", "kind", "win"]
    expected = pl.DataFrame({"game_id": [1, 1, 2], "kind": pl.Series(["offer", "play", "discard"], dtype=pl.Enum(LEVELS)),
                             "win": [0.5, 0.5, 1.0]})
    assert both.frame().equals(expected) and both.frame().schema == expected.schema
    assert Columns.of_frame(expected).frame().equals(expected)


def test_a_table_of_no_rows():
    schema = {"game_id": pl.Int64, "kind": pl.Enum(LEVELS)}
    empty = Columns(schema, {"game_id": [], "kind": []})
    assert empty.height == 0 and empty.frame().schema == pl.Schema(schema)


def test_the_pool_gives_a_block_back_once_and_only_to_a_request_it_fits():
    pool = BlockPool()
    block = pool.take(3 * frames.MIB + 5)
    assert len(block) == 4 * frames.MIB
    pool.give([block, block])  # listed twice (tables concatenated twice): free once
    assert pool.take(5 * frames.MIB) is not block  # too small
    assert pool.take(frames.MIB // 2) is block  # larger than asked is fine
    assert pool.take(frames.MIB // 2) is not block


def test_the_pool_gives_the_smallest_block_that_fits():
    pool = BlockPool()
    large, small = pool.take(9 * frames.MIB), pool.take(6 * frames.MIB)
    pool.give([large, small])
    assert pool.take(5 * frames.MIB + 1) is small  # the large one stays for a request only it fits
    assert pool.take(8 * frames.MIB) is large


def test_a_released_table_cannot_be_read(monkeypatch):
    pool = BlockPool()
    monkeypatch.setattr(frames, "POOL", pool)
    (col,), block = column_block(10, [np.int64])
    table = Columns({"game_id": pl.Int64}, {"game_id": [col]}, (block,))
    table.release()
    with pytest.raises(RuntimeError, match="given back"):
        table.frame()
    assert pool.take(8) is block


def test_a_written_shards_memory_is_used_again_by_the_next_shard(tmp_path, monkeypatch):
    """write_shard releases the tables it wrote; the next shard's columns reuse their blocks
    and are still their own games' (the pool hands out no block in use)."""
    from sim.core import runfolder as rf
    from sim.core.config import prepare
    from sim.registry import get_game

    pool = BlockPool()
    monkeypatch.setattr(frames, "POOL", pool)
    game = get_game("dwarfest")
    config = game.build(prepare("dwarfest", "base", [], []))
    rf.prepare_folder(tmp_path)
    expected = game.simulate(config, 5, 400, 400, [4], ["greedy"]).frames  # DataFrames: memory of their own
    first = game.simulate(config, 5, 0, 400, [4], ["greedy"]).tables
    blocks = {id(b) for t in first.values() for b in t.blocks}
    rf.write_shard(tmp_path, {"id": 0, "first_game": 0, "n_games": 400}, first)
    assert blocks <= {id(b) for b in pool._free}  # with the games and players rows' blocks
    again = game.simulate(config, 5, 400, 400, [4], ["greedy"])
    assert {id(b) for t in again.tables.values() for b in t.blocks} & blocks
    for name, frame in again.frames.items():
        assert frame.equals(expected[name])


@pytest.mark.parametrize("first_game", [2**31 - 3, 2**32 + 5])
def test_game_ids_past_32_bits_survive_the_int32_buffers(first_game):
    """The event and rounds buffers are int32 (sim/core/rows.py): a game id of 2**31 or more
    is stored modulo 2**32 and given back whole in the tables."""
    from sim.core.config import prepare
    from sim.registry import get_game

    game = get_game("dwarfest")
    config = game.build(prepare("dwarfest", "base", [], []))
    frames = game.simulate(config, 3, first_game, 6, [4], ["greedy"]).frames
    ids = list(range(first_game, first_game + 6))
    assert frames["games"]["game_id"].to_list() == ids
    for table in ("players", "events", "rounds"):
        assert frames[table]["game_id"].unique().sort().to_list() == ids
    assert frames["events"].height > 0


def test_restore_game_ids_leaves_ids_below_2_to_the_31_alone():
    column = np.array([5, 6, 7], np.int32)
    assert restore_game_ids(column, 5, 3) is column  # no copy
    wrapped = np.array([2**31 - 1, -(2**31), -(2**31) + 1], np.int32)
    restored = restore_game_ids(wrapped, 2**31 - 1, 3)
    assert restored.dtype == np.int64 and restored.tolist() == [2**31 - 1, 2**31, 2**31 + 1]
