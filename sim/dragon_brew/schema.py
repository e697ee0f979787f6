"""Dragon Brew's output tables (DESIGN.md §6): the columns every game has, then Dragon Brew's own
(docs/games/dragon_brew.md, "Output columns"). The kernel writes rows by these names
(kernel.record) and the wrapper builds the frames from them (sim/core/schema.py), so the two
cannot disagree. A round is a year; the faction is the race."""

from dataclasses import replace

import polars as pl

from sim.core.schema import Column, Table, events_table, games_table, players_table

from . import constants as C

GAMES = games_table([
    Column("judges_awarded", pl.Int16, "judges whose VP went to at least one beer, all years"),
    Column("spring_turns", pl.Int32, "spring turns taken, all players and years"),
    Column("treated_seat", pl.Int64, "the seat given the injected Brewery card at setup (treatment inject), "
                                     "-1 when the run has no inject treatment"),
])

# meaning of each players-table statistic; the columns come in C.PLAYER_STATS order (the ST_*
# order of the state), which kernel.record copies as one block
STAT_MEANINGS = {
    "ribbons": "ribbons won (first tie-breaker)",
    "gold": "gold at the end (second tie-breaker)",
    "beers_brewed": "beers brewed, all years",
    "judges_won": "judges won or shared, all years",
    "ability_uses": "race power uses (ability events)",
    "cards_drafted": "Brewery and Event cards drafted",
    "estate_size": "estate cards at the end",
    "vp_judges": "VP from judges",
    "vp_profit": "VP from profit",
    "vp_quests": "VP from quests (the three VP columns add up to score)",
    "outside_recommended": "1 when the race's recommended player counts exclude this game's",
}

PLAYERS = players_table([Column(name, pl.Int32, STAT_MEANINGS[name]) for name in C.PLAYER_STATS]
                        + [Column("search_rollouts", pl.Int64, "rollouts this seat's search bot ran in the game "
                                                              "(0 for every other bot)")])

# the events' kind and amount, with what an offer row (issue 14) means
EVENT_MEANINGS = {
    "kind": "what happened to it (" + ", ".join(C.LOG_KINDS) + "); offer: the card lay face up in an "
            "opening draft row, shown to the first seat before any decision",
    "amount": "a number that goes with the event (cost, VP, ...); for an offer 1: fixed by the shuffle "
              "alone (0, for offers that depend on play, is not logged in Dragon Brew)",
}
EVENTS = Table("events", [replace(c, meaning=EVENT_MEANINGS.get(c.name, c.meaning))
                          for c in events_table(target=None).columns])
