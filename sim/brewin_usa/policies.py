"""Brewin' USA bots. Every decision is one function taking (S, R, seat, p, ...) where p is the
bot's row in the policy table (policies.toml); kind = random picks uniformly among legal
moves, kind = heuristic scores the options with the weights W_* and takes the best.

The heuristic ("greedy" and its styles) works in Victory Points (a cap is a VP):
  * a beer in hand is worth (quality + expected city value) x (requirements met / 5)^3, where the
    five requirements are the four core slots and the required adjunct (recipe fitting as in
    rules.match_recipe, one bought quality allowed); a hand is worth the sum over its beers, plus
    `fest_card_value` per quality point of its four best cards, plus `card_value` per card;
  * a batch is worth the rise of the hand's value (the face-down card counts as an average card,
    unseen); bids go up to `bid_share` of that, keeping `bank_reserve` caps;
  * a city is worth its Market Demand (times the style multiplier when the beer matches), plus
    `region_value` per city already held in its region, plus `income_rounds` caps of income; a
    challenge is worth that times the chance of winning the Brewfest, estimated from the beer
    qualities and the four best cards in hand (rivals' hands: size x 2, cards are hidden), with
    `win_margin` of safety, plus the denial of the rival's city and `challenge_bonus`;
  * Market Demand goes on the free city the bot is best placed to claim (2 VP per beer in hand or
    skunked of the city's preferred style, `region_value` per city held in the region), less
    `demand_spread` per cap already there: a dealer launches last, so a big pile mostly feeds the
    rivals who launch first; adjuncts are used when their action is worth more than `adjunct_keep`.
Random bots: bids pass or raise by 1-3 with equal chance (uniform over every raise amount would
simply spend the bank on the first batch); other choices are uniform over the legal options.
"""

import numpy as np

from sim.core.jit import jit, jit_inline
from sim.core.rng import randint

from . import constants as C
from . import rules as ru


@jit_inline
def is_random(R, p):
    return R.pol_kind[p] == C.KIND_RANDOM


@jit_inline
def w(R, p, i):
    return R.pol_w[p, i]


@jit_inline
def rnd(S, seat, k):
    return randint(S.rng, ru.policy_stream(seat), k)


# --- valuation helpers ------------------------------------------------------------------------

@jit
def top_quality(R, hand, k):
    """Sum of the k best card qualities in `hand` (counts by type)."""
    total, left = 0, k
    for q in range(C.MAX_Q, 0, -1):
        for kind in range(C.N_KINDS):
            t = R.kq[kind, q]
            if t < 0:
                continue
            take = min(left, hand[t])
            total += take * q
            left -= take
            if left == 0:
                return total
    return total


@jit_inline
def mean_demand(city):
    """The mean Market Demand of the free cities of the city table `city` (S.city), 0 if none."""
    k, d = 0, 0
    for c in range(C.N_CITIES):
        if city[c, C.CT_ACTIVE] == 1 and city[c, C.CT_BEER] < 0:  # rules.is_unclaimed
            k += 1
            d += city[c, C.CT_DEMAND]
    return d / k if k else 0.0


@jit_inline
def hand_profile(S, R, hand):
    """rules.hand_profile of `hand`, in its scratch row (read by rules.profile_met)."""
    profile = S.scratch[C.SC_PROFILE]
    ru.hand_profile(R, hand, profile)
    return profile


# A seat's hand as the auction values it, in S.scratch[SC_SEAT + seat]: worked out with the value
# of the hand alone (held_value) and read for each batch (batch_value), which adds the batch's
# cards to it instead of valuing the whole hand again (the hand's four best cards' qualities keep
# the best four of hand and batch). Each beer's count of met requirements is counted again: nearly
# every batch raises a kind the beer's recipe lacks or brings Organic cards.
BASE_TOP = ru.PROFILE  # [0, PROFILE): rules.hand_profile; then the four best qualities, best first
BASE_CARDS = BASE_TOP + C.MAX_COMMIT  # cards in hand
BASE_BEERS = BASE_CARDS + 1  # beers in hand, the neutral card left out
BASE_TYPE = BASE_BEERS + 1  # their beer types, in slot order
BASE_AT_LEAST = BASE_TYPE + C.MAX_BEER_HAND + 1  # (beer_hand cards, and a treatment's copy) then
# base_value's count of the cards of at least each quality q, at BASE_AT_LEAST + q
assert BASE_AT_LEAST + C.MAX_Q + 1 <= C.SCRATCH


@jit_inline
def city_guess(city, weights):
    """The city a beer in hand is valued with: the mean Market Demand of the free cities plus
    income (`weights`: the bot's row of Rules.pol_w)."""
    return mean_demand(city) + weights[C.W_INCOME]


@jit_inline
def beer_worth(beer, bt, city, met):
    """A beer of type bt (a row of the table `beer`, Rules.beer) in hand, `met` of its five
    requirements met: (quality + city) x (met/5)^3."""
    share = met / 5.0
    return (beer[bt, C.BF_QUALITY] + city) * share * share * share


@jit_inline
def hand_worth(beers, base, cards, w_fest, w_card):
    """A hand's worth from its beers' (`beers`, beer_worth summed in slot order), its four best
    qualities (in `base`) for Brewfests at `w_fest` a point, and its size at `w_card` a card."""
    best = 0
    for i in range(BASE_TOP, BASE_TOP + C.MAX_COMMIT):
        best += base[i]
    return beers + w_fest * best + w_card * cards


@jit_inline
def add_to_best_four(base, q):
    """A card of quality q among the four best qualities in `base` (best first; the lowest drops).
    Each place keeps the larger and passes the smaller on, with no branch (a branch on the
    comparison mispredicted about every other card)."""
    for i in range(BASE_TOP, BASE_TOP + C.MAX_COMMIT):
        kept = base[i]
        base[i] = max(kept, q)
        q = min(kept, q)


@jit_inline
def held_value(S, R, seat, p):
    """Heuristic worth of the ingredient cards `seat` holds with its beers in hand (hand_worth);
    leaves the hand's base in S.scratch[SC_SEAT + seat] for batch_value."""
    return base_value(S.scratch[C.SC_SEAT + seat], S.hand[seat], S.city, S.beer, S.vals, R.ing, R.beer,
                      ru.param(R, C.P_QUALITY_PURCHASE), R.pol_w[p], seat)


@jit
def base_value(base, hand, city, beer, slots, ing, rbeer, mode, weights, seat):
    """held_value of `hand` (a row of S.hand) into `base` (the seat's scratch row), `slots` a
    scratch row, `mode` the purchase reading, `weights` the bot's row of Rules.pol_w. Reads
    these and the city, beer and card tables alone: a compiled call copies every array it is
    passed."""
    ru.ing_profile(ing, hand, base)
    cards = 0
    for q in range(C.MAX_Q + 1):
        base[BASE_AT_LEAST + q] = 0
    for t in range(ing.shape[0]):
        cards += hand[t]
        base[BASE_AT_LEAST + ing[t, C.IF_Q]] += hand[t]
    for q in range(C.MAX_Q - 1, 0, -1):
        base[BASE_AT_LEAST + q] += base[BASE_AT_LEAST + q + 1]
    # The i-th best quality is the highest q with more than i cards of at least q: counted with
    # no branch on the hand (inserting each card held mispredicted on most card types).
    for i in range(C.MAX_COMMIT):
        best = 0
        for q in range(1, C.MAX_Q + 1):
            best += base[BASE_AT_LEAST + q] > i
        base[BASE_TOP + i] = best
    base[BASE_CARDS] = cards
    value_city = city_guess(city, weights)
    neutral = rbeer.shape[0] - 1  # rules.neutral_type
    v, k = 0.0, 0
    for i in range(ru.seat_beers(beer, seat, ru.IN_HAND, slots)):
        bt = beer[np.int64(slots[i]), C.B_TYPE]
        if bt == neutral:
            continue  # the neutral card is worth nothing, however the hand fits its (unmeetable) recipe
        met, _ = ru.recipe_purchase(rbeer[bt], mode, base, np.bool_(True))
        base[BASE_TYPE + k] = bt
        k += 1
        v += beer_worth(rbeer, bt, value_city, met)
    base[BASE_BEERS] = k
    return hand_worth(v, base, cards, weights[C.W_FEST_CARD], weights[C.W_CARD])


@jit_inline
def batch_value(S, R, seat, p, b, before):
    """Rise of the hand's value from batch b (its face-down card counted as an average card) over
    `before`, held_value of the hand now (worked out once for all the batches, with the hand's
    base, to which batch_rise adds the batch's face-up cards)."""
    return batch_rise(S.scratch[C.SC_SEAT + seat], S.scratch[C.SC_PROFILE], S.batch[b], S.city, R.ing, R.beer,
                      ru.param(R, C.P_QUALITY_PURCHASE), R.pol_w[p], before)


@jit
def batch_rise(base, row, batch, city, ing, beer, mode, weights, before):
    """batch_value of the hand in `base` and `batch` (a row of S.batch), `row` a scratch row,
    `mode` the purchase reading, `weights` the bot's row of Rules.pol_w. Reads these and the
    city and card tables alone: a compiled call copies every array it is passed."""
    for i in range(BASE_CARDS):
        row[i] = base[i]
    cards = base[BASE_CARDS]
    for i in range(batch[C.BT_N]):
        if i == batch[C.BT_HIDDEN]:
            continue
        kind, q = ing[batch[i], C.IF_KIND], ing[batch[i], C.IF_Q]
        cards += 1
        add_to_best_four(row, q)
        row[kind] = max(row[kind], q)
        if kind == C.ORGANIC:
            for qq in range(1, q + 1):
                row[ru.ORGANIC_AT_LEAST + qq] += 1
    v = 0.0
    value_city = city_guess(city, weights)
    for k in range(base[BASE_BEERS]):
        bt = base[BASE_TYPE + k]
        met, _ = ru.recipe_purchase(beer[bt], mode, row, np.bool_(True))
        v += beer_worth(beer, bt, value_city, met)
    after = hand_worth(v, row, cards, weights[C.W_FEST_CARD], weights[C.W_CARD])
    hidden = weights[C.W_CARD] + 2.0 * weights[C.W_FEST_CARD] if batch[C.BT_HIDDEN] >= 0 else 0.0
    return after - before + hidden


# Nothing batch_value reads (a seat's hand and beers in hand, Market Demand, the batches) changes
# during an auction until the seat takes its batch, after which it neither nominates nor bids: so
# each seat's value of its hand and of each batch is kept in S.auction from the first time it is
# asked until the next auction opens (kernel.auction calls forget_auction_values), and the hand's
# base that held_value leaves serves each of its batches (known_batch_value asks for the hand first).
HELD = C.MAX_PLAYERS  # S.auction column of a seat's hand alone


@jit_inline
def forget_auction_values(S):
    for seat in range(S.auction.shape[0]):
        for j in range(S.auction.shape[1]):
            S.auction[seat, j] = np.nan


@jit_inline
def known_held_value(S, R, seat, p):
    if np.isnan(S.auction[seat, HELD]):
        S.auction[seat, HELD] = held_value(S, R, seat, p)
    return S.auction[seat, HELD]


@jit_inline
def known_batch_value(S, R, seat, p, b):
    """batch_value of batch b to `seat`, worked out once an auction."""
    if np.isnan(S.auction[seat, b]):
        S.auction[seat, b] = batch_value(S, R, seat, p, b, known_held_value(S, R, seat, p))
    return S.auction[seat, b]


# target_value's tallies for one decision (in S.scratch[SC_TMP]): each seat's cities in each region
# (read for the deciding seat and for the holder of each city it could challenge) and the deciding
# seat's four best cards' quality. Neither changes between the cities of a decision, so they are
# counted once a decision, not once a city.
SEAT_REGIONS = 0  # SEAT_REGIONS + seat * N_REGIONS + region
FEST_BEST = SEAT_REGIONS + C.MAX_PLAYERS * C.N_REGIONS


@jit
def tally_targets(S, R, seat, tally):
    for i in range(SEAT_REGIONS, FEST_BEST):
        tally[i] = 0
    for c in range(C.N_CITIES):
        o = ru.owner_of_city(S, c)
        if o >= 0:
            tally[SEAT_REGIONS + o * C.N_REGIONS + R.city[c, C.CF_REGION]] += 1
    tally[FEST_BEST] = top_quality(R, S.hand[seat], C.MAX_COMMIT)


@jit_inline
def city_worth(S, R, p, tally, seat, c, style):
    mult = ru.param(R, C.P_STYLE_MULT) if style == R.city[c, C.CF_PREF] else 1
    held = tally[SEAT_REGIONS + seat * C.N_REGIONS + R.city[c, C.CF_REGION]]
    return (S.city[c, C.CT_DEMAND] * mult + w(R, p, C.W_REGION) * (1 + held)
            + w(R, p, C.W_INCOME) * ru.param(R, C.P_INCOME))


@jit_inline
def win_chance(S, R, p, tally, quality, c):
    """Chance of winning the Brewfest at c with a beer of `quality`: the seat's four best cards,
    one lost, against the holder's beer and a guess at its best cards."""
    d = S.city[c, C.CT_BEER]
    o = S.beer[d, C.B_OWNER]
    rival = ru.beer_quality(S, R, d) + min(C.MAX_COMMIT, ru.hand_size(S, o)) * 2.0 * 0.75
    diff = quality + tally[FEST_BEST] * 0.75 - rival - w(R, p, C.W_MARGIN)
    return 1.0 / (1.0 + np.exp(-diff / 2.0))


@jit
def target_value(S, R, p, seat, b, c, tally):
    """Worth of beer b going to city c; `tally` is tally_targets(S, R, seat) of the decision."""
    style = ru.beer_style(S, R, b)
    v = city_worth(S, R, p, tally, seat, c, style)
    d = S.city[c, C.CT_BEER]
    if d < 0:
        return v
    o = S.beer[d, C.B_OWNER]
    denial = city_worth(S, R, p, tally, o, c, ru.beer_style(S, R, d))
    return win_chance(S, R, p, tally, ru.beer_quality(S, R, b), c) * (v + denial) + w(R, p, C.W_CHALLENGE)


# --- setup ----------------------------------------------------------------------------------------

@jit_inline
def wants_redraw(S, R, seat, p, b):
    if is_random(R, p):
        return rnd(S, seat, 2) == 1
    bt = S.beer[b, C.B_TYPE]
    total = 0
    for slot in range(4):
        total += R.beer[bt, C.BF_REQ + slot]
    return total > w(R, p, C.W_REDRAW)


# --- auction ----------------------------------------------------------------------------------------

@jit_inline
def nominate(S, R, seat, p, n):
    """The batch to put up for bid (an unsold one)."""
    if is_random(R, p):
        left = 0
        for b in range(n):
            if S.batch[b, C.BT_OWNER] < 0:
                left += 1
        k = rnd(S, seat, left)
        for b in range(n):
            if S.batch[b, C.BT_OWNER] < 0:
                if k == 0:
                    return b
                k -= 1
    best, best_v = -1, -1e18
    for b in range(n):
        if S.batch[b, C.BT_OWNER] < 0:
            v = known_batch_value(S, R, seat, p, b)
            if v > best_v:
                best, best_v = b, v
    return best


@jit_inline
def opening_bid(S, R, seat, p, b):
    lo = ru.param(R, C.P_MIN_OPEN)
    if is_random(R, p):
        hi = min(S.pl[seat, C.BANK], lo + 2)
        return lo + rnd(S, seat, max(hi - lo, 0) + 1)
    return lo


@jit_inline
def bid_limit(S, R, seat, p, b):
    cap = S.pl[seat, C.BANK] - np.int64(w(R, p, C.W_RESERVE))
    return min(cap, np.int64(known_batch_value(S, R, seat, p, b) * w(R, p, C.W_BID_SHARE)))


@jit_inline
def raise_to(S, R, seat, p, b, high):
    """A bid above `high` (within the bank), or -1 to pass."""
    bank = S.pl[seat, C.BANK]
    if bank <= high:
        return -1
    if is_random(R, p):
        if rnd(S, seat, 2) == 0:
            return -1
        return min(bank, high + 1 + rnd(S, seat, 3))
    if high + 1 <= bid_limit(S, R, seat, p, b):
        return high + 1
    return -1


@jit_inline
def pile_city(S, R, seat, p, first):
    """A free city for a cap of Market Demand `seat` spreads, or -1 (none free: the cap goes to
    the bag). A pile is spread one cap at a time; `first` for its first (or only) cap, which works out what the greedy choice reads that a cap leaves as it was, each free
    city's worth but for its Market Demand (claim_worths, into S.vals). A cap changes one city's
    Market Demand alone, so the pile's other caps share the worths (about six caps a pile)."""
    return demand_spot(S.city, S.beer, S.rng, S.scratch[C.SC_TMP], S.vals, R.city, R.beer, R.pol_kind[p],
                       R.pol_w[p], seat, first)


@jit
def demand_spot(city, beer, rng, tally, worths, rcity, rbeer, kind, weights, seat, first):
    """pile_city for a bot of `kind` with `weights` (its row of Rules.pol_w), `tally` and `worths`
    scratch rows. Reads these and the city and beer tables alone: a compiled call copies every
    array it is passed, and a pile of caps makes one call a cap."""
    k = 0
    for c in range(C.N_CITIES):
        k += is_free(city, c)
    if k == 0:
        return -1  # and none for the pile's other caps either: no worth is read
    if kind == C.KIND_RANDOM:
        pick = randint(rng, ru.policy_stream(seat), k)  # rnd
        for c in range(C.N_CITIES):
            if is_free(city, c):
                if pick == 0:
                    return c
                pick -= 1
    if first:
        claim_worths(city, beer, tally, worths, rcity, rbeer, seat, weights[C.W_REGION])
    return claim_spot(city, worths, weights[C.W_SPREAD])


@jit_inline
def is_free(city, c):
    """rules.is_unclaimed on the city table."""
    return (city[c, C.CT_ACTIVE] == 1) & (city[c, C.CT_BEER] < 0)  # no branch: read in loops over the cities


# claim_worths' tallies for its seat, in its scratch row `tally`: its beers in hand or skunked of each
# style, its cities in each region (counted once, not once a city); then the list of those beers.
STYLE_BEERS = 0
REGION_CITIES = STYLE_BEERS + len(C.STYLES)
CLAIM_BEERS = REGION_CITIES + C.N_REGIONS
assert CLAIM_BEERS + C.BEER_SLOTS + 1 <= C.SCRATCH


@jit_inline
def tally_claims(city, beer, tally, rcity, rbeer, seat):
    for i in range(STYLE_BEERS, CLAIM_BEERS):
        tally[i] = 0
    neutral = rbeer.shape[0] - 1  # rules.neutral_type
    beers = tally[CLAIM_BEERS:]
    for i in range(ru.seat_beers(beer, seat, ru.IN_HAND_OR_SKUNKED, beers)):
        bt = beer[beers[i], C.B_TYPE]
        if bt != neutral:
            tally[STYLE_BEERS + rbeer[bt, C.BF_STYLE]] += 1
    for c in range(C.N_CITIES):
        d = city[c, C.CT_BEER]
        if d >= 0 and beer[d, C.B_OWNER] == seat:
            tally[REGION_CITIES + rcity[c, C.CF_REGION]] += 1


@jit_inline
def claim_worths(city, beer, tally, worths, rcity, rbeer, seat, w_region):
    """Into `worths`, each free city's worth to `seat` before its Market Demand (claim_spot):
    `w_region` per city it holds in the region, 2 VP per beer of the city's preferred style it
    holds in hand or skunked. `tally` is a scratch row (tally_claims)."""
    tally_claims(city, beer, tally, rcity, rbeer, seat)
    for c in range(C.N_CITIES):
        if is_free(city, c):
            v = w_region * tally[REGION_CITIES + rcity[c, C.CF_REGION]]
            for _ in range(tally[STYLE_BEERS + rcity[c, C.CF_PREF]]):
                v += 2.0  # one at a time, as the sum has always been taken
            worths[c] = v


@jit_inline
def claim_spot(city, worths, w_spread):
    """The greedy pile_city: the free city its seat is best placed to claim (claim_worths), less
    `w_spread` per cap already there."""
    best, best_v = -1, -1e18
    for c in range(C.N_CITIES):  # no branch on the city (whether it is free, or better, mispredicted)
        v = worths[c]
        v -= (w_spread + 0.01) * city[c, C.CT_DEMAND]  # rivals may claim it first
        better = is_free(city, c) & (v > best_v)  # a held city's worth is stale: never read as better
        best = c if better else best
        best_v = v if better else best_v
    return best


# --- launching ----------------------------------------------------------------------------------------

@jit_inline
def can_launch_new(S, R, seat, b, profile):
    """Beer card b (in seat's hand, whose hand_profile is `profile`) can be launched now, the seat
    having a legal target (ru.has_target, asked once for all its beers)."""
    if S.pl[seat, C.COLORED] == 0:
        return False
    can_buy = S.pl[seat, C.BANK] >= ru.param(R, C.P_QUALITY_COST)
    bt = S.beer[b, C.B_TYPE]
    return ru.may_meet_all(R.beer[bt], profile, can_buy) and ru.profile_met(R, profile, bt, can_buy) == 5


@jit_inline
def can_relaunch(S, R, seat, b):
    """Skunked beer b can be relaunched now, the seat having a legal target (as can_launch_new)."""
    return (S.beer[b, C.B_LOC] == C.LOC_SKUNKED and S.beer[b, C.B_OWNER] == seat
            and S.pl[seat, C.BANK] >= ru.param(R, C.P_RELAUNCH_COST))


@jit
def best_target_value(S, R, p, seat, b):
    best = -1e18
    tally = S.scratch[C.SC_TMP]
    tally_targets(S, R, seat, tally)
    targets = ru.legal_targets(S, seat)
    for c in range(C.N_CITIES):
        if ru.is_target(targets, c):
            best = max(best, target_value(S, R, p, seat, b, c, tally))
    return best


@jit_inline
def choose_launch(S, R, seat, p):
    """A beer to launch (a card in hand or a skunked beer to relaunch), or -1 to stop."""
    if not ru.has_target(S, seat):
        return -1  # no beer can go anywhere: no option, as when none fits
    options = 0
    profile = hand_profile(S, R, S.hand[seat])
    for i in range(ru.seat_beers(S.beer, seat, ru.IN_HAND_OR_SKUNKED, S.vals)):
        b = np.int64(S.vals[i])
        loc = S.beer[b, C.B_LOC]
        if (loc == C.LOC_HAND and can_launch_new(S, R, seat, b, profile)) or (loc == C.LOC_SKUNKED and can_relaunch(S, R, seat, b)):
            S.vals[options] = b  # options <= i: the list is read ahead of what it keeps
            options += 1
    if options == 0:
        return -1
    if is_random(R, p):
        k = rnd(S, seat, options + 1)
        return -1 if k == options else np.int64(S.vals[k])
    best, best_v = -1, -1e18
    for i in range(options):
        b = np.int64(S.vals[i])
        if S.beer[b, C.B_LOC] == C.LOC_HAND:
            v = 100.0 + ru.beer_quality(S, R, b)
        else:
            v = best_target_value(S, R, p, seat, b) - ru.param(R, C.P_RELAUNCH_COST)
            if v < w(R, p, C.W_RELAUNCH):
                continue
        if v > best_v:
            best, best_v = b, v
    return best


@jit
def choose_target(S, R, seat, p, b):
    """The city beer b claims or challenges (a legal target exists)."""
    targets = ru.legal_targets(S, seat)
    if is_random(R, p):
        k = 0
        for c in range(C.N_CITIES):
            if ru.is_target(targets, c):
                k += 1
        pick = rnd(S, seat, k)
        for c in range(C.N_CITIES):
            if ru.is_target(targets, c):
                if pick == 0:
                    return c
                pick -= 1
    best, best_v = -1, -1e18
    tally = S.scratch[C.SC_TMP]
    tally_targets(S, R, seat, tally)
    for c in range(C.N_CITIES):
        if ru.is_target(targets, c):
            v = target_value(S, R, p, seat, b, c, tally)
            if v > best_v:
                best, best_v = c, v
    return best


@jit_inline
def adjunct_value(S, R, seat, p, kind, n):
    if kind == C.COFFEE:
        got = 0
        for o in range(n):
            if o != seat:
                got += min(ru.param(R, C.P_COFFEE), S.pl[o, C.BANK])
        return got * (1.0 + 1.0 / max(n - 1, 1))
    if kind == C.PUMPKIN:
        return ru.param(R, C.P_PUMPKIN) * (w(R, p, C.W_CARD) + 2.0 * w(R, p, C.W_FEST_CARD)) + 1.0
    if kind == C.CITRUS:
        b = citrus_beer(S, R, seat, p)
        return best_target_value(S, R, p, seat, b) if b >= 0 else 0.0
    return berry_gain(S, R, seat)


@jit_inline
def choose_adjunct(S, R, seat, p, use, n):
    """An optional adjunct kind to add to the launch (cards beyond `use`), or -1."""
    k = 0
    for kind in range(C.BERRY, C.N_KINDS):
        if ru.lowest_available(R, S.hand[seat], use, kind, np.int64(1)) >= 0:
            S.vals[k] = kind
            k += 1
    if k == 0:
        return -1
    if is_random(R, p):
        i = rnd(S, seat, k + 1)
        return -1 if i == k else np.int64(S.vals[i])
    best, best_v = -1, w(R, p, C.W_ADJ_KEEP)
    for i in range(k):
        kind = np.int64(S.vals[i])
        v = adjunct_value(S, R, seat, p, kind, n)
        if v > best_v:
            best, best_v = kind, v
    return best


@jit_inline
def movable(S, seat, b):
    """Citrus may move a beer of `seat` lying skunked or holding a city without a pending Brewfest."""
    if S.beer[b, C.B_OWNER] != seat:
        return False
    loc = S.beer[b, C.B_LOC]
    if loc == C.LOC_SKUNKED:
        return True
    return loc == C.LOC_CITY and S.city[S.beer[b, C.B_CITY], C.CT_FEST] == 0


@jit
def citrus_beer(S, R, seat, p):
    """The beer Citrus moves, or -1 (the move is optional)."""
    if not ru.has_target(S, seat):
        return -1
    if is_random(R, p):
        k = 0
        for b in range(C.BEER_SLOTS):
            if movable(S, seat, b):
                k += 1
        i = rnd(S, seat, k + 1)
        for b in range(C.BEER_SLOTS):
            if movable(S, seat, b):
                if i == 0:
                    return b
                i -= 1
        return -1
    best, best_v = -1, 0.0
    for b in range(C.BEER_SLOTS):
        if movable(S, seat, b) and S.beer[b, C.B_LOC] == C.LOC_SKUNKED:
            v = best_target_value(S, R, p, seat, b)
            if v > best_v:
                best, best_v = b, v
    return best


@jit_inline
def city_stakes(S, R, seat, stakes):
    """Twice the worth to `seat` of a cap of Market Demand on each city, into the scratch row
    `stakes`: the style multiplier of the beer holding it, times 1 for `seat`'s beer and -1/2
    for a rival's, 0 for a city nobody holds (doubled, every worth is an integer)."""
    for c in range(C.N_CITIES):
        b = S.city[c, C.CT_BEER]
        stakes[c] = 0
        if b >= 0:
            mult = ru.param(R, C.P_STYLE_MULT) if ru.beer_style(S, R, b) == R.city[c, C.CF_PREF] else 1
            stakes[c] = 2 * mult if S.beer[b, C.B_OWNER] == seat else -mult


@jit
def berry_gain(S, R, seat):
    """Best gain of swapping two cities' Market Demand; the pair goes to S.seats[ROW_TMP, 0:2].
    A swap of c1's d1 caps and c2's d2 gains (worth of a cap on c1 - on c2) x (d2 - d1): counted
    in city_stakes' doubled integer worths, it is exactly twice the gain valued city by city
    (halves and integers, exact in floating point too), so the same pair is the first best."""
    stakes = S.scratch[C.SC_TMP]
    city_stakes(S, R, seat, stakes)
    best, found = 0, False
    for c1 in range(C.N_CITIES):
        if S.city[c1, C.CT_ACTIVE] == 0:
            continue
        for c2 in range(c1 + 1, C.N_CITIES):
            if S.city[c2, C.CT_ACTIVE] == 0:
                continue
            g = (stakes[c1] - stakes[c2]) * (S.city[c2, C.CT_DEMAND] - S.city[c1, C.CT_DEMAND])
            if not found or g > best:
                best, found = g, True
                S.seats[C.ROW_TMP, 0] = c1
                S.seats[C.ROW_TMP, 1] = c2
    return best / 2.0 if found else -1e18


@jit_inline
def berry_pair(S, R, seat, p):
    """Two active cities whose Market Demand to swap (into S.seats[ROW_TMP, 0:2])."""
    if is_random(R, p):
        k = 0
        for c in range(C.N_CITIES):
            k += S.city[c, C.CT_ACTIVE]
        i, j = rnd(S, seat, k), rnd(S, seat, k - 1)
        if j >= i:
            j += 1
        for c in range(C.N_CITIES):
            if S.city[c, C.CT_ACTIVE]:
                if i == 0:
                    S.seats[C.ROW_TMP, 0] = c
                if j == 0:
                    S.seats[C.ROW_TMP, 1] = c
                i -= 1
                j -= 1
        return
    berry_gain(S, R, seat)


@jit_inline
def discard_choice(S, R, seat, p, k):
    """The beer card `seat` discards from its hand, among the k beers in hand listed in S.vals
    (rules.seat_beers, slot order): its index in the list."""
    if is_random(R, p):
        return rnd(S, seat, k)
    best, best_v = -1, 1e18
    profile = hand_profile(S, R, S.hand[seat])
    for i in range(k):
        b = np.int64(S.vals[i])
        met = ru.profile_met(R, profile, S.beer[b, C.B_TYPE], np.bool_(True)) / 5.0
        v = ru.beer_quality(S, R, b) * (0.2 + met * met * met)
        if v < best_v:
            best, best_v = i, v
    return best


# --- brewfests ----------------------------------------------------------------------------------------

@jit_inline
def commit_cards(S, R, seat, p):
    """Put up to brewfest_cards ingredient cards from hand into the Brewfest."""
    limit = min(ru.param(R, C.P_FEST_CARDS), ru.hand_size(S, seat))
    if is_random(R, p):
        k = rnd(S, seat, limit + 1)
        for _ in range(k):
            pick = rnd(S, seat, ru.hand_size(S, seat))
            for t in range(S.hand.shape[1]):
                if pick < S.hand[seat, t]:
                    ru.commit_card(S, seat, t)
                    break
                pick -= S.hand[seat, t]
        return
    for _ in range(limit):
        for q in range(C.MAX_Q, 0, -1):
            done = False
            for kind in range(C.N_KINDS):
                t = R.kq[kind, q]
                if t >= 0 and S.hand[seat, t] > 0:
                    ru.commit_card(S, seat, t)
                    done = True
                    break
            if done:
                break


@jit_inline
def fest_victim(S, R, seat, p, n):
    """The rival whose committed card `seat` discards."""
    k = 0
    for s in range(n):
        if s != seat and S.fest[s, C.F_IN]:
            k += 1
    if is_random(R, p):
        pick = rnd(S, seat, k)
        for s in range(n):
            if s != seat and S.fest[s, C.F_IN]:
                if pick == 0:
                    return s
                pick -= 1
    best, best_v = -1, -1e18
    for s in range(n):
        if s != seat and S.fest[s, C.F_IN]:
            v = ru.beer_quality(S, R, S.fest[s, C.F_BEER]) + 2.0 * S.fest[s, C.F_NC]
            if v > best_v:
                best, best_v = s, v
    return best


@jit_inline
def blind_pick(S, seat, victim):
    """Index of the committed card of `victim` that `seat` discards, unseen (uniform), or -1."""
    k = 0
    for i in range(S.fest[victim, C.F_NC]):
        if S.fest[victim, C.F_C + i] >= 0:
            k += 1
    if k == 0:
        return -1
    pick = rnd(S, seat, k)
    for i in range(S.fest[victim, C.F_NC]):
        if S.fest[victim, C.F_C + i] >= 0:
            if pick == 0:
                return i
            pick -= 1
    return -1


@jit_inline
def pile_to_leave(S, R, seat, p, c, pile):
    """How much of the winner's pile stays on city c (the rest goes to the bank)."""
    if is_random(R, p):
        return rnd(S, seat, pile + 1)
    b = S.city[c, C.CT_BEER]
    if w(R, p, C.W_LEAVE) > 0 and ru.beer_style(S, R, b) == R.city[c, C.CF_PREF]:
        return pile
    return 0
