"""A shard's tables as the kernels hand them over: numpy columns in their declared types.

The Parquet writer (sim/core/parquet.py) reads these columns as they are; a polars DataFrame
is built only when something asks for one (`Columns.frame`: tests, the bench signature). On
the way to the files a table is never a DataFrame: building Dwarfest's per kernel call (its
Enum columns gathered into polars, ~80 event rows a game) cost 1.6 of its ~31 µs a game
(bench/profile.py, 2026-12-07), about as much as writing them. Memory comes from a pool
(`BlockPool`), which gets it back once the shard is written (`Columns.release`, called by
runfolder.write_shard): a kernel call writes its event and rounds rows straight into buffers
from the pool (`pooled_like`), and its event and rounds tables are views of their columns,
int32 whatever the declared type (the writer reads them as they are); the games and players
rows are copied into typed columns of one pool block per shard (`split_columns`).
"""

from __future__ import annotations

import threading

import numpy as np
import polars as pl


class Columns:
    """One table: `schema` (column name -> polars type, Enum labels included, in file order)
    and per column its values as numpy parts, one per kernel call, all of one length per part
    index. An Enum column holds its codes (the indices of its labels) as unsigned integers."""

    def __init__(self, schema: dict[str, pl.DataType], parts: dict[str, list[np.ndarray]],
                 blocks: tuple[np.ndarray, ...] = ()):
        self.schema = schema
        self._parts = parts
        self.blocks = blocks  # the pool's blocks (BlockPool) the parts lie in
        self.height = sum(len(p) for p in next(iter(parts.values()), []))

    @property
    def parts(self) -> dict[str, list[np.ndarray]]:
        if self._parts is None:
            raise RuntimeError("this table's memory was given back after it was written")
        return self._parts

    def release(self) -> None:
        """Give the table's blocks back to the pool (once the table is written): its columns
        are then unreadable, and any table sharing its blocks must not be read either."""
        POOL.give(self.blocks)
        self._parts, self.blocks = None, ()

    @property
    def columns(self) -> list[str]:
        return list(self.schema)

    @staticmethod
    def concat(tables: list[Columns]) -> Columns:
        """The rows of `tables` in turn (their parts listed, not copied)."""
        schema = tables[0].schema
        return Columns(schema, {name: [p for t in tables for p in t.parts[name]] for name in schema},
                       tuple(b for t in tables for b in t.blocks))

    @staticmethod
    def of_frame(frame: pl.DataFrame) -> Columns:
        """A DataFrame's columns (Enum columns by their physical codes), as views where polars
        can give them."""
        return Columns(dict(frame.schema), {name: [chunk.to_numpy() for chunk in frame[name].to_physical().get_chunks()]
                                            for name in frame.columns})

    def frame(self) -> pl.DataFrame:
        """The table as a polars DataFrame of the declared types."""
        out = {}
        for name, dtype in self.schema.items():
            values = np.concatenate(self.parts[name]) if self.parts[name] else np.zeros(0, np.int64)
            out[name] = enum_column(dtype.categories.to_list(), values) if isinstance(dtype, pl.Enum) \
                else pl.Series(name, values, dtype=dtype)
        return pl.DataFrame(out)


def split_columns(rows: np.ndarray, picks: list[tuple[int, type]]) -> tuple[list[np.ndarray], np.ndarray]:
    """The columns of integer rows [k, width], each a new array of its type (cast as numpy's
    `astype` casts): `picks` lists (row index, numpy dtype) per column wanted. Returns them
    and the pool's block they are laid out in (`column_block`). The kernels' games and players
    rows are column-major (rows.output_rows), so each column is one contiguous cast; rows of
    any other layout give the same columns, more slowly."""
    rows = np.asarray(rows)
    out, memory = column_block(len(rows), [dtype for _, dtype in picks])
    for column, (at, _) in zip(out, picks, strict=True):
        np.copyto(column, rows[:, at], casting="unsafe")
    return out, memory


def column_block(n: int, types: list[type]) -> tuple[list[np.ndarray], np.ndarray]:
    """Empty columns of n values, one per type, laid out one after the other (each 64-byte
    aligned) in one block from the pool; returns them and the block."""
    sizes = [-(-n * np.dtype(t).itemsize // 64) * 64 for t in types]
    block = POOL.take(sum(sizes))
    starts = np.cumsum([0, *sizes[:-1]])
    return [block[at:at + n * np.dtype(t).itemsize].view(t) for at, t in zip(starts, types, strict=True)], block


def pooled_like(buffer: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An array of `buffer`'s shape, type and column-major layout in a block from the pool,
    and the block. Its values are whatever the block held: a kernel reads only the rows it
    has written."""
    return _pooled_column_major(*buffer.shape, buffer.dtype)


def pooled_rows(rows: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """rows.output_rows in a block from the pool, zeroed, and the block: the games or players
    rows of one simulate call. They are fresh memory otherwise, and a kernel writing a shard's
    players rows (Dwarfest: 17 MiB) faulted in huge pages of zeros, 2.7% of a run's CPU
    (`perf`, steady state). Zeroing memory used before costs 0.1 µs a Dwarfest game."""
    full, block = _pooled_column_major(rows + 1, width, np.int64)
    full[:] = 0
    return full[:rows], block


def _pooled_column_major(rows: int, cols: int, dtype) -> tuple[np.ndarray, np.ndarray]:
    """A column-major array [rows, cols] of dtype laid over a block from the pool, and the
    block."""
    nbytes = rows * cols * np.dtype(dtype).itemsize
    block = POOL.take(nbytes)
    return block[:nbytes].view(dtype).reshape((cols, rows)).T, block


MIB = 1 << 20


class BlockPool:
    """Memory for the tables' columns, used again once a shard is written.

    Fresh memory costs a page fault for each 4 KiB page first touched, about 2.5 µs on the
    development machine (0.6 ns a byte, ten times the cost of the copy that fills it), and a
    kernel call's columns are fresh: a shard keeps them until it is written. A block of 4 MiB
    or more gets huge pages (numpy asks Linux for them), so one block for all of a call's
    columns faults less than a column at a time (Dwarfest's event columns of one call: 1,677
    -> 492 faults, 3.6 -> 2.2 ms); a block used again does not fault at all (in-run, one thread,
    Dwarfest, three runs each: the events' and rounds' columns 0.64-0.98 -> 0.49-0.61 µs a game,
    the games' and players' 0.36-0.55 -> 0.25-0.30). Blocks are whole MiBs; at most KEEP bytes
    are kept free."""

    KEEP = 512 * MIB

    def __init__(self):
        self._free: list[np.ndarray] = []
        self._lock = threading.Lock()

    def take(self, nbytes: int) -> np.ndarray:
        """The smallest free block of at least nbytes (so a kernel call's event columns do not
        take the block a players table needs next), else a new block. A larger block than
        needed is still used memory: the last shards of a run are played in pieces, whose
        calls are smaller than a whole shard's."""
        with self._lock:
            fits = [i for i, block in enumerate(self._free) if nbytes <= len(block)]
            if fits:
                return self._free.pop(min(fits, key=lambda i: len(self._free[i])))
        return np.empty(max(-(-nbytes // MIB), 1) * MIB, np.uint8)

    def give(self, blocks) -> None:
        with self._lock:
            held = {id(b) for b in self._free}
            for block in blocks:
                if id(block) not in held:  # a block listed twice (tables concatenated twice) is free once
                    self._free.append(block)
                    held.add(id(block))
            while sum(len(b) for b in self._free) > self.KEEP:
                self._free.pop(0)


POOL = BlockPool()


def code_type(n_labels: int) -> type:
    """The narrowest unsigned type holding the codes of n_labels labels."""
    return np.uint8 if n_labels <= 1 << 8 else np.uint16 if n_labels <= 1 << 16 else np.uint32


def check_codes(names, codes: np.ndarray, column: str) -> None:
    """Raise ValueError unless every code indexes one of `names` (a kernel bug otherwise: the
    column would name the wrong label, or none)."""
    if len(codes) and (codes.min() < 0 or codes.max() >= len(names)):
        bad = codes[(codes < 0) | (codes >= len(names))][0]
        raise ValueError(f"column {column}: code {bad} is not one of its {len(names)} labels")


def enum_column(names, codes: np.ndarray) -> pl.Series:
    """A dictionary-encoded string column (polars Enum) gathered from integer codes, so no
    per-row string is ever built. The codes are read as uint64 (int64 codes through a view, no
    copy), so a negative code (which polars would read from the end of the names as an int64
    index) becomes a huge one, and that, like any code past the last name, raises polars'
    OutOfBoundsError. A uint64 Series gathers about three times as fast as an int64 numpy
    array (polars 2.1, 665,000 codes: 0.9 ms against 2.7)."""
    levels = list(names)
    codes = np.asarray(codes)
    codes = codes.view(np.uint64) if codes.dtype == np.int64 else codes.astype(np.uint64, copy=False)
    return pl.Series(levels, dtype=pl.Enum(levels)).gather(pl.Series(codes))
