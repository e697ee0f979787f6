"""Brewin' USA's output tables (DESIGN.md §6): the columns every game has, then Brewin' USA's own
(docs/games/brewin_usa.md, Output columns). The kernel writes rows by these names
(kernel.record) and the wrapper builds the frames from them (sim/core/schema.py), so the two
cannot disagree."""

from dataclasses import replace

import polars as pl

from sim.core.schema import Column, Table, events_table, games_table, players_table

from . import constants as C

GAMES = games_table([
    Column("brewfests", pl.Int16, "Brewfests resolved"),
    Column("market_demand_left", pl.Int16, "Market Demand left on the cities at the end"),
    Column("caps_in_bag", pl.Int16, "uncolored caps left in the bag at the end"),
    Column("treated_seat", pl.Int64, "seat dealt the injected beer card of an inject treatment "
           "(sim/core/treatment.py treated_seat), -1 when the run injects nothing"),
])

# meaning of each players-table statistic of C.PLAYER_STATS (State.pl[VP_CITIES:] in order);
# score_check (State.pl[SCORE], the score itself) is no column of its own
STAT_MEANINGS = {
    "vp_cities": "VP from the Market Demand of the cities held (doubled for the preferred style)",
    "vp_regions": "VP from the regions in which this player holds the most cities",
    "vp_beers": "VP from the quality of the beers launched (holding a city or skunked)",
    "vp_bank": "VP from the caps in the bank, one per cap",
    "brewfests_won": "Brewfests won",
    "brewfests_lost": "Brewfests lost (the beer skunked)",
    "caps_spent": "caps spent on auction bids, bought qualities and relaunches",
    "challenges": "launches that challenged a rival's city",
    "claims": "launches that claimed a free city",
    "relaunches": "skunked beers relaunched",
    "income": "caps of income taken from the bag",
    "adjunct_actions": "adjunct actions performed",
    "qualities_bought": "ingredient qualities bought at a launch",
    "batch_cards": "ingredient cards won in auctions",
    "cities_controlled": "cities held at the end",
}

PLAYERS = players_table([
    Column("beers_launched", pl.Int8, "distinct beer cards launched (relaunches not counted)"),
    *[Column(name, pl.Int32, STAT_MEANINGS[name]) for name in C.PLAYER_STATS if name != "score_check"],
    Column("search_rollouts", pl.Int64, "rollouts this seat's search bot ran in the game (0 for other bots)"),
], faction_in_rows=False)

# what this game logs in the shared columns (docs/games/brewin_usa.md, Output columns)
EVENT_MEANINGS = {
    "kind": "what happened: " + ", ".join(C.LOG_KINDS) + " (offer: a card shown to the seat, see "
            "docs/games/brewin_usa.md, Treatments and offers)",
    "amount": "caps paid (play, buy, relaunch), Brewfest score (brewfest_win, skunked); 1 for an offer "
              "(the shuffle alone fixed it: the opening deal, the first round's batches; later draws "
              "and batches are not logged)",
    "target": "city (play, relaunch, brewfest_win, skunked, adjunct), cards in the batch (buy), the batch "
              "(offer of an adjunct in it) or -1 (offer of a beer card dealt)",
}


def _declared(table: Table, meanings: dict[str, str]) -> Table:
    """The table with this game's meaning of some shared columns."""
    return Table(table.name, [replace(c, meaning=meanings.get(c.name, c.meaning)) for c in table.columns])


EVENTS = _declared(events_table(round_="round, 0-based (the rounds table counts from 1: see docs/games/brewin_usa.md)"),
                   EVENT_MEANINGS)
