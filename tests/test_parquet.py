"""The run folder's Parquet writer (sim/core/parquet.py): every file reads back equal, with the
same types, in polars and in DuckDB (the analyses' reader), whatever the column kinds, ranges,
row groups and chunks; and its RLE / bit-packed encoding decodes, by an independent decoder
written from the format's description, to the indices it was given."""

import hashlib
import io
import threading

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sim.core.parquet as parquet
from sim.core.frames import Columns
from sim.core.parquet import write_parquet

CARDS = ["bouncer", "barmaid", "wandering_bard", "skald", "old_drunk"]


def written(frame: pl.DataFrame, path) -> str:
    with open(path, "wb") as fh:
        return write_parquet(frame, fh)


def assert_reads_back(frame: pl.DataFrame, path) -> None:
    """polars reads the file as `frame`, types included; DuckDB reads the same rows from it as
    from the same frame written by polars' own writer."""
    written(frame, path)
    back = pl.read_parquet(path)
    assert back.schema == frame.schema
    assert back.equals(frame)
    reference = path.with_name("polars-" + path.name)
    frame.write_parquet(reference)
    con = duckdb.connect()
    assert con.sql(f"SELECT * FROM read_parquet('{path}')").fetchall() == \
        con.sql(f"SELECT * FROM read_parquet('{reference}')").fetchall()
    assert con.sql(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall() == \
        con.sql(f"DESCRIBE SELECT * FROM read_parquet('{reference}')").fetchall()


def a_table(n: int, seed: int = 1) -> pl.DataFrame:
    """Every column kind the games' tables have, with runs, small and wide ranges, negatives."""
    rng = np.random.default_rng(seed)
    return pl.DataFrame({
        "game_id": pl.Series(np.repeat(np.arange(n // 7 + 1), 7)[:n] + 10**12, dtype=pl.Int64),
        "seat": pl.Series(rng.integers(0, 5, n), dtype=pl.Int8),
        "round": pl.Series(np.sort(rng.integers(-3, 40, n)), dtype=pl.Int16),
        "amount": pl.Series(rng.integers(-2**31, 2**31, n), dtype=pl.Int32),
        "target": pl.Series(rng.integers(-128, 128, n), dtype=pl.Int8),
        "card": pl.Series(rng.choice(CARDS, n), dtype=pl.Enum(CARDS)),
        "win": pl.Series(rng.choice([0.0, 1.0, 0.5, 1 / 3], n), dtype=pl.Float64),
        "unique": pl.Series(rng.permutation(n) * 3, dtype=pl.Int64),
    })


def test_every_column_kind_reads_back(tmp_path):
    assert_reads_back(a_table(5_000), tmp_path / "t.parquet")


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 128, 129])
def test_tiny_and_empty_tables_read_back(tmp_path, n):
    assert_reads_back(a_table(n), tmp_path / "t.parquet")


def test_row_groups_and_chunks_that_do_not_line_up(tmp_path, monkeypatch):
    """Several row groups, and a frame of chunks cut elsewhere than the row groups: the same
    rows, the same bytes as the frame in one chunk."""
    monkeypatch.setattr(parquet, "ROW_GROUP", 1000)
    table = a_table(4_321)
    chunked = pl.concat([table[:999], table[999:2500], table[2500:]], rechunk=False)
    assert chunked.n_chunks() == 3
    assert_reads_back(chunked, tmp_path / "t.parquet")
    written(table, tmp_path / "whole.parquet")
    assert (tmp_path / "t.parquet").read_bytes() == (tmp_path / "whole.parquet").read_bytes()
    rows = duckdb.sql(f"SELECT row_group_id, count(*) FROM parquet_metadata('{tmp_path / 't.parquet'}') "
                      "GROUP BY row_group_id ORDER BY 1").fetchall()
    assert [r[0] for r in rows] == [0, 1, 2, 3, 4]


def test_a_row_group_larger_than_the_threads_buffers(tmp_path, monkeypatch):
    """The per-thread buffers grow to the row group written (they were made for a smaller one)."""
    monkeypatch.setattr(parquet, "_local", threading.local())  # this thread's buffers made anew
    monkeypatch.setattr(parquet, "ROW_GROUP", 100)
    assert_reads_back(a_table(250), tmp_path / "small.parquet")
    assert len(parquet._scratch().offsets) == 100
    monkeypatch.setattr(parquet, "ROW_GROUP", 1 << 20)
    assert_reads_back(a_table(70_000), tmp_path / "large.parquet")


def test_encodings_follow_the_values(tmp_path):
    """A small range is dictionary-encoded (with gaps: unused entries), a wide range of few
    values too (by the rank table), a range too wide for the rank table or a column of nearly
    all distinct values is written PLAIN; every page is zstd."""
    n = 3_000
    frame = pl.DataFrame({"small": pl.Series(np.arange(n) % 4, dtype=pl.Int8),
                          "gaps": pl.Series([0, 3, 7][i % 3] for i in range(n)).cast(pl.Int16),
                          "sparse": pl.Series(np.arange(n) % 2 * 10_000 - 5, dtype=pl.Int32),
                          "wide": pl.Series(np.arange(n) * (parquet.DICTIONARY_SPAN // 100), dtype=pl.Int64),
                          "distinct": pl.Series(np.arange(n), dtype=pl.Int32),
                          "card": pl.Series([CARDS[i % 5] for i in range(n)], dtype=pl.Enum(CARDS))})
    assert_reads_back(frame, tmp_path / "t.parquet")
    meta = dict(duckdb.sql(f"SELECT path_in_schema, encodings || ' ' || compression "
                           f"FROM parquet_metadata('{tmp_path / 't.parquet'}')").fetchall())
    assert all("RLE_DICTIONARY" in meta[c] for c in ("small", "gaps", "sparse", "card"))
    assert "DICTIONARY" not in meta["wide"] and "DICTIONARY" not in meta["distinct"]
    assert all(v.endswith("ZSTD") for v in meta.values())


def test_the_returned_hash_is_the_files(tmp_path):
    digest = written(a_table(2_000), tmp_path / "t.parquet")
    assert digest == hashlib.sha256((tmp_path / "t.parquet").read_bytes()).hexdigest()


def test_a_shards_columns_are_written_as_their_frame(tmp_path):
    """What a run writes (a shard's Columns, several parts a table) is byte for byte the file
    of the same table as a polars DataFrame."""
    from sim.core.config import prepare
    from sim.registry import get_game

    game = get_game("dwarfest")
    config = game.build(prepare("dwarfest", "base", [], []))
    tables = game.simulate(config, 7, 0, 300, [3, 4], ["greedy"]).tables
    pieces = game.simulate(config, 7, 300, 200, [3, 4], ["greedy"]).tables
    for name, table in tables.items():
        both = Columns.concat([table, pieces[name]])
        assert len(both.parts[both.columns[0]]) == 2
        assert written(both, tmp_path / "columns.parquet") == written(both.frame(), tmp_path / "frame.parquet")
        assert pl.read_parquet(tmp_path / "columns.parquet").equals(both.frame())


def test_a_run_folder_table_reads_back_as_polars_wrote_it(tmp_path):
    """A real shard's four tables (Dwarfest, 300 games): polars' schema and rows, and the same
    Arrow schema in the footer as polars' writer stores."""
    from sim.core.config import prepare
    from sim.registry import get_game

    game = get_game("dwarfest")
    config = game.build(prepare("dwarfest", "base", [], []))
    frames = game.simulate(config, 7, 0, 300, [3, 4], ["greedy"]).frames
    for table, frame in frames.items():
        assert_reads_back(frame, tmp_path / f"{table}.parquet")
        ours = pl.read_parquet_metadata(tmp_path / f"{table}.parquet")["ARROW:schema"]
        assert ours == pl.read_parquet_metadata(tmp_path / f"polars-{table}.parquet")["ARROW:schema"]


def test_without_polars_arrow_schema_the_file_still_reads(tmp_path, monkeypatch):
    """Should polars drop read_parquet_metadata (it calls it experimental), the files lose only
    the Arrow schema: DuckDB reads the same rows, polars the same values (Enums as strings)."""
    monkeypatch.setattr(parquet, "_arrow_schema", lambda schema: None)
    frame = a_table(300)
    written(frame, tmp_path / "t.parquet")
    back = pl.read_parquet(tmp_path / "t.parquet")
    assert back.equals(frame.with_columns(pl.col("card").cast(pl.String)))
    frame.write_parquet(tmp_path / "polars.parquet")
    assert duckdb.sql(f"SELECT * FROM read_parquet('{tmp_path / 't.parquet'}')").fetchall() == \
        duckdb.sql(f"SELECT * FROM read_parquet('{tmp_path / 'polars.parquet'}')").fetchall()


def test_nulls_and_other_types_are_refused():
    with pytest.raises(ValueError, match="no nulls"):
        write_parquet(pl.DataFrame({"a": [1, None]}), io.BytesIO())
    with pytest.raises(TypeError, match="no Parquet writer"):
        write_parquet(pl.DataFrame({"a": ["x"]}), io.BytesIO())


# --- the RLE / bit-packed hybrid, against a decoder written from the format's description ----

def read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def decode_hybrid(data: bytes, width: int, n: int) -> list[int]:
    """Runs until n values: header & 1 = 0 is an RLE run (count = header >> 1, then the value
    in ceil(width / 8) little-endian bytes); 1 is (header >> 1) groups of 8 values bit-packed
    least significant bit first."""
    out, at = [], 0
    while len(out) < n:
        header, at = read_varint(data, at)
        if header & 1 == 0:
            size = (width + 7) // 8
            out += [int.from_bytes(data[at:at + size], "little")] * (header >> 1)
            at += size
        else:
            count = (header >> 1) * 8
            bits = int.from_bytes(data[at:at + count * width // 8], "little")
            out += [(bits >> (i * width)) & ((1 << width) - 1) for i in range(count)]
            at += count * width // 8
    assert at == len(data), "bytes left over after the last run"
    return out[:n]


def hybrid(indices: np.ndarray, width: int, dense: bool = True) -> bytes:
    indices = np.ascontiguousarray(indices, dtype=np.int32)
    identity = np.arange(max(1, int(indices.max(initial=0)) + 1), dtype=np.int64)
    out = np.zeros(parquet._encoded_bound(len(indices)), np.uint8)
    used = parquet._hybrid_encode(indices, identity, dense, width, out, np.zeros(len(indices), np.uint8))
    return out[:int(used)].tobytes()


runs = st.lists(st.tuples(st.integers(0, 2**20 - 1), st.integers(1, 20)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(runs=runs, width=st.integers(1, 20), dense=st.booleans())
def test_the_hybrid_decodes_to_its_indices(runs, width, dense):
    """With the identity as its rank table, read through it (dense=False) or not."""
    values = [v & ((1 << width) - 1) for v, k in runs for _ in range(k)]
    indices = np.array(values, dtype=np.int64)
    assert decode_hybrid(hybrid(indices, width, dense), width, len(values)) == values


def test_long_runs_become_rle_and_the_rest_is_packed():
    indices = np.array([3] * 100 + [0, 1, 2, 3, 0, 1, 2, 3, 1], dtype=np.int64)
    data = hybrid(indices, 2)
    assert data[:2] == bytes([200, 1]) and data[2] == 3  # varint(100 << 1), then the value
    assert decode_hybrid(data, 2, len(indices)) == indices.tolist()
    assert len(data) == 3 + 1 + 2 * 2  # one RLE run; one header and two groups of 8 x 2 bits


def test_the_rank_table_numbers_the_values_present():
    offsets = np.array([4, 0, 0, 7, 4], dtype=np.int32)
    rank = np.zeros(8, np.int64)
    assert parquet._rank_table(offsets, rank) == 3
    assert rank.tolist() == [0, -1, -1, -1, 1, -1, -1, 2]
