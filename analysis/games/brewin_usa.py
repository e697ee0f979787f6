"""Brewin' USA extras: Brewfest frequency and outcomes, sources of Victory Points.

The only module that knows Brewin' USA's extra run-folder columns (see the
`brewin_usa_*.sql` files). A table whose columns are missing from the run (an older run,
a trimmed fixture) is skipped rather than failing the whole analysis.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.games.common import extra_tables

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


def extras(con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """Brewin' USA tables, keyed by the section title a report should show."""
    return extra_tables(con, TABLES)
