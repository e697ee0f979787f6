"""Game data in and out of spreadsheets: `data export GAME --to FILE.xlsx|DIR` and `--data`.

One sheet per data file (a workbook's sheet, or DIR/<file>.csv), in one wide layout:

    table | id | <one column per field> | estimate

`table` and `id` name the row: an entry of a list of cards or races (`race`, `halfling`), or a
key of a table of values (`params`, `max_spices`: its number is in the `value` column). Nested
tables become dotted columns (`advance.ale`), lists are written as TOML text (`[1, 2]`).
`estimate` holds the reason a value is estimated rather than printed in the rulebook; it is
information for the reader and is not read back. variants.toml stays a TOML file (a variant is
a list of overrides, not a table of values).

Reading a sheet back does not rebuild the data from scratch: every cell is compared with the
shipped value at the same place, and each cell that differs becomes one data override
(`races.halfling.gold = 3`), with the type of the value it replaces. So an unchanged export
reads back as no change at all (byte-identical runs), a changed cell is recorded in run.json
exactly like `--set` (so `replay` and `--resume` rebuild the same data), and the one-line
errors name the sheet, row and column of a bad cell. Adding or removing rows or columns is not
supported from a sheet: edit the TOML file for that.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from sim.core import config as cfg
from sim.core.errors import BrewError, UsageError, choices

SKIP_FILES = ("variants",)       # variant definitions stay TOML
TABLE, ID, VALUE, ESTIMATE = "table", "id", "value", "estimate"
FILE_ROW = "(file)"              # the row holding a whole file's estimate reason
ABOUT = "about"                  # the workbook's first sheet (about.csv in a folder)


@dataclass
class Row:
    """One sheet row: its (table, id) address, its value cells and its estimate reason."""

    table: str
    id: str
    cells: dict[str, object] = field(default_factory=dict)   # column -> shipped value
    keys: dict[str, str | None] = field(default_factory=dict)  # column -> override key (None: not addressable)
    estimate: str = ""


@dataclass
class Sheet:
    name: str                    # the data file's stem
    columns: list[str]           # value columns, between `id` and `estimate`
    rows: list[Row]

    @property
    def header(self) -> list[str]:
        return [TABLE, ID, *self.columns, ESTIMATE]


# ---------------------------------------------------------------- layout
def _flat(node: dict, prefix: str = "") -> dict[str, object]:
    """A table's fields, nested tables as dotted names."""
    out = {}
    for k, v in node.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flat(v, name + "."))
        else:
            out[name] = v
    return out


def _entry_rows(stem: str, table: str, entries: list[dict]) -> list[Row]:
    rows = []
    for i, entry in enumerate(entries):
        fields = _flat({k: v for k, v in entry.items() if k not in ("id", ESTIMATE)})
        ident = entry.get("id")
        # Entries are addressed by id; an entry without one cannot be overridden.
        keys = {c: (f"{stem}.{ident}.{c}" if ident is not None else None) for c in fields}
        rows.append(Row(table, str(ident) if ident is not None else f"#{i + 1}", fields, keys,
                        str(entry.get(ESTIMATE, ""))))
    return rows


def _table_rows(stem: str, table: str, node: dict, reasons: dict) -> list[Row]:
    """A table of values: one row per key, its value in the `value` column."""
    rows = []
    if isinstance(node.get(ESTIMATE), str):
        rows.append(Row(table, "", estimate=node[ESTIMATE]))
    for key, value in node.items():
        if key == ESTIMATE:
            continue
        if isinstance(value, dict):  # a table of tables: one row per sub-table, fields as columns
            fields = _flat(value)
            rows.append(Row(table, key, fields, {c: f"{stem}.{table}.{key}.{c}" for c in fields},
                            reasons.pop(key, "")))
        else:
            rows.append(Row(table, key, {VALUE: value}, {VALUE: f"{stem}.{table}.{key}"},
                            reasons.pop(key, "")))
    return rows


def file_sheet(stem: str, tree: dict) -> Sheet:
    """The sheet of one data file."""
    reasons = dict(tree.get("estimates") or {})
    rows: list[Row] = []
    if isinstance(tree.get(ESTIMATE), str):
        rows.append(Row(FILE_ROW, "", estimate=tree[ESTIMATE]))
    for key, value in tree.items():
        if key in (ESTIMATE, "estimates"):
            continue
        if isinstance(value, list) and value and all(isinstance(e, dict) for e in value):
            rows += _entry_rows(stem, key, value)
        elif isinstance(value, dict):
            rows += _table_rows(stem, key, value, reasons)
        else:
            rows.append(Row("", key, {VALUE: value}, {VALUE: f"{stem}.{key}"}))
    # Estimate reasons that name no row of their own (e.g. "infinite.study") keep a row each.
    rows += [Row("estimates", key, estimate=str(why)) for key, why in reasons.items()]
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row.cells if c not in columns]
    if VALUE in columns:  # the value column of parameter tables comes first
        columns.remove(VALUE)
        columns.insert(0, VALUE)
    return Sheet(stem, columns, rows)


def game_sheets(game: str) -> list[Sheet]:
    """Every sheet of a game's shipped data, in file order."""
    data = cfg.load_game_data(game)
    return [file_sheet(stem, tree) for stem, tree in data.tree.items() if stem not in SKIP_FILES]


# ---------------------------------------------------------------- cell text
def cell_text(value) -> str:
    """A value as CSV text (and as the text of list cells in a workbook): TOML literals, so
    that reading it back gives the same value and type."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(json.dumps(v) if isinstance(v, str) else cell_text(v) for v in value) + "]"
    return str(value)


def toml_literal(value) -> str:
    """A value as the right-hand side of `--set KEY=VALUE` (read back as the same type)."""
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string: JSON's escapes are valid TOML
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return cell_text(value)


# ---------------------------------------------------------------- export
def _about_rows(game: str) -> list[list[str]]:
    return [["brewbalance data export", game],
            ["how to use", "change values, then run e.g. brewbalance simulate "
                           f"{game} --data THIS_FILE; a changed cell is recorded as an override"],
            ["rows", "table and id name the row; do not change them, and do not add or remove "
                     "rows or columns (edit the TOML files for that)"],
            ["estimate", "why a value is an estimate, not printed in the rulebook (not read back)"],
            ["game", game]]


def _xlsx_bytes(game: str, sheets: list[Sheet]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    about = wb.active
    about.title = ABOUT
    for r in _about_rows(game):
        about.append(r)
    bold = Font(bold=True)
    for sheet in sheets:
        ws = wb.create_sheet(sheet.name)
        ws.append(sheet.header)
        for cell in ws[1]:
            cell.font = bold
        for row in sheet.rows:
            ws.append([row.table, row.id]
                      + [_xlsx_value(row.cells.get(c)) for c in sheet.columns] + [row.estimate])
        ws.freeze_panes = "C2"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _xlsx_value(value):
    """Numbers, booleans and text stay native cells; lists are TOML text."""
    return cell_text(value) if isinstance(value, list) else value


def _csv_text(rows: list[list]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(rows)
    return buf.getvalue()


def _csv_files(game: str, sheets: list[Sheet]) -> dict[str, str]:
    files = {f"{ABOUT}.csv": _csv_text(_about_rows(game))}
    for sheet in sheets:
        files[f"{sheet.name}.csv"] = _csv_text(
            [sheet.header] + [[row.table, row.id] + [cell_text(row.cells.get(c)) for c in sheet.columns]
                              + [row.estimate] for row in sheet.rows])
    return files


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise BrewError(f"cannot write {path}: {exc.strerror or exc}") from None


def export(game: str, to: Path) -> list[Path]:
    """Write the game's data as FILE.xlsx, or as one CSV per data file in folder DIR.
    Everything is rendered before anything is written, each file atomically."""
    to = Path(to)
    sheets = game_sheets(game)
    if to.suffix.lower() == ".xlsx":
        payload = {to: _xlsx_bytes(game, sheets)}
    elif to.suffix:
        raise UsageError(f"--to '{to}': give a .xlsx file or a folder (one .csv per data file)")
    else:
        payload = {to / name: text.encode("utf-8") for name, text in _csv_files(game, sheets).items()}
    folder = to.parent if to.suffix else to
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BrewError(f"cannot create {folder}: {exc.strerror or exc}") from None
    for path, data in payload.items():
        _write_atomic(path, data)
    return list(payload)


# ---------------------------------------------------------------- import
@dataclass
class Imported:
    """What a sheet changes: overrides in sheet order, and where they came from."""

    overrides: list[tuple[str, object]]
    source: dict          # {"path", "format", "sha256", "changed_values"}

    def sets(self) -> list[str]:
        """The overrides as `--set KEY=VALUE` texts (for the multi-arm commands)."""
        return [f"{k}={toml_literal(v)}" for k, v in self.overrides]


def _column_letter(index: int) -> str:
    from openpyxl.utils import get_column_letter

    return get_column_letter(index + 1)


class _Where:
    """Names a cell in errors: 'FILE: sheet races, row 9, column F (gold)'."""

    def __init__(self, source: Path, sheet: str):
        self.source, self.sheet = source, sheet

    def __call__(self, row: int | None = None, col: int | None = None, header: str | None = None) -> str:
        text = f"{self.source}: sheet '{self.sheet}'"
        if row is not None:
            text += f", row {row}"
        if col is not None:
            text += f", column {_column_letter(col)}" + (f" ({header})" if header else "")
        return text


def _read_xlsx(path: Path) -> dict[str, list[list]]:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types for a damaged or foreign file
        raise BrewError(f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from None
    try:
        return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb.worksheets}
    finally:
        wb.close()


def _read_csv_dir(path: Path) -> dict[str, list[list]]:
    out = {}
    for file in sorted(path.glob("*.csv")):
        try:
            text = file.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise BrewError(f"{file}: cannot read as UTF-8 text: {exc}") from None
        out[file.stem] = list(csv.reader(io.StringIO(text)))
    return out


def _hash(path: Path) -> str:
    if path.is_file():
        return hashlib.sha256(path.read_bytes()).hexdigest()
    h = hashlib.sha256()
    for file in sorted(path.glob("*.csv")):
        h.update(file.name.encode() + b"\0" + hashlib.sha256(file.read_bytes()).digest())
    return h.hexdigest()


def _blank(values: list) -> bool:
    return all(v is None or (isinstance(v, str) and not v.strip()) for v in values)


def _parse(raw, shipped, where: str):
    """A cell's value in the type of the shipped value, or a one-line UsageError."""
    kind = type(shipped)
    text = raw.strip() if isinstance(raw, str) else raw
    try:
        if isinstance(shipped, bool):
            if isinstance(text, bool):
                return text
            if isinstance(text, str) and text.lower() in ("true", "false"):
                return text.lower() == "true"
        elif isinstance(shipped, int):
            if isinstance(text, int) and not isinstance(text, bool):
                return text
            if isinstance(text, float) and text.is_integer():
                return int(text)
            if isinstance(text, str):
                return int(text)
        elif isinstance(shipped, float):
            if isinstance(text, int | float) and not isinstance(text, bool):
                return float(text)
            if isinstance(text, str):
                return float(text)
        elif isinstance(shipped, str):
            if text is None:
                return ""
            return raw if isinstance(raw, str) else cell_text(raw)
        elif isinstance(shipped, list) and isinstance(text, str):
            value = tomllib.loads(f"v = {text}")["v"]
            if isinstance(value, list):
                return value
    except (ValueError, tomllib.TOMLDecodeError):
        pass
    expected = {bool: "true or false", int: "a whole number", float: "a number", str: "text",
                list: "a list like [1, 2]"}.get(kind, kind.__name__)
    raise UsageError(f"{where}: expected {expected} like {cell_text(shipped)}, got {cell_text(raw) or 'an empty cell'!r}")


def _header_map(header: list, sheet: Sheet, where: _Where) -> dict[str, int]:
    names = [str(h).strip() if h is not None else "" for h in header]
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if not name:
            continue
        if name not in sheet.header:
            raise UsageError(f"{where(1, i)}: unknown column '{name}'; columns of this sheet: "
                             f"{choices(sheet.header)} (columns cannot be added from a sheet)")
        if name in seen:
            raise UsageError(f"{where(1, i)}: column '{name}' appears twice")
        seen[name] = i
    missing = [c for c in sheet.header if c not in seen and c != ESTIMATE]
    if missing:
        raise UsageError(f"{where(1)}: missing column {choices(missing)}")
    return seen


def _sheet_changes(rows: list[list], sheet: Sheet, where: _Where) -> list[tuple[str, object]]:
    """Compare one read sheet with the shipped one; the changed cells as overrides."""
    if not rows or _blank(rows[0]):
        raise UsageError(f"{where(1)}: no header row; expected {choices(sheet.header)}")
    cols = _header_map(rows[0], sheet, where)
    expected = {(r.table, r.id): r for r in sheet.rows}
    found: set[tuple[str, str]] = set()
    changes = []
    for number, values in enumerate(rows[1:], start=2):
        if _blank(values):
            continue
        values = list(values) + [None] * (len(rows[0]) - len(values))
        address = tuple("" if values[cols[c]] is None else str(values[cols[c]]).strip() for c in (TABLE, ID))
        row = expected.get(address)
        if row is None:
            ids = [r.id for r in sheet.rows if r.table == address[0]]
            valid = f"ids of table '{address[0]}': {choices(ids)}" if ids else \
                f"tables: {choices(sorted({r.table for r in sheet.rows}))}"
            raise UsageError(f"{where(number)}: no row (table '{address[0]}', id '{address[1]}') in the "
                             f"shipped data; {valid} (rows cannot be added or renamed from a sheet)")
        if address in found:
            raise UsageError(f"{where(number)}: row (table '{address[0]}', id '{address[1]}') appears twice")
        found.add(address)
        for column, shipped in row.cells.items():
            index = cols[column]
            value = _parse(values[index], shipped, where(number, index, column))
            if value == shipped and type(value) is type(shipped):
                continue
            key = row.keys[column]
            if key is None or isinstance(shipped, list):
                what = "its entries have no id" if key is None else "list values cannot be overridden"
                raise UsageError(f"{where(number, index, column)}: this cell cannot be changed from a sheet "
                                 f"({what}); edit data/games/.../{sheet.name}.toml instead")
            changes.append((key, value))
        for column in sheet.columns:
            index = cols[column]
            if column not in row.cells and not _blank([values[index]]):
                raise UsageError(f"{where(number, index, column)}: this row has no field '{column}'; "
                                 "leave the cell empty (fields cannot be added from a sheet)")
    missing = [f"{t}.{i}" if t else i for (t, i) in expected if (t, i) not in found]
    if missing:
        raise UsageError(f"{where()}: missing row {choices(missing)} (rows cannot be removed from a sheet)")
    return changes


def _check_about(rows: list[list] | None, game: str, source: Path) -> None:
    """The about sheet, when present, must name this game."""
    for r in rows or []:
        if len(r) >= 2 and r[0] == "game" and r[1] != game:
            raise UsageError(f"{source}: this sheet holds {r[1]} data, not {game}; export {game} "
                             f"with: brewbalance data export {game} --to FILE.xlsx")


def read(game: str, source: Path) -> Imported:
    """Read a workbook or CSV folder of `game` back as the overrides it makes."""
    from sim.registry import get_game

    get_game(game)  # an unknown game stops here, naming the valid ones
    source = Path(source)
    if source.is_dir():
        book, fmt = _read_csv_dir(source), "csv"
    elif source.is_file() and source.suffix.lower() == ".xlsx":
        book, fmt = _read_xlsx(source), "xlsx"
    elif source.exists():
        raise UsageError(f"--data '{source}': give a .xlsx file or a folder of .csv files "
                         f"(made by: brewbalance data export {game} --to ...)")
    else:
        raise UsageError(f"--data '{source}': no such file or folder")
    _check_about(book.pop(ABOUT, None), game, source)
    sheets = game_sheets(game)
    names = [s.name for s in sheets]
    unknown = [n for n in book if n not in names]
    if unknown:
        raise UsageError(f"{source}: unknown sheet '{unknown[0]}'; {game} has sheets {choices(names)}")
    missing = [n for n in names if n not in book]
    if missing:
        raise UsageError(f"{source}: missing sheet {choices(missing)} ({game} has sheets {choices(names)})")
    overrides = [change for s in sheets for change in _sheet_changes(book[s.name], s, _Where(source, s.name))]
    return Imported(overrides, {"path": str(source), "format": fmt, "sha256": _hash(source),
                                "changed_values": len(overrides)})


# ---------------------------------------------------------------- what changed
def _leaves(node, prefix: str = "") -> dict[str, object]:
    """Every value of a data tree under its override-style key (file.id.field)."""
    out: dict[str, object] = {}
    if isinstance(node, dict):
        for k, v in node.items():
            out.update(_leaves(v, f"{prefix}{k}."))
    elif isinstance(node, list) and node and all(isinstance(e, dict) and "id" in e for e in node):
        stem = prefix.split(".")[0]
        for e in node:
            out.update(_leaves({k: v for k, v in e.items() if k != "id"}, f"{stem}.{e['id']}."))
    else:
        out[prefix[:-1]] = node
    return out


def changes(data: cfg.GameData, sheet_keys: set[str] = frozenset()) -> list[dict]:
    """Every value of `data` that differs from the shipped data with the same variant: key
    (file.card.field; a parameter as params.NAME), shipped value, value used, and whether the
    sheet (its override keys are `sheet_keys`) or --set/--override made it."""
    shipped = cfg.load_game_data(data.game)
    cfg.apply_variant(shipped, data.variant)
    before, after = _leaves(shipped.tree), _leaves(data.tree)
    out = []
    for key, value in after.items():
        old = before.get(key)
        if value != old or type(value) is not type(old):
            out.append({"key": _display(key), "shipped": old, "value": value,
                        "source": "sheet" if key in sheet_keys else "override"})
    return out


def _display(key: str) -> str:
    """params.params.max_spices -> params.max_spices (a file whose table has its name)."""
    parts = key.split(".")
    return ".".join(parts[1:]) if len(parts) > 2 and parts[0] == parts[1] else key


def record(plan: dict, data: cfg.GameData, imported: Imported | None) -> dict:
    """Add what changed (and the sheet it came from) to a run plan, so run.json carries it."""
    plan["changes"] = changes(data, {k for k, _ in imported.overrides} if imported else set())
    if imported is not None:
        plan["data_sheet"] = imported.source
    return plan
