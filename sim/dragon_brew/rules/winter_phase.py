"""Dragon Brew rules, the winter phase: brewers and gnomes back, the Winter Stores cut, the recipe
book cut, the drafting pool, offering and judges refreshed, and the next year's turn order.

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt):
- Reset: gnomes to the supply, own brewers to the race card, spell tokens off, only what fits in
  the Winter Stores kept, the recipe book cut to its maximum (l. 410-420).
- Refresh the drafting pool, the recipe offering and the judges (used judges to the box)
  (l. 424-432).
- Turn order of years 2-3: the lowest player on VP starts, a tie to the disk on top of the stack
  (l. 155-157), then clockwise from that seat.
The last year's winter is not played (l. 408): kernel.py stops after its fall.
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from .. import policies as pol
from ..state import P_DRAFT_ROW, RC_SPICE, book_max, stores_cap
from .common import discard_draft_card, discard_offer, push, refill_offer, refill_rows
from .game_setup import deal_judges
from .spring_phase import free_window

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
