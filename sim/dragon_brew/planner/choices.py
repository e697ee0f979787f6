"""Dragon Brew planner, the choices policies.py asks of it during a turn: the plan at the start of
a turn, the move to play (the best by move_values.py, brewer moves always counted), and the
choices inside a move: which ingredients to pay or take, how many magic ingredients to buy, a
wort to mash, Free Gnomes hiring, a recipe deck or offering card, a free draft card, a Servant
target, the draft cards to clear.
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from ..state import (
    JF_P,
    JF_PD,
    JF_VP,
    P_CLEAR_DRAFT_N,
    P_DRAFT_ROW,
    P_OFFERING_ROW,
    RC_C0,
    RC_GOLD,
    RC_NEED_N,
    RC_SPICE,
    RC_VP,
    W_GOLD_KEEP,
    W_SLACK,
    W_VP,
    class_range,
    max_beers,
    on_race_card,
    wort_grains,
)
from .beers import select
from .card_values import (
    action_value,
    can_mash_inv,
    card_value,
    guild_reserve,
    mana_spell_bonus,
    row_card_cost,
)
from .ingredients import best_of_class, spend_picks
from .memory import (
    CD_C0,
    CD_CARD,
    CD_CNTN,
    CD_GOLD,
    CD_ING,
    CD_K,
    CD_NSP,
    CD_VP,
    F_KEY,
    F_OUTV,
    FV_EXTRA,
    FV_MANA_EXTRA,
    FV_PLAN_VALUE,
    I_OUTCI,
    I_REQ,
    I_SORT,
    M_NEED,
    M_NPLAN,
    MAX_SP,
    PB_C0,
    PB_CARD,
    PB_GOLD,
    PB_NEED,
    PB_NSP,
    PB_VP,
    char_unit,
    magic_need,
    req,
    sync,
    value_view,
    wt,
)
from .move_values import move_value

# ----------------------------------------------------------------------------- the interface

@jit_inline
def refresh_need(S, R, B, seat):
    """What the plan still lacks (plan_lacks), then the Naga's mana weed bonus, which values
    ingredients against that need. Inlined (choose asks it at every greedy decision): a compiled
    call passes every array of S, R and B field by field, plan_lacks only the four it reads."""
    plan_lacks(S.pl, B.mem, B.plan, B.isc, seat)
    V, VR, VB = value_view(S, R, B)
    B.fv[seat, FV_MANA_EXTRA] = mana_spell_bonus(V, VR, VB, seat)


@jit
def plan_lacks(pl, mem, plan, isc, seat):
    """The seat's need vector: worts it lacks become grain needs (two grains each); mana weed
    covers the rest."""
    reqv = isc[I_REQ]
    for i in range(C.N_INGS):
        reqv[i] = req(mem, plan, seat, i)
    for i in range(C.N_INGS):
        mem[seat, M_NEED + i] = max(reqv[i] - pl[seat, C.PL_INV + i], 0)
    for w in range(C.GREEN, C.PURPLE + 1):
        nw = mem[seat, M_NEED + w]
        if nw:
            a, b = wort_grains(w)
            reqv[a] += nw
            reqv[b] += nw
    for gr in range(3):
        mem[seat, M_NEED + gr] = max(reqv[gr] - pl[seat, C.PL_INV + gr], 0)
    spare = pl[seat, C.PL_INV + C.MANA]
    for a in range(9):  # mana weed covers what is short: magic, then worts, then grains
        i = 6 + a if a < 3 else (a if a < 6 else a - 6)
        d = min(mem[seat, M_NEED + i], spare)
        mem[seat, M_NEED + i] -= d
        spare -= d


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
    V, VR, VB = value_view(S, R, B)
    return spend_picks(V, VR, VB, seat, lo, hi, n, out)


@jit
def take_needed(B, seat, out, n):
    for k in range(n):
        i = out[k]
        if B.mem[seat, M_NEED + i] > 0:
            B.mem[seat, M_NEED + i] -= 1


@jit
def grains(S, R, B, seat, n, out):
    sync(S, B, seat)
    best_of_class(value_view(S, R, B)[2], seat, 0, 3, n, out, 0)
    take_needed(B, seat, out, n)


@jit
def magic(S, R, B, seat, n, out):
    sync(S, B, seat)
    best_of_class(value_view(S, R, B)[2], seat, 6, 9, n, out, 0)
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
    V, VR, VB = value_view(S, R, B)
    best, bv = 0, 0.0
    for o in range(n):
        row, slot = opt_row[o], opt_slot[o]
        t = S.piles[C.ROW_BREWERY + row, slot]
        v = card_value(V, VR, VB, seat, row, t) + row_card_cost(S, R, row, slot)
        if o == 0 or v > bv:
            best, bv = o, v
    return best


@jit
def pick_servant(S, R, B, seat, opt_seat, opt_ci, n):
    sync(S, B, seat)
    V, VR, VB = value_view(S, R, B)
    best, bv = 0, 0.0
    for o in range(n):
        v = action_value(V, VR, VB, seat, opt_seat[o], opt_ci[o])
        if o == 0 or v > bv:
            best, bv = o, v
    return best


@jit
def clear_picks(S, R, B, seat, out_row, out_slot):
    """The clear_draft_n draft cards worth least to the seat (stable sort by card value)."""
    sync(S, B, seat)
    V, VR, VB = value_view(S, R, B)
    width = R.p[P_DRAFT_ROW]
    pos = B.isc[I_SORT]
    key = B.fsm[F_KEY]
    m = 0
    for row in range(2):
        for s in range(width):
            t = S.piles[C.ROW_BREWERY + row, s]
            if t >= 0:
                v = card_value(V, VR, VB, seat, row, t)
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
