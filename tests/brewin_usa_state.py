"""Build Brewin' USA states by hand for rule tests (chance is forced, not rolled)."""

from __future__ import annotations

import numpy as np

from sim.brewin_usa import GAME
from sim.brewin_usa import constants as C
from sim.brewin_usa.state import make_rules, make_state
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
    S.g[C.G_N] = n
    S.g[C.G_LAST_ROUND] = -1
    S.g[C.G_TOTAL_CAPS] = int(cfg.params[C.P_TOTAL_CAPS])
    S.g[C.G_BAG] = S.g[C.G_TOTAL_CAPS]
    for s in range(C.MAX_PLAYERS):
        S.pl[s, C.COLORED] = int(cfg.params[C.P_COLORED])
    for c in range(C.N_CITIES):
        S.city[c] = (1, 0, -1, 0)
    for b in range(C.BEER_DECK):
        S.beer[b] = (C.LOC_DECK, -1, -1, 0)
        S.piles[C.PILE_BDECK, b] = b
    S.g[C.G_BDECK] = C.BEER_DECK
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
    S.g[C.G_BAG] -= caps - S.pl[seat, C.BANK]
    S.pl[seat, C.BANK] = caps


def demand(S, c: int, caps: int) -> None:
    S.g[C.G_BAG] -= caps - S.city[c, C.CT_DEMAND]
    S.city[c, C.CT_DEMAND] = caps


def hand(cfg, S, seat: int, *card_ids: str) -> None:
    for cid in card_ids:
        S.hand[seat, ing(cfg, cid)] += 1


def to_hand(cfg, S, seat: int, beer_id: str) -> int:
    """Take a beer card out of the deck into a seat's hand."""
    b = beer(cfg, beer_id)
    _take_from_deck(S, b)
    S.beer[b] = (C.LOC_HAND, seat, -1, 0)
    return b


def on_city(cfg, S, seat: int, beer_id: str, c: int) -> int:
    """A launched beer of `seat` controlling city c (its colored cap used)."""
    b = beer(cfg, beer_id)
    _take_from_deck(S, b)
    S.beer[b] = (C.LOC_CITY, seat, c, 0)
    S.city[c, C.CT_BEER] = b
    S.pl[seat, C.COLORED] -= 1
    S.pl[seat, C.LAUNCHED] += 1
    return b


def _take_from_deck(S, b: int) -> None:
    k = S.g[C.G_BDECK]
    pile = list(S.piles[C.PILE_BDECK, :k])
    pile.remove(b)
    S.piles[C.PILE_BDECK, : k - 1] = pile
    S.g[C.G_BDECK] = k - 1


def stack_ingredients(cfg, S, card_ids: list[str]) -> None:
    """Ingredient deck in draw order: the first card listed is drawn first. Cards already in
    hands are not taken into account (card conservation is not checked in these tests)."""
    for k, cid in enumerate(reversed(card_ids)):
        S.piles[C.PILE_IDECK, k] = ing(cfg, cid)
    S.g[C.G_IDECK] = len(card_ids)


def full_ingredient_deck(cfg, S) -> None:
    """Every ingredient card not in a hand goes into the deck, so that cards are conserved
    (inv.check_state can then pass)."""
    k = 0
    for t in range(len(cfg.ing_ids)):
        for _ in range(int(cfg.ing[t, C.IF_COUNT]) - int(S.hand[:, t].sum())):
            S.piles[C.PILE_IDECK, k] = t
            k += 1
    S.g[C.G_IDECK] = k
    S.g[C.G_IDISC] = 0


def take_from_deck(cfg, S, seat: int, *card_ids: str) -> None:
    """Move one copy of each card from the ingredient deck into a seat's hand (conserving cards)."""
    for cid in card_ids:
        t = ing(cfg, cid)
        k = S.g[C.G_IDECK]
        pile = list(S.piles[C.PILE_IDECK, :k])
        pile.remove(t)
        S.piles[C.PILE_IDECK, : k - 1] = pile
        S.g[C.G_IDECK] = k - 1
        S.hand[seat, t] += 1


def seats_policy(cfg, name: str, n: int = C.MAX_PLAYERS) -> np.ndarray:
    return np.full(C.MAX_PLAYERS, cfg.policy_index(name), np.int64)
