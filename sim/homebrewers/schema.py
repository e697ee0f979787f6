"""Homebrewers' output tables (DESIGN.md §6; docs/games/homebrewers.md "Output columns"): the
columns every game has, then Homebrewers' own. The kernel writes rows by these names
(kernel.record) and the wrapper builds the frames from them (sim/core/schema.py), so the two
cannot disagree."""

from dataclasses import replace

import polars as pl

from sim.core.schema import Column, Table, events_table, games_table, players_table

from . import constants as C

GAMES = games_table([
    Column("trades", pl.Int16, "dice trades made, all players (with Charlie too)"),
    Column("treated_seat", pl.Int64, "seat given the injected flavor card (inject treatment), -1 when the run "
                                     "has no inject treatment"),
])

# meaning of each C.PLAYER_STATS column; kernel.record copies them as one block, in that order,
# from State.pl[ST_POWERS:]
STAT_MEANINGS = {
    "powers_used": "character powers used",
    "extra_actions": "extra actions bought",
    "trades": "dice trades this player took part in",
    "flavor_drawn": "flavor cards drawn",
    "flavor_top": "flavor cards played under a recipe (for their top benefit)",
    "flavor_bottom": "flavor cards discarded for their bottom benefit",
    "brews": "brews",
    "dice_changed": "dice changed for money",
    "dice_forgone": "dice forgone for money in the action phase",
    "summerfest_rep": "reputation from the Summerfest medals",
    "medal_rep": "reputation from the Octoberfest medals",
    "judge_rep": "reputation from the judges at Octoberfest",
    "gold": "Octoberfest gold medals (ties counted)",
    "silver": "Octoberfest silver medals (ties counted)",
    "bronze": "Octoberfest bronze medals (ties counted)",
    "honorable": "Octoberfest honorable mentions (ties counted)",
    "q_ale": "quality of the Ale at Octoberfest",
    "q_porter": "quality of the Porter at Octoberfest",
    "q_stout": "quality of the Stout at Octoberfest",
    "q_ipa": "quality of the IPA at Octoberfest",
}

PLAYERS = players_table([
    Column("money", pl.Int16, "money left at the end ($)"),
    Column("reputation", pl.Int32, "final reputation (the score)", copy_of="score"),
    *[Column(name, pl.Int16, STAT_MEANINGS[name]) for name in C.PLAYER_STATS],
    Column("search_rollouts", pl.Int64, "rollouts this seat's search bot ran in the game (0 for other bots)"),
], faction_in_rows=True)

# kind and amount get Homebrewers' meanings (the offer kind of issue 14 among them); the rest as
# every game declares them
_EVENT_MEANINGS = {
    "kind": "what happened to it: " + ", ".join(C.LOG_KINDS) + " (offer: the deal showed the card to the "
            "seat, in its opening hand or the opening row)",
    "amount": "a number that goes with the event (cost, reputation, levels moved, ...); 1 for an offer (the "
              "shuffle alone fixed it before any decision; later rows and draws are not logged)",
}
_EVENTS = events_table(target="recipe (play_top, brew; 4 = bottom), draw source, festival or die face; for an "
                              "offer where the card was shown (0-3 row slot, 4 deck, 5 Evie's draw): see "
                              "docs/games/homebrewers.md")
EVENTS = Table("events", [replace(c, meaning=_EVENT_MEANINGS.get(c.name, c.meaning)) for c in _EVENTS.columns])
