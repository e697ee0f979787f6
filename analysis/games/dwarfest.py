"""Dwarfest extras: brawls, tavern destruction, beer service, per-seat means.

The only module that knows Dwarfest's extra run-folder columns (see the
`dwarfest_*.sql` files). Returned tables carry Wilson intervals where the value is
a proportion.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.runfolder import query
from analysis.stats import wilson


def _with_interval(df: pl.DataFrame, successes: str, n: str) -> pl.DataFrame:
    lo, hi = wilson(df[successes].to_numpy(), df[n].to_numpy())
    return df.with_columns(lo=pl.Series(lo), hi=pl.Series(hi))


def extras(con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """Dwarfest tables, keyed by the section title a report should show."""
    brawls = _with_interval(query(con, "dwarfest_brawls"), "brawls", "player_evenings")
    taverns = _with_interval(query(con, "dwarfest_taverns"), "players_hit", "player_games")
    return {
        "Brawl rate per player-evening": brawls,
        "Tavern destruction per player-game": taverns,
        "Beer service": query(con, "dwarfest_beers"),
        "Means by seat": query(con, "dwarfest_seat_means"),
    }
