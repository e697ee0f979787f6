"""Build Brewin' USA states by hand for rule tests (chance is forced, not rolled)."""

from __future__ import annotations

import numpy as np

from sim.brewin_usa import GAME
from sim.brewin_usa import constants as C
from sim.brewin_usa.state import make_rules, make_state, rules_view, view
from sim.core.config import prepare


def config(sets=()):
    return GAME.build(prepare("brewin_usa", "base", list(sets), []))


def blank(n: int = 4, sets=(), trace: int = 1):
    """(config, rules, state): n players with empty banks and hands, all 12 cities free and
    empty, every beer card in the deck, the ingredient deck empty, the bag holding every cap.
    trace > 1 keeps that many replay rows."""
    cfg = config(sets)
    R = make_rules(cfg)
    S = make_state(len(cfg.ing_ids), 1000, trace)
    v = view(S)
    v.game.set(n=n, last_round=-1, total_caps=int(cfg.params[C.P_TOTAL_CAPS]))
    v.game.bag = v.game.total_caps
    v.column("seat", "colored")[:] = int(cfg.params[C.P_COLORED])
    for c in range(C.N_CITIES):
        v.city(c).set(active=1, demand=0, beer=-1, fest=0)
    for b in range(C.BEER_DECK):
        v.beer(b).set(loc=C.LOC_DECK, owner=-1, city=-1, seq=0, type=int(cfg.beer_phys[b]))
        v.piles.beer_deck[b] = b
    v.game.beer_deck = C.BEER_DECK
    return cfg, R, S


def ing(cfg, card_id: str) -> int:
    return cfg.ing_ids.index(card_id)


def beer(cfg, beer_id: str) -> int:
    """The physical beer card of beer type `beer_id` (its first copy)."""
    t = cfg.beer_ids.index(beer_id)
    return int(np.nonzero(cfg.beer_phys == t)[0][0])


def city(cfg, city_id: str) -> int:
    return cfg.city_ids.index(city_id)


def bank(S, seat: int, caps: int) -> None:
    """Move caps from the bag to a seat's bank (keeps caps conserved)."""
    v = view(S)
    v.game.bag -= caps - v.seat(seat).bank
    v.seat(seat).bank = caps


def demand(S, c: int, caps: int) -> None:
    v = view(S)
    v.game.bag -= caps - v.city(c).demand
    v.city(c).demand = caps


def hand(cfg, S, seat: int, *card_ids: str) -> None:
    for cid in card_ids:
        view(S).seat(seat).hand[ing(cfg, cid)] += 1


def to_hand(cfg, S, seat: int, beer_id: str) -> int:
    """Take a beer card out of the deck into a seat's hand."""
    b = beer(cfg, beer_id)
    _take_from_deck(S, b)
    view(S).beer(b).set(loc=C.LOC_HAND, owner=seat, city=-1, seq=0)
    return b


def on_city(cfg, S, seat: int, beer_id: str, c: int) -> int:
    """A launched beer of `seat` controlling city c (its colored cap used)."""
    b = beer(cfg, beer_id)
    _take_from_deck(S, b)
    v = view(S)
    v.beer(b).set(loc=C.LOC_CITY, owner=seat, city=c, seq=0)
    v.city(c).beer = b
    v.seat(seat).colored -= 1
    v.seat(seat).launched += 1
    return b


def _take_from_deck(S, b: int) -> None:
    v = view(S)
    k = v.game.beer_deck
    pile = list(v.piles.beer_deck[:k])
    pile.remove(b)
    v.piles.beer_deck[: k - 1] = pile
    v.game.beer_deck = k - 1


def stack_ingredients(cfg, S, card_ids: list[str]) -> None:
    """Ingredient deck in draw order: the first card listed is drawn first. Cards already in
    hands are not taken into account (card conservation is not checked in these tests)."""
    v = view(S)
    v.piles.ingredient_deck[:len(card_ids)] = [ing(cfg, cid) for cid in reversed(card_ids)]
    v.game.ingredient_deck = len(card_ids)


def full_ingredient_deck(cfg, S) -> None:
    """Every ingredient card not in a hand goes into the deck, so that cards are conserved
    (inv.check_state can then pass)."""
    v = view(S)
    k = 0
    for t in range(len(cfg.ing_ids)):
        for _ in range(rules_view(cfg).ingredient(t).count - int(S.hand[:, t].sum())):
            v.piles.ingredient_deck[k] = t
            k += 1
    v.game.set(ingredient_deck=k, ingredient_discards=0)


def take_from_deck(cfg, S, seat: int, *card_ids: str) -> None:
    """Move one copy of each card from the ingredient deck into a seat's hand (conserving cards)."""
    v = view(S)
    for cid in card_ids:
        t = ing(cfg, cid)
        k = v.game.ingredient_deck
        pile = list(v.piles.ingredient_deck[:k])
        pile.remove(t)
        v.piles.ingredient_deck[: k - 1] = pile
        v.game.ingredient_deck = k - 1
        v.seat(seat).hand[t] += 1


def seats_policy(cfg, name: str, n: int = C.MAX_PLAYERS) -> np.ndarray:
    return np.full(C.MAX_PLAYERS, cfg.policy_index(name), np.int64)
