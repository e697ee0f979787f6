"""Declared output tables: what each column of a game's games, players and events tables is
called, which type it has and what it means (DESIGN.md §6), in one place per game.

A game declares its tables once (sim/GAME/schema.py) as `Table`s of `Column`s. From that one
declaration come both sides of the kernel/wrapper boundary:

* the kernel's column indices, by name: `table.at` is a NamedTuple of ints (`PLAYERS.at.fame`)
  that numba reads as constants, so a kernel writes `row[P.fame] = ...`, never `row[6]`;
* the table's columns (and a polars DataFrame on demand), built from the kernel's integer
  rows by name, so the two can never disagree about which column is which.

Column kinds: an integer column of the kernel's rows (the default), an Enum column (integer
codes in the kernel's rows, labels given when the columns are built), a float column given
beside the rows (the win share), a constant Enum column (code 0, e.g. faction "none" in a
game without factions) and a copy of another column under a second name.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np
import polars as pl

from .frames import Columns, check_codes, code_type, split_columns

ENUM = "enum"


@dataclass(frozen=True)
class Column:
    name: str
    dtype: object  # a polars integer or float type, or ENUM
    meaning: str
    given: bool = False  # not in the kernel's rows: handed to columns_of() by name (e.g. "win")
    const: bool = False  # an Enum column whose every row is its first label
    copy_of: str = ""  # the same values as that kernel column, under this name

    @property
    def in_rows(self) -> bool:
        return not (self.given or self.const or self.copy_of)


class Table:
    """One output table: its columns in file order, and the kernel's row layout."""

    def __init__(self, name: str, columns: list[Column]):
        self.name = name
        self.columns = tuple(columns)
        names = [c.name for c in self.columns]
        if len(set(names)) != len(names):
            raise ValueError(f"table {name}: duplicate column names")
        self.row_names = tuple(c.name for c in self.columns if c.in_rows)
        self.width = len(self.row_names)
        self.at = namedtuple(f"{name.title()}Columns", self.row_names)(*range(self.width))
        self._row_of = {n: i for i, n in enumerate(self.row_names)}  # columns_of(): column -> row index
        self._last_schema = None  # (Enum labels, schema) of the last _schema call

    def columns_of(self, rows: np.ndarray, labels: dict[str, list[str]] | None = None,
                   given: dict[str, np.ndarray] | None = None) -> Columns:
        """Integer rows [k, width] (+ the `given` columns, + Enum `labels` by column name) ->
        the table's Columns, each column a new array of its declared type (the kernel's next
        call overwrites its buffers): Enum columns as their codes, checked against the labels."""
        labels, rows = labels or {}, np.asarray(rows)
        from_rows = self._checked_columns(rows, labels)
        columns, block = split_columns(rows, [(self._row_index(c), self._numpy_type(c, labels)) for c in from_rows])
        return self._table(len(rows), labels, dict(zip([c.name for c in from_rows], columns, strict=True)),
                           given or {}, block)

    def column_views(self, rows: np.ndarray, labels: dict[str, list[str]], block: np.ndarray) -> Columns:
        """A kernel call's rows of a column-major buffer (rows.column_buffer, int32) -> the
        table's Columns as views of the buffer's columns, not copies: the Parquet writer reads
        int32 values of a narrower declared type as they are. `block` is the pool's memory the
        buffer lies in (frames.pooled_like); it goes back to the pool once the shard is
        written. Enum columns are checked against their labels, as in columns_of."""
        if any(c.given for c in self.columns):
            raise ValueError(f"table {self.name}: a given column is not in the kernel's rows")
        rows = np.asarray(rows)
        from_rows = self._checked_columns(rows, labels)
        return self._table(len(rows), labels, {c.name: rows[:, self._row_index(c)] for c in from_rows}, {}, block)

    def _checked_columns(self, rows: np.ndarray, labels: dict[str, list[str]]) -> list[Column]:
        """The columns read from the kernel's rows, their Enum codes checked against the labels."""
        from_rows = [c for c in self.columns if not (c.given or c.const)]
        for c in from_rows:
            if c.dtype == ENUM:
                check_codes(labels[c.name], rows[:, self._row_index(c)], c.name)
        return from_rows

    def _table(self, n_rows: int, labels, values: dict[str, np.ndarray], given: dict[str, np.ndarray],
               block: np.ndarray) -> Columns:
        """The table's Columns: `values` of the columns read from the rows, the given ones, and
        the constant ones (code 0), laid out in `block`."""
        schema = self._schema(labels)
        parts = {}
        for c in self.columns:
            if c.given:
                parts[c.name] = [np.asarray(given[c.name], _NUMPY[c.dtype])]
            elif c.const:
                parts[c.name] = [np.zeros(n_rows, np.uint8)]
            else:
                parts[c.name] = [values[c.name]]
        return Columns(schema, parts, (block,))

    def _schema(self, labels: dict[str, list[str]]) -> dict[str, pl.DataType]:
        """Column name -> polars type, the Enums of these labels. Kept for the labels last
        asked for: a polars Enum takes about 0.1 ms to make, and a run makes a table per kernel
        call with the same labels (0.1 µs a Dwarfest game)."""
        key = tuple(tuple(labels[c.name]) for c in self.columns if c.dtype == ENUM)
        if self._last_schema is None or self._last_schema[0] != key:
            self._last_schema = (key, {c.name: pl.Enum(labels[c.name]) if c.dtype == ENUM else c.dtype
                                       for c in self.columns})
        return dict(self._last_schema[1])

    @staticmethod
    def _numpy_type(c: Column, labels: dict[str, list[str]]) -> type:
        return code_type(len(labels[c.name])) if c.dtype == ENUM else _NUMPY[c.dtype]

    def _row_index(self, c: Column) -> int:
        """Where column c's values lie in the kernel's rows."""
        return self._row_of[c.copy_of or c.name]

    def describe(self) -> list[dict]:
        """Name, type and meaning of every column (for docs and the run manifest)."""
        return [{"name": c.name, "type": "Enum" if c.dtype == ENUM else str(c.dtype), "meaning": c.meaning}
                for c in self.columns]


def games_table(extra: list[Column]) -> Table:
    """The games table: the columns every game has (DESIGN.md §6), then the game's own."""
    return Table("games", [
        Column("game_id", pl.Int64, "game number within the run (the seed and this fix the game)"),
        Column("n_players", pl.Int8, "players at the table"),
        Column("rounds", pl.Int16, "rounds played, in the game's own unit (docs/games/GAME.md)"),
        Column("decisions", pl.Int32, "choices the bots made"),
        Column("end_reason", ENUM, "why the game ended"),
        Column("n_winners", pl.Int8, "players sharing the win"),
        *extra,
    ])


def players_table(extra: list[Column], faction_in_rows: bool = True) -> Table:
    """The players table: the columns every game has, then the game's own. A game without
    factions gives `faction_in_rows=False` and the label list ["none"]."""
    return Table("players", [
        Column("game_id", pl.Int64, "game number"),
        Column("seat", pl.Int8, "seat, 0 = first player"),
        Column("faction", ENUM, "race or character (\"none\" in a game without factions)",
               const=not faction_in_rows),
        Column("policy", ENUM, "the bot in this seat"),
        Column("score", pl.Int32, "final score in the game's unit"),
        Column("rank", pl.Int8, "1 = best; tied players share the rank"),
        Column("win", pl.Float64, "win share: 1/k for a k-way shared win, else 0", given=True),
        *extra,
    ])


EVENT_COLUMNS = ("game_id", "seat", "round", "card", "kind", "amount", "target")  # rows.put7 order


def events_table(target: str | None = "the seat acted on, or -1", round_: str = "round, 1-based") -> Table:
    """The events table, one row per logged card event, in the order rows.put7 writes it.
    `target` is the meaning of the last column in this game, None for a game without one;
    `round_` the meaning of its round column."""
    return Table("events", [
        Column("game_id", pl.Int64, "game number"),
        Column("seat", pl.Int8, "the acting seat"),
        Column("round", pl.Int8, round_),
        Column("card", ENUM, "card (or other logged thing) id"),
        Column("kind", ENUM, "what happened to it"),
        Column("amount", pl.Int32, "a number that goes with the event (cost, VP, ...)"),
        *([Column("target", pl.Int8, target)] if target else []),
    ])


_NUMPY = {pl.Int8: np.int8, pl.Int16: np.int16, pl.Int32: np.int32, pl.Int64: np.int64, pl.Float64: np.float64}
