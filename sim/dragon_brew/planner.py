"""Dragon Brew planner bots (`greedy`, `builder`): the choices of the planner kind, compiled.

A port of the Python PlannerBot (docs/games/dragon_brew.md) that makes the same choice for the
same state: same plan, same move, same float arithmetic order, ties to the first maximum (Python
max) and stable sorts. At the start of each turn the bot picks the beers it will brew from its
recipe book (one barrel + 1..max_spices spices each, at most its Brewery capacity) by profit plus
the estimated chance to win one of this year's judges, minus the brewer actions the ingredients
it lacks take (`action` gold each), keeping only beers whose actions fit the brewers left plus
`slack`; what those beers still lack is its need vector. Every legal move is then valued in
gold-equivalents and the best is played (policies.toml explains the weights).

Memory (BotState, one row per seat; kernels never allocate, so every buffer is here):
  mem   int64[4, MEM_W]          plan size, game id, candidate/judge cache keys, need vector
  plan  int64[4, MAX_PLAN, PW]   the planned beers as copies (cards, chars, vp, gold, need counts),
                                 since the candidates are rebuilt when the book changes mid-turn
  fv    float64[4, 4]            extra (value of the best beer beyond capacity), plan value,
                                 mana extra (Naga's Mana Spell fuel)
  cand  int64[4, MAX_CANDS, CW]  every beer the book allows (cached per book): cards, chars, vp,
                                 gold, spices, distinct needs in first-need order with counts
  jv    float64[4, MAX_CANDS, 1 + MAX_ROW]  per beer its best judge value, then per shown judge
                                 (cached per book, judges and policy)
  fsc   float64[3, MAX_CANDS]    selection scratch: stale values, active and dead flags
  isc   int64[18, 256]           small integer scratch rows (I_*), one per helper so nesting is safe
  fsm   float64[4, 256]          small float scratch rows
A book whose beers would exceed MAX_CANDS is searched with fewer spices per beer (spice_limit),
so every max_spices in the data's range plays; the overflow flag stays as a guard.
A seat's plan and need are forgotten when S.g[G_GAME] changes (a Python bot is new each game);
the caches are keyed by what they depend on (book; book, judges and policy) and stay valid.
"""

from collections import namedtuple

import numpy as np

from sim.core.jit import jit, jit_inline

from . import constants as C
from .state import (
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
    JF_P,
    JF_PD,
    JF_VP,
    P_CHAR_UNIT,
    P_CLEAR_DRAFT_N,
    P_DRAFT_ROW,
    P_MAX_SPICES,
    P_OFFERING_ROW,
    P_YEARS,
    RC_C0,
    RC_GOLD,
    RC_NEED,
    RC_NEED_N,
    RC_SPICE,
    RC_VP,
    RF_GRAIN_YIELD,
    RF_TRADER_COST,
    W_ACTION,
    W_BREWER,
    W_BRIBE_SHARE,
    W_ESTATE,
    W_FINISH,
    W_GOLD_KEEP,
    W_GRAIN,
    W_JUDGE_CHASE,
    W_MAGIC,
    W_MIN_GAIN,
    W_NEED_BONUS,
    W_RESEARCH,
    W_RESERVE,
    W_SLACK,
    W_UNFINISHED,
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

BotState = namedtuple("BotState", "mem plan fv cand jv fsc isc fsm")

MAX_SP = 4  # widest beer: a barrel and up to 4 spices (BF_SPICE has room for 4)
# mem columns
M_NPLAN, M_GID, M_NCAND, M_JVALID, M_JPOL, M_JN, M_CBOOK_N, M_CVALID = range(8)
M_NEED = 8
M_J = M_NEED + C.N_INGS
M_CBOOK = M_J + C.MAX_ROW
MEM_W = M_CBOOK + C.MAX_BOOK
# plan columns
PB_CARD = 0
PB_NSP = PB_CARD + 1 + MAX_SP
PB_C0 = PB_NSP + 1
PB_VP = PB_C0 + 3
PB_GOLD = PB_VP + 1
PB_NEED = PB_GOLD + 1
PW = PB_NEED + C.N_INGS
MAX_PLAN = C.MAX_BEERS + 1  # the beers brewed plus the best one left out
# candidate columns
CD_CARD = 0
CD_C0 = CD_CARD + 1 + MAX_SP
CD_VP = CD_C0 + 3
CD_GOLD = CD_VP + 1
CD_NSP = CD_GOLD + 1
CD_CNTN = CD_NSP + 1
CD_ING = CD_CNTN + 1
CD_K = CD_ING + C.N_INGS
CW = CD_K + C.N_INGS
# The planner stops researching once its book holds this many recipes: more recipes only widen
# its beer search (about a thousand candidate beers at 24) while its brewers cannot gather for
# them; without the limit a planner occasionally kept researching (a 48-recipe book in one game
# of 90,000, 4 players).
BOOK_LIMIT = 24
# fv columns
FV_EXTRA, FV_PLAN_VALUE, FV_MANA_EXTRA = range(3)
# isc rows
(I_ITEMS, I_NEEDC, I_BOC, I_SPINV, I_PICKS, I_LVINV, I_MHINV, I_MHNEED, I_CINV, I_PAYINV, I_SELINV, I_USED,
 I_CLAIMED, I_OUTCI, I_SORT, I_REQ, I_IDX, I_GOT) = range(18)
N_ISC = 18
SCR_W = 256
# fsm rows
F_OUTV, F_ACQ, F_KEY = range(3)

NO_BUDGET = 1e9  # action budget of a selection that only brews what is held
K_MANA_SPELL = C.KEY_ABILITY + C.AB_MANA_SPELL


def make_bot_state(cfg, R) -> BotState:
    assert cfg.params["max_spices"] <= MAX_SP, "planner: max_spices above 4"
    assert R.rc.shape[0] <= SCR_W, "planner: more recipes than its scratch rows hold"
    n = C.MAX_PLAYERS
    mem = np.zeros((n, MEM_W), np.int64)
    mem[:, M_GID] = -1
    return BotState(mem=mem, plan=np.zeros((n, MAX_PLAN, PW), np.int64), fv=np.zeros((n, 4), np.float64),
                    cand=np.zeros((n, C.MAX_CANDS, CW), np.int64),
                    jv=np.zeros((n, C.MAX_CANDS, 1 + C.MAX_ROW), np.float64),
                    fsc=np.zeros((3, C.MAX_CANDS), np.float64), isc=np.zeros((N_ISC, SCR_W), np.int64),
                    fsm=np.zeros((4, SCR_W), np.float64))


# ----------------------------------------------------------------------------- memory

@jit
def reset(B, seat):
    """Forget the plan (a new game); the candidate cache stays valid (it depends on the book)."""
    B.mem[seat, M_NPLAN] = 0
    B.mem[seat, M_JVALID] = 0
    for i in range(C.N_INGS):
        B.mem[seat, M_NEED + i] = 0
    for k in range(B.fv.shape[1]):
        B.fv[seat, k] = 0.0


@jit_inline
def sync(S, B, seat):
    if B.mem[seat, M_GID] != S.g[C.G_GAME]:
        reset(B, seat)
        B.mem[seat, M_GID] = S.g[C.G_GAME]


@jit_inline
def wt(S, R, seat, k):
    return R.pol_w[S.pl[seat, C.PL_POLICY], k]


@jit_inline
def base_value(S, R, seat, i):
    """Worth of an ingredient the plan does not need (grain / wort / magic weight)."""
    if i < 3:
        return wt(S, R, seat, W_GRAIN)
    if i < 6:
        return wt(S, R, seat, W_WORT)
    return wt(S, R, seat, W_MAGIC)


@jit_inline
def need_sum(B, seat):
    s = 0
    for i in range(C.N_INGS):
        s += B.mem[seat, M_NEED + i]
    return s


@jit_inline
def magic_need(B, seat):
    return B.mem[seat, M_NEED + C.TOAD] + B.mem[seat, M_NEED + C.DRAGON] + B.mem[seat, M_NEED + C.PIXIE]


@jit_inline
def req(B, seat, i):
    """How many of ingredient i the plan's beers use."""
    s = 0
    for b in range(B.mem[seat, M_NPLAN]):
        s += B.plan[seat, b, PB_NEED + i]
    return s


@jit_inline
def pwin(R, j, c0, c1, c2):
    """Rough chance that a beer with these characteristics wins judge j."""
    p = R.jd[j, JF_P]
    v = (c0 if p == 0 else (c1 if p == 1 else c2)) / char_unit(R)  # on the scale the curve was set on
    if R.jd[j, JF_PD] > 0:
        return min(max((v - 3) / 4.0, 0.0), 0.9)
    return min(max((2.5 - v) / 3.0, 0.0), 0.85)


@jit_inline
def char_unit(R):
    """Points a recipe card is played with per point written in recipes.toml (1.0 at char_scale 0)."""
    return R.p[P_CHAR_UNIT] / 1000.0


# ----------------------------------------------------------------------------- ingredient values

@jit_inline
def ing_value(S, R, B, seat, needc, i):
    nb = wt(S, R, seat, W_NEED_BONUS)
    if i == C.MANA:
        s = 0
        for j in range(C.N_INGS):
            s += needc[j]
        a = nb if s > 0 else 0.0
        me = B.fv[seat, FV_MANA_EXTRA]
        return 1.2 + (me if me > a else a)
    base = base_value(S, R, seat, i)
    if needc[i] > 0:
        needc[i] -= 1
        return base + nb
    return base


@jit
def gain_value(S, R, B, seat, items, n):
    """Worth of gaining items[:n], each ingredient the plan needs counted once per need."""
    needc = B.isc[I_NEEDC]
    for i in range(C.N_INGS):
        needc[i] = B.mem[seat, M_NEED + i]
    tot = 0.0
    for k in range(n):
        tot += ing_value(S, R, B, seat, needc, items[k])
    return tot


@jit
def best_of_class(B, seat, lo, hi, n, out, off):
    """n ingredients of [lo, hi) the plan needs most (first maximum), written at out[off:];
    returns off + n."""
    boc = B.isc[I_BOC]
    for i in range(C.N_INGS):
        boc[i] = B.mem[seat, M_NEED + i]
    for k in range(n):
        i = lo
        for x in range(lo + 1, hi):
            if boc[x] > boc[i]:
                i = x
        if boc[i] > 0:
            boc[i] -= 1
        out[off + k] = i
    return off + n


@jit
def gain_best(S, R, B, seat, lo, hi, n):
    items = B.isc[I_ITEMS]
    m = best_of_class(B, seat, lo, hi, n, items, 0)
    return gain_value(S, R, B, seat, items, m)


@jit
def gain_same(S, R, B, seat, i, n):
    items = B.isc[I_ITEMS]
    for k in range(n):
        items[k] = i
    return gain_value(S, R, B, seat, items, n)


@jit
def spend_picks(S, R, B, seat, lo, hi, n, out):
    """Which ingredients of [lo, hi) pay n (most surplus over the plan first); returns how many
    (mana weed pays the rest)."""
    inv = B.isc[I_SPINV]
    for i in range(C.N_INGS):
        inv[i] = S.pl[seat, C.PL_INV + i]
    k = 0
    for _ in range(n):
        best, bkey = -1, 0
        for i in range(lo, hi):
            if inv[i] > 0:
                key = inv[i] - req(B, seat, i)
                if best < 0 or key > bkey:
                    best, bkey = i, key
        if best < 0:
            break
        inv[best] -= 1
        out[k] = best
        k += 1
    return k


@jit
def lose_value(S, R, B, seat, lo, hi, n):
    """Value lost by paying n of [lo, hi) (surplus first)."""
    picks = B.isc[I_PICKS]
    k = spend_picks(S, R, B, seat, lo, hi, n, picks)
    inv = B.isc[I_LVINV]
    for i in range(C.N_INGS):
        inv[i] = S.pl[seat, C.PL_INV + i]
    nb = wt(S, R, seat, W_NEED_BONUS)
    tot = 0.0
    for a in range(k):
        i = picks[a]
        surplus = inv[i] - req(B, seat, i)
        tot += base_value(S, R, seat, i) + (0.0 if surplus > 0 else nb)
        inv[i] -= 1
    tot += (n - k) * (1.2 + nb)
    return tot


@jit_inline
def cost_range(code):
    """Ingredient range of a spell cost code (a class, one ingredient; none = mana weed)."""
    if code < 0:
        return C.MANA, C.MANA + 1
    return class_range(code)


# ----------------------------------------------------------------------------- card values

@jit_inline
def years_left(S, R):
    return R.p[P_YEARS] - S.g[C.G_YEAR] + 1


@jit
def research_gap(S, R, B, seat):
    """Missing or weak beers in the plan; -1 once the book holds BOOK_LIMIT recipes."""
    if S.pl[seat, C.PL_N_BOOK] >= BOOK_LIMIT:
        return -1
    n = B.mem[seat, M_NPLAN]
    gap = max(0, max_beers(S, R, seat) - n)
    if B.fv[seat, FV_PLAN_VALUE] < 4.0 * max(1, n):
        gap += 1
    return gap


@jit
def card_value(S, R, B, seat, row, t):
    """Worth of drafting card type t of the Brewery (row 0) or Event (row 1) row."""
    pol = S.pl[seat, C.PL_POLICY]
    ab = S.pl[seat, C.PL_ABILITY]
    if row == 0:
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
            return -9.0
        if e == C.E_GNOME_HOUSING and ab == C.AB_DRAIN_GNOME:
            y += 1.5
        yl = years_left(S, R)
        return wt(S, R, seat, W_ESTATE) * y * yl - (0.3 if yl == 1 else 0.0)
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


@jit
def action_core(S, R, B, seat, q, ci):
    """Gold-equivalent value of seat performing q's action card ci now (the Mana Spell apart)."""
    key = S.est[q, ci, C.CF_KEY]
    if key == C.GRAIN_FIELDS:
        items = B.isc[I_ITEMS]
        m = field_items(S, R, B, seat, q, ci, items)
        return gain_value(S, R, B, seat, items, m)
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
    if key == C.MASH_HOUSE:
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
        b += R.bc.shape[0]  # as Python indexes with -1
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


@jit
def mana_spell_bonus(S, R, B, seat):
    """Extra worth of a first mana weed to a Naga that owns a spell worth casting twice."""
    if S.pl[seat, C.PL_ABILITY] != C.AB_MANA_SPELL or S.pl[seat, C.PL_INV + C.MANA] > 0:
        return 0.0
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


@jit
def action_value(S, R, B, seat, q, ci):
    if S.est[q, ci, C.CF_KEY] == K_MANA_SPELL:
        return mana_spell_value(S, R, B, seat)
    return action_core(S, R, B, seat, q, ci)


@jit
def payable(S, B, seat, src):
    """How many planned beers the ingredients src pay for, in plan order."""
    inv = B.isc[I_PAYINV]
    for i in range(C.N_INGS):
        inv[i] = src[i]
    n = 0
    for b in range(B.mem[seat, M_NPLAN]):
        short = 0
        for i in range(C.N_INGS):
            k = B.plan[seat, b, PB_NEED + i]
            if inv[i] < k:
                short += k - inv[i]
        if short <= inv[C.MANA]:
            for i in range(C.N_INGS):
                for _ in range(B.plan[seat, b, PB_NEED + i]):
                    take_one(inv, i)
            n += 1
    return n


@jit
def completes(S, R, B, seat, ci):
    """Whether seat's own ingredient action on card ci lets it brew one more planned beer (a
    Study never does; cards that give no ingredients count as completing)."""
    key = S.est[seat, ci, C.CF_KEY]
    inv = B.isc[I_CINV]
    for i in range(C.N_INGS):
        inv[i] = S.pl[seat, C.PL_INV + i]
    got = B.isc[I_GOT]
    if key == C.STUDY:
        return False
    if key == C.GRAIN_FIELDS:
        m = field_items(S, R, B, seat, seat, ci, got)
    elif key == C.MAGIC_TRADER:
        m = best_of_class(B, seat, 6, 9, trader_mult(S, R, seat), got, 0)
    elif key == C.MASH_HOUSE:
        m = 0
        for _ in range(mash_mult(S, R, seat)):
            w = -1
            for x in range(C.GREEN, C.PURPLE + 1):
                cnt = 0
                for a in range(m):
                    if got[a] == x:
                        cnt += 1
                a, b = wort_grains(x)
                if B.mem[seat, M_NEED + x] > cnt and can_mash_inv(inv, a, b):
                    w = x
                    break
            if w < 0:
                break
            a, b = wort_grains(w)
            take_one(inv, a)
            take_one(inv, b)
            got[m] = w
            m += 1
    elif S.est[seat, ci, C.CF_BC] >= 0 and R.bc[S.est[seat, ci, C.CF_BC], BC_EFFECT] == C.E_GAIN:
        bc = S.est[seat, ci, C.CF_BC]
        m = R.bc[bc, BC_AMOUNT]
        for a in range(m):
            got[a] = R.bc[bc, BC_ING]
    else:
        return True
    before = payable(S, B, seat, S.pl[seat, C.PL_INV:C.PL_INV + C.N_INGS])
    for a in range(m):
        inv[got[a]] += 1
    return payable(S, B, seat, inv) > before


@jit
def free_value(S, R, B, seat, ci):
    key = S.est[seat, ci, C.CF_KEY]
    bc = S.est[seat, ci, C.CF_BC]
    if bc >= 0 and R.bc[bc, BC_EFFECT] == C.E_TAVERN:
        return 1.0 - lose_value(S, R, B, seat, 0, 3, R.bc[bc, BC_AMOUNT])
    if key == C.KEY_ABILITY + C.AB_FARMERS_MARKET:
        return (gain_best(S, R, B, seat, 0, 3, R.ab[C.AB_FARMERS_MARKET, AF_N])
                - R.ab[C.AB_FARMERS_MARKET, AF_GOLD])
    if key == C.KEY_ABILITY + C.AB_SEA_PORT:
        w = -1
        for x in range(C.GREEN, C.PURPLE + 1):
            if B.mem[seat, M_NEED + x] > 0:
                w = x
                break
        if w < 0:
            return -1.0
        return (gain_same(S, R, B, seat, w, 1) - R.ab[C.AB_SEA_PORT, AF_GOLD]
                - lose_value(S, R, B, seat, 0, 3, R.ab[C.AB_SEA_PORT, AF_N]))
    if key == C.KEY_ABILITY + C.AB_DRAIN_GNOME:
        brewer = 0.0 if S.pl[seat, C.PL_GNOME_AVAIL] == 0 else 1.5
        return 1.2 + (wt(S, R, seat, W_NEED_BONUS) if need_sum(B, seat) > 0 else 0.5) - brewer
    return -1.0


@jit_inline
def best_plan_pwin(R, B, seat, j):
    best = 0.0
    for b in range(B.mem[seat, M_NPLAN]):
        x = pwin(R, j, B.plan[seat, b, PB_C0], B.plan[seat, b, PB_C0 + 1], B.plan[seat, b, PB_C0 + 2])
        if b == 0 or x > best:
            best = x
    return best


@jit
def move_value(S, R, B, seat, m):
    mv = S.moves[m]
    k = mv[0]
    if k == C.M_END:
        return 0.0
    if k == C.M_PASS:
        return -0.5
    if k == C.M_CLEAR:
        return -1.0
    if k == C.M_DRAFT:
        row, slot = mv[1], mv[2]
        t = S.piles[C.ROW_BREWERY + row, slot]
        cost = row_card_cost(S, R, row, slot)
        gold = S.pl[seat, C.PL_GOLD]
        if gold - cost < wt(S, R, seat, W_GOLD_KEEP):
            return -9.0
        short = trader_short(S, R, B, seat, cost)
        guild_short = max(0, guild_reserve(S, R, seat) - (gold - cost))
        return (card_value(S, R, B, seat, row, t) - cost - wt(S, R, seat, W_MIN_GAIN)
                - wt(S, R, seat, W_RESERVE) * short - 1.5 * guild_short)
    if k == C.M_SPELL:
        return spell_value(S, R, B, seat, seat, mv[1], False) - wt(S, R, seat, W_MIN_GAIN)
    if k == C.M_SERVANT:
        q = mv[2]
        b = S.est[seat, mv[1], C.CF_BC]
        sc = R.bc[b, BC_SPELL_COST]
        cost = lose_value(S, R, B, seat, sc, sc + 1, R.bc[b, BC_SPELL_N])
        return action_value(S, R, B, seat, q, mv[3]) - cost - wt(S, R, seat, W_MIN_GAIN)
    if k == C.M_FREE:
        return free_value(S, R, B, seat, mv[1]) - wt(S, R, seat, W_MIN_GAIN)
    if k == C.M_BRIBE:
        j = S.piles[C.ROW_JUDGES, mv[1]]
        best = best_plan_pwin(R, B, seat, j)
        return (wt(S, R, seat, W_BRIBE_SHARE) * R.jd[j, JF_VP] * wt(S, R, seat, W_VP) * (0.3 + best)
                - mv[2])
    if k == C.M_HOUSE:
        return 0.1 if S.g[C.G_YEAR] < R.p[P_YEARS] else -1.0
    if k == C.M_BREWER:
        ci = mv[1]
        v = action_value(S, R, B, seat, seat, ci)
        if on_race_card(S, seat) == 1 and v > 0 and not completes(S, R, B, seat, ci):
            # the last brewer: ingredients that finish no planned beer wait a year in the
            # stores at best, so a race power or a sure small gain is worth more
            v *= wt(S, R, seat, W_UNFINISHED)
        return v
    if k == C.M_GUEST:
        return action_value(S, R, B, seat, mv[2], mv[3]) + 0.2
    if k == C.M_SACRIFICE:
        tci = mv[2]
        freed = S.est[seat, tci, C.CF_OWN] + S.est[seat, tci, C.CF_GNOME]
        key = S.est[seat, tci, C.CF_KEY]
        if freed < 1 or key == C.BREWERY or key == C.STUDY:
            return -9.0
        yl = R.p[P_YEARS] - S.g[C.G_YEAR]
        return freed * wt(S, R, seat, W_BREWER) - (1 + S.est[seat, tci, C.CF_N_UP]) * yl * 2.0 - 1.5
    if k == C.M_OGRE:
        slot = mv[2]
        j = S.piles[C.ROW_JUDGES, slot]
        best = best_plan_pwin(R, B, seat, j)
        return (R.jd[j, JF_VP] * wt(S, R, seat, W_VP) * (0.15 + 0.6 * best)
                + (0.5 if S.piles[C.ROW_BRIBE_SEAT, slot] >= 0 else 0.0))
    if k == C.M_SPELLBOOK:
        return spell_value(S, R, B, seat, mv[2], mv[3], True) + 0.2
    return 0.0


# ----------------------------------------------------------------------------- planning

@jit
def add_recipe(R, cand, ci, r):
    """Add recipe r to candidate row ci: characteristics, profit, needs in first-need order."""
    for x in range(3):
        cand[ci, CD_C0 + x] += R.rc[r, RC_C0 + x]
    cand[ci, CD_VP] += R.rc[r, RC_VP]
    cand[ci, CD_GOLD] += R.rc[r, RC_GOLD]
    for t in range(R.rc[r, RC_NEED_N]):
        i = R.rc[r, RC_NEED + t]
        n = cand[ci, CD_CNTN]
        j = 0
        while j < n and cand[ci, CD_ING + j] != i:
            j += 1
        if j == n:
            cand[ci, CD_ING + j] = i
            cand[ci, CD_K + j] = 0
            cand[ci, CD_CNTN] = n + 1
        cand[ci, CD_K + j] += 1


@jit
def spice_limit(n_barrels, n_spices, max_spices):
    """The most spices per beer the search may try for this book: max_spices, lowered until
    every beer fits the candidate buffer (one spice always fits: a book holds at most MAX_BOOK
    recipes, so barrels x spices <= (MAX_BOOK / 2)^2 < MAX_CANDS)."""
    m = max_spices
    while m > 1:
        total, comb = 0, 1
        for k in range(1, m + 1):
            comb = comb * (n_spices - k + 1) // k  # C(n_spices, k)
            total += comb
        if n_barrels * total <= C.MAX_CANDS:
            break
        m -= 1
    return m


@jit
def build_beers(S, R, B, seat):
    """One candidate row per beer: each barrel of the book (book order) with every combination of
    1..spice_limit of its spices in itertools.combinations order (value ties go to the first)."""
    cand = B.cand[seat]
    nb = S.pl[seat, C.PL_N_BOOK]
    spices = B.isc[I_SORT]
    idx = B.isc[I_IDX]
    ns = 0
    for a in range(nb):
        r = S.pl[seat, C.PL_BOOK + a]
        if R.rc[r, RC_SPICE] != 0:
            spices[ns] = r
            ns += 1
    m = spice_limit(nb - ns, ns, R.p[P_MAX_SPICES])
    ci = 0
    for a in range(nb):
        b = S.pl[seat, C.PL_BOOK + a]
        if R.rc[b, RC_SPICE] != 0:
            continue
        for k in range(1, min(m, ns) + 1):
            for j in range(k):
                idx[j] = j
            while True:
                if ci == C.MAX_CANDS:
                    S.g[C.G_OVERFLOW] = 1
                    return ci
                for x in range(CW):
                    cand[ci, x] = 0
                for x in range(1 + MAX_SP):
                    cand[ci, CD_CARD + x] = -1
                cand[ci, CD_CARD] = b
                cand[ci, CD_NSP] = k
                add_recipe(R, cand, ci, b)
                for j in range(k):
                    cand[ci, CD_CARD + 1 + j] = spices[idx[j]]
                    add_recipe(R, cand, ci, spices[idx[j]])
                ci += 1
                j = k - 1  # next combination in lexicographic order
                while j >= 0 and idx[j] == ns - k + j:
                    j -= 1
                if j < 0:
                    break
                idx[j] += 1
                for t in range(j + 1, k):
                    idx[t] = idx[t - 1] + 1
    return ci


@jit
def candidates(S, R, B, seat):
    """The beer candidates of the seat's book (rebuilt when the book changes); returns how many."""
    nb = S.pl[seat, C.PL_N_BOOK]
    same = B.mem[seat, M_CVALID] != 0 and B.mem[seat, M_CBOOK_N] == nb
    if same:
        for a in range(nb):
            if B.mem[seat, M_CBOOK + a] != S.pl[seat, C.PL_BOOK + a]:
                same = False
                break
    if not same:
        B.mem[seat, M_NCAND] = build_beers(S, R, B, seat)
        B.mem[seat, M_CBOOK_N] = nb
        for a in range(nb):
            B.mem[seat, M_CBOOK + a] = S.pl[seat, C.PL_BOOK + a]
        B.mem[seat, M_CVALID] = 1
        B.mem[seat, M_JVALID] = 0
    return B.mem[seat, M_NCAND]


@jit
def judge_values(S, R, B, seat, nc):
    """Per beer its value at each shown judge (VP x weight x pwin) and the best positive one
    (cached per book, shown judges and policy)."""
    nj = S.g[C.G_N_JUDGES]
    pol = S.pl[seat, C.PL_POLICY]
    same = B.mem[seat, M_JVALID] != 0 and B.mem[seat, M_JN] == nj and B.mem[seat, M_JPOL] == pol
    if same:
        for k in range(nj):
            if B.mem[seat, M_J + k] != S.piles[C.ROW_JUDGES, k]:
                same = False
                break
    if same:
        return
    B.mem[seat, M_JVALID] = 1
    B.mem[seat, M_JN] = nj
    B.mem[seat, M_JPOL] = pol
    for k in range(nj):
        B.mem[seat, M_J + k] = S.piles[C.ROW_JUDGES, k]
    wvp = R.pol_w[pol, W_VP]
    cand = B.cand[seat]
    jv = B.jv[seat]
    for ci in range(nc):
        best = 0.0
        for k in range(nj):
            j = S.piles[C.ROW_JUDGES, k]
            x = pwin(R, j, cand[ci, CD_C0], cand[ci, CD_C0 + 1], cand[ci, CD_C0 + 2])
            jv[ci, 1 + k] = (R.jd[j, JF_VP] * wvp) * x
            if jv[ci, 1 + k] > best:
                best = jv[ci, 1 + k]
        jv[ci, 0] = best


@jit_inline
def lack_cost(cand, ci, inv, acquire):
    """Brewer actions (by `acquire`) to get what one candidate lacks, mana weed covering first."""
    cost = 0.0
    mana = inv[C.MANA] if inv[C.MANA] > 0 else 0
    for j in range(cand[ci, CD_CNTN]):
        i, k = cand[ci, CD_ING + j], cand[ci, CD_K + j]
        short = k - inv[i] if inv[i] > 0 else k
        if short <= 0:
            continue
        if mana >= short:
            mana -= short
            continue
        short -= mana
        mana = 0
        for _ in range(short):
            cost += acquire[i]
    return cost


@jit_inline
def can_pay_cand(cand, ci, inv):
    short = 0
    for j in range(cand[ci, CD_CNTN]):
        i, k = cand[ci, CD_ING + j], cand[ci, CD_K + j]
        if inv[i] < k:
            short += k - inv[i]
    return short <= inv[C.MANA]


@jit_inline
def take_cand(cand, ci, inv):
    for j in range(cand[ci, CD_CNTN]):
        i = cand[ci, CD_ING + j]
        for _ in range(cand[ci, CD_K + j]):
            if inv[i] > 0:
                inv[i] -= 1
            elif inv[C.MANA] > 0:
                inv[C.MANA] -= 1


@jit_inline
def beer_value(cand, jv, ci, nj, claimed, any_claimed, wvp, wj):
    if any_claimed:
        x = 0.0
        for k in range(nj):
            if jv[ci, 1 + k] > x and claimed[k] == 0:
                x = jv[ci, 1 + k]
    else:
        x = jv[ci, 0]
    return cand[ci, CD_VP] * wvp + cand[ci, CD_GOLD] + wj * x - 0.05 * cand[ci, CD_NSP]


@jit
def acquire_costs(S, R, seat, out):
    """Brewer actions it takes to get one more of each ingredient (a Grain Fields visit yields its
    grains, a Mash House visit mash_mult worts from two grains each, a Trader visit trader_mult
    magic ingredients)."""
    n = R.race[S.pl[seat, C.PL_RACE], RF_GRAIN_YIELD]
    ci = find_card(S, seat, C.GRAIN_FIELDS)
    if ci >= 0:
        for u in range(S.est[seat, ci, C.CF_N_UP]):
            t = S.est[seat, ci, C.CF_UP + u]
            e = R.bc[t, BC_EFFECT]
            if e == C.E_GRAIN_ANY or e == C.E_GRAIN_WHEAT or e == C.E_GRAIN_RYE or e == C.E_GRAIN_BARLEY:
                n += R.bc[t, BC_AMOUNT]
        if S.pl[seat, C.PL_ABILITY] == C.AB_FERTILE_FIELDS:
            n += R.ab[C.AB_FERTILE_FIELDS, AF_N]
    grain = 1.0 / max(1, n)
    wort = 1.0 / max(1, mash_mult(S, R, seat)) + 2 * grain
    magic = 1.0 / max(1, trader_mult(S, R, seat))
    for i in range(C.N_INGS):
        out[i] = grain if i < 3 else (wort if i < 6 else (magic if i < 9 else 0.0))


@jit_inline
def is_dead(cand, j, dead, epoch, used, inv, feasible_only, acquire, budget):
    """Whether beer j can no longer be chosen (a recipe already used; not payable, or lacking more
    brewer actions than the budget left). Cached in dead[j]: -1 dead for good (recipes are only
    used up, ingredients and budget only fall), `epoch` alive since the last beer was chosen."""
    if dead[j] < 0.0:
        return True
    if dead[j] == epoch:
        return False
    d = False
    for x in range(1 + MAX_SP):
        r = cand[j, CD_CARD + x]
        if r >= 0 and used[r] != 0:
            d = True
    if not d:
        if feasible_only:
            d = not can_pay_cand(cand, j, inv)
        else:
            d = lack_cost(cand, j, inv, acquire) > budget
    dead[j] = -1.0 if d else epoch
    return d


@jit
def select(S, R, B, seat, maxn, feasible_only, budget):
    """Lazy greedy choice of up to maxn disjoint beers by value (profit + best unclaimed judge x
    win chance - `action` x the brewer actions what it lacks takes) within `budget` actions: take
    the beer with the highest stale value (ties: lowest index), re-value it, keep it if it still
    beats every other stale value, else put it back with its new value. A beer that can no
    longer be chosen is dropped when it comes first (as the Python planner does, one by one; here
    all those ahead of the best live beer at once). Chosen candidate indices go to
    isc[I_OUTCI], values to fsm[F_OUTV]; returns how many."""
    nc = candidates(S, R, B, seat)
    judge_values(S, R, B, seat, nc)
    nj = S.g[C.G_N_JUDGES]
    cand = B.cand[seat]
    jv = B.jv[seat]
    stale = B.fsc[0]
    active = B.fsc[1]
    dead = B.fsc[2]
    claimed = B.isc[I_CLAIMED]
    used = B.isc[I_USED]
    inv = B.isc[I_SELINV]
    out_ci = B.isc[I_OUTCI]
    out_v = B.fsm[F_OUTV]
    acquire = B.fsm[F_ACQ]
    acquire_costs(S, R, seat, acquire)
    for i in range(C.N_INGS):
        inv[i] = S.pl[seat, C.PL_INV + i]
    for r in range(R.rc.shape[0]):
        used[r] = 0
    for k in range(nj):
        claimed[k] = 0
    wvp = wt(S, R, seat, W_VP)
    wj = wt(S, R, seat, W_JUDGE_CHASE)
    waction = wt(S, R, seat, W_ACTION)
    any_claimed = False
    for ci in range(nc):
        ok = not feasible_only or can_pay_cand(cand, ci, inv)
        active[ci] = 1.0 if ok else 0.0
        dead[ci] = 0.0
        if ok:
            v = beer_value(cand, jv, ci, nj, claimed, False, wvp, wj)
            if not feasible_only:
                v -= waction * lack_cost(cand, ci, inv, acquire)
            stale[ci] = v
    chosen = 0
    epoch = 1.0
    while chosen < maxn:
        ci = -1  # the first live beer in stale order
        for j in range(nc):
            if active[j] != 0.0 and (ci < 0 or stale[j] > stale[ci]):
                if not is_dead(cand, j, dead, epoch, used, inv, feasible_only, acquire, budget):
                    ci = j
        if ci < 0:
            break
        sv = stale[ci]
        active[ci] = 0.0
        top = -1  # the next beer in stale order, once the (dead) ones ahead of ci are dropped
        for j in range(nc):
            if active[j] == 0.0:
                continue
            if stale[j] > sv or (stale[j] == sv and j < ci):
                active[j] = 0.0
                continue
            if top < 0 or stale[j] > stale[top]:
                top = j
        v = beer_value(cand, jv, ci, nj, claimed, any_claimed, wvp, wj)
        acts = 0.0
        if not feasible_only:
            acts = lack_cost(cand, ci, inv, acquire)
            v -= waction * acts
        if top >= 0 and v < stale[top]:
            stale[ci] = v
            active[ci] = 1.0
            continue
        if v <= 0 and not feasible_only:
            break
        out_ci[chosen] = ci
        out_v[chosen] = v
        chosen += 1
        budget -= acts
        for x in range(1 + MAX_SP):
            r = cand[ci, CD_CARD + x]
            if r >= 0:
                used[r] = 1
        x, jbest = 0.0, -1
        for k in range(nj):
            if jv[ci, 1 + k] > x and claimed[k] == 0:
                x, jbest = jv[ci, 1 + k], k
        if jbest >= 0:
            claimed[jbest] = 1
            any_claimed = True
        take_cand(cand, ci, inv)
        epoch += 1.0
    return chosen


@jit
def refresh_need(S, R, B, seat):
    """What the plan still lacks: worts it lacks become grain needs (two grains each); mana weed
    covers the rest."""
    reqv = B.isc[I_REQ]
    for i in range(C.N_INGS):
        reqv[i] = req(B, seat, i)
    for i in range(C.N_INGS):
        B.mem[seat, M_NEED + i] = max(reqv[i] - S.pl[seat, C.PL_INV + i], 0)
    for w in range(C.GREEN, C.PURPLE + 1):
        nw = B.mem[seat, M_NEED + w]
        if nw:
            a, b = wort_grains(w)
            reqv[a] += nw
            reqv[b] += nw
    for gr in range(3):
        B.mem[seat, M_NEED + gr] = max(reqv[gr] - S.pl[seat, C.PL_INV + gr], 0)
    spare = S.pl[seat, C.PL_INV + C.MANA]
    for a in range(9):  # mana weed covers what is short: magic, then worts, then grains
        i = 6 + a if a < 3 else (a if a < 6 else a - 6)
        d = min(B.mem[seat, M_NEED + i], spare)
        B.mem[seat, M_NEED + i] -= d
        spare -= d
    B.fv[seat, FV_MANA_EXTRA] = mana_spell_bonus(S, R, B, seat)


# ----------------------------------------------------------------------------- the interface

@jit
def start_turn(S, R, B, seat):
    sync(S, B, seat)
    mb = min(max_beers(S, R, seat), C.MAX_BEERS)  # the rules brew at most MAX_BEERS
    budget = on_race_card(S, seat) + wt(S, R, seat, W_SLACK)
    k = select(S, R, B, seat, mb + 1, False, budget)
    n = min(k, mb)
    cand = B.cand[seat]
    pv = 0.0
    for b in range(n):
        ci = B.isc[I_OUTCI, b]
        for x in range(1 + MAX_SP):
            B.plan[seat, b, PB_CARD + x] = cand[ci, CD_CARD + x]
        B.plan[seat, b, PB_NSP] = cand[ci, CD_NSP]
        for x in range(3):
            B.plan[seat, b, PB_C0 + x] = cand[ci, CD_C0 + x]
        B.plan[seat, b, PB_VP] = cand[ci, CD_VP]
        B.plan[seat, b, PB_GOLD] = cand[ci, CD_GOLD]
        for i in range(C.N_INGS):
            B.plan[seat, b, PB_NEED + i] = 0
        for j in range(cand[ci, CD_CNTN]):
            B.plan[seat, b, PB_NEED + cand[ci, CD_ING + j]] = cand[ci, CD_K + j]
        pv += B.fsm[F_OUTV, b]
    B.mem[seat, M_NPLAN] = n
    B.fv[seat, FV_EXTRA] = B.fsm[F_OUTV, mb] if k > mb else 0.0
    B.fv[seat, FV_PLAN_VALUE] = pv
    refresh_need(S, R, B, seat)


@jit
def choose(S, R, B, seat, n_moves):
    """Index of the best move among S.moves[:n_moves]: brewer moves always count, other moves
    only when they gain something; ties to the first."""
    sync(S, B, seat)
    refresh_need(S, R, B, seat)
    best, bv = -1, -1e9
    for m in range(n_moves):
        v = move_value(S, R, B, seat, m)
        k = S.moves[m, 0]
        brewer = (k == C.M_BREWER or k == C.M_GUEST or k == C.M_SACRIFICE or k == C.M_OGRE
                  or k == C.M_SPELLBOOK or k == C.M_PASS)
        if not brewer and k != C.M_END and v <= 0:
            continue
        if v > bv:
            best, bv = m, v
    return best if best >= 0 else 0


@jit
def spend(S, R, B, seat, klass, n, out):
    sync(S, B, seat)
    lo, hi = class_range(klass)
    return spend_picks(S, R, B, seat, lo, hi, n, out)


@jit
def take_needed(B, seat, out, n):
    for k in range(n):
        i = out[k]
        if B.mem[seat, M_NEED + i] > 0:
            B.mem[seat, M_NEED + i] -= 1


@jit
def grains(S, R, B, seat, n, out):
    sync(S, B, seat)
    best_of_class(B, seat, 0, 3, n, out, 0)
    take_needed(B, seat, out, n)


@jit
def magic(S, R, B, seat, n, out):
    sync(S, B, seat)
    best_of_class(B, seat, 6, 9, n, out, 0)
    take_needed(B, seat, out, n)


@jit
def wort(S, R, B, seat):
    sync(S, B, seat)
    for w in range(C.GREEN, C.PURPLE + 1):
        a, b = wort_grains(w)
        if B.mem[seat, M_NEED + w] > 0 and can_mash_inv(S.pl[seat, C.PL_INV:C.PL_INV + C.N_INGS], a, b):
            B.mem[seat, M_NEED + w] -= 1
            return w
    return -1


@jit
def wort_any(S, R, B, seat):
    sync(S, B, seat)
    w = C.GREEN
    for x in range(C.GREEN + 1, C.PURPLE + 1):
        if B.mem[seat, M_NEED + x] > B.mem[seat, M_NEED + w]:
            w = x
    return w


@jit
def trader_count(S, R, B, seat, mult, cost):
    sync(S, B, seat)
    n = min(mult, magic_need(B, seat))
    return max(0, min(n, (S.pl[seat, C.PL_GOLD] - guild_reserve(S, R, seat)) // cost))


@jit
def guild_hire(S, R, B, seat):
    sync(S, B, seat)
    return S.pl[seat, C.PL_GOLD] >= 2 + wt(S, R, seat, W_GOLD_KEEP)


@jit
def scroll_deck(S, R, B, seat):
    """0 = barrel deck while barrels are fewer than half the spices, else 1 = spice deck."""
    sync(S, B, seat)
    nb = 0
    n = S.pl[seat, C.PL_N_BOOK]
    for a in range(n):
        if R.rc[S.pl[seat, C.PL_BOOK + a], RC_SPICE] == 0:
            nb += 1
    return 0 if nb * 2 < n - nb else 1


@jit
def pick_free_card(S, R, B, seat, opt_row, opt_slot, n):
    """The option worth most (card value + its cost), first on ties."""
    sync(S, B, seat)
    best, bv = 0, 0.0
    for o in range(n):
        row, slot = opt_row[o], opt_slot[o]
        t = S.piles[C.ROW_BREWERY + row, slot]
        v = card_value(S, R, B, seat, row, t) + row_card_cost(S, R, row, slot)
        if o == 0 or v > bv:
            best, bv = o, v
    return best


@jit
def pick_servant(S, R, B, seat, opt_seat, opt_ci, n):
    sync(S, B, seat)
    best, bv = 0, 0.0
    for o in range(n):
        v = action_value(S, R, B, seat, opt_seat[o], opt_ci[o])
        if o == 0 or v > bv:
            best, bv = o, v
    return best


@jit
def clear_picks(S, R, B, seat, out_row, out_slot):
    """The clear_draft_n draft cards worth least to the seat (stable sort by card value)."""
    sync(S, B, seat)
    width = R.p[P_DRAFT_ROW]
    pos = B.isc[I_SORT]
    key = B.fsm[F_KEY]
    m = 0
    for row in range(2):
        for s in range(width):
            t = S.piles[C.ROW_BREWERY + row, s]
            if t >= 0:
                v = card_value(S, R, B, seat, row, t)
                a = m  # insertion sort, stable: after every key <= v
                while a > 0 and key[a - 1] > v:
                    key[a] = key[a - 1]
                    pos[a] = pos[a - 1]
                    a -= 1
                key[a] = v
                pos[a] = row * width + s
                m += 1
    k = min(R.p[P_CLEAR_DRAFT_N], m)
    for a in range(k):
        out_row[a] = pos[a] // width
        out_slot[a] = pos[a] % width
    return k


@jit
def recipe_score(S, R, B, seat, r):
    jv, found = 0, False
    for k in range(S.g[C.G_N_JUDGES]):
        j = S.piles[C.ROW_JUDGES, k]
        c = R.rc[r, RC_C0 + R.jd[j, JF_P]] / char_unit(R)  # on the scale the weights were set on
        x = R.jd[j, JF_VP] * (c if R.jd[j, JF_PD] > 0 else 2 - c)
        if not found or x > jv:
            jv, found = x, True
    return (R.rc[r, RC_VP] * wt(S, R, seat, W_VP) + R.rc[r, RC_GOLD] + 0.4 * jv
            - 0.3 * R.rc[r, RC_NEED_N])


@jit
def pick_recipe(S, R, B, seat, offer_only):
    """OFFER + deck * MAX_ROW + pos of the best offered recipe (barrels while they are fewer
    than half the spices), or DECK + deck when none is offered."""
    sync(S, B, seat)
    want = 0 if scroll_deck(S, R, B, seat) == 0 else -1
    width = R.p[P_OFFERING_ROW]
    best, bv = -1, 0.0
    for rnd in range(2):
        for d in range(2):
            if rnd == 0 and want >= 0 and d != want:
                continue
            for i in range(width):
                r = S.piles[C.ROW_OFFER_BARREL + d, i]
                if r >= 0:
                    v = recipe_score(S, R, B, seat, r)
                    if best < 0 or v > bv:
                        best, bv = d * C.MAX_ROW + i, v
        if best >= 0:
            return best  # OFFER = 0
    return 100 + (0 if want == 0 else 1)  # DECK + deck


@jit
def brew(S, R, B, seat, maxn, out):
    """The beers to brew now (what the held ingredients pay): out[k] = barrel, spices.. (-1 padded)."""
    sync(S, B, seat)
    k = select(S, R, B, seat, maxn, True, NO_BUDGET)
    cand = B.cand[seat]
    for b in range(k):
        ci = B.isc[I_OUTCI, b]
        for x in range(out.shape[1]):
            out[b, x] = cand[ci, CD_CARD + x] if x < 1 + MAX_SP else -1
    return k


@jit
def shadow_swap(S, R, B, seat):
    """The Dark Elf's swap (judge slot * MAX_ROW + hidden judge) that raises its best beers' judge
    chances by more than 0.25 VP the most, or -1."""
    nbeers = S.pl[seat, C.PL_N_BEERS]
    if nbeers == 0:
        return -1
    best, bv = -1, 0.25
    for slot in range(S.g[C.G_N_JUDGES]):
        if S.piles[C.ROW_OGRE, slot] >= 0:
            continue
        j = S.piles[C.ROW_JUDGES, slot]
        old = best_beer_pwin(S, R, seat, j) * R.jd[j, JF_VP]
        for h in range(S.g[C.G_N_SHADOW]):
            sj = S.piles[C.ROW_SHADOW, h]
            v = best_beer_pwin(S, R, seat, sj) * R.jd[sj, JF_VP] - old
            if v > bv:
                best, bv = slot * C.MAX_ROW + h, v
    return best


@jit_inline
def best_beer_pwin(S, R, seat, j):
    best = 0.0
    for b in range(S.pl[seat, C.PL_N_BEERS]):
        x = pwin(R, j, S.beers[seat, b, C.BF_C0], S.beers[seat, b, C.BF_C1], S.beers[seat, b, C.BF_C2])
        if b == 0 or x > best:
            best = x
    return best


@jit
def winter_keep(S, R, B, seat, cap, out):
    """Keep mana weed, then magic, worts and grains, up to cap."""
    room = cap
    for a in range(C.N_INGS):
        i = C.MANA if a == 0 else (5 + a if a <= 3 else (a - 1 if a <= 6 else a - 7))
        k = min(S.pl[seat, C.PL_INV + i], room)
        out[i] = k
        room -= k


@jit
def book_keep(S, R, B, seat, m, out):
    """Keep the best max(2, m // 3) barrels, then the best recipes, up to m (stable sort by
    VP x 2 + gold + 0.7 x best characteristic)."""
    n = S.pl[seat, C.PL_N_BOOK]
    sc = B.isc[I_SORT]
    key = B.fsm[F_KEY]
    for a in range(n):
        r = S.pl[seat, C.PL_BOOK + a]
        c = max(R.rc[r, RC_C0], max(R.rc[r, RC_C0 + 1], R.rc[r, RC_C0 + 2]))
        v = -(R.rc[r, RC_VP] * 2 + R.rc[r, RC_GOLD] + c * 0.7)
        b = a
        while b > 0 and key[b - 1] > v:
            key[b] = key[b - 1]
            sc[b] = sc[b - 1]
            b -= 1
        key[b] = v
        sc[b] = r
    nk = 0
    nbar = max(2, m // 3)
    for a in range(n):
        if nk < nbar and R.rc[sc[a], RC_SPICE] == 0:
            out[nk] = sc[a]
            nk += 1
    for a in range(n):
        if nk >= m:
            break
        r = sc[a]
        dup = False
        for b in range(nk):
            if out[b] == r:
                dup = True
        if not dup:
            out[nk] = r
            nk += 1
    return min(nk, m)
