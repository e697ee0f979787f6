"""What every game's extras module does the same way: run its extra queries on the views
that have the columns they need, and add Wilson intervals where a table is a proportion."""

from __future__ import annotations

from collections.abc import Callable

import duckdb
import polars as pl

from analysis.runfolder import columns, query
from analysis.stats import with_interval

# title -> (sql file, columns it needs as (view, column), interval as (successes, n) or None)
Tables = dict[str, tuple[str, list[tuple[str, str]], tuple[str, str] | None]]


def extra_tables(con: duckdb.DuckDBPyConnection, tables: Tables,
                 reshape: Callable[[str, pl.DataFrame], pl.DataFrame | None] | None = None,
                 ) -> dict[str, pl.DataFrame]:
    """{title: table} for every entry whose columns exist in this run (an older run or a trimmed
    fixture skips a table rather than failing). `reshape(title, df)` may rework a table before
    its interval is added, or drop it by returning None."""
    present = {view: set(columns(con, view)) for view in ("games", "players", "events")}
    out = {}
    for title, (sql, needs, interval) in tables.items():
        if not all(col in present[view] for view, col in needs):
            continue
        df = query(con, sql)
        if reshape is not None:
            df = reshape(title, df)
        if df is None:
            continue
        out[title] = with_interval(df, *interval) if interval else df
    return out
