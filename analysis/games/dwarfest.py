"""Dwarfest extras: brawls, tavern destruction, beer service, per-seat means.

The only module that knows Dwarfest's extra run-folder columns (see the
`dwarfest_*.sql` files). Returned tables carry Wilson intervals where the value is
a proportion. A table whose columns are missing from the run (an older run, a
trimmed fixture) is skipped rather than failing the whole analysis.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.games.common import extra_tables

# title -> (sql file, columns it needs as (view, column), interval as (successes, n) or None)
TABLES = {
    "Brawl rate per player-evening": (
        "dwarfest_brawls", [("games", "brawls"), ("players", "brawls_broken")],
        ("brawls", "player_evenings")),
    "Tavern destruction per player-game": (
        "dwarfest_taverns", [("players", "taverns_destroyed")], ("players_hit", "player_games")),
    "Beer service": (
        "dwarfest_beers", [("players", c) for c in ("beers_wasted", "customers_refused")], None),
    "Means by seat": ("dwarfest_seat_means", [("players", "nuggets")], None),
}


def _wide_seat_means(long: pl.DataFrame) -> pl.DataFrame:
    """One row per (player count, seat), one column per Dwarfest column, in data order."""
    order = list(dict.fromkeys(long["metric"]))
    wide = long.pivot(on="metric", index=["n_players", "seat", "games"], values="mean")
    return wide.select("n_players", "seat", "games", *order).sort("n_players", "seat")


def extras(con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """Dwarfest tables, keyed by the section title a report should show."""
    return extra_tables(con, TABLES, lambda title, df: (
        _wide_seat_means(df) if TABLES[title][0] == "dwarfest_seat_means" else df))
