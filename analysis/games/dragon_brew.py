"""Dragon Brew extras: races played outside their recommended player counts, race-ability use,
Victory Point sources by race, and bribes (Corrupt Judge variant).

The only module that knows Dragon Brew's extra run-folder columns (see the `dragon_brew_*.sql`
files). A table whose columns are missing from the run is skipped.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.games.common import extra_tables

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


def _drop_unused_bribes(title: str, df: pl.DataFrame) -> pl.DataFrame | None:
    """The bribe table only where bribes happened (the Corrupt Judge variant)."""
    if title.startswith("Bribes") and (df.is_empty() or df["bribes"].sum() == 0):
        return None
    return df


def extras(con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """Dragon Brew tables, keyed by the section title a report should show."""
    return extra_tables(con, TABLES, _drop_unused_bribes)
