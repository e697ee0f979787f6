"""Homebrewers invariants, checked after every phase by `simulate --check` and by the tests.

Each check returns 0 when the state is sound, else the code of the first broken rule (VIOLATIONS
names them).
"""

from sim.core.jit import jit, jit_inline

from . import constants as C
from .rules import n_slots

VIOLATIONS = (
    "ok", "negative money, reputation or grain", "sanitization out of range", "quality outside 0-12",
    "more than one marker on a locked level", "flavor cards not conserved", "flavors under recipes miscounted",
    "more than one extra action or power use in a month", "dice count wrong", "month out of range",
)
(OK, NEGATIVE, SANITIZE, QUALITY, LOCK, CARDS, FLAVORS, EXTRA, DICE, MONTH) = range(len(VIOLATIONS))


@jit
def check_all(S, R, n):
    """The first broken invariant (0 = sound), in a fixed order: the month, then seat by seat,
    then the quality locks, where the cards are, and the flavors under recipes."""
    if S.g[C.G_MONTH] < 0 or S.g[C.G_MONTH] >= C.MONTHS:
        return MONTH
    for s in range(C.N_ROWS):
        if is_active(s, n):
            v = check_seat(S, R, s)
            if v != OK:
                return v
    v = check_locks(S, n)
    if v != OK:
        return v
    v = check_cards(S, n)
    if v != OK:
        return v
    return check_flavors(S, R, n)


@jit_inline
def is_active(s, n):
    """Row s is in the game: a player's, or Charlie's in a 2-player game."""
    return s < n or (s == C.CHARLIE and n == 2)


@jit
def check_seat(S, R, s):
    """Qualities for every active row; Charlie has nothing else to check."""
    v = check_quality(S, s)
    if v != OK or s == C.CHARLIE:
        return v
    v = check_resources(S, R, s)
    if v != OK:
        return v
    if S.pl[s, C.EXTRA_USED] > 1 or S.pl[s, C.POWER_USED] > 1 or S.pl[s, C.ST_EXTRAS] > S.g[C.G_MONTH] + 1:
        return EXTRA
    return check_dice(S, s)


@jit
def check_quality(S, s):
    for r in range(C.N_RECIPES):
        q = S.pl[s, C.Q0 + r]
        if q < 0 or q > C.MAX_Q:
            return QUALITY
    return OK


@jit
def check_resources(S, R, s):
    """Money, reputation and grain never negative; sanitization within the player's slots."""
    if S.pl[s, C.MONEY] < 0 or S.pl[s, C.REP] < 0:
        return NEGATIVE
    for r in range(C.N_RECIPES):
        if S.pl[s, C.GRAIN0 + r] < 0:
            return NEGATIVE
    if S.pl[s, C.COVERED] < 0 or S.pl[s, C.COVERED] > n_slots(S, R, s):
        return SANITIZE
    return OK


@jit
def check_dice(S, s):
    """No negative dice; three in hand during the trade phase, none left in the action phase."""
    k = 0
    for a in range(C.N_ACTIONS):
        if S.dice[s, a] < 0:
            return DICE
        k += S.dice[s, a]
    if S.g[C.G_PHASE] == C.PH_TRADE and k != 3:
        return DICE
    if S.g[C.G_PHASE] == C.PH_ACTION and k != 0:
        return DICE
    return OK


@jit
def check_locks(S, n):
    """A recipe at quality 12 is locked by the one active row that reached it, and only then."""
    for r in range(C.N_RECIPES):
        at12 = 0
        for s in range(C.N_ROWS):
            if is_active(s, n) and S.pl[s, C.Q0 + r] == C.MAX_Q:
                at12 += 1
                if S.g[C.G_LOCK0 + r] != s:
                    return LOCK
        if at12 > 1 or (at12 == 0 and S.g[C.G_LOCK0 + r] >= 0):
            return LOCK
    return OK


@jit
def check_cards(S, n):
    """Every flavor card is in exactly one place (deck, discard, row, a player's hand or recipe),
    the pile counts match, and the row holds row cards. The spare card (C.SPARE) is out of play
    unless a treatment injected it; then the game has 55 cards."""
    deck, disc, row, other = 0, 0, 0, 0
    in_play = C.DECK + (1 if S.card[C.SPARE, 0] != C.LOC_OUT else 0)  # an injected card counts
    for c in range(C.CARD_SLOTS):
        loc = S.card[c, 0]
        if loc == C.LOC_DECK:
            deck += 1
        elif loc == C.LOC_DISCARD:
            disc += 1
        elif loc == C.LOC_ROW:
            row += 1
        elif loc == C.LOC_HAND or loc == C.LOC_RECIPE:
            if S.card[c, 1] < 0 or S.card[c, 1] >= n:
                return CARDS
            other += 1
        elif c != C.SPARE:  # only the spare may be out of play
            return CARDS
    if deck != S.g[C.G_DECK_N] or disc != S.g[C.G_DISC_N] or deck + disc + row + other != in_play:
        return CARDS
    for i in range(C.ROW):
        c = S.pile[C.PILE_ROW, i]
        if c >= 0 and S.card[c, 0] != C.LOC_ROW:
            return CARDS
    return OK


@jit
def check_flavors(S, R, n):
    """The per-recipe flavor counts match the cards placed under each recipe."""
    for s in range(n):
        for r in range(C.N_RECIPES):
            for k in range(C.N_KINDS):
                cnt = 0
                for c in range(C.CARD_SLOTS):
                    if S.card[c, 0] == C.LOC_RECIPE and S.card[c, 1] == s and S.card[c, 2] == r \
                            and R.cards[R.phys[c], C.CF_KIND] == k:
                        cnt += 1
                if cnt != S.fl[s, r, k]:
                    return FLAVORS
    return OK
