"""Homebrewers extras: reputation sources by character, flavor card use.

The only module that knows Homebrewers' extra run-folder columns (see the `homebrewers_*.sql`
files). A table whose columns are missing from the run is skipped rather than failing.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.games.common import extra_tables

TABLES = {
    "Reputation sources by character": (
        "homebrewers_rep_sources",
        [("players", c) for c in ("faction", "summerfest_rep", "medal_rep", "judge_rep", "gold", "powers_used")],
        None),
    "Flavor cards: drawn and played": (
        "homebrewers_flavors", [("events", "card"), ("events", "kind")], ("played_top", "played_total")),
}


def _with_played_total(title: str, df: pl.DataFrame) -> pl.DataFrame:
    """Flavor cards: played on top out of all plays (the interval's denominator)."""
    if title.startswith("Flavor cards"):
        return df.with_columns(played_total=pl.col("played_top") + pl.col("played_bottom"))
    return df


def extras(con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """Homebrewers tables, keyed by the section title a report should show."""
    return extra_tables(con, TABLES, _with_played_total)
