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


# Event kinds that acquire a card and that use one, per game (the events table's `kind`).
# Empty when the game does not log it: Dwarfest and Brewin' USA log cards as they are played
# (hands are not logged as they fill; a Brewin' USA "buy" names a batch, not a card); Dragon
# Brew logs drafted cards but not their later use.
CARD_KINDS: dict[str, tuple[list[str], list[str]]] = {
    "dwarfest": ([], ["play"]),
    "brewin_usa": ([], ["play", "adjunct"]),
    "homebrewers": (["draw"], ["play_top", "play_bottom"]),
    "dragon_brew": (["draft_brewery", "draft_event"], []),
}


def card_kinds(game: str | None) -> tuple[list[str], list[str]]:
    """(acquire kinds, use kinds) of a game; both empty for a game not listed."""
    return CARD_KINDS.get(game or "", ([], []))
