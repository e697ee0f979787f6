"""Build Dwarfest states by hand for rule tests (chance is forced, not rolled)."""

from __future__ import annotations

import numpy as np

from sim.core.config import prepare
from sim.dwarfest import GAME
from sim.dwarfest import constants as C
from sim.dwarfest.state import make_rules, make_state, view


def config(variant: str = "base", sets=()):
    return GAME.build(prepare("dwarfest", variant, list(sets), []))


def blank(n: int = 4, variant: str = "base", sets=()):
    """(config, rules, state) with n empty Taverns and empty decks."""
    cfg = config(variant, sets)
    rules = make_rules(cfg)
    state = make_state(len(cfg.cards.ids), 1000)
    view(state).game.n = n
    return cfg, rules, state


def card(cfg, card_id: str) -> int:
    return cfg.cards.ids.index(card_id)


def give(state, seat: int, **resources) -> None:
    """Set a seat's resources by field name, e.g. give(S, 0, tables=3, barrels=3)."""
    view(state).seat(seat).set(**resources)


def deal_customers(state, seat: int, dwarves: list[int]) -> None:
    player = view(state).seat(seat)
    player.drawn[:len(dwarves)] = dwarves
    player.n_drawn = len(dwarves)


def fill_customer_deck(state, cards: list[int]) -> None:
    """Deck in draw order: the first card listed is drawn first."""
    v = view(state)
    v.piles.customer_deck[:len(cards)] = cards[::-1]
    v.game.customer_deck = len(cards)


def ids(values) -> np.ndarray:
    return np.array(values, np.int64)


def copy_state(state):
    return type(state)(*(a.copy() for a in state))


def seats_with(cfg, policy: str, n: int) -> np.ndarray:
    """The bot column of State.seats: `policy` in every seat."""
    return np.full(C.MAX_PLAYERS, cfg.policy_index(policy), np.int64)


def service_with_flicks(rules, state, seats_pol, n: int, seat: int, landed: int, tries: int = 5000):
    """Run the kernel's Table Service phase on a copy of `state` with the random streams seeded
    so that `seat` keeps all its Customer cards and lands exactly `landed` Bar flicks (the
    rulebook examples fix those two facts); returns the played copy. The chance is only chosen
    by seed: every rule is applied by the phase itself."""
    from sim.dwarfest import kernel as K

    for seed in range(1, tries):
        played = copy_state(state)
        K.seed_streams(played, np.uint64(seed), 0)
        K.table_service(played, rules, n, seats_pol)
        stats = view(played).seat(seat).stats
        if stats.refused == 0 and stats.served_bar == landed:
            return played
    raise AssertionError("no seed gives the example's flicks")
