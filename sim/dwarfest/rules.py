"""Dwarfest rules (after the rulebook in shared/rules/dwarfest.txt), as small numba functions.

An Evening has four phases, then Cash-in:
  1. Restocking: every player secretly commits Nuggets to Tables (4, seat 4 dwarves, max 10),
     Barrels (1, hold 5 Beers, max 10), Dancers (3, +2 Fame, max 3) and to activating
     Character/Object cards from hand (played in any Tavern, permanent). Choices are revealed
     together and carried out from the Dealer clockwise; Nuggets set aside for a card that
     cannot be played are lost.
  2. Opening: in Fame order (ties: Dealer, then clockwise) players draw as many Customer cards
     as the Fame table gives.
  3. Table Service: in the Opening's Fame order (data switch service_order; 0 = from the
     Dealer), each player keeps or refuses their Customer cards (each refusal: -1 Fame,
     +1 Brawl, the card stays on the table for later players to take), then opens Barrels:
     enough for every dwarf while Barrels last (an engine rule, whatever the bot asks), at most
     one more for the Bar; every opened Barrel is fully served; seated dwarves are served at
     Tables, standing dwarves and surplus Beer at the Bar. A Bar flick lands with the player's
     skill. Table Beer: +1 Nugget; Bar Beer: +1 Nugget and +1 Fame; wasted Beer and dwarves
     without Beer: +2 Brawl each. The bank holds nugget_supply Nuggets (240 printed): it pays
     out no more than it holds.
  4. Brawls: from the Dealer, a Tavern whose Brawl is above the limit (5; EPIC 4) loses Tables
     one point each, then all Barrels for one point, then all Dancers for one point (and 2 Fame
     each), until the Brawl is back at the limit; before any of these steps a Bouncer may be
     sacrificed for -2; a Tavern still above the limit is destroyed and starts over (after the
     last Evening there is no next turn, so it keeps nothing).
  Cash-in: Evening Nuggets are cashed; each player may discard one card, then draws back to 5
  (from the first player); Brawl returns to 1 plus permanent card bonuses. After 5 Evenings the
  most cashed Nuggets wins; ties share the win.
Event cards may be played at any moment except Cash-in; bots consider them at three moments
(constants WIN_*). An Event may be cancelled by another (cancel) Event, which may itself be
cancelled.
ALCOHOLIC: everyone drinks a toast when play begins; a card may cost 1 Nugget plus a sip per
other Nugget; up to 3 sips lower a breaking Brawl by 1 each. The rulebook sets no sip limit
(sip_budget = 1 imposes sips_per_player). ALCOHOLIC+EPIC: every wasted Beer makes everyone drink.
"""

import numpy as np

from sim.core.jit import jit, jit_inline
from sim.core.rng import shuffle, uniform
from sim.core.rows import next_row, next_trace_row, put7, put8

from . import constants as C

# --- small helpers ----------------------------------------------------------------------------

@jit_inline
def param(R, i):
    return np.int64(R.p[i])


@jit_inline
def dice_stream(seat):
    return 1 + seat


@jit_inline
def policy_stream(seat):
    return 1 + C.MAX_PLAYERS + seat


@jit
def trace(S, code, seat, a, b, c, d, e):
    """Append one replay row when tracing: move code, Evening, seat, five arguments."""
    i = next_trace_row(S.trace, S.g, C.G_TRACE, C.G_OVERFLOW)
    put8(S.trace, i, code, S.g[C.G_EVENING], seat, a, b, c, d, e)


@jit
def log_event(S, game_id, seat, card, kind, amount, target):
    """Append one events-table row (sim/core/schema.py events_table order)."""
    i = next_row(S.ev, S.g, C.G_EVENTS, C.G_OVERFLOW)
    put7(S.ev, i, game_id, seat, S.g[C.G_EVENING] + 1, card, kind, amount, target)


@jit_inline
def add_fame(S, R, seat, delta):
    """Fame moves on a track from 0 to fame_max."""
    f = S.pl[seat, C.FAME] + delta
    S.pl[seat, C.FAME] = min(max(f, 0), param(R, C.P_FAME_MAX))


@jit_inline
def customer_cards_for(S, R, seat):
    return R.fame_cards[S.pl[seat, C.FAME]]


# --- permanent card effects ------------------------------------------------------------------

@jit
def tavern_sum(S, R, seat, field):
    """Sum of a card field (C.CF_*) over the cards in play in `seat`'s Tavern."""
    total = 0
    for t in range(R.card.shape[0]):
        total += S.tav[seat, t] * R.card[t, field]
    return total


@jit_inline
def seats_of(S, R, seat):
    return S.pl[seat, C.TABLES] * param(R, C.P_SEATS) + tavern_sum(S, R, seat, C.CF_SEATS)


@jit_inline
def bouncers_of(S, R, seat):
    return tavern_sum(S, R, seat, C.CF_BOUNCER)


@jit
def bar_chance(S, R, seat, skill):
    bonus = 0.0
    for t in range(R.bar_skill.shape[0]):
        bonus += S.tav[seat, t] * R.bar_skill[t]
    return min(max(skill + bonus, 0.0), 1.0)


@jit
def starting_brawl(S, R, seat):
    """Brawl at the start of an Evening: 1 plus permanent card bonuses, never below 0."""
    return max(param(R, C.P_START_BRAWL) + tavern_sum(S, R, seat, C.CF_BRAWL), 0)


# --- the Nugget bank ---------------------------------------------------------------------------

@jit
def bank_left(S, R):
    """Nuggets still in the bank: the printed supply less what the players hold."""
    held = 0
    for seat in range(S.g[C.G_N]):
        held += S.pl[seat, C.TILL] + S.pl[seat, C.EVENING]
    return max(param(R, C.P_NUGGET_SUPPLY) - held, 0)


@jit_inline
def from_bank(S, R, want):
    """Nuggets the bank can pay of `want`."""
    return min(want, bank_left(S, R))


# --- decks ------------------------------------------------------------------------------------

@jit_inline
def copy_into(dst, src, n):
    for i in range(n):
        dst[i] = src[i]


@jit
def draw_tavern_card(S):
    """Top Tavern card, reshuffling the discards when the deck runs out; -1 if none left."""
    if S.g[C.G_TDECK] == 0:
        n = S.g[C.G_TDISC]
        if n == 0:
            return -1
        copy_into(S.piles[C.PILE_TDECK], S.piles[C.PILE_TDISC], n)
        S.g[C.G_TDECK] = n
        S.g[C.G_TDISC] = 0
        shuffle(S.piles[C.PILE_TDECK], n, S.rng, 0)
    S.g[C.G_TDECK] -= 1
    return S.piles[C.PILE_TDECK][S.g[C.G_TDECK]]


@jit_inline
def discard_tavern_card(S, card):
    S.piles[C.PILE_TDISC][S.g[C.G_TDISC]] = card
    S.g[C.G_TDISC] += 1


@jit
def draw_customer_card(S):
    if S.g[C.G_CDECK] == 0:
        n = S.g[C.G_CDISC]
        if n == 0:
            return -1
        copy_into(S.piles[C.PILE_CDECK], S.piles[C.PILE_CDISC], n)
        S.g[C.G_CDECK] = n
        S.g[C.G_CDISC] = 0
        shuffle(S.piles[C.PILE_CDECK], n, S.rng, 0)
    S.g[C.G_CDECK] -= 1
    return S.piles[C.PILE_CDECK][S.g[C.G_CDECK]]


@jit_inline
def discard_customer_card(S, dwarves):
    S.piles[C.PILE_CDISC][S.g[C.G_CDISC]] = dwarves
    S.g[C.G_CDISC] += 1


@jit
def give_customer_cards(S, seat, k):
    """Draw k Customer cards face up in front of `seat`."""
    got = 0
    for _ in range(k):
        if S.pl[seat, C.N_DRAWN] >= C.MAX_DRAWN:
            S.g[C.G_OVERFLOW] = 1
            break
        card = draw_customer_card(S)
        if card < 0:
            break
        S.drawn[seat, S.pl[seat, C.N_DRAWN]] = card
        S.pl[seat, C.N_DRAWN] += 1
        got += card
    return got


@jit
def refill_hand(S, R, seat):
    """Draw back to the hand size. The cards drawn are not logged as offers: they depend on what
    was played and discarded before, and only the opening hands' offers (fixed by the shuffle
    alone) serve the randomised-offer card value."""
    held = 0
    for t in range(S.hand.shape[1]):
        held += S.hand[seat, t]
    while held < param(R, C.P_HAND):
        card = draw_tavern_card(S)
        if card < 0:
            break
        S.hand[seat, card] += 1
        held += 1


# --- setup ------------------------------------------------------------------------------------

@jit
def reset_tavern(S, R, seat, nuggets, tables, barrels):
    """Setup resources (also used when a destroyed Tavern starts over)."""
    S.pl[seat, C.TILL] = nuggets
    S.pl[seat, C.EVENING] = 0
    S.pl[seat, C.TABLES] = tables
    S.pl[seat, C.BARRELS] = barrels
    S.pl[seat, C.DANCERS] = 0
    S.pl[seat, C.FAME] = param(R, C.P_START_FAME)
    S.pl[seat, C.BRAWL] = param(R, C.P_START_BRAWL)


@jit
def setup_decks(S, R):
    k = 0
    for t in range(R.card.shape[0]):
        for _ in range(R.card[t, C.CF_COUNT]):
            S.piles[C.PILE_TDECK, k] = t
            k += 1
    S.g[C.G_TDECK] = k
    S.g[C.G_TDISC] = 0
    shuffle(S.piles[C.PILE_TDECK], k, S.rng, 0)
    n = R.customers.shape[0]
    copy_into(S.piles[C.PILE_CDECK], R.customers, n)
    S.g[C.G_CDECK] = n
    S.g[C.G_CDISC] = 0
    S.g[C.G_POOL] = 0
    shuffle(S.piles[C.PILE_CDECK], n, S.rng, 0)


@jit
def setup_players(S, R, n):
    S.pl[:] = 0
    S.st[:] = 0
    S.hand[:] = 0
    S.tav[:] = 0
    for seat in range(n):
        reset_tavern(S, R, seat, param(R, C.P_START_NUGGETS), param(R, C.P_START_TABLES),
                     param(R, C.P_START_BARRELS))
        if R.p[C.P_ALCOHOLIC] > 0:
            S.pl[seat, C.SIPS] = param(R, C.P_SIPS) if R.p[C.P_SIP_BUDGET] > 0 else C.UNLIMITED_SIPS
            toast(S, seat)
    # Deal five cards each, one at a time around the table.
    for _ in range(param(R, C.P_HAND)):
        for seat in range(n):
            card = draw_tavern_card(S)
            if card >= 0:
                S.hand[seat, card] += 1


@jit
def log_opening_offers(S, n, game_id):
    """One offer row per card of every opening hand: the shuffle alone fixed them (amount 1)."""
    for seat in range(n):
        for t in range(S.hand.shape[1]):
            for _ in range(S.hand[seat, t]):
                log_event(S, game_id, seat, t, C.LOG_OFFER, C.OFFER_DEALT, seat)


# --- treatments (sim/core/treatment.py) --------------------------------------------------------

@jit_inline
def neutral_card(R):
    """The neutral (blank) card type: data.py appends it after the Tavern cards."""
    return R.card.shape[0] - 1


@jit
def replace_in_deck(S, card, blank):
    """remove: every copy of `card` in the Tavern deck becomes `blank`, in its own place, so
    every other card is dealt and drawn as in the untreated game."""
    for i in range(S.g[C.G_TDECK]):
        if S.piles[C.PILE_TDECK, i] == card:
            S.piles[C.PILE_TDECK, i] = blank


@jit
def inject_card(S, seat, card):
    """inject: one extra copy of `card` into `seat`'s hand from outside the deck (no draw, no
    random number), counted in G_INJECTED for the card-conservation invariant."""
    S.hand[seat, card] += 1
    S.g[C.G_INJECTED] += 1
    S.g[C.G_TREATED] = seat


# --- paying for cards -------------------------------------------------------------------------

@jit_inline
def nugget_price(R, card, sips):
    """Nuggets due for a card when `sips` of its cost are paid in sips (ALCOHOLIC)."""
    return R.card[card, C.CF_COST] - sips


@jit
def sips_for(R, card, available):
    """ALCOHOLIC: a card may cost 1 Nugget plus one sip per other Nugget due. Sips to pay
    with, given `available` sips (0 when the variant is off or the sips do not suffice)."""
    if R.p[C.P_ALCOHOLIC] <= 0 or R.card[card, C.CF_COST] < 1:
        return 0
    if available >= R.card[card, C.CF_COST] - 1:
        return R.card[card, C.CF_COST] - 1
    return 0


@jit_inline
def drink(S, seat, sips):
    S.pl[seat, C.SIPS] -= sips
    S.st[seat, C.ST_SIPS_USED] += sips


@jit_inline
def toast(S, seat):
    """ALCOHOLIC: the toast to Glory when play begins is everyone's first sip."""
    if S.pl[seat, C.SIPS] > 0:
        drink(S, seat, 1)


@jit_inline
def can_host(S, R, target, card):
    """A Tavern holds any number of stackable cards but one copy of the others."""
    return R.card[card, C.CF_STACKABLE] == 1 or S.tav[target, card] == 0


# --- phase 1: Restocking (reveal) ---------------------------------------------------------------

@jit
def carry_out_restock(S, R, seat, game_id):
    """Carry out `seat`'s hidden choices after the reveal."""
    tables, barrels, dancers = S.pl[seat, C.BUY_TABLES], S.pl[seat, C.BUY_BARRELS], S.pl[seat, C.BUY_DANCERS]
    S.pl[seat, C.TILL] -= (tables * param(R, C.P_TABLE_COST) + barrels * param(R, C.P_BARREL_COST)
                           + dancers * param(R, C.P_DANCER_COST))
    S.pl[seat, C.TABLES] += tables
    S.pl[seat, C.BARRELS] += barrels
    S.pl[seat, C.DANCERS] += dancers
    add_fame(S, R, seat, dancers * param(R, C.P_DANCER_FAME))
    if tables + barrels + dancers > 0:
        trace(S, C.TR_BUY, seat, tables, barrels, dancers, S.pl[seat, C.TILL], 0)
    for k in range(S.pl[seat, C.N_PLAYS]):
        card, target, sips = S.plays[seat, k, 0], S.plays[seat, k, 1], S.plays[seat, k, 2]
        paid = nugget_price(R, card, sips)
        S.pl[seat, C.TILL] -= paid
        drink(S, seat, sips)
        if S.hand[seat, card] > 0 and can_host(S, R, target, card):
            S.hand[seat, card] -= 1
            S.tav[target, card] += 1
            add_fame(S, R, target, R.card[card, C.CF_FAME])
            S.st[seat, C.ST_CARDS_PLAYED] += 1
            log_event(S, game_id, seat, card, C.LOG_PLAY, paid, target)
            trace(S, C.TR_PLAY, seat, card, target, paid, sips, 1)
        else:
            trace(S, C.TR_PLAY, seat, card, target, paid, sips, 0)  # Nuggets lost


# --- Event cards --------------------------------------------------------------------------------

@jit
def apply_event(S, R, seat, card, target):
    kind = R.card[card, C.CF_EVENT]
    amount = R.card[card, C.CF_AMOUNT]
    if kind == C.EV_STEAL_DANCER:
        lost = min(amount, S.pl[target, C.DANCERS])
        S.pl[target, C.DANCERS] -= lost
        add_fame(S, R, target, -lost * param(R, C.P_DANCER_FAME))
    elif kind == C.EV_BRAWL_UP:
        S.pl[target, C.BRAWL] += amount
    elif kind == C.EV_BRAWL_DOWN:
        S.pl[seat, C.BRAWL] = max(S.pl[seat, C.BRAWL] - amount, 0)
    elif kind == C.EV_EXTRA_CUSTOMERS:
        give_customer_cards(S, seat, amount)
    elif kind == C.EV_SPOIL_BARRELS:
        S.pl[target, C.BARRELS] = max(S.pl[target, C.BARRELS] - amount, 0)
    elif kind == C.EV_FAME_UP:
        add_fame(S, R, seat, amount)


@jit
def pay_card(S, R, seat, card, sips, game_id, target, kind):
    """Take a card from hand, pay for it and log it; returns the Nuggets paid."""
    paid = nugget_price(R, card, sips)
    S.pl[seat, C.TILL] -= paid
    drink(S, seat, sips)
    S.hand[seat, card] -= 1
    S.st[seat, C.ST_CARDS_PLAYED] += 1
    log_event(S, game_id, seat, card, kind, paid, target)
    return paid


@jit
def affordable(S, R, seat, card):
    """Sips to use (>= 0) if `seat` can pay for `card` now, else -1."""
    sips = sips_for(R, card, S.pl[seat, C.SIPS])
    if S.pl[seat, C.TILL] >= nugget_price(R, card, sips):
        return sips
    if S.pl[seat, C.TILL] >= R.card[card, C.CF_COST]:
        return 0
    return -1


@jit
def find_cancel(S, R, seat):
    """A cancel card `seat` holds and can pay for, else -1."""
    for t in range(R.card.shape[0]):
        if R.card[t, C.CF_EVENT] == C.EV_CANCEL and S.hand[seat, t] > 0 and affordable(S, R, seat, t) >= 0:
            return t
    return -1


# --- phase 3: Table Service ----------------------------------------------------------------------

@jit
def refuse_card(S, R, seat, k):
    """`seat` refuses its k-th Customer card: it goes to the table pool; -Fame, +Brawl."""
    dwarves = S.drawn[seat, k]
    S.drawn[seat, k] = S.drawn[seat, S.pl[seat, C.N_DRAWN] - 1]
    S.pl[seat, C.N_DRAWN] -= 1
    S.piles[C.PILE_POOL][S.g[C.G_POOL]] = dwarves
    S.g[C.G_POOL] += 1
    add_fame(S, R, seat, -param(R, C.P_REFUSE_FAME))
    S.pl[seat, C.BRAWL] += param(R, C.P_REFUSE_BRAWL)
    S.st[seat, C.ST_REFUSED] += 1
    trace(S, C.TR_REFUSE, seat, dwarves, 0, 0, 0, 0)


@jit
def take_from_pool(S, seat, k):
    """`seat` takes the k-th refused card lying on the table, at no cost."""
    dwarves = S.piles[C.PILE_POOL, k]
    S.piles[C.PILE_POOL, k] = S.piles[C.PILE_POOL][S.g[C.G_POOL] - 1]
    S.g[C.G_POOL] -= 1
    if S.pl[seat, C.N_DRAWN] >= C.MAX_DRAWN:
        S.g[C.G_OVERFLOW] = 1
        return
    S.drawn[seat, S.pl[seat, C.N_DRAWN]] = dwarves
    S.pl[seat, C.N_DRAWN] += 1
    trace(S, C.TR_TAKE, seat, dwarves, 0, 0, 0, 0)


@jit_inline
def dwarves_in(S, seat):
    total = 0
    for k in range(S.pl[seat, C.N_DRAWN]):
        total += S.drawn[seat, k]
    return total


@jit_inline
def barrels_needed(R, dwarves):
    beers = param(R, C.P_BEERS)
    return (dwarves + beers - 1) // beers


@jit
def max_barrels_to_open(S, R, seat, dwarves):
    """Enough Barrels for every dwarf, plus at most one Barrel served at the Bar."""
    return min(S.pl[seat, C.BARRELS], barrels_needed(R, dwarves) + param(R, C.P_BAR_BARRELS))


@jit
def min_barrels_to_open(S, R, seat, dwarves):
    """Every dwarf must be served a Beer: as many Barrels as that takes, or all one has."""
    return min(S.pl[seat, C.BARRELS], barrels_needed(R, dwarves))


@jit
def legal_barrels(S, R, seat, dwarves, wanted):
    """The Barrels opened when `wanted` are asked for: never fewer than serving every dwarf
    takes (while Barrels last), never more than one beyond that for the Bar."""
    return min(max(wanted, min_barrels_to_open(S, R, seat, dwarves)), max_barrels_to_open(S, R, seat, dwarves))


@jit
def split_service(dwarves, seats, beers):
    """(served at Tables, Beers flicked at the Bar, dwarves left without Beer)."""
    at_tables = min(dwarves, seats, beers)
    at_bar = beers - at_tables
    unserved = max(dwarves - beers, 0)
    return at_tables, at_bar, unserved


@jit
def everyone_drinks(S, n):
    """ALCOHOLIC and EPIC: a wasted Beer makes everyone drink a sip (while they have any)."""
    for s in range(n):
        if S.pl[s, C.SIPS] > 0:
            drink(S, s, 1)


@jit
def flick_beers(S, R, seat, beers, chance):
    """Flick `beers` Beers along the Bar; returns how many landed. Each flick uses the seat's
    dice stream; in ALCOHOLIC+EPIC every wasted Beer makes everyone drink."""
    landed = 0
    for _ in range(beers):
        if uniform(S.rng, dice_stream(seat)) < chance:
            landed += 1
        elif R.p[C.P_DRINK_ON_WASTE] > 0:
            everyone_drinks(S, S.g[C.G_N])
    return landed


@jit
def settle_service(S, R, seat, at_tables, at_bar, landed, unserved):
    """Nuggets, Fame and Brawl of an Evening's service (plus permanent card income)."""
    wasted = at_bar - landed
    S.pl[seat, C.EVENING] += from_bank(S, R, at_tables + landed + tavern_sum(S, R, seat, C.CF_INCOME))
    add_fame(S, R, seat, landed)
    S.pl[seat, C.BRAWL] += wasted * param(R, C.P_WASTED_BRAWL) + unserved * param(R, C.P_UNSERVED_BRAWL)
    S.st[seat, C.ST_SERVED_TABLE] += at_tables
    S.st[seat, C.ST_SERVED_BAR] += landed
    S.st[seat, C.ST_WASTED] += wasted
    S.st[seat, C.ST_UNSERVED] += unserved


@jit
def serve(S, R, seat, barrels, skill):
    """Open the Barrels (`barrels` asked for, made legal) and serve every Beer, then discard
    the Evening's Customer cards."""
    dwarves = dwarves_in(S, seat)
    barrels = legal_barrels(S, R, seat, dwarves, barrels)
    S.pl[seat, C.DWARVES] = dwarves
    S.pl[seat, C.BARRELS] -= barrels
    at_tables, at_bar, unserved = split_service(dwarves, seats_of(S, R, seat), barrels * param(R, C.P_BEERS))
    landed = flick_beers(S, R, seat, at_bar, bar_chance(S, R, seat, skill))
    settle_service(S, R, seat, at_tables, at_bar, landed, unserved)
    trace(S, C.TR_SERVE, seat, dwarves, barrels, at_tables, landed, (at_bar - landed) * 1000 + unserved)
    for k in range(S.pl[seat, C.N_DRAWN]):
        discard_customer_card(S, S.drawn[seat, k])
    S.pl[seat, C.N_DRAWN] = 0


@jit
def clear_pool(S):
    for k in range(S.g[C.G_POOL]):
        discard_customer_card(S, S.piles[C.PILE_POOL, k])
    S.g[C.G_POOL] = 0


# --- phase 4: Brawls -------------------------------------------------------------------------------

@jit
def sacrifice_bouncer(S, R, seat, game_id):
    for t in range(R.card.shape[0]):
        if R.card[t, C.CF_BOUNCER] == 1 and S.tav[seat, t] > 0:
            S.tav[seat, t] -= 1
            discard_tavern_card(S, t)
            S.pl[seat, C.BRAWL] = max(S.pl[seat, C.BRAWL] - param(R, C.P_BOUNCER), 0)
            S.st[seat, C.ST_BOUNCERS_USED] += 1
            log_event(S, game_id, seat, t, C.LOG_SACRIFICE, 0, seat)
            trace(S, C.TR_SACRIFICE, seat, t, S.pl[seat, C.BRAWL], 0, 0, 0)
            return True
    return False


@jit
def calm_with_sips(S, R, seat, sips):
    """ALCOHOLIC: each sip (at most 3 per Brawl) lowers the Brawl by 1."""
    sips = min(sips, S.pl[seat, C.SIPS], param(R, C.P_BRAWL_SIPS))
    if sips > 0:
        drink(S, seat, sips)
        S.pl[seat, C.BRAWL] = max(S.pl[seat, C.BRAWL] - sips, 0)
        trace(S, C.TR_SIPS, seat, sips, S.pl[seat, C.BRAWL], 0, 0, 0)


@jit
def wreck_step(S, R, seat, game_id):
    """One step of a Brawl above the limit: a Table (-1), else all Barrels (-1), else all
    Dancers (-1, and their Fame), else the Tavern is destroyed. Returns False once destroyed."""
    tables, barrels, dancers = 0, 0, 0
    if S.pl[seat, C.TABLES] > 0:
        tables = 1
        S.pl[seat, C.TABLES] -= 1
        S.st[seat, C.ST_TABLES_LOST] += 1
    elif S.pl[seat, C.BARRELS] > 0:
        barrels = S.pl[seat, C.BARRELS]
        S.pl[seat, C.BARRELS] = 0
    elif S.pl[seat, C.DANCERS] > 0:
        dancers = S.pl[seat, C.DANCERS]
        S.pl[seat, C.DANCERS] = 0
        add_fame(S, R, seat, -dancers * param(R, C.P_DANCER_FAME))
    else:
        destroy_tavern(S, R, seat, game_id)
        return False
    S.pl[seat, C.BRAWL] -= 1
    trace(S, C.TR_LOSS, seat, tables, barrels, dancers, S.pl[seat, C.BRAWL], 0)
    return True


@jit
def wreck(S, R, seat, game_id):
    """The dwarves wreck the Tavern until its Brawl is back at the limit, or destroy it."""
    while S.pl[seat, C.BRAWL] > param(R, C.P_BRAWL_LIMIT):
        if not wreck_step(S, R, seat, game_id):
            return


@jit
def destroy_tavern(S, R, seat, game_id):
    """Total destruction: every card in play is discarded, all Nuggets are lost, and the
    Tavern starts over with the setup resources on the next turn; in the last Evening there is
    no next turn, so it keeps nothing."""
    lost = S.pl[seat, C.TILL] + S.pl[seat, C.EVENING]
    for t in range(S.tav.shape[1]):
        for _ in range(S.tav[seat, t]):
            discard_tavern_card(S, t)
            log_event(S, game_id, seat, t, C.LOG_LOST, 0, seat)
        S.tav[seat, t] = 0
    sips = S.pl[seat, C.SIPS]
    S.pl[seat, C.TILL] = 0
    S.pl[seat, C.EVENING] = 0
    if S.g[C.G_EVENING] < param(R, C.P_EVENINGS) - 1:
        reset_tavern(S, R, seat, from_bank(S, R, param(R, C.P_RESTART_NUGGETS)),
                     param(R, C.P_RESTART_TABLES), param(R, C.P_RESTART_BARRELS))
    else:
        reset_tavern(S, R, seat, 0, 0, 0)
    S.pl[seat, C.SIPS] = sips
    S.st[seat, C.ST_DESTROYED] += 1
    trace(S, C.TR_DESTROYED, seat, lost, 0, 0, 0, 0)


# --- Cash-in -----------------------------------------------------------------------------------------

@jit_inline
def cash_in(S, seat):
    S.pl[seat, C.TILL] += S.pl[seat, C.EVENING]
    S.pl[seat, C.EVENING] = 0
    S.pl[seat, C.DWARVES] = 0


@jit
def discard_from_hand(S, seat, card, game_id):
    S.hand[seat, card] -= 1
    discard_tavern_card(S, card)
    log_event(S, game_id, seat, card, C.LOG_DISCARD, 0, seat)


# --- turn order -------------------------------------------------------------------------------------

@jit
def set_dealer_order(S, n, dealer):
    for k in range(n):
        S.seats[C.ROW_ORDER, k] = (dealer + k) % n


@jit
def fame_order(S, n, dealer, out):
    """Seats by Fame, highest first; ties go to the Dealer, then clockwise from the Dealer."""
    for k in range(n):
        out[k] = (dealer + k) % n
    # insertion sort: stable, so ties keep the Dealer-first order
    for i in range(1, n):
        s = out[i]
        j = i - 1
        while j >= 0 and S.pl[out[j], C.FAME] < S.pl[s, C.FAME]:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = s
