"""Build Dwarfest states by hand for rule tests (chance is forced, not rolled)."""

from __future__ import annotations

import numpy as np

from sim.core.config import prepare
from sim.dwarfest import GAME
from sim.dwarfest import constants as C
from sim.dwarfest.state import make_rules, make_state


def config(variant: str = "base", sets=()):
    return GAME.build(prepare("dwarfest", variant, list(sets), []))


def blank(n: int = 4, variant: str = "base", sets=()):
    """(config, rules, state) with n empty Taverns and empty decks."""
    cfg = config(variant, sets)
    rules = make_rules(cfg)
    state = make_state(len(cfg.cards.ids), 1000)
    state.g[C.G_N] = n
    return cfg, rules, state


def card(cfg, card_id: str) -> int:
    return cfg.cards.ids.index(card_id)


def give(state, seat: int, **resources) -> None:
    """Set resources by name, e.g. give(S, 0, TABLES=3, BARRELS=3)."""
    for name, value in resources.items():
        state.pl[seat, getattr(C, name)] = value


def deal_customers(state, seat: int, dwarves: list[int]) -> None:
    for k, d in enumerate(dwarves):
        state.drawn[seat, k] = d
    state.pl[seat, C.N_DRAWN] = len(dwarves)


def fill_customer_deck(state, cards: list[int]) -> None:
    """Deck in draw order: the first card listed is drawn first."""
    for k, d in enumerate(reversed(cards)):
        state.piles[C.PILE_CDECK, k] = d
    state.g[C.G_CDECK] = len(cards)


def ids(values) -> np.ndarray:
    return np.array(values, np.int64)
