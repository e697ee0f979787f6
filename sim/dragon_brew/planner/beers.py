"""Dragon Brew planner, planning the year's beers: every beer the recipe book allows (one barrel
and 1..max_spices distinct spices, l. = line of ../shared/rules/dragon_brew.txt 342), its chance against this year's judges, and the
lazy-greedy choice of the beers to brew within the brewer actions left.
A book whose beers would exceed MAX_CANDS is searched with fewer spices per beer (spice_limit),
so every max_spices in the data's range plays; the overflow flag stays as a guard.
"""

import numpy as np

from sim.core.jit import jit, jit_inline

from .. import constants as C
from ..state import (
    AF_N,
    BC_AMOUNT,
    BC_EFFECT,
    JF_VP,
    P_MAX_SPICES,
    RC_C0,
    RC_GOLD,
    RC_NEED,
    RC_NEED_N,
    RC_SPICE,
    RC_VP,
    RF_GRAIN_YIELD,
    W_ACTION,
    W_JUDGE_CHASE,
    W_VP,
    find_card,
    mash_mult,
    trader_mult,
)
from .memory import (
    CD_C0,
    CD_CARD,
    CD_CNTN,
    CD_GOLD,
    CD_ING,
    CD_K,
    CD_NSP,
    CD_VP,
    CW,
    F_ACQ,
    F_OUTV,
    I_CLAIMED,
    I_IDX,
    I_OUTCI,
    I_PART,
    I_SELINV,
    I_SORT,
    I_USED,
    M_CBOOK,
    M_CBOOK_N,
    M_CVALID,
    M_J,
    M_JN,
    M_JPOL,
    M_JVALID,
    M_NCAND,
    MAX_SP,
    pwin,
    wt,
)

# ----------------------------------------------------------------------------- planning

@jit
def add_recipe(rc, cand, ci, r):
    """Add recipe r to candidate row ci: characteristics, profit, needs in first-need order.
    Takes R.rc, not R: about 5,700 calls a greedy 4-player game, each passing its arrays."""
    for x in range(3):
        cand[ci, CD_C0 + x] += rc[r, RC_C0 + x]
    cand[ci, CD_VP] += rc[r, RC_VP]
    cand[ci, CD_GOLD] += rc[r, RC_GOLD]
    for t in range(rc[r, RC_NEED_N]):
        i = rc[r, RC_NEED + t]
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
    1..spice_limit of its spices in itertools.combinations order (value ties go to the first).
    A beer's row is the row of its barrel and first spices (part[d]: the barrel and the
    combination's first d spices, kept while those stay) with its last spice added: the recipes
    go in in the same order, so the row is the one adding them all gives, at about one
    add_recipe a beer instead of 2.8."""
    cand = B.cand[seat]
    part = B.isc[I_PART:I_PART + MAX_SP]
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
        for x in range(CW):
            part[0, x] = 0
        for x in range(1 + MAX_SP):
            part[0, CD_CARD + x] = -1
        part[0, CD_CARD] = b
        add_recipe(R.rc, part, 0, b)
        for k in range(1, min(m, ns) + 1):
            for j in range(k):
                idx[j] = j
            fresh = 1  # part[:fresh] are those of this combination
            while True:
                if ci == C.MAX_CANDS:
                    S.g[C.G_OVERFLOW] = 1
                    return ci
                for d in range(fresh, k):
                    add_spice(R.rc, part, d - 1, part, d, d, spices[idx[d - 1]])
                add_spice(R.rc, part, k - 1, cand, ci, k, spices[idx[k - 1]])
                ci += 1
                j = k - 1  # next combination in lexicographic order
                while j >= 0 and idx[j] == ns - k + j:
                    j -= 1
                if j < 0:
                    break
                idx[j] += 1
                for t in range(j + 1, k):
                    idx[t] = idx[t - 1] + 1
                fresh = j + 1  # part[d] depends on idx[:d] only
    return ci


@jit_inline
def add_spice(rc, src, si, dst, di, n, r):
    """dst[di] = row src[si] (a barrel with n - 1 spices) with spice r added as the n-th."""
    for x in range(CW):
        dst[di, x] = src[si, x]
    dst[di, CD_CARD + n] = r
    dst[di, CD_NSP] = n
    add_recipe(rc, dst, di, r)


@jit_inline
def candidates(S, R, B, seat):
    """The beer candidates of the seat's book (rebuilt when the book changes); returns how many.
    Inlined into select, its one caller: as a call it passed S, R and B for a key check."""
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
    """Brewer actions (by `acquire`) to get what one candidate lacks, mana weed covering first.
    Inlined into select's loops, which call it for every beer of every search: as a call it
    cost 3-6% of the greedy kernel (docs/performance.md)."""
    cost = 0.0
    mana = max(inv[C.MANA], 0)
    for j in range(cand[ci, CD_CNTN]):
        i, k = cand[ci, CD_ING + j], cand[ci, CD_K + j]
        short = max(k - max(inv[i], 0), 0)
        covered = min(mana, short)  # min and max, not branches: whether a seat holds enough is
        mana -= covered             # a coin toss per beer and need, which a branch mispredicts
        cost = add_units(cost, acquire[i], short - covered)
    return cost


@jit_inline
def add_units(cost, a, n):
    """cost + a, n times, one addition at a time (the sum's bits depend on it). The first two
    without a branch: cost is never negative, so adding 0.0 leaves it as it is."""
    cost += a if n >= 1 else 0.0
    cost += a if n >= 2 else 0.0
    for _ in range(n - 2):
        cost += a
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


@jit_inline
def acquire_costs(S, R, seat, out):
    """Brewer actions it takes to get one more of each ingredient (a Grain Fields visit yields its
    grains, a Mash House visit mash_mult worts from two grains each, a Trader visit trader_mult
    magic ingredients). Inlined into select, its one caller: as a call it passed S and R."""
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


@jit_inline
def first_live(cand, lval, listed, n_listed, dead, found, epoch, used, inv, feasible_only, acquire, budget):
    """One pass over the active beers: the first live beer in stale order (highest stale value,
    ties to the lowest index), taken out of the active set, and the highest stale value of the
    active beers behind it (-inf if none), once the beers ahead of it are dropped (all dead: a
    live one would have been first). Returns the live beer's position in `listed` (-1 when no
    beer is live), that value and the new length of `listed`.

    The beers are listed[:n_listed] in index order (so the order and the ties are those of a
    scan over all beers) with their stale values beside them in lval, -inf for a beer dropped or
    taken out (stale values are finite): the pass reads both rows in order, no per-beer lookup,
    and keeps only the active beers, so a dropped or chosen beer is passed over once more at
    most.

    Every beer ahead of the best so far is checked; a beer that is not ahead of it is behind the
    first live beer too, as is each best so far that a later beer displaces. Dead beers found
    are noted in `found` (by position) and sorted out at the end: those ahead of the first live
    beer are dropped, the others count as behind it (they stay active, as dead beers behind it
    always have)."""
    pos = -1
    sv = 0.0  # stale value of the best live beer so far (read only once pos >= 0)
    top_v = -np.inf
    n_found = 0
    n_kept = 0
    for p in range(n_listed):
        s = lval[p]
        if s == -np.inf:
            continue
        j = listed[p]
        listed[n_kept] = j
        lval[n_kept] = s
        if pos >= 0 and not s > sv:
            top_v = max(top_v, s)
        else:
            dead_now = is_dead(cand, j, dead, epoch, used, inv, feasible_only, acquire, budget)
            pos, sv, top_v, n_found = visit_ahead(n_kept, s, dead_now, pos, sv, top_v, found, n_found)
        n_kept += 1
    if pos < 0:
        return pos, -np.inf, n_kept
    return pos, settle_pass(lval, found, n_found, pos, sv, top_v), n_kept


@jit_inline
def visit_ahead(k, v, dead_now, pos, sv, top_v, found, n_found):
    """A pass's visit of a beer ahead of the best live one so far (at position k, stale value v):
    a dead one is noted in `found`; a live one becomes the best, the old best then behind it.
    Returns the new (pos, sv, top_v, n_found). Shared by first_live and the first valuation."""
    if dead_now:
        found[n_found] = k
        return pos, sv, top_v, n_found + 1
    if pos >= 0:
        top_v = max(top_v, sv)
    return k, v, top_v, n_found


@jit_inline
def settle_pass(lval, found, n_found, pos, sv, top_v):
    """The end of a pass whose first live beer is at pos (stale value sv): that beer taken out,
    the dead beers found ahead of it dropped, those behind it counted in top_v (returned)."""
    lval[pos] = -np.inf
    for f in range(n_found):
        q = found[f]
        s = lval[q]
        ahead = (s > sv) | ((s == sv) & (q < pos))  # positions keep the index order
        lval[q] = -np.inf if ahead else s  # selects, not branches: ahead or behind is a coin toss
        top_v = top_v if ahead else max(top_v, s)
    return top_v


@jit
def select(S, R, B, seat, maxn, feasible_only, budget):
    """Lazy greedy choice of up to maxn disjoint beers by value (profit + best unclaimed judge x
    win chance - `action` x the brewer actions what it lacks takes) within `budget` actions: take
    the beer with the highest stale value (ties: lowest index), re-value it, keep it if it still
    beats every other stale value, else put it back with its new value. A beer that can no
    longer be chosen is dropped when it comes first (all those ahead of the best live beer at
    once, the same beers as dropping them one by one). Chosen candidate indices go to
    isc[I_OUTCI], values to fsm[F_OUTV]; returns how many."""
    nc = candidates(S, R, B, seat)
    judge_values(S, R, B, seat, nc)
    nj = S.g[C.G_N_JUDGES]
    cand = B.cand[seat]
    jv = B.jv[seat]
    lval = B.fsc[0]
    dead = B.fsc[1]
    found = B.fsc[2].view(np.int64)  # indices as int64 (a float index costs two conversions)
    listed = B.fsc[3].view(np.int64)
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
    epoch = 1.0
    n_listed = 0
    # The first valuation lists the beers and makes the first pass as it goes (first_live's
    # visits, each beer's life known already), so the first step reads no beer again.
    pos, sv, top_v, n_found = -1, 0.0, -np.inf, 0
    for ci in range(nc):
        if feasible_only and not can_pay_cand(cand, ci, inv):
            continue  # never listed, so never read again
        # Its life in the first epoch, as is_dead would find it (no recipe used yet; payable, or
        # lacking no more than the budget): the later passes need not cost the beer again.
        dead[ci] = epoch
        v = beer_value(cand, jv, ci, nj, claimed, False, wvp, wj)
        if not feasible_only:
            lack = lack_cost(cand, ci, inv, acquire)
            v -= waction * lack
            if lack > budget:
                dead[ci] = -1.0
        listed[n_listed] = ci
        lval[n_listed] = v
        if pos >= 0 and not v > sv:
            top_v = max(top_v, v)
        else:
            pos, sv, top_v, n_found = visit_ahead(n_listed, v, dead[ci] < 0.0, pos, sv, top_v, found, n_found)
        n_listed += 1
    if pos >= 0:
        top_v = settle_pass(lval, found, n_found, pos, sv, top_v)
    chosen = 0
    passed = True  # the first step's pass is made
    while chosen < maxn:
        if not passed:
            pos, top_v, n_listed = first_live(cand, lval, listed, n_listed, dead, found, epoch, used, inv,
                                              feasible_only, acquire, budget)
        passed = False
        if pos < 0:
            break
        ci = listed[pos]
        v = beer_value(cand, jv, ci, nj, claimed, any_claimed, wvp, wj)
        acts = 0.0
        if not feasible_only:
            acts = lack_cost(cand, ci, inv, acquire)
            v -= waction * acts
        if v < top_v:
            lval[pos] = v  # put back with its new value
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
