"""Dragon Brew extras: races played outside their recommended player counts, race-ability use,
Victory Point sources by race, and bribes (Corrupt Judge variant).

The only module that knows Dragon Brew's extra run-folder columns (see the `dragon_brew_*.sql`
files). A table whose columns are missing from the run is skipped.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.runfolder import columns, query
from analysis.stats import wilson

# title -> (sql file, columns it needs as (view, column), interval as (successes, n) or None)
TABLES = {
    "Races outside their recommended player counts (flagged)": (
        "dragon_brew_outside", [("players", "outside_recommended")], ("wins", "games")),
    "Race ability use": (
        "dragon_brew_abilities", [("events", "kind")], ("games_used", "games")),
    "Victory Point sources by race": (
        "dragon_brew_vp_sources",
        [("players", c) for c in ("vp_judges", "vp_profit", "vp_quests", "beers_brewed", "judges_won")], None),
    "Bribes (Corrupt Judge variant)": ("dragon_brew_bribes", [("events", "kind")], None),
}


def _with_interval(df: pl.DataFrame, successes: str, n: str) -> pl.DataFrame:
    if df.is_empty():
        return df
    lo, hi = wilson(df[successes].to_numpy(), df[n].to_numpy())
    return df.with_columns(lo=pl.Series(lo), hi=pl.Series(hi))


def extras(con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """Dragon Brew tables, keyed by the section title a report should show."""
    present = {view: set(columns(con, view)) for view in ("games", "players", "events")}
    out = {}
    for title, (sql, needs, interval) in TABLES.items():
        if not all(col in present[view] for view, col in needs):
            continue
        df = query(con, sql)
        if title.startswith("Bribes") and (df.is_empty() or df["bribes"].sum() == 0):
            continue
        out[title] = _with_interval(df, *interval) if interval else df
    return out
