"""Dragon Brew rules, what an action card does when a brewer is assigned to it, free action cards,
and the bribe.

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt):
- The common cards: Grain Fields (with its upgrades), Brewer's Study, Brewery (raises the beers
  brewed), Magic Trader, Mash House with its action multiplier (l. 236-247, 305-311); a Brewery
  action card gives its ingredient (l. 283).
- The race abilities that act: Fertile Fields, Sacred Grove, Arcane Library, Mash Stomper, Gold
  Mine, Borrower, Black Market (l. 510-514), Mana Spell (l. 542), Dark Sacrifice (the card and its
  upgrades leave the game, its brewers come back).
- Free action cards: Tavern, Farmer's Market, Sea Port, Drain Gnome (l. 289).
- Corrupt Judge variant: placing a bribe refunds the one it outbids (l. 766-768).
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from .. import policies as pol
from ..state import (
    AF_GOLD,
    AF_N,
    BC_AMOUNT,
    BC_EFFECT,
    BC_ING,
    P_CLEAR_DRAFT_COST,
    P_DRAFT_ROW,
    P_LC_DRAFT_POOL,
    P_LC_JUDGE,
    P_WORT_PER_MASH,
    RF_GRAIN_YIELD,
    RF_TRADER_COST,
    has_ability,
    mash_mult,
    race_num,
    study_draw,
    take_one,
    trader_mult,
    wort_grains,
)
from .common import (
    LOG_BRIBE,
    LOG_CLEAR_DRAFT,
    LOG_SACRIFICE_CARD,
    can_mash,
    card_code,
    effect_of,
    gain_grains,
    gain_magic,
    log,
    log_ability,
    pay,
    refund_bribe,
    remove_card,
)
from .drafts import clear_draft, do_draft, research
from .moves import draftable

# ----------------------------------------------------------------------------- brewer actions

@jit
def perform(S, R, B, seat, owner, ci):
    """The action of owner's estate card ci (with owner's upgrades and numbers) performed for seat."""
    key = S.est[owner, ci, C.CF_KEY]
    if key == C.GRAIN_FIELDS:
        grain_fields(S, R, B, seat, owner, ci)
    elif key == C.STUDY:
        if has_ability(S, owner, C.AB_ARCANE_LIBRARY):
            S.pl[seat, C.PL_GOLD] += R.ab[C.AB_ARCANE_LIBRARY, AF_GOLD]
            if owner == seat:
                log_ability(S, R, seat, C.AB_ARCANE_LIBRARY, R.ab[C.AB_ARCANE_LIBRARY, AF_GOLD])
        research(S, R, B, seat, study_draw(S, R, owner))
    elif key == C.BREWERY:
        pass  # a brewer on the Brewery raises the beers the player may brew this fall
    elif key == C.MAGIC_TRADER:
        cost = race_num(S, R, owner, RF_TRADER_COST)
        n = pol.trader_count(S, R, B, seat, trader_mult(S, R, owner), cost)
        n = min(n, S.pl[seat, C.PL_GOLD] // cost)
        picks = S.tmp[3]
        pol.magic(S, R, B, seat, n, picks)
        for a in range(n):
            S.pl[seat, C.PL_GOLD] -= cost
            S.pl[seat, C.PL_INV + picks[a]] += 1
    elif key == C.MASH_HOUSE:
        made = 0
        for _ in range(mash_mult(S, R, owner)):
            w = pol.wort(S, R, B, seat)
            if w < 0 or not can_mash(S, seat, w):
                break
            a, b = wort_grains(w)
            inv = S.pl[seat, C.PL_INV:C.PL_INV + C.N_INGS]
            take_one(inv, a)
            take_one(inv, b)
            S.pl[seat, C.PL_INV + w] += R.p[P_WORT_PER_MASH]
            made += 1
        if has_ability(S, owner, C.AB_MASH_STOMPER) and owner == seat and made:
            log_ability(S, R, seat, C.AB_MASH_STOMPER, made)
    elif S.est[owner, ci, C.CF_BC] >= 0:  # a Brewery action card: gain its ingredient
        t = S.est[owner, ci, C.CF_BC]
        S.pl[seat, C.PL_INV + R.bc[t, BC_ING]] += R.bc[t, BC_AMOUNT]
    elif key == C.KEY_ABILITY + C.AB_GOLD_MINE:
        S.pl[seat, C.PL_GOLD] += R.ab[C.AB_GOLD_MINE, AF_GOLD]
        log_ability(S, R, seat, C.AB_GOLD_MINE, R.ab[C.AB_GOLD_MINE, AF_GOLD])
    elif key == C.KEY_ABILITY + C.AB_BORROWER:
        S.pl[seat, C.PL_GOLD] += R.ab[C.AB_BORROWER, AF_GOLD]
        gain_grains(S, R, B, seat, R.ab[C.AB_BORROWER, AF_N])
        log_ability(S, R, seat, C.AB_BORROWER, R.ab[C.AB_BORROWER, AF_GOLD])
    elif key == C.KEY_ABILITY + C.AB_BLACK_MARKET:
        black_market(S, R, B, seat)
    elif key == C.KEY_ABILITY + C.AB_MANA_SPELL:
        S.pl[seat, C.PL_INV + C.MANA] -= 1
        reset = 0
        for k in range(S.pl[seat, C.PL_N_CARDS]):
            if S.est[seat, k, C.CF_KIND] == C.K_SPELL and S.est[seat, k, C.CF_SPELL_USED]:
                S.est[seat, k, C.CF_SPELL_USED] = 0
                reset += 1
        log_ability(S, R, seat, C.AB_MANA_SPELL, reset)


@jit
def grain_fields(S, R, B, seat, owner, ci):
    """Grains of the owner's Grain Fields with its upgrades and race power, for seat."""
    gain_grains(S, R, B, seat, race_num(S, R, owner, RF_GRAIN_YIELD))
    for u in range(S.est[owner, ci, C.CF_N_UP]):
        t = S.est[owner, ci, C.CF_UP + u]
        e = R.bc[t, BC_EFFECT]
        if e == C.E_GRAIN_ANY:
            gain_grains(S, R, B, seat, R.bc[t, BC_AMOUNT])
        elif e == C.E_GRAIN_WHEAT or e == C.E_GRAIN_RYE or e == C.E_GRAIN_BARLEY:
            S.pl[seat, C.PL_INV + C.WHEAT + e - C.E_GRAIN_WHEAT] += R.bc[t, BC_AMOUNT]
    if has_ability(S, owner, C.AB_FERTILE_FIELDS):
        gain_grains(S, R, B, seat, R.ab[C.AB_FERTILE_FIELDS, AF_N])
        if owner == seat:
            log_ability(S, R, seat, C.AB_FERTILE_FIELDS, R.ab[C.AB_FERTILE_FIELDS, AF_N])
    if has_ability(S, owner, C.AB_SACRED_GROVE):
        gain_magic(S, R, B, seat, R.ab[C.AB_SACRED_GROVE, AF_N])
        if owner == seat:
            log_ability(S, R, seat, C.AB_SACRED_GROVE, R.ab[C.AB_SACRED_GROVE, AF_N])


@jit_inline
def black_market(S, R, B, seat):
    """Goblin: optionally clear the draft again (paying), then draft one card for free."""
    if pol.black_market_clear(S, R, B, seat) and S.pl[seat, C.PL_GOLD] >= R.p[P_CLEAR_DRAFT_COST]:
        S.pl[seat, C.PL_GOLD] -= R.p[P_CLEAR_DRAFT_COST]
        clear_draft(S, R, B, seat)
        log(S, seat, LOG_CLEAR_DRAFT, R.p[P_LC_DRAFT_POOL], 1)
    opt_row, opt_slot = S.tmp[0], S.tmp[1]
    n = 0
    for row in range(2):
        for s in range(R.p[P_DRAFT_ROW]):
            if draftable(S, R, seat, row, s, True):
                opt_row[n] = row
                opt_slot[n] = s
                n += 1
    if n:
        k = pol.pick_free_card(S, R, B, seat, opt_row, opt_slot, n)
        row, slot = opt_row[k], opt_slot[k]
        log_ability(S, R, seat, C.AB_BLACK_MARKET, 1)
        do_draft(S, R, B, seat, row, slot, True, True)


@jit
def dark_sacrifice(S, R, seat, tci):
    """Chaos Wytch: an estate card goes to the box with its upgrades; its brewers come back now."""
    own = S.est[seat, tci, C.CF_OWN]
    gnome = S.est[seat, tci, C.CF_GNOME]
    S.pl[seat, C.PL_OWN_AVAIL] += own
    S.pl[seat, C.PL_GNOME_AVAIL] += gnome
    S.pl[seat, C.PL_GNOMES_OUT] -= gnome
    S.pl[seat, C.PL_SACRIFICED] += 1
    bc = S.est[seat, tci, C.CF_BC]
    S.g[C.G_BOX_BREWERY] += S.est[seat, tci, C.CF_N_UP] + (1 if bc >= 0 else 0)
    code = card_code(R, S.est[seat, tci, C.CF_KEY], bc)
    remove_card(S, seat, tci)
    log_ability(S, R, seat, C.AB_DARK_SACRIFICE, own + gnome)
    log(S, seat, LOG_SACRIFICE_CARD, code, 1)


@jit
def free_action(S, R, B, seat, ci):
    key = S.est[seat, ci, C.CF_KEY]
    if effect_of(S, R, seat, ci) == C.E_TAVERN:
        pay(S, R, B, seat, C.CL_GRAIN, R.bc[S.est[seat, ci, C.CF_BC], BC_AMOUNT])
        S.pl[seat, C.PL_GOLD] += 1
    elif key == C.KEY_ABILITY + C.AB_FARMERS_MARKET:
        S.pl[seat, C.PL_GOLD] -= R.ab[C.AB_FARMERS_MARKET, AF_GOLD]
        gain_grains(S, R, B, seat, R.ab[C.AB_FARMERS_MARKET, AF_N])
        log_ability(S, R, seat, C.AB_FARMERS_MARKET, R.ab[C.AB_FARMERS_MARKET, AF_N])
    elif key == C.KEY_ABILITY + C.AB_SEA_PORT:
        S.pl[seat, C.PL_GOLD] -= R.ab[C.AB_SEA_PORT, AF_GOLD]
        pay(S, R, B, seat, C.CL_GRAIN, R.ab[C.AB_SEA_PORT, AF_N])
        S.pl[seat, C.PL_INV + pol.wort_any(S, R, B, seat)] += 1
        log_ability(S, R, seat, C.AB_SEA_PORT, 1)
    elif key == C.KEY_ABILITY + C.AB_DRAIN_GNOME:
        if S.pl[seat, C.PL_GNOME_AVAIL] > 0:
            S.pl[seat, C.PL_GNOME_AVAIL] -= 1
        else:
            S.pl[seat, C.PL_HOUSING] -= 1
        S.g[C.G_GNOME_SUPPLY] += 1
        S.pl[seat, C.PL_INV + C.MANA] += R.ab[C.AB_DRAIN_GNOME, AF_N]
        log_ability(S, R, seat, C.AB_DRAIN_GNOME, 1)


@jit
def bribe(S, R, seat, slot, amount):
    """Place a bribe on a corrupt judge; an outbid bribe goes back to its owner."""
    refund_bribe(S, slot)
    S.pl[seat, C.PL_GOLD] -= amount
    S.piles[C.ROW_BRIBE_SEAT, slot] = seat
    S.piles[C.ROW_BRIBE_GOLD, slot] = amount
    S.pl[seat, C.PL_BRIBE_SLOT] = slot
    S.pl[seat, C.PL_BRIBE_GOLD] = amount
    log(S, seat, LOG_BRIBE, R.p[P_LC_JUDGE] + S.piles[C.ROW_JUDGES, slot], amount)
