"""Dwarfest extras: brawls, tavern destruction, beer service, per-seat means.

The only module that knows Dwarfest's extra run-folder columns (see the
`dwarfest_*.sql` files). Returned tables carry Wilson intervals where the value is
a proportion. A table whose columns are missing from the run (an older run, a
trimmed fixture) is skipped rather than failing the whole analysis.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis.runfolder import columns, query
from analysis.stats import wilson

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


def _with_interval(df: pl.DataFrame, successes: str, n: str) -> pl.DataFrame:
    lo, hi = wilson(df[successes].to_numpy(), df[n].to_numpy())
    return df.with_columns(lo=pl.Series(lo), hi=pl.Series(hi))


def _wide_seat_means(long: pl.DataFrame) -> pl.DataFrame:
    """One row per (player count, seat), one column per Dwarfest column, in data order."""
    order = list(dict.fromkeys(long["metric"]))
    wide = long.pivot(on="metric", index=["n_players", "seat", "games"], values="mean")
    return wide.select("n_players", "seat", "games", *order).sort("n_players", "seat")


def extras(con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """Dwarfest tables, keyed by the section title a report should show."""
    present = {view: set(columns(con, view)) for view in ("games", "players")}
    out = {}
    for title, (sql, needs, interval) in TABLES.items():
        if not all(col in present[view] for view, col in needs):
            continue
        df = query(con, sql)
        if sql == "dwarfest_seat_means":
            df = _wide_seat_means(df)
        out[title] = _with_interval(df, *interval) if interval else df
    return out
