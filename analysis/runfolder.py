"""Open a run folder: its manifest and DuckDB views over its Parquet parts.

This module is the only place that knows file names inside a run folder. Everything
else in `analysis` talks to three views (`games`, `players`, `events`) and runs the
SQL files in `analysis/sql/`.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import duckdb
import numpy as np
import polars as pl


class RunFolderError(Exception):
    """The folder is not a readable run folder (missing manifest or Parquet parts)."""

    user_error = True  # the CLI prints it as one line, exit 1


# Tables every run folder has. `events` may legitimately hold no parts (a game that
# logs nothing worth valuing), so it falls back to an empty view with this schema.
_EVENTS_SCHEMA = (
    "SELECT NULL::BIGINT AS game_id, NULL::TINYINT AS seat, NULL::TINYINT AS round, "
    "NULL::VARCHAR AS card, NULL::VARCHAR AS kind, NULL::INTEGER AS amount WHERE false"
)

_GAME_COMMON = ("game_id", "n_players", "rounds", "decisions", "end_reason", "n_winners")
_PLAYER_COMMON = ("game_id", "seat", "faction", "policy", "score", "rank", "win")


def load_manifest(run_dir: Path) -> dict:
    """Read run.json. The manifest is written last, so its absence means an unfinished run."""
    path = run_dir / "run.json"
    if not path.is_file():
        raise RunFolderError(f"{run_dir}: no run.json (not a run folder, or the run did not finish)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RunFolderError(f"{path}: cannot read manifest: {exc}") from exc
    if not isinstance(manifest, dict):
        raise RunFolderError(f"{path}: manifest must be a JSON object")
    return manifest


def _parts(run_dir: Path, table: str) -> list[str]:
    """Completed parts only: temp files and shard scratch folders are never data."""
    return sorted(str(p) for p in (run_dir / table).glob("part-*.parquet") if p.is_file())


def connect(run_dir: str | Path) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with views `games`, `players`, `events` on the run,
    and `rounds` when the run has that table (runs made before it existed do not).

    The file list is handed to DuckDB's `read_parquet` through the Python API, never
    pasted into SQL text, so odd characters in a folder name cannot change a query.
    """
    run_dir = Path(run_dir)
    con = duckdb.connect(":memory:")
    con.execute("SET enable_progress_bar = false")  # DuckDB's own bar would mix into our output
    # One thread: parallel aggregation adds floating-point win shares (1/3, 1/6 for ties) in an
    # order that changes from run to run, so the last digits of the JSON would too (DESIGN §4,
    # same input -> same output). Measured cost: about 10% of a 100,000-game report.
    con.execute("SET threads = 1")
    for table in ("games", "players", "events"):
        files = _parts(run_dir, table)
        if files:
            con.read_parquet(files, union_by_name=True).to_view(table)
        elif table == "events":
            con.sql(_EVENTS_SCHEMA).to_view(table)
        else:
            con.close()
            raise RunFolderError(f"{run_dir}: no {table}/part-*.parquet files")
    rounds = _parts(run_dir, "rounds")  # absent in runs made before the table existed
    if rounds:
        con.read_parquet(rounds, union_by_name=True).to_view("rounds")
    return con


def has_view(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Whether the connection has a view `name` (e.g. `rounds`, which older runs lack)."""
    return bool(con.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = ?", [name]).fetchall()[0][0])


def columns(con: duckdb.DuckDBPyConnection, view: str) -> dict[str, str]:
    """Column name -> DuckDB type name of one of the three views."""
    if view not in ("games", "players", "events"):
        raise ValueError(f"unknown view {view!r}")
    return {row[0]: row[1] for row in con.execute(f"DESCRIBE {view}").fetchall()}


def extra_columns(con: duckdb.DuckDBPyConnection, view: str) -> list[str]:
    """Game-specific columns of `games` or `players` (everything beyond the common schema)."""
    common = _GAME_COMMON if view == "games" else _PLAYER_COMMON
    return [name for name in columns(con, view) if name not in common]


def sql_text(name: str) -> str:
    """The text of `analysis/sql/<name>.sql`."""
    return resources.files("analysis").joinpath("sql", f"{name}.sql").read_text(encoding="utf-8")


def query(con: duckdb.DuckDBPyConnection, name: str, **params) -> pl.DataFrame:
    """Run one SQL file with named parameters ($name in the SQL) and return polars.

    A query that reads `card_holdings` gets that table made first for its $kinds and
    $max_game (card_holdings.sql), unless the connection already holds it for them: the card
    tables of one analysis share one grouping of the event rows. It is then handed only the
    parameters its own statement names."""
    text = sql_text(name)
    if "FROM card_holdings" in text:
        card_holdings(con, params["kinds"], params["max_game"])
        named = duckdb.extract_statements(text)[0].named_parameters
        params = {k: v for k, v in params.items() if k in named}
    return to_polars(con.execute(text, params or None))


def card_holdings(con: duckdb.DuckDBPyConnection, kinds: list[str], max_game: int) -> None:
    """Make the temporary table card_holdings for these kinds and games, unless it is made for
    them already (the connection's variable card_holdings_key keeps what it was made for)."""
    key = {"kinds": list(kinds), "max_game": int(max_game)}
    if con.execute("SELECT getvariable('card_holdings_key')").fetchone()[0] == key:
        return
    con.execute(sql_text("card_holdings"), key)
    con.execute("SET VARIABLE card_holdings_key = $key", {"key": key})


def query_coded(con: duckdb.DuckDBPyConnection, name: str, names: dict[str, list[str]], **params) -> pl.DataFrame:
    """`query` for a SQL file that returns a string column X as X_code, its 0-based position
    in the list parameter $X_names (`names[X]`, sorted): millions of rows of integers fetch
    and sort several times faster than the same strings. Each X_code comes back as X."""
    # DuckDB cannot type an empty list parameter; with no names no row can match anyway
    coded = query(con, name, **params, **{f"{col}_names": values or [""] for col, values in names.items()})

    def decoded(column: str):
        col = column.removesuffix("_code")
        if col == column or col not in names:
            return column
        return pl.Series(col, names[col], dtype=pl.String).gather(coded[column])

    return coded.select(decoded(c) for c in coded.columns)


# DuckDB type name -> polars dtype. Results are small aggregates, so widening every
# integer to Int64 costs nothing and saves callers from int8 overflow surprises.
_INTS = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
         "UINTEGER", "UBIGINT"}


def _dtype(type_name: str) -> pl.DataType | None:
    if type_name in _INTS:
        return pl.Int64
    if type_name in ("DOUBLE", "FLOAT") or type_name.startswith("DECIMAL"):
        return pl.Float64
    if type_name == "VARCHAR":
        return pl.String
    if type_name == "BOOLEAN":
        return pl.Boolean
    return None


def to_polars(result: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Convert an executed result to polars without pyarrow (not a dependency here)."""
    described = [(d[0], str(d[1])) for d in result.description]
    arrays = result.fetchnumpy()
    series = []
    for name, type_name in described:
        values = arrays[name]
        if isinstance(values, np.ma.MaskedArray) or values.dtype == object:
            values = values.tolist()  # masked entries become None, i.e. polars nulls
        series.append(pl.Series(name, values, dtype=_dtype(type_name), strict=False))
    return pl.DataFrame(series)


def read_marker(folder, name: str, option: str, is_marker) -> dict:
    """OUT/<name>, the JSON marker a multi-arm command leaves for `report --<option> OUT`
    (sensitivity.json, ladder.json); BrewError if it is missing, unreadable or `is_marker(doc)`
    says it is not that command's."""
    from sim.core.errors import BrewError

    path = Path(folder) / name
    try:
        doc = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise BrewError(f"--{option} {folder}: no readable {name} there ({exc})") from None
    if not isinstance(doc, dict) or not is_marker(doc):
        raise BrewError(f"--{option} {folder}: {path} is not the marker of a {option} run")
    return doc
