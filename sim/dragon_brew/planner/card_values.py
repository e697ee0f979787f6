"""Dragon Brew planner, what a card or an action card is worth to a seat, in gold-equivalents: a
draftable Brewery or Event card, an action card performed by a brewer (own, Horse Guests,
Servant), a spell cast, and the Naga's Mana Spell.

The values follow the effects of the rules (l. = line of ../shared/rules/dragon_brew.txt): action cards and their multipliers
(l. 236-247, 305-311), event rewards (l. 271-277), spells (l. 293, 542, 572-574); Free Gnomes
(l. 588) keeps gold in reserve for hiring.
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from ..state import (
    AF_GOLD,
    AF_N,
    BC_AMOUNT,
    BC_COST,
    BC_EFFECT,
    BC_INFINITE,
    BC_ING,
    BC_KIND,
    BC_SPELL_COST,
    BC_SPELL_N,
    BC_TARGET,
    EF_BREWER,
    EF_COST,
    EF_GAIN_GOLD,
    EF_GAIN_KIND,
    EF_GAIN_N,
    EF_GAIN_VP,
    EF_KIND,
    EF_PAY_KIND,
    EF_PAY_N,
    P_DRAFT_ROW,
    P_NEUTRAL,
    P_YEARS,
    RF_GRAIN_YIELD,
    RF_TRADER_COST,
    W_ESTATE,
    W_FINISH,
    W_GRAIN,
    W_MAGIC,
    W_NEED_BONUS,
    W_RESEARCH,
    W_RESERVE,
    W_VP,
    W_WORT,
    Y_GAIN_ONCE,
    class_range,
    find_card,
    mash_mult,
    max_beers,
    not_borrowable,
    on_race_card,
    take_one,
    trader_mult,
    wort_grains,
)
from .ingredients import best_of_class, cost_range, gain_best, gain_same, gain_value, lose_value
from .memory import (
    BOOK_LIMIT,
    FV_EXTRA,
    FV_MANA_EXTRA,
    FV_PLAN_VALUE,
    I_ITEMS,
    I_MHINV,
    I_MHNEED,
    K_MANA_SPELL,
    M_NEED,
    M_NPLAN,
    magic_need,
    need_sum,
    wt,
)

# ----------------------------------------------------------------------------- card values

NOTHING_TO_GAIN = -9.0  # a card that cannot help: the neutral card, an upgrade with no target

@jit_inline
def years_left(S, R):
    return R.p[P_YEARS] - S.g[C.G_YEAR] + 1


@jit_inline
def research_gap(S, R, B, seat):
    """Missing or weak beers in the plan; -1 once the book holds BOOK_LIMIT recipes."""
    if S.pl[seat, C.PL_N_BOOK] >= BOOK_LIMIT:
        return -1
    n = B.mem[seat, M_NPLAN]
    gap = max(0, max_beers(S, R, seat) - n)
    if B.fv[seat, FV_PLAN_VALUE] < 4.0 * max(1, n):
        gap += 1
    return gap


@jit_inline
def card_value(S, R, B, seat, row, t):
    """Worth of drafting card type t of the Brewery (row 0) or Event (row 1) row. Inlined, with
    the Brewery card's value (about 1,000 card values a greedy 4-player game): a compiled call
    passes every array of S, R and B field by field."""
    if row == 0:
        return brewery_card_value(S, R, B, seat, t)
    return event_card_value(S, R, B, seat, t)


@jit_inline
def draft_card_value(S, R, B, seat, row, t):
    """card_value with the Event card's value inlined too, for the move values (490 Event card
    values a greedy 4-player game): passing S, R and B to the compiled one took twice its own
    time (bench/kernel_profile.py: the pushes before the call 4.5% of the kernel)."""
    if row == 0:
        return brewery_card_value(S, R, B, seat, t)
    return event_value(S, R, B, seat, t)


@jit_inline
def brewery_card_value(S, R, B, seat, t):
    pol = S.pl[seat, C.PL_POLICY]
    ab = S.pl[seat, C.PL_ABILITY]
    if t == R.p[P_NEUTRAL]:
        return NOTHING_TO_GAIN
    e = R.bc[t, BC_EFFECT]
    if e == C.E_GAIN and R.bc[t, BC_INFINITE] == 0:
        y = R.pol_y[pol, Y_GAIN_ONCE]
    else:
        y = R.pol_y[pol, e]
    if e == C.E_GAIN:
        y += 0.5 * gain_same(S, R, B, seat, R.bc[t, BC_ING], 1)
    if R.bc[t, BC_KIND] == C.K_SPELL and (ab == C.AB_MANA_SPELL or ab == C.AB_SPELL_BOOK):
        y += 2.0  # the race power needs spells in play
    if ab == C.AB_MANA_SPELL and R.bc[t, BC_ING] == C.MANA:
        y += 2.0  # ... and the Naga's needs mana weed
    if R.bc[t, BC_KIND] == C.K_UPGRADE and find_card(S, seat, R.bc[t, BC_TARGET]) < 0:
        return NOTHING_TO_GAIN
    if e == C.E_GNOME_HOUSING and ab == C.AB_DRAIN_GNOME:
        y += 1.5
    yl = years_left(S, R)
    return wt(S, R, seat, W_ESTATE) * y * yl - (0.3 if yl == 1 else 0.0)


@jit
def event_card_value(S, R, B, seat, t):
    return event_value(S, R, B, seat, t)


@jit_inline
def event_value(S, R, B, seat, t):
    ab = S.pl[seat, C.PL_ABILITY]
    k = R.evt[t, EF_KIND]
    v = R.evt[t, EF_GAIN_GOLD] + R.evt[t, EF_GAIN_VP] * wt(S, R, seat, W_VP)
    gk, gn = R.evt[t, EF_GAIN_KIND], R.evt[t, EF_GAIN_N]
    if gk == C.GK_EACH_GRAIN:
        items = B.isc[I_ITEMS]
        for a in range(gn):
            for i in range(3):
                items[3 * a + i] = i
        v += gain_value(S, R, B, seat, items, 3 * gn)
    elif gk == C.GK_GRAIN:
        v += gain_best(S, R, B, seat, 0, 3, gn)
    elif gk == C.GK_MAGIC:
        v += gain_best(S, R, B, seat, 6, 9, gn)
    elif gk == C.GK_WORT:
        v += gain_best(S, R, B, seat, 3, 6, gn)
    if k == C.EV_FESTIVAL:
        lo, hi = class_range(R.evt[t, EF_PAY_KIND])
        v -= lose_value(S, R, B, seat, lo, hi, R.evt[t, EF_PAY_N])
    if k == C.EV_MIGRANT:
        # one more brewer action this year, worth more early in the spring
        left = on_race_card(S, seat)
        v += (4.5 if left >= 2 else 3.0) + (2.0 if ab == C.AB_DRAIN_GNOME else 0.0)
    if k == C.EV_SCROLL:
        v += wt(S, R, seat, W_RESEARCH) * 0.5 * research_gap(S, R, B, seat)
    if R.evt[t, EF_BREWER] != 0:
        v -= 2.0
    return v


@jit_inline
def row_card_cost(S, R, row, slot):
    t = S.piles[C.ROW_BREWERY + row, slot]
    if row == 0:
        return R.bc[t, BC_COST]
    return R.evt[t, EF_COST]


# ----------------------------------------------------------------------------- action values

@jit
def field_items(S, R, B, seat, q, ci, out):
    """What q's Grain Fields (estate card ci) yield, chosen by the plan's needs; returns the count."""
    m = best_of_class(B, seat, 0, 3, R.race[S.pl[q, C.PL_RACE], RF_GRAIN_YIELD], out, 0)
    for u in range(S.est[q, ci, C.CF_N_UP]):
        t = S.est[q, ci, C.CF_UP + u]
        e = R.bc[t, BC_EFFECT]
        if e == C.E_GRAIN_ANY:
            m = best_of_class(B, seat, 0, 3, R.bc[t, BC_AMOUNT], out, m)
        elif e == C.E_GRAIN_WHEAT or e == C.E_GRAIN_RYE or e == C.E_GRAIN_BARLEY:
            for _ in range(R.bc[t, BC_AMOUNT]):
                out[m] = C.WHEAT + e - C.E_GRAIN_WHEAT
                m += 1
    if S.pl[q, C.PL_ABILITY] == C.AB_FERTILE_FIELDS:
        m = best_of_class(B, seat, 0, 3, R.ab[C.AB_FERTILE_FIELDS, AF_N], out, m)
    if S.pl[q, C.PL_ABILITY] == C.AB_SACRED_GROVE:
        m = best_of_class(B, seat, 6, 9, R.ab[C.AB_SACRED_GROVE, AF_N], out, m)
    return m


@jit_inline
def trader_short(S, R, B, seat, spend):
    """Gold missing (after spending `spend`) to buy the plan's magic ingredients at the Trader."""
    need = R.race[S.pl[seat, C.PL_RACE], RF_TRADER_COST] * magic_need(B, seat)
    return max(0, need - (S.pl[seat, C.PL_GOLD] - spend))


@jit_inline
def guild_reserve(S, R, seat):
    """Gold the Free Gnomes keep while a Migrant Gnomes card lies in the Event row."""
    if S.pl[seat, C.PL_ABILITY] != C.AB_GNOME_GUILD or S.g[C.G_GNOME_SUPPLY] < 2:
        return 0
    for s in range(R.p[P_DRAFT_ROW]):
        t = S.piles[C.ROW_EVENT, s]
        if t >= 0 and R.evt[t, EF_KIND] == C.EV_MIGRANT:
            return R.ab[C.AB_GNOME_GUILD, AF_GOLD]
    return 0


@jit_inline
def can_mash_inv(inv, a, b):
    short = 0
    if inv[a] < 1:
        short += 1
    if inv[b] < 1:
        short += 1
    return short <= inv[C.MANA]


@jit_inline
def plain_action(key):
    """The action cards valued without a compiled call of their own (7 in 10 of the values a
    greedy game asks: Study, Brewery, Magic Trader, Mash House)."""
    return key == C.STUDY or key == C.BREWERY or key == C.MAGIC_TRADER or key == C.MASH_HOUSE


@jit_inline
def plain_action_value(S, R, B, seat, q, key):
    """action_core's value of a plain_action card (key) of q's."""
    if key == C.STUDY:
        v = wt(S, R, seat, W_RESEARCH) * research_gap(S, R, B, seat) + 0.3
        if S.pl[q, C.PL_ABILITY] == C.AB_ARCANE_LIBRARY:
            v += R.ab[C.AB_ARCANE_LIBRARY, AF_GOLD]
        return v
    if key == C.BREWERY:
        return 0.8 * B.fv[seat, FV_EXTRA]
    if key == C.MAGIC_TRADER:
        cost = R.race[S.pl[q, C.PL_RACE], RF_TRADER_COST]
        n = min(trader_mult(S, R, q), S.pl[seat, C.PL_GOLD] // cost, magic_need(B, seat))
        # a bought magic ingredient is usually the last one a planned beer lacks
        if n == 0:
            return -1.0
        return n * (wt(S, R, seat, W_MAGIC) + wt(S, R, seat, W_NEED_BONUS) * wt(S, R, seat, W_FINISH) - cost)
    # the Mash House
    inv = B.isc[I_MHINV]
    need = B.isc[I_MHNEED]
    for i in range(C.N_INGS):
        inv[i] = S.pl[seat, C.PL_INV + i]
        need[i] = B.mem[seat, M_NEED + i]
    v = 0.0
    for _ in range(mash_mult(S, R, q)):
        w = -1
        for x in range(C.GREEN, C.PURPLE + 1):
            a, b = wort_grains(x)
            if need[x] > 0 and can_mash_inv(inv, a, b):
                w = x
                break
        if w < 0:
            break
        a, b = wort_grains(w)
        take_one(inv, a)
        take_one(inv, b)
        need[w] -= 1
        # the grains were gathered for this wort: mashing finishes what they started
        v += (wt(S, R, seat, W_WORT) + wt(S, R, seat, W_NEED_BONUS) * wt(S, R, seat, W_FINISH)
              - 2 * wt(S, R, seat, W_GRAIN))
    return v if v > 0 else -1.0


@jit
def action_core(S, R, B, seat, q, ci):
    """Gold-equivalent value of seat performing q's action card ci now (the Mana Spell apart)."""
    key = S.est[q, ci, C.CF_KEY]
    if plain_action(key):
        return plain_action_value(S, R, B, seat, q, key)
    if key == C.GRAIN_FIELDS:
        items = B.isc[I_ITEMS]
        m = field_items(S, R, B, seat, q, ci, items)
        return gain_value(S, R, B, seat, items, m)
    bc = S.est[q, ci, C.CF_BC]
    if bc >= 0:
        return gain_same(S, R, B, seat, R.bc[bc, BC_ING], R.bc[bc, BC_AMOUNT])
    if key == C.KEY_ABILITY + C.AB_GOLD_MINE:
        # gold the plan lacks to buy its magic ingredients is worth `reserve` more per coin
        gold = R.ab[C.AB_GOLD_MINE, AF_GOLD]
        return gold + wt(S, R, seat, W_RESERVE) * min(gold, trader_short(S, R, B, seat, 0))
    if key == C.KEY_ABILITY + C.AB_BORROWER:
        return R.ab[C.AB_BORROWER, AF_GOLD] + gain_best(S, R, B, seat, 0, 3, R.ab[C.AB_BORROWER, AF_N])
    if key == C.KEY_ABILITY + C.AB_BLACK_MARKET:
        best, found = 0.0, False
        for r in range(2):
            for s in range(R.p[P_DRAFT_ROW]):
                t = S.piles[C.ROW_BREWERY + r, s]
                if t >= 0:
                    v = card_value(S, R, B, seat, r, t)
                    if not found or v > best:
                        best, found = v, True
        return best if found else -1.0
    return 0.0


@jit_inline
def useful_spell(S, R, seat, ci):
    """A spell worth re-casting with the Mana Spell (any but Transmutation)."""
    bc = S.est[seat, ci, C.CF_BC]
    return S.est[seat, ci, C.CF_KIND] == C.K_SPELL and (bc < 0 or R.bc[bc, BC_EFFECT] != C.E_TRANSMUTATION)


@jit
def spell_value(S, R, B, seat, q, ci, free):
    """Worth of seat casting q's spell card ci (free: a Spell Book cast, magic costs waived)."""
    nb = wt(S, R, seat, W_NEED_BONUS)
    if S.est[q, ci, C.CF_KEY] == C.KEY_ABILITY + C.AB_SPINNING_WHEEL:
        return R.ab[C.AB_SPINNING_WHEEL, AF_GOLD] - lose_value(S, R, B, seat, 0, 3, R.ab[C.AB_SPINNING_WHEEL, AF_N])
    b = S.est[q, ci, C.CF_BC]
    if b < 0:
        # a race spell has no Brewery card: it reads the last real card's row (numpy's row -1
        # before the neutral card was appended), so the bots' choices stay as they were
        b += R.p[P_NEUTRAL]
    e = R.bc[b, BC_EFFECT]
    sc = R.bc[b, BC_SPELL_COST]
    cost = 0.0
    if not (free and (sc == C.CL_MAGIC or sc == C.TOAD or sc == C.DRAGON or sc == C.PIXIE)):
        lo, hi = cost_range(sc)
        cost = lose_value(S, R, B, seat, lo, hi, R.bc[b, BC_SPELL_N])
    if e == C.E_CHAOS:
        x = 0.5 * R.pol_y[S.pl[seat, C.PL_POLICY], C.E_CHAOS] * years_left(S, R)
        v = 2 * (x if x > 1.5 else 1.5)
    elif e == C.E_INTELLIGENCE:
        v = wt(S, R, seat, W_RESEARCH) * research_gap(S, R, B, seat) + 0.5
    elif e == C.E_RAISE_GNOME:
        gn = 0
        for c in range(S.pl[seat, C.PL_N_CARDS]):
            gn += S.est[seat, c, C.CF_GNOME]
        v = 1.5 * min(R.bc[b, BC_AMOUNT], gn)
    elif e == C.E_TRANSMUTATION:
        a = nb if need_sum(B, seat) > 0 else 0.0
        me = B.fv[seat, FV_MANA_EXTRA]
        v = 1.2 + (me if me > a else a)
    elif e == C.E_SERVANT:  # only reached through the Spell Book: worth the best card it borrows
        v = best_servant_value(S, R, B, seat)
    else:
        v = 0.0
    if S.pl[seat, C.PL_ABILITY] == C.AB_MANA_SPELL:
        v += 1.0  # a cast spell can be made ready again by the Naga's Mana Spell
    return v - cost


@jit
def best_servant_value(S, R, B, seat):
    """About what a Servant Spell cast now gains: the best action card it may borrow (the
    rules pick among the usable ones, pick_servant)."""
    best = 0.0
    for q in range(S.g[C.G_N]):
        for c in range(S.pl[q, C.PL_N_CARDS]):
            key = S.est[q, c, C.CF_KEY]
            if S.est[q, c, C.CF_KIND] == C.K_ACTION and not not_borrowable(key) and key != K_MANA_SPELL:
                v = action_core(S, R, B, seat, q, c)
                if v > best:
                    best = v
    return best


@jit
def recast_value(S, R, B, seat, ci):
    """What casting a spent spell again is worth; a Servant Spell is worth the best action card
    it could borrow (approximated by the Naga's own)."""
    bc = S.est[seat, ci, C.CF_BC]
    if bc >= 0 and R.bc[bc, BC_EFFECT] == C.E_SERVANT:
        best, found = 0.0, False
        for c in range(S.pl[seat, C.PL_N_CARDS]):
            key = S.est[seat, c, C.CF_KEY]
            if S.est[seat, c, C.CF_KIND] == C.K_ACTION and not not_borrowable(key) and key != K_MANA_SPELL:
                v = action_core(S, R, B, seat, seat, c)
                if not found or v > best:
                    best, found = v, True
        return best
    return spell_value(S, R, B, seat, seat, ci, False)


@jit
def mana_spell_value(S, R, B, seat):
    """Worth of the Naga's Mana Spell: the spent spells it makes ready again; with its last
    brewers the Naga takes it now."""
    used = 0
    v = 0.0
    n_useful = 0
    for c in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, c, C.CF_KIND] == C.K_SPELL and S.est[seat, c, C.CF_SPELL_USED] != 0:
            used += 1
            if useful_spell(S, R, seat, c):
                n_useful += 1
                r = recast_value(S, R, B, seat, c)
                v += r if r > 4.0 else 4.0
    if n_useful == 0:
        return 0.5 * used
    v += 1.0
    left = on_race_card(S, seat)
    if left <= 2:
        v += 4.0 if left == 2 else 8.0
    return v


@jit_inline
def mana_spell_bonus(S, R, B, seat):
    """Extra worth of a first mana weed to a Naga that owns a spell worth casting twice. The
    test for the Naga inlined (refresh_need asks it at every greedy decision)."""
    if S.pl[seat, C.PL_ABILITY] != C.AB_MANA_SPELL or S.pl[seat, C.PL_INV + C.MANA] > 0:
        return 0.0
    return naga_mana_bonus(S, R, B, seat)


@jit
def naga_mana_bonus(S, R, B, seat):
    """mana_spell_bonus once the seat is a Naga without mana weed: its best spell's recast value."""
    ms = find_card(S, seat, K_MANA_SPELL)
    if ms < 0 or S.est[seat, ms, C.CF_LOCKED] != 0:
        return 0.0
    best, found = 0.0, False
    for c in range(S.pl[seat, C.PL_N_CARDS]):
        if useful_spell(S, R, seat, c):
            r = recast_value(S, R, B, seat, c)
            r = r if r > 4.0 else 4.0
            if not found or r > best:
                best, found = r, True
    if not found:
        return 0.0
    nb = wt(S, R, seat, W_NEED_BONUS)
    return best if best > nb else nb


@jit_inline
def action_value(S, R, B, seat, q, ci):
    """Inlined: a dispatch the move values call for every brewer, guest and servant move. The
    plain action cards are valued inline too: calling the compiled action_core passes every
    array of S, R and B field by field, which took longer than most of those values."""
    key = S.est[q, ci, C.CF_KEY]
    if key == K_MANA_SPELL:
        return mana_spell_value(S, R, B, seat)
    if plain_action(key):
        return plain_action_value(S, R, B, seat, q, key)
    return action_core(S, R, B, seat, q, ci)
