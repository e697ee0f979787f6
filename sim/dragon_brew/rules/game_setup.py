"""Dragon Brew rules, game setup: decks, judges, each player's estate and starting resources,
recipe books, the first drafting pool and the first turn order.

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt):
- Each race starts with its brewers, gold and grains (l. 113-115) and an estate of the common
  cards plus its race ability card (l. 234, 303); the Tree Men lack one common card.
- Recipe books are dealt from the separately shuffled barrel and spice decks (l. 117), then the
  offering, the Brewery row and the Event row are flipped (l. 121).
- Judges: without the Corrupt Judge variant the corrupt judges stay in the box (l. 123); with it,
  some regular judges are removed unseen and the corrupt ones shuffled in (l. 754). Players + 1
  judges are shown (l. 430).
- Dark Elf (Shadow Judge): hidden judges are drawn after the shuffle (l. 464).
- Treatments (issue 14, sim/core/treatment.py): `remove` puts the neutral Brewery card in every
  place of the removed card in the deck, before the shuffle, so every other card lands where it
  would have; `inject` builds one extra copy of a Brewery card, from outside the deck, in the
  treated seat's estate (g[G_TREATED_SEAT]) as if drafted before the game; `power_off` leaves
  the race's ability card out of the estate and its ability unset (PL_ABILITY = -1), so no rule
  grants it and no bot plays it, while the race's starting numbers stay.
- The opening draft rows, fixed by the shuffle alone, are logged as offers to the first seat.
- Seat 0 starts; the scoring disks are stacked with the first player on top, and the later seats
  of year one get extra gold (l. 125-131).
"""

from sim.core.jit import jit
from sim.core.rng import shuffle
from sim.core.treatment import T_INJECT, T_POWER_OFF, T_REMOVE

from .. import constants as C
from ..state import (
    AF_N,
    AF_USE,
    BC_COUNT,
    EF_COUNT,
    JF_CORRUPT,
    P_CORRUPT,
    P_CORRUPT_REMOVED,
    P_DRAFT_ROW,
    P_EXTRA_GOLD,
    P_GNOME_LIMIT,
    P_INFINITE,
    P_JUDGES_EXTRA,
    P_NEUTRAL,
    P_OFFERING_ROW,
    RC_SPICE,
    RF_ABILITY,
    RF_BARREL,
    RF_BREWERS,
    RF_GOLD,
    RF_LACKS,
    RF_MAX_PLAYERS,
    RF_MIN_PLAYERS,
    RF_WHEAT,
    has_ability,
)
from .common import add_card, add_to_book, draw, draw_recipe, log_offers, push
from .drafts import add_brewery_card

# ----------------------------------------------------------------------------- setup

@jit
def setup(S, R, n, races, pols, kind, target):
    """A fresh game for races[s], pols[s] at seat s (seat 0 first); rng streams already seeded,
    g[G_TREATED_SEAT] set; (kind, target) is the run's treatment (sim/core/treatment.codes)."""
    p = R.p
    S.g[C.G_N] = n
    S.g[C.G_YEAR] = 1
    for k in (C.G_PHASE, C.G_DECISIONS, C.G_JUDGED, C.G_TURNS, C.G_STAMP, C.G_BOX_BREWERY, C.G_N_SHADOW,
              C.G_GNOMES_RAN_OUT):
        S.g[k] = 0
    S.g[C.G_CORRUPT] = p[P_CORRUPT]
    S.g[C.G_GNOME_SUPPLY] = p[P_GNOME_LIMIT]
    S.g[C.G_N_PILE:C.G_N_PILE + C.N_PILES] = 0
    S.piles[C.ROW_BREWERY:, :] = -1
    removed = target if kind == T_REMOVE else -1
    for t in range(R.bc.shape[0]):
        for _ in range(R.bc[t, BC_COUNT]):
            push(S, C.PILE_BDECK, R.p[P_NEUTRAL] if t == removed else t)
    for t in range(R.evt.shape[0]):
        for _ in range(R.evt[t, EF_COUNT]):
            push(S, C.PILE_EDECK, t)
    for d in range(2):
        for r in range(R.rc.shape[0]):
            if R.rc[r, RC_SPICE] == d:
                push(S, C.PILE_RDECK_BARREL + d, r)
        shuffle(S.piles[C.PILE_RDECK_BARREL + d], S.g[C.G_N_PILE + C.PILE_RDECK_BARREL + d], S.rng, 0)
    shuffle(S.piles[C.PILE_BDECK], S.g[C.G_N_PILE + C.PILE_BDECK], S.rng, 0)
    shuffle(S.piles[C.PILE_EDECK], S.g[C.G_N_PILE + C.PILE_EDECK], S.rng, 0)
    setup_judges(S, R)
    for s in range(n):
        setup_player(S, R, n, s, races[s], pols[s], kind == T_POWER_OFF and races[s] == target)
    if kind == T_INJECT:
        add_brewery_card(S, R, S.g[C.G_TREATED_SEAT], target)
    for s in range(n):  # starting recipe books, dealt in seat order
        for d in range(2):
            for _ in range(R.race[races[s], RF_BARREL + d]):  # barrel, then spice
                r = draw_recipe(S, d)
                if r >= 0:
                    add_to_book(S, s, r)
    for d in range(2):
        for i in range(p[P_OFFERING_ROW]):
            S.piles[C.ROW_OFFER_BARREL + d, i] = draw_recipe(S, d)
    for i in range(p[P_DRAFT_ROW]):
        S.piles[C.ROW_BREWERY, i] = draw(S, C.PILE_BDECK, C.PILE_BDISC)
    for i in range(p[P_DRAFT_ROW]):
        S.piles[C.ROW_EVENT, i] = draw(S, C.PILE_EDECK, C.PILE_EDISC)
    log_offers(S, R, 0, 1)
    for s in range(n):  # Dark Elf: hidden judges drawn after the shuffle
        if has_ability(S, s, C.AB_SHADOW_JUDGE):
            S.g[C.G_N_SHADOW] = 0
            for _ in range(R.ab[C.AB_SHADOW_JUDGE, AF_N]):
                S.g[C.G_N_PILE + C.PILE_JDECK] -= 1
                S.piles[C.ROW_SHADOW, S.g[C.G_N_SHADOW]] = S.piles[C.PILE_JDECK, S.g[C.G_N_PILE + C.PILE_JDECK]]
                S.g[C.G_N_SHADOW] += 1
    deal_judges(S, R)
    for s in range(n - 1, -1, -1):  # disks stacked with seat 0 on top; extra gold 0/1/1/2
        S.g[C.G_STAMP] += 1
        S.pl[s, C.PL_STAMP] = S.g[C.G_STAMP]
        S.pl[s, C.PL_GOLD] += p[P_EXTRA_GOLD + s]
    for s in range(n):
        S.g[C.G_ORDER + s] = s


@jit
def setup_judges(S, R):
    """Regular judges shuffled; the Corrupt Judge variant removes some unseen and shuffles in the
    corrupt judges, else the corrupt judges stay in the box."""
    nj = R.jd.shape[0]
    for j in range(nj):
        if R.jd[j, JF_CORRUPT] == 0:
            push(S, C.PILE_JDECK, j)
    shuffle(S.piles[C.PILE_JDECK], S.g[C.G_N_PILE + C.PILE_JDECK], S.rng, 0)
    if S.g[C.G_CORRUPT]:
        removed = R.p[P_CORRUPT_REMOVED]
        for k in range(removed):
            push(S, C.PILE_JBOX, S.piles[C.PILE_JDECK, k])
        m = S.g[C.G_N_PILE + C.PILE_JDECK] - removed
        for k in range(m):
            S.piles[C.PILE_JDECK, k] = S.piles[C.PILE_JDECK, k + removed]
        S.g[C.G_N_PILE + C.PILE_JDECK] = m
        for j in range(nj):
            if R.jd[j, JF_CORRUPT]:
                push(S, C.PILE_JDECK, j)
        shuffle(S.piles[C.PILE_JDECK], S.g[C.G_N_PILE + C.PILE_JDECK], S.rng, 0)
    else:
        for j in range(nj):
            if R.jd[j, JF_CORRUPT]:
                push(S, C.PILE_JBOX, j)


@jit
def setup_player(S, R, n, s, race, policy, power_off):
    """Seat s's race, bot, starting resources and estate; with power_off the race's ability card
    stays out and the seat has no ability (-1)."""
    S.pl[s, :] = 0
    S.pl[s, C.PL_INV:C.PL_INV + C.N_INGS] = 0
    S.pl[s, C.PL_RACE] = race
    ability = R.race[race, RF_ABILITY]
    S.pl[s, C.PL_ABILITY] = -1 if power_off else ability
    S.pl[s, C.PL_POLICY] = policy
    S.pl[s, C.PL_GOLD] = R.race[race, RF_GOLD]
    for i in range(3):
        S.pl[s, C.PL_INV + C.WHEAT + i] = R.race[race, RF_WHEAT + i]
    S.pl[s, C.PL_OWN_TOTAL] = R.race[race, RF_BREWERS]
    S.pl[s, C.PL_OWN_AVAIL] = R.race[race, RF_BREWERS]
    S.pl[s, C.PL_BRIBE_SLOT] = -1
    for key in range(len(C.COMMON)):
        if key == R.race[race, RF_LACKS] - 1:
            continue  # the Tree Men's 7-card estate (races.toml `lacks`)
        kind = C.K_STORES if key == C.WINTER_STORES else C.K_ACTION
        add_card(S, s, key, -1, kind, R.p[P_INFINITE + key])
    if not power_off:
        add_ability_card(S, R, s, ability)
    outside = not (R.race[race, RF_MIN_PLAYERS] <= n <= R.race[race, RF_MAX_PLAYERS])
    S.pl[s, C.PL_STATS + C.ST_OUTSIDE_RECOMMENDED] = 1 if outside else 0


@jit
def add_ability_card(S, R, s, ability):
    """The race ability card, as an estate card of the kind its use asks for."""
    use = R.ab[ability, AF_USE]
    kind = C.K_PASSIVE
    if use == C.USE_ACTION_ONCE or use == C.USE_ACTION_INFINITE:
        kind = C.K_ACTION
    elif use == C.USE_FREE:
        kind = C.K_FREE
    elif use == C.USE_SPELL:
        kind = C.K_SPELL
    add_card(S, s, C.KEY_ABILITY + ability, -1, kind, 1 if use == C.USE_ACTION_INFINITE else 0)


@jit
def deal_judges(S, R):
    k = 0
    for _ in range(S.g[C.G_N] + R.p[P_JUDGES_EXTRA]):
        if S.g[C.G_N_PILE + C.PILE_JDECK] > 0:
            S.g[C.G_N_PILE + C.PILE_JDECK] -= 1
            S.piles[C.ROW_JUDGES, k] = S.piles[C.PILE_JDECK, S.g[C.G_N_PILE + C.PILE_JDECK]]
            k += 1
    S.g[C.G_N_JUDGES] = k
    for slot in range(C.MAX_ROW):
        if slot >= k:
            S.piles[C.ROW_JUDGES, slot] = -1
        S.piles[C.ROW_BRIBE_SEAT, slot] = -1
        S.piles[C.ROW_BRIBE_GOLD, slot] = 0
        S.piles[C.ROW_OGRE, slot] = -1
