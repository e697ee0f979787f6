"""Dwarfest rules, scenario by scenario, including every worked example of the rulebook.

Chance is forced: the Bar flicks of an example are fixed by choosing the dice stream's seed,
decks are stacked by hand.
"""

import numpy as np
import pytest
from dwarfest_state import (
    blank,
    card,
    config,
    copy_state,
    deal_customers,
    fill_customer_deck,
    give,
    seats_with,
    service_with_flicks,
)

from sim.dwarfest import constants as C
from sim.dwarfest import rules as ru
from sim.dwarfest.state import make_rules, make_state, view


def one_tavern(tables, barrels, cards):
    """A lone Tavern (Fame 1, Brawl 1) with its Customer cards in front of it, run by the
    random bot so that the examples' choices are only what the rules leave open."""
    cfg, R, S = blank(1)
    give(S, 0, tables=tables, barrels=barrels, fame=1, brawl=1)
    deal_customers(S, 0, cards)
    return cfg, R, S, seats_with(cfg, "random", 1)


# --- the rulebook's Table Service examples, through the kernel's Table Service phase ----------

def test_gorma_fifteen_dwarves_three_tables_three_barrels_two_spilled():
    # L107: 15 dwarves, 3 Tables (12 seats), 3 Barrels; 3 Beers at the Bar, 2 spilled:
    # Brawl +4, 13 Nuggets, 1 Fame.
    _, R, S, bots = one_tavern(3, 3, [4, 4, 4, 3])
    S = service_with_flicks(R, S, bots, 1, 0, landed=1)
    seat0 = view(S).seat(0)
    assert (seat0.stats.served_table, seat0.stats.wasted, seat0.stats.unserved) == (12, 2, 0)
    assert view(S).seat(0).barrels == 0  # all 3 opened
    assert view(S).seat(0).evening == 13
    assert view(S).seat(0).fame == 1 + 1
    assert view(S).seat(0).brawl == 1 + 4


def test_harkaz_twelve_dwarves_three_barrels_surplus_to_the_bar():
    # L109: 12 dwarves on 12 seats, 3 Barrels = 15 Beers; the 3 extra go to the Bar, 1 wasted:
    # Brawl +2, 14 Nuggets, 2 Fame.
    _, R, S, bots = one_tavern(3, 3, [6, 6])
    S = service_with_flicks(R, S, bots, 1, 0, landed=2)
    seat0 = view(S).seat(0)
    assert (seat0.stats.served_table, seat0.stats.wasted, seat0.stats.unserved) == (12, 1, 0)
    assert view(S).seat(0).evening == 14
    assert view(S).seat(0).fame == 1 + 2
    assert view(S).seat(0).brawl == 1 + 2


def test_strom_sixteen_dwarves_but_fifteen_beers():
    # L111: 16 dwarves on 16 seats, only 3 Barrels: 15 served, one dwarf dry, Brawl +2.
    _, R, S, bots = one_tavern(4, 3, [4, 4, 4, 4])
    S = service_with_flicks(R, S, bots, 1, 0, landed=0)
    seat0 = view(S).seat(0)
    assert (seat0.stats.served_table, seat0.stats.wasted, seat0.stats.unserved) == (15, 0, 1)
    assert view(S).seat(0).evening == 15
    assert view(S).seat(0).brawl == 1 + 2


def test_table_service_goes_in_the_order_the_players_drew():
    # L97: Thorgrim draws 4 cards and decides first, Balin ("the second player") draws 3,
    # Magnar ("the third") 2: the Opening's Fame order. Magnar deals here, so the Dealer
    # order would start with him.
    from sim.dwarfest import kernel as K

    for service_order, expected in ((C.SERVICE_BY_FAME, [0, 1, 2]), (C.SERVICE_FROM_DEALER, [2, 0, 1])):
        cfg = config(sets=[f"service_order={service_order}"])
        R = make_rules(cfg)
        S = make_state(len(cfg.cards.ids), 1000, trace_capacity=100)
        view(S).game.n = 3
        fill_customer_deck(S, [3] * 9)
        for seat, fame in enumerate([5, 2, 0]):  # Thorgrim, Balin, Magnar
            give(S, seat, fame=fame, brawl=1, tables=3, barrels=3)
        view(S).game.dealer = 2
        ru.set_dealer_order(S, 3, 2)
        K.opening(S, R, 3)
        assert [int(r[3]) for r in S.trace[:3]] == [4, 3, 2]  # cards drawn by the Fame table
        K.table_service(S, R, 3, seats_with(cfg, "greedy", 3))
        rows = S.trace[:view(S).game.trace]
        served = [int(r[2]) for r in rows if r[0] == C.TR_SERVE]
        assert served == expected, service_order
        assert all(p.n_drawn == 0 for p in view(S).seats(3))


def test_thorgrim_balin_magnar_refusals_and_taking_refused_cards():
    # Thorgrim refuses 2 of 4 cards; Balin refuses 1 of 3 and takes one of Thorgrim's;
    # Magnar keeps his 2 and takes everything left on the table.
    _, R, S = blank(3)
    for seat in range(3):
        give(S, seat, fame=5, brawl=1)
    deal_customers(S, 0, [3, 4, 5, 2])
    deal_customers(S, 1, [2, 3, 4])
    deal_customers(S, 2, [3, 3])
    ru.refuse_card(S, R, 0, 3)
    ru.refuse_card(S, R, 0, 2)
    assert (view(S).seat(0).fame, view(S).seat(0).brawl) == (3, 3)
    assert view(S).game.pool == 2
    ru.refuse_card(S, R, 1, 0)
    assert (view(S).seat(1).fame, view(S).seat(1).brawl) == (4, 2)
    ru.take_from_pool(S, 1, 0)
    assert view(S).seat(1).n_drawn == 3 and view(S).game.pool == 2
    while view(S).game.pool:
        ru.take_from_pool(S, 2, view(S).game.pool - 1)
    assert (view(S).seat(2).fame, view(S).seat(2).brawl) == (5, 1)  # taking refused cards costs nothing
    total = ru.dwarves_in(S, 0) + ru.dwarves_in(S, 1) + ru.dwarves_in(S, 2)
    assert total == 3 + 4 + 5 + 2 + 2 + 3 + 4 + 3 + 3  # no dwarf lost or duplicated


def test_barrels_to_open_at_most_one_extra_for_the_bar():
    _, R, S = blank()
    give(S, 0, barrels=10)
    assert ru.max_barrels_to_open(S, R, 0, 10) == 3  # 2 needed + 1 for the Bar
    assert ru.max_barrels_to_open(S, R, 0, 11) == 4  # 3 needed (surplus goes to the Bar) + 1
    assert ru.max_barrels_to_open(S, R, 0, 0) == 1  # a whole Barrel served at the Bar
    give(S, 0, barrels=2)
    assert ru.max_barrels_to_open(S, R, 0, 20) == 2  # only what you own


def test_every_dwarf_is_served_while_barrels_last_whatever_the_bot_asks():
    # L101: each dwarf must be served a Beer. 12 dwarves need 3 Barrels (one more may go to
    # the Bar); asking for 0 or for 9 still opens 3 or 4.
    _, R, S = blank(1)
    give(S, 0, tables=3, barrels=10, fame=1, brawl=1)
    assert [ru.legal_barrels(S, R, 0, 12, k) for k in (0, 2, 3, 4, 9)] == [3, 3, 3, 4, 4]
    give(S, 0, barrels=2)
    assert ru.legal_barrels(S, R, 0, 12, 0) == 2  # all one has
    deal_customers(S, 0, [6, 6])
    give(S, 0, barrels=5)
    ru.serve(S, R, 0, 0, 1.0)
    assert view(S).seat(0).stats.unserved == 0 and view(S).seat(0).barrels == 2
    assert view(S).seat(0).evening == 15  # 12 at Tables + 3 surplus landed at the Bar


def test_random_bot_never_leaves_a_dwarf_dry_while_it_has_barrels():
    from sim.dwarfest import kernel as K

    cfg, R, S = blank(1)
    give(S, 0, tables=3, barrels=10, fame=1, brawl=1)
    deal_customers(S, 0, [5, 4, 4])
    opened = set()
    for seed in range(1, 60):
        T = copy_state(S)
        K.seed_streams(T, np.uint64(seed), 0)
        K.table_service(T, R, 1, seats_with(cfg, "random", 1))
        if view(T).seat(0).stats.refused == 0:
            assert view(T).seat(0).stats.unserved == 0
            opened.add(10 - int(view(T).seat(0).barrels))
    assert opened == {3, 4}  # the bot still chooses the optional Bar Barrel


def test_bar_flicks_land_with_the_given_chance_and_use_the_seat_stream():
    _, R, S = blank()
    S.rng[ru.dice_stream(0)] = 12345
    assert ru.flick_beers(S, R, 0, 50, 1.0) == 50
    assert ru.flick_beers(S, R, 0, 50, 0.0) == 0
    landed = ru.flick_beers(S, R, 0, 20000, 0.6)
    assert 0.57 < landed / 20000 < 0.63


# --- Brawls ----------------------------------------------------------------------------------------

def test_brawl_destroys_tables_one_point_each_until_back_at_the_limit():
    _, R, S = blank()
    give(S, 0, tables=5, barrels=3, dancers=2, fame=6, brawl=8)
    ru.wreck(S, R, 0, 0)
    assert view(S).seat(0).tables == 2
    assert view(S).seat(0).brawl == 5
    seat0 = view(S).seat(0)
    assert (seat0.barrels, seat0.dancers, seat0.fame) == (3, 2, 6)


def test_brawl_then_all_barrels_then_all_dancers_with_fame_loss():
    _, R, S = blank()
    give(S, 0, tables=1, barrels=4, dancers=2, fame=7, brawl=8, till=9)
    ru.wreck(S, R, 0, 0)
    # 8 -> 7 (one Table) -> 6 (all Barrels) -> 5 (all Dancers, -2 Fame each)
    seat0 = view(S).seat(0)
    assert (seat0.tables, seat0.barrels, seat0.dancers) == (0, 0, 0)
    assert view(S).seat(0).brawl == 5
    assert view(S).seat(0).fame == 3
    assert view(S).seat(0).stats.destroyed == 0
    assert view(S).seat(0).till == 9


def test_brawl_still_above_the_limit_destroys_the_tavern_and_it_starts_over():
    cfg, R, S = blank()
    give(S, 0, tables=1, barrels=1, dancers=1, fame=9, brawl=12, till=30, evening=14)
    view(S).seat(0).tavern[card(cfg, "barmaid")] = 1
    ru.wreck(S, R, 0, 0)
    assert view(S).seat(0).stats.destroyed == 1
    assert view(S).seat(0).till == 10 and view(S).seat(0).evening == 0  # all Nuggets lost, setup again
    seat0 = view(S).seat(0)
    assert (seat0.tables, seat0.barrels, seat0.fame, seat0.brawl) == (2, 2, 1, 1)
    assert view(S).seat(0).tavern.sum() == 0
    assert view(S).game.tavern_discards == 1  # the Barmaid went to the discard pile


def test_tavern_destroyed_in_the_last_evening_has_no_next_turn_and_scores_nothing():
    # L121: the restart happens on the next turn; after Evening 5 there is none.
    for evening, till in ((3, 10), (4, 0)):
        _, R, S = blank()
        view(S).game.evening = evening
        give(S, 0, tables=1, brawl=9, till=3, evening=4)
        ru.wreck(S, R, 0, 0)
        assert view(S).seat(0).stats.destroyed == 1
        assert (view(S).seat(0).till, view(S).seat(0).evening) == (till, 0), evening
        assert view(S).seat(0).tables == (2 if till else 0)


def test_bouncer_can_be_sacrificed_at_the_last_moment_after_the_tables_went():
    # L119: a Bouncer may be sacrificed at any moment, also when only destruction is left.
    from sim.dwarfest import kernel as K

    cfg, R, S = blank(sets=["policies.greedy.bouncer_excess=5"])  # keep the Bouncer while it can
    bouncer = card(cfg, "bouncer")
    view(S).seat(0).tavern[bouncer] = 1
    give(S, 0, tables=1, brawl=8, till=20)
    K.fight(S, R, 0, cfg.policy_index("greedy"), 0)
    assert view(S).seat(0).tables == 0 and view(S).seat(0).tavern[bouncer] == 0  # Table first, then the Bouncer
    assert view(S).seat(0).brawl == 5
    assert view(S).seat(0).stats.destroyed == 0 and view(S).seat(0).till == 20


def test_bouncer_sacrifice_lowers_the_brawl_by_two():
    cfg, R, S = blank()
    bouncer = card(cfg, "bouncer")
    view(S).seat(0).tavern[bouncer] = 2
    give(S, 0, tables=3, brawl=9)
    assert ru.sacrifice_bouncer(S, R, 0, 0)
    assert view(S).seat(0).brawl == 7 and view(S).seat(0).tavern[bouncer] == 1
    assert ru.sacrifice_bouncer(S, R, 0, 0)
    assert not ru.sacrifice_bouncer(S, R, 0, 0)  # none left
    assert view(S).seat(0).brawl == 5


def test_epic_limit_is_four():
    _, R, S = blank(variant="epic")
    give(S, 0, tables=5, brawl=6)
    ru.wreck(S, R, 0, 0)
    assert view(S).seat(0).tables == 3 and view(S).seat(0).brawl == 4


def test_alcoholic_sips_calm_a_brawl_by_one_each_at_most_three():
    _, R, S = blank(variant="alcoholic")
    give(S, 0, sips=10, brawl=11)
    ru.calm_with_sips(S, R, 0, 5)
    assert view(S).seat(0).brawl == 8 and view(S).seat(0).sips == 7
    assert view(S).seat(0).stats.sips_used == 3


@pytest.mark.parametrize("variant", ["alcoholic", "alcoholic_epic"])
def test_alcoholic_opening_toast_and_no_sip_limit_unless_a_budget_is_set(variant):
    # L143: everyone toasts when play begins; L145-L147 set no limit on sips.
    from sim.dwarfest.kernel import seed_streams

    for sets, left in (([], C.UNLIMITED_SIPS - 1), (["sip_budget=1"], 15 - 1)):
        _, R, S = blank(3, variant=variant, sets=sets)
        seed_streams(S, np.uint64(1), 0)
        ru.setup_decks(S, R)
        ru.setup_players(S, R, 3)
        assert [p.sips for p in view(S).seats(3)] == [left] * 3
        assert [p.stats.sips_used for p in view(S).seats(3)] == [1, 1, 1]


def test_wasted_beer_makes_everyone_drink_but_drains_no_budget_by_default():
    # L158 (ALCOHOLIC+EPIC): every wasted Beer makes everyone drink; drinking costs nothing.
    _, R, S = blank(3, variant="alcoholic_epic")
    for seat in range(3):
        give(S, seat, sips=C.UNLIMITED_SIPS)
    S.rng[ru.dice_stream(0)] = 5
    assert ru.flick_beers(S, R, 0, 4, 0.0) == 0
    assert [p.stats.sips_used for p in view(S).seats(3)] == [4, 4, 4]
    give(S, 1, brawl=9)
    ru.calm_with_sips(S, R, 1, 3)  # a rival's spills leave its Brawl sips intact
    assert view(S).seat(1).brawl == 6


def test_with_a_sip_budget_rivals_spills_drain_it():
    _, R, S = blank(2, variant="alcoholic_epic", sets=["sip_budget=1"])
    give(S, 0, sips=2)
    give(S, 1, sips=2)
    S.rng[ru.dice_stream(0)] = 5
    ru.flick_beers(S, R, 0, 3, 0.0)
    assert [p.sips for p in view(S).seats(2)] == [0, 0]  # the budget is spent, never below zero


def test_alcoholic_card_costs_one_nugget_plus_sips():
    cfg, R, S = blank(variant="alcoholic")
    barmaid = card(cfg, "barmaid")  # cost 4
    assert ru.sips_for(R, barmaid, 10) == 3
    assert ru.nugget_price(R, barmaid, 3) == 1
    assert ru.sips_for(R, barmaid, 2) == 0  # not enough sips: pay in Nuggets
    _, R_base, _ = blank()
    assert ru.sips_for(R_base, barmaid, 10) == 0  # only in the ALCOHOLIC variants


# --- Restocking, Opening, Cash-in -------------------------------------------------------------------

def test_restock_reveal_pays_buys_and_plays_cards_into_any_tavern():
    cfg, R, S = blank(2)
    troublemaker, bard = card(cfg, "troublemaker"), card(cfg, "wandering_bard")
    give(S, 0, till=20, fame=1)
    view(S).seat(0).hand[troublemaker] = 1
    view(S).seat(0).hand[bard] = 1
    give(S, 0, buy_tables=1, buy_barrels=2, buy_dancers=1)  # 4 + 2 + 3 Nuggets
    S.plays[0, 0] = [troublemaker, 1, 0]
    S.plays[0, 1] = [bard, 0, 0]
    give(S, 0, n_plays=2)
    ru.carry_out_restock(S, R, 0, 0)
    assert view(S).seat(0).till == 20 - 9 - 2 - 3
    seat0 = view(S).seat(0)
    assert (seat0.tables, seat0.barrels, seat0.dancers) == (1, 2, 1)
    assert view(S).seat(0).fame == 1 + 2 + 3  # Dancer +2, Wandering Bard +3
    assert view(S).seat(1).tavern[troublemaker] == 1 and view(S).seat(0).tavern[bard] == 1
    assert view(S).seat(0).hand.sum() == 0


def test_nuggets_set_aside_for_an_unplayable_card_are_lost():
    cfg, R, S = blank(2)
    tap = card(cfg, "golden_tap")  # not stackable, cost 5
    give(S, 0, till=10)
    view(S).seat(0).tavern[tap] = 1
    view(S).seat(0).hand[tap] = 1
    S.plays[0, 0] = [tap, 0, 0]
    give(S, 0, n_plays=1)
    ru.carry_out_restock(S, R, 0, 0)
    assert view(S).seat(0).till == 5
    assert view(S).seat(0).tavern[tap] == 1 and view(S).seat(0).hand[tap] == 1


def test_opening_order_by_fame_ties_to_the_dealer_then_clockwise():
    _, R, S = blank(4)
    for seat, fame in enumerate([3, 5, 3, 3]):
        give(S, seat, fame=fame)
    order = np.zeros(4, np.int64)
    ru.fame_order(S, 4, 2, order)  # seat 2 deals
    assert list(order) == [1, 2, 3, 0]


def test_customer_cards_drawn_by_the_fame_table_and_deck_reshuffles():
    _, R, S = blank(2)
    fill_customer_deck(S, [5, 4])
    for k, d in enumerate([2, 3, 6]):
        view(S).piles.customer_discards[k] = d
    view(S).game.customer_discards = 3
    got = ru.give_customer_cards(S, 0, 4)
    assert view(S).seat(0).n_drawn == 4
    assert view(S).seat(0).drawn[0] == 5 and view(S).seat(0).drawn[1] == 4  # the deck first, in order
    rest = sorted(view(S).seat(0).drawn[2:4])
    assert rest in ([2, 3], [2, 6], [3, 6])  # then two of the reshuffled discards
    assert got == 9 + sum(rest)
    assert view(S).game.customer_discards == 0 and view(S).game.customer_deck == 1  # discards reshuffled into the deck


def test_starting_brawl_is_one_plus_permanent_card_bonuses():
    cfg, R, S = blank(2)
    view(S).seat(0).tavern[card(cfg, "troublemaker")] = 2  # +2 each
    view(S).seat(0).tavern[card(cfg, "hearth_priestess")] = 1  # -1
    assert ru.starting_brawl(S, R, 0) == 1 + 4 - 1
    view(S).seat(1).tavern[card(cfg, "great_hearth")] = 3
    assert ru.starting_brawl(S, R, 1) == 0  # never below zero


def test_event_effects():
    cfg, R, S = blank(2)
    give(S, 1, dancers=2, fame=6, barrels=3, brawl=2)
    ru.apply_event(S, R, 0, card(cfg, "dancer_lured_away"), 1)
    assert view(S).seat(1).dancers == 1 and view(S).seat(1).fame == 4
    ru.apply_event(S, R, 0, card(cfg, "leaky_barrels"), 1)
    assert view(S).seat(1).barrels == 1
    ru.apply_event(S, R, 0, card(cfg, "rowdy_crowd"), 1)
    assert view(S).seat(1).brawl == 5
    ru.apply_event(S, R, 1, card(cfg, "round_on_the_house"), 1)
    assert view(S).seat(1).brawl == 3


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_deals_five_cards_each_and_the_starting_resources(n):
    from sim.dwarfest.kernel import seed_streams

    _, R, S = blank(n)
    seed_streams(S, np.uint64(1), 0)
    ru.setup_decks(S, R)
    ru.setup_players(S, R, n)
    for seat in range(n):
        assert view(S).seat(seat).hand.sum() == 5
        assert (view(S).seat(seat).till, view(S).seat(seat).tables, view(S).seat(seat).barrels) == (10, 2, 2)
        assert (view(S).seat(seat).fame, view(S).seat(seat).brawl) == (1, 1)
    assert view(S).game.tavern_deck == 61 - 5 * n
    assert view(S).game.customer_deck == 54


def test_the_bank_pays_out_no_more_than_the_printed_240_nuggets():
    # L26-L28: 60 x 1 + 30 x 4 + 6 x 10 = 240 Nuggets in the box.
    _, R, S = blank(2)
    assert ru.bank_left(S, R) == 240
    give(S, 0, till=200, tables=3)
    give(S, 1, till=35)
    ru.settle_service(S, R, 0, 12, 0, 0, 0)  # 12 Beers at Tables, but 5 Nuggets left in the bank
    assert view(S).seat(0).evening == 5 and ru.bank_left(S, R) == 0
    view(S).game.evening = 1
    give(S, 1, tables=0, brawl=9)
    ru.wreck(S, R, 1, 0)  # 35 Nuggets go back to the bank, 10 come out for the restart
    assert view(S).seat(1).till == 10 and ru.bank_left(S, R) == 25
