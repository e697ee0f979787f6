"""Dragon Brew rules, casting spells.

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt):
- A spell costs the ingredients on its card and is marked used for the year (l. 293); the
  Wizard's Spell Book casts any spell without its magic ingredient and without marking it
  (l. 572-574).
- The spell effects: Transmutation (l. 695), Chaos, Intelligence, Servant (perform any action
  card, nothing locked) and Raise Gnome; Spinning Wheel is a race spell.
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from .. import policies as pol
from ..state import AF_GOLD, AF_N, BC_AMOUNT, BC_EFFECT, BC_SPELL_COST, BC_SPELL_N, P_DRAFT_ROW
from .actions import perform
from .common import (
    discard_draft_card,
    discard_offer,
    is_key,
    log_ability,
    pay,
    refill_offer,
    refill_rows,
)
from .drafts import do_draft, take_recipe
from .moves import draftable, is_magic_cost, servant_target, usable_action

# ----------------------------------------------------------------------------- spells

@jit
def cast_spell(S, R, B, seat, owner, ci, pay_cost, target_seat, target_ci, mark):
    """Cast owner's spell card ci for seat (through the Wizard's Spell Book: no magic ingredient
    paid, the card not marked used)."""
    if mark:
        S.est[owner, ci, C.CF_SPELL_USED] = 1
    if is_key(S, owner, ci, C.KEY_ABILITY + C.AB_SPINNING_WHEEL):
        pay(S, R, B, seat, C.CL_GRAIN, R.ab[C.AB_SPINNING_WHEEL, AF_N])
        S.pl[seat, C.PL_GOLD] += R.ab[C.AB_SPINNING_WHEEL, AF_GOLD]
        log_ability(S, R, seat, C.AB_SPINNING_WHEEL, R.ab[C.AB_SPINNING_WHEEL, AF_GOLD])
        return
    t = S.est[owner, ci, C.CF_BC]
    sc = R.bc[t, BC_SPELL_COST]
    if pay_cost or not is_magic_cost(sc):
        pay(S, R, B, seat, sc, R.bc[t, BC_SPELL_N])
    e = R.bc[t, BC_EFFECT]
    amount = R.bc[t, BC_AMOUNT]
    if e == C.E_TRANSMUTATION:
        S.pl[seat, C.PL_INV + C.MANA] += 1
    elif e == C.E_CHAOS:
        chaos(S, R, B, seat, amount)
    elif e == C.E_INTELLIGENCE:
        discard_offer(S, R)
        refill_offer(S, R)
        for _ in range(amount):
            take_recipe(S, R, B, seat, True)
        refill_offer(S, R)
    elif e == C.E_SERVANT:
        servant(S, R, B, seat, target_seat, target_ci)
    elif e == C.E_RAISE_GNOME:
        raise_gnomes(S, seat, amount)


@jit_inline
def chaos(S, R, B, seat, amount):
    """Chaos Spell: clear five draft cards, refill, then draft `amount` of the new ones free."""
    out_row, out_slot = S.tmp[0], S.tmp[1]
    k = pol.clear_picks(S, R, B, seat, out_row, out_slot)
    for a in range(k):
        discard_draft_card(S, out_row[a], out_slot[a])
    new = S.tmp[2]  # row * MAX_ROW + slot of the refilled slots, -1 once taken
    n_new = 0
    for row in range(2):
        for s in range(R.p[P_DRAFT_ROW]):
            if S.piles[C.ROW_BREWERY + row, s] < 0:
                new[n_new] = row * C.MAX_ROW + s
                n_new += 1
    refill_rows(S, R)
    opt_row, opt_slot = S.tmp[0], S.tmp[1]
    for _ in range(amount):
        n = 0
        for a in range(n_new):
            if new[a] >= 0 and draftable(S, R, seat, new[a] // C.MAX_ROW, new[a] % C.MAX_ROW, True):
                opt_row[n] = new[a] // C.MAX_ROW
                opt_slot[n] = new[a] % C.MAX_ROW
                n += 1
        if n == 0:
            break
        k = pol.pick_free_card(S, R, B, seat, opt_row, opt_slot, n)
        code = opt_row[k] * C.MAX_ROW + opt_slot[k]
        for a in range(n_new):
            if new[a] == code:
                new[a] = -1
        do_draft(S, R, B, seat, code // C.MAX_ROW, code % C.MAX_ROW, True, False)
    refill_rows(S, R)


@jit_inline
def servant(S, R, B, seat, q, oci):
    """Servant Spell: perform another player's (or one's own) action card, nothing locked."""
    if q < 0:
        opt_seat, opt_ci = S.tmp[0], S.tmp[1]
        n = 0
        for s in range(S.g[C.G_N]):
            for c in range(S.pl[s, C.PL_N_CARDS]):
                if servant_target(S, R, seat, s, c):
                    opt_seat[n] = s
                    opt_ci[n] = c
                    n += 1
        if n == 0:
            return
        k = pol.pick_servant(S, R, B, seat, opt_seat, opt_ci, n)
        q, oci = opt_seat[k], opt_ci[k]
    if usable_action(S, R, seat, q, oci, False):  # paying the spell may have used the last mana
        perform(S, R, B, seat, q, oci)


@jit
def raise_gnomes(S, seat, amount):
    """Raise Gnome Spell: gnomes back to the race card, emptying the cards that hold most first
    (ties in estate order)."""
    held = S.tmp[2]
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        held[ci] = S.est[seat, ci, C.CF_GNOME]
    moved = 0
    while moved < amount:
        best = -1
        for ci in range(S.pl[seat, C.PL_N_CARDS]):
            if held[ci] > 0 and (best < 0 or held[ci] > held[best]):
                best = ci
        if best < 0:
            return
        held[best] = 0
        while S.est[seat, best, C.CF_GNOME] > 0 and moved < amount:
            S.est[seat, best, C.CF_GNOME] -= 1
            S.pl[seat, C.PL_GNOMES_OUT] -= 1
            S.pl[seat, C.PL_GNOME_AVAIL] += 1
            moved += 1
