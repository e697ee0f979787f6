"""Dwarfest bots, compiled with numba. Every decision has a `random` branch (uniform over the
legal choices) and a `heuristic` branch whose weights come from policies.toml:

  bar_skill           chance a Bar flick lands (the player's dexterity, not a strategy)
  brawl_margin        keep the expected Brawl this far under what the Tavern can absorb
  seat_cover          seats bought per expected dwarf
  dancer_min_evenings hire Dancers only with at least this many Evenings left
  card_value_ratio    activate a card when its value is at least this times its cost
  event_reserve       Nuggets kept back (for a cancel) when a cancel card is in hand
  bouncer_excess      sacrifice a Bouncer while the Brawl exceeds the limit by this much
  bar_barrel          open the optional Bar Barrel when its net value exceeds 1 - this
  brawl_risk          standard deviations of Bar-flick luck to allow for when judging the Brawl
  budget, candidates, margin_weight   the search bot's knobs (search.py); unused here

Values are in Nuggets. A Table is worth its cost; Fame is worth what the extra Customer
cards it brings will earn in the Evenings left.
"""

import numpy as np

from sim.core.jit import jit, jit_inline
from sim.core.rng import randint, uniform

from . import constants as C
from .rules import (
    bar_chance,
    bouncers_of,
    can_host,
    dwarves_in,
    max_barrels_to_open,
    min_barrels_to_open,
    neutral_card,
    nugget_price,
    param,
    policy_stream,
    seats_of,
    sips_for,
    split_service,
)


@jit_inline
def kind_of(R, pol):
    return R.pol_kind[pol]


@jit_inline
def coin(S, seat, p):
    return uniform(S.rng, policy_stream(seat)) < p


@jit_inline
def pick(S, seat, n):
    return randint(S.rng, policy_stream(seat), n)


@jit
def leader(S, seat, n):
    """The richest rival. Ties go to the first rival clockwise from `seat`, so that no seat
    is everyone's default target."""
    best, best_v = -1, -1
    for k in range(1, n):
        s = (seat + k) % n
        v = S.pl[s, C.TILL] + S.pl[s, C.EVENING]
        if v > best_v:
            best, best_v = s, v
    return best


@jit_inline
def random_rival(S, seat, n):
    k = pick(S, seat, n - 1)
    return k if k < seat else k + 1


@jit_inline
def evenings_left(S, R):
    return param(R, C.P_EVENINGS) - S.g[C.G_EVENING]


@jit
def holds_cancel(S, R, seat):
    for t in range(R.card.shape[0]):
        if R.card[t, C.CF_EVENT] == C.EV_CANCEL and S.hand[seat, t] > 0:
            return True
    return False


# --- valuations ---------------------------------------------------------------------------------

@jit
def fame_value(S, R, seat, extra, left):
    """Nuggets that `extra` Fame is expected to bring in the Evenings after this one."""
    if left <= 1:
        return 0.0
    f = S.pl[seat, C.FAME]
    fmax = param(R, C.P_FAME_MAX)
    more = R.fame_cards[min(max(f + extra, 0), fmax)] - R.fame_cards[f]
    return more * R.mean_dwarves * 0.5 * (left - 1)


@jit
def card_value(S, R, seat, card, left):
    """Value of a Character/Object card in one's own Tavern, in Nuggets."""
    v = R.card[card, C.CF_INCOME] * left + fame_value(S, R, seat, R.card[card, C.CF_FAME], left)
    v += R.bar_skill[card] * 4.0 * 2.0 * left  # about four Bar flicks an Evening
    v += R.card[card, C.CF_SEATS] * 0.5 * left
    v -= R.card[card, C.CF_BRAWL] * 1.5 * (left - 1)
    v += R.card[card, C.CF_BOUNCER] * 3.0
    return v


@jit
def harm_value(R, card, left):
    """Value of putting a harmful card in the leader's Tavern."""
    return R.card[card, C.CF_BRAWL] * 1.5 * (left - 1) - R.card[card, C.CF_FAME] * 0.5


@jit
def absorbable(S, R, seat):
    """Brawl points the Tavern can take above the limit before losing a Table."""
    return bouncers_of(S, R, seat) * param(R, C.P_BOUNCER) + min(S.pl[seat, C.SIPS], param(R, C.P_BRAWL_SIPS))


# Table Service context: per-seat values fixed while a bot weighs its Customer cards,
# computed once (S.ctx) so the many candidate evaluations are plain arithmetic.
CX_SEATS, CX_ABSORB, CX_CHANCE, CX_MARGIN, CX_LEFT, CX_BARRELS, CX_TABLES, CX_WEALTH, CX_FAME, CX_BARW, CX_RISK = range(11)


@jit
def fill_service_context(S, R, seat, pol):
    cx = S.ctx
    cx[CX_SEATS] = seats_of(S, R, seat)
    cx[CX_ABSORB] = absorbable(S, R, seat)
    cx[CX_CHANCE] = bar_chance(S, R, seat, R.pol_w[pol, C.W_BAR_SKILL])
    cx[CX_MARGIN] = R.pol_w[pol, C.W_BRAWL_MARGIN]
    cx[CX_LEFT] = evenings_left(S, R)
    cx[CX_BARRELS] = S.pl[seat, C.BARRELS]
    cx[CX_TABLES] = S.pl[seat, C.TABLES]
    cx[CX_WEALTH] = S.pl[seat, C.TILL] + S.pl[seat, C.EVENING]
    cx[CX_FAME] = S.pl[seat, C.FAME]
    cx[CX_BARW] = R.pol_w[pol, C.W_BAR_BARREL]
    cx[CX_RISK] = R.pol_w[pol, C.W_BRAWL_RISK]


@jit
def fame_gain_value(R, fame, extra, left):
    """fame_value of moving from `fame` by `extra` (may be negative)."""
    if left <= 1:
        return 0.0
    fmax = param(R, C.P_FAME_MAX)
    more = R.fame_cards[min(max(fame + extra, 0), fmax)] - R.fame_cards[fame]
    return more * R.mean_dwarves * 0.5 * (left - 1)


@jit
def brawl_cost(R, cx, over, gain):
    """Expected loss when the Brawl ends `over` points above what the Tavern absorbs: Tables
    first, then the Barrels and Dancers, then the whole Tavern and its Nuggets."""
    if over <= 0:
        return 0.0
    tables = cx[CX_TABLES]
    cost = min(over, tables) * param(R, C.P_TABLE_COST)
    beyond = over - tables
    if beyond > 0:
        # Barrels and Dancers go next; past them the Tavern falls. Keep a slope beyond that
        # point too, so that every refused card still counts as a step toward safety.
        cost += 2.0 * beyond
        if beyond > 2:
            cost += cx[CX_WEALTH] + gain + 10.0
    return cost


@jit
def service_value(R, cx, dwarves, barrels, brawl, fame_loss):
    """Expected Nuggets of serving `dwarves` from `barrels` Barrels, less the expected cost of
    the Brawl it would cause."""
    at_tables, at_bar, unserved = split_service(dwarves, np.int64(cx[CX_SEATS]), barrels * param(R, C.P_BEERS))
    chance = cx[CX_CHANCE]
    fame = np.int64(cx[CX_FAME])
    gain = at_tables + chance * at_bar
    landed = np.int64(chance * at_bar + 0.5)
    value = gain + fame_gain_value(R, fame, landed - fame_loss, np.int64(cx[CX_LEFT]))
    end_brawl = (brawl + (1.0 - chance) * at_bar * param(R, C.P_WASTED_BRAWL)
                 + unserved * param(R, C.P_UNSERVED_BRAWL))
    # Bar flicks are luck: allow for `brawl_risk` standard deviations of wasted Beer.
    spread = param(R, C.P_WASTED_BRAWL) * np.sqrt(at_bar * chance * (1.0 - chance))
    over = end_brawl + cx[CX_MARGIN] + cx[CX_RISK] * spread - param(R, C.P_BRAWL_LIMIT) - cx[CX_ABSORB]
    return value - brawl_cost(R, cx, over, gain)


# --- Restocking ---------------------------------------------------------------------------------

@jit
def commit_play(S, seat, card, target, sips):
    k = S.pl[seat, C.N_PLAYS]
    if k < C.MAX_PLAYS:
        S.plays[seat, k, 0] = card
        S.plays[seat, k, 1] = target
        S.plays[seat, k, 2] = sips
        S.pl[seat, C.N_PLAYS] = k + 1


@jit
def choose_restock(S, R, seat, n, pol):
    """Hidden Restocking choice: fills the BUY_* columns of S.pl[seat] and S.plays[seat]."""
    S.pl[seat, C.BUY_TABLES] = 0
    S.pl[seat, C.BUY_BARRELS] = 0
    S.pl[seat, C.BUY_DANCERS] = 0
    S.pl[seat, C.N_PLAYS] = 0
    if kind_of(R, pol) == C.KIND_RANDOM:
        random_restock(S, R, seat, n)
    else:
        heuristic_restock(S, R, seat, n, pol)


@jit
def random_restock(S, R, seat, n):
    budget = S.pl[seat, C.TILL]
    sips_left = S.pl[seat, C.SIPS]
    for t in range(R.card.shape[0]):
        if R.card[t, C.CF_CAT] != C.CAT_EVENT and S.hand[seat, t] > 0 and coin(S, seat, 0.5):
            sips = sips_for(R, t, sips_left) if coin(S, seat, 0.5) else 0
            price = nugget_price(R, t, sips)
            if price <= budget:
                budget -= price
                sips_left -= sips
                commit_play(S, seat, t, pick(S, seat, n), sips)
    room = param(R, C.P_MAX_TABLES) - S.pl[seat, C.TABLES]
    k = pick(S, seat, min(room, budget // max(param(R, C.P_TABLE_COST), 1)) + 1)
    S.pl[seat, C.BUY_TABLES] = k
    budget -= k * param(R, C.P_TABLE_COST)
    room = param(R, C.P_MAX_DANCERS) - S.pl[seat, C.DANCERS]
    k = pick(S, seat, min(room, budget // max(param(R, C.P_DANCER_COST), 1)) + 1)
    S.pl[seat, C.BUY_DANCERS] = k
    budget -= k * param(R, C.P_DANCER_COST)
    room = param(R, C.P_MAX_BARRELS) - S.pl[seat, C.BARRELS]
    S.pl[seat, C.BUY_BARRELS] = pick(S, seat, min(room, budget // max(param(R, C.P_BARREL_COST), 1)) + 1)


@jit
def heuristic_cards(S, R, seat, n, pol, budget, left):
    """Activate the cards worth their cost: own cards in one's Tavern, harmful ones in the
    leader's. Returns the budget left."""
    ratio = R.pol_w[pol, C.W_CARD_RATIO]
    rival = leader(S, seat, n)
    sips_left = S.pl[seat, C.SIPS]
    for t in range(R.card.shape[0]):
        if R.card[t, C.CF_CAT] == C.CAT_EVENT or S.hand[seat, t] == 0:
            continue
        if R.card[t, C.CF_HARMFUL] == 1:
            target, value = rival, harm_value(R, t, left)
        else:
            target, value = seat, card_value(S, R, seat, t, left)
        if not can_host(S, R, target, t) or value < ratio * R.card[t, C.CF_COST]:
            continue
        sips = sips_for(R, t, sips_left)
        if sips > 0 and sips_left - sips < param(R, C.P_BRAWL_SIPS):
            sips = 0  # keep a Brawl's worth of sips
        price = nugget_price(R, t, sips)
        if price <= budget:
            budget -= price
            sips_left -= sips
            commit_play(S, seat, t, target, sips)
    return budget


@jit
def heuristic_restock(S, R, seat, n, pol):
    left = evenings_left(S, R)
    budget = S.pl[seat, C.TILL]
    if holds_cancel(S, R, seat):
        budget -= np.int64(R.pol_w[pol, C.W_EVENT_RESERVE])
    table_cost = max(param(R, C.P_TABLE_COST), 1)
    barrel_cost = max(param(R, C.P_BARREL_COST), 1)
    dancer_cost = max(param(R, C.P_DANCER_COST), 1)
    beers = param(R, C.P_BEERS)
    # Barrels for the seats we have come before anything else: a dwarf without Beer costs
    # 2 Brawl, a Barrel costs 1 Nugget.
    seats = seats_of(S, R, seat)
    expected_now = R.fame_cards[S.pl[seat, C.FAME]] * R.mean_dwarves
    room_b = param(R, C.P_MAX_BARRELS) - S.pl[seat, C.BARRELS]
    barrels = 0
    while barrels < room_b and (S.pl[seat, C.BARRELS] + barrels) * beers < min(expected_now, seats + 0.0) \
            and budget >= barrel_cost:
        barrels += 1
        budget -= barrel_cost
    budget = heuristic_cards(S, R, seat, n, pol, max(budget, 0), left)
    # Dancers: Fame now brings customers in every later Evening.
    dancers = 0
    if left >= R.pol_w[pol, C.W_DANCER_MIN]:
        room = param(R, C.P_MAX_DANCERS) - S.pl[seat, C.DANCERS]
        while dancers < room and budget >= dancer_cost + 2 * barrel_cost:
            if fame_value(S, R, seat, (dancers + 1) * param(R, C.P_DANCER_FAME), left) <= dancer_cost * (dancers + 1):
                break
            dancers += 1
            budget -= dancer_cost
    fame = min(S.pl[seat, C.FAME] + dancers * param(R, C.P_DANCER_FAME), param(R, C.P_FAME_MAX))
    expected = R.fame_cards[fame] * R.mean_dwarves
    # Tables: a Table pays 4 Nuggets an Evening when full; not worth it in the last Evening.
    tables = 0
    if left > 1:
        room_t = param(R, C.P_MAX_TABLES) - S.pl[seat, C.TABLES]
        target = expected * R.pol_w[pol, C.W_SEAT_COVER]
        while tables < room_t and seats + tables * param(R, C.P_SEATS) < target and budget >= table_cost + barrel_cost:
            tables += 1
            budget -= table_cost
    # Barrels for the new seats and the Bar barrel.
    want_beers = min(expected, seats + tables * param(R, C.P_SEATS) + 0.0)
    if R.pol_w[pol, C.W_BAR_BARREL] > 0:
        want_beers += beers
    while barrels < room_b and (S.pl[seat, C.BARRELS] + barrels) * beers < want_beers and budget >= barrel_cost:
        barrels += 1
        budget -= barrel_cost
    S.pl[seat, C.BUY_TABLES] = tables
    S.pl[seat, C.BUY_BARRELS] = barrels
    S.pl[seat, C.BUY_DANCERS] = dancers


# --- Event cards -------------------------------------------------------------------------------

@jit_inline
def event_window(kind):
    """The moment a bot plays each kind of Event."""
    if kind == C.EV_FAME_UP or kind == C.EV_STEAL_DANCER:
        return C.WIN_RESTOCK
    if kind == C.EV_EXTRA_CUSTOMERS or kind == C.EV_SPOIL_BARRELS:
        return C.WIN_OPENING
    if kind == C.EV_BRAWL_UP or kind == C.EV_BRAWL_DOWN:
        return C.WIN_BRAWL
    return -1  # cancel: only as an answer


@jit_inline
def is_harmful(kind):
    return kind == C.EV_STEAL_DANCER or kind == C.EV_BRAWL_UP or kind == C.EV_SPOIL_BARRELS


@jit
def event_target(S, R, seat, n, pol, card):
    """Target seat for playing Event `card` now, or -1 to hold it."""
    kind = R.card[card, C.CF_EVENT]
    if not is_harmful(kind):
        target = seat
    elif kind_of(R, pol) == C.KIND_RANDOM:
        target = random_rival(S, seat, n)
    else:
        target = heuristic_event_target(S, R, seat, n, kind, card)
    if target < 0:
        return -1
    if kind_of(R, pol) == C.KIND_RANDOM:
        return target if coin(S, seat, 0.5) else -1
    if not is_harmful(kind) and not heuristic_wants_self_event(S, R, seat, kind, card):
        return -1
    return target


@jit
def heuristic_event_target(S, R, seat, n, kind, card):
    rival = -1
    best = -1
    for k in range(1, n):  # ties: first rival clockwise, as in leader()
        s = (seat + k) % n
        if kind == C.EV_STEAL_DANCER and S.pl[s, C.DANCERS] == 0:
            continue
        if kind == C.EV_SPOIL_BARRELS and S.pl[s, C.BARRELS] == 0:
            continue
        if kind == C.EV_BRAWL_UP and S.pl[s, C.BRAWL] + R.card[card, C.CF_AMOUNT] <= param(R, C.P_BRAWL_LIMIT):
            continue  # only worth it when it starts a Brawl
        v = S.pl[s, C.TILL] + S.pl[s, C.EVENING]
        if v > best:
            rival, best = s, v
    return rival


@jit
def heuristic_wants_self_event(S, R, seat, kind, card):
    if kind == C.EV_FAME_UP:
        return evenings_left(S, R) > 1
    if kind == C.EV_BRAWL_DOWN:
        return S.pl[seat, C.BRAWL] > param(R, C.P_BRAWL_LIMIT)
    if kind == C.EV_EXTRA_CUSTOMERS:
        room = min(seats_of(S, R, seat), S.pl[seat, C.BARRELS] * param(R, C.P_BEERS)) - dwarves_in(S, seat)
        return room >= R.card[card, C.CF_AMOUNT] * R.mean_dwarves
    return False


@jit
def wants_cancel(S, R, seat, pol, card, actor, target, cancelling):
    """Does `seat` answer the pending Event with a cancel? `cancelling` tells whether the
    pending card is itself a cancel (then `seat` is the one who wants its Event through)."""
    if kind_of(R, pol) == C.KIND_RANDOM:
        return coin(S, seat, 0.5)
    if cancelling:
        return True
    kind = R.card[card, C.CF_EVENT]
    if target != seat or not is_harmful(kind):
        return False
    if kind == C.EV_STEAL_DANCER:
        return S.pl[seat, C.DANCERS] > 0
    if kind == C.EV_SPOIL_BARRELS:
        return S.pl[seat, C.BARRELS] > 0
    return S.pl[seat, C.BRAWL] + R.card[card, C.CF_AMOUNT] > param(R, C.P_BRAWL_LIMIT) + absorbable(S, R, seat)


@jit
def choose_sips(S, R, seat, pol, card):
    sips = sips_for(R, card, S.pl[seat, C.SIPS])
    if kind_of(R, pol) == C.KIND_RANDOM:
        return sips if coin(S, seat, 0.5) else 0
    if S.pl[seat, C.SIPS] - sips < param(R, C.P_BRAWL_SIPS):
        return 0
    return sips


# --- Table Service ----------------------------------------------------------------------------

# Inlined: a greedy Table Service makes about 8 calls of it, and a compiled call passes each
# of R's arrays to it field by field (15% of the greedy kernel's samples were its own).
@jit_inline
def best_barrels(R, cx, dwarves, brawl, fame_loss):
    """Barrels to open for `dwarves` (enough for all of them, plus the Bar barrel when it
    pays), and the value of serving them."""
    beers = param(R, C.P_BEERS)
    top = min(np.int64(cx[CX_BARRELS]), (dwarves + beers - 1) // beers + param(R, C.P_BAR_BARRELS))
    need = min((dwarves + beers - 1) // beers, top)
    best_k = need
    best_v = service_value(R, cx, dwarves, need, brawl, fame_loss)
    if top > need:
        v = service_value(R, cx, dwarves, need + 1, brawl, fame_loss)
        if v + cx[CX_BARW] - 1.0 > best_v:
            best_k, best_v = need + 1, v
    return best_k, best_v


@jit
def choose_service(S, R, seat, pol, refuse, take):
    """Decide which own Customer cards to refuse and which pool cards to take.

    Fills `refuse` (indices into S.drawn[seat]) and `take` (indices into S.piles[C.PILE_POOL]), both
    descending so removal is safe, and returns (n_refuse, n_take)."""
    nr, nt = 0, 0
    if kind_of(R, pol) == C.KIND_RANDOM:
        for k in range(S.pl[seat, C.N_DRAWN] - 1, -1, -1):
            if coin(S, seat, 0.25):
                refuse[nr] = k
                nr += 1
        for k in range(S.g[C.G_POOL] - 1, -1, -1):
            if coin(S, seat, 0.5):
                take[nt] = k
                nt += 1
        return nr, nt
    return heuristic_service(S, R, seat, pol, refuse, take)


@jit
def heuristic_service(S, R, seat, pol, refuse, take):
    """Greedy: take the pool cards that add value, then refuse, one at a time, the own card
    whose refusal most improves the expected value, while that helps."""
    fill_service_context(S, R, seat, pol)
    cx = S.ctx
    per_refusal_fame = param(R, C.P_REFUSE_FAME)
    dwarves = dwarves_in(S, seat)
    brawl = S.pl[seat, C.BRAWL]
    _, value = best_barrels(R, cx, dwarves, brawl, 0)
    nt = 0
    for k in range(S.g[C.G_POOL] - 1, -1, -1):
        _, v = best_barrels(R, cx, dwarves + S.piles[C.PILE_POOL, k], brawl, 0)
        if v > value + 1e-9:
            take[nt] = k
            nt += 1
            dwarves += S.piles[C.PILE_POOL, k]
            value = v
    nd = S.pl[seat, C.N_DRAWN]
    kept = S.picks[C.PICK_KEPT]
    kept[:nd] = 1
    nr = 0
    while True:
        best_k, best_v = -1, value
        for k in range(nd):
            if kept[k] == 1:
                _, v = best_barrels(R, cx, dwarves - S.drawn[seat, k], brawl + (nr + 1) * refusal_cost(R),
                                    (nr + 1) * per_refusal_fame)
                if v > best_v + 1e-9:
                    best_k, best_v = k, v
        if best_k < 0:
            break
        kept[best_k] = 0
        dwarves -= S.drawn[seat, best_k]
        value = best_v
        nr += 1
    k_out = 0
    for k in range(nd - 1, -1, -1):
        if kept[k] == 0:
            refuse[k_out] = k
            k_out += 1
    return nr, nt


@jit
def choose_barrels(S, R, seat, pol):
    dwarves = dwarves_in(S, seat)
    if kind_of(R, pol) == C.KIND_RANDOM:
        low = min_barrels_to_open(S, R, seat, dwarves)
        return low + pick(S, seat, max_barrels_to_open(S, R, seat, dwarves) - low + 1)
    fill_service_context(S, R, seat, pol)
    k, _ = best_barrels(R, S.ctx, dwarves, S.pl[seat, C.BRAWL], 0)
    return k


@jit_inline
def refusal_cost(R):
    return param(R, C.P_REFUSE_BRAWL)


# --- Brawls and Cash-in --------------------------------------------------------------------------

@jit
def choose_brawl_sips(S, R, seat, pol):
    top = min(S.pl[seat, C.SIPS], param(R, C.P_BRAWL_SIPS))
    if kind_of(R, pol) == C.KIND_RANDOM:
        return pick(S, seat, top + 1)
    return min(top, S.pl[seat, C.BRAWL] - param(R, C.P_BRAWL_LIMIT))


@jit
def wants_bouncer(S, R, seat, pol):
    """Sacrifice one more Bouncer now? (called while the Brawl is above the limit)"""
    if kind_of(R, pol) == C.KIND_RANDOM:
        return coin(S, seat, 0.5)
    if S.pl[seat, C.TABLES] + S.pl[seat, C.BARRELS] + S.pl[seat, C.DANCERS] == 0:
        return True  # the next step destroys the Tavern: any Bouncer is worth less
    return S.pl[seat, C.BRAWL] - param(R, C.P_BRAWL_LIMIT) >= R.pol_w[pol, C.W_BOUNCER_EXCESS]


@jit
def choose_discard(S, R, seat, pol):
    """A card to discard before drawing back to five, or -1 to keep the hand."""
    n_types = R.card.shape[0]
    if kind_of(R, pol) == C.KIND_RANDOM:
        if not coin(S, seat, 0.5):
            return -1
        held = 0
        for t in range(n_types):
            held += S.hand[seat, t]
        if held == 0:
            return -1
        k = pick(S, seat, held)
        for t in range(n_types):
            if k < S.hand[seat, t]:
                return t
            k -= S.hand[seat, t]
        return -1
    # A non-stackable card already in one's own Tavern is dead weight unless it is harmful;
    # so is the neutral (blank) card of a remove treatment, worth nothing in hand or in play.
    for t in range(n_types):
        if S.hand[seat, t] > 0 and (t == neutral_card(R) or R.card[t, C.CF_CAT] != C.CAT_EVENT
                                    and R.card[t, C.CF_HARMFUL] == 0 and not can_host(S, R, seat, t)):
            return t
    return -1

