"""Dragon Brew invariants, checked after every phase by `simulate --check` and by the tests:
no negative gold, ingredients or brewer counts; cards conserved (Brewery 68 including those
sacrificed to the box, plus the one injected copy of an inject treatment; Event 68, recipes 102,
judges 36); migrant gnomes conserved (10); each judge awards at most once (ribbons == judges won, no more ribboned beers than judges); bribe
tokens agree with the judges; the year within bounds; spring ends with no brewer on a race card.

`check_all` returns 0 when the state is sound, else the code of the first broken rule
(VIOLATIONS names them).
"""

from sim.core.jit import jit

from . import constants as C
from .state import BC_COUNT, EF_COUNT, P_GNOME_LIMIT, P_YEARS, on_race_card

VIOLATIONS = (
    "ok", "negative gold, ingredient or brewer count", "ribbons differ from judges won",
    "more ribboned beers than judges", "brewery cards not conserved", "event cards not conserved",
    "recipe cards not conserved", "a recipe held twice", "judges not conserved", "migrant gnomes not conserved",
    "year out of bounds", "spring ended with brewers on a race card", "bribe token and judge disagree",
)
(OK, NEGATIVE, RIBBONS, RIBBONED, BREWERY, EVENTS, RECIPES, TWICE, JUDGES, GNOMES, YEAR, SPRING, BRIBES) = range(13)


@jit
def check_all(S, R, phase):
    n = S.g[C.G_N]
    for s in range(n):
        if player_negative(S, s):
            return NEGATIVE
        if S.pl[s, C.PL_RIBBONS] != S.pl[s, C.PL_STATS + C.ST_JUDGES_WON]:
            return RIBBONS
        won = 0
        for x in range(S.pl[s, C.PL_N_BEERS]):
            won += S.beers[s, x, C.BF_WON]
        if won > S.g[C.G_N_JUDGES]:
            return RIBBONED
    if count_brewery(S, R) != R.bc[:, BC_COUNT].sum() + (1 if S.g[C.G_TREATED_SEAT] >= 0 else 0):
        return BREWERY
    if count_events(S, R) != R.evt[:, EF_COUNT].sum():
        return EVENTS
    k = recipes_held(S, R)
    if k < 0:
        return TWICE
    if k != R.rc.shape[0]:
        return RECIPES
    nj = S.g[C.G_N_PILE + C.PILE_JDECK] + S.g[C.G_N_PILE + C.PILE_JBOX] + S.g[C.G_N_JUDGES] + S.g[C.G_N_SHADOW]
    if nj != R.jd.shape[0]:
        return JUDGES
    gn = S.g[C.G_GNOME_SUPPLY]
    for s in range(n):
        gn += S.pl[s, C.PL_GNOME_AVAIL] + S.pl[s, C.PL_HOUSING]
        for ci in range(S.pl[s, C.PL_N_CARDS]):
            gn += S.est[s, ci, C.CF_GNOME]
    if gn != R.p[P_GNOME_LIMIT] or S.g[C.G_GNOME_SUPPLY] < 0:
        return GNOMES
    if not 1 <= S.g[C.G_YEAR] <= R.p[P_YEARS]:
        return YEAR
    if phase == 1:
        for s in range(n):
            if on_race_card(S, s) > 0:
                return SPRING
    for slot in range(S.g[C.G_N_JUDGES]):
        q = S.piles[C.ROW_BRIBE_SEAT, slot]
        if q >= 0 and (S.pl[q, C.PL_BRIBE_SLOT] != slot or S.pl[q, C.PL_BRIBE_GOLD] != S.piles[C.ROW_BRIBE_GOLD, slot]):
            return BRIBES
    return OK


@jit
def player_negative(S, s):
    if S.pl[s, C.PL_GOLD] < 0:
        return True
    for i in range(C.N_INGS):
        if S.pl[s, C.PL_INV + i] < 0:
            return True
    for f in (C.PL_OWN_AVAIL, C.PL_GNOME_AVAIL, C.PL_HOUSING, C.PL_OWN_TOTAL, C.PL_OWN_OUT):
        if S.pl[s, f] < 0:
            return True
    for ci in range(S.pl[s, C.PL_N_CARDS]):
        if S.est[s, ci, C.CF_OWN] < 0 or S.est[s, ci, C.CF_GNOME] < 0:
            return True
    return False


@jit
def count_brewery(S, R):
    k = S.g[C.G_N_PILE + C.PILE_BDECK] + S.g[C.G_N_PILE + C.PILE_BDISC] + S.g[C.G_BOX_BREWERY]
    for i in range(C.MAX_ROW):
        if S.piles[C.ROW_BREWERY, i] >= 0:
            k += 1
    for s in range(S.g[C.G_N]):
        for ci in range(S.pl[s, C.PL_N_CARDS]):
            k += S.est[s, ci, C.CF_N_UP] + (1 if S.est[s, ci, C.CF_BC] >= 0 else 0)
    return k


@jit
def count_events(S, R):
    k = S.g[C.G_N_PILE + C.PILE_EDECK] + S.g[C.G_N_PILE + C.PILE_EDISC]
    for i in range(C.MAX_ROW):
        if S.piles[C.ROW_EVENT, i] >= 0:
            k += 1
    for s in range(S.g[C.G_N]):
        k += S.pl[s, C.PL_N_QUESTS]
    return k


@jit
def recipes_held(S, R):
    """Recipe cards in decks, discards, the offering and the books; -1 if a book holds one twice."""
    k = 0
    for pile in (C.PILE_RDECK_BARREL, C.PILE_RDECK_SPICE, C.PILE_RDISC_BARREL, C.PILE_RDISC_SPICE):
        k += S.g[C.G_N_PILE + pile]
    for d in range(2):
        for i in range(C.MAX_ROW):
            if S.piles[C.ROW_OFFER_BARREL + d, i] >= 0:
                k += 1
    for s in range(S.g[C.G_N]):
        nb = S.pl[s, C.PL_N_BOOK]
        for a in range(nb):
            for b in range(a):
                if S.pl[s, C.PL_BOOK + a] == S.pl[s, C.PL_BOOK + b]:
                    return -1
        k += nb
    return k
