"""Brewin' USA extras: Brewfest frequency and outcomes, sources of Victory Points.

The only module that knows Brewin' USA's extra run-folder columns (see the
`brewin_usa_*.sql` files). A table whose columns are missing from the run (an older run,
a trimmed fixture) is skipped rather than failing the whole analysis.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.runfolder import columns, query
from analysis.stats import wilson

# title -> (sql file, columns it needs as (view, column), interval as (successes, n) or None)
TABLES = {
    "Brewfests and challenger wins": (
        "brewin_usa_brewfests", [("games", "brewfests"), ("events", "target")],
        ("challenger_wins", "brewfests")),
    "Victory Point sources, winners and others": (
        "brewin_usa_vp_sources",
        [("players", c) for c in ("vp_cities", "vp_regions", "vp_beers", "vp_bank", "cities_controlled",
                                  "beers_launched")],
        None),
}


def _with_interval(df: pl.DataFrame, successes: str, n: str) -> pl.DataFrame:
    lo, hi = wilson(df[successes].to_numpy(), df[n].to_numpy())
    return df.with_columns(lo=pl.Series(lo), hi=pl.Series(hi))


def extras(con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """Brewin' USA tables, keyed by the section title a report should show."""
    present = {view: set(columns(con, view)) for view in ("games", "players", "events")}
    out = {}
    for title, (sql, needs, interval) in TABLES.items():
        if not all(col in present[view] for view, col in needs):
            continue
        df = query(con, sql)
        out[title] = _with_interval(df, *interval) if interval else df
    return out
