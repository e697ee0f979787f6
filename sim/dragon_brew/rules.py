"""Dragon Brew rules (paraphrased; the rulebook is the authority), as numba kernels on the
arrays of state.py.

A game is three years of Spring (turns clockwise until every brewer is assigned or passed), Fall
(brew behind screens, present, judge left to right, collect profit) and Winter (reset, refresh,
new turn order: the lowest player on VP starts, ties to the disk on top of the stack, and play
goes on clockwise from that seat). Free action cards stay usable after spring: each player gets
a window in fall (before brewing) and in winter (before the Winter Stores cut).

Spring turn of one player, in any order: at most one clearing of the draft (1 gold, any five
cards), at most one draft (pay the cost, refill), any number of spells (each once a year) and
free actions, and exactly one brewer action if a brewer stands on the race card (assign it to an
action card, or pass it). Gnomes in Gnome Housing are never mandatory. A player without brewers
still takes turns (to draft) while others have brewers. The phase ends when no race card holds a
brewer; the last placer finishes the turn. A bribe (Corrupt Judge variant) is any amount that
tops the standing one. Once the box runs out of purple meeples, no Migrant Gnomes are drafted
for the rest of that spring; a quest that costs a brewer needs one, even when drafted free.

Moves are rows of S.moves (kind, a, b, c, d), listed by `legal_moves` in a fixed order:
  M_END; M_CLEAR; M_DRAFT row slot; M_SPELL ci; M_SERVANT ci q oci; M_FREE ci; M_BRIBE slot lo hi;
  M_HOUSE; then per brewer source (0 race card, 1 Gnome Housing): M_BREWER ci src,
  M_GUEST ci q oci src, M_SACRIFICE ci tci, M_OGRE ci slot, M_SPELLBOOK ci q sci, and M_PASS 0.
ci indexes the player's estate, oci/sci seat q's estate; row 0 = Brewery row, 1 = Event row.
"""

from sim.core.jit import jit, jit_inline
from sim.core.rng import shuffle

from . import constants as C
from . import policies as pol
from .state import (
    AF_GOLD,
    AF_N,
    AF_OWN_ONLY,
    AF_USE,
    BC_AMOUNT,
    BC_COST,
    BC_COUNT,
    BC_EFFECT,
    BC_INFINITE,
    BC_ING,
    BC_KIND,
    BC_SPELL_COST,
    BC_SPELL_N,
    BC_TARGET,
    EF_BREWER,
    EF_COST,
    EF_COUNT,
    EF_GAIN_GOLD,
    EF_GAIN_KIND,
    EF_GAIN_N,
    EF_GAIN_RECIPES,
    EF_GAIN_VP,
    EF_KIND,
    EF_PAY_KIND,
    EF_PAY_N,
    JF_CORRUPT,
    JF_P,
    JF_PD,
    JF_S,
    JF_SD,
    JF_VP,
    P_CLEAR_DRAFT_COST,
    P_CLEAR_OFFERING_COST,
    P_CORRUPT,
    P_CORRUPT_REMOVED,
    P_DRAFT_ROW,
    P_EXTRA_GOLD,
    P_GNOME_LIMIT,
    P_INFINITE,
    P_JUDGES_EXTRA,
    P_LC_ABILITY,
    P_LC_COMMON,
    P_LC_DRAFT_POOL,
    P_LC_EVENT,
    P_LC_JUDGE,
    P_LC_RECIPE,
    P_OFFERING_ROW,
    P_TIE_MIN_VP,
    P_WORT_PER_MASH,
    RC_C0,
    RC_GOLD,
    RC_SPICE,
    RC_VP,
    RF_ABILITY,
    RF_BARREL,
    RF_BREWERS,
    RF_GOLD,
    RF_GRAIN_YIELD,
    RF_LACKS,
    RF_MAX_PLAYERS,
    RF_MIN_PLAYERS,
    RF_TRADER_COST,
    RF_WHEAT,
    book_max,
    find_card,
    has_ability,
    have,
    mash_mult,
    max_beers,
    not_borrowable,
    on_race_card,
    pay_recipe_needs,
    race_num,
    recipe_needs_payable,
    stores_cap,
    study_draw,
    take_one,
    trader_mult,
    wort_grains,
)

MAX_FREE_MOVES = 12  # bound on free actions/spells per turn (the rules set none; bots never need more)
(LOG_DRAFT_BREWERY, LOG_DRAFT_EVENT, LOG_ABILITY, LOG_JUDGE_WON, LOG_JUDGE_SPLIT, LOG_BRIBE, LOG_BEER,
 LOG_CLEAR_DRAFT, LOG_RESEARCH, LOG_SACRIFICE_CARD) = range(10)
GNOME, OWN = 0, 1  # who take_brewer took


# ----------------------------------------------------------------------------- logging

@jit
def log(S, seat, kind, card, amount):
    """One events-table row (card = events-table card code, see state.P_LC_*)."""
    i = S.g[C.G_EV]
    if i >= S.ev.shape[0]:
        S.g[C.G_OVERFLOW] = 1
        return
    row = S.ev[i]
    row[0] = S.g[C.G_GAME]
    row[1] = seat
    row[2] = S.g[C.G_YEAR]
    row[3] = card
    row[4] = kind
    row[5] = amount
    S.g[C.G_EV] = i + 1
    if kind == LOG_ABILITY:
        S.pl[seat, C.PL_STATS + C.ST_ABILITY_USES] += 1


@jit_inline
def log_ability(S, R, seat, ability, amount):
    log(S, seat, LOG_ABILITY, R.p[P_LC_ABILITY] + ability, amount)


@jit
def trace(S, seat, kind, a, b, c, d):
    """One replay row (only when tracing: the trace buffer has more than one row): seat, year,
    move kind, four arguments, and the number of event rows logged before the move."""
    cap = S.trace.shape[0]
    if cap <= 1:
        return
    i = S.g[C.G_TRACE]
    if i >= cap:
        S.g[C.G_OVERFLOW] = 1
        return
    row = S.trace[i]
    row[0] = seat
    row[1] = S.g[C.G_YEAR]
    row[2] = kind
    row[3] = a
    row[4] = b
    row[5] = c
    row[6] = d
    row[7] = S.g[C.G_EV]
    S.g[C.G_TRACE] = i + 1


@jit
def trace_move(S, R, seat, mv):
    """A move as the replay shows it: estate card indices become card keys, judge slots judges."""
    if S.trace.shape[0] <= 1:
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
        return bc
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


# ----------------------------------------------------------------------------- setup

@jit
def setup(S, R, n, races, pols):
    """A fresh game for races[s], pols[s] at seat s (seat 0 first); rng streams already seeded."""
    p = R.p
    S.g[C.G_N] = n
    S.g[C.G_YEAR] = 1
    for k in (C.G_PHASE, C.G_DECISIONS, C.G_JUDGED, C.G_TURNS, C.G_STAMP, C.G_BOX_BREWERY, C.G_N_SHADOW,
              C.G_GNOMES_RAN_OUT):
        S.g[k] = 0
    S.g[C.G_CORRUPT] = p[P_CORRUPT]
    S.g[C.G_GNOME_SUPPLY] = p[P_GNOME_LIMIT]
    S.g[C.G_N_PILE:C.G_N_PILE + C.N_PILES] = 0
    S.piles[C.ROW_BREWERY:, :] = -1
    for t in range(R.bc.shape[0]):
        for _ in range(R.bc[t, BC_COUNT]):
            push(S, C.PILE_BDECK, t)
    for t in range(R.evt.shape[0]):
        for _ in range(R.evt[t, EF_COUNT]):
            push(S, C.PILE_EDECK, t)
    for d in range(2):
        for r in range(R.rc.shape[0]):
            if R.rc[r, RC_SPICE] == d:
                push(S, C.PILE_RDECK_BARREL + d, r)
        shuffle(S.piles[C.PILE_RDECK_BARREL + d], S.g[C.G_N_PILE + C.PILE_RDECK_BARREL + d], S.rng, 0)
    shuffle(S.piles[C.PILE_BDECK], S.g[C.G_N_PILE + C.PILE_BDECK], S.rng, 0)
    shuffle(S.piles[C.PILE_EDECK], S.g[C.G_N_PILE + C.PILE_EDECK], S.rng, 0)
    setup_judges(S, R)
    for s in range(n):
        setup_player(S, R, n, s, races[s], pols[s])
    for s in range(n):  # starting recipe books, dealt in seat order
        for d in range(2):
            for _ in range(R.race[races[s], RF_BARREL + d]):  # barrel, then spice
                r = draw_recipe(S, d)
                if r >= 0:
                    add_to_book(S, s, r)
    for d in range(2):
        for i in range(p[P_OFFERING_ROW]):
            S.piles[C.ROW_OFFER_BARREL + d, i] = draw_recipe(S, d)
    for i in range(p[P_DRAFT_ROW]):
        S.piles[C.ROW_BREWERY, i] = draw(S, C.PILE_BDECK, C.PILE_BDISC)
    for i in range(p[P_DRAFT_ROW]):
        S.piles[C.ROW_EVENT, i] = draw(S, C.PILE_EDECK, C.PILE_EDISC)
    for s in range(n):  # Dark Elf: hidden judges drawn after the shuffle
        if has_ability(S, s, C.AB_SHADOW_JUDGE):
            S.g[C.G_N_SHADOW] = 0
            for _ in range(R.ab[C.AB_SHADOW_JUDGE, AF_N]):
                S.g[C.G_N_PILE + C.PILE_JDECK] -= 1
                S.piles[C.ROW_SHADOW, S.g[C.G_N_SHADOW]] = S.piles[C.PILE_JDECK, S.g[C.G_N_PILE + C.PILE_JDECK]]
                S.g[C.G_N_SHADOW] += 1
    deal_judges(S, R)
    for s in range(n - 1, -1, -1):  # disks stacked with seat 0 on top; extra gold 0/1/1/2
        S.g[C.G_STAMP] += 1
        S.pl[s, C.PL_STAMP] = S.g[C.G_STAMP]
        S.pl[s, C.PL_GOLD] += p[P_EXTRA_GOLD + s]
    for s in range(n):
        S.g[C.G_ORDER + s] = s


@jit
def setup_judges(S, R):
    """Regular judges shuffled; the Corrupt Judge variant removes some unseen and shuffles in the
    corrupt judges, else the corrupt judges stay in the box."""
    nj = R.jd.shape[0]
    for j in range(nj):
        if R.jd[j, JF_CORRUPT] == 0:
            push(S, C.PILE_JDECK, j)
    shuffle(S.piles[C.PILE_JDECK], S.g[C.G_N_PILE + C.PILE_JDECK], S.rng, 0)
    if S.g[C.G_CORRUPT]:
        removed = R.p[P_CORRUPT_REMOVED]
        for k in range(removed):
            push(S, C.PILE_JBOX, S.piles[C.PILE_JDECK, k])
        m = S.g[C.G_N_PILE + C.PILE_JDECK] - removed
        for k in range(m):
            S.piles[C.PILE_JDECK, k] = S.piles[C.PILE_JDECK, k + removed]
        S.g[C.G_N_PILE + C.PILE_JDECK] = m
        for j in range(nj):
            if R.jd[j, JF_CORRUPT]:
                push(S, C.PILE_JDECK, j)
        shuffle(S.piles[C.PILE_JDECK], S.g[C.G_N_PILE + C.PILE_JDECK], S.rng, 0)
    else:
        for j in range(nj):
            if R.jd[j, JF_CORRUPT]:
                push(S, C.PILE_JBOX, j)


@jit
def setup_player(S, R, n, s, race, policy):
    S.pl[s, :] = 0
    S.pl[s, C.PL_INV:C.PL_INV + C.N_INGS] = 0
    S.pl[s, C.PL_RACE] = race
    ability = R.race[race, RF_ABILITY]
    S.pl[s, C.PL_ABILITY] = ability
    S.pl[s, C.PL_POLICY] = policy
    S.pl[s, C.PL_GOLD] = R.race[race, RF_GOLD]
    for i in range(3):
        S.pl[s, C.PL_INV + C.WHEAT + i] = R.race[race, RF_WHEAT + i]
    S.pl[s, C.PL_OWN_TOTAL] = R.race[race, RF_BREWERS]
    S.pl[s, C.PL_OWN_AVAIL] = R.race[race, RF_BREWERS]
    S.pl[s, C.PL_BRIBE_SLOT] = -1
    for key in range(len(C.COMMON)):
        if key == R.race[race, RF_LACKS] - 1:
            continue  # the Tree Men's 7-card estate (races.toml `lacks`)
        kind = C.K_STORES if key == C.WINTER_STORES else C.K_ACTION
        add_card(S, s, key, -1, kind, R.p[P_INFINITE + key])
    use = R.ab[ability, AF_USE]
    kind = C.K_PASSIVE
    if use == C.USE_ACTION_ONCE or use == C.USE_ACTION_INFINITE:
        kind = C.K_ACTION
    elif use == C.USE_FREE:
        kind = C.K_FREE
    elif use == C.USE_SPELL:
        kind = C.K_SPELL
    add_card(S, s, C.KEY_ABILITY + ability, -1, kind, 1 if use == C.USE_ACTION_INFINITE else 0)
    outside = not (R.race[race, RF_MIN_PLAYERS] <= n <= R.race[race, RF_MAX_PLAYERS])
    S.pl[s, C.PL_STATS + C.ST_OUTSIDE_RECOMMENDED] = 1 if outside else 0


@jit
def deal_judges(S, R):
    k = 0
    for _ in range(S.g[C.G_N] + R.p[P_JUDGES_EXTRA]):
        if S.g[C.G_N_PILE + C.PILE_JDECK] > 0:
            S.g[C.G_N_PILE + C.PILE_JDECK] -= 1
            S.piles[C.ROW_JUDGES, k] = S.piles[C.PILE_JDECK, S.g[C.G_N_PILE + C.PILE_JDECK]]
            k += 1
    S.g[C.G_N_JUDGES] = k
    for slot in range(C.MAX_ROW):
        if slot >= k:
            S.piles[C.ROW_JUDGES, slot] = -1
        S.piles[C.ROW_BRIBE_SEAT, slot] = -1
        S.piles[C.ROW_BRIBE_GOLD, slot] = 0
        S.piles[C.ROW_OGRE, slot] = -1


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


# ----------------------------------------------------------------------------- legal moves

@jit
def add_move(S, n, kind, a, b, c, d):
    if n >= C.MAX_MOVES:
        S.g[C.G_OVERFLOW] = 1
        return n
    m = S.moves[n]
    m[0] = kind
    m[1] = a
    m[2] = b
    m[3] = c
    m[4] = d
    return n + 1


@jit
def draftable(S, R, seat, row, slot, free):
    if row == 0:
        t = S.piles[C.ROW_BREWERY, slot]
        if t < 0:
            return False
        return free or S.pl[seat, C.PL_GOLD] >= R.bc[t, BC_COST]
    t = S.piles[C.ROW_EVENT, slot]
    if t < 0:
        return False
    if not free and S.pl[seat, C.PL_GOLD] < R.evt[t, EF_COST]:
        return False
    kind = R.evt[t, EF_KIND]
    if kind == C.EV_MIGRANT and (S.g[C.G_GNOME_SUPPLY] < 1 or S.g[C.G_GNOMES_RAN_OUT]):
        return False
    if kind == C.EV_FESTIVAL and not have(S, seat, R.evt[t, EF_PAY_KIND], R.evt[t, EF_PAY_N]):
        return False
    if R.evt[t, EF_BREWER] and on_race_card(S, seat) < 1:  # a free draft waives the gold, not the brewer
        return False
    if kind == C.EV_SCROLL and not recipes_left(S):
        return False
    return True


@jit
def any_free_draft(S, R, seat):
    for row in range(2):
        for s in range(R.p[P_DRAFT_ROW]):
            if draftable(S, R, seat, row, s, True):
                return True
    return False


@jit
def any_spell_used(S, seat):
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, ci, C.CF_KIND] == C.K_SPELL and S.est[seat, ci, C.CF_SPELL_USED]:
            return True
    return False


@jit
def usable_action(S, R, seat, owner, ci, via_brewer):
    """Can seat perform owner's action card ci now (resources, targets)? Locks are the caller's."""
    if S.est[owner, ci, C.CF_KIND] != C.K_ACTION:
        return False
    if not via_brewer and not_borrowable(S.est[owner, ci, C.CF_KEY]):
        return False
    key = S.est[owner, ci, C.CF_KEY]
    if key == C.MAGIC_TRADER:
        return S.pl[seat, C.PL_GOLD] >= race_num(S, R, owner, RF_TRADER_COST)
    if key == C.MASH_HOUSE:
        return S.pl[seat, C.PL_INV + 0] + S.pl[seat, C.PL_INV + 1] + S.pl[seat, C.PL_INV + 2] + S.pl[seat, C.PL_INV + C.MANA] >= 2
    if key == C.KEY_ABILITY + C.AB_MANA_SPELL:
        return S.pl[seat, C.PL_INV + C.MANA] >= 1 and any_spell_used(S, seat)
    if key == C.KEY_ABILITY + C.AB_BLACK_MARKET:
        return any_free_draft(S, R, seat)
    if key == C.BREWERY and owner != seat:
        return False
    return True


@jit_inline
def is_magic_cost(code):
    """The Wizard's Spell Book waives a spell's magic ingredient; grain or wort costs are paid."""
    return code == C.CL_MAGIC or code == C.TOAD or code == C.DRAGON or code == C.PIXIE


@jit
def any_servant_target(S, R, seat):
    for q in range(S.g[C.G_N]):
        for oci in range(S.pl[q, C.PL_N_CARDS]):
            if servant_target(S, R, seat, q, oci):
                return True
    return False


@jit_inline
def servant_target(S, R, seat, q, oci):
    return (S.est[q, oci, C.CF_KIND] == C.K_ACTION and not not_borrowable(S.est[q, oci, C.CF_KEY])
            and usable_action(S, R, seat, q, oci, False))


@jit
def spell_castable(S, R, seat, owner, ci, free_cost):
    """Can seat cast owner's spell card ci (free_cost: through the Spell Book)?"""
    if S.est[owner, ci, C.CF_KIND] != C.K_SPELL or (S.est[owner, ci, C.CF_SPELL_USED] and not free_cost):
        return False
    if is_key(S, owner, ci, C.KEY_ABILITY + C.AB_SPINNING_WHEEL):
        return have(S, seat, C.CL_GRAIN, R.ab[C.AB_SPINNING_WHEEL, AF_N])
    bc = S.est[owner, ci, C.CF_BC]
    sc = R.bc[bc, BC_SPELL_COST]
    if (not free_cost or not is_magic_cost(sc)) and not have(S, seat, sc, R.bc[bc, BC_SPELL_N]):
        return False
    e = R.bc[bc, BC_EFFECT]
    if e == C.E_RAISE_GNOME:
        for k in range(S.pl[seat, C.PL_N_CARDS]):
            if S.est[seat, k, C.CF_GNOME] > 0:
                return True
        return False
    if e == C.E_SERVANT:
        return any_servant_target(S, R, seat)
    return True


@jit
def free_usable(S, R, seat, ci):
    key = S.est[seat, ci, C.CF_KEY]
    if effect_of(S, R, seat, ci) == C.E_TAVERN:
        return have(S, seat, C.CL_GRAIN, R.bc[S.est[seat, ci, C.CF_BC], BC_AMOUNT])
    if key == C.KEY_ABILITY + C.AB_FARMERS_MARKET:
        return S.pl[seat, C.PL_GOLD] >= R.ab[C.AB_FARMERS_MARKET, AF_GOLD]
    if key == C.KEY_ABILITY + C.AB_SEA_PORT:
        return S.pl[seat, C.PL_GOLD] >= R.ab[C.AB_SEA_PORT, AF_GOLD] and have(S, seat, C.CL_GRAIN,
                                                                             R.ab[C.AB_SEA_PORT, AF_N])
    if key == C.KEY_ABILITY + C.AB_DRAIN_GNOME:
        return S.pl[seat, C.PL_GNOME_AVAIL] > 0 or S.pl[seat, C.PL_HOUSING] > 0
    return False


@jit
def owns_housing(S, R, seat):
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, ci, C.CF_KIND] == C.K_HOUSING:
            return True
    return False


@jit
def legal_moves(S, R, seat):
    """Fill S.moves with the legal moves of seat in S.g[C.G_FLAGS:C.G_FLAGS + 4]' turn state; returns how many."""
    F = S.g[C.G_FLAGS:C.G_FLAGS + 4]
    n = 0
    on_card = on_race_card(S, seat)
    gold = S.pl[seat, C.PL_GOLD]
    if F[C.F_BREWER] or on_card == 0:
        n = add_move(S, n, C.M_END, 0, 0, 0, 0)
    if not F[C.F_CLEARED] and gold >= R.p[P_CLEAR_DRAFT_COST]:
        n = add_move(S, n, C.M_CLEAR, 0, 0, 0, 0)
    if not F[C.F_DRAFTED]:
        for row in range(2):
            for s in range(R.p[P_DRAFT_ROW]):
                if draftable(S, R, seat, row, s, False):
                    n = add_move(S, n, C.M_DRAFT, row, s, 0, 0)
    if F[C.F_FREE] < MAX_FREE_MOVES:
        n = free_moves(S, R, seat, n)
    if not F[C.F_BREWER]:
        if on_card > 0:
            n = brewer_moves(S, R, seat, 0, n)
            n = add_move(S, n, C.M_PASS, 0, 0, 0, 0)
        if S.pl[seat, C.PL_HOUSING] > 0:
            n = brewer_moves(S, R, seat, 1, n)
    return n


@jit
def free_moves(S, R, seat, n):
    """Spells, free actions, bribes and moving a gnome into Gnome Housing."""
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        kind = S.est[seat, ci, C.CF_KIND]
        if kind == C.K_SPELL and spell_castable(S, R, seat, seat, ci, False):
            if effect_of(S, R, seat, ci) == C.E_SERVANT:
                for q in range(S.g[C.G_N]):
                    for oci in range(S.pl[q, C.PL_N_CARDS]):
                        if servant_target(S, R, seat, q, oci):
                            n = add_move(S, n, C.M_SERVANT, ci, q, oci, 0)
            else:
                n = add_move(S, n, C.M_SPELL, ci, 0, 0, 0)
        elif kind == C.K_FREE and free_usable(S, R, seat, ci):
            n = add_move(S, n, C.M_FREE, ci, 0, 0, 0)
    gold = S.pl[seat, C.PL_GOLD]
    if S.g[C.G_CORRUPT] and S.pl[seat, C.PL_BRIBE_SLOT] < 0 and gold >= 1:
        for slot in range(S.g[C.G_N_JUDGES]):
            if R.jd[S.piles[C.ROW_JUDGES, slot], JF_CORRUPT] and S.piles[C.ROW_OGRE, slot] < 0:
                cur = S.piles[C.ROW_BRIBE_GOLD, slot] if S.piles[C.ROW_BRIBE_SEAT, slot] >= 0 else 0
                if gold >= cur + 1:  # any amount that tops the standing bribe: the bot picks it
                    n = add_move(S, n, C.M_BRIBE, slot, cur + 1, gold, 0)
    if S.pl[seat, C.PL_GNOME_AVAIL] > 0 and owns_housing(S, R, seat):
        n = add_move(S, n, C.M_HOUSE, 0, 0, 0, 0)
    return n


@jit
def brewer_moves(S, R, seat, src, n):
    """Every card a brewer from src (0 race card, 1 Gnome Housing) may be assigned to."""
    own_ok = src == 0 and S.pl[seat, C.PL_OWN_AVAIL] > 0
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        c = S.est[seat, ci]
        if c[C.CF_KIND] != C.K_ACTION or (c[C.CF_LOCKED] and not c[C.CF_INFINITE]):
            continue
        a = ability_of_key(c[C.CF_KEY])
        if a >= 0 and R.ab[a, AF_OWN_ONLY] and not own_ok:
            continue
        if a == C.AB_HORSE_GUESTS:
            for q in range(S.g[C.G_N]):
                if q == seat:
                    continue
                for oci in range(S.pl[q, C.PL_N_CARDS]):
                    if usable_action(S, R, seat, q, oci, False):
                        n = add_move(S, n, C.M_GUEST, ci, q, oci, src)
        elif a == C.AB_DARK_SACRIFICE:
            for tci in range(S.pl[seat, C.PL_N_CARDS]):
                if S.est[seat, tci, C.CF_KIND] == C.K_ACTION and not is_key(S, seat, tci, c[C.CF_KEY]):
                    n = add_move(S, n, C.M_SACRIFICE, ci, tci, 0, 0)
        elif a == C.AB_OGRE_RULED:
            for slot in range(S.g[C.G_N_JUDGES]):
                if S.piles[C.ROW_OGRE, slot] < 0:
                    n = add_move(S, n, C.M_OGRE, ci, slot, 0, 0)
        elif a == C.AB_SPELL_BOOK:
            for q in range(S.g[C.G_N]):
                for sci in range(S.pl[q, C.PL_N_CARDS]):
                    if S.est[q, sci, C.CF_KIND] == C.K_SPELL and spell_castable(S, R, seat, q, sci, True):
                        n = add_move(S, n, C.M_SPELLBOOK, ci, q, sci, 0)
        elif usable_action(S, R, seat, seat, ci, True):
            n = add_move(S, n, C.M_BREWER, ci, src, 0, 0)
    return n


# ----------------------------------------------------------------------------- applying moves

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


@jit
def apply_move(S, R, B, seat, mv):
    """Play move row mv for seat (S.g[C.G_FLAGS:C.G_FLAGS + 4] holds the turn state)."""
    F = S.g[C.G_FLAGS:C.G_FLAGS + 4]
    S.g[C.G_DECISIONS] += 1
    k = mv[0]
    if k == C.M_BRIBE:  # the amount, from mv[2] (the least that tops the bribe) up to mv[3]
        mv[2] = pol.bribe_amount(S, R, B, seat, mv[1], mv[2], mv[3])
    trace_move(S, R, seat, mv)
    if k == C.M_END:
        return
    if k == C.M_CLEAR:
        S.pl[seat, C.PL_GOLD] -= R.p[P_CLEAR_DRAFT_COST]
        clear_draft(S, R, B, seat)
        F[C.F_CLEARED] = 1
        log(S, seat, LOG_CLEAR_DRAFT, R.p[P_LC_DRAFT_POOL], 1)
        return
    if k == C.M_DRAFT:
        do_draft(S, R, B, seat, mv[1], mv[2], False, True)
        F[C.F_DRAFTED] = 1
        return
    if k == C.M_SPELL or k == C.M_SERVANT:
        F[C.F_FREE] += 1
        if k == C.M_SERVANT:
            cast_spell(S, R, B, seat, seat, mv[1], True, mv[2], mv[3], True)
        else:
            cast_spell(S, R, B, seat, seat, mv[1], True, -1, -1, True)
        return
    if k == C.M_FREE:
        F[C.F_FREE] += 1
        free_action(S, R, B, seat, mv[1])
        return
    if k == C.M_BRIBE:
        F[C.F_FREE] += 1
        bribe(S, R, seat, mv[1], mv[2])
        return
    if k == C.M_HOUSE:
        F[C.F_FREE] += 1
        S.pl[seat, C.PL_GNOME_AVAIL] -= 1
        S.pl[seat, C.PL_HOUSING] += 1
        return
    F[C.F_BREWER] = 1
    if k == C.M_PASS:
        brewer_leaves(S, seat, take_brewer(S, seat, mv[1], False))
        return
    ci = mv[1]
    a = ability_of_key(S.est[seat, ci, C.CF_KEY])
    own_only = a >= 0 and R.ab[a, AF_OWN_ONLY] != 0
    src = 0
    if k == C.M_BREWER:
        src = mv[2]
    elif k == C.M_GUEST:
        src = mv[4]
    place(S, seat, ci, take_brewer(S, seat, src, own_only))
    if k == C.M_BREWER:
        perform(S, R, B, seat, seat, ci)
    elif k == C.M_GUEST:
        log_ability(S, R, seat, C.AB_HORSE_GUESTS, 1)
        perform(S, R, B, seat, mv[2], mv[3])
    elif k == C.M_SACRIFICE:
        dark_sacrifice(S, R, seat, mv[2])
    elif k == C.M_OGRE:
        slot = mv[2]
        S.piles[C.ROW_OGRE, slot] = seat
        S.pl[seat, C.PL_OWN_OUT] += 1  # the brewer stands on the judge
        S.est[seat, ci, C.CF_OWN] -= 1
        refund_bribe(S, slot)  # Ogre-Ruled: the bribe goes back to its owner
        log_ability(S, R, seat, C.AB_OGRE_RULED, 1)
    elif k == C.M_SPELLBOOK:
        log_ability(S, R, seat, C.AB_SPELL_BOOK, 1)
        cast_spell(S, R, B, seat, mv[2], mv[3], False, -1, -1, False)


@jit
def bribe(S, R, seat, slot, amount):
    """Place a bribe on a corrupt judge; an outbid bribe goes back to its owner."""
    refund_bribe(S, slot)
    S.pl[seat, C.PL_GOLD] -= amount
    S.piles[C.ROW_BRIBE_SEAT, slot] = seat
    S.piles[C.ROW_BRIBE_GOLD, slot] = amount
    S.pl[seat, C.PL_BRIBE_SLOT] = slot
    S.pl[seat, C.PL_BRIBE_GOLD] = amount
    log(S, seat, LOG_BRIBE, R.p[P_LC_JUDGE] + S.piles[C.ROW_JUDGES, slot], amount)


@jit
def dark_sacrifice(S, R, seat, tci):
    """Chaos Wytch: an estate card goes to the box with its upgrades; its brewers come back now."""
    own = S.est[seat, tci, C.CF_OWN]
    gnome = S.est[seat, tci, C.CF_GNOME]
    S.pl[seat, C.PL_OWN_AVAIL] += own
    S.pl[seat, C.PL_GNOME_AVAIL] += gnome
    S.pl[seat, C.PL_GNOMES_OUT] -= gnome
    S.pl[seat, C.PL_SACRIFICED] += 1
    bc = S.est[seat, tci, C.CF_BC]
    S.g[C.G_BOX_BREWERY] += S.est[seat, tci, C.CF_N_UP] + (1 if bc >= 0 else 0)
    code = card_code(R, S.est[seat, tci, C.CF_KEY], bc)
    remove_card(S, seat, tci)
    log_ability(S, R, seat, C.AB_DARK_SACRIFICE, own + gnome)
    log(S, seat, LOG_SACRIFICE_CARD, code, 1)


@jit
def grain_fields(S, R, B, seat, owner, ci):
    """Grains of the owner's Grain Fields with its upgrades and race power, for seat."""
    gain_grains(S, R, B, seat, race_num(S, R, owner, RF_GRAIN_YIELD))
    for u in range(S.est[owner, ci, C.CF_N_UP]):
        t = S.est[owner, ci, C.CF_UP + u]
        e = R.bc[t, BC_EFFECT]
        if e == C.E_GRAIN_ANY:
            gain_grains(S, R, B, seat, R.bc[t, BC_AMOUNT])
        elif e == C.E_GRAIN_WHEAT or e == C.E_GRAIN_RYE or e == C.E_GRAIN_BARLEY:
            S.pl[seat, C.PL_INV + C.WHEAT + e - C.E_GRAIN_WHEAT] += R.bc[t, BC_AMOUNT]
    if has_ability(S, owner, C.AB_FERTILE_FIELDS):
        gain_grains(S, R, B, seat, R.ab[C.AB_FERTILE_FIELDS, AF_N])
        if owner == seat:
            log_ability(S, R, seat, C.AB_FERTILE_FIELDS, R.ab[C.AB_FERTILE_FIELDS, AF_N])
    if has_ability(S, owner, C.AB_SACRED_GROVE):
        gain_magic(S, R, B, seat, R.ab[C.AB_SACRED_GROVE, AF_N])
        if owner == seat:
            log_ability(S, R, seat, C.AB_SACRED_GROVE, R.ab[C.AB_SACRED_GROVE, AF_N])


@jit
def perform(S, R, B, seat, owner, ci):
    """The action of owner's estate card ci (with owner's upgrades and numbers) performed for seat."""
    key = S.est[owner, ci, C.CF_KEY]
    if key == C.GRAIN_FIELDS:
        grain_fields(S, R, B, seat, owner, ci)
    elif key == C.STUDY:
        if has_ability(S, owner, C.AB_ARCANE_LIBRARY):
            S.pl[seat, C.PL_GOLD] += R.ab[C.AB_ARCANE_LIBRARY, AF_GOLD]
            if owner == seat:
                log_ability(S, R, seat, C.AB_ARCANE_LIBRARY, R.ab[C.AB_ARCANE_LIBRARY, AF_GOLD])
        research(S, R, B, seat, study_draw(S, R, owner))
    elif key == C.BREWERY:
        pass  # a brewer on the Brewery raises the beers the player may brew this fall
    elif key == C.MAGIC_TRADER:
        cost = race_num(S, R, owner, RF_TRADER_COST)
        n = pol.trader_count(S, R, B, seat, trader_mult(S, R, owner), cost)
        n = min(n, S.pl[seat, C.PL_GOLD] // cost)
        picks = S.tmp[3]
        pol.magic(S, R, B, seat, n, picks)
        for a in range(n):
            S.pl[seat, C.PL_GOLD] -= cost
            S.pl[seat, C.PL_INV + picks[a]] += 1
    elif key == C.MASH_HOUSE:
        made = 0
        for _ in range(mash_mult(S, R, owner)):
            w = pol.wort(S, R, B, seat)
            if w < 0 or not can_mash(S, seat, w):
                break
            a, b = wort_grains(w)
            inv = S.pl[seat, C.PL_INV:C.PL_INV + C.N_INGS]
            take_one(inv, a)
            take_one(inv, b)
            S.pl[seat, C.PL_INV + w] += R.p[P_WORT_PER_MASH]
            made += 1
        if has_ability(S, owner, C.AB_MASH_STOMPER) and owner == seat and made:
            log_ability(S, R, seat, C.AB_MASH_STOMPER, made)
    elif S.est[owner, ci, C.CF_BC] >= 0:  # a Brewery action card: gain its ingredient
        t = S.est[owner, ci, C.CF_BC]
        S.pl[seat, C.PL_INV + R.bc[t, BC_ING]] += R.bc[t, BC_AMOUNT]
    elif key == C.KEY_ABILITY + C.AB_GOLD_MINE:
        S.pl[seat, C.PL_GOLD] += R.ab[C.AB_GOLD_MINE, AF_GOLD]
        log_ability(S, R, seat, C.AB_GOLD_MINE, R.ab[C.AB_GOLD_MINE, AF_GOLD])
    elif key == C.KEY_ABILITY + C.AB_BORROWER:
        S.pl[seat, C.PL_GOLD] += R.ab[C.AB_BORROWER, AF_GOLD]
        gain_grains(S, R, B, seat, R.ab[C.AB_BORROWER, AF_N])
        log_ability(S, R, seat, C.AB_BORROWER, R.ab[C.AB_BORROWER, AF_GOLD])
    elif key == C.KEY_ABILITY + C.AB_BLACK_MARKET:
        black_market(S, R, B, seat)
    elif key == C.KEY_ABILITY + C.AB_MANA_SPELL:
        S.pl[seat, C.PL_INV + C.MANA] -= 1
        reset = 0
        for k in range(S.pl[seat, C.PL_N_CARDS]):
            if S.est[seat, k, C.CF_KIND] == C.K_SPELL and S.est[seat, k, C.CF_SPELL_USED]:
                S.est[seat, k, C.CF_SPELL_USED] = 0
                reset += 1
        log_ability(S, R, seat, C.AB_MANA_SPELL, reset)


@jit
def black_market(S, R, B, seat):
    """Goblin: optionally clear the draft again (paying), then draft one card for free."""
    if pol.black_market_clear(S, R, B, seat) and S.pl[seat, C.PL_GOLD] >= R.p[P_CLEAR_DRAFT_COST]:
        S.pl[seat, C.PL_GOLD] -= R.p[P_CLEAR_DRAFT_COST]
        clear_draft(S, R, B, seat)
        log(S, seat, LOG_CLEAR_DRAFT, R.p[P_LC_DRAFT_POOL], 1)
    opt_row, opt_slot = S.tmp[0], S.tmp[1]
    n = 0
    for row in range(2):
        for s in range(R.p[P_DRAFT_ROW]):
            if draftable(S, R, seat, row, s, True):
                opt_row[n] = row
                opt_slot[n] = s
                n += 1
    if n:
        k = pol.pick_free_card(S, R, B, seat, opt_row, opt_slot, n)
        row, slot = opt_row[k], opt_slot[k]
        log_ability(S, R, seat, C.AB_BLACK_MARKET, 1)
        do_draft(S, R, B, seat, row, slot, True, True)


@jit
def take_recipe(S, R, B, seat, offer_only):
    """One recipe for seat from where its bot says (an offering card or the top of a deck)."""
    src = pol.pick_recipe(S, R, B, seat, offer_only)
    if src < pol.DECK:
        d, pos = src // C.MAX_ROW, src % C.MAX_ROW
        r = S.piles[C.ROW_OFFER_BARREL + d, pos]
        if r >= 0:
            add_to_book(S, seat, r)
            S.piles[C.ROW_OFFER_BARREL + d, pos] = -1
            return
        if offer_only:
            return
    else:
        d = src - pol.DECK
    r = draw_recipe(S, d)
    if r >= 0:
        add_to_book(S, seat, r)


@jit
def research(S, R, B, seat, n):
    """Brewer's Study: optionally clear five of the offering (1 gold), take n recipes from the
    offering or the decks, then refill the offering."""
    if S.pl[seat, C.PL_GOLD] >= R.p[P_CLEAR_OFFERING_COST] and pol.clear_offer(S, R, B, seat):
        S.pl[seat, C.PL_GOLD] -= R.p[P_CLEAR_OFFERING_COST]
        out_deck, out_pos = S.tmp[0], S.tmp[1]
        k = pol.offer_discards(S, R, B, seat, out_deck, out_pos)
        for a in range(k):
            r = S.piles[C.ROW_OFFER_BARREL + out_deck[a], out_pos[a]]
            if r >= 0:
                push(S, C.PILE_RDISC_BARREL + out_deck[a], r)
            S.piles[C.ROW_OFFER_BARREL + out_deck[a], out_pos[a]] = -1
        refill_offer(S, R)
    for _ in range(n):
        take_recipe(S, R, B, seat, False)
    refill_offer(S, R)
    log(S, seat, LOG_RESEARCH, R.p[P_LC_COMMON] + C.STUDY, n)


@jit
def clear_draft(S, R, B, seat):
    out_row, out_slot = S.tmp[0], S.tmp[1]
    k = pol.clear_picks(S, R, B, seat, out_row, out_slot)
    for a in range(k):
        discard_draft_card(S, out_row[a], out_slot[a])
    refill_rows(S, R)


@jit
def do_draft(S, R, B, seat, row, slot, free, refill):
    if row == 0:
        t = S.piles[C.ROW_BREWERY, slot]
        S.piles[C.ROW_BREWERY, slot] = -1
        cost = 0 if free else R.bc[t, BC_COST]
        S.pl[seat, C.PL_GOLD] -= cost
        add_brewery_card(S, R, seat, t)
        log(S, seat, LOG_DRAFT_BREWERY, t, cost)
        stat(S, seat, C.ST_CARDS_DRAFTED, 1)
    else:
        t = S.piles[C.ROW_EVENT, slot]
        S.piles[C.ROW_EVENT, slot] = -1
        cost = 0 if free else R.evt[t, EF_COST]
        S.pl[seat, C.PL_GOLD] -= cost
        log(S, seat, LOG_DRAFT_EVENT, R.p[P_LC_EVENT] + t, cost)
        stat(S, seat, C.ST_CARDS_DRAFTED, 1)
        resolve_event(S, R, B, seat, t)
    if refill:
        refill_rows(S, R)


@jit
def add_brewery_card(S, R, seat, t):
    if R.bc[t, BC_KIND] == C.K_UPGRADE:
        ci = find_card(S, seat, R.bc[t, BC_TARGET])
        if ci < 0:  # the target was sacrificed: the upgrade has nothing to go under
            S.g[C.G_BOX_BREWERY] += 1
            return
        u = S.est[seat, ci, C.CF_N_UP]
        if u >= C.MAX_UP:
            S.g[C.G_OVERFLOW] = 1
            return
        S.est[seat, ci, C.CF_UP + u] = t
        S.est[seat, ci, C.CF_N_UP] = u + 1
        return
    add_card(S, seat, C.KEY_BREWERY + t, t, R.bc[t, BC_KIND], R.bc[t, BC_INFINITE])
    if R.bc[t, BC_KIND] == C.K_HOUSING and S.g[C.G_GNOME_SUPPLY] > 0:
        gnome_from_supply(S)
        S.pl[seat, C.PL_HOUSING] += R.bc[t, BC_AMOUNT]


@jit
def resolve_event(S, R, B, seat, t):
    kind = R.evt[t, EF_KIND]
    if kind == C.EV_FESTIVAL:
        pay(S, R, B, seat, R.evt[t, EF_PAY_KIND], R.evt[t, EF_PAY_N])
    if kind == C.EV_MIGRANT:
        gnome_from_supply(S)
        S.pl[seat, C.PL_GNOME_AVAIL] += 1
        push(S, C.PILE_EDISC, t)
        gnome_guild(S, R, B, seat)
        return
    if kind == C.EV_QUEST and R.evt[t, EF_BREWER]:
        brewer_leaves(S, seat, take_brewer(S, seat, 0, False))
        q = S.pl[seat, C.PL_N_QUESTS]
        if q >= C.MAX_QUESTS:
            S.g[C.G_OVERFLOW] = 1
            return
        S.pl[seat, C.PL_QUESTS + q] = t
        S.pl[seat, C.PL_N_QUESTS] = q + 1
    else:
        push(S, C.PILE_EDISC, t)
    if kind == C.EV_SCROLL:
        for _ in range(R.evt[t, EF_GAIN_RECIPES]):
            r = draw_recipe(S, pol.scroll_deck(S, R, B, seat))
            if r >= 0:
                add_to_book(S, seat, r)
    S.pl[seat, C.PL_GOLD] += R.evt[t, EF_GAIN_GOLD]
    score(S, seat, R.evt[t, EF_GAIN_VP], C.ST_VP_QUESTS)
    gk, gn = R.evt[t, EF_GAIN_KIND], R.evt[t, EF_GAIN_N]
    if gk == C.GK_EACH_GRAIN:
        for i in range(3):
            S.pl[seat, C.PL_INV + C.WHEAT + i] += gn
    elif gk == C.GK_GRAIN:
        gain_grains(S, R, B, seat, gn)
    elif gk == C.GK_MAGIC:
        gain_magic(S, R, B, seat, gn)
    elif gk == C.GK_WORT:
        for _ in range(gn):
            S.pl[seat, C.PL_INV + pol.wort_any(S, R, B, seat)] += 1


@jit
def gnome_from_supply(S):
    """One purple meeple leaves the box; once the box is empty no Migrant Gnomes may be drafted
    for the rest of the season, even if gnomes come back (passed or drained)."""
    S.g[C.G_GNOME_SUPPLY] -= 1
    if S.g[C.G_GNOME_SUPPLY] == 0:
        S.g[C.G_GNOMES_RAN_OUT] = 1


@jit
def gnome_guild(S, R, B, seat):
    """Free Gnomes: when another player drafts Migrant Gnomes, they may hire one too."""
    fee = R.ab[C.AB_GNOME_GUILD, AF_GOLD]
    for q in range(S.g[C.G_N]):
        if (q != seat and has_ability(S, q, C.AB_GNOME_GUILD) and S.g[C.G_GNOME_SUPPLY] > 0
                and S.pl[q, C.PL_GOLD] >= fee and pol.guild_hire(S, R, B, q)):
            S.pl[q, C.PL_GOLD] -= fee
            gnome_from_supply(S)
            S.pl[q, C.PL_GNOME_AVAIL] += 1
            log_ability(S, R, q, C.AB_GNOME_GUILD, 1)


@jit
def cast_spell(S, R, B, seat, owner, ci, pay_cost, target_seat, target_ci, mark):
    """Cast owner's spell card ci for seat (through the Wizard's Spell Book: no magic ingredient
    paid, the card not marked used)."""
    if mark:
        S.est[owner, ci, C.CF_SPELL_USED] = 1
    if is_key(S, owner, ci, C.KEY_ABILITY + C.AB_SPINNING_WHEEL):
        pay(S, R, B, seat, C.CL_GRAIN, R.ab[C.AB_SPINNING_WHEEL, AF_N])
        S.pl[seat, C.PL_GOLD] += R.ab[C.AB_SPINNING_WHEEL, AF_GOLD]
        log_ability(S, R, seat, C.AB_SPINNING_WHEEL, R.ab[C.AB_SPINNING_WHEEL, AF_GOLD])
        return
    t = S.est[owner, ci, C.CF_BC]
    sc = R.bc[t, BC_SPELL_COST]
    if pay_cost or not is_magic_cost(sc):
        pay(S, R, B, seat, sc, R.bc[t, BC_SPELL_N])
    e = R.bc[t, BC_EFFECT]
    amount = R.bc[t, BC_AMOUNT]
    if e == C.E_TRANSMUTATION:
        S.pl[seat, C.PL_INV + C.MANA] += 1
    elif e == C.E_CHAOS:
        chaos(S, R, B, seat, amount)
    elif e == C.E_INTELLIGENCE:
        discard_offer(S, R)
        refill_offer(S, R)
        for _ in range(amount):
            take_recipe(S, R, B, seat, True)
        refill_offer(S, R)
    elif e == C.E_SERVANT:
        servant(S, R, B, seat, target_seat, target_ci)
    elif e == C.E_RAISE_GNOME:
        raise_gnomes(S, seat, amount)


@jit
def chaos(S, R, B, seat, amount):
    """Chaos Spell: clear five draft cards, refill, then draft `amount` of the new ones free."""
    out_row, out_slot = S.tmp[0], S.tmp[1]
    k = pol.clear_picks(S, R, B, seat, out_row, out_slot)
    for a in range(k):
        discard_draft_card(S, out_row[a], out_slot[a])
    new = S.tmp[2]  # row * MAX_ROW + slot of the refilled slots, -1 once taken
    n_new = 0
    for row in range(2):
        for s in range(R.p[P_DRAFT_ROW]):
            if S.piles[C.ROW_BREWERY + row, s] < 0:
                new[n_new] = row * C.MAX_ROW + s
                n_new += 1
    refill_rows(S, R)
    opt_row, opt_slot = S.tmp[0], S.tmp[1]
    for _ in range(amount):
        n = 0
        for a in range(n_new):
            if new[a] >= 0 and draftable(S, R, seat, new[a] // C.MAX_ROW, new[a] % C.MAX_ROW, True):
                opt_row[n] = new[a] // C.MAX_ROW
                opt_slot[n] = new[a] % C.MAX_ROW
                n += 1
        if n == 0:
            break
        k = pol.pick_free_card(S, R, B, seat, opt_row, opt_slot, n)
        code = opt_row[k] * C.MAX_ROW + opt_slot[k]
        for a in range(n_new):
            if new[a] == code:
                new[a] = -1
        do_draft(S, R, B, seat, code // C.MAX_ROW, code % C.MAX_ROW, True, False)
    refill_rows(S, R)


@jit
def servant(S, R, B, seat, q, oci):
    """Servant Spell: perform another player's (or one's own) action card, nothing locked."""
    if q < 0:
        opt_seat, opt_ci = S.tmp[0], S.tmp[1]
        n = 0
        for s in range(S.g[C.G_N]):
            for c in range(S.pl[s, C.PL_N_CARDS]):
                if servant_target(S, R, seat, s, c):
                    opt_seat[n] = s
                    opt_ci[n] = c
                    n += 1
        if n == 0:
            return
        k = pol.pick_servant(S, R, B, seat, opt_seat, opt_ci, n)
        q, oci = opt_seat[k], opt_ci[k]
    if usable_action(S, R, seat, q, oci, False):  # paying the spell may have used the last mana
        perform(S, R, B, seat, q, oci)


@jit
def raise_gnomes(S, seat, amount):
    """Raise Gnome Spell: gnomes back to the race card, emptying the cards that hold most first
    (ties in estate order)."""
    held = S.tmp[2]
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        held[ci] = S.est[seat, ci, C.CF_GNOME]
    moved = 0
    while moved < amount:
        best = -1
        for ci in range(S.pl[seat, C.PL_N_CARDS]):
            if held[ci] > 0 and (best < 0 or held[ci] > held[best]):
                best = ci
        if best < 0:
            return
        held[best] = 0
        while S.est[seat, best, C.CF_GNOME] > 0 and moved < amount:
            S.est[seat, best, C.CF_GNOME] -= 1
            S.pl[seat, C.PL_GNOMES_OUT] -= 1
            S.pl[seat, C.PL_GNOME_AVAIL] += 1
            moved += 1


@jit
def free_action(S, R, B, seat, ci):
    key = S.est[seat, ci, C.CF_KEY]
    if effect_of(S, R, seat, ci) == C.E_TAVERN:
        pay(S, R, B, seat, C.CL_GRAIN, R.bc[S.est[seat, ci, C.CF_BC], BC_AMOUNT])
        S.pl[seat, C.PL_GOLD] += 1
    elif key == C.KEY_ABILITY + C.AB_FARMERS_MARKET:
        S.pl[seat, C.PL_GOLD] -= R.ab[C.AB_FARMERS_MARKET, AF_GOLD]
        gain_grains(S, R, B, seat, R.ab[C.AB_FARMERS_MARKET, AF_N])
        log_ability(S, R, seat, C.AB_FARMERS_MARKET, R.ab[C.AB_FARMERS_MARKET, AF_N])
    elif key == C.KEY_ABILITY + C.AB_SEA_PORT:
        S.pl[seat, C.PL_GOLD] -= R.ab[C.AB_SEA_PORT, AF_GOLD]
        pay(S, R, B, seat, C.CL_GRAIN, R.ab[C.AB_SEA_PORT, AF_N])
        S.pl[seat, C.PL_INV + pol.wort_any(S, R, B, seat)] += 1
        log_ability(S, R, seat, C.AB_SEA_PORT, 1)
    elif key == C.KEY_ABILITY + C.AB_DRAIN_GNOME:
        if S.pl[seat, C.PL_GNOME_AVAIL] > 0:
            S.pl[seat, C.PL_GNOME_AVAIL] -= 1
        else:
            S.pl[seat, C.PL_HOUSING] -= 1
        S.g[C.G_GNOME_SUPPLY] += 1
        S.pl[seat, C.PL_INV + C.MANA] += R.ab[C.AB_DRAIN_GNOME, AF_N]
        log_ability(S, R, seat, C.AB_DRAIN_GNOME, 1)


# ----------------------------------------------------------------------------- spring

@jit
def any_on_race_card(S):
    for s in range(S.g[C.G_N]):
        if on_race_card(S, s) > 0:
            return True
    return False


@jit_inline
def spring(S, R, B):
    S.g[C.G_PHASE] = 1
    S.g[C.G_GNOMES_RAN_OUT] = 1 if S.g[C.G_GNOME_SUPPLY] == 0 else 0
    guard = 0
    while any_on_race_card(S):
        for k in range(S.g[C.G_N]):
            seat = S.g[C.G_ORDER + k]
            if not any_on_race_card(S) and S.pl[seat, C.PL_HOUSING] == 0:
                break
            take_turn(S, R, B, seat)
            S.g[C.G_TURNS] += 1
            guard += 1
            if guard > 2000 or S.g[C.G_OVERFLOW]:
                S.g[C.G_OVERFLOW] = 1
                return
            if not any_on_race_card(S):
                break


@jit_inline
def take_turn(S, R, B, seat):
    S.g[C.G_FLAGS:C.G_FLAGS + 4] = 0
    pol.start_turn(S, R, B, seat)
    for _ in range(10 * MAX_FREE_MOVES):
        n = legal_moves(S, R, seat)
        k = pol.choose(S, R, B, seat, n)
        apply_move(S, R, B, seat, S.moves[k])
        if S.moves[k, 0] == C.M_END or S.g[C.G_OVERFLOW]:
            return
    S.g[C.G_OVERFLOW] = 1  # a turn that never ends is a bug


# ----------------------------------------------------------------------------- free actions after spring
# Spells, brewer actions and drafts end with spring, but free action cards (Tavern, Farmer's
# Market, Sea Port, Drain Gnome) may still be used in fall and winter. Each player gets one
# window in turn order: in fall before brewing, in winter before the Winter Stores cut.

@jit
def window_moves(S, R, seat):
    """The moves of a fall or winter window: stop, or use a free action card."""
    n = add_move(S, 0, C.M_END, 0, 0, 0, 0)
    if S.g[C.G_FLAGS + C.F_FREE] >= MAX_FREE_MOVES:
        return n
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, ci, C.CF_KIND] == C.K_FREE and free_usable(S, R, seat, ci):
            n = add_move(S, n, C.M_FREE, ci, 0, 0, 0)
    return n


@jit
def free_window(S, R, B):
    for k in range(S.g[C.G_N]):
        seat = S.g[C.G_ORDER + k]
        if not owns_free_card(S, seat):
            continue  # no choice to make: the bot's streams stay as they were
        S.g[C.G_FLAGS:C.G_FLAGS + 4] = 0
        pol.start_turn(S, R, B, seat)
        while True:
            n = window_moves(S, R, seat)
            m = pol.choose(S, R, B, seat, n)
            apply_move(S, R, B, seat, S.moves[m])
            if S.moves[m, 0] == C.M_END or S.g[C.G_OVERFLOW]:
                break


@jit
def owns_free_card(S, seat):
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, ci, C.CF_KIND] == C.K_FREE:
            return True
    return False


# ----------------------------------------------------------------------------- fall

@jit
def in_book(S, seat, r):
    for i in range(S.pl[seat, C.PL_N_BOOK]):
        if S.pl[seat, C.PL_BOOK + i] == r:
            return True
    return False


@jit
def valid_beer(S, R, seat, cards, k):
    """One barrel then 1+ spices, all distinct, all in the book and unused by earlier beers."""
    if k < 2 or R.rc[cards[0], RC_SPICE] != 0:
        return False
    for a in range(k):
        r = cards[a]
        if (a > 0 and R.rc[r, RC_SPICE] == 0) or not in_book(S, seat, r):
            return False
        for b in range(a):
            if cards[b] == r:
                return False
        for x in range(S.pl[seat, C.PL_N_BEERS]):
            for j in range(1 + S.beers[seat, x, C.BF_N_SPICES]):
                if beer_card(S, seat, x, j) == r:
                    return False
    return True


@jit_inline
def beer_card(S, seat, x, j):
    return S.beers[seat, x, C.BF_BARREL] if j == 0 else S.beers[seat, x, C.BF_SPICE + j - 1]


@jit
def add_beer(S, R, seat, cards, k):
    x = S.pl[seat, C.PL_N_BEERS]
    b = S.beers[seat, x]
    b[:] = -1
    b[C.BF_BARREL] = cards[0]
    b[C.BF_N_SPICES] = k - 1
    for j in range(1, k):
        b[C.BF_SPICE + j - 1] = cards[j]
    for c in range(3):
        b[C.BF_C0 + c] = 0
    b[C.BF_VP] = 0
    b[C.BF_GOLD] = 0
    b[C.BF_WON] = 0
    for a in range(k):
        r = cards[a]
        for c in range(3):
            b[C.BF_C0 + c] += R.rc[r, RC_C0 + c]
        b[C.BF_VP] += R.rc[r, RC_VP]
        b[C.BF_GOLD] += R.rc[r, RC_GOLD]
    S.pl[seat, C.PL_N_BEERS] = x + 1


@jit
def brew_beers(S, R, B, seat):
    """Behind the screen: the bot's beers, each paid from the ingredients; an invalid or unpaid
    beer is a misbrew (disqualified, its cards stay in the book)."""
    S.pl[seat, C.PL_N_BEERS] = 0
    maxn = min(max_beers(S, R, seat), C.MAX_BEERS)  # a simulator bound; bots never get near it
    out = S.tmp[8:8 + C.MAX_BEERS]
    k = min(pol.brew(S, R, B, seat, maxn, out), maxn)
    for x in range(k):
        cards = out[x]
        m = 0
        while m < cards.shape[0] and cards[m] >= 0:
            m += 1
        if not valid_beer(S, R, seat, cards, m):
            continue
        if not recipe_needs_payable(R, S.pl[seat, C.PL_INV:C.PL_INV + C.N_INGS], cards, m):
            continue
        pay_recipe_needs(R, S.pl[seat, C.PL_INV:C.PL_INV + C.N_INGS], cards, m)
        add_beer(S, R, seat, cards, m)
    stat(S, seat, C.ST_BEERS_BREWED, S.pl[seat, C.PL_N_BEERS])
    for x in range(S.pl[seat, C.PL_N_BEERS]):
        b = S.beers[seat, x]
        log(S, seat, LOG_BEER, R.p[P_LC_RECIPE] + b[C.BF_BARREL], b[C.BF_C0] + b[C.BF_C0 + 1] + b[C.BF_C0 + 2])


@jit
def shadow_judge(S, R, B, seat):
    """Dark Elf: after brewing, before screens lift, swap a shown judge for a hidden one."""
    code = pol.shadow_swap(S, R, B, seat)
    if code < 0:
        return
    slot, h = code // C.MAX_ROW, code % C.MAX_ROW
    if S.piles[C.ROW_OGRE, slot] >= 0:
        return
    old = S.piles[C.ROW_JUDGES, slot]
    S.piles[C.ROW_JUDGES, slot] = S.piles[C.ROW_SHADOW, h]
    S.piles[C.ROW_SHADOW, h] = old
    refund_bribe(S, slot)
    log_ability(S, R, seat, C.AB_SHADOW_JUDGE, 1)


@jit_inline
def fall(S, R, B):
    S.g[C.G_PHASE] = 2
    n = S.g[C.G_N]
    free_window(S, R, B)
    for s in range(n):
        brew_beers(S, R, B, s)
    for s in range(n):
        if has_ability(S, s, C.AB_SHADOW_JUDGE) and S.g[C.G_N_SHADOW] > 0:
            shadow_judge(S, R, B, s)
    judge_all(S, R)
    for k in range(n):  # profits in turn order
        s = S.g[C.G_ORDER + k]
        vp, gold = 0, 0
        nb = S.pl[s, C.PL_N_BEERS]
        for x in range(nb):
            vp += S.beers[s, x, C.BF_VP]
            gold += S.beers[s, x, C.BF_GOLD]
        if has_ability(S, s, C.AB_POT_O_GOLD) and nb:
            gold += R.ab[C.AB_POT_O_GOLD, AF_GOLD] * nb
            log_ability(S, R, s, C.AB_POT_O_GOLD, nb)
        S.pl[s, C.PL_GOLD] += gold
        score(S, s, vp, C.ST_VP_PROFIT)


@jit_inline
def turn_pos(S, seat):
    for k in range(S.g[C.G_N]):
        if S.g[C.G_ORDER + k] == seat:
            return k
    return -1


@jit
def judge_all(S, R):
    """Each judge left to right: best on the primary characteristic; ties to the Ogre on its
    judge, then to the briber (corrupt judges) or the secondary characteristic; a beer wins at
    most one prize a year, a full tie splits the VP (at least tie_min_vp each)."""
    n = S.g[C.G_N]
    win_seat, win_beer = S.tmp[0], S.tmp[1]
    for slot in range(S.g[C.G_N_JUDGES]):
        j = S.piles[C.ROW_JUDGES, slot]
        briber = S.piles[C.ROW_BRIBE_SEAT, slot]
        ogre = S.piles[C.ROW_OGRE, slot]
        S.piles[C.ROW_BRIBE_SEAT, slot] = -1
        S.piles[C.ROW_BRIBE_GOLD, slot] = 0
        S.piles[C.ROW_OGRE, slot] = -1
        nw = pick_winners(S, R, j, briber, ogre, win_seat, win_beer)
        if briber >= 0:  # a bribe is spent, win or lose
            S.pl[briber, C.PL_BRIBE_SLOT] = -1
            S.pl[briber, C.PL_BRIBE_GOLD] = 0
        if nw == 0:
            continue
        vp = R.jd[j, JF_VP]
        share = vp if nw == 1 else max(vp // nw, R.p[P_TIE_MIN_VP])
        for w in range(nw):
            s, x = win_seat[w], win_beer[w]
            S.beers[s, x, C.BF_WON] = 1
            S.pl[s, C.PL_RIBBONS] += 1
            stat(S, s, C.ST_JUDGES_WON, 1)
            score(S, s, share, C.ST_VP_JUDGES)
            log(S, s, LOG_JUDGE_WON if nw == 1 else LOG_JUDGE_SPLIT, R.p[P_LC_JUDGE] + j, share)
        S.g[C.G_JUDGED] += 1
    _ = n


@jit_inline
def primary(S, R, j, s, x):
    return R.jd[j, JF_PD] * S.beers[s, x, C.BF_C0 + R.jd[j, JF_P]]


@jit_inline
def secondary(S, R, j, s, x):
    return R.jd[j, JF_SD] * S.beers[s, x, C.BF_C0 + R.jd[j, JF_S]]


@jit
def best_beer_of(S, R, j, seat, best):
    """Among seat's unjudged beers tied at `best` on the primary, the one the player gives the
    prize to: best on the secondary (first one on a corrupt judge)."""
    pick = -1
    for x in range(S.pl[seat, C.PL_N_BEERS]):
        if S.beers[seat, x, C.BF_WON] or primary(S, R, j, seat, x) != best:
            continue
        if pick < 0:
            pick = x
            if R.jd[j, JF_CORRUPT]:
                return pick
        elif secondary(S, R, j, seat, x) > secondary(S, R, j, seat, pick):
            pick = x
    return pick


@jit
def pick_winners(S, R, j, briber, ogre, win_seat, win_beer):
    """The winners of judge j as (seat, beer) rows, in turn order; returns how many."""
    n = S.g[C.G_N]
    best = 0
    found = False
    for s in range(n):
        for x in range(S.pl[s, C.PL_N_BEERS]):
            if not S.beers[s, x, C.BF_WON]:
                v = primary(S, R, j, s, x)
                if not found or v > best:
                    best = v
                    found = True
    if not found:
        return 0
    tied = S.tmp[2]  # per seat: has a beer tied at best
    n_tied = 0
    for s in range(n):
        tied[s] = 0
        for x in range(S.pl[s, C.PL_N_BEERS]):
            if not S.beers[s, x, C.BF_WON] and primary(S, R, j, s, x) == best:
                tied[s] = 1
        n_tied += tied[s]
    if ogre >= 0 and tied[ogre]:
        return one_winner(S, R, j, ogre, best, win_seat, win_beer)
    if R.jd[j, JF_CORRUPT]:
        if briber >= 0 and tied[briber]:
            return one_winner(S, R, j, briber, best, win_seat, win_beer)
        nw = 0
        for k in range(n):
            s = S.g[C.G_ORDER + k]
            if tied[s]:
                win_seat[nw] = s
                win_beer[nw] = best_beer_of(S, R, j, s, best)
                nw += 1
        return nw
    best2 = 0
    found = False
    for s in range(n):
        for x in range(S.pl[s, C.PL_N_BEERS]):
            if not S.beers[s, x, C.BF_WON] and primary(S, R, j, s, x) == best:
                v = secondary(S, R, j, s, x)
                if not found or v > best2:
                    best2 = v
                    found = True
    nw = 0
    for k in range(n):
        s = S.g[C.G_ORDER + k]
        for x in range(S.pl[s, C.PL_N_BEERS]):
            if not S.beers[s, x, C.BF_WON] and primary(S, R, j, s, x) == best and secondary(S, R, j, s, x) == best2:
                win_seat[nw] = s
                win_beer[nw] = x
                nw += 1
                break
    return nw


@jit
def one_winner(S, R, j, seat, best, win_seat, win_beer):
    win_seat[0] = seat
    win_beer[0] = best_beer_of(S, R, j, seat, best)
    return 1


# ----------------------------------------------------------------------------- winter

@jit_inline
def winter(S, R, B):
    S.g[C.G_PHASE] = 3
    n = S.g[C.G_N]
    free_window(S, R, B)  # before the stores cut: free actions stay allowed in winter
    for s in range(n):
        winter_player(S, R, B, s)
    for i in range(R.p[P_DRAFT_ROW]):  # refresh the drafting pool, the offering and the judges
        discard_draft_card(S, 0, i)
        discard_draft_card(S, 1, i)
    refill_rows(S, R)
    discard_offer(S, R)
    refill_offer(S, R)
    for slot in range(S.g[C.G_N_JUDGES]):
        push(S, C.PILE_JBOX, S.piles[C.ROW_JUDGES, slot])
    deal_judges(S, R)
    set_turn_order(S)


@jit
def set_turn_order(S):
    """Years 2-3: the lowest player on VP starts (a tie goes to the disk on top of the stack),
    then play goes on clockwise from that seat, so the others keep their seat order."""
    n = S.g[C.G_N]
    first = 0
    for s in range(1, n):
        if before(S, s, first):
            first = s
    for k in range(n):
        S.g[C.G_ORDER + k] = (first + k) % n


@jit_inline
def before(S, s, t):
    """Whether seat s is lower than seat t for the turn order: fewer VP, or the disk on top."""
    if S.pl[s, C.PL_VP] != S.pl[t, C.PL_VP]:
        return S.pl[s, C.PL_VP] < S.pl[t, C.PL_VP]
    return S.pl[s, C.PL_STAMP] > S.pl[t, C.PL_STAMP]


@jit
def winter_player(S, R, B, s):
    """Brewers and gnomes back, locks and spell tokens off, quests done, the Winter Stores kept,
    the recipe book cut to its maximum."""
    for ci in range(S.pl[s, C.PL_N_CARDS]):
        S.g[C.G_GNOME_SUPPLY] += S.est[s, ci, C.CF_GNOME]
        S.est[s, ci, C.CF_GNOME] = 0
        S.est[s, ci, C.CF_OWN] = 0
        S.est[s, ci, C.CF_LOCKED] = 0
        S.est[s, ci, C.CF_SPELL_USED] = 0
    S.pl[s, C.PL_GNOMES_OUT] = 0
    S.g[C.G_GNOME_SUPPLY] += S.pl[s, C.PL_GNOME_AVAIL]
    S.pl[s, C.PL_GNOME_AVAIL] = 0
    S.pl[s, C.PL_OWN_TOTAL] -= S.pl[s, C.PL_SACRIFICED]  # Chaos Wytch brewers on Dark Sacrifice leave
    S.pl[s, C.PL_SACRIFICED] = 0
    S.pl[s, C.PL_OWN_AVAIL] = S.pl[s, C.PL_OWN_TOTAL]
    S.pl[s, C.PL_OWN_OUT] = 0
    for q in range(S.pl[s, C.PL_N_QUESTS]):
        push(S, C.PILE_EDISC, S.pl[s, C.PL_QUESTS + q])
    S.pl[s, C.PL_N_QUESTS] = 0
    keep = S.tmp[4]
    pol.winter_keep(S, R, B, s, stores_cap(S, R, s), keep)
    for i in range(C.N_INGS):
        S.pl[s, C.PL_INV + i] = keep[i]
    m = book_max(S, R, s)
    nb = S.pl[s, C.PL_N_BOOK]
    if nb > m:
        kept = S.tmp[5]
        pol.book_keep(S, R, B, s, m, kept)
        for a in range(nb):
            r = S.pl[s, C.PL_BOOK + a]
            found = False
            for b in range(m):
                if kept[b] == r:
                    found = True
            if not found:
                push(S, C.PILE_RDISC_BARREL + R.rc[r, RC_SPICE], r)
        for b in range(m):
            S.pl[s, C.PL_BOOK + b] = kept[b]
        S.pl[s, C.PL_N_BOOK] = m
    S.pl[s, C.PL_N_BEERS] = 0


# ----------------------------------------------------------------------------- a whole game

@jit
def final_ranking(S):
    """Rank by VP, then ribbons, then gold; full ties share the rank and the win."""
    n = S.g[C.G_N]
    n_win = 0
    for s in range(n):
        rank = 1
        for t in range(n):
            if better(S, t, s):
                rank += 1
        S.pl[s, C.PL_RANK] = rank
        if rank == 1:
            n_win += 1
    for s in range(n):
        S.wins[s] = 1.0 / n_win if S.pl[s, C.PL_RANK] == 1 else 0.0
    return n_win


@jit_inline
def better(S, t, s):
    for f in (C.PL_VP, C.PL_RIBBONS, C.PL_GOLD):
        if S.pl[t, f] != S.pl[s, f]:
            return S.pl[t, f] > S.pl[s, f]
    return False
