"""Dragon Brew rules, the fall phase: a free-action window, brewing behind the screens, the Dark
Elf's judge swap, judging, and profits.

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt):
- Brew: one barrel and one or more spices per beer, all distinct and from the player's book, up
  to the Brewery's capacity (l. 332-342); a beer whose ingredients cannot be paid is a misbrew
  and does not compete (l. 354).
- Shadow Judge: after brewing, before the screens lift, the Dark Elf may swap a shown judge for a
  hidden one, not one an Ogre stands on (l. 464).
- Judging: judges left to right (l. 364), best on the primary characteristic, ties broken by the
  secondary (l. 370-372); an Ogre on a judge wins its ties (l. 554); on a corrupt judge the bribe
  is the secondary and is spent win or lose (l. 774-776). A beer wins at most one ribbon a year
  (l. 388); a full tie splits the VP (l. 396), at least tie_min_vp each.
- Profits of every brewed beer, in turn order (l. 378-382).
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from .. import policies as pol
from ..state import (
    AF_GOLD,
    JF_CORRUPT,
    JF_P,
    JF_PD,
    JF_S,
    JF_SD,
    JF_VP,
    P_LC_JUDGE,
    P_LC_RECIPE,
    P_TIE_MIN_VP,
    RC_C0,
    RC_GOLD,
    RC_SPICE,
    RC_VP,
    has_ability,
    max_beers,
    pay_recipe_needs,
    recipe_needs_payable,
)
from .common import (
    LOG_BEER,
    LOG_JUDGE_SPLIT,
    LOG_JUDGE_WON,
    log,
    log_ability,
    refund_bribe,
    score,
    stat,
)
from .spring_phase import free_window

# ----------------------------------------------------------------------------- brewing

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


@jit
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


# ----------------------------------------------------------------------------- judging

@jit
def judge_all(S, R):
    """Each judge left to right: best on the primary characteristic; ties to the Ogre on its
    judge, then to the briber (corrupt judges) or the secondary characteristic; a beer wins at
    most one prize a year, a full tie splits the VP (at least tie_min_vp each)."""
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
