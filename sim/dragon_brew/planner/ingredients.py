"""Dragon Brew planner, what ingredients are worth to a seat: gaining them, choosing which of a
class to take or to spend, and what spending them costs. An ingredient the plan still needs is
worth more (its need vector, memory.py); mana weed is wild (l. 319 of
../shared/rules/dragon_brew.txt), so it covers any need.
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from ..state import W_GRAIN, W_MAGIC, W_NEED_BONUS, W_WORT, class_range
from .memory import (
    FV_MANA_EXTRA,
    I_BOC,
    I_ITEMS,
    I_LVINV,
    I_NEEDC,
    I_PICKS,
    I_SPINV,
    M_NEED,
    req,
    wt,
)

# ----------------------------------------------------------------------------- ingredient values

@jit_inline
def base_value(S, R, seat, i):
    """Worth of an ingredient the plan does not need (grain / wort / magic weight)."""
    if i < 3:
        return wt(S, R, seat, W_GRAIN)
    if i < 6:
        return wt(S, R, seat, W_WORT)
    return wt(S, R, seat, W_MAGIC)


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
                key = inv[i] - req(B.mem, B.plan, seat, i)
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
        surplus = inv[i] - req(B.mem, B.plan, seat, i)
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
