"""Dragon Brew rules, the helpers every phase uses: event and replay rows, scoring, card piles
and draft rows, estate cards, paying and gaining ingredients, taking and placing brewers.

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt):
- Scoring: VP move a player's disk up the track, and a disk that lands on an occupied space
  goes on top of the others (l. 382); the top disk matters for turn order and ties.
- Decks: an empty deck is refilled from its reshuffled discards (l. 432).
- Mana weed is wild: it pays for whatever ingredient is short (l. 319, 671).
- Brewers: a regular action card locks once a brewer is on it, an infinite one never does
  (l. 199-201); a passed brewer leaves the race card, a migrant gnome back to the supply, an own
  brewer until winter (l. 189).
- Corrupt Judge variant: a bribe that is outbid or cancelled goes back to its owner (l. 766).
"""

from sim.core.jit import jit, jit_inline
from sim.core.rng import shuffle
from sim.core.rows import next_row, next_trace_row, put6, put8, tracing

from .. import constants as C
from .. import policies as pol
from ..state import (
    BC_EFFECT,
    P_DRAFT_ROW,
    P_LC_ABILITY,
    P_LC_COMMON,
    P_LC_EVENT,
    P_LC_NEUTRAL,
    P_NEUTRAL,
    P_OFFERING_ROW,
)

MAX_FREE_MOVES = 12  # bound on free actions/spells per turn (the rules set none; bots never need more)
(LOG_DRAFT_BREWERY, LOG_DRAFT_EVENT, LOG_ABILITY, LOG_JUDGE_WON, LOG_JUDGE_SPLIT, LOG_BRIBE, LOG_BEER,
 LOG_CLEAR_DRAFT, LOG_RESEARCH, LOG_SACRIFICE_CARD, LOG_OFFER) = range(11)
GNOME, OWN = 0, 1  # who take_brewer took


# ----------------------------------------------------------------------------- logging

@jit
def log(S, seat, kind, card, amount):
    """One events-table row (card = events-table card code, see state.P_LC_*)."""
    i = next_row(S.ev, S.g, C.G_EV, C.G_OVERFLOW)
    if i < 0:
        return
    put6(S.ev, i, S.g[C.G_GAME], seat, S.g[C.G_YEAR], card, kind, amount)
    if kind == LOG_ABILITY:
        S.pl[seat, C.PL_STATS + C.ST_ABILITY_USES] += 1


@jit_inline
def brewery_code(R, t):
    """Events-table card code of Brewery card type t (the neutral card has its own code after
    the others, so the codes of the real cards stay those of the card labels)."""
    return R.p[P_LC_NEUTRAL] if t == R.p[P_NEUTRAL] else t


@jit
def log_offers(S, R, seat, amount):
    """One offer row per card face up in the two draft rows, shown to seat (amount 1: the
    opening rows, fixed by the shuffle alone). Later rows are not logged: at every draft choice
    they would be four times the game's other events (docs/games/dragon_brew.md)."""
    for i in range(R.p[P_DRAFT_ROW]):
        if S.piles[C.ROW_BREWERY, i] >= 0:
            log(S, seat, LOG_OFFER, brewery_code(R, S.piles[C.ROW_BREWERY, i]), amount)
    for i in range(R.p[P_DRAFT_ROW]):
        if S.piles[C.ROW_EVENT, i] >= 0:
            log(S, seat, LOG_OFFER, R.p[P_LC_EVENT] + S.piles[C.ROW_EVENT, i], amount)


@jit_inline
def log_ability(S, R, seat, ability, amount):
    log(S, seat, LOG_ABILITY, R.p[P_LC_ABILITY] + ability, amount)


@jit
def trace(S, seat, kind, a, b, c, d):
    """One replay row (only when tracing: the trace buffer has more than one row): seat, year,
    move kind, four arguments, and the number of event rows logged before the move."""
    i = next_trace_row(S.trace, S.g, C.G_TRACE, C.G_OVERFLOW)
    put8(S.trace, i, seat, S.g[C.G_YEAR], kind, a, b, c, d, S.g[C.G_EV])


@jit
def trace_move(S, R, seat, mv):
    """A move as the replay shows it: estate card indices become card keys, judge slots judges."""
    if not tracing(S.trace):
        return
    k = mv[0]
    if k == C.M_BREWER or k == C.M_SPELL or k == C.M_FREE:
        trace(S, seat, k, S.est[seat, mv[1], C.CF_KEY], mv[2], 0, 0)
    elif k == C.M_GUEST or k == C.M_SERVANT or k == C.M_SPELLBOOK:
        trace(S, seat, k, mv[2], S.est[mv[2], mv[3], C.CF_KEY], 0, 0)
    elif k == C.M_SACRIFICE:
        trace(S, seat, k, S.est[seat, mv[2], C.CF_KEY], 0, 0, 0)
    elif k == C.M_OGRE or k == C.M_BRIBE:
        trace(S, seat, k, S.piles[C.ROW_JUDGES, mv[1] if k == C.M_BRIBE else mv[2]], mv[2] if k == C.M_BRIBE else 0, 0, 0)
    elif k == C.M_DRAFT:
        trace(S, seat, k, mv[1], S.piles[C.ROW_BREWERY + mv[1], mv[2]], 0, 0)
    else:
        trace(S, seat, k, mv[1], mv[2], mv[3], mv[4])


@jit_inline
def stat(S, seat, k, amount):
    S.pl[seat, C.PL_STATS + k] += amount


@jit
def score(S, seat, vp, source):
    """Add VP (source = ST_VP_* statistic); the scoring disk lands on top of any on its space."""
    if vp <= 0:
        return
    S.pl[seat, C.PL_VP] += vp
    stat(S, seat, source, vp)
    S.g[C.G_STAMP] += 1
    S.pl[seat, C.PL_STAMP] = S.g[C.G_STAMP]


# ----------------------------------------------------------------------------- piles and rows

@jit_inline
def push(S, pile, card):
    S.piles[pile, S.g[C.G_N_PILE + pile]] = card
    S.g[C.G_N_PILE + pile] += 1


@jit
def draw(S, deck, disc):
    """Top card of a deck; an empty deck takes its shuffled discards first; -1 if both are empty."""
    if S.g[C.G_N_PILE + deck] == 0:
        if S.g[C.G_N_PILE + disc] == 0:
            return -1
        for k in range(S.g[C.G_N_PILE + disc]):
            S.piles[deck, k] = S.piles[disc, k]
        S.g[C.G_N_PILE + deck] = S.g[C.G_N_PILE + disc]
        S.g[C.G_N_PILE + disc] = 0
        shuffle(S.piles[deck], S.g[C.G_N_PILE + deck], S.rng, 0)
    S.g[C.G_N_PILE + deck] -= 1
    return S.piles[deck, S.g[C.G_N_PILE + deck]]


@jit_inline
def draw_recipe(S, deck):
    """deck 0 = barrel, 1 = spice."""
    return draw(S, C.PILE_RDECK_BARREL + deck, C.PILE_RDISC_BARREL + deck)


@jit_inline
def recipes_left(S):
    return (S.g[C.G_N_PILE + C.PILE_RDECK_BARREL] + S.g[C.G_N_PILE + C.PILE_RDISC_BARREL] + S.g[C.G_N_PILE + C.PILE_RDECK_SPICE]
            + S.g[C.G_N_PILE + C.PILE_RDISC_SPICE]) > 0


@jit
def refill_rows(S, R):
    for i in range(R.p[P_DRAFT_ROW]):
        if S.piles[C.ROW_BREWERY, i] < 0:
            S.piles[C.ROW_BREWERY, i] = draw(S, C.PILE_BDECK, C.PILE_BDISC)
    for i in range(R.p[P_DRAFT_ROW]):
        if S.piles[C.ROW_EVENT, i] < 0:
            S.piles[C.ROW_EVENT, i] = draw(S, C.PILE_EDECK, C.PILE_EDISC)


@jit
def refill_offer(S, R):
    for d in range(2):
        for i in range(R.p[P_OFFERING_ROW]):
            if S.piles[C.ROW_OFFER_BARREL + d, i] < 0:
                S.piles[C.ROW_OFFER_BARREL + d, i] = draw_recipe(S, d)


@jit
def discard_draft_card(S, row, slot):
    t = S.piles[C.ROW_BREWERY + row, slot]
    if t >= 0:
        push(S, C.PILE_BDISC if row == 0 else C.PILE_EDISC, t)
        S.piles[C.ROW_BREWERY + row, slot] = -1


@jit
def discard_offer(S, R):
    for d in range(2):
        for i in range(R.p[P_OFFERING_ROW]):
            if S.piles[C.ROW_OFFER_BARREL + d, i] >= 0:
                push(S, C.PILE_RDISC_BARREL + d, S.piles[C.ROW_OFFER_BARREL + d, i])
            S.piles[C.ROW_OFFER_BARREL + d, i] = -1


@jit
def add_to_book(S, seat, r):
    n = S.pl[seat, C.PL_N_BOOK]
    if n >= C.MAX_BOOK:
        S.g[C.G_OVERFLOW] = 1
        return
    S.pl[seat, C.PL_BOOK + n] = r
    S.pl[seat, C.PL_N_BOOK] = n + 1


# ----------------------------------------------------------------------------- estate cards

@jit
def add_card(S, seat, key, bc, kind, infinite):
    ci = S.pl[seat, C.PL_N_CARDS]
    if ci >= C.MAX_CARDS:
        S.g[C.G_OVERFLOW] = 1
        return
    c = S.est[seat, ci]
    c[C.CF_KEY] = key
    c[C.CF_BC] = bc
    c[C.CF_KIND] = kind
    c[C.CF_INFINITE] = infinite
    c[C.CF_LOCKED] = 0
    c[C.CF_OWN] = 0
    c[C.CF_GNOME] = 0
    c[C.CF_SPELL_USED] = 0
    c[C.CF_N_UP] = 0
    S.pl[seat, C.PL_N_CARDS] = ci + 1


@jit
def remove_card(S, seat, ci):
    n = S.pl[seat, C.PL_N_CARDS]
    for k in range(ci, n - 1):
        for f in range(C.N_CF):
            S.est[seat, k, f] = S.est[seat, k + 1, f]
    S.pl[seat, C.PL_N_CARDS] = n - 1


@jit_inline
def ability_of_key(key):
    """The ability index of a race ability card key, or -1."""
    a = key - C.KEY_ABILITY
    return a if 0 <= a < len(C.ABILITIES) else -1


@jit
def card_code(R, key, bc):
    """Events-table card code of an estate card."""
    if bc >= 0:
        return brewery_code(R, bc)
    if key < C.KEY_ABILITY:
        return R.p[P_LC_COMMON] + key
    return R.p[P_LC_ABILITY] + key - C.KEY_ABILITY


@jit_inline
def is_key(S, seat, ci, key):
    return S.est[seat, ci, C.CF_KEY] == key


@jit_inline
def effect_of(S, R, seat, ci):
    """The Brewery effect of an estate card, or -1 for race cards."""
    bc = S.est[seat, ci, C.CF_BC]
    return R.bc[bc, BC_EFFECT] if bc >= 0 else -1


# ----------------------------------------------------------------------------- ingredients

@jit
def pay(S, R, B, seat, klass, n):
    """Spend n ingredients of a class (the bot picks which) or of one ingredient; mana weed pays
    what is short."""
    if klass < C.N_INGS:
        use = min(S.pl[seat, C.PL_INV + klass], n)
        S.pl[seat, C.PL_INV + klass] -= use
        S.pl[seat, C.PL_INV + C.MANA] -= n - use
        return
    picks = S.tmp[3]
    k = pol.spend(S, R, B, seat, klass, n, picks)
    for a in range(k):
        S.pl[seat, C.PL_INV + picks[a]] -= 1
    S.pl[seat, C.PL_INV + C.MANA] -= n - k


@jit
def gain_grains(S, R, B, seat, n):
    picks = S.tmp[3]
    pol.grains(S, R, B, seat, n, picks)
    for a in range(n):
        S.pl[seat, C.PL_INV + picks[a]] += 1


@jit
def gain_magic(S, R, B, seat, n):
    picks = S.tmp[3]
    pol.magic(S, R, B, seat, n, picks)
    for a in range(n):
        S.pl[seat, C.PL_INV + picks[a]] += 1


@jit
def can_mash(S, seat, w):
    return pol.can_mash(S, seat, w)


# ----------------------------------------------------------------------------- brewers

@jit
def take_brewer(S, seat, src, own_only):
    """Take a brewer for an assignment: from Gnome Housing, or the race card (gnomes first)."""
    if src == 1:
        S.pl[seat, C.PL_HOUSING] -= 1
        return GNOME
    if S.pl[seat, C.PL_GNOME_AVAIL] > 0 and not own_only:
        S.pl[seat, C.PL_GNOME_AVAIL] -= 1
        return GNOME
    S.pl[seat, C.PL_OWN_AVAIL] -= 1
    return OWN


@jit
def place(S, seat, ci, who):
    if who == GNOME:
        S.est[seat, ci, C.CF_GNOME] += 1
        S.pl[seat, C.PL_GNOMES_OUT] += 1
    else:
        S.est[seat, ci, C.CF_OWN] += 1
    if not S.est[seat, ci, C.CF_INFINITE]:
        S.est[seat, ci, C.CF_LOCKED] = 1


@jit
def brewer_leaves(S, seat, who):
    """A passed brewer (or one sent on a quest): a gnome goes back to the supply, an own brewer
    waits for winter."""
    if who == GNOME:
        S.g[C.G_GNOME_SUPPLY] += 1
    else:
        S.pl[seat, C.PL_OWN_OUT] += 1


@jit
def refund_bribe(S, slot):
    q = S.piles[C.ROW_BRIBE_SEAT, slot]
    if q >= 0:
        S.pl[q, C.PL_GOLD] += S.piles[C.ROW_BRIBE_GOLD, slot]
        S.pl[q, C.PL_BRIBE_SLOT] = -1
        S.pl[q, C.PL_BRIBE_GOLD] = 0
        S.piles[C.ROW_BRIBE_SEAT, slot] = -1
        S.piles[C.ROW_BRIBE_GOLD, slot] = 0
