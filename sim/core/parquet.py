"""The run folder's Parquet writer: flat tables of integer, float and Enum columns, the only
kinds a game's tables have (sim/core/schema.py).

Why not polars' own writer: polars 2.1 dictionary-encodes every integer column with fewer than
75% distinct values (all of ours) by hashing each value twice (a cardinality estimate, then the
dictionary), about 7.5 ns a value, and no option turns it off; Dwarfest's ~80 event rows a game
cost more to write than the last tenth of its kernel time (issue 16). Our integer columns have
small ranges, so the dictionary here is built by arithmetic, not hashing: in a row group whose
values span at most 3/4 as many values as it has rows, the dictionary is every value from the
least to the greatest and a value's index is its offset from the least (a wider range is
numbered by a table of the values present); the indices are then run-length / bit-packed in one
compiled pass. The pages are compressed with zstd at level 1, as polars' were.

What a file holds, in Parquet's terms (format 1.0, data pages v1): one row group per
ROW_GROUP rows; in each, per column, one dictionary page (PLAIN) and one data page of
RLE_DICTIONARY indices, or, for a float column or an integer column with a wide or nearly
unique range, one PLAIN data page. Columns are OPTIONAL (nullable, no null ever written) and
the footer carries the Arrow schema polars writes for the same columns, so polars reads a file
back with the types it was given (Int8, Enum, ...), and a run folder may mix parts written by
either writer. Every file is read back equal by polars and DuckDB in tests/test_parquet.py.
"""

from __future__ import annotations

import hashlib
import io
import threading
from functools import lru_cache

import numpy as np
import polars as pl
import zstandard

from .frames import Columns
from .jit import jit_inline, jit_python

ROW_GROUP = 1 << 19  # rows per row group: the bytes depend on the rows only, not on chunking
ZSTD_LEVEL = 1
DICTIONARY_SPAN = 1 << 20  # widest integer range dictionary-encoded (the rank table's size)
CREATED_BY = "brewbalance (sim/core/parquet.py)"
U = np.uint64  # the encoder's index type (_hybrid_encode)

# Parquet's enums (parquet.thrift)
INT32, INT64, DOUBLE, BYTE_ARRAY = 1, 2, 5, 6  # physical types
OPTIONAL = 1
UTF8, INT_8, INT_16 = 0, 15, 16  # converted types
PLAIN, RLE, RLE_DICTIONARY = 0, 3, 8  # encodings
ZSTD = 6
DATA_PAGE, DICTIONARY_PAGE = 0, 2

_PHYSICAL = {pl.Int8: (INT32, np.int32, 8), pl.Int16: (INT32, np.int32, 16), pl.Int32: (INT32, np.int32, 0),
             pl.Int64: (INT64, np.int64, 0), pl.Float64: (DOUBLE, np.float64, 0)}


def write_parquet(table: Columns | pl.DataFrame, file) -> str:
    """Write `table` to `file` (a binary file open for writing, at its start); returns the
    sha256 of the bytes written (hashed as they are written, not read back)."""
    if isinstance(table, pl.DataFrame):
        _refuse_nulls(table)
        table = Columns.of_frame(table)
    columns = [_Column(name, dtype, table.parts[name]) for name, dtype in table.schema.items()]
    scratch = _scratch()
    out = _HashedWriter(file)
    out.write(b"PAR1")
    row_groups = []
    for start in range(0, table.height, ROW_GROUP):
        n = min(ROW_GROUP, table.height - start)
        scratch.fit(n)
        chunks = [c.write_chunk(out, start, n, scratch) for c in columns]
        row_groups.append(_row_group(chunks, n))
    meta = _file_metadata(table, columns, row_groups)
    out.write(meta + len(meta).to_bytes(4, "little") + b"PAR1")
    return out.sha256.hexdigest()


class _HashedWriter:
    """A file's writes, counted (the offsets the footer lists) and hashed."""

    def __init__(self, file):
        self.file = file
        self.sha256 = hashlib.sha256()
        self.offset = 0

    def write(self, data) -> None:
        self.file.write(data)
        self.sha256.update(data)
        self.offset += len(data)


class _Scratch:
    """One thread's buffers, reused from row group to row group and file to file: fresh
    memory is most of the cost of a copy (page faults), and a ZstdCompressor is not
    thread-safe."""

    def __init__(self):
        self.offsets = np.empty(0, np.int32)  # a row group's values less their least
        self.rank = np.empty(0, np.int64)
        self.out = np.empty(0, np.uint8)  # a data page of indices, encoded
        self.starts = np.empty(0, np.uint8)  # the encoder's marks of where runs start
        self.zstd = zstandard.ZstdCompressor(level=ZSTD_LEVEL)

    def fit(self, n: int) -> None:
        """Room for a row group of n rows (made at the first, grown if a larger one comes)."""
        if len(self.offsets) < n:
            self.offsets = np.empty(n, np.int32)
            self.out = np.empty(_encoded_bound(n), np.uint8)
            self.starts = np.empty(n, np.uint8)

    def zeroed_rank(self, span: int) -> np.ndarray:
        if len(self.rank) < span:
            self.rank = np.empty(max(span, 2 * len(self.rank)), np.int64)
        rank = self.rank[:span]
        rank[:] = 0
        return rank


_local = threading.local()


def _scratch() -> _Scratch:
    if not hasattr(_local, "scratch"):
        _local.scratch = _Scratch()
    return _local.scratch


def _encoded_bound(n: int) -> int:
    """Bytes a data page of n dictionary indices can take: definition levels (4 + 6), the bit
    width (1), and per 8 values at most a 5-byte run header and 4 bytes of value or 32 bits
    a value bit-packed."""
    return 16 + (n // 8 + 1) * (5 + 32)


def _refuse_nulls(frame: pl.DataFrame) -> None:
    for name in frame.columns:
        if frame[name].null_count():
            raise ValueError(f"column {name}: the run folder's tables have no nulls")


class _Column:
    """One column of the table: its schema entry, and its chunks as they are written."""

    def __init__(self, name: str, dtype: pl.DataType, parts: list[np.ndarray]):
        self.name = name
        self.dtype = dtype
        if isinstance(self.dtype, pl.Enum):
            self.physical, self.numpy_type, self.int_bits = BYTE_ARRAY, None, 0
            self.labels = list(self.dtype.categories)
            self.plain_labels = _plain_strings(self.labels)  # the dictionary page of every row group
        elif self.dtype in _PHYSICAL:
            self.physical, self.numpy_type, self.int_bits = _PHYSICAL[self.dtype]
        else:
            raise TypeError(f"column {self.name}: no Parquet writer for {self.dtype}")
        self.parts = parts
        self.part_starts = np.cumsum([0] + [len(p) for p in self.parts[:-1]])

    def _slices(self, start: int, n: int):
        """(part, slice of the part, offset in the rows) covering rows [start, start + n)."""
        for part, at in zip(self.parts, self.part_starts, strict=True):
            lo, hi = max(start, at), min(start + n, at + len(part))
            if lo < hi:
                yield part[lo - at:hi - at], lo - start

    def rows(self, start: int, n: int, into: np.ndarray) -> np.ndarray:
        """Rows [start, start + n) copied into `into` (cast to its type); returns into[:n]."""
        for values, at in self._slices(start, n):
            into[at:at + len(values)] = values
        return into[:n]

    def offsets(self, start: int, n: int, lo: int, scratch: _Scratch) -> np.ndarray:
        """Rows [start, start + n) less lo, as int32 in scratch.offsets (a row group's values
        span less than DICTIONARY_SPAN here): half the bytes of int64 to stream through the
        cache, whatever the column's type. The subtraction is done in int32 unless the column
        is int64 (an int32 difference below DICTIONARY_SPAN is exact even if it wraps)."""
        for values, at in self._slices(start, n):
            wide = np.int64 if values.dtype == np.int64 else np.int32
            np.subtract(values, lo, out=scratch.offsets[at:at + len(values)], dtype=wide, casting="unsafe")
        return scratch.offsets[:n]

    def value_range(self, start: int, n: int) -> tuple[int, int]:
        """The least and greatest of rows [start, start + n), read in the column's own type."""
        ends = [(int(v.min()), int(v.max())) for v, _ in self._slices(start, n)]
        return min(lo for lo, _ in ends), max(hi for _, hi in ends)

    def write_chunk(self, out, start: int, n: int, scratch: _Scratch) -> dict:
        """Write rows [start, start + n) as one column chunk; returns what the footer needs."""
        offset = out.offset
        if self.physical == DOUBLE:
            pages = [_plain_page(self.rows(start, n, np.empty(n, np.float64)), scratch)]
        elif self.physical == BYTE_ARRAY:
            codes = self.rows(start, n, scratch.offsets)  # the codes are the indices
            pages = [_dictionary_page(self.plain_labels, len(self.labels), scratch),
                     _indices_page(codes, None, len(self.labels), scratch)]
        else:
            pages = self._integer_pages(start, n, scratch)
        sizes = [0, 0]
        for header, body, raw in pages:
            out.write(header)
            out.write(body)
            sizes[0] += len(header) + raw
            sizes[1] += len(header) + len(body)
        first = len(pages[0][0]) + len(pages[0][1])
        return {"offset": offset, "data_offset": offset + (first if len(pages) == 2 else 0),
                "dictionary": len(pages) == 2, "n": n, "uncompressed": sizes[0],
                "compressed": sizes[1], "physical": self.physical, "name": self.name}

    def _integer_pages(self, start: int, n: int, scratch: _Scratch) -> list:
        """A dictionary page and a page of indices, or one PLAIN page:
        * a range of at most 3/4 as many values as rows (every column of ours but a games
          table's game_id): the dictionary is every value of the range, present or not, so a
          value's index is its offset from the least, with no table to build or look up;
        * a wider range, up to DICTIONARY_SPAN: the values present, numbered by a rank table,
          if they are at most 3/4 of the rows;
        * otherwise (wider still, or nearly all distinct): PLAIN."""
        lo, hi = self.value_range(start, n)
        span = hi - lo + 1
        if span * 4 <= n * 3:
            dictionary = np.arange(lo, hi + 1, dtype=np.int64).astype(self.numpy_type)
            return [_dictionary_page(dictionary.tobytes(), span, scratch),
                    _indices_page(self.offsets(start, n, lo, scratch), None, span, scratch)]
        if span <= DICTIONARY_SPAN:
            offsets = self.offsets(start, n, lo, scratch)
            rank = scratch.zeroed_rank(span)
            n_entries = _rank_table(offsets, rank)
            if n <= 128 or n_entries * 4 <= n * 3:
                dictionary = (np.flatnonzero(rank >= 0) + lo).astype(self.numpy_type)
                return [_dictionary_page(dictionary.tobytes(), n_entries, scratch),
                        _indices_page(offsets, rank, n_entries, scratch)]
        return [_plain_page(self.rows(start, n, np.empty(n, self.numpy_type)), scratch)]

    def schema_element(self) -> bytes:
        fields = [(1, "i32", self.physical), (3, "i32", OPTIONAL), (4, "bin", self.name.encode())]
        if self.physical == BYTE_ARRAY:
            fields += [(6, "i32", UTF8), (10, "struct", _struct([(1, "struct", b"\x00")]))]
        elif self.int_bits:
            int_type = _struct([(1, "byte", self.int_bits), (2, "bool", True)])
            fields += [(6, "i32", INT_8 if self.int_bits == 8 else INT_16), (10, "struct", _struct([(10, "struct", int_type)]))]
        return _struct(fields)


def compile_ahead() -> list[tuple]:
    """The encoder's compiled functions, with arguments of the types it passes them, for the
    list a cold start compiles on two cores (sim/core/ahead.py): compiled there, they do not
    hold up the first shard's writing."""
    offsets, rank = np.zeros(8, np.int32), np.zeros(1, np.int64)
    return [(_rank_table, (offsets, rank)),
            (_hybrid_encode, (offsets, rank, True, 1, np.zeros(_encoded_bound(8), np.uint8), np.zeros(8, np.uint8)))]


def _plain_strings(labels: list[str]) -> bytes:
    return b"".join(len(b).to_bytes(4, "little") + b for b in (s.encode() for s in labels))


def _definition_levels(n: int) -> bytes:
    """Every value present: one RLE run of n ones, behind its 4-byte length."""
    run = _varint(n << 1) + b"\x01"
    return len(run).to_bytes(4, "little") + run


def _plain_page(values: np.ndarray, scratch: _Scratch):
    return _page(DATA_PAGE, len(values), _definition_levels(len(values)) + values.tobytes(), PLAIN, scratch)


def _dictionary_page(plain: bytes, n_entries: int, scratch: _Scratch):
    return _page(DICTIONARY_PAGE, n_entries, plain, PLAIN, scratch)


def _indices_page(offsets: np.ndarray, rank: np.ndarray | None, n_entries: int, scratch: _Scratch):
    """A data page of dictionary indices, encoded in scratch.out behind its definition levels
    and bit width: each offset's rank[offset], or the offset itself when rank is None."""
    width = max(1, (n_entries - 1).bit_length())
    prefix = _definition_levels(len(offsets)) + bytes([width])
    scratch.out[:len(prefix)] = np.frombuffer(prefix, np.uint8)
    table = _NO_RANK if rank is None else rank
    used = len(prefix) + int(_hybrid_encode(offsets, table, rank is None, width, scratch.out[len(prefix):],
                                            scratch.starts))
    return _page(DATA_PAGE, len(offsets), memoryview(scratch.out)[:used], RLE_DICTIONARY, scratch)


_NO_RANK = np.zeros(1, np.int64)  # the encoder's rank argument when the offsets are the indices


def _page(kind: int, n_values: int, raw, encoding: int, scratch: _Scratch):
    body = scratch.zstd.compress(raw)
    if kind == DATA_PAGE:
        sub = (5, "struct", _struct([(1, "i32", n_values), (2, "i32", encoding), (3, "i32", RLE), (4, "i32", RLE)]))
    else:
        sub = (7, "struct", _struct([(1, "i32", n_values), (2, "i32", encoding)]))
    header = _struct([(1, "i32", kind), (2, "i32", len(raw)), (3, "i32", len(body)), sub])
    return header, body, len(raw)


@jit_python
def _rank_table(offsets, rank):
    """rank: zeros, one per offset in [0, len(rank)). Afterwards rank[k] is offset k's index
    among the distinct offsets present, ascending, or -1 if k is absent. Returns how many are
    present."""
    for k in offsets:
        rank[k] = 1
    k = 0
    for j in range(len(rank)):
        if rank[j]:
            rank[j] = k
            k += 1
        else:
            rank[j] = -1
    return k


@jit_python
def _hybrid_encode(values, rank, dense, width, out, starts):
    """Parquet's RLE / bit-packed hybrid of the indices rank[values[i]]: a run of 8 or more
    equal values is one RLE run, the rest is bit-packed in groups of 8 (the last group padded
    with zeros). `dense`: the values are the indices (an Enum's codes, the offsets into a range
    dictionary), and rank is not read. `starts` is scratch, a byte per value. Returns the bytes
    used in out.

    Where runs of 8 start is marked first, in a pass without branches, so the loop that
    encodes tests one byte, mostly 0, at each group boundary. Indices are unsigned (U): numba
    checks a signed index for a negative value on every access. Together, on Dwarfest's event
    columns: 1.0-1.5 -> 0.5-0.9 ns a value, the same bytes."""
    n = U(len(values))
    width = U(width)
    _mark_runs_of_8(values, n, starts)
    value_bytes = (width + U(7)) // U(8)
    pos = U(0)
    o = U(0)
    while pos < n:
        if starts[pos]:
            v = values[pos]
            k = pos + U(8)
            while k < n and values[k] == v:
                k += U(1)
            o = _put_varint(out, o, (k - pos) << U(1))
            index = U(v) if dense else U(rank[v])
            for b in range(value_bytes):
                out[o] = np.uint8((index >> (U(8) * b)) & U(0xFF))
                o += U(1)
            pos = k
            continue
        stop = pos + U(8)  # bit-pack groups of 8 until a run of 8 starts at a group's boundary
        while stop < n and not starts[stop]:
            stop += U(8)
        end = min(stop, n)
        groups = (end - pos + U(7)) // U(8)
        o = _put_varint(out, o, (groups << U(1)) | U(1))
        o = _bit_pack(values, rank, dense, pos, groups, n, width, out, o)
        pos = end
    return o


@jit_inline
def _mark_runs_of_8(values, n, starts):
    """starts[i] = 1 where values[i .. i + 7] are all equal, else 0 (0 in the last 7)."""
    last = n - U(7) if n >= U(8) else U(0)
    for i in range(last):
        v = values[i]
        same = np.uint8(1)
        for j in range(U(1), U(8)):
            same &= np.uint8(values[i + j] == v)
        starts[i] = same
    for i in range(last, n):
        starts[i] = 0


@jit_inline
def _index(values, rank, dense, i):
    return U(values[i]) if dense else U(rank[values[i]])


@jit_inline
def _bit_pack(values, rank, dense, first, groups, n, width, out, o):
    """The indices of values first .. first + 8 * groups - 1 (zeros past n), `width` bits
    each, least significant bit first: `width` bytes a group. Up to 8 bits an index, a group's
    8 fit one word."""
    for g in range(groups):
        base = first + U(8) * g
        if width <= U(8):
            word = U(0)
            if base + U(8) <= n:  # a whole group: a loop of constant length, unrolled
                for j in range(U(8)):
                    word |= _index(values, rank, dense, base + j) << (j * width)
            else:
                for j in range(n - base):
                    word |= _index(values, rank, dense, base + j) << (j * width)
            for b in range(width):
                out[o + b] = np.uint8((word >> (U(8) * b)) & U(0xFF))
            o += width
            continue
        acc = U(0)
        bits = U(0)
        for i in range(base, base + U(8)):
            acc |= (_index(values, rank, dense, i) if i < n else U(0)) << bits
            bits += width
            while bits >= U(8):
                out[o] = np.uint8(acc & U(0xFF))
                o += U(1)
                acc >>= U(8)
                bits -= U(8)
    return o


@jit_inline
def _put_varint(out, o, value):
    while value >= U(0x80):
        out[o] = np.uint8((value & U(0x7F)) | U(0x80))
        o += U(1)
        value >>= U(7)
    out[o] = np.uint8(value)
    return o + U(1)


# --- the footer: Thrift's compact protocol, for the few structs a footer needs ---------------

def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _zigzag(value: int) -> bytes:
    return _varint((value << 1) ^ (value >> 63))


_TYPE = {"bool": None, "byte": 3, "i32": 5, "i64": 6, "bin": 8, "list": 9, "struct": 12}


def _struct(fields: list[tuple]) -> bytes:
    """A Thrift compact struct from (field id, kind, value), ids ascending. A "struct" value
    is the nested struct's bytes; a "list" value is (element type code, encoded elements)."""
    out = bytearray()
    last = 0
    for fid, kind, value in fields:
        code = (1 if value else 2) if kind == "bool" else _TYPE[kind]
        out += bytes([((fid - last) << 4) | code]) if 0 < fid - last <= 15 else bytes([code]) + _zigzag(fid)
        last = fid
        if kind == "byte":
            out.append(value & 0xFF)
        elif kind in ("i32", "i64"):
            out += _zigzag(value)
        elif kind == "bin":
            out += _varint(len(value)) + value
        elif kind == "list":
            element, items = value
            out += bytes([(len(items) << 4) | element]) if len(items) < 15 else bytes([0xF0 | element]) + _varint(len(items))
            out += b"".join(items)
        elif kind == "struct":
            out += value
    return bytes(out) + b"\x00"


def _row_group(chunks: list[dict], n: int) -> bytes:
    columns = []
    for c in chunks:
        encodings = [PLAIN, RLE, RLE_DICTIONARY] if c["dictionary"] else [PLAIN, RLE]
        meta = [(1, "i32", c["physical"]), (2, "list", (5, [_zigzag(e) for e in encodings])),
                (3, "list", (8, [_varint(len(c["name"].encode())) + c["name"].encode()])),
                (4, "i32", ZSTD), (5, "i64", c["n"]), (6, "i64", c["uncompressed"]),
                (7, "i64", c["compressed"]), (9, "i64", c["data_offset"])]
        if c["dictionary"]:
            meta.append((11, "i64", c["offset"]))
        columns.append(_struct([(2, "i64", c["offset"]), (3, "struct", _struct(meta))]))
    return _struct([(1, "list", (12, columns)), (2, "i64", sum(c["uncompressed"] for c in chunks)),
                    (3, "i64", n), (5, "i64", chunks[0]["offset"] if chunks else 4),
                    (6, "i64", sum(c["compressed"] for c in chunks))])


def _file_metadata(table: Columns, columns: list[_Column], row_groups: list[bytes]) -> bytes:
    root = _struct([(4, "bin", b"schema"), (5, "i32", len(columns))])
    schema = [root] + [c.schema_element() for c in columns]
    arrow = _arrow_schema(tuple(table.schema.items()))
    key_values = [(5, "list", (12, [_struct([(1, "bin", b"ARROW:schema"), (2, "bin", arrow.encode())])]))] if arrow else []
    return _struct([(1, "i32", 1), (2, "list", (12, schema)), (3, "i64", table.height),
                    (4, "list", (12, row_groups)), *key_values, (6, "bin", CREATED_BY.encode())])


@lru_cache(maxsize=64)
def _arrow_schema(schema: tuple) -> str | None:
    """The Arrow schema polars stores in a file of these columns (its footer's ARROW:schema),
    taken from an empty file polars writes, so polars reads our files with the same types.
    polars calls read_parquet_metadata experimental: should a later polars drop it or the key,
    the files are written without it (DuckDB, which the analyses read with, does not use it;
    polars would read Enum columns as strings) and tests/test_parquet.py fails to say so."""
    buffer = io.BytesIO()
    pl.DataFrame(schema=dict(schema)).write_parquet(buffer)
    buffer.seek(0)
    try:
        return pl.read_parquet_metadata(buffer)["ARROW:schema"]
    except (AttributeError, KeyError):
        return None
