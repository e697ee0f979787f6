"""Dragon Brew rules (paraphrased; the rulebook is the authority), as numba kernels on the arrays
of state.py, one module per part of the year.

A game is three years of Spring (turns clockwise until every brewer is assigned or passed), Fall
(brew behind screens, present, judge left to right, collect profit) and Winter (reset, refresh,
new turn order). Rulebook lines (l.) refer to ../shared/rules/dragon_brew.txt.

  common        events and replay rows, scoring, piles and rows, estate cards, ingredients, brewers
  game_setup    a fresh game
  moves         the legal moves of a turn, and the move layout
  drafts        clearing and drafting the pool, events, recipes
  actions       action cards, free action cards, bribes
  spells        casting spells
  spring_phase  the spring turns and the fall/winter free-action windows
  fall_phase    brewing, judging, profits
  winter_phase  the winter reset and the next turn order

Callers use `rules.X`; the names they use are re-exported here.
"""

from .common import (
    LOG_ABILITY,
    LOG_DRAFT_BREWERY,
    LOG_DRAFT_EVENT,
    LOG_JUDGE_WON,
    LOG_SACRIFICE_CARD,
    add_to_book,
    draw_recipe,
    push,
    refill_offer,
    refill_rows,
    score,
)
from .drafts import add_brewery_card, do_draft
from .fall_phase import brew_beers, fall, judge_all
from .game_setup import setup
from .moves import draftable, legal_moves
from .spring_phase import apply_move, bot_choice, free_window, spring, spring_from, window_moves
from .winter_phase import winter

__all__ = [
    "LOG_ABILITY",
    "LOG_DRAFT_BREWERY",
    "LOG_DRAFT_EVENT",
    "LOG_JUDGE_WON",
    "LOG_SACRIFICE_CARD",
    "add_brewery_card",
    "add_to_book",
    "apply_move",
    "bot_choice",
    "brew_beers",
    "do_draft",
    "draftable",
    "draw_recipe",
    "fall",
    "free_window",
    "judge_all",
    "legal_moves",
    "push",
    "refill_offer",
    "refill_rows",
    "score",
    "setup",
    "spring",
    "spring_from",
    "window_moves",
    "winter",
]
