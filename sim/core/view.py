"""Named access to a game's state arrays, for tests, replay and a debugger (plain Python only).

The kernels index their arrays by integer constants (constants.py), as numba needs. Outside
the kernels the same cells read better by name, and a test written with names survives a
change of layout. A game declares in its state.py a Layout built from its constants:

    LAYOUT = Layout(
        records={"game": Part("g", {"n": C.G_N, "evening": C.G_EVENING}),
                 "piles": Part("piles", {"customer_deck": C.PILE_CDECK})},
        tables={"seat": Part("pl", {"fame": C.FAME, "inv": Group(C.PL_INV, C.INGS)},
                             parts={"stats": Part("st", {"wasted": C.ST_WASTED}), "hand": Part("hand")}),
                "city": Part("city", {"demand": C.CT_DEMAND})},
    )

and `view(S)` (StateView(S, LAYOUT)) reads and writes through to the arrays:

    v = view(S)
    v.game.evening                 # a counter of S.g, as a Python int
    v.game.evening = 2             # written through to S.g
    p = v.seat(0)                  # seat 0's row of S.pl, with its parts
    p.fame, p.stats.wasted         # a field; a part from another array (S.st[0])
    p.inv.wheat, list(p.inv)       # a Group: consecutive cells named one by one
    p.hand[card]                   # an unnamed part: the seat's row of S.hand (a NumPy view)
    p.set(fame=3, brawl=1)         # several fields at once
    v.piles.customer_deck[:k]      # a named row of a 2-D array (a NumPy view)
    v.city(c).demand               # a row of a table; v.estate(seat, card) indexes two axes
    [q.fame for q in v.seats(3)]   # one field of seats 0..2, as a list
    v.column("city", "demand")     # one field of every row of a table, a NumPy view (writable)

A field is an int (one cell, or one row of a 2-D array), a slice (several cells, a NumPy
view) or a Group (consecutive cells with their own names, read as a Record). Numbers index
a Record's cells by position (p.inv[i]), for a computed index. An unknown name raises
AttributeError listing the declared ones. Kernels never use this module: they keep their
arrays and constants.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Group(NamedTuple):
    """Consecutive cells from `start` on, named by `names` in order (e.g. an inventory)."""

    start: int
    names: tuple[str, ...]

    @property
    def cells(self) -> slice:
        return slice(self.start, self.start + len(self.names))


class Part(NamedTuple):
    """A state array by its NamedTuple field name, the names of its cells along the axis after
    the indexed ones (None: unnamed, read as a NumPy view), and for a table the parts of the
    same row held in other arrays (a seat's statistics, its hand)."""

    array: str
    fields: dict | None = None
    parts: dict[str, Part] | None = None


class Layout(NamedTuple):
    """records: arrays named as a whole (v.game); tables: arrays read one row at a time (v.seat(s))."""

    records: dict[str, Part]
    tables: dict[str, Part]


def cells_of(field) -> range:
    """The positions a field covers (for layout checks)."""
    if isinstance(field, Group):
        field = field.cells
    if isinstance(field, slice):
        return range(field.start, field.stop)
    return range(field, field + 1)


def _unknown(what: str, name: str, declared) -> AttributeError:
    return AttributeError(f"{what} has no field {name!r}; declared: {', '.join(sorted(declared))}")


def _field(fields: dict, name: str, what: str, also=()):
    """The declared field `name`, or AttributeError listing the declared names (and `also`)."""
    if name in fields:
        return fields[name]
    raise _unknown(what, name, [*fields, *also])


class Record:
    """Named cells of one array (a row of a table, or a whole record array); writes go through."""

    __slots__ = ("_cells", "_fields", "_parts", "_what")

    def __init__(self, cells: np.ndarray, fields: dict, what: str, parts: dict | None = None):
        object.__setattr__(self, "_cells", cells)
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "_parts", parts or {})
        object.__setattr__(self, "_what", what)

    def __getattr__(self, name: str):
        if name.startswith("__"):  # copy/pickle probes: not fields
            raise AttributeError(name)
        if name in self._parts:
            return self._parts[name]
        field = _field(self._fields, name, self._what, self._parts)
        if isinstance(field, Group):
            return Record(self._cells[field.cells], {n: k for k, n in enumerate(field.names)}, f"{self._what}.{name}")
        value = self._cells[field]
        return value.item() if np.ndim(value) == 0 else value

    def __setattr__(self, name: str, value) -> None:
        if name in self._parts:
            part = self._parts[name]
            (part._cells if isinstance(part, Record) else part)[...] = value
            return
        field = _field(self._fields, name, self._what, self._parts)
        self._cells[field.cells if isinstance(field, Group) else field] = value

    def set(self, **values) -> None:
        for name, value in values.items():
            setattr(self, name, value)

    def __getitem__(self, position):
        return self._cells[position]

    def __setitem__(self, position, value) -> None:
        self._cells[position] = value

    def __iter__(self):
        return (x.item() if np.ndim(x) == 0 else x for x in self._cells)

    def __len__(self) -> int:
        return len(self._cells)

    def __repr__(self) -> str:
        return f"{self._what}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._fields)})"


class StateView:
    """A game's state NamedTuple seen through its Layout (see the module header)."""

    __slots__ = ("_state", "_layout")

    def __init__(self, state, layout: Layout):
        self._state = state
        self._layout = layout

    def __getattr__(self, name: str):
        layout = self._layout
        if name in layout.records:
            part = layout.records[name]
            return Record(getattr(self._state, part.array), part.fields, name)
        if name in layout.tables:
            return lambda *index: self.row(name, *index)
        raise _unknown("the state view", name, [*layout.records, *layout.tables])

    def row(self, table: str, *index: int) -> Record | np.ndarray:
        """Row `index` of a table with its parts (the same index into their arrays)."""
        part = self._layout.tables[table]
        parts = {name: self._cells(p, index, f"{table}.{name}") for name, p in (part.parts or {}).items()}
        return Record(getattr(self._state, part.array)[index], part.fields, table, parts)

    def _cells(self, part: Part, index: tuple, what: str) -> Record | np.ndarray:
        cells = getattr(self._state, part.array)[index]
        return cells if part.fields is None else Record(cells, part.fields, what)

    def column(self, table: str, name: str, n: int | None = None) -> np.ndarray:
        """Field `name` of rows 0..n-1 (all rows when n is None) of a table, as a NumPy view."""
        part = self._layout.tables[table]
        field = _field(part.fields, name, table)
        return getattr(self._state, part.array)[:n, field.cells if isinstance(field, Group) else field]

    def seats(self, n: int) -> list[Record]:
        """Seats 0..n-1."""
        return [self.row("seat", s) for s in range(n)]
