"""The blank card as an inject target (issue 14: the reference of every injection value): in
every game `neutral` is the last inject target, never a remove target, its index in the
treatable list is the blank card's index in the kernel's card table, and injecting it puts the
blank card with the treated seat and changes nothing else of the deal. The per-game setup
helpers are those of each game's treatment tests."""

from __future__ import annotations

import numpy as np
import pytest
import test_brewin_usa_treatments as brewin
import test_dragon_brew_treatments as dragon
import test_dwarfest_treatments as dwarfest
import test_homebrewers_treatments as homebrewers

from sim.core import treatment
from sim.core.config import prepare
from sim.registry import get_game

BLANK = "neutral"
GAMES = [("dragon_brew", "base"), ("dwarfest", "base"), ("homebrewers", "characters"), ("brewin_usa", "base")]


@pytest.mark.parametrize(("game_id", "variant"), GAMES)
def test_the_blank_card_is_the_last_inject_target_and_never_removed(game_id, variant):
    g = get_game(game_id)
    kinds = g.treatable(g.build(prepare(game_id, variant, [], [])))
    assert kinds["inject"][-1] == BLANK and kinds["inject"].count(BLANK) == 1
    assert BLANK not in kinds["remove"]
    assert kinds["inject"][:-1] == [c for c in kinds["inject"] if c != BLANK]


def test_dwarfest_injecting_the_blank_puts_the_neutral_card_in_the_treated_seat_hand():
    cfg = dwarfest.config()
    _, plain = dwarfest.set_up(cfg, {})
    R, treated = dwarfest.set_up(cfg, dwarfest.treat("inject", BLANK), treated=2)
    blank = cfg.cards.ids.index(BLANK)
    assert blank == R.card.shape[0] - 1  # rules.neutral_card
    for seat in range(4):
        extra = np.zeros(len(cfg.cards.ids), np.int64)
        extra[blank] = seat == 2
        assert (dwarfest.view(treated).seat(seat).hand == dwarfest.view(plain).seat(seat).hand + extra).all()
    assert (dwarfest.deck(treated) == dwarfest.deck(plain)).all()
    assert (treated.rng == plain.rng).all()


def test_brewin_injecting_the_blank_puts_the_neutral_beer_in_the_treated_seat_hand():
    cfg = brewin.config(["params.redraw_max=0"])  # no setup redraws: the hand as dealt
    _, plain = brewin.set_up(cfg, brewin.x_of(cfg), 4, 5, 3)
    R, treated = brewin.set_up(cfg, brewin.x_of(cfg, "inject", BLANK), 4, 5, 3, 1)
    extra = brewin.view(treated).beer(brewin.C.INJECT_SLOT)
    assert (extra.loc, extra.owner) == (brewin.C.LOC_HAND, 1)
    assert extra.type == brewin.ru.neutral_type(R) == len(cfg.beer_ids)
    assert brewin.in_hand(treated, 1) == brewin.in_hand(plain, 1) | {brewin.C.INJECT_SLOT}
    assert np.array_equal(treated.beer[:brewin.C.BEER_DECK], plain.beer[:brewin.C.BEER_DECK])


def test_brewin_greedy_bot_swaps_an_injected_blank_away_in_its_setup_redraws():
    # The blank beer's recipe is beyond any hand, so the greedy bot spends a setup redraw on it:
    # that redraw is part of what one more (useless) card costs in Brewin' USA.
    cfg = brewin.config(brewin.NO_REDRAW)
    _, treated = brewin.set_up(cfg, brewin.x_of(cfg, "inject", BLANK), 4, 5, 3, 1)
    assert brewin.view(treated).beer(brewin.C.INJECT_SLOT).loc != brewin.C.LOC_HAND
    assert brewin.ru.beers_in_hand(treated, 1) == 4  # the swap drew a real beer in its place


@pytest.mark.parametrize("game_id", [0, 4])
def test_dragon_brew_injecting_the_blank_builds_the_neutral_card_for_the_treated_seat(game_id):
    plain = dragon.game(dragon.RACES, game_id=game_id, seed=5)
    treated = dragon.game(dragon.RACES, game_id=game_id, seed=5, treatment=dragon.inject(BLANK))
    seat = dragon.state_view(treated.S).game.treated_seat
    assert seat == (game_id // len(dragon.RACES)) % len(dragon.RACES)
    neutral_key = dragon.C.KEY_BREWERY + int(treated.R.p[dragon.P_NEUTRAL])
    assert dragon.keys(treated, seat) == dragon.keys(plain, seat) + [neutral_key]
    assert dragon.dealt_cards(treated) == dragon.dealt_cards(plain)
    for s in range(len(dragon.RACES)):
        if s != seat:
            assert dragon.keys(treated, s) == dragon.keys(plain, s)


@pytest.mark.parametrize("game_id", [0, 5])
def test_homebrewers_injecting_the_blank_puts_the_neutral_card_in_the_treated_seat_hand(game_id):
    cfg = homebrewers.config()
    _, plain = homebrewers.set_up(cfg, game_id)
    R, treated = homebrewers.set_up(cfg, game_id, options=homebrewers.treat("inject", BLANK))
    t = treatment.treated_seat(game_id, 4, 1)
    assert R.phys[homebrewers.C.SPARE] == len(cfg.card_ids) == R.cards.shape[0] - 1  # the neutral row
    assert homebrewers.hand(treated, t) == homebrewers.hand(plain, t) | {homebrewers.C.SPARE}
    assert homebrewers.deck(treated) == homebrewers.deck(plain)
    assert homebrewers.inv.check_cards(treated, 4) == homebrewers.inv.OK
