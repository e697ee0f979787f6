"""Dragon Brew rules, the legal moves of a spring turn (and of the fall and winter windows, see
spring_phase.py).

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt):
- A turn may clear the draft once (l. 167-171), draft once (paying the cost, l. 179-185), cast
  spells and use free actions (l. 175-177, 289-293), and must take one brewer action while a
  brewer stands on the race card (l. 214-222), or pass it (l. 187-189).
- Drafting Migrant Gnomes needs a purple meeple in the box, and none are drafted for the rest of
  the spring once the box has run out (l. 228); a quest that sends a brewer needs one on the race
  card, even when drafted free (l. 276).
- A regular action card takes one brewer a year, an infinite one any number (l. 199-201);
  Gnome Housing brewers may be assigned but never have to be (l. 265).
- Race abilities that choose a target: Horse Guests (l. 454), Dark Sacrifice (own brewer only),
  Ogre-Ruled (l. 554), Spell Book (l. 572-574), Black Market (l. 510-514).
- Corrupt Judge variant: a bribe is a free action, any amount that tops the standing one
  (l. 764-768).

Move layout (rows of S.moves: kind, a, b, c, d), listed by `legal_moves` in this order:
  M_END; M_CLEAR; M_DRAFT row slot; M_SPELL ci; M_SERVANT ci q oci; M_FREE ci;
  M_BRIBE slot lo hi (the bot picks the amount in lo..hi); M_HOUSE (a gnome into Gnome Housing);
  then per brewer source src (0 race card, 1 Gnome Housing): M_BREWER ci src, M_GUEST ci q oci src,
  M_SACRIFICE ci tci, M_OGRE ci slot, M_SPELLBOOK ci q sci; and M_PASS 0 after the race card's.
ci indexes the player's estate, tci another card of it, oci/sci seat q's estate; row 0 is the
Brewery row, 1 the Event row; slot a position in that row (or among the shown judges).
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from ..state import (
    AF_GOLD,
    AF_N,
    AF_OWN_ONLY,
    BC_AMOUNT,
    BC_COST,
    BC_EFFECT,
    BC_SPELL_COST,
    BC_SPELL_N,
    EF_BREWER,
    EF_COST,
    EF_KIND,
    EF_PAY_KIND,
    EF_PAY_N,
    JF_CORRUPT,
    P_CLEAR_DRAFT_COST,
    P_DRAFT_ROW,
    RF_TRADER_COST,
    have,
    not_borrowable,
    on_race_card,
    race_num,
)
from .common import MAX_FREE_MOVES, ability_of_key, effect_of, is_key, recipes_left

# ----------------------------------------------------------------------------- legal moves

@jit
def add_move(S, n, kind, a, b, c, d):
    if n >= C.MAX_MOVES:
        S.g[C.G_OVERFLOW] = 1
        return n
    m = S.moves[n]
    m[0] = kind
    m[1] = a
    m[2] = b
    m[3] = c
    m[4] = d
    return n + 1


@jit
def draftable(S, R, seat, row, slot, free):
    if row == 0:
        t = S.piles[C.ROW_BREWERY, slot]
        if t < 0:
            return False
        return free or S.pl[seat, C.PL_GOLD] >= R.bc[t, BC_COST]
    t = S.piles[C.ROW_EVENT, slot]
    if t < 0:
        return False
    if not free and S.pl[seat, C.PL_GOLD] < R.evt[t, EF_COST]:
        return False
    kind = R.evt[t, EF_KIND]
    if kind == C.EV_MIGRANT and (S.g[C.G_GNOME_SUPPLY] < 1 or S.g[C.G_GNOMES_RAN_OUT]):
        return False
    if kind == C.EV_FESTIVAL and not have(S, seat, R.evt[t, EF_PAY_KIND], R.evt[t, EF_PAY_N]):
        return False
    if R.evt[t, EF_BREWER] and on_race_card(S, seat) < 1:  # a free draft waives the gold, not the brewer
        return False
    if kind == C.EV_SCROLL and not recipes_left(S):
        return False
    return True


@jit
def any_free_draft(S, R, seat):
    for row in range(2):
        for s in range(R.p[P_DRAFT_ROW]):
            if draftable(S, R, seat, row, s, True):
                return True
    return False


@jit
def any_spell_used(S, seat):
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, ci, C.CF_KIND] == C.K_SPELL and S.est[seat, ci, C.CF_SPELL_USED]:
            return True
    return False


@jit
def usable_action(S, R, seat, owner, ci, via_brewer):
    """Can seat perform owner's action card ci now (resources, targets)? Locks are the caller's."""
    if S.est[owner, ci, C.CF_KIND] != C.K_ACTION:
        return False
    if not via_brewer and not_borrowable(S.est[owner, ci, C.CF_KEY]):
        return False
    key = S.est[owner, ci, C.CF_KEY]
    if key == C.MAGIC_TRADER:
        return S.pl[seat, C.PL_GOLD] >= race_num(S, R, owner, RF_TRADER_COST)
    if key == C.MASH_HOUSE:
        return S.pl[seat, C.PL_INV + 0] + S.pl[seat, C.PL_INV + 1] + S.pl[seat, C.PL_INV + 2] + S.pl[seat, C.PL_INV + C.MANA] >= 2
    if key == C.KEY_ABILITY + C.AB_MANA_SPELL:
        return S.pl[seat, C.PL_INV + C.MANA] >= 1 and any_spell_used(S, seat)
    if key == C.KEY_ABILITY + C.AB_BLACK_MARKET:
        return any_free_draft(S, R, seat)
    if key == C.BREWERY and owner != seat:
        return False
    return True


@jit_inline
def is_magic_cost(code):
    """The Wizard's Spell Book waives a spell's magic ingredient; grain or wort costs are paid."""
    return code == C.CL_MAGIC or code == C.TOAD or code == C.DRAGON or code == C.PIXIE


@jit
def any_servant_target(S, R, seat):
    for q in range(S.g[C.G_N]):
        for oci in range(S.pl[q, C.PL_N_CARDS]):
            if servant_target(S, R, seat, q, oci):
                return True
    return False


@jit_inline
def servant_target(S, R, seat, q, oci):
    return (S.est[q, oci, C.CF_KIND] == C.K_ACTION and not not_borrowable(S.est[q, oci, C.CF_KEY])
            and usable_action(S, R, seat, q, oci, False))


@jit
def spell_castable(S, R, seat, owner, ci, free_cost):
    """Can seat cast owner's spell card ci (free_cost: through the Spell Book)?"""
    if S.est[owner, ci, C.CF_KIND] != C.K_SPELL or (S.est[owner, ci, C.CF_SPELL_USED] and not free_cost):
        return False
    if is_key(S, owner, ci, C.KEY_ABILITY + C.AB_SPINNING_WHEEL):
        return have(S, seat, C.CL_GRAIN, R.ab[C.AB_SPINNING_WHEEL, AF_N])
    bc = S.est[owner, ci, C.CF_BC]
    sc = R.bc[bc, BC_SPELL_COST]
    if (not free_cost or not is_magic_cost(sc)) and not have(S, seat, sc, R.bc[bc, BC_SPELL_N]):
        return False
    e = R.bc[bc, BC_EFFECT]
    if e == C.E_RAISE_GNOME:
        for k in range(S.pl[seat, C.PL_N_CARDS]):
            if S.est[seat, k, C.CF_GNOME] > 0:
                return True
        return False
    if e == C.E_SERVANT:
        return any_servant_target(S, R, seat)
    return True


@jit
def free_usable(S, R, seat, ci):
    key = S.est[seat, ci, C.CF_KEY]
    if effect_of(S, R, seat, ci) == C.E_TAVERN:
        return have(S, seat, C.CL_GRAIN, R.bc[S.est[seat, ci, C.CF_BC], BC_AMOUNT])
    if key == C.KEY_ABILITY + C.AB_FARMERS_MARKET:
        return S.pl[seat, C.PL_GOLD] >= R.ab[C.AB_FARMERS_MARKET, AF_GOLD]
    if key == C.KEY_ABILITY + C.AB_SEA_PORT:
        return S.pl[seat, C.PL_GOLD] >= R.ab[C.AB_SEA_PORT, AF_GOLD] and have(S, seat, C.CL_GRAIN,
                                                                             R.ab[C.AB_SEA_PORT, AF_N])
    if key == C.KEY_ABILITY + C.AB_DRAIN_GNOME:
        return S.pl[seat, C.PL_GNOME_AVAIL] > 0 or S.pl[seat, C.PL_HOUSING] > 0
    return False


@jit
def owns_housing(S, R, seat):
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, ci, C.CF_KIND] == C.K_HOUSING:
            return True
    return False


@jit
def legal_moves(S, R, seat):
    """Fill S.moves with the legal moves of seat in S.g[C.G_FLAGS:C.G_FLAGS + 4]' turn state; returns how many."""
    F = S.g[C.G_FLAGS:C.G_FLAGS + 4]
    n = 0
    on_card = on_race_card(S, seat)
    gold = S.pl[seat, C.PL_GOLD]
    if F[C.F_BREWER] or on_card == 0:
        n = add_move(S, n, C.M_END, 0, 0, 0, 0)
    if not F[C.F_CLEARED] and gold >= R.p[P_CLEAR_DRAFT_COST]:
        n = add_move(S, n, C.M_CLEAR, 0, 0, 0, 0)
    if not F[C.F_DRAFTED]:
        for row in range(2):
            for s in range(R.p[P_DRAFT_ROW]):
                if draftable(S, R, seat, row, s, False):
                    n = add_move(S, n, C.M_DRAFT, row, s, 0, 0)
    if F[C.F_FREE] < MAX_FREE_MOVES:
        n = free_moves(S, R, seat, n)
    if not F[C.F_BREWER]:
        if on_card > 0:
            n = brewer_moves(S, R, seat, 0, n)
            n = add_move(S, n, C.M_PASS, 0, 0, 0, 0)
        if S.pl[seat, C.PL_HOUSING] > 0:
            n = brewer_moves(S, R, seat, 1, n)
    return n


@jit
def free_moves(S, R, seat, n):
    """Spells, free actions, bribes and moving a gnome into Gnome Housing."""
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        kind = S.est[seat, ci, C.CF_KIND]
        if kind == C.K_SPELL and spell_castable(S, R, seat, seat, ci, False):
            if effect_of(S, R, seat, ci) == C.E_SERVANT:
                for q in range(S.g[C.G_N]):
                    for oci in range(S.pl[q, C.PL_N_CARDS]):
                        if servant_target(S, R, seat, q, oci):
                            n = add_move(S, n, C.M_SERVANT, ci, q, oci, 0)
            else:
                n = add_move(S, n, C.M_SPELL, ci, 0, 0, 0)
        elif kind == C.K_FREE and free_usable(S, R, seat, ci):
            n = add_move(S, n, C.M_FREE, ci, 0, 0, 0)
    gold = S.pl[seat, C.PL_GOLD]
    if S.g[C.G_CORRUPT] and S.pl[seat, C.PL_BRIBE_SLOT] < 0 and gold >= 1:
        for slot in range(S.g[C.G_N_JUDGES]):
            if R.jd[S.piles[C.ROW_JUDGES, slot], JF_CORRUPT] and S.piles[C.ROW_OGRE, slot] < 0:
                cur = S.piles[C.ROW_BRIBE_GOLD, slot] if S.piles[C.ROW_BRIBE_SEAT, slot] >= 0 else 0
                if gold >= cur + 1:  # any amount that tops the standing bribe: the bot picks it
                    n = add_move(S, n, C.M_BRIBE, slot, cur + 1, gold, 0)
    if S.pl[seat, C.PL_GNOME_AVAIL] > 0 and owns_housing(S, R, seat):
        n = add_move(S, n, C.M_HOUSE, 0, 0, 0, 0)
    return n


@jit
def brewer_moves(S, R, seat, src, n):
    """Every card a brewer from src (0 race card, 1 Gnome Housing) may be assigned to."""
    own_ok = src == 0 and S.pl[seat, C.PL_OWN_AVAIL] > 0
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        c = S.est[seat, ci]
        if c[C.CF_KIND] != C.K_ACTION or (c[C.CF_LOCKED] and not c[C.CF_INFINITE]):
            continue
        a = ability_of_key(c[C.CF_KEY])
        if a >= 0 and R.ab[a, AF_OWN_ONLY] and not own_ok:
            continue
        if a == C.AB_HORSE_GUESTS:
            for q in range(S.g[C.G_N]):
                if q == seat:
                    continue
                for oci in range(S.pl[q, C.PL_N_CARDS]):
                    if usable_action(S, R, seat, q, oci, False):
                        n = add_move(S, n, C.M_GUEST, ci, q, oci, src)
        elif a == C.AB_DARK_SACRIFICE:
            for tci in range(S.pl[seat, C.PL_N_CARDS]):
                if S.est[seat, tci, C.CF_KIND] == C.K_ACTION and not is_key(S, seat, tci, c[C.CF_KEY]):
                    n = add_move(S, n, C.M_SACRIFICE, ci, tci, 0, 0)
        elif a == C.AB_OGRE_RULED:
            for slot in range(S.g[C.G_N_JUDGES]):
                if S.piles[C.ROW_OGRE, slot] < 0:
                    n = add_move(S, n, C.M_OGRE, ci, slot, 0, 0)
        elif a == C.AB_SPELL_BOOK:
            for q in range(S.g[C.G_N]):
                for sci in range(S.pl[q, C.PL_N_CARDS]):
                    if S.est[q, sci, C.CF_KIND] == C.K_SPELL and spell_castable(S, R, seat, q, sci, True):
                        n = add_move(S, n, C.M_SPELLBOOK, ci, q, sci, 0)
        elif usable_action(S, R, seat, seat, ci, True):
            n = add_move(S, n, C.M_BREWER, ci, src, 0, 0)
    return n
