"""Dragon Brew planner, the value of one legal move of a turn (gold-equivalents; choices.py plays
the best).

Move layout: the rows of S.moves as sim/dragon_brew/rules/moves.py lists them (kind, a, b, c, d):
M_END, M_PASS and M_CLEAR get fixed values; M_DRAFT row slot the drafted card's value less its
cost; M_SPELL/M_SERVANT/M_SPELLBOOK the spell's value; M_FREE ci the free action's; M_BRIBE slot
the chance the bribe turns the judge; M_BREWER/M_GUEST/M_SACRIFICE/M_OGRE the action performed,
with a bonus when it completes a planned beer.
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from ..state import (
    AF_GOLD,
    AF_N,
    BC_AMOUNT,
    BC_EFFECT,
    BC_ING,
    BC_SPELL_COST,
    BC_SPELL_N,
    JF_VP,
    P_YEARS,
    W_BREWER,
    W_BRIBE_SHARE,
    W_GOLD_KEEP,
    W_MIN_GAIN,
    W_NEED_BONUS,
    W_RESERVE,
    W_UNFINISHED,
    W_VP,
    mash_mult,
    on_race_card,
    take_one,
    trader_mult,
    wort_grains,
)
from .card_values import (
    action_value,
    can_mash_inv,
    draft_card_value,
    field_items,
    guild_reserve,
    row_card_cost,
    spell_value,
    trader_short,
)
from .ingredients import best_of_class, gain_best, gain_same, lose_value
from .memory import (
    I_CINV,
    I_GOT,
    I_PAYINV,
    M_NEED,
    M_NPLAN,
    PB_C0,
    PB_NEED,
    need_sum,
    pwin,
    value_view,
    wt,
)

# ----------------------------------------------------------------------------- move values

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


@jit_inline
def action_move_value(S, R, B, seat, mv):
    """The value of a brewer (own card), guest or servant move (another seat's card): one
    inlined action_value for the three, as each copy of it is typed again."""
    k = mv[0]
    if k == C.M_BREWER:
        q, ci = seat, mv[1]
    else:
        q, ci = mv[2], mv[3]
    cost = 0.0
    if k == C.M_SERVANT:
        b = S.est[seat, mv[1], C.CF_BC]
        sc = R.bc[b, BC_SPELL_COST]
        cost = lose_value(S, R, B, seat, sc, sc + 1, R.bc[b, BC_SPELL_N])
    v = action_value(S, R, B, seat, q, ci)
    if k == C.M_SERVANT:
        return v - cost - wt(S, R, seat, W_MIN_GAIN)
    if k == C.M_GUEST:
        return v + 0.2
    if on_race_card(S, seat) == 1 and v > 0 and not completes(S, R, B, seat, ci):
        # the last brewer: ingredients that finish no planned beer wait a year in the
        # stores at best, so a race power or a sure small gain is worth more
        v *= wt(S, R, seat, W_UNFINISHED)
    return v


@jit_inline
def move_value(S, R, B, seat, m):
    """Inlined into its callers' loops over the legal moves (about 10 a greedy decision, 1,750
    a 4-player game): as a call, passing S, R and B field by field cost more than most moves'
    values. The values read the value views (memory.value_view), so the compiled calls they
    make pass only the arrays those read."""
    mv = S.moves[m]
    V, VR, VB = value_view(S, R, B)
    k = mv[0]
    if k == C.M_END:
        return 0.0
    if k == C.M_PASS:
        return -0.5
    if k == C.M_CLEAR:
        return -1.0
    if k == C.M_DRAFT:
        row, slot = mv[1], mv[2]
        t = V.piles[C.ROW_BREWERY + row, slot]
        cost = row_card_cost(V, VR, row, slot)
        gold = V.pl[seat, C.PL_GOLD]
        if gold - cost < wt(V, VR, seat, W_GOLD_KEEP):
            return -9.0
        short = trader_short(V, VR, VB, seat, cost)
        guild_short = max(0, guild_reserve(V, VR, seat) - (gold - cost))
        return (draft_card_value(V, VR, VB, seat, row, t) - cost - wt(V, VR, seat, W_MIN_GAIN)
                - wt(V, VR, seat, W_RESERVE) * short - 1.5 * guild_short)
    if k == C.M_SPELL:
        return spell_value(V, VR, VB, seat, seat, mv[1], False) - wt(V, VR, seat, W_MIN_GAIN)
    if k == C.M_BREWER or k == C.M_GUEST or k == C.M_SERVANT:
        return action_move_value(V, VR, VB, seat, mv)
    if k == C.M_FREE:
        return free_value(V, VR, VB, seat, mv[1]) - wt(V, VR, seat, W_MIN_GAIN)
    if k == C.M_BRIBE:
        j = V.piles[C.ROW_JUDGES, mv[1]]
        best = best_plan_pwin(VR, VB, seat, j)
        return (wt(V, VR, seat, W_BRIBE_SHARE) * VR.jd[j, JF_VP] * wt(V, VR, seat, W_VP) * (0.3 + best)
                - mv[2])
    if k == C.M_HOUSE:
        return 0.1 if V.g[C.G_YEAR] < VR.p[P_YEARS] else -1.0
    if k == C.M_SACRIFICE:
        tci = mv[2]
        freed = V.est[seat, tci, C.CF_OWN] + V.est[seat, tci, C.CF_GNOME]
        key = V.est[seat, tci, C.CF_KEY]
        if freed < 1 or key == C.BREWERY or key == C.STUDY:
            return -9.0
        yl = VR.p[P_YEARS] - V.g[C.G_YEAR]
        return freed * wt(V, VR, seat, W_BREWER) - (1 + V.est[seat, tci, C.CF_N_UP]) * yl * 2.0 - 1.5
    if k == C.M_OGRE:
        slot = mv[2]
        j = V.piles[C.ROW_JUDGES, slot]
        best = best_plan_pwin(VR, VB, seat, j)
        return (VR.jd[j, JF_VP] * wt(V, VR, seat, W_VP) * (0.15 + 0.6 * best)
                + (0.5 if V.piles[C.ROW_BRIBE_SEAT, slot] >= 0 else 0.0))
    if k == C.M_SPELLBOOK:
        return spell_value(V, VR, VB, seat, mv[2], mv[3], True) + 0.2
    return 0.0
