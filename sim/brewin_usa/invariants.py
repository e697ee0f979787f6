"""Brewin' USA invariants, checked after every phase by `simulate --check` and by the tests.

Each check returns 0 when the state is sound, else the code of the first broken rule
(VIOLATIONS names them).
"""

from sim.core.jit import jit, jit_inline

from . import constants as C
from .rules import param

VIOLATIONS = (
    "ok", "negative value", "uncolored caps not conserved", "ingredient cards not conserved",
    "beer cards not conserved", "colored caps not conserved", "beer hand size wrong",
    "city control inconsistent", "Market Demand on an inactive city", "more beers launched than colored caps",
)
(OK, NEGATIVE, CAPS, INGREDIENTS, BEERS, COLORED, BEER_HAND, CONTROL, INACTIVE, LAUNCHED) = range(len(VIOLATIONS))


@jit_inline
def check_player(S, R, seat):
    for f in range(C.N_PL):
        if S.pl[seat, f] < 0:
            return NEGATIVE
    for t in range(S.hand.shape[1]):
        if S.hand[seat, t] < 0:
            return NEGATIVE
    if S.pl[seat, C.LAUNCHED] > param(R, C.P_COLORED):
        return LAUNCHED
    on_table, in_hand = 0, 0
    for b in range(C.BEER_SLOTS):
        if S.beer[b, C.B_OWNER] != seat:
            continue
        loc = S.beer[b, C.B_LOC]
        if loc == C.LOC_HAND:
            in_hand += 1
        elif loc == C.LOC_CITY or loc == C.LOC_SKUNKED or loc == C.LOC_FEST:
            on_table += 1
    if on_table + S.pl[seat, C.COLORED] != param(R, C.P_COLORED) or on_table != S.pl[seat, C.LAUNCHED]:
        return COLORED
    # an injected copy is a fourth card until the treated seat's first draw-and-discard
    if in_hand > param(R, C.P_BEER_HAND) + (seat == S.g[C.G_TREATED]):
        return BEER_HAND
    return OK


@jit_inline
def check_cities(S):
    for c in range(C.N_CITIES):
        if S.city[c, C.CT_DEMAND] < 0:
            return NEGATIVE
        if S.city[c, C.CT_ACTIVE] == 0 and (S.city[c, C.CT_DEMAND] != 0 or S.city[c, C.CT_BEER] >= 0):
            return INACTIVE
        b = S.city[c, C.CT_BEER]
        if b >= 0 and (S.beer[b, C.B_LOC] != C.LOC_CITY or S.beer[b, C.B_CITY] != c):
            return CONTROL
    for b in range(C.BEER_SLOTS):
        if S.beer[b, C.B_LOC] == C.LOC_CITY and S.city[S.beer[b, C.B_CITY], C.CT_BEER] != b:
            return CONTROL
    return OK


@jit
def check_state(S, R, n):
    """0 if every invariant holds for the n players, else the first violation's code."""
    if S.g[C.G_BAG] < 0:
        return NEGATIVE
    caps = S.g[C.G_BAG] + S.g[C.G_POT]
    cards = S.g[C.G_IDECK] + S.g[C.G_IDISC]
    for seat in range(n):
        code = check_player(S, R, seat)
        if code != OK:
            return code
        caps += S.pl[seat, C.BANK]
        for t in range(S.hand.shape[1]):
            cards += S.hand[seat, t]
        for i in range(S.fest[seat, C.F_NC]):
            if S.fest[seat, C.F_C + i] >= 0:
                cards += 1
    for b in range(n):
        if S.batch[b, C.BT_OWNER] < 0:
            cards += S.batch[b, C.BT_N]
    code = check_cities(S)
    if code != OK:
        return code
    for c in range(C.N_CITIES):
        caps += S.city[c, C.CT_DEMAND]
    if caps != S.g[C.G_TOTAL_CAPS]:
        return CAPS
    if cards != C.INGREDIENT_DECK:
        return INGREDIENTS
    piled, in_game = 0, 0
    for b in range(C.BEER_SLOTS):
        loc = S.beer[b, C.B_LOC]
        if loc == C.LOC_DECK or loc == C.LOC_DISC:
            piled += 1
        if loc != C.LOC_OUT:
            in_game += 1
    if piled != S.g[C.G_BDECK] + S.g[C.G_BDISC] or in_game != C.BEER_DECK + (S.g[C.G_TREATED] >= 0):
        return BEERS
    return OK
