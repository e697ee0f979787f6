"""Dragon Brew planner, the choices of fall and winter (l. = line of ../shared/rules/dragon_brew.txt): the beers to brew (l. 332-342),
the Dark Elf's judge swap (l. 464), what the Winter Stores keep (l. 414) and which recipes the
book keeps when it is over its maximum (l. 418-420).
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from ..state import JF_VP, RC_C0, RC_GOLD, RC_SPICE, RC_VP
from .beers import select
from .memory import CD_CARD, F_KEY, I_OUTCI, I_SORT, MAX_SP, NO_BUDGET, pwin, sync

# ----------------------------------------------------------------------------- fall and winter

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
