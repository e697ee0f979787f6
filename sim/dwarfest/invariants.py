"""Dwarfest invariants, checked after every phase by `simulate --check` and by the tests.

Each check returns 0 when the state is sound, else the code of the first broken rule
(VIOLATIONS names them).
"""

from sim.core.jit import jit

from . import constants as C
from .data import CUSTOMER_DECK_SIZE, TAVERN_DECK_SIZE
from .rules import param

VIOLATIONS = (
    "ok", "negative resource", "more Tables than allowed", "more Barrels than allowed",
    "more Dancers than allowed", "Fame off the track", "Tavern cards not conserved",
    "Customer cards not conserved", "hand larger than allowed", "two copies of a non-stackable card",
    "sips budget overspent",
)
(OK, NEGATIVE, TABLES_MAX, BARRELS_MAX, DANCERS_MAX, FAME_RANGE, TAVERN_CARDS, CUSTOMER_CARDS,
 HAND_SIZE, STACKING, SIPS) = range(len(VIOLATIONS))


@jit
def check_player(S, R, seat):
    for f in range(C.N_PL):
        if S.pl[seat, f] < 0:
            return NEGATIVE
    if S.pl[seat, C.TABLES] > param(R, C.P_MAX_TABLES):
        return TABLES_MAX
    if S.pl[seat, C.BARRELS] > param(R, C.P_MAX_BARRELS):
        return BARRELS_MAX
    if S.pl[seat, C.DANCERS] > param(R, C.P_MAX_DANCERS):
        return DANCERS_MAX
    if S.pl[seat, C.FAME] > param(R, C.P_FAME_MAX):
        return FAME_RANGE
    if R.p[C.P_SIP_BUDGET] > 0 and S.pl[seat, C.SIPS] > param(R, C.P_SIPS):
        return SIPS
    held = 0
    for t in range(R.card.shape[0]):
        held += S.hand[seat, t]
        if R.card[t, C.CF_STACKABLE] == 0 and S.tav[seat, t] > 1:
            return STACKING
    injected = S.g[C.G_INJECTED] if seat == S.g[C.G_TREATED] else 0  # inject's copy may exceed the hand
    if held > param(R, C.P_HAND) + injected:
        return HAND_SIZE
    return OK


@jit
def check_state(S, R, n):
    """0 if every invariant holds for the n players, else the first violation's code."""
    tavern_cards = S.g[C.G_TDECK] + S.g[C.G_TDISC]
    customer_cards = S.g[C.G_CDECK] + S.g[C.G_CDISC] + S.g[C.G_POOL]
    for seat in range(n):
        code = check_player(S, R, seat)
        if code != OK:
            return code
        for t in range(R.card.shape[0]):
            tavern_cards += S.hand[seat, t] + S.tav[seat, t]
        customer_cards += S.pl[seat, C.N_DRAWN]
    if tavern_cards != TAVERN_DECK_SIZE + S.g[C.G_INJECTED]:
        return TAVERN_CARDS
    if customer_cards != CUSTOMER_DECK_SIZE:
        return CUSTOMER_CARDS
    return OK
