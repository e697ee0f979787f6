"""Build Homebrewers states by hand for rule tests (chance is forced, not rolled)."""

from __future__ import annotations

import numpy as np

from sim.core.config import prepare
from sim.homebrewers import GAME
from sim.homebrewers import constants as C
from sim.homebrewers.state import make_rules, make_state, view


def config(variant="characters", sets=()):
    return GAME.build(prepare("homebrewers", variant, list(sets), []))


def blank(n: int = 4, variant="characters", factions=None, policy="greedy"):
    """(config, rules, state, pols): n players at quality 0, no grain, no trub, no money, empty hands,
    every flavor card in the deck (in id order), the board's pre-printed spaces only (no tiles),
    month March, the first event tile."""
    cfg = config(variant)
    R = make_rules(cfg)
    S = make_state(2000, 2000)
    v = view(S)
    v.game.n = n
    v.game.lock = -1
    v.board.tracks = 0
    v.board.tracks[:, 2] = cfg.board[2]
    for m in range(C.MONTHS):
        v.board.events[m] = C.SUMMER_EVENT if m == 3 else (C.OCTOBER_EVENT if m == 7 else 0)
    v.board.judges[:5] = [0, 1, 2, 3, 4]
    for c in range(C.DECK):
        v.pile.deck[c] = C.DECK - 1 - c
        v.card(c).set(loc=C.LOC_DECK, owner=-1, recipe=-1)
    v.game.deck_n = C.DECK
    v.pile.row[:4] = -1
    S.pl[:] = 0
    for s in range(C.N_ROWS):
        v.seat(s).extra_die = -1
        v.seat(s).faction = C.STANDARD if factions is None or s >= len(factions) else C.FACTIONS.index(factions[s])
    pols = np.full(C.MAX_PLAYERS, cfg.policy_index(policy), np.int64)
    S.rng[:] = np.arange(1, S.rng.shape[0] + 1, dtype=np.uint64)
    return cfg, R, S, pols


def card_of(cfg, card_id: str, S=None) -> int:
    """A physical card of type card_id (the first still in the deck when S is given)."""
    t = cfg.card_ids.index(card_id)
    for c in range(C.DECK):
        if cfg.phys[c] == t and (S is None or view(S).card(c).loc == C.LOC_DECK):
            return c
    raise LookupError(card_id)


def under(cfg, S, seat, card_id, recipe):
    c = card_of(cfg, card_id, S)
    view(S).card(c).set(loc=C.LOC_RECIPE, owner=seat, recipe=C.RECIPES.index(recipe))
    view(S).seat(seat).flavors[C.RECIPES.index(recipe), cfg.cards[cfg.phys[c], C.CF_KIND]] += 1
    return c


def hand_size(S, seat) -> int:
    """Flavor cards in seat's hand."""
    return sum(view(S).card(c).loc == C.LOC_HAND and view(S).card(c).owner == seat for c in range(C.CARD_SLOTS))


def quality(S, seat, **q):
    view(S).seat(seat).quality.set(**q)
