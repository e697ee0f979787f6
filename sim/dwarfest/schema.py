"""Dwarfest's output tables (DESIGN.md §6): the columns every game has, then Dwarfest's own.
The kernel writes rows by these names (kernel.record) and the wrapper builds the frames from
them (sim/core/schema.py), so the two cannot disagree."""

from dataclasses import replace

import polars as pl

from sim.core.schema import Column, Table, events_table, games_table, players_table

from . import constants as C

GAMES = games_table([
    Column("brawls", pl.Int16, "Brawls that broke out, all players"),
    Column("taverns_destroyed", pl.Int16, "Taverns totally destroyed, all players"),
    Column("treated_seat", pl.Int64, "seat given the injected card at setup (inject treatment); "
                                     "-1 when the run injects nothing"),
])

# players-table column of each ST_* statistic, in ST order (kernel.record copies them as a block)
PLAYER_STATS = (
    ("brawls_broken", "Brawls that broke out in this Tavern"),
    ("taverns_destroyed", "times this Tavern was totally destroyed"),
    ("beers_served_table", "Beers served to dwarves seated at Tables"),
    ("beers_served_bar", "Beers flicked along the Bar that landed"),
    ("beers_wasted", "Beers flicked along the Bar that missed"),
    ("dwarves_unserved", "dwarves left without a Beer at Table Service"),
    ("customers_refused", "Customer cards refused"),
    ("cards_played", "cards paid for and played from hand"),
    ("sips_used", "sips drunk to pay for cards"),
    ("tables_lost", "tables lost to Brawls"),
    ("bouncers_used", "Bouncers used"),
)

if len(PLAYER_STATS) != C.N_ST:  # kernel.record copies the ST_* block into these columns in order
    raise ValueError(f"dwarfest schema: {len(PLAYER_STATS)} statistics columns for {C.N_ST} ST_* statistics")

PLAYERS = players_table([
    Column("nuggets", pl.Int32, "final Nuggets (the score)", copy_of="score"),
    Column("fame", pl.Int16, "Fame at the end"),
    Column("tables", pl.Int16, "tables in the Tavern at the end"),
    Column("barrels", pl.Int16, "unopened barrels at the end"),
    Column("dancers", pl.Int16, "dancers in the Tavern at the end"),
    *[Column(name, pl.Int32, meaning) for name, meaning in PLAYER_STATS],
    Column("search_rollouts", pl.Int64, "rollouts this seat's search bot ran in the game (0 for other bots)"),
], faction_in_rows=False)

# Dwarfest's own words for two event columns: the offer kind and what its amount means.
EVENT_MEANINGS = {
    "kind": "what happened to the card: play, cancelled, sacrifice, discard, lost, or offer "
            "(dealt into the seat's opening hand)",
    "amount": "Nuggets paid (play); 1 for an offer (fixed by the shuffle alone; later draws are "
              "not logged); else 0",
}
EVENTS = Table("events", [replace(c, meaning=EVENT_MEANINGS.get(c.name, c.meaning))
                          for c in events_table().columns])
