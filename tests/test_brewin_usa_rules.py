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
    full_ingredient_deck,
    hand,
    ing,
    on_city,
    seats_policy,
    stack_ingredients,
    take_from_deck,
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
    before = [{b for b in range(C.BEER_DECK) if S.beer[b, C.B_LOC] == C.LOC_HAND and S.beer[b, C.B_OWNER] == s}
              for s in range(4)]
    deck_top = list(S.piles[C.PILE_BDECK, :S.g[C.G_BDECK]][::-1])  # next cards drawn, in order
    K.redraws(S, R, 4, seats_policy(cfg, "random"))
    swapped_total = 0
    for s in range(4):
        now = {b for b in range(C.BEER_DECK) if S.beer[b, C.B_LOC] == C.LOC_HAND and S.beer[b, C.B_OWNER] == s}
        gone = before[s] - now
        assert len(now) == 3 and len(gone) <= 2
        for b in gone:  # a swapped card lies in the beer discards
            assert S.beer[b, C.B_LOC] == C.LOC_DISC
        new_cards = now - before[s]
        assert len(new_cards) == len(gone)
        assert sorted(new_cards) == sorted(deck_top[:len(gone)])  # replaced from the top of the deck
        deck_top = deck_top[len(gone):]
        swapped_total += len(gone)
    assert S.g[C.G_BDISC] == swapped_total > 0  # the random bot does swap on this seed
    assert S.g[C.G_BDECK] == 36 - 12 - swapped_total
    assert inv.check_state(S, R, 4) == inv.OK


def test_setup_redraw_never_swaps_more_than_two_even_when_every_card_is_unwanted():
    # a bot that redraws any beer whose recipe totals more than 0 wants all three gone
    cfg = config(["policies.greedy.redraw_req_sum=0"])
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 100)
    K.seed_streams(S, np.uint64(2), 0)
    ru.setup_decks(S, R, 2)
    ru.setup_players(S, R, 2)
    K.redraws(S, R, 2, seats_policy(cfg, "greedy"))
    assert S.g[C.G_BDISC] == 4  # two per player


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


def test_the_purchase_goes_where_it_completes_the_recipe():
    # Dark Bock needs 3/3/3/3. Grain 3, Water 2, Hops 3, Yeast 1 and Organic 3: the Organic must
    # fill Yeast and the bought point must lift Water 2 to 3 (a fit that gives the Organic to the
    # most demanding open slot first and buys afterwards misses this launch).
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("dark_bock")
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_3", "water_2", "hops_3", "yeast_1", "organic_3")
    assert ru.match_recipe(S, R, S.hand[0], use, bt, False) == 4
    assert ru.match_recipe(S, R, S.hand[0], use, bt, True) == 5
    assert S.g[C.G_BUY_SLOT] == C.WATER
    assert use[ing(cfg, "organic_3")] == 1 and use[ing(cfg, "water_2")] == 1 and use[ing(cfg, "yeast_1")] == 0


def test_no_purchase_when_the_cards_already_fit():
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("golden_pils")
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_1", "water_1", "hops_1", "yeast_1", "organic_2")
    assert ru.match_recipe(S, R, S.hand[0], use, bt, True) == 5
    assert S.g[C.G_BUY_SLOT] == -1 and use[ing(cfg, "organic_2")] == 1


def exhaustive_fit(cfg, held, bt, mode):
    """Whether some assignment of held cards (and at most one purchase) fills the four slots."""
    import itertools
    req = [int(cfg.beer[bt, C.BF_REQ + k]) for k in range(4)]
    cards = [(cfg.ing[t, C.IF_KIND], cfg.ing[t, C.IF_Q]) for t in held]
    options = [None, *range(len(cards))]
    for pick in itertools.product(options, repeat=4):
        chosen = [i for i in pick if i is not None]
        if len(set(chosen)) < len(chosen):
            continue
        buys = 0
        for slot, i in enumerate(pick):
            if i is None:
                buys += 1 if mode == C.BUY_INGREDIENT else 99
                continue
            kind, q = cards[i]
            if kind not in (slot, C.ORGANIC):
                buys += 99
            elif q < req[slot]:
                lifted = q + 1 >= req[slot] if mode == C.BUY_POINT else True
                buys += 1 if lifted else 99
        if buys <= 1:
            return True
    return False


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_the_matcher_finds_every_legal_launch(mode):
    """Against an exhaustive search over random hands, for each reading of the purchase."""
    cfg, R, S = blank(sets=[f"params.quality_purchase={mode}"])
    use = S.scratch[C.SC_USE]
    rng = np.random.default_rng(13)
    core = [t for t in range(len(cfg.ing_ids)) if cfg.ing[t, C.IF_KIND] <= C.ORGANIC]
    plain = [bt for bt in range(len(cfg.beer_ids)) if cfg.beer[bt, C.BF_ADJ] < 0]
    agree = 0
    for _ in range(400):
        held = list(rng.choice(core, size=5))
        bt = int(rng.choice(plain))
        S.hand[0] = 0
        for t in held:
            S.hand[0, t] += 1
        expect = exhaustive_fit(cfg, held, bt, mode)
        assert (ru.match_recipe(S, R, S.hand[0], use, bt, True) == 5) == expect, (held, bt)
        agree += expect
    assert 40 < agree < 360  # both outcomes are exercised


def test_purchase_readings_differ_as_the_rulebook_words_allow():
    # Golden Pils yeast 2 with Yeast 1: every reading buys it. Dark Bock (3/3/3/3) with Water 1:
    # one point is not enough, raising the card is; with no Water card, only buying the
    # ingredient outright works.
    cases = {"point": (True, False, False), "raise": (True, True, False), "ingredient": (True, True, True)}
    for mode, name in enumerate(("point", "raise", "ingredient")):
        cfg, R, S = blank(sets=[f"params.quality_purchase={mode}"])
        use = S.scratch[C.SC_USE]
        got = []
        for bid, cards in (("golden_pils", ("grain_1", "water_1", "hops_1", "yeast_1")),
                           ("dark_bock", ("grain_3", "water_1", "hops_3", "yeast_3")),
                           ("dark_bock", ("grain_3", "hops_3", "yeast_3"))):
            S.hand[0] = 0
            hand(cfg, S, 0, *cards)
            got.append(ru.match_recipe(S, R, S.hand[0], use, cfg.beer_ids.index(bid), True) == 5)
        assert tuple(got) == cases[name], name


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
    full_ingredient_deck(cfg, S)
    b = on_city(cfg, S, 0, "golden_pils", 0)
    S.city[0, C.CT_BEER] = -1
    ru.skunk(S, b)
    assert inv.check_state(S, R, 2) == inv.OK
    K.adjunct_action(S, R, 2, seats_policy(cfg, "greedy"), 0, C.CITRUS)
    assert S.beer[b, C.B_LOC] == C.LOC_CITY
    assert S.city[S.beer[b, C.B_CITY], C.CT_BEER] == b
    assert inv.check_state(S, R, 2) == inv.OK


@pytest.mark.parametrize("seed", range(8))
def test_citrus_never_puts_a_beer_back_on_the_city_it_left(seed):
    # the random bot may move a city-holding beer: it must end somewhere else
    cfg, R, S = blank(2)
    full_ingredient_deck(cfg, S)
    K.seed_streams(S, np.uint64(seed), seed)
    for c in range(C.N_CITIES):
        if c not in (3, 9):
            S.city[c, C.CT_ACTIVE] = 0
    b = on_city(cfg, S, 0, "golden_pils", 3)
    K.adjunct_action(S, R, 2, seats_policy(cfg, "random"), 0, C.CITRUS)
    assert S.city[3, C.CT_ACTIVE] == 1
    if S.city[3, C.CT_BEER] != b:  # it moved: to the only other city
        assert S.beer[b, C.B_CITY] == 9 and S.city[9, C.CT_BEER] == b
    assert inv.check_state(S, R, 2) == inv.OK


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


# seeds on which the blind discards fall as printed (the quality-7 beer loses a 1, the other its 5)
EXAMPLE_SEEDS = {"quality_10": 5, "quality_7": 0}


@pytest.mark.parametrize("defender", ["quality_10", "quality_7"])
def test_rulebook_brewfest_example_ten_against_eleven(defender):
    # As printed: the quality-7 beer enters 1 + 2 + 1 and loses a 1 at random, 7 + 2 + 1 = 10;
    # the quality-10 beer enters 1 + 5 and loses the 5, 10 + 1 = 11. The listed 1 + 2 + 1 are
    # the cards entered (the discarded 1 among them), so the quality-10 beer wins outright,
    # whichever of the two defends. Played through the phase function kernel.brewfest; the
    # seed is one on which the blind discards fall on a 1 and on the 5, as in the example.
    cfg, R, S = blank(2, trace=200)
    full_ingredient_deck(cfg, S)
    c = city(cfg, "chicago")
    q10_id, q7_id = beer_of_quality(cfg, 10), beer_of_quality(cfg, 7)
    q10_seat, q7_seat = (1, 0) if defender == "quality_10" else (0, 1)
    holder, challenger = (q10_seat, q7_seat) if defender == "quality_10" else (q7_seat, q10_seat)
    held = on_city(cfg, S, holder, q10_id if holder == q10_seat else q7_id, c)
    moving = to_hand(cfg, S, challenger, q10_id if challenger == q10_seat else q7_id)
    S.pl[challenger, C.COLORED] -= 1
    S.pl[challenger, C.LAUNCHED] += 1
    ru.place_beer(S, moving, challenger, c)
    take_from_deck(cfg, S, q7_seat, "grain_1", "water_2", "hops_1")
    take_from_deck(cfg, S, q10_seat, "yeast_1", "grain_5")
    assert inv.check_state(S, R, 2) == inv.OK
    K.seed_streams(S, np.uint64(EXAMPLE_SEEDS[defender]), 0)
    K.brewfest(S, R, 2, seats_policy(cfg, "greedy"), c, 0)
    rows = S.trace[:S.g[C.G_TRACE]]
    scores = {int(r[2]): (int(r[5]), int(r[6])) for r in rows if r[0] == C.TR_FEST_SCORE}
    assert scores[q7_seat] == (10, 3) and scores[q10_seat] == (11, 2)  # (score, cards entered)
    q10 = held if holder == q10_seat else moving
    q7 = moving if q10 == held else held
    assert S.city[c, C.CT_BEER] == q10 and S.beer[q7, C.B_LOC] == C.LOC_SKUNKED
    assert S.hand[q7_seat, ing(cfg, "water_2")] == 1 and S.hand[q7_seat].sum() == 2  # a 1 was lost
    assert S.hand[q10_seat, ing(cfg, "yeast_1")] == 1 and S.hand[q10_seat].sum() == 1  # the 5 was lost
    assert inv.check_state(S, R, 2) == inv.OK


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


@pytest.mark.parametrize("dealer, paid", [(0, [0, 1, 0]), (1, [1, 0, 0]), (2, [1, 0, 0])])
def test_a_short_bag_pays_income_in_turn_from_the_left_of_the_dealer(dealer, paid):
    # Seat 0 holds Seattle (city 0, first in city order), seat 1 Boston: one cap in the bag goes
    # to the first of them left of the dealer, whatever the cities' order.
    cfg, R, S = blank(3)
    on_city(cfg, S, 0, "golden_pils", city(cfg, "seattle"))
    on_city(cfg, S, 1, "gose", city(cfg, "boston"))
    S.g[C.G_BAG] = 1
    S.g[C.G_DEALER] = dealer
    ru.income(S, R, 3)
    assert S.pl[:3, C.BANK].tolist() == paid


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
