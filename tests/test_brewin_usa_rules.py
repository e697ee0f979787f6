"""Brewin' USA rules, scenario by scenario, including the rulebook's worked examples.

Chance is forced: decks are stacked by hand, Brewfest discards are named, not drawn.
"""

import numpy as np
import pytest
from brewin_usa_state import (
    bank,
    blank,
    city,
    config,
    demand,
    hand,
    ing,
    on_city,
    seats_policy,
    stack_ingredients,
    to_hand,
)

from sim.brewin_usa import GAME
from sim.brewin_usa import constants as C
from sim.brewin_usa import invariants as inv
from sim.brewin_usa import kernel as K
from sim.brewin_usa import rules as ru
from sim.brewin_usa.state import make_rules, make_state
from sim.core.config import prepare
from sim.core.errors import BrewError


def beer_of_quality(cfg, quality, style=None, adjunct=False):
    for k, bid in enumerate(cfg.beer_ids):
        row = cfg.beer[k]
        if row[C.BF_QUALITY] == quality and (style is None or row[C.BF_STYLE] == C.STYLES.index(style)) \
                and (row[C.BF_ADJ] >= 0) == adjunct:
            return bid
    raise LookupError(quality)


def city_not_preferring(cfg, style, region=None):
    for k in range(len(cfg.city_ids)):
        if cfg.city[k, C.CF_PREF] != C.STYLES.index(style) and (region is None or cfg.city[k, C.CF_REGION] == C.REGIONS.index(region)):
            return k
    raise LookupError(style)


# --- setup -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_caps_cards_and_cities(n):
    cfg = config()
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 100)
    K.seed_streams(S, np.uint64(5), 0)
    S.g[C.G_N] = n
    ru.setup_decks(S, R, n)
    ru.setup_players(S, R, n)
    organic1 = ing(cfg, "organic_1")
    for s in range(n):
        assert S.pl[s, C.BANK] == 15 and S.pl[s, C.COLORED] == 5
        assert S.hand[s].sum() == 3 and S.hand[s, organic1] == 3
        assert ru.beers_in_hand(S, s) == 3
    assert S.g[C.G_BAG] == 85 - 15 * n
    assert S.g[C.G_IDECK] == 116 - 3 * n
    active = S.city[:, C.CT_ACTIVE]
    per_region = [active[R.city[:, C.CF_REGION] == r].sum() for r in range(4)]
    assert per_region == ([2, 2, 2, 2] if n <= 3 else [3, 3, 3, 3])
    assert inv.check_state(S, R, n) == inv.OK


def test_setup_redraw_swaps_at_most_two_beer_cards():
    cfg = config()
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 100)
    K.seed_streams(S, np.uint64(1), 0)
    ru.setup_decks(S, R, 4)
    ru.setup_players(S, R, 4)
    K.redraws(S, R, 4, seats_policy(cfg, "random"))
    for s in range(4):
        assert ru.beers_in_hand(S, s) == 3
    assert 0 <= S.g[C.G_BDISC] <= 8


# --- auction -------------------------------------------------------------------------------------------

def test_batch_stops_at_the_first_repeated_kind_and_keeps_it():
    cfg, R, S = blank()
    stack_ingredients(cfg, S, ["grain_1", "water_2", "hops_1", "grain_3", "yeast_1"])
    ru.build_batch(S, R, 0)
    cards = [cfg.ing_ids[t] for t in S.batch[0, :S.batch[0, C.BT_N]]]
    assert cards == ["grain_1", "water_2", "hops_1", "grain_3"]
    assert S.batch[0, C.BT_HIDDEN] == -1


def test_batch_whose_first_two_cards_match_gets_a_third_card_face_down():
    cfg, R, S = blank()
    stack_ingredients(cfg, S, ["organic_1", "organic_2", "yeast_1", "grain_1"])
    ru.build_batch(S, R, 0)
    assert S.batch[0, C.BT_N] == 3 and S.batch[0, C.BT_HIDDEN] == 2
    assert cfg.ing_ids[S.batch[0, 2]] == "yeast_1"


def test_batch_holds_at_most_six_cards():
    cfg, R, S = blank()
    stack_ingredients(cfg, S, ["grain_1", "water_1", "hops_1", "yeast_1", "organic_1", "berry_1", "coffee_1"])
    ru.build_batch(S, R, 0)
    assert S.batch[0, C.BT_N] == 6 and S.g[C.G_IDECK] == 1


def test_auction_without_caps_nominator_takes_each_batch_and_the_last_is_free():
    # Nobody can raise: the player left of the dealer opens at 0 and wins, the player left of
    # that winner nominates next, and the last player gets the last batch.
    cfg, R, S = blank(3)
    stack_ingredients(cfg, S, ["grain_1", "grain_2", "yeast_1", "water_1", "water_2", "hops_1", "hops_2", "yeast_2", "yeast_3"] * 2)
    S.g[C.G_DEALER] = 0
    K.auction(S, R, 3, seats_policy(cfg, "greedy"), 0)
    owners = sorted(S.batch[:3, C.BT_OWNER])
    assert owners == [0, 1, 2]
    assert (S.batch[:3, C.BT_PRICE] == 0).all()
    assert S.pl[:3, C.HAS_BATCH].tolist() == [1, 1, 1]
    kinds = [r[4] for r in S.ev[:S.g[C.G_EVENTS]]]
    seats = [r[1] for r in S.ev[:S.g[C.G_EVENTS]]]
    assert kinds == [C.LOG_BUY] * 3 and seats == [1, 2, 0]


@pytest.mark.parametrize("seed", range(6))
def test_auction_everyone_buys_one_batch_and_paid_caps_become_market_demand(seed):
    cfg, R, S = blank(4)
    K.seed_streams(S, np.uint64(seed), seed)
    ru.setup_decks(S, R, 4)
    for s in range(4):
        bank(S, s, 15)
    S.g[C.G_DEALER] = seed % 4
    pols = seats_policy(cfg, "random")
    pols[1] = pols[3] = cfg.policy_index("greedy")
    before = S.city[:, C.CT_DEMAND].sum()
    K.auction(S, R, 4, pols, 0)
    prices = S.batch[:4, C.BT_PRICE]
    assert sorted(S.batch[:4, C.BT_OWNER]) == [0, 1, 2, 3]
    assert (S.pl[:4, C.BANK] == 15 - np.array([prices[S.batch[:4, C.BT_OWNER] == s].sum() for s in range(4)])).all()
    assert S.city[:, C.CT_DEMAND].sum() - before == prices.sum()  # all cities are free
    assert inv.check_state(S, R, 4) == inv.OK


def test_auction_caps_go_to_the_bag_when_no_city_is_free():
    cfg, R, S = blank(2)
    # every city held by one of the two players
    for c in range(C.N_CITIES):
        b = c
        S.beer[b] = (C.LOC_CITY, c % 2, c, 0)
        S.city[c, C.CT_BEER] = b
    assert ru.count_unclaimed(S) == 0
    for p in ("greedy", "random"):
        assert K.pol.demand_city(S, R, 0, cfg.policy_index(p)) == -1
    bag = S.g[C.G_BAG]
    ru.add_demand(S, -1, 4)
    assert S.g[C.G_BAG] == bag + 4


def test_bids_never_exceed_the_bank_and_a_penniless_player_cannot_win_a_bid():
    cfg, R, S = blank(3)
    K.seed_streams(S, np.uint64(3), 3)
    ru.setup_decks(S, R, 3)
    bank(S, 0, 2)
    bank(S, 1, 0)
    bank(S, 2, 9)
    for b in range(3):
        ru.build_batch(S, R, b)
    pols = seats_policy(cfg, "random")
    for _ in range(20):
        S.pl[:, C.HAS_BATCH] = 0
        winner, price = K.bidding(S, R, 3, pols, 0, 0, 0)
        assert price <= S.pl[winner, C.BANK]
        assert winner != 1 or price == 0


# --- recipes and launching ------------------------------------------------------------------------------

def test_recipe_needs_each_core_ingredient_at_or_above_its_quality():
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("golden_pils")  # grain 1, water 1, hops 1, yeast 2
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_1", "water_1", "hops_3", "yeast_1")
    assert ru.match_recipe(S, R, S.hand[0], use, bt, False) == 4  # yeast 1 is below 2
    hand(cfg, S, 0, "yeast_2")
    assert ru.match_recipe(S, R, S.hand[0], use, bt, False) == 5
    assert use[ing(cfg, "hops_3")] == 1  # exceeding the recipe is allowed (and gives nothing)


def test_organic_stands_in_for_any_core_ingredient():
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("golden_pils")
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "organic_1", "organic_1", "organic_1", "organic_2")
    assert ru.match_recipe(S, R, S.hand[0], use, bt, False) == 5
    assert use[ing(cfg, "organic_2")] == 1  # the quality-2 Organic went to the yeast slot


def test_one_quality_point_may_be_bought():
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("golden_pils")
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_1", "water_1", "hops_1", "yeast_1")
    assert ru.match_recipe(S, R, S.hand[0], use, bt, True) == 5
    assert S.g[C.G_BUY_SLOT] == C.YEAST


def test_required_adjunct_must_be_in_hand():
    cfg, R, S = blank()
    bid = beer_of_quality(cfg, [r[C.BF_QUALITY] for r in cfg.beer if r[C.BF_ADJ] == C.PUMPKIN][0], adjunct=True)
    bt = cfg.beer_ids.index(bid)
    assert cfg.beer[bt, C.BF_ADJ] == C.PUMPKIN
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_5", "water_5", "hops_5", "yeast_5")
    assert ru.match_recipe(S, R, S.hand[0], use, bt, False) == 4
    hand(cfg, S, 0, "pumpkin_1")
    assert ru.match_recipe(S, R, S.hand[0], use, bt, False) == 5


def test_launch_claims_a_free_city_spends_cards_and_refills_the_beer_hand():
    cfg, R, S = blank(2)
    bank(S, 0, 10)
    b = to_hand(cfg, S, 0, "golden_pils")
    to_hand(cfg, S, 0, "triple_ipa")
    to_hand(cfg, S, 0, "gose")
    hand(cfg, S, 0, "grain_1", "water_1", "hops_1", "yeast_1", "grain_4")
    pols = seats_policy(cfg, "greedy")
    K.launch_new(S, R, 2, pols, 0, b, 0)
    assert S.beer[b, C.B_LOC] == C.LOC_CITY and S.city[S.beer[b, C.B_CITY], C.CT_BEER] == b
    assert S.pl[0, C.COLORED] == 4 and S.pl[0, C.LAUNCHED] == 1
    assert S.pl[0, C.BANK] == 7  # one quality bought for 3 caps, back to the bag
    assert S.hand[0].sum() == 1 and S.hand[0, ing(cfg, "grain_4")] == 1
    assert S.g[C.G_IDISC] == 4
    assert ru.beers_in_hand(S, 0) == 3  # 2 left, drew 2, discarded 1
    assert S.g[C.G_BDISC] == 1
    ev = S.ev[0]
    assert ev[4] == C.LOG_PLAY and ev[3] == cfg.beer_ids.index("golden_pils") and ev[5] == 3


def test_launch_on_a_held_city_is_a_challenge():
    cfg, R, S = blank(2)
    c = city(cfg, "denver")
    on_city(cfg, S, 1, "gose", c)
    b = to_hand(cfg, S, 0, "golden_pils")
    ru.place_beer(S, b, 0, c)
    assert S.beer[b, C.B_LOC] == C.LOC_FEST and S.city[c, C.CT_FEST] == 1
    assert S.pl[0, C.ST_CHALLENGES] == 1
    assert not ru.legal_target(S, 0, c)  # one beer per player in a Brewfest
    assert not ru.legal_target(S, 1, c)  # nobody challenges their own city


def test_relaunch_of_a_skunked_beer_costs_five_caps():
    cfg, R, S = blank(2)
    bank(S, 0, 6)
    b = on_city(cfg, S, 0, "golden_pils", 0)
    S.city[0, C.CT_BEER] = -1
    ru.skunk(S, b)
    pols = seats_policy(cfg, "random")
    assert K.pol.can_relaunch(S, R, 0, b)
    K.relaunch(S, R, 0, pols, b, 0)
    assert S.pl[0, C.BANK] == 1 and S.beer[b, C.B_LOC] == C.LOC_CITY
    assert S.pl[0, C.LAUNCHED] == 1  # a relaunch is not a new beer
    assert not K.pol.can_relaunch(S, R, 0, b)


# --- adjuncts -------------------------------------------------------------------------------------------

def test_coffee_takes_one_cap_from_each_other_player():
    cfg, R, S = blank(4)
    bank(S, 0, 1)
    bank(S, 1, 3)
    bank(S, 2, 0)
    bank(S, 3, 5)
    assert ru.coffee(S, R, 0, 4) == 2
    assert S.pl[:4, C.BANK].tolist() == [3, 2, 0, 4]


def test_pumpkin_draws_two_ingredient_cards():
    cfg, R, S = blank(2)
    stack_ingredients(cfg, S, ["hops_2", "coffee_1", "grain_1"])
    assert ru.pumpkin(S, R, 1) == 2
    assert S.hand[1, ing(cfg, "hops_2")] == 1 and S.hand[1, ing(cfg, "coffee_1")] == 1


def test_berry_swaps_two_market_demand_stacks():
    cfg, R, S = blank(2)
    demand(S, 2, 5)
    demand(S, 7, 1)
    ru.berry(S, 2, 7)
    assert S.city[2, C.CT_DEMAND] == 1 and S.city[7, C.CT_DEMAND] == 5


def test_citrus_moves_a_skunked_beer_back_onto_the_map():
    cfg, R, S = blank(2)
    b = on_city(cfg, S, 0, "golden_pils", 0)
    S.city[0, C.CT_BEER] = -1
    ru.skunk(S, b)
    K.adjunct_action(S, R, 2, seats_policy(cfg, "greedy"), 0, C.CITRUS)
    assert S.beer[b, C.B_LOC] == C.LOC_CITY
    assert inv.check_state(S, R, 2) in (inv.OK, inv.CAPS, inv.INGREDIENTS)


# --- brewfests --------------------------------------------------------------------------------------------

SCORES = np.zeros(C.MAX_PLAYERS, np.int64)


def fest(cfg, R, S, c, commits, discards):
    """Run a Brewfest at c with forced commitments {seat: [card ids]} and discards
    {victim seat: index of the committed card lost}. Returns (winner, winner's pile); the
    Brewfest scores are left in SCORES."""
    n = S.g[C.G_N]
    ru.fest_setup(S, c, n)
    for s, cards in commits.items():
        for cid in cards:
            S.hand[s, ing(cfg, cid)] += 1
            ru.commit_card(S, s, ing(cfg, cid))
    for victim, i in discards.items():
        ru.discard_committed(S, victim, i)
    winner = ru.fest_winner(S, R, c, n)
    SCORES[:] = S.fest[:, C.F_SCORE]
    ru.return_commits(S, n)
    return winner, ru.settle_fest(S, R, c, n, winner, 0)


def test_rulebook_brewfest_example_ten_against_eleven():
    # A quality-7 beer with cards 1 + 2 + 1 left (a 1 discarded) against the quality-10 beer with
    # a 1 left (its 5 discarded). The rulebook prints the first total as 10, but 7 + 1 + 2 + 1 is
    # 11: a tie at 11, which the defender (the quality-10 beer here) wins. Either way the
    # quality-10 beer keeps the city, as in the example.
    cfg, R, S = blank(2)
    c = city(cfg, "chicago")
    q10 = on_city(cfg, S, 1, beer_of_quality(cfg, 10), c)
    q7 = to_hand(cfg, S, 0, beer_of_quality(cfg, 7))
    ru.place_beer(S, q7, 0, c)
    winner, _ = fest(cfg, R, S, c, {0: ["grain_1", "water_2", "hops_1", "yeast_1"], 1: ["grain_5", "water_1"]},
                     {0: 3, 1: 0})
    assert SCORES[0] == 11 and SCORES[1] == 11
    assert winner == 1
    assert S.beer[q7, C.B_LOC] == C.LOC_SKUNKED and S.city[c, C.CT_BEER] == q10
    assert S.hand[0].sum() == 3 and S.hand[1].sum() == 1  # survivors return to hand
    assert S.g[C.G_IDISC] == 2


def test_the_defender_wins_a_tie():
    cfg, R, S = blank(2)
    c = city(cfg, "boston")
    d = on_city(cfg, S, 1, beer_of_quality(cfg, 7), c)
    a = to_hand(cfg, S, 0, beer_of_quality(cfg, 7, style="ipa"))
    ru.place_beer(S, a, 0, c)
    winner, _ = fest(cfg, R, S, c, {0: ["grain_2"], 1: ["water_2"]}, {})
    assert SCORES[0] == SCORES[1] == 9
    assert winner == 1 and S.city[c, C.CT_BEER] == d
    assert S.pl[0, C.ST_FESTS_LOST] == 1 and S.pl[1, C.ST_FESTS_WON] == 1


def test_a_winning_challenger_takes_the_city_and_the_defender_is_skunked():
    cfg, R, S = blank(2)
    c = city(cfg, "boston")
    d = on_city(cfg, S, 1, beer_of_quality(cfg, 7), c)
    a = to_hand(cfg, S, 0, beer_of_quality(cfg, 10))
    ru.place_beer(S, a, 0, c)
    winner, _ = fest(cfg, R, S, c, {}, {})
    assert winner == 0 and S.city[c, C.CT_BEER] == a and S.beer[d, C.B_LOC] == C.LOC_SKUNKED
    assert S.pl[1, C.COLORED] == 4  # a skunked beer keeps its cap


def test_market_demand_split_in_equal_piles_with_the_remainder_to_the_winner():
    # 7 Market Demand, three participants: piles of 2, the winner's pile 2 + 1.
    cfg, R, S = blank(3)
    c = city(cfg, "austin")
    demand(S, c, 7)
    on_city(cfg, S, 2, beer_of_quality(cfg, 13), c)
    for s, st in ((0, "sour"), (1, "wheat")):
        ru.place_beer(S, to_hand(cfg, S, s, beer_of_quality(cfg, 6, style=st)), s, c)
    winner, pile = fest(cfg, R, S, c, {}, {})
    assert winner == 2 and pile == 3
    assert S.fest[0, C.F_SCORE] == 2 and S.fest[1, C.F_SCORE] == 2  # losers' piles to place
    assert S.city[c, C.CT_DEMAND] == 0


def test_brewfest_cleanup_loser_piles_go_to_free_cities_and_caps_are_conserved():
    cfg, R, S = blank(3)
    c = city(cfg, "austin")
    demand(S, c, 7)
    for s in range(3):
        bank(S, s, 4)
        hand(cfg, S, s, "grain_2", "water_3")
    on_city(cfg, S, 2, beer_of_quality(cfg, 13), c)
    for s, st in ((0, "sour"), (1, "wheat")):
        ru.place_beer(S, to_hand(cfg, S, s, beer_of_quality(cfg, 6, style=st)), s, c)
    S.g[C.G_IDECK] = 116 - 6  # the rest of the deck (only conservation of caps is checked)
    before = S.g[C.G_BAG] + S.pl[:3, C.BANK].sum() + S.city[:, C.CT_DEMAND].sum()
    K.brewfest(S, R, 3, seats_policy(cfg, "greedy"), c, 0)
    after = S.g[C.G_BAG] + S.pl[:3, C.BANK].sum() + S.city[:, C.CT_DEMAND].sum()
    assert before == after
    others = S.city[:, C.CT_DEMAND].sum() - S.city[c, C.CT_DEMAND]
    assert others == 4  # the two losers' piles of 2 went to free cities
    assert S.city[c, C.CT_FEST] == 0


# --- income and scoring ------------------------------------------------------------------------------------

def test_income_one_cap_per_city_holding_beer_while_the_bag_lasts():
    cfg, R, S = blank(2)
    on_city(cfg, S, 0, "golden_pils", 0)
    on_city(cfg, S, 0, "gose", 4)
    on_city(cfg, S, 1, "witbier", 8)
    ru.income(S, R, 2)
    assert S.pl[0, C.BANK] == 2 and S.pl[1, C.BANK] == 1
    S.g[C.G_BAG] = 1
    ru.income(S, R, 2)
    assert S.pl[0, C.BANK] + S.pl[1, C.BANK] == 4


def test_rulebook_city_example_pilsner_on_a_city_preferring_another_style():
    # A Pilsner/Lager of quality 7 on a city that prefers another style, 4 Market Demand:
    # 4 VP for the city, 7 for the beer.
    cfg, R, S = blank(2)
    c = city_not_preferring(cfg, "pilsner_lager")
    demand(S, c, 4)
    on_city(cfg, S, 0, beer_of_quality(cfg, 7, style="pilsner_lager"), c)
    ru.final_score(S, R, 2)
    assert S.pl[0, C.VP_CITIES] == 4 and S.pl[0, C.VP_BEERS] == 7


def test_matching_style_doubles_the_city():
    cfg, R, S = blank(2)
    c = city(cfg, "chicago")  # prefers stout_porter
    demand(S, c, 4)
    on_city(cfg, S, 0, beer_of_quality(cfg, 7, style="stout_porter"), c)
    ru.final_score(S, R, 2)
    assert S.pl[0, C.VP_CITIES] == 8


def test_rulebook_region_example_orange_25_pink_12():
    # Central: Orange holds two cities (3 Market Demand unmatched = 3 VP, 1 matched = 2 VP), Pink
    # the third (1 matched = 2 VP). Orange holds the region: its 5 Market Demand. Orange's beers
    # total 15 quality, Pink's 10. Orange 5 + 3 + 2 + 15 = 25, Pink 0 + 2 + 10 = 12.
    cfg, R, S = blank(2)
    central = [k for k in range(12) if cfg.city[k, C.CF_REGION] == C.REGIONS.index("central")]
    top, mid, bot = central

    def pref(k):
        return C.STYLES[cfg.city[k, C.CF_PREF]]

    demand(S, top, 3)
    demand(S, mid, 1)
    demand(S, bot, 1)
    other = [s for s in C.STYLES if s != pref(top)]
    on_city(cfg, S, 0, beer_of_quality(cfg, 7, style=other[0]), top)
    on_city(cfg, S, 0, beer_of_quality(cfg, 8, style=pref(mid)), mid)
    on_city(cfg, S, 1, beer_of_quality(cfg, 10, style=pref(bot)), bot)
    ru.final_score(S, R, 2)
    assert (S.pl[0, C.VP_REGIONS], S.pl[0, C.VP_CITIES], S.pl[0, C.VP_BEERS], S.pl[0, C.SCORE]) == (5, 5, 15, 25)
    assert (S.pl[1, C.VP_REGIONS], S.pl[1, C.VP_CITIES], S.pl[1, C.VP_BEERS], S.pl[1, C.SCORE]) == (0, 2, 10, 12)


def test_a_tied_region_scores_for_nobody_and_skunked_beers_keep_their_quality():
    cfg, R, S = blank(2)
    pacific = [k for k in range(12) if cfg.city[k, C.CF_REGION] == 0]
    demand(S, pacific[0], 2)
    on_city(cfg, S, 0, "golden_pils", pacific[0])
    on_city(cfg, S, 1, "gose", pacific[1])
    b = on_city(cfg, S, 1, "witbier", pacific[2])
    S.city[pacific[2], C.CT_BEER] = -1
    ru.skunk(S, b)
    ru.final_score(S, R, 2)
    assert S.pl[0, C.VP_REGIONS] == 0 and S.pl[1, C.VP_REGIONS] == 0
    assert S.pl[1, C.VP_BEERS] == sum(cfg.beer[cfg.beer_ids.index(x), C.BF_QUALITY] for x in ("gose", "witbier"))


# --- the end ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_third_beer_triggers_the_end_after_one_more_round(seed):
    cfg = config()
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 1000, 20000)
    pols = seats_policy(cfg, "greedy")
    K.play_game(S, R, 4, pols, np.uint64(seed), 0, True)
    assert S.g[C.G_VIOLATION] == 0
    rows = S.trace[:S.g[C.G_TRACE]]
    trig = rows[rows[:, 0] == C.TR_TRIGGER]
    assert len(trig) == 1
    assert S.g[C.G_ROUND] == trig[0, 1] + 2  # the trigger round, then one more
    launched = S.pl[:4, C.LAUNCHED]
    assert launched[trig[0, 2]] >= 3


# --- data validation ----------------------------------------------------------------------------------------

def test_unknown_field_is_named():
    data = prepare("brewin_usa", "base", [], [])
    data.tree["beer_cards"]["beer"][0]["colour"] = "gold"
    with pytest.raises(BrewError, match=r"beer_cards.toml: beer 'golden_pils': unknown field 'colour'"):
        GAME.build(data)


def test_deck_size_must_add_up():
    with pytest.raises(BrewError, match=r"ingredient_cards.toml: card counts add up to 117"):
        GAME.build(prepare("brewin_usa", "base", ["ingredient_cards.grain_1.count=6"], []))


def test_unknown_kind_and_city_region_are_named():
    data = prepare("brewin_usa", "base", ["cities.denver.region=texas"], [])
    with pytest.raises(BrewError, match=r"cities.toml: city 'denver': region 'texas'"):
        GAME.build(data)
