"""Dragon Brew planner bots (`greedy`, `builder`; kind planner in data/games/dragon_brew/policies.toml),
compiled, by concern:

  memory       the bots' memory (BotState), its layout and readers
  ingredients  what ingredients are worth, which to take or spend
  card_values  what a card, an action card or a spell is worth
  move_values  what a legal move is worth
  beers        the candidate beers and the choice of the year's beers
  choices      the plan at turn start, the move to play, the choices inside a move
  fall_winter  brewing, the Dark Elf's swap, what winter keeps

At the start of each turn the bot picks the beers it will brew from its recipe book (one barrel +
1..max_spices spices each, at most its Brewery capacity) by profit plus the estimated chance to
win one of this year's judges, minus the brewer actions the ingredients it lacks take (`action`
gold each), keeping only beers whose actions fit the brewers left plus `slack`; what those beers
still lack is its need vector. Every legal move is then valued in gold-equivalents and the best
is played (policies.toml explains the weights). A choice depends on the state only: ties go to
the first maximum, sorts are stable, and float sums keep one order, so a golden replay pins
every choice.

Callers use `planner.X` (policies.py as `pn`); the names they use are re-exported here.
"""

from .beers import spice_limit
from .card_values import guild_reserve
from .choices import (
    choose,
    clear_picks,
    grains,
    guild_hire,
    magic,
    pick_free_card,
    pick_recipe,
    pick_servant,
    refresh_need,
    scroll_deck,
    spend,
    start_turn,
    trader_count,
    wort,
    wort_any,
)
from .fall_winter import book_keep, brew, shadow_swap, winter_keep
from .ingredients import gain_value
from .memory import FV_MANA_EXTRA, M_GID, M_NEED, M_NPLAN, BotState, make_bot_state, pwin, reset
from .move_values import move_value

__all__ = [
    "BotState",
    "FV_MANA_EXTRA",
    "M_GID",
    "M_NEED",
    "M_NPLAN",
    "book_keep",
    "brew",
    "choose",
    "clear_picks",
    "gain_value",
    "grains",
    "guild_hire",
    "guild_reserve",
    "magic",
    "make_bot_state",
    "move_value",
    "pick_free_card",
    "pick_recipe",
    "pick_servant",
    "pwin",
    "refresh_need",
    "reset",
    "scroll_deck",
    "shadow_swap",
    "spend",
    "spice_limit",
    "start_turn",
    "trader_count",
    "winter_keep",
    "wort",
    "wort_any",
]
