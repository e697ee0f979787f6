"""Brewin' USA rules (after the rulebook in shared/rules/brewin_usa.txt), as small numba functions.

Paraphrase of the game, as modelled here:
  Setup: everyone gets 15 uncolored caps (bank) and 5 colored caps (owner markers); the rest of the
  85 uncolored caps stay in the bag. Ingredient and beer decks are shuffled; the 12 city tiles sit in
  four regions of three; with 2-3 players one random city per region is left out. Everyone gets three
  beer cards and three quality-1 Organic ingredients, and may swap up to two beer cards for new ones.
  A round has three phases, the dealer moving one seat to the left each round (seat 0 deals first):
  1. Auction: the dealer lays one batch per player. A batch grows face up until a card repeats a
     kind already in it (that card is kept) or it has 6 cards; when the second card repeats the
     first, a third card is added face down. The player left of the dealer picks a batch and opens;
     bidding goes clockwise, each raise at least one cap, no bidding after a pass, beyond the bank,
     or once a batch is secured. The last bidder pays and takes the batch; the player left of that
     winner picks the next batch. The last player takes the last batch free. The dealer spreads the
     caps paid over unclaimed cities as Market Demand (into the bag when there is none).
  2. Launch: from the left of the dealer, each player may launch up to two beers. A beer needs
     Grain, Water, Hops and Yeast of at least the recipe's qualities (Organic stands in for any of
     them), its required adjunct if it prints one, and may take one adjunct; one quality point may
     be bought for 3 caps (the reading is the data switch quality_purchase). The beer gets a
     colored cap, then claims a free city or challenges a controlled one (a Brewfest). Ingredients used are discarded; an adjunct's action follows
     (Coffee: a cap from each rival; Pumpkin: two ingredient cards; Citrus: move one of one's beers
     in play; Berry: swap two cities' Market Demand). The player draws two beer cards and discards
     back to three. A skunked beer may be relaunched for 5 caps instead.
  3. Brewfests, one at a time from the player left of the dealer: each participant commits up to
     four ingredient cards, then discards one unseen committed card of a rival of its choice; score
     = beer quality + remaining cards' quality; the defender wins ties. Losers' beers are skunked
     (they keep their quality VP). The city's Market Demand is split into equal piles per
     participant, the remainder to the winner, who banks any part of its pile and leaves the rest;
     losers spread their piles on unclaimed cities (or the bag).
  Every beer holding a city then earns one cap from the bag (players in turn from the left of the
  dealer when the bag runs short). A player's third launched beer triggers the end: the round is
  finished and one more round is played. Score: each city's Market
  Demand to its controller (doubled for the preferred style), each region's total Market Demand to
  the player holding most of its cities (ties: nobody), launched beers' quality, caps in the bank.
"""

import numpy as np

from sim.core.jit import jit, jit_inline
from sim.core.rng import randint, shuffle
from sim.core.rows import next_row, put7, put_trace8, tracing

from . import constants as C

# --- small helpers ----------------------------------------------------------------------------

@jit_inline
def param(R, i):
    return np.int64(R.p[i])


@jit_inline
def policy_stream(seat):
    return 1 + C.MAX_PLAYERS + seat


@jit_inline
def trace(S, code, seat, a, b, c, d, e):
    """Append one replay row when tracing: move code, round (0-based), seat, five arguments."""
    if tracing(S.trace):  # a replay
        put_trace8(S.trace, S.g, C.G_TRACE, C.G_OVERFLOW, code, S.g[C.G_ROUND], seat, a, b, c, d, e)


@jit_inline
def log_event(S, game_id, seat, card, kind, amount, target):
    """Append one events-table row (sim/core/schema.py events_table order); its round is
    S.g[G_ROUND], 0-based as this game has always logged it (schema.EVENTS says so)."""
    if S.g[C.G_ROLLOUT]:
        return  # a search's scratch copy of the game: nothing of it is output
    i = next_row(S.ev, S.g, C.G_EVENTS, C.G_OVERFLOW)
    put7(S.ev, i, game_id, seat, S.g[C.G_ROUND], card, kind, amount, target)


@jit_inline
def beer_quality(S, R, b):
    return R.beer[S.beer[b, C.B_TYPE], C.BF_QUALITY]


@jit_inline
def beer_style(S, R, b):
    return R.beer[S.beer[b, C.B_TYPE], C.BF_STYLE]


# --- card codes of the events table (sim/brewin_usa/__init__.py card_names) -----------------------
# Rules.beer holds the data's beer types, then the neutral card (state.make_rules): a blank beer
# card whose recipe no ingredient meets, quality 0 (what a `remove` treatment puts in a card's place).

@jit_inline
def neutral_type(R):
    return np.int64(R.beer.shape[0] - 1)


@jit_inline
def is_neutral(S, R, b):
    return S.beer[b, C.B_TYPE] == neutral_type(R)


@jit_inline
def batch_code(R):
    return neutral_type(R)  # right after the data's beer types


@jit_inline
def adjunct_code(R, kind):
    return batch_code(R) + 1 + kind


@jit_inline
def beer_code(R, bt):
    """The events-table code of beer type bt: its own index, the neutral card's label last."""
    return adjunct_code(R, np.int64(C.N_KINDS)) if bt == neutral_type(R) else bt


@jit_inline
def owner_of_city(S, c):
    b = S.city[c, C.CT_BEER]
    return -1 if b < 0 else S.beer[b, C.B_OWNER]


@jit_inline
def is_unclaimed(S, c):
    return S.city[c, C.CT_ACTIVE] == 1 and S.city[c, C.CT_BEER] < 0


@jit_inline
def count_unclaimed(S):
    k = 0
    for c in range(C.N_CITIES):
        if is_unclaimed(S, c):
            k += 1
    return k


@jit_inline
def hand_size(S, seat):
    k = 0
    for t in range(S.hand.shape[1]):
        k += S.hand[seat, t]
    return k


@jit_inline
def beers_in_hand(S, seat):
    k = 0
    for b in range(C.BEER_SLOTS):
        if S.beer[b, C.B_LOC] == C.LOC_HAND and S.beer[b, C.B_OWNER] == seat:
            k += 1
    return k


IN_HAND = 1 << C.LOC_HAND  # seat_beers' location sets
IN_HAND_OR_SKUNKED = IN_HAND | 1 << C.LOC_SKUNKED


@jit_inline
def seat_beers(beer, seat, locs, slots):
    """The slots of `seat`'s beers lying at a location of the set `locs` (bits 1 << LOC_*), in
    slot order, into the scratch row `slots` (BEER_SLOTS + 1 long); returns how many. Without a
    branch per beer: every slot is written and the count moves on only at a match, since a
    branch on the owner and location mispredicted on about every other beer."""
    k = 0
    for b in range(C.BEER_SLOTS):
        slots[k] = b
        k += (beer[b, C.B_OWNER] == seat) & (locs >> beer[b, C.B_LOC]) & 1
    return k


# --- decks --------------------------------------------------------------------------------------

@jit_inline
def discard_ingredient(S, t):
    S.piles[C.PILE_IDISC, S.g[C.G_IDISC]] = t
    S.g[C.G_IDISC] += 1


@jit
def draw_ingredient(S):
    """Top card of the ingredient deck (the discards reshuffled when it runs out), or -1."""
    if S.g[C.G_IDECK] == 0:
        k = S.g[C.G_IDISC]
        if k == 0:
            return -1
        for i in range(k):
            S.piles[C.PILE_IDECK, i] = S.piles[C.PILE_IDISC, i]
        S.g[C.G_IDECK] = k
        S.g[C.G_IDISC] = 0
        shuffle(S.piles[C.PILE_IDECK], np.int64(k), S.rng, np.int64(0))
    S.g[C.G_IDECK] -= 1
    return S.piles[C.PILE_IDECK, S.g[C.G_IDECK]]


@jit
def discard_beer(S, b):
    S.beer[b, C.B_LOC] = C.LOC_DISC
    S.beer[b, C.B_OWNER] = -1
    S.beer[b, C.B_CITY] = -1
    S.piles[C.PILE_BDISC, S.g[C.G_BDISC]] = b
    S.g[C.G_BDISC] += 1


@jit
def draw_beer(S, seat):
    """Draw a beer card into `seat`'s hand (discards reshuffled when the deck is empty); -1 if none."""
    if S.g[C.G_BDECK] == 0:
        k = S.g[C.G_BDISC]
        if k == 0:
            return -1
        for i in range(k):
            b = S.piles[C.PILE_BDISC, i]
            S.piles[C.PILE_BDECK, i] = b
            S.beer[b, C.B_LOC] = C.LOC_DECK
        S.g[C.G_BDECK] = k
        S.g[C.G_BDISC] = 0
        shuffle(S.piles[C.PILE_BDECK], np.int64(k), S.rng, np.int64(0))
    S.g[C.G_BDECK] -= 1
    b = S.piles[C.PILE_BDECK, S.g[C.G_BDECK]]
    S.beer[b, C.B_LOC] = C.LOC_HAND
    S.beer[b, C.B_OWNER] = seat
    S.beer[b, C.B_CITY] = -1
    return b


@jit_inline
def log_offer(S, game_id, seat, card, target):
    """An `offer` event: card shown to seat by the shuffle alone, before any decision (amount
    1). Later draws and batches depend on play, so they are not logged: no analysis reads them
    (docs/games/brewin_usa.md, Treatments and offers)."""
    log_event(S, game_id, seat, card, C.LOG_OFFER, np.int64(1), target)


@jit
def deal_beer(S, R, seat, game_id):
    """draw_beer for the opening deal, logged as an offer of the card drawn."""
    b = draw_beer(S, seat)
    if b >= 0:
        log_offer(S, game_id, seat, beer_code(R, S.beer[b, C.B_TYPE]), np.int64(-1))
    return b


@jit
def setup_decks(S, R, n):
    """Shuffle both decks after dealing the starting Organic cards; lay out the cities."""
    starter = R.kq[C.ORGANIC, param(R, C.P_START_ORGANIC_Q)]
    deal = param(R, C.P_START_ORGANIC)
    for s in range(n):
        S.hand[s, starter] = deal
    k = 0
    for t in range(R.ing.shape[0]):
        copies = R.ing[t, C.IF_COUNT]
        if t == starter:
            copies -= deal * n
        for _ in range(copies):
            S.piles[C.PILE_IDECK, k] = t
            k += 1
    S.g[C.G_IDECK] = k
    S.g[C.G_IDISC] = 0
    shuffle(S.piles[C.PILE_IDECK], np.int64(k), S.rng, np.int64(0))
    for b in range(C.BEER_DECK):
        S.piles[C.PILE_BDECK, b] = b
        S.beer[b, C.B_LOC] = C.LOC_DECK
        S.beer[b, C.B_OWNER] = -1
        S.beer[b, C.B_CITY] = -1
        S.beer[b, C.B_SEQ] = 0
        S.beer[b, C.B_TYPE] = R.phys[b]
    set_aside_inject_slot(S, R)
    S.g[C.G_BDECK] = C.BEER_DECK
    S.g[C.G_BDISC] = 0
    shuffle(S.piles[C.PILE_BDECK], np.int64(C.BEER_DECK), S.rng, np.int64(0))
    setup_cities(S, R, n)


@jit_inline
def setup_cities(S, R, n):
    for c in range(C.N_CITIES):
        S.city[c, C.CT_ACTIVE] = 1
        S.city[c, C.CT_DEMAND] = 0
        S.city[c, C.CT_BEER] = -1
        S.city[c, C.CT_FEST] = 0
    if n > param(R, C.P_SMALL_MAX):
        return
    for region in range(C.N_REGIONS):
        for _ in range(param(R, C.P_CITIES_REMOVED)):
            left = 0
            for c in range(C.N_CITIES):
                if R.city[c, C.CF_REGION] == region and S.city[c, C.CT_ACTIVE] == 1:
                    left += 1
            if left <= 1:
                break
            pick = randint(S.rng, 0, left)
            for c in range(C.N_CITIES):
                if R.city[c, C.CF_REGION] == region and S.city[c, C.CT_ACTIVE] == 1:
                    if pick == 0:
                        S.city[c, C.CT_ACTIVE] = 0
                        trace(S, C.TR_SETUP, -1, c, 0, 0, 0, 0)
                        break
                    pick -= 1


@jit_inline
def setup_players(S, R, n, game_id):
    S.g[C.G_TOTAL_CAPS] = param(R, C.P_TOTAL_CAPS)
    S.g[C.G_BAG] = param(R, C.P_TOTAL_CAPS) - n * param(R, C.P_START_CAPS)
    for s in range(n):
        for f in range(C.N_PL):
            S.pl[s, f] = 0
        S.pl[s, C.BANK] = param(R, C.P_START_CAPS)
        S.pl[s, C.COLORED] = param(R, C.P_COLORED)
    for s in range(n):
        for _ in range(param(R, C.P_BEER_HAND)):
            deal_beer(S, R, s, game_id)


# --- treatments (sim/core/treatment.py; docs/games/brewin_usa.md, Treatments and offers) ---------

@jit_inline
def set_aside_inject_slot(S, R):
    """The slot of an injected copy starts out of the game (no treatment, or not dealt yet)."""
    S.beer[C.INJECT_SLOT, C.B_LOC] = C.LOC_OUT
    S.beer[C.INJECT_SLOT, C.B_OWNER] = -1
    S.beer[C.INJECT_SLOT, C.B_CITY] = -1
    S.beer[C.INJECT_SLOT, C.B_SEQ] = 0
    S.beer[C.INJECT_SLOT, C.B_TYPE] = neutral_type(R)


@jit_inline
def remove_beer_type(S, R, bt):
    """Every copy of beer type bt in the deck becomes the neutral card, in its place."""
    for b in range(C.BEER_DECK):
        if S.beer[b, C.B_TYPE] == bt:
            S.beer[b, C.B_TYPE] = neutral_type(R)


@jit_inline
def inject_beer(S, bt, seat):
    """One extra copy of beer type bt into `seat`'s hand, from outside the deck: no draw is made,
    so every deck and random stream stays as in the untreated game."""
    S.beer[C.INJECT_SLOT, C.B_LOC] = C.LOC_HAND
    S.beer[C.INJECT_SLOT, C.B_OWNER] = seat
    S.beer[C.INJECT_SLOT, C.B_TYPE] = bt


# --- auction ------------------------------------------------------------------------------------

@jit_inline
def kind_in_batch(S, R, b, kind):
    for i in range(S.batch[b, C.BT_N]):
        if R.ing[S.batch[b, i], C.IF_KIND] == kind:
            return True
    return False


@jit_inline
def build_batch(S, R, b):
    """Lay out batch b: face up until a card repeats a kind already there (kept) or the batch is
    full; if the second card repeats the first, a third card goes on face down."""
    S.batch[b, C.BT_N] = 0
    S.batch[b, C.BT_HIDDEN] = -1
    S.batch[b, C.BT_OWNER] = -1
    S.batch[b, C.BT_PRICE] = 0
    limit = param(R, C.P_BATCH_MAX)
    while S.batch[b, C.BT_N] < limit:
        t = draw_ingredient(S)
        if t < 0:
            return
        k = S.batch[b, C.BT_N]
        repeat = kind_in_batch(S, R, b, R.ing[t, C.IF_KIND])
        S.batch[b, k] = t
        S.batch[b, C.BT_N] = k + 1
        if repeat:
            if k == 1:
                t = draw_ingredient(S)
                if t >= 0:
                    S.batch[b, 2] = t
                    S.batch[b, C.BT_N] = 3
                    S.batch[b, C.BT_HIDDEN] = 2
            return


@jit_inline
def offer_batch(S, R, b, n, game_id):
    """Batch b's face-up adjuncts are offered to every seat (each may still win it when it is
    laid out), in the first round only: its batches come from the shuffle alone."""
    if S.g[C.G_ROUND] != 0:
        return
    for i in range(S.batch[b, C.BT_N]):
        kind = R.ing[S.batch[b, i], C.IF_KIND]
        if i == S.batch[b, C.BT_HIDDEN] or kind < C.BERRY:
            continue
        for s in range(n):
            log_offer(S, game_id, s, adjunct_code(R, kind), b)


@jit
def give_batch(S, R, seat, b, price, game_id):
    """Seat takes batch b for `price` caps (paid into the dealer's pot)."""
    for i in range(S.batch[b, C.BT_N]):
        S.hand[seat, S.batch[b, i]] += 1
    S.pl[seat, C.ST_BATCH_CARDS] += S.batch[b, C.BT_N]
    S.batch[b, C.BT_OWNER] = seat
    S.batch[b, C.BT_PRICE] = price
    S.pl[seat, C.BANK] -= price
    S.pl[seat, C.ST_CAPS_SPENT] += price
    S.pl[seat, C.HAS_BATCH] = 1
    S.g[C.G_POT] += price
    log_event(S, game_id, seat, batch_code(R), C.LOG_BUY, price, S.batch[b, C.BT_N])
    trace(S, C.TR_BUY, seat, b, price, S.batch[b, C.BT_N], 0, 0)


@jit_inline
def add_demand(S, c, k):
    """k caps of Market Demand onto city c (an unclaimed city), or into the bag when c < 0."""
    if c < 0:
        S.g[C.G_BAG] += k
    else:
        S.city[c, C.CT_DEMAND] += k


# --- recipes ---------------------------------------------------------------------------------------

@jit
def lowest_available(R, hand, use, kind, q):
    """The lowest-quality ingredient type of `kind` with quality >= q still free in hand, or -1."""
    for qq in range(max(q, 1), C.MAX_Q + 1):
        t = R.kq[kind, qq]
        if t >= 0 and hand[t] - use[t] > 0:
            return t
    return -1


@jit
def fit_recipe(R, hand, use, bt, buy_slot, floor):
    """Greedy fit of `hand` to beer type bt's recipe into a cleared `use`, slot `buy_slot` (-1:
    none) needing only quality `floor` (0: no card at all). Each core slot takes the lowest
    good-enough card of its kind; open slots take the lowest good-enough Organic card, the most
    demanding slot first (exact for fixed needs: a core card serves one slot only, and sorted
    thresholds match). Returns (requirements met of five, whether the buy slot falls short of
    the printed quality)."""
    for t in range(R.ing.shape[0]):
        use[t] = 0
    own_met, mask, short = fit_own_kinds(R, hand, use, bt, buy_slot, floor)
    core_met, short = fit_organic(R, hand, use, bt, buy_slot, floor, own_met, mask, short)
    return core_met + fit_adjunct(R, hand, use, bt), short


@jit_inline
def slot_need(R, bt, slot, buy_slot, floor):
    return recipe_need(R.beer[bt], slot, buy_slot, floor)


@jit_inline
def fit_own_kinds(R, hand, use, bt, buy_slot, floor):
    """fit_recipe's first pass: each core slot's lowest good-enough card of its own kind (slot s
    takes kind s, which no other slot or adjunct takes). Returns (slots met, the mask of slots
    that found none, short)."""
    own_met, mask, short = 0, 0, False
    for slot in range(4):
        need = slot_need(R, bt, slot, buy_slot, floor)
        if need == 0:
            own_met += 1
            short = True
            continue
        t = lowest_available(R, hand, use, slot, need)
        if t >= 0:
            use[t] += 1
            own_met += 1
            short = short or (slot == buy_slot and R.ing[t, C.IF_Q] < R.beer[bt, C.BF_REQ + slot])
        else:
            mask |= 1 << slot
    return own_met, mask, short


@jit_inline
def fit_organic(R, hand, use, bt, buy_slot, floor, core_met, mask, short):
    """fit_recipe's second pass: the slots in `mask` take Organic cards, the most demanding first
    (ties: the lower slot). Returns (core slots met, short)."""
    while mask:
        best, need = np.int64(-1), np.int64(-1)
        for slot in range(4):
            q = slot_need(R, bt, slot, buy_slot, floor)
            if mask & (1 << slot) and q > need:
                best, need = slot, q
        mask &= ~(1 << best)
        t = lowest_available(R, hand, use, C.ORGANIC, need)
        if t >= 0:
            use[t] += 1
            core_met += 1
            short = short or (best == buy_slot and R.ing[t, C.IF_Q] < R.beer[bt, C.BF_REQ + best])
    return core_met, short


@jit_inline
def fit_adjunct(R, hand, use, bt):
    """fit_recipe's last step: 1 if the beer needs no adjunct or its lowest card is free, else 0."""
    adj = R.beer[bt, C.BF_ADJ]
    if adj < 0:
        return 1
    t = lowest_available(R, hand, use, adj, np.int64(1))
    if t >= 0:
        use[t] += 1
        return 1
    return 0


@jit_inline
def bought_floor(R, bt, slot):
    """What slot still needs when its purchase is made (quality_purchase reading), or -1 when
    buying there gains nothing."""
    return recipe_floor(R.beer[bt], param(R, C.P_QUALITY_PURCHASE), slot)


@jit_inline
def recipe_floor(recipe, mode, slot):
    """bought_floor of a beer's row of Rules.beer under purchase reading `mode`."""
    req = recipe[C.BF_REQ + slot]
    if mode == C.BUY_INGREDIENT:
        return np.int64(0)
    floor = req - 1 if mode == C.BUY_POINT else np.int64(1)
    return floor if (1 <= floor) & (floor < req) else np.int64(-1)  # no branch on the recipe


# The count of a recipe a hand meets reads the hand only through what `hand_profile` keeps: each
# kind's best card (core slot s takes only kind s, the adjunct only its own kind, so a slot or
# the adjunct is met by its own kind exactly when that kind's best card reaches it) and how many
# Organic cards reach each quality (Organic serves any slot). The bots count many recipes against
# one hand (every beer in it): the profile is worked out once and each recipe counted from it.
ORGANIC_AT_LEAST = C.N_KINDS  # profile[ORGANIC_AT_LEAST + q]: Organic cards of quality >= q
PROFILE = ORGANIC_AT_LEAST + C.MAX_Q + 2  # q up to MAX_Q + 1 (none: the neutral card's need)
COMMON_NEED = 3  # the highest need of the data's recipes (recipe_purchase looks at 1-3 always)


@jit_inline
def hand_profile(R, hand, profile):
    """Into `profile` (a scratch row): each kind's best quality in `hand` (0: none), then the
    Organic cards of at least each quality (ORGANIC_AT_LEAST)."""
    ing_profile(R.ing, hand, profile)


@jit
def ing_profile(ing, hand, profile):
    """hand_profile from the card table `ing` (Rules.ing), all it reads of R."""
    for i in range(PROFILE):
        profile[i] = 0
    for t in range(ing.shape[0]):  # no branch on the hand (one per card type mispredicted)
        kind, q = ing[t, C.IF_KIND], ing[t, C.IF_Q]
        profile[kind] = max(profile[kind], q * (hand[t] > 0))
        if kind == C.ORGANIC:  # the same types every call: well predicted
            profile[ORGANIC_AT_LEAST + q] += hand[t]
    for q in range(C.MAX_Q - 1, 0, -1):
        profile[ORGANIC_AT_LEAST + q] += profile[ORGANIC_AT_LEAST + q + 1]


@jit_inline
def recipe_need(recipe, slot, buy_slot, floor):
    """slot_need of a beer's row of Rules.beer."""
    return floor if slot == buy_slot else recipe[C.BF_REQ + slot]


@jit_inline
def best_purchase(R, profile, bt, can_buy):
    """recipe_purchase of beer type bt: its row of Rules.beer and the purchase reading are all
    it reads of R, and a compiled call copies every array of R it is passed."""
    return recipe_purchase(R.beer[bt], param(R, C.P_QUALITY_PURCHASE), profile, can_buy)


@jit
def recipe_purchase(recipe, mode, profile, can_buy):
    """The most of the five requirements (four slots and the adjunct) that the profiled hand
    meets for the beer of row `recipe` (fit_recipe's count), without a purchase or, if that
    falls short and `can_buy`, with the one purchase a launch allows (reading `mode`), tried on
    each slot in turn; returns (met, the first slot whose purchase reaches it, or -1).

    The slots whose own kind falls short ("lacking") take Organic cards. fit_organic's greedy
    fill is a largest matching of slots to cards good enough for them, and with such thresholds
    the slots it leaves unfilled, the deficit, are the largest excess, over each quality q, of
    the lacking slots needing q or more over the Organic cards reaching q (Hall's theorem).
    Only a lacking slot's purchase can raise the count (elsewhere it swaps the slot's own card
    for a lower one, or none), and by one at most: it takes one off the excess at every q in
    (lo, need], lo = 0 when the slot's own kind now reaches what is left to buy (the slot
    leaves the lacking ones), else that floor (the slot now needs the floor). So it meets one
    more exactly when every q of the largest excess lies in (lo, need]: one pass over q finds
    the first and last such q, and each slot is then judged from those without a recount."""
    lacking, top = 0, 0
    for slot in range(4):
        need = recipe[C.BF_REQ + slot]
        short = profile[slot] < need
        lacking |= short << slot
        top = max(top, need * short)
    # Beyond the top need no slot wants a card: the excess there is none, which changes nothing.
    # So qualities 1-3, the data's needs, are always looked at (a loop of fixed length, with no
    # exit to mispredict), higher ones only when a need reaches them (the neutral card's).
    deficit, q_first, q_last = 0, 0, 0
    for q in range(1, COMMON_NEED + 1):
        deficit, q_first, q_last = largest_excess(recipe, profile, lacking, q, deficit, q_first, q_last)
    for q in range(COMMON_NEED + 1, top + 1):
        deficit, q_first, q_last = largest_excess(recipe, profile, lacking, q, deficit, q_first, q_last)
    adj = recipe[C.BF_ADJ]
    met = 4 - deficit + ((adj < 0) | (profile[max(adj, 0)] > 0))  # none needed, or in hand
    # Each slot judged with no branch (whether a purchase helps is a coin toss); the first wins.
    best = np.int64(-1)
    for slot in range(3, -1, -1):
        floor = recipe_floor(recipe, mode, slot)
        lo = floor * (profile[slot] < floor)
        helps = (floor >= 0) & (lacking >> slot & 1 == 1) & (lo < q_first) & (recipe[C.BF_REQ + slot] >= q_last)
        best = slot if helps else best
    best = best if (deficit > 0) & can_buy else -1
    return met + (best >= 0), best


@jit_inline
def largest_excess(recipe, profile, lacking, q, deficit, q_first, q_last):
    """recipe_purchase's pass over the qualities at q: the excess of the lacking slots needing
    q or more over the Organic cards reaching q; returns the largest excess so far and the
    first and last quality reaching it."""
    excess = -profile[ORGANIC_AT_LEAST + q]
    for slot in range(4):
        excess += (lacking >> slot & 1) & (recipe[C.BF_REQ + slot] >= q)
    return max(deficit, excess), q if excess > deficit else q_first, q if excess >= deficit else q_last


@jit_inline
def may_meet_all(recipe, profile, can_buy):
    """False when the profiled hand cannot meet all five requirements of the beer of row
    `recipe` (recipe_purchase would count fewer), from two bounds worked out without the call:
    the adjunct, a kind of its own, must be in hand; and the core slots whose own kind falls
    short can be met only by Organic cards (no more than the hand holds) and the one purchase.
    True says nothing: recipe_purchase decides. About half of the bots' launch checks stop here."""
    adj = recipe[C.BF_ADJ]
    if adj >= 0 and profile[adj] == 0:
        return False
    lacking = 0
    for slot in range(4):
        lacking += profile[slot] < recipe[C.BF_REQ + slot]
    return lacking <= profile[ORGANIC_AT_LEAST + 1] + can_buy


@jit_inline
def profile_met(R, profile, bt, can_buy):
    """match_recipe's count alone from the hand's profile, for the bots' valuations."""
    met, _ = best_purchase(R, profile, bt, can_buy)
    return met


@jit
def match_recipe(S, R, hand, use, bt, can_buy):
    """Fit the cards of `hand` to beer type bt's recipe; `use` receives the cards taken.

    Without a purchase first; if that falls short and `can_buy`, the one purchase a launch
    allows is tried on each slot in turn (S.g[G_BUY_SLOT] records the slot bought, else -1).
    The required adjunct takes its lowest card. Returns the most of the five requirements (four
    slots and the adjunct) any of these fits meets; `use` holds that fit."""
    profile = S.scratch[C.SC_PROFILE]
    hand_profile(R, hand, profile)
    met, best_slot = best_purchase(R, profile, bt, can_buy)
    floor = bought_floor(R, bt, best_slot) if best_slot >= 0 else np.int64(0)
    _, short = fit_recipe(R, hand, use, bt, best_slot, floor)
    S.g[C.G_BUY_SLOT] = best_slot if short else -1
    return met


@jit_inline
def spend_cards(S, seat, use):
    """Cards in `use` leave the hand for the discard pile."""
    for t in range(S.hand.shape[1]):
        for _ in range(use[t]):
            S.hand[seat, t] -= 1
            discard_ingredient(S, t)


# --- launching -----------------------------------------------------------------------------------

@jit
def place_beer(S, b, seat, c):
    """Beer b claims city c if it is free, else challenges it (a Brewfest at c)."""
    S.beer[b, C.B_OWNER] = seat
    S.beer[b, C.B_CITY] = c
    if S.city[c, C.CT_BEER] < 0:
        S.city[c, C.CT_BEER] = b
        S.beer[b, C.B_LOC] = C.LOC_CITY
        S.pl[seat, C.ST_CLAIMS] += 1
    else:
        S.beer[b, C.B_LOC] = C.LOC_FEST
        S.g[C.G_SEQ] += 1
        S.beer[b, C.B_SEQ] = S.g[C.G_SEQ]
        S.city[c, C.CT_FEST] = 1
        S.pl[seat, C.ST_CHALLENGES] += 1


@jit_inline
def legal_targets(S, seat):
    """The cities (a bit each) a beer of `seat` may go to: free, or held by a rival and not
    already challenged by another beer of this seat."""
    return open_cities(S.city, S.beer, seat)


@jit
def open_cities(city, beer, seat):
    """legal_targets from the city and beer tables, all they read (a compiled call copies every
    array it is passed): one pass over the beers finds the cities `seat` challenges already."""
    challenged = 0
    for x in range(C.BEER_SLOTS):
        if beer[x, C.B_LOC] == C.LOC_FEST and beer[x, C.B_OWNER] == seat:
            challenged |= 1 << beer[x, C.B_CITY]
    targets = 0
    for c in range(C.N_CITIES):  # no branch on the city (one on its holder mispredicted often)
        b = city[c, C.CT_BEER]
        rivals = (beer[max(b, 0), C.B_OWNER] != seat) & (challenged >> c & 1 == 0)
        targets |= ((city[c, C.CT_ACTIVE] != 0) & ((b < 0) | rivals)) << c
    return targets


@jit_inline
def is_target(targets, c):
    """City c is among legal_targets `targets`."""
    return targets & (1 << c) != 0


@jit_inline
def has_target(S, seat):
    for c in range(C.N_CITIES):
        if is_unclaimed(S, c):
            return True  # a free city: no need to look for the seat's challenges
    return legal_targets(S, seat) != 0


@jit_inline
def lift_beer(S, b):
    """Take beer b off its city (Citrus move); the city becomes free."""
    c = S.beer[b, C.B_CITY]
    if S.beer[b, C.B_LOC] == C.LOC_CITY and c >= 0 and S.city[c, C.CT_BEER] == b:
        S.city[c, C.CT_BEER] = -1
    S.beer[b, C.B_CITY] = -1
    S.beer[b, C.B_LOC] = C.LOC_SKUNKED


@jit_inline
def skunk(S, b):
    S.beer[b, C.B_LOC] = C.LOC_SKUNKED
    S.beer[b, C.B_CITY] = -1
    S.beer[b, C.B_SEQ] = 0


@jit_inline
def coffee(S, R, seat, n):
    got = 0
    for o in range(n):
        if o == seat:
            continue
        k = min(param(R, C.P_COFFEE), S.pl[o, C.BANK])
        S.pl[o, C.BANK] -= k
        got += k
    S.pl[seat, C.BANK] += got
    return got


@jit_inline
def pumpkin(S, R, seat):
    got = 0
    for _ in range(param(R, C.P_PUMPKIN)):
        t = draw_ingredient(S)
        if t >= 0:
            S.hand[seat, t] += 1
            got += 1
    return got


@jit_inline
def berry(S, c1, c2):
    d = S.city[c1, C.CT_DEMAND]
    S.city[c1, C.CT_DEMAND] = S.city[c2, C.CT_DEMAND]
    S.city[c2, C.CT_DEMAND] = d


# --- brewfests ----------------------------------------------------------------------------------

@jit_inline
def fest_setup(S, c, n):
    """Mark the participants of the Brewfest at city c in S.fest; returns how many."""
    k = 0
    for s in range(n):
        S.fest[s, C.F_IN] = 0
        S.fest[s, C.F_BEER] = -1
        S.fest[s, C.F_NC] = 0
        S.fest[s, C.F_SCORE] = 0
    d = S.city[c, C.CT_BEER]
    if d >= 0:
        o = S.beer[d, C.B_OWNER]
        S.fest[o, C.F_IN] = 1
        S.fest[o, C.F_BEER] = d
        k += 1
    for b in range(C.BEER_SLOTS):
        if S.beer[b, C.B_LOC] == C.LOC_FEST and S.beer[b, C.B_CITY] == c:
            o = S.beer[b, C.B_OWNER]
            S.fest[o, C.F_IN] = 1
            S.fest[o, C.F_BEER] = b
            k += 1
    return k


@jit_inline
def commit_card(S, seat, t):
    S.hand[seat, t] -= 1
    S.fest[seat, C.F_C + S.fest[seat, C.F_NC]] = t
    S.fest[seat, C.F_NC] += 1


@jit_inline
def discard_committed(S, seat, i):
    """Committed card i of seat is discarded for good (ignored if already gone)."""
    t = S.fest[seat, C.F_C + i]
    if t >= 0:
        discard_ingredient(S, t)
        S.fest[seat, C.F_C + i] = -1


@jit_inline
def fest_score(S, R, seat):
    score = beer_quality(S, R, S.fest[seat, C.F_BEER])
    for i in range(S.fest[seat, C.F_NC]):
        t = S.fest[seat, C.F_C + i]
        if t >= 0:
            score += R.ing[t, C.IF_Q]
    S.fest[seat, C.F_SCORE] = score
    return score


@jit_inline
def fest_winner(S, R, c, n):
    """Highest score wins; the defender wins ties; tied challengers: the first to challenge."""
    defender = owner_of_city(S, c)
    best = -1
    for s in range(n):
        if S.fest[s, C.F_IN] == 0:
            continue
        fest_score(S, R, s)
        if best < 0:
            best = s
            continue
        a, b = S.fest[s, C.F_SCORE], S.fest[best, C.F_SCORE]
        if a > b:
            best = s
        elif a == b and best != defender:
            if s == defender or S.beer[S.fest[s, C.F_BEER], C.B_SEQ] < S.beer[S.fest[best, C.F_BEER], C.B_SEQ]:
                best = s
    return best


@jit_inline
def return_commits(S, n):
    for s in range(n):
        for i in range(S.fest[s, C.F_NC]):
            t = S.fest[s, C.F_C + i]
            if t >= 0:
                S.hand[s, t] += 1
                S.fest[s, C.F_C + i] = -1
        S.fest[s, C.F_NC] = 0


@jit_inline
def settle_fest(S, R, c, n, winner, game_id):
    """Winner's beer holds city c, losers' beers are skunked. Returns the winner's pile; the
    losers' piles are left in S.fest[seat, F_SCORE] for placement (the city keeps no demand)."""
    k = 0
    for s in range(n):
        k += S.fest[s, C.F_IN]
    demand = S.city[c, C.CT_DEMAND]
    pile = demand // k
    S.city[c, C.CT_DEMAND] = 0
    S.city[c, C.CT_FEST] = 0
    wb = S.fest[winner, C.F_BEER]
    for s in range(n):
        if S.fest[s, C.F_IN] == 0:
            continue
        b = S.fest[s, C.F_BEER]
        bt = S.beer[b, C.B_TYPE]
        if s == winner:
            S.pl[s, C.ST_FESTS_WON] += 1
            log_event(S, game_id, s, bt, C.LOG_FEST_WIN, S.fest[s, C.F_SCORE], c)
        else:
            S.pl[s, C.ST_FESTS_LOST] += 1
            log_event(S, game_id, s, bt, C.LOG_SKUNKED, S.fest[s, C.F_SCORE], c)
            skunk(S, b)
            S.fest[s, C.F_SCORE] = pile
    S.city[c, C.CT_BEER] = wb
    S.beer[wb, C.B_LOC] = C.LOC_CITY
    S.beer[wb, C.B_CITY] = c
    S.beer[wb, C.B_SEQ] = 0
    return pile + demand - pile * k


# --- income and scoring ----------------------------------------------------------------------------

@jit_inline
def income(S, R, n):
    """One cap per city-holding beer from the bag. The rulebook gives no order for a bag that
    runs short; players are paid in turn from the left of the dealer, as every phase is played.
    A seat's cities are counted in one pass over the cities (S.scratch[SC_TMP]), and paid at
    once: a cap a city while the bag lasts adds up to the smaller of the two totals."""
    held = S.scratch[C.SC_TMP]
    for s in range(C.MAX_PLAYERS + 1):
        held[s] = 0
    for c in range(C.N_CITIES):  # a free city counts for nobody (cell MAX_PLAYERS); no branch
        b = S.city[c, C.CT_BEER]
        o = S.beer[max(b, 0), C.B_OWNER]
        held[o if b >= 0 else C.MAX_PLAYERS] += 1
    dealer = S.g[C.G_DEALER]
    for k in range(n):
        o = (dealer + 1 + k) % n
        got = min(param(R, C.P_INCOME) * held[o], S.g[C.G_BAG])
        S.g[C.G_BAG] -= got
        S.pl[o, C.BANK] += got
        S.pl[o, C.ST_INCOME] += got


# final_score's tallies, in S.scratch[SC_TMP], counted in one pass over the cities: each seat's
# cities in each region, then each region's Market Demand.
HELD_IN = 0  # HELD_IN + seat * N_REGIONS + region
REGION_DEMAND = HELD_IN + C.MAX_PLAYERS * C.N_REGIONS


@jit_inline
def region_winner(tally, region, n):
    """The seat holding strictly the most cities of the region, or -1 (nobody or a tie)."""
    best, best_k, tied = -1, 0, False
    for s in range(n):
        k = tally[HELD_IN + s * C.N_REGIONS + region]
        if k > best_k:
            best, best_k, tied = s, k, False
        elif k == best_k and k > 0:
            tied = True
    return -1 if tied else best


SCORED_LOCS = 1 << C.LOC_CITY | 1 << C.LOC_SKUNKED | 1 << C.LOC_FEST  # a launched beer's quality scores


@jit
def final_score(S, R, n):
    for s in range(n):
        S.pl[s, C.VP_CITIES] = 0
        S.pl[s, C.VP_REGIONS] = 0
        S.pl[s, C.VP_BEERS] = 0
        S.pl[s, C.ST_CITIES] = 0
    tally = S.scratch[C.SC_TMP]
    for i in range(REGION_DEMAND + C.N_REGIONS):
        tally[i] = 0
    # No branch on who holds a city or where a beer lies (both mispredicted often): a free city
    # and a beer that does not score add nothing, to seat 0's sums (integers: the same totals).
    for c in range(C.N_CITIES):
        region = R.city[c, C.CF_REGION]
        demand = S.city[c, C.CT_DEMAND]
        tally[REGION_DEMAND + region] += demand
        b = S.city[c, C.CT_BEER]
        held = b >= 0
        holder = S.beer[max(b, 0), C.B_OWNER] * held
        mult = param(R, C.P_STYLE_MULT) if beer_style(S, R, max(b, 0)) == R.city[c, C.CF_PREF] else 1
        S.pl[holder, C.VP_CITIES] += demand * mult * held
        S.pl[holder, C.ST_CITIES] += held
        tally[HELD_IN + holder * C.N_REGIONS + region] += held
    for region in range(C.N_REGIONS):
        w = region_winner(tally, region, n)
        if w >= 0:
            S.pl[w, C.VP_REGIONS] += tally[REGION_DEMAND + region]
    for b in range(C.BEER_SLOTS):
        scored = SCORED_LOCS >> S.beer[b, C.B_LOC] & 1
        S.pl[S.beer[b, C.B_OWNER] * scored, C.VP_BEERS] += beer_quality(S, R, b) * scored
    for s in range(n):
        S.pl[s, C.VP_BANK] = S.pl[s, C.BANK]
        S.pl[s, C.SCORE] = S.pl[s, C.VP_CITIES] + S.pl[s, C.VP_REGIONS] + S.pl[s, C.VP_BEERS] + S.pl[s, C.VP_BANK]
