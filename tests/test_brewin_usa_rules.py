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
from sim.brewin_usa import policies as pol
from sim.brewin_usa import rules as ru
from sim.brewin_usa.state import make_inputs, make_rules, make_state, rules_view, view
from sim.core.config import prepare
from sim.core.errors import BrewError
from sim.core.treatment import T_NONE

NO_TREATMENT = make_inputs(np.array([T_NONE, -1], np.int64), len(config().ing_ids))  # run inputs X, untreated


def beer_of_quality(cfg, quality, style=None, adjunct=False):
    for k, bid in enumerate(cfg.beer_ids):
        row = rules_view(cfg).beer(k)
        if row.quality == quality and (style is None or row.style == C.STYLES.index(style)) \
                and (row.adjunct >= 0) == adjunct:
            return bid
    raise LookupError(quality)


def city_not_preferring(cfg, style, region=None):
    for k in range(len(cfg.city_ids)):
        city = rules_view(cfg).city(k)
        if city.preference != C.STYLES.index(style) and (region is None or city.region == C.REGIONS.index(region)):
            return k
    raise LookupError(style)


# --- setup -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_caps_cards_and_cities(n):
    cfg = config()
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 100)
    K.seed_streams(S, np.uint64(5), 0)
    view(S).game.n = n
    ru.setup_decks(S, R, n)
    ru.setup_players(S, R, n, 0)
    organic1 = ing(cfg, "organic_1")
    for s in range(n):
        assert view(S).seat(s).bank == 15 and view(S).seat(s).colored == 5
        assert view(S).seat(s).hand.sum() == 3 and view(S).seat(s).hand[organic1] == 3
        assert ru.beers_in_hand(S, s) == 3
    assert view(S).game.bag == 85 - 15 * n
    assert view(S).game.ingredient_deck == 116 - 3 * n
    active = view(S).column("city", "active")
    per_region = [active[rules_view(R).column("city", "region") == r].sum() for r in range(4)]
    assert per_region == ([2, 2, 2, 2] if n <= 3 else [3, 3, 3, 3])
    assert inv.check_state(S, R, n) == inv.OK


def test_setup_redraw_swaps_at_most_two_beer_cards():
    cfg = config()
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 100)
    K.seed_streams(S, np.uint64(1), 0)
    ru.setup_decks(S, R, 4)
    ru.setup_players(S, R, 4, 0)
    before = [{b for b in range(C.BEER_DECK) if view(S).beer(b).loc == C.LOC_HAND and view(S).beer(b).owner == s}
              for s in range(4)]
    deck_top = list(view(S).piles.beer_deck[:view(S).game.beer_deck][::-1])  # next cards drawn, in order
    K.redraws(S, R, 4, seats_policy(cfg, "random"), 0)
    swapped_total = 0
    for s in range(4):
        now = {b for b in range(C.BEER_DECK) if view(S).beer(b).loc == C.LOC_HAND and view(S).beer(b).owner == s}
        gone = before[s] - now
        assert len(now) == 3 and len(gone) <= 2
        for b in gone:  # a swapped card lies in the beer discards
            assert view(S).beer(b).loc == C.LOC_DISC
        new_cards = now - before[s]
        assert len(new_cards) == len(gone)
        assert sorted(new_cards) == sorted(deck_top[:len(gone)])  # replaced from the top of the deck
        deck_top = deck_top[len(gone):]
        swapped_total += len(gone)
    assert view(S).game.beer_discards == swapped_total > 0  # the random bot does swap on this seed
    assert view(S).game.beer_deck == 36 - 12 - swapped_total
    assert inv.check_state(S, R, 4) == inv.OK


def test_setup_redraw_never_swaps_more_than_two_even_when_every_card_is_unwanted():
    # a bot that redraws any beer whose recipe totals more than 0 wants all three gone
    cfg = config(["policies.greedy.redraw_req_sum=0"])
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 100)
    K.seed_streams(S, np.uint64(2), 0)
    ru.setup_decks(S, R, 2)
    ru.setup_players(S, R, 2, 0)
    K.redraws(S, R, 2, seats_policy(cfg, "greedy"), 0)
    assert view(S).game.beer_discards == 4  # two per player


# --- auction -------------------------------------------------------------------------------------------

def test_batch_stops_at_the_first_repeated_kind_and_keeps_it():
    cfg, R, S = blank()
    stack_ingredients(cfg, S, ["grain_1", "water_2", "hops_1", "grain_3", "yeast_1"])
    ru.build_batch(S, R, 0)
    cards = [cfg.ing_ids[t] for t in view(S).batch(0).cards[:view(S).batch(0).n]]
    assert cards == ["grain_1", "water_2", "hops_1", "grain_3"]
    assert view(S).batch(0).hidden == -1


def test_batch_whose_first_two_cards_match_gets_a_third_card_face_down():
    cfg, R, S = blank()
    stack_ingredients(cfg, S, ["organic_1", "organic_2", "yeast_1", "grain_1"])
    ru.build_batch(S, R, 0)
    assert view(S).batch(0).n == 3 and view(S).batch(0).hidden == 2
    assert cfg.ing_ids[view(S).batch(0).cards[2]] == "yeast_1"


def test_batch_holds_at_most_six_cards():
    cfg, R, S = blank()
    stack_ingredients(cfg, S, ["grain_1", "water_1", "hops_1", "yeast_1", "organic_1", "berry_1", "coffee_1"])
    ru.build_batch(S, R, 0)
    assert view(S).batch(0).n == 6 and view(S).game.ingredient_deck == 1


def test_auction_without_caps_nominator_takes_each_batch_and_the_last_is_free():
    # Nobody can raise: the player left of the dealer opens at 0 and wins, the player left of
    # that winner nominates next, and the last player gets the last batch.
    cfg, R, S = blank(3)
    stack_ingredients(cfg, S, ["grain_1", "grain_2", "yeast_1", "water_1", "water_2", "hops_1", "hops_2", "yeast_2", "yeast_3"] * 2)
    view(S).game.dealer = 0
    K.auction(S, R, 3, seats_policy(cfg, "greedy"), 0)
    owners = sorted(view(S).column("batch", "owner", 3))
    assert owners == [0, 1, 2]
    assert (view(S).column("batch", "price", 3) == 0).all()
    assert view(S).column("seat", "has_batch", 3).tolist() == [1, 1, 1]
    kinds = [r[4] for r in S.ev[:view(S).game.events]]
    seats = [r[1] for r in S.ev[:view(S).game.events]]
    assert kinds == [C.LOG_BUY] * 3 and seats == [1, 2, 0]


@pytest.mark.parametrize("seed", range(6))
def test_auction_everyone_buys_one_batch_and_paid_caps_become_market_demand(seed):
    cfg, R, S = blank(4)
    K.seed_streams(S, np.uint64(seed), seed)
    ru.setup_decks(S, R, 4)
    for s in range(4):
        bank(S, s, 15)
    view(S).game.dealer = seed % 4
    pols = seats_policy(cfg, "random")
    pols[1] = pols[3] = cfg.policy_index("greedy")
    before = view(S).column("city", "demand").sum()
    K.auction(S, R, 4, pols, 0)
    prices = view(S).column("batch", "price", 4)
    assert sorted(view(S).column("batch", "owner", 4)) == [0, 1, 2, 3]
    assert (view(S).column("seat", "bank", 4) == 15 - np.array([prices[view(S).column("batch", "owner", 4) == s].sum() for s in range(4)])).all()
    assert view(S).column("city", "demand").sum() - before == prices.sum()  # all cities are free
    assert inv.check_state(S, R, 4) == inv.OK


def test_auction_caps_go_to_the_bag_when_no_city_is_free():
    cfg, R, S = blank(2)
    # every city held by one of the two players
    for c in range(C.N_CITIES):
        b = c
        view(S).beer(b).set(loc=C.LOC_CITY, owner=c % 2, city=c, seq=0)
        view(S).city(c).beer = b
    assert ru.count_unclaimed(S) == 0
    for p in ("greedy", "random"):
        assert K.pol.pile_city(S, R, 0, cfg.policy_index(p), True) == -1
    bag = view(S).game.bag
    ru.add_demand(S, -1, 4)
    assert view(S).game.bag == bag + 4


def test_a_greedy_seat_values_each_batch_once_an_auction():
    cfg, R, S = blank(3)
    K.seed_streams(S, np.uint64(5), 5)
    ru.setup_decks(S, R, 3)
    for b in range(3):
        ru.build_batch(S, R, b)
    greedy, pol = cfg.policy_index("greedy"), K.pol
    pol.forget_auction_values(S)
    fresh = [[pol.batch_value(S, R, s, greedy, b, pol.held_value(S, R, s, greedy)) for b in range(3)] for s in range(3)]
    assert [[pol.known_batch_value(S, R, s, greedy, b) for b in range(3)] for s in range(3)] == fresh
    hand(cfg, S, 1, "grain_5", "water_5", "hops_5", "yeast_5")  # never during an auction: here to see the cache
    assert pol.known_batch_value(S, R, 1, greedy, 2) == fresh[1][2]
    pol.forget_auction_values(S)  # as the kernel does when the next auction opens
    now = pol.batch_value(S, R, 1, greedy, 2, pol.held_value(S, R, 1, greedy))
    assert pol.known_batch_value(S, R, 1, greedy, 2) == now != fresh[1][2]


def reference_hand_value(S, R, seat, p, hand):
    """policies.hand_value as it was before the auction kept each seat's hand base: the whole
    hand valued afresh, its profile, four best cards and size counted again."""
    profile = np.zeros(C.SCRATCH, np.int64)
    ru.hand_profile(R, hand, profile)
    free = [c for c in range(C.N_CITIES) if S.city[c, C.CT_ACTIVE] == 1 and S.city[c, C.CT_BEER] < 0]
    demand = sum(int(S.city[c, C.CT_DEMAND]) for c in free)
    city = (demand / len(free) if free else 0.0) + R.pol_w[p, C.W_INCOME]
    v = 0.0
    for b in range(C.BEER_SLOTS):
        if S.beer[b, C.B_LOC] != C.LOC_HAND or S.beer[b, C.B_OWNER] != seat or ru.is_neutral(S, R, b):
            continue
        bt = S.beer[b, C.B_TYPE]
        met = ru.profile_met(R, profile, bt, True) / 5.0
        v += (R.beer[bt, C.BF_QUALITY] + city) * met * met * met
    best = sorted((int(R.ing[t, C.IF_Q]) for t in range(len(hand)) for _ in range(hand[t])), reverse=True)
    return v + R.pol_w[p, C.W_FEST_CARD] * sum(best[:C.MAX_COMMIT]) + R.pol_w[p, C.W_CARD] * int(hand.sum())


def beer_counts(S, R, seat, hand):
    """The met requirements of each beer `seat` holds, against `hand`."""
    profile = np.zeros(C.SCRATCH, np.int64)
    ru.hand_profile(R, hand, profile)
    return [ru.profile_met(R, profile, S.beer[b, C.B_TYPE], True) for b in range(C.BEER_SLOTS)
            if S.beer[b, C.B_LOC] == C.LOC_HAND and S.beer[b, C.B_OWNER] == seat]


def test_batch_values_from_a_seats_hand_base_are_those_of_the_whole_hand():
    """batch_value adds a batch's face-up cards to the seat's hand base (held_value: its profile,
    four best qualities, size and beers): on random five-seat auctions (hands, beers in hand
    with the neutral card among them, batches with and without a face-down card, Market Demand)
    every value is, bit for bit, the whole hand valued afresh, with and without the batch."""
    cfg, R, S = blank(n=C.MAX_PLAYERS)
    p = cfg.policy_index("greedy")
    rng = np.random.default_rng(23)
    n_ing = len(cfg.ing_ids)
    recounts = {True: 0, False: 0}  # (seat, batch) pairs whose beers' counts moved, or did not
    for _ in range(300):
        S.beer[:, C.B_OWNER], S.beer[:, C.B_LOC] = -1, C.LOC_DECK
        S.city[:, C.CT_BEER], S.city[:, C.CT_ACTIVE] = -1, rng.random(C.N_CITIES) < 0.9
        S.city[:, C.CT_DEMAND] = rng.integers(0, 6, C.N_CITIES)
        S.city[rng.random(C.N_CITIES) < 0.3, C.CT_BEER] = C.BEER_DECK - 1  # held: not free
        S.hand[:] = 0
        beers = iter(rng.permutation(C.BEER_DECK - 1))
        for seat in range(C.MAX_PLAYERS):
            for t in rng.choice(n_ing, size=int(rng.integers(0, 10))):
                S.hand[seat, t] += 1
            for _ in range(int(rng.integers(0, 5))):
                b = next(beers)
                S.beer[b, C.B_OWNER], S.beer[b, C.B_LOC] = seat, C.LOC_HAND
                S.beer[b, C.B_TYPE] = rng.integers(R.beer.shape[0])  # the neutral card is the last row
        for b in range(C.MAX_PLAYERS):
            size = int(rng.integers(1, C.MAX_BATCH + 1))
            S.batch[b, :size] = rng.choice(n_ing, size=size)
            S.batch[b, C.BT_N] = size
            S.batch[b, C.BT_HIDDEN] = 2 if size == 3 and rng.random() < 0.5 else -1
        pol.forget_auction_values(S)
        for seat in range(C.MAX_PLAYERS):
            before = reference_hand_value(S, R, seat, p, S.hand[seat])
            for b in range(C.MAX_PLAYERS):
                with_batch = S.hand[seat].copy()
                for i in range(S.batch[b, C.BT_N]):
                    if i != S.batch[b, C.BT_HIDDEN]:
                        with_batch[S.batch[b, i]] += 1
                hidden = R.pol_w[p, C.W_CARD] + 2.0 * R.pol_w[p, C.W_FEST_CARD] if S.batch[b, C.BT_HIDDEN] >= 0 else 0.0
                after = reference_hand_value(S, R, seat, p, with_batch)
                assert pol.known_batch_value(S, R, seat, p, b) == after - before + hidden, (seat, b)
                recounts[beer_counts(S, R, seat, with_batch) != beer_counts(S, R, seat, S.hand[seat])] += 1
            assert S.auction[seat, pol.HELD] == before
    assert min(recounts.values()) > 500  # batches that moved the beers' worth and batches that did not


def reference_demand_city(S, R, seat, p):
    """policies.demand_city as it was when each cap of a pile tallied the seat's beers and cities
    and valued every free city afresh."""
    free = [c for c in range(C.N_CITIES) if S.city[c, C.CT_ACTIVE] == 1 and S.city[c, C.CT_BEER] < 0]
    if not free:
        return -1
    if pol.is_random(R, p):
        return free[pol.rnd(S, seat, len(free))]
    styles, regions = [0] * len(C.STYLES), [0] * C.N_REGIONS
    for b in range(C.BEER_SLOTS):
        bt = S.beer[b, C.B_TYPE]
        if S.beer[b, C.B_OWNER] == seat and bt != R.beer.shape[0] - 1 and S.beer[b, C.B_LOC] in (C.LOC_HAND, C.LOC_SKUNKED):
            styles[R.beer[bt, C.BF_STYLE]] += 1
    for c in range(C.N_CITIES):
        d = S.city[c, C.CT_BEER]
        if d >= 0 and S.beer[d, C.B_OWNER] == seat:
            regions[R.city[c, C.CF_REGION]] += 1
    best, best_v = -1, -1e18
    for c in free:
        v = R.pol_w[p, C.W_REGION] * regions[R.city[c, C.CF_REGION]]
        for _ in range(styles[R.city[c, C.CF_PREF]]):
            v += 2.0
        v -= (R.pol_w[p, C.W_SPREAD] + 0.01) * S.city[c, C.CT_DEMAND]
        if v > best_v:
            best, best_v = c, v
    return best


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_a_pile_of_caps_goes_where_valuing_every_cap_afresh_put_it(bot):
    """A pile of caps shares the worths its first cap works out (a cap changes Market Demand alone):
    on random boards (cities held or not, beers in hand and skunked of every seat, the neutral
    card among them) every cap of piles of 1-9 goes to the city, and makes the random draws, of
    valuing each cap afresh."""
    cfg, R, S = blank(n=C.MAX_PLAYERS)
    p = cfg.policy_index(bot)
    rng = np.random.default_rng(53)
    spread = 0  # piles whose caps went to two cities or more
    for game in range(300):
        beers = random_cities(S, rng, active=0.9, held=0.5, demand_below=4)
        for b in beers[C.N_CITIES:C.N_CITIES + int(rng.integers(0, 16))]:
            S.beer[b, C.B_OWNER] = rng.integers(C.MAX_PLAYERS)
            S.beer[b, C.B_LOC] = rng.choice([C.LOC_HAND, C.LOC_SKUNKED])
        S.beer[:C.BEER_DECK, C.B_TYPE] = np.where(rng.random(C.BEER_DECK) < 0.05, R.beer.shape[0] - 1, cfg.beer_phys)
        seat, caps = int(rng.integers(C.MAX_PLAYERS)), int(rng.integers(1, 10))
        K.seed_streams(S, np.uint64(game), game)
        T = S._replace(g=S.g.copy(), city=S.city.copy(), rng=S.rng.copy())
        before = S.city[:, C.CT_DEMAND].copy()
        K.spread_pile(S, R, seat, p, caps)
        for _ in range(caps):
            T.g[C.G_DECISIONS] += 1
            ru.add_demand(T, reference_demand_city(T, R, seat, p), 1)
        assert np.array_equal(S.city, T.city) and np.array_equal(S.g, T.g) and np.array_equal(S.rng, T.rng)
        spread += np.count_nonzero(S.city[:, C.CT_DEMAND] != before) >= 2
    assert spread > 100


def test_the_seat_k_places_after_another_is_counted_without_a_division():
    assert all(K.seat_after(s, k, n) == (s + k) % n for n in range(2, C.MAX_PLAYERS + 1)
               for s in range(n) for k in range(n + 1))


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
        view(S).column("seat", "has_batch")[:] = 0
        winner, price = K.bidding(S, R, 3, pols, 0, 0, 0)
        assert price <= view(S).seat(winner).bank
        assert winner != 1 or price == 0


# --- recipes and launching ------------------------------------------------------------------------------

def test_recipe_needs_each_core_ingredient_at_or_above_its_quality():
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("golden_pils")  # grain 1, water 1, hops 1, yeast 2
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_1", "water_1", "hops_3", "yeast_1")
    assert ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, False) == 4  # yeast 1 is below 2
    hand(cfg, S, 0, "yeast_2")
    assert ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, False) == 5
    assert use[ing(cfg, "hops_3")] == 1  # exceeding the recipe is allowed (and gives nothing)


def test_organic_stands_in_for_any_core_ingredient():
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("golden_pils")
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "organic_1", "organic_1", "organic_1", "organic_2")
    assert ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, False) == 5
    assert use[ing(cfg, "organic_2")] == 1  # the quality-2 Organic went to the yeast slot


def test_one_quality_point_may_be_bought():
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("golden_pils")
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_1", "water_1", "hops_1", "yeast_1")
    assert ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, True) == 5
    assert view(S).game.buy_slot == C.YEAST


def test_the_purchase_goes_where_it_completes_the_recipe():
    # Dark Bock needs 3/3/3/3. Grain 3, Water 2, Hops 3, Yeast 1 and Organic 3: the Organic must
    # fill Yeast and the bought point must lift Water 2 to 3 (a fit that gives the Organic to the
    # most demanding open slot first and buys afterwards misses this launch).
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("dark_bock")
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_3", "water_2", "hops_3", "yeast_1", "organic_3")
    assert ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, False) == 4
    assert ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, True) == 5
    assert view(S).game.buy_slot == C.WATER
    assert use[ing(cfg, "organic_3")] == 1 and use[ing(cfg, "water_2")] == 1 and use[ing(cfg, "yeast_1")] == 0


def test_no_purchase_when_the_cards_already_fit():
    cfg, R, S = blank()
    bt = cfg.beer_ids.index("golden_pils")
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_1", "water_1", "hops_1", "yeast_1", "organic_2")
    assert ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, True) == 5
    assert view(S).game.buy_slot == -1 and use[ing(cfg, "organic_2")] == 1


def exhaustive_fit(cfg, held, bt, mode):
    """Whether some assignment of held cards (and at most one purchase) fills the four slots."""
    import itertools
    req = list(rules_view(cfg).beer(bt).requires)
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
    plain = [bt for bt in range(len(cfg.beer_ids)) if rules_view(cfg).beer(bt).adjunct < 0]
    agree = 0
    for _ in range(400):
        held = list(rng.choice(core, size=5))
        bt = int(rng.choice(plain))
        view(S).seat(0).hand = 0
        for t in held:
            view(S).seat(0).hand[t] += 1
        expect = exhaustive_fit(cfg, held, bt, mode)
        assert (ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, True) == 5) == expect, (held, bt)
        agree += expect
    assert 40 < agree < 360  # both outcomes are exercised


def reference_purchase(R, hand, use, bt, can_buy):
    """best_purchase as it was before it skipped the slots where a purchase cannot raise the
    count and counted from the hand's profile: a whole fit without a purchase, then one with a
    purchase on every slot. Returns (met, the first slot whose purchase reaches it, or -1)."""
    met, _ = ru.fit_recipe(R, hand, use, bt, -1, 0)
    best = -1
    if met == 5 or not can_buy:
        return met, best
    for slot in range(4):
        floor = ru.bought_floor(R, bt, slot)
        if floor >= 0:
            k, _ = ru.fit_recipe(R, hand, use, bt, slot, floor)
            if k > met:
                met, best = k, slot
                if k == 5:
                    break
    return met, best


def reference_match(R, hand, use, bt, can_buy):
    """match_recipe from reference_purchase: (met, the slot recorded as bought or -1, the fit kept)."""
    met, best = reference_purchase(R, hand, use, bt, can_buy)
    _, short = ru.fit_recipe(R, hand, use, bt, best, ru.bought_floor(R, bt, best) if best >= 0 else 0)
    return met, (best if best >= 0 and short else -1), use.copy()


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_the_pruned_purchase_search_agrees_with_trying_every_slot(mode):
    """The count, the slot bought and the fit, on random hands of core, Organic and adjunct
    cards for every beer (adjunct ones too), with and without the caps for a purchase."""
    cfg, R, S = blank(sets=[f"params.quality_purchase={mode}"])
    use, ref_use, profile = S.scratch[C.SC_USE], S.scratch[C.SC_TMP], S.scratch[C.SC_PROFILE]
    rng = np.random.default_rng(17 + mode)
    counts = {k: 0 for k in range(6)}
    bought = 0
    for _ in range(3000):
        view(S).seat(0).hand = 0
        for t in rng.choice(len(cfg.ing_ids), size=int(rng.integers(2, 9))):
            view(S).seat(0).hand[t] += 1
        held = view(S).seat(0).hand
        bt = int(rng.integers(len(cfg.beer_ids)))
        can_buy = bool(rng.integers(4))
        met, slot, fit = reference_match(R, held, ref_use, bt, can_buy)
        ru.hand_profile(R, held, profile)
        assert ru.profile_met(R, profile, bt, can_buy) == met
        assert ru.match_recipe(S, R, held, use, bt, can_buy) == met
        assert view(S).game.buy_slot == slot and (use == fit).all(), (list(held), bt, can_buy)
        counts[met] += 1
        bought += slot >= 0
    assert min(counts[k] for k in (2, 3, 4, 5)) > 100 and bought > 50  # short and full fits, purchases


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_the_count_from_a_hand_profile_matches_the_fit_on_organic_heavy_hands(mode):
    """best_purchase counts the Organic fill as a matching (recipe_purchase's deficit) instead
    of fitting cards: on hands of core and Organic cards only, often several Organic cards
    competing for the same slots, its count and slot agree with whole fits on every slot, for
    every beer and the neutral card (whose needs no card reaches)."""
    cfg, R, S = blank(sets=[f"params.quality_purchase={mode}"])
    use, profile = S.scratch[C.SC_TMP], S.scratch[C.SC_PROFILE]
    rng = np.random.default_rng(31 + mode)
    organic = [t for t in range(len(cfg.ing_ids)) if cfg.ing[t, C.IF_KIND] == C.ORGANIC]
    core = [t for t in range(len(cfg.ing_ids)) if cfg.ing[t, C.IF_KIND] < C.ORGANIC]
    organic_filled = 0
    for _ in range(3000):
        view(S).seat(0).hand = 0
        for t in [*rng.choice(organic, size=int(rng.integers(0, 6))), *rng.choice(core, size=int(rng.integers(0, 5)))]:
            view(S).seat(0).hand[t] += 1
        held = view(S).seat(0).hand
        bt = int(rng.integers(R.beer.shape[0]))  # the neutral card is the last row
        ru.hand_profile(R, held, profile)
        assert ru.best_purchase(R, profile, bt, True) == reference_purchase(R, held, use, bt, True), (list(held), bt)
        ru.fit_recipe(R, held, use, bt, -1, 0)
        organic_filled += sum(use[t] for t in organic) >= 2
    assert organic_filled > 500  # fills where Organic cards served two slots or more


def reference_organic_met(recipe, profile, buy_slot, floor, mask):
    """rules.organic_met as it was: the Organic cards' fill of the slots in `mask`, from each
    slot's shortfall in turn."""
    if profile[ru.ORGANIC_AT_LEAST + 1] == 0:
        return 0
    slots, shortfall = 0, 0
    for i in range(4):
        if mask & (1 << i):
            slots += 1
            need = ru.recipe_need(recipe, i, buy_slot, floor)
            wanting = sum(1 for j in range(4) if mask & (1 << j) and ru.recipe_need(recipe, j, buy_slot, floor) >= need)
            shortfall = max(shortfall, wanting - profile[ru.ORGANIC_AT_LEAST + need])
    return slots - shortfall


def reference_recipe_purchase(recipe, mode, profile, can_buy):
    """rules.recipe_purchase as it was before it judged each slot's purchase from the excess at
    each quality: the Organic fill recounted for every slot tried."""
    own_met, lacking = 0, 0
    for slot in range(4):
        if profile[slot] >= recipe[C.BF_REQ + slot]:
            own_met += 1
        else:
            lacking |= 1 << slot
    core_met = own_met + reference_organic_met(recipe, profile, -1, 0, lacking)
    adj = recipe[C.BF_ADJ]
    met = core_met + (1 if adj < 0 or profile[adj] > 0 else 0)
    if met == 5 or not can_buy or core_met == 4:
        return met, -1
    for slot in range(4):
        floor = ru.recipe_floor(recipe, mode, slot)
        if floor < 0 or not lacking & (1 << slot):
            continue
        if profile[slot] >= floor:
            k = own_met + 1 + reference_organic_met(recipe, profile, -1, 0, lacking & ~(1 << slot))
        else:
            k = own_met + reference_organic_met(recipe, profile, slot, floor, lacking)
        if k > core_met:
            return met + 1, slot
    return met, -1


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_a_purchase_judged_from_the_excess_at_each_quality_is_the_one_recounting_found(mode):
    """recipe_purchase judges each slot's purchase from the first and last quality of the
    largest excess of lacking slots over Organic cards instead of recounting the Organic fill:
    on random recipes (needs 1-3, or up to MAX_Q + 1 as the neutral card's) and random profiles
    (each kind's best card, Organic cards of every quality, often several), with and without
    the caps, the count and the slot are those of recounting."""
    cfg, R, S = blank(sets=[f"params.quality_purchase={mode}"])
    rng = np.random.default_rng(53 + mode)
    recipe = R.beer[0].copy()
    profile = np.zeros(ru.PROFILE, np.int64)
    bought, deficits = 0, 0
    for _ in range(6000):
        high = C.MAX_Q + 2 if rng.random() < 0.2 else 4
        recipe[C.BF_REQ:C.BF_REQ + 4] = rng.integers(1, high, 4)
        recipe[C.BF_ADJ] = rng.choice([-1, C.BERRY, C.COFFEE])
        profile[:] = 0
        profile[:C.N_KINDS] = rng.integers(0, 6, C.N_KINDS) * (rng.random(C.N_KINDS) < 0.6)
        per_quality = rng.integers(0, 3, C.MAX_Q + 1) * (rng.random(C.MAX_Q + 1) < 0.4)
        for q in range(1, C.MAX_Q + 1):
            profile[ru.ORGANIC_AT_LEAST + q] = per_quality[q:].sum()
        for can_buy in (False, True):
            met, slot = ru.recipe_purchase(recipe, mode, profile, can_buy)
            assert (met, slot) == reference_recipe_purchase(recipe, mode, profile, can_buy), (list(recipe), list(profile))
            bought += slot >= 0
            deficits += met < 5
    assert bought > 500 and deficits > 5000


def reference_hand_profile(R, hand):
    """rules.hand_profile as it was when it branched on each card type held."""
    profile = np.zeros(ru.PROFILE, np.int64)
    for t in range(R.ing.shape[0]):
        if hand[t] > 0:
            kind, q = R.ing[t, C.IF_KIND], R.ing[t, C.IF_Q]
            profile[kind] = max(profile[kind], q)
            if kind == C.ORGANIC:
                profile[ru.ORGANIC_AT_LEAST + q] += hand[t]
    for q in range(C.MAX_Q - 1, 0, -1):
        profile[ru.ORGANIC_AT_LEAST + q] += profile[ru.ORGANIC_AT_LEAST + q + 1]
    return profile


def test_a_hand_profile_worked_out_without_branches_is_that_of_branching_on_each_card_type():
    """hand_profile takes every card type's quality times whether it is held instead of
    branching on it: on random hands (empty ones, several copies of a card, every kind) the
    profile is, cell for cell, that of branching on each type."""
    cfg, R, S = blank()
    profile = S.scratch[C.SC_PROFILE]
    rng = np.random.default_rng(43)
    for _ in range(500):
        held = rng.integers(0, 4, len(cfg.ing_ids)) * (rng.random(len(cfg.ing_ids)) < rng.random())
        ru.hand_profile(R, held, profile)
        assert list(profile[:ru.PROFILE]) == list(reference_hand_profile(R, held))


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_the_launch_check_stops_early_only_for_beers_that_cannot_meet_all_five(mode):
    """may_meet_all's bounds (the adjunct in hand; the core slots short of their own kind no
    more than the Organic cards plus a purchase) never turn away a beer the full count meets in
    all five requirements: on random hands of every kind, for every beer, with and without a
    purchase, so can_launch_new answers as the count alone did. Most hands are turned away."""
    cfg, R, S = blank(sets=[f"params.quality_purchase={mode}"])
    profile = S.scratch[C.SC_PROFILE]
    rng = np.random.default_rng(41 + mode)
    kinds = cfg.ing[:, C.IF_KIND]
    organic = np.flatnonzero(kinds == C.ORGANIC)
    turned_away, launchable = 0, 0
    for _ in range(400):
        held = np.zeros(len(cfg.ing_ids), np.int64)
        for t in [*rng.choice(len(held), size=int(rng.integers(0, 9))), *rng.choice(organic, size=int(rng.integers(0, 4)))]:
            held[t] += 1
        ru.hand_profile(R, held, profile)
        for bt in range(R.beer.shape[0]):
            for can_buy in (False, True):
                met, _ = ru.best_purchase(R, profile, bt, can_buy)
                may = ru.may_meet_all(R.beer[bt], profile, can_buy)
                assert may or met < 5, (list(held), bt, can_buy)
                turned_away += not may
                launchable += met == 5
    assert launchable > 1000 and turned_away > 10000


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
            view(S).seat(0).hand = 0
            hand(cfg, S, 0, *cards)
            got.append(ru.match_recipe(S, R, view(S).seat(0).hand, use, cfg.beer_ids.index(bid), True) == 5)
        assert tuple(got) == cases[name], name


def test_required_adjunct_must_be_in_hand():
    cfg, R, S = blank()
    pumpkin = next(t for t in map(rules_view(cfg).beer, range(len(cfg.beer_ids))) if t.adjunct == C.PUMPKIN)
    bid = beer_of_quality(cfg, pumpkin.quality, adjunct=True)
    bt = cfg.beer_ids.index(bid)
    assert rules_view(cfg).beer(bt).adjunct == C.PUMPKIN
    use = S.scratch[C.SC_USE]
    hand(cfg, S, 0, "grain_5", "water_5", "hops_5", "yeast_5")
    assert ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, False) == 4
    hand(cfg, S, 0, "pumpkin_1")
    assert ru.match_recipe(S, R, view(S).seat(0).hand, use, bt, False) == 5


def test_launch_claims_a_free_city_spends_cards_and_refills_the_beer_hand():
    cfg, R, S = blank(2)
    bank(S, 0, 10)
    b = to_hand(cfg, S, 0, "golden_pils")
    to_hand(cfg, S, 0, "triple_ipa")
    to_hand(cfg, S, 0, "gose")
    hand(cfg, S, 0, "grain_1", "water_1", "hops_1", "yeast_1", "grain_4")
    pols = seats_policy(cfg, "greedy")
    K.launch_new(S, R, 2, pols, 0, b, -1, 0)  # -1: the bot chooses the city
    assert view(S).beer(b).loc == C.LOC_CITY and view(S).city(view(S).beer(b).city).beer == b
    assert view(S).seat(0).colored == 4 and view(S).seat(0).launched == 1
    assert view(S).seat(0).bank == 7  # one quality bought for 3 caps, back to the bag
    assert view(S).seat(0).hand.sum() == 1 and view(S).seat(0).hand[ing(cfg, "grain_4")] == 1
    assert view(S).game.ingredient_discards == 4
    assert ru.beers_in_hand(S, 0) == 3  # 2 left, drew 2, discarded 1
    assert view(S).game.beer_discards == 1
    ev = S.ev[0]
    assert ev[4] == C.LOG_PLAY and ev[3] == cfg.beer_ids.index("golden_pils") and ev[5] == 3


def random_beers(S, rng, seat, in_hand):
    """Every beer slot at a random location with a random owner, then `in_hand` beers in
    `seat`'s hand; the beers left in the deck make up the deck pile, in slot order."""
    locs = rng.choice([C.LOC_DECK, C.LOC_DISC, C.LOC_HAND, C.LOC_CITY, C.LOC_SKUNKED, C.LOC_FEST], C.BEER_SLOTS)
    S.beer[:, C.B_LOC] = locs
    S.beer[:, C.B_OWNER] = np.where(locs == C.LOC_DECK, -1, rng.integers(C.MAX_PLAYERS, size=C.BEER_SLOTS))
    S.beer[rng.choice(C.BEER_SLOTS, in_hand, replace=False), C.B_LOC:C.B_OWNER + 1] = C.LOC_HAND, seat
    deck = np.flatnonzero(S.beer[:, C.B_LOC] == C.LOC_DECK)
    S.piles[C.PILE_BDECK, :len(deck)] = deck
    S.g[C.G_BDECK], S.g[C.G_BDISC] = len(deck), 0


def test_a_seats_beers_listed_without_branches_are_those_of_scanning_each_slot():
    """seat_beers lists a seat's beers at a set of locations with no branch per beer: on random
    beer tables (every location and owner, the inject slot too) its list is, slot for slot,
    that of testing each slot in turn, for the hand alone and for the hand with skunked beers."""
    cfg, R, S = blank(n=C.MAX_PLAYERS)
    rng = np.random.default_rng(31)
    for _ in range(300):
        seat = int(rng.integers(C.MAX_PLAYERS))
        random_beers(S, rng, seat, int(rng.integers(0, 7)))
        for locs, wanted in ((ru.IN_HAND, {C.LOC_HAND}), (ru.IN_HAND_OR_SKUNKED, {C.LOC_HAND, C.LOC_SKUNKED})):
            listed = [b for b in range(C.BEER_SLOTS) if S.beer[b, C.B_OWNER] == seat and S.beer[b, C.B_LOC] in wanted]
            k = ru.seat_beers(S.beer, seat, locs, S.vals)
            assert list(S.vals[:k]) == listed


def reference_beer_to_discard(S, R, seat, p):
    """policies.beer_to_discard as it was when each discard scanned the beer slots again."""
    held = [b for b in range(C.BEER_SLOTS) if S.beer[b, C.B_LOC] == C.LOC_HAND and S.beer[b, C.B_OWNER] == seat]
    if pol.is_random(R, p):
        return held[pol.rnd(S, seat, len(held))]
    best, best_v = -1, 1e18
    profile = S.scratch[C.SC_PROFILE]
    ru.hand_profile(R, S.hand[seat], profile)
    for b in held:
        met = ru.profile_met(R, profile, S.beer[b, C.B_TYPE], np.bool_(True)) / 5.0
        v = ru.beer_quality(S, R, b) * (0.2 + met * met * met)
        if v < best_v:
            best, best_v = b, v
    return best


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_a_refill_discards_as_counting_the_hand_before_each_discard_did(bot):
    """refill_beers lists the hand once and drops each discarded beer from the list: on random
    hands of 1-6 beers and random ingredient cards, the beers discarded (and the random draws
    made) are those of counting the hand and choosing from it afresh for each discard."""
    cfg, R, S = blank(n=C.MAX_PLAYERS)
    pols = seats_policy(cfg, bot)
    rng = np.random.default_rng(37)
    discards = 0
    for game in range(200):
        seat = int(rng.integers(C.MAX_PLAYERS))
        random_beers(S, rng, seat, int(rng.integers(1, 7)))
        S.hand[seat] = rng.integers(0, 3, S.hand.shape[1]) * (rng.random(S.hand.shape[1]) < 0.3)
        K.seed_streams(S, np.uint64(game), game)
        T = S._replace(**{f: getattr(S, f).copy() for f in ("g", "beer", "piles", "rng")})
        K.refill_beers(S, R, seat, pols, 0)
        for _ in range(int(R.p[C.P_BEERS_DRAWN])):
            ru.draw_beer(T, seat)
        while ru.beers_in_hand(T, seat) > int(R.p[C.P_BEER_HAND]):
            T.g[C.G_DECISIONS] += 1
            ru.discard_beer(T, reference_beer_to_discard(T, R, seat, pols[seat]))
            discards += 1
        for f in ("g", "beer", "piles", "rng"):
            assert np.array_equal(getattr(S, f), getattr(T, f))
    assert discards > 300  # most refills discard, many more than once


def test_launch_on_a_held_city_is_a_challenge():
    cfg, R, S = blank(2)
    c = city(cfg, "denver")
    on_city(cfg, S, 1, "gose", c)
    b = to_hand(cfg, S, 0, "golden_pils")
    ru.place_beer(S, b, 0, c)
    assert view(S).beer(b).loc == C.LOC_FEST and view(S).city(c).fest == 1
    assert view(S).seat(0).challenges == 1
    assert not ru.is_target(ru.legal_targets(S, 0), c)  # one beer per player in a Brewfest
    assert not ru.is_target(ru.legal_targets(S, 1), c)  # nobody challenges their own city


def reference_legal_target(S, seat, c):
    """rules.legal_target as it was, one city at a time: active, and free or held by a rival
    that no beer of the seat challenges yet."""
    if S.city[c, C.CT_ACTIVE] == 0:
        return False
    b = S.city[c, C.CT_BEER]
    if b < 0:
        return True
    if S.beer[b, C.B_OWNER] == seat:
        return False
    return not any(S.beer[x, C.B_LOC] == C.LOC_FEST and S.beer[x, C.B_CITY] == c and S.beer[x, C.B_OWNER] == seat
                   for x in range(C.BEER_SLOTS))


def test_the_legal_targets_worked_out_together_are_those_checked_city_by_city():
    """legal_targets finds a seat's challenges in one pass over the beers: on random boards
    (cities held, free or out of play, Brewfests pending with several challengers) its cities
    and has_target are those of checking each city alone."""
    cfg, R, S = blank(n=C.MAX_PLAYERS)
    rng = np.random.default_rng(41)
    refused = {"own": 0, "challenged": 0, "none": 0}
    for _ in range(400):
        S.beer[:, C.B_OWNER], S.beer[:, C.B_LOC], S.beer[:, C.B_CITY] = -1, C.LOC_DECK, -1
        S.city[:, C.CT_BEER], S.city[:, C.CT_ACTIVE] = -1, rng.random(C.N_CITIES) < 0.8
        beers = iter(rng.permutation(C.BEER_DECK))
        boxed_in = rng.random() < 0.25  # every city in play held or challenged by seat 0
        for c in range(C.N_CITIES):
            if boxed_in or rng.random() < 0.8:
                b = next(beers)
                S.city[c, C.CT_BEER] = b
                S.beer[b, C.B_OWNER], S.beer[b, C.B_LOC], S.beer[b, C.B_CITY] = rng.integers(C.MAX_PLAYERS), C.LOC_CITY, c
                challengers = list(rng.integers(C.MAX_PLAYERS, size=int(rng.integers(0, 2))))
                if boxed_in and S.beer[b, C.B_OWNER] != 0:
                    challengers.append(0)
                for o in challengers:
                    x = next(beers)
                    S.beer[x, C.B_OWNER], S.beer[x, C.B_LOC], S.beer[x, C.B_CITY] = o, C.LOC_FEST, c
        for seat in range(C.MAX_PLAYERS):
            targets = ru.legal_targets(S, seat)
            expect = [reference_legal_target(S, seat, c) for c in range(C.N_CITIES)]
            assert [ru.is_target(targets, c) for c in range(C.N_CITIES)] == expect
            assert ru.has_target(S, seat) == any(expect)
            for c in range(C.N_CITIES):
                b = S.city[c, C.CT_BEER]
                if S.city[c, C.CT_ACTIVE] and b >= 0 and not expect[c]:
                    refused["own" if S.beer[b, C.B_OWNER] == seat else "challenged"] += 1
            refused["none"] += not any(expect)
    assert min(refused.values()) > 20  # every reason a city is no target, and seats with none


def test_relaunch_of_a_skunked_beer_costs_five_caps():
    cfg, R, S = blank(2)
    bank(S, 0, 6)
    b = on_city(cfg, S, 0, "golden_pils", 0)
    view(S).city(0).beer = -1
    ru.skunk(S, b)
    pols = seats_policy(cfg, "random")
    assert K.pol.can_relaunch(S, R, 0, b)
    K.relaunch(S, R, 0, pols, b, -1, 0)
    assert view(S).seat(0).bank == 1 and view(S).beer(b).loc == C.LOC_CITY
    assert view(S).seat(0).launched == 1  # a relaunch is not a new beer
    assert not K.pol.can_relaunch(S, R, 0, b)


# --- adjuncts -------------------------------------------------------------------------------------------

def test_coffee_takes_one_cap_from_each_other_player():
    cfg, R, S = blank(4)
    bank(S, 0, 1)
    bank(S, 1, 3)
    bank(S, 2, 0)
    bank(S, 3, 5)
    assert ru.coffee(S, R, 0, 4) == 2
    assert view(S).column("seat", "bank", 4).tolist() == [3, 2, 0, 4]


def test_pumpkin_draws_two_ingredient_cards():
    cfg, R, S = blank(2)
    stack_ingredients(cfg, S, ["hops_2", "coffee_1", "grain_1"])
    assert ru.pumpkin(S, R, 1) == 2
    assert view(S).seat(1).hand[ing(cfg, "hops_2")] == 1 and view(S).seat(1).hand[ing(cfg, "coffee_1")] == 1


def test_berry_swaps_two_market_demand_stacks():
    cfg, R, S = blank(2)
    demand(S, 2, 5)
    demand(S, 7, 1)
    ru.berry(S, 2, 7)
    assert view(S).city(2).demand == 1 and view(S).city(7).demand == 5


def reference_berry_gain(S, R, seat):
    """policies.berry_gain as it was before it read each city's holder once: every pair of
    active cities valued from the board, as (gain, the first best pair)."""
    def held_worth(c, demand):
        b = S.city[c, C.CT_BEER]
        if b < 0:
            return 0.0
        style = R.beer[S.beer[b, C.B_TYPE], C.BF_STYLE]
        mult = int(R.p[C.P_STYLE_MULT]) if style == R.city[c, C.CF_PREF] else 1
        return demand * mult * (1.0 if S.beer[b, C.B_OWNER] == seat else -0.5)

    best, pair = -1e18, None
    active = [c for c in range(C.N_CITIES) if S.city[c, C.CT_ACTIVE]]
    for i, c1 in enumerate(active):
        for c2 in active[i + 1:]:
            d1, d2 = S.city[c1, C.CT_DEMAND], S.city[c2, C.CT_DEMAND]
            g = held_worth(c1, d2) + held_worth(c2, d1) - held_worth(c1, d1) - held_worth(c2, d2)
            if g > best:
                best, pair = g, (c1, c2)
    return best, pair


def random_cities(S, rng, active, held, demand_below):
    """A random board: every beer back in the deck, each city active with probability `active`,
    a Market Demand below `demand_below`, and with probability `held` a random beer of a random
    seat on it. Returns the beers in the random order they were placed from."""
    S.beer[:, C.B_OWNER], S.beer[:, C.B_LOC], S.beer[:, C.B_CITY] = -1, C.LOC_DECK, -1
    S.city[:, C.CT_BEER], S.city[:, C.CT_ACTIVE] = -1, rng.random(C.N_CITIES) < active
    S.city[:, C.CT_DEMAND] = rng.integers(0, demand_below, C.N_CITIES)
    beers = rng.permutation(C.BEER_DECK)
    for c in range(C.N_CITIES):
        if rng.random() < held:
            b = beers[c]
            S.city[c, C.CT_BEER] = b
            S.beer[b, C.B_OWNER], S.beer[b, C.B_LOC], S.beer[b, C.B_CITY] = rng.integers(C.MAX_PLAYERS), C.LOC_CITY, c
    return beers


def test_berry_values_every_swap_as_valuing_each_pair_from_the_board_did():
    """berry_gain reads each city's holder and style multiplier once (city_stakes) and values a
    swap as the difference of the two cities' doubled integer worths of a cap times the
    difference of their Market Demand: on random boards (cities held by any seat, some
    inactive, some with no beer) its gain and pair are those of valuing each pair from the
    board (the gain equal as a number: it is only ever compared)."""
    cfg, R, S = blank(n=C.MAX_PLAYERS)
    rng = np.random.default_rng(29)
    own_gains = 0
    for _ in range(400):
        random_cities(S, rng, active=0.85, held=0.7, demand_below=7)
        seat = int(rng.integers(C.MAX_PLAYERS))
        gain, pair = reference_berry_gain(S, R, seat)
        assert pol.berry_gain(S, R, seat) == gain
        if pair is not None:
            assert tuple(S.seats[C.ROW_TMP, :2]) == pair
            own_gains += gain > 0
    assert own_gains > 200  # swaps worth making


def test_citrus_moves_a_skunked_beer_back_onto_the_map():
    cfg, R, S = blank(2)
    full_ingredient_deck(cfg, S)
    b = on_city(cfg, S, 0, "golden_pils", 0)
    view(S).city(0).beer = -1
    ru.skunk(S, b)
    assert inv.check_state(S, R, 2) == inv.OK
    K.adjunct_action(S, R, 2, seats_policy(cfg, "greedy"), 0, C.CITRUS)
    assert view(S).beer(b).loc == C.LOC_CITY
    assert view(S).city(view(S).beer(b).city).beer == b
    assert inv.check_state(S, R, 2) == inv.OK


@pytest.mark.parametrize("seed", range(8))
def test_citrus_never_puts_a_beer_back_on_the_city_it_left(seed):
    # the random bot may move a city-holding beer: it must end somewhere else
    cfg, R, S = blank(2)
    full_ingredient_deck(cfg, S)
    K.seed_streams(S, np.uint64(seed), seed)
    for c in range(C.N_CITIES):
        if c not in (3, 9):
            view(S).city(c).active = 0
    b = on_city(cfg, S, 0, "golden_pils", 3)
    K.adjunct_action(S, R, 2, seats_policy(cfg, "random"), 0, C.CITRUS)
    assert view(S).city(3).active == 1
    if view(S).city(3).beer != b:  # it moved: to the only other city
        assert view(S).beer(b).city == 9 and view(S).city(9).beer == b
    assert inv.check_state(S, R, 2) == inv.OK


# --- brewfests --------------------------------------------------------------------------------------------

SCORES = np.zeros(C.MAX_PLAYERS, np.int64)


def fest(cfg, R, S, c, commits, discards):
    """Run a Brewfest at c with forced commitments {seat: [card ids]} and discards
    {victim seat: index of the committed card lost}. Returns (winner, winner's pile); the
    Brewfest scores are left in SCORES."""
    n = view(S).game.n
    ru.fest_setup(S, c, n)
    for s, cards in commits.items():
        for cid in cards:
            view(S).seat(s).hand[ing(cfg, cid)] += 1
            ru.commit_card(S, s, ing(cfg, cid))
    for victim, i in discards.items():
        ru.discard_committed(S, victim, i)
    winner = ru.fest_winner(S, R, c, n)
    SCORES[:] = [p.fest.score for p in view(S).seats(C.MAX_PLAYERS)]
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
    view(S).seat(challenger).colored -= 1
    view(S).seat(challenger).launched += 1
    ru.place_beer(S, moving, challenger, c)
    take_from_deck(cfg, S, q7_seat, "grain_1", "water_2", "hops_1")
    take_from_deck(cfg, S, q10_seat, "yeast_1", "grain_5")
    assert inv.check_state(S, R, 2) == inv.OK
    K.seed_streams(S, np.uint64(EXAMPLE_SEEDS[defender]), 0)
    K.brewfest(S, R, 2, seats_policy(cfg, "greedy"), c, 0)
    rows = S.trace[:view(S).game.trace]
    scores = {int(r[2]): (int(r[5]), int(r[6])) for r in rows if r[0] == C.TR_FEST_SCORE}
    assert scores[q7_seat] == (10, 3) and scores[q10_seat] == (11, 2)  # (score, cards entered)
    q10 = held if holder == q10_seat else moving
    q7 = moving if q10 == held else held
    assert view(S).city(c).beer == q10 and view(S).beer(q7).loc == C.LOC_SKUNKED
    assert view(S).seat(q7_seat).hand[ing(cfg, "water_2")] == 1 and view(S).seat(q7_seat).hand.sum() == 2  # a 1 was lost
    assert view(S).seat(q10_seat).hand[ing(cfg, "yeast_1")] == 1 and view(S).seat(q10_seat).hand.sum() == 1  # the 5 was lost
    assert inv.check_state(S, R, 2) == inv.OK


def test_the_defender_wins_a_tie():
    cfg, R, S = blank(2)
    c = city(cfg, "boston")
    d = on_city(cfg, S, 1, beer_of_quality(cfg, 7), c)
    a = to_hand(cfg, S, 0, beer_of_quality(cfg, 7, style="ipa"))
    ru.place_beer(S, a, 0, c)
    winner, _ = fest(cfg, R, S, c, {0: ["grain_2"], 1: ["water_2"]}, {})
    assert SCORES[0] == SCORES[1] == 9
    assert winner == 1 and view(S).city(c).beer == d
    assert view(S).seat(0).fests_lost == 1 and view(S).seat(1).fests_won == 1


def test_a_winning_challenger_takes_the_city_and_the_defender_is_skunked():
    cfg, R, S = blank(2)
    c = city(cfg, "boston")
    d = on_city(cfg, S, 1, beer_of_quality(cfg, 7), c)
    a = to_hand(cfg, S, 0, beer_of_quality(cfg, 10))
    ru.place_beer(S, a, 0, c)
    winner, _ = fest(cfg, R, S, c, {}, {})
    assert winner == 0 and view(S).city(c).beer == a and view(S).beer(d).loc == C.LOC_SKUNKED
    assert view(S).seat(1).colored == 4  # a skunked beer keeps its cap


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
    assert view(S).seat(0).fest.score == 2 and view(S).seat(1).fest.score == 2  # losers' piles to place
    assert view(S).city(c).demand == 0


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
    view(S).game.ingredient_deck = 116 - 6  # the rest of the deck (only conservation of caps is checked)
    before = view(S).game.bag + view(S).column("seat", "bank", 3).sum() + view(S).column("city", "demand").sum()
    K.brewfest(S, R, 3, seats_policy(cfg, "greedy"), c, 0)
    after = view(S).game.bag + view(S).column("seat", "bank", 3).sum() + view(S).column("city", "demand").sum()
    assert before == after
    others = view(S).column("city", "demand").sum() - view(S).city(c).demand
    assert others == 4  # the two losers' piles of 2 went to free cities
    assert view(S).city(c).fest == 0


# --- income and scoring ------------------------------------------------------------------------------------

def test_income_one_cap_per_city_holding_beer_while_the_bag_lasts():
    cfg, R, S = blank(2)
    on_city(cfg, S, 0, "golden_pils", 0)
    on_city(cfg, S, 0, "gose", 4)
    on_city(cfg, S, 1, "witbier", 8)
    ru.income(S, R, 2)
    assert view(S).seat(0).bank == 2 and view(S).seat(1).bank == 1
    view(S).game.bag = 1
    ru.income(S, R, 2)
    assert view(S).seat(0).bank + view(S).seat(1).bank == 4


@pytest.mark.parametrize("dealer, paid", [(0, [0, 1, 0]), (1, [1, 0, 0]), (2, [1, 0, 0])])
def test_a_short_bag_pays_income_in_turn_from_the_left_of_the_dealer(dealer, paid):
    # Seat 0 holds Seattle (city 0, first in city order), seat 1 Boston: one cap in the bag goes
    # to the first of them left of the dealer, whatever the cities' order.
    cfg, R, S = blank(3)
    on_city(cfg, S, 0, "golden_pils", city(cfg, "seattle"))
    on_city(cfg, S, 1, "gose", city(cfg, "boston"))
    view(S).game.bag = 1
    view(S).game.dealer = dealer
    ru.income(S, R, 3)
    assert view(S).column("seat", "bank", 3).tolist() == paid


def reference_income(S, R, n):
    """rules.income as it was when each seat scanned the cities, paid one city at a time."""
    for k in range(n):
        o = (S.g[C.G_DEALER] + 1 + k) % n
        for c in range(C.N_CITIES):
            b = S.city[c, C.CT_BEER]
            if b >= 0 and S.beer[b, C.B_OWNER] == o:
                got = min(int(R.p[C.P_INCOME]), S.g[C.G_BAG])
                S.g[C.G_BAG] -= got
                S.pl[o, C.BANK] += got
                S.pl[o, C.ST_INCOME] += got


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_income_paid_a_seat_at_a_time_is_that_of_paying_city_by_city(n):
    """income counts each seat's cities once and pays them at once: on random boards, dealers
    and bags (many too small for every city) banks, income statistics and bag are those of
    paying city by city."""
    cfg, R, S = blank(n=n)
    rng = np.random.default_rng(47 + n)
    short = 0
    for _ in range(300):
        random_cities(S, rng, active=0.9, held=0.6, demand_below=3)
        S.beer[:, C.B_OWNER] = np.where(S.beer[:, C.B_OWNER] >= 0, S.beer[:, C.B_OWNER] % n, -1)
        S.g[C.G_DEALER], S.g[C.G_BAG] = rng.integers(n), rng.integers(0, 12)
        S.pl[:, C.BANK], S.pl[:, C.ST_INCOME] = rng.integers(0, 20, C.MAX_PLAYERS), 0
        T = S._replace(g=S.g.copy(), pl=S.pl.copy())
        ru.income(S, R, n)
        reference_income(T, R, n)
        assert np.array_equal(S.g, T.g) and np.array_equal(S.pl, T.pl)
        short += S.g[C.G_BAG] == 0
    assert short > 50  # bags that ran out


def test_rulebook_city_example_pilsner_on_a_city_preferring_another_style():
    # A Pilsner/Lager of quality 7 on a city that prefers another style, 4 Market Demand:
    # 4 VP for the city, 7 for the beer.
    cfg, R, S = blank(2)
    c = city_not_preferring(cfg, "pilsner_lager")
    demand(S, c, 4)
    on_city(cfg, S, 0, beer_of_quality(cfg, 7, style="pilsner_lager"), c)
    ru.final_score(S, R, 2)
    assert view(S).seat(0).vp_cities == 4 and view(S).seat(0).vp_beers == 7


def test_matching_style_doubles_the_city():
    cfg, R, S = blank(2)
    c = city(cfg, "chicago")  # prefers stout_porter
    demand(S, c, 4)
    on_city(cfg, S, 0, beer_of_quality(cfg, 7, style="stout_porter"), c)
    ru.final_score(S, R, 2)
    assert view(S).seat(0).vp_cities == 8


def test_rulebook_region_example_orange_25_pink_12():
    # Central: Orange holds two cities (3 Market Demand unmatched = 3 VP, 1 matched = 2 VP), Pink
    # the third (1 matched = 2 VP). Orange holds the region: its 5 Market Demand. Orange's beers
    # total 15 quality, Pink's 10. Orange 5 + 3 + 2 + 15 = 25, Pink 0 + 2 + 10 = 12.
    cfg, R, S = blank(2)
    central = [k for k in range(12) if rules_view(cfg).city(k).region == C.REGIONS.index("central")]
    top, mid, bot = central

    def pref(k):
        return C.STYLES[rules_view(cfg).city(k).preference]

    demand(S, top, 3)
    demand(S, mid, 1)
    demand(S, bot, 1)
    other = [s for s in C.STYLES if s != pref(top)]
    on_city(cfg, S, 0, beer_of_quality(cfg, 7, style=other[0]), top)
    on_city(cfg, S, 0, beer_of_quality(cfg, 8, style=pref(mid)), mid)
    on_city(cfg, S, 1, beer_of_quality(cfg, 10, style=pref(bot)), bot)
    ru.final_score(S, R, 2)
    seat0 = view(S).seat(0)
    assert (seat0.vp_regions, seat0.vp_cities, seat0.vp_beers, seat0.score) == (5, 5, 15, 25)
    seat1 = view(S).seat(1)
    assert (seat1.vp_regions, seat1.vp_cities, seat1.vp_beers, seat1.score) == (0, 2, 10, 12)


def test_a_tied_region_scores_for_nobody_and_skunked_beers_keep_their_quality():
    cfg, R, S = blank(2)
    pacific = [k for k in range(12) if rules_view(cfg).city(k).region == 0]
    demand(S, pacific[0], 2)
    on_city(cfg, S, 0, "golden_pils", pacific[0])
    on_city(cfg, S, 1, "gose", pacific[1])
    b = on_city(cfg, S, 1, "witbier", pacific[2])
    view(S).city(pacific[2]).beer = -1
    ru.skunk(S, b)
    ru.final_score(S, R, 2)
    assert view(S).seat(0).vp_regions == 0 and view(S).seat(1).vp_regions == 0
    assert view(S).seat(1).vp_beers == sum(rules_view(cfg).beer(cfg.beer_ids.index(x)).quality for x in ("gose", "witbier"))


# --- the end ------------------------------------------------------------------------------------------------

def reference_scores(S, R, n):
    """rules.final_score as it was, each region's holders counted city by city for every seat:
    the VP parts (cities, regions, beers, bank) and the score of each seat."""
    owner = [S.beer[S.city[c, C.CT_BEER], C.B_OWNER] if S.city[c, C.CT_BEER] >= 0 else -1 for c in range(C.N_CITIES)]
    region = [R.city[c, C.CF_REGION] for c in range(C.N_CITIES)]
    vp = [[0, 0, 0, int(S.pl[s, C.BANK])] for s in range(n)]
    for c in range(C.N_CITIES):
        if owner[c] >= 0:
            style = R.beer[S.beer[S.city[c, C.CT_BEER], C.B_TYPE], C.BF_STYLE]
            vp[owner[c]][0] += S.city[c, C.CT_DEMAND] * (int(R.p[C.P_STYLE_MULT]) if style == R.city[c, C.CF_PREF] else 1)
    for r in range(C.N_REGIONS):
        held = [sum(owner[c] == s and region[c] == r for c in range(C.N_CITIES)) for s in range(n)]
        top = max(held)
        if top > 0 and held.count(top) == 1:
            vp[held.index(top)][1] += sum(S.city[c, C.CT_DEMAND] for c in range(C.N_CITIES) if region[c] == r)
    for b in range(C.BEER_SLOTS):
        if S.beer[b, C.B_LOC] in (C.LOC_CITY, C.LOC_SKUNKED, C.LOC_FEST):
            vp[S.beer[b, C.B_OWNER]][2] += R.beer[S.beer[b, C.B_TYPE], C.BF_QUALITY]
    return [[*v, sum(v)] for v in vp]


def test_final_scores_from_one_count_of_the_cities_are_those_of_counting_each_region():
    """final_score counts each seat's cities per region and each region's Market Demand in one
    pass over the cities, with no branch on a city's holder or a beer's location: on random
    boards of 2-5 seats (cities held, free or out of play, beers skunked and challenging)
    every seat's VP parts are those of counting every region city by city; regions won
    outright and tied both occur."""
    cfg, R, S = blank(n=C.MAX_PLAYERS)
    rng = np.random.default_rng(47)
    outcomes = {"won": 0, "tied": 0}
    cols = [C.VP_CITIES, C.VP_REGIONS, C.VP_BEERS, C.VP_BANK, C.SCORE]
    for _ in range(400):
        n = int(rng.integers(2, C.MAX_PLAYERS + 1))
        S.beer[:, C.B_OWNER], S.beer[:, C.B_LOC], S.beer[:, C.B_CITY] = -1, C.LOC_DECK, -1
        S.city[:, C.CT_BEER], S.city[:, C.CT_ACTIVE] = -1, rng.random(C.N_CITIES) < 0.9
        S.city[:, C.CT_DEMAND] = rng.integers(0, 6, C.N_CITIES)
        S.pl[:, C.BANK] = rng.integers(0, 20, C.MAX_PLAYERS)
        beers = iter(rng.permutation(C.BEER_DECK))
        for c in range(C.N_CITIES):
            if rng.random() < 0.7:
                b = next(beers)
                S.city[c, C.CT_BEER] = b
                S.beer[b, C.B_OWNER], S.beer[b, C.B_LOC], S.beer[b, C.B_CITY] = rng.integers(n), C.LOC_CITY, c
        for _ in range(int(rng.integers(0, 6))):
            b = next(beers)
            S.beer[b, C.B_OWNER], S.beer[b, C.B_LOC] = rng.integers(n), rng.choice([C.LOC_SKUNKED, C.LOC_FEST])
        expect = reference_scores(S, R, n)
        ru.final_score(S, R, n)
        assert [[int(S.pl[s, k]) for k in cols] for s in range(n)] == expect
        outcomes["won"] += sum(v[1] > 0 for v in expect)
        outcomes["tied"] += sum(v[1] for v in expect) < S.city[:, C.CT_DEMAND].sum()
    assert min(outcomes.values()) > 100  # regions scored for a seat, and regions scored for nobody


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_third_beer_triggers_the_end_after_one_more_round(seed):
    cfg = config()
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 1000, 20000)
    pols = seats_policy(cfg, "greedy")
    K.play_game(S, R, NO_TREATMENT, 4, pols, np.uint64(seed), 0, True, -1, None)  # None: no search bot
    assert view(S).game.violation == 0
    rows = S.trace[:view(S).game.trace]
    trig = rows[rows[:, 0] == C.TR_TRIGGER]
    assert len(trig) == 1
    assert view(S).game.round == trig[0, 1] + 2  # the trigger round, then one more
    launched = view(S).column("seat", "launched", 4)
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


def reference_target_value(S, R, p, seat, b, c):
    """policies.target_value as it was, counting each seat's cities and its best four cards
    afresh for every city."""
    def held(o, region):
        return sum(1 for x in range(C.N_CITIES) if R.city[x, C.CF_REGION] == region and S.city[x, C.CT_BEER] >= 0
                   and S.beer[S.city[x, C.CT_BEER], C.B_OWNER] == o)

    def worth(o, style):
        mult = R.p[C.P_STYLE_MULT] if style == R.city[c, C.CF_PREF] else 1
        return (S.city[c, C.CT_DEMAND] * mult + R.pol_w[p, C.W_REGION] * (1 + held(o, R.city[c, C.CF_REGION]))
                + R.pol_w[p, C.W_INCOME] * R.p[C.P_INCOME])

    style = R.beer[:, C.BF_STYLE]
    v = worth(seat, style[S.beer[b, C.B_TYPE]])
    d = S.city[c, C.CT_BEER]
    if d < 0:
        return v
    o = S.beer[d, C.B_OWNER]
    cards = sorted((q for kd in range(C.N_KINDS) for q in range(1, C.MAX_Q + 1) if R.kq[kd, q] >= 0
                    for _ in range(S.hand[seat, R.kq[kd, q]])), reverse=True)
    rival = R.beer[S.beer[d, C.B_TYPE], C.BF_QUALITY] + min(C.MAX_COMMIT, S.hand[o].sum()) * 2.0 * 0.75
    diff = R.beer[S.beer[b, C.B_TYPE], C.BF_QUALITY] + sum(cards[:C.MAX_COMMIT]) * 0.75 - rival - R.pol_w[p, C.W_MARGIN]
    chance = 1.0 / (1.0 + np.exp(-diff / 2.0))
    return chance * (v + worth(o, style[S.beer[d, C.B_TYPE]])) + R.pol_w[p, C.W_CHALLENGE]


def test_a_decisions_tallies_value_every_city_as_counting_afresh_did():
    """target_value reads each seat's cities per region and the seat's four best cards from
    tally_targets, counted once a decision: on random boards of five seats (cities held, some
    inactive, some challenged) and random hands, it values every city as counting them again
    for each city did."""
    cfg, R, S = blank(n=C.MAX_PLAYERS)
    p, tally = cfg.policy_index("greedy"), S.scratch[C.SC_TMP]
    rng = np.random.default_rng(5)
    n_ing = len(cfg.ing_ids)
    rivals_held = 0
    for _ in range(400):
        beers = random_cities(S, rng, active=0.9, held=0.6, demand_below=6)
        S.hand[:] = 0
        for o in range(C.MAX_PLAYERS):
            for t in rng.choice(n_ing, size=int(rng.integers(0, 9))):
                S.hand[o, t] += 1
        seat = int(rng.integers(C.MAX_PLAYERS))
        b = beers[C.N_CITIES]
        S.beer[b, C.B_OWNER], S.beer[b, C.B_LOC] = seat, C.LOC_HAND
        pol.tally_targets(S, R, seat, tally)
        for c in range(C.N_CITIES):
            got = pol.target_value(S, R, p, seat, b, c, tally)
            assert got == pytest.approx(reference_target_value(S, R, p, seat, b, c), rel=1e-12, abs=1e-12)
            rivals_held += S.city[c, C.CT_BEER] >= 0 and S.beer[S.city[c, C.CT_BEER], C.B_OWNER] != seat
    assert rivals_held > 1000  # challenges valued, not only free cities
