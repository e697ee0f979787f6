"""Game-specific extras: the one registry mapping a game id to its extras function.

An extras function takes a DuckDB connection holding the run's views and returns
{section title: polars DataFrame}. Games without an entry simply have no extras.
"""

from __future__ import annotations

from collections.abc import Callable

import duckdb
import polars as pl

from analysis.games import brewin_usa, dragon_brew, dwarfest, homebrewers

ExtrasFn = Callable[[duckdb.DuckDBPyConnection], dict[str, pl.DataFrame]]

EXTRAS: dict[str, ExtrasFn] = {
    "dwarfest": dwarfest.extras,
    "brewin_usa": brewin_usa.extras,
    "dragon_brew": dragon_brew.extras,
    "homebrewers": homebrewers.extras,
}


def extras_for(game: str | None, con: duckdb.DuckDBPyConnection) -> dict[str, pl.DataFrame]:
    """Run the game's extras if it has any, else return an empty dict."""
    fn = EXTRAS.get(game or "")
    return fn(con) if fn else {}
