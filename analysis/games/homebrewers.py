"""Homebrewers extras: reputation sources by character, flavor card use.

The only module that knows Homebrewers' extra run-folder columns (see the `homebrewers_*.sql`
files). A table whose columns are missing from the run is skipped rather than failing.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.runfolder import columns, query
from analysis.stats import wilson

TABLES = {
    "Reputation sources by character": (
        "homebrewers_rep_sources",
        [("players", c) for c in ("faction", "summerfest_rep", "medal_rep", "judge_rep", "gold", "powers_used")],
        None),
    "Flavor cards: drawn and played": (
        "homebrewers_flavors", [("events", "card"), ("events", "kind")], ("played_top", "played_total")),
}


def extras(con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    present = {view: set(columns(con, view)) for view in ("games", "players", "events")}
    out = {}
    for title, (sql, needs, interval) in TABLES.items():
        if not all(col in present[view] for view, col in needs):
            continue
        df = query(con, sql)
        if interval:
            df = df.with_columns(played_total=pl.col("played_top") + pl.col("played_bottom"))
            lo, hi = wilson(df["played_top"].to_numpy(), df["played_total"].to_numpy())
            df = df.with_columns(lo=pl.Series(lo), hi=pl.Series(hi))
        out[title] = df
    return out
