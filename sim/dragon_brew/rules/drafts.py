"""Dragon Brew rules, cards coming into play: clearing and drafting the drafting pool, Brewery
cards joining the estate, Event cards resolving, and recipes joining the book.

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt):
- Clearing the draft: pay, discard five cards of the pool, refill (l. 169).
- A drafted Brewery card joins the estate, an upgrade goes under its target card (l. 193, 285);
  a drafted Event card pays out at once and is discarded (l. 183, 271-277), a brewer quest keeps
  the brewer away for the year (l. 276).
- Migrant Gnomes come from the box while it has purple meeples (l. 228, 275); Free Gnomes lets
  another race hire one when someone drafts them (l. 588).
- Brewer's Study: optionally clear offering cards (paying), take recipes from the offering or
  the decks, refill (l. 305-307); Recipe Scrolls draw from a deck (l. 277).
"""

from sim.core.jit import jit

from .. import constants as C
from .. import policies as pol
from ..state import (
    AF_GOLD,
    BC_AMOUNT,
    BC_COST,
    BC_INFINITE,
    BC_KIND,
    BC_TARGET,
    EF_BREWER,
    EF_COST,
    EF_GAIN_GOLD,
    EF_GAIN_KIND,
    EF_GAIN_N,
    EF_GAIN_RECIPES,
    EF_GAIN_VP,
    EF_KIND,
    EF_PAY_KIND,
    EF_PAY_N,
    P_CLEAR_OFFERING_COST,
    P_LC_COMMON,
    P_LC_EVENT,
    find_card,
    has_ability,
)
from .common import (
    LOG_DRAFT_BREWERY,
    LOG_DRAFT_EVENT,
    LOG_RESEARCH,
    add_card,
    add_to_book,
    brewer_leaves,
    brewery_code,
    discard_draft_card,
    draw_recipe,
    gain_grains,
    gain_magic,
    log,
    log_ability,
    pay,
    push,
    refill_offer,
    refill_rows,
    score,
    stat,
    take_brewer,
)

# ----------------------------------------------------------------------------- drafting and events

@jit
def clear_draft(S, R, B, seat):
    out_row, out_slot = S.tmp[0], S.tmp[1]
    k = pol.clear_picks(S, R, B, seat, out_row, out_slot)
    for a in range(k):
        discard_draft_card(S, out_row[a], out_slot[a])
    refill_rows(S, R)


@jit
def do_draft(S, R, B, seat, row, slot, free, refill):
    if row == 0:
        t = S.piles[C.ROW_BREWERY, slot]
        S.piles[C.ROW_BREWERY, slot] = -1
        cost = 0 if free else R.bc[t, BC_COST]
        S.pl[seat, C.PL_GOLD] -= cost
        add_brewery_card(S, R, seat, t)
        log(S, seat, LOG_DRAFT_BREWERY, brewery_code(R, t), cost)
        stat(S, seat, C.ST_CARDS_DRAFTED, 1)
    else:
        t = S.piles[C.ROW_EVENT, slot]
        S.piles[C.ROW_EVENT, slot] = -1
        cost = 0 if free else R.evt[t, EF_COST]
        S.pl[seat, C.PL_GOLD] -= cost
        log(S, seat, LOG_DRAFT_EVENT, R.p[P_LC_EVENT] + t, cost)
        stat(S, seat, C.ST_CARDS_DRAFTED, 1)
        resolve_event(S, R, B, seat, t)
    if refill:
        refill_rows(S, R)


@jit
def add_brewery_card(S, R, seat, t):
    if R.bc[t, BC_KIND] == C.K_UPGRADE:
        ci = find_card(S, seat, R.bc[t, BC_TARGET])
        if ci < 0:  # the target was sacrificed: the upgrade has nothing to go under
            S.g[C.G_BOX_BREWERY] += 1
            return
        u = S.est[seat, ci, C.CF_N_UP]
        if u >= C.MAX_UP:
            S.g[C.G_OVERFLOW] = 1
            return
        S.est[seat, ci, C.CF_UP + u] = t
        S.est[seat, ci, C.CF_N_UP] = u + 1
        return
    add_card(S, seat, C.KEY_BREWERY + t, t, R.bc[t, BC_KIND], R.bc[t, BC_INFINITE])
    if R.bc[t, BC_KIND] == C.K_HOUSING and S.g[C.G_GNOME_SUPPLY] > 0:
        gnome_from_supply(S)
        S.pl[seat, C.PL_HOUSING] += R.bc[t, BC_AMOUNT]


@jit
def resolve_event(S, R, B, seat, t):
    kind = R.evt[t, EF_KIND]
    if kind == C.EV_FESTIVAL:
        pay(S, R, B, seat, R.evt[t, EF_PAY_KIND], R.evt[t, EF_PAY_N])
    if kind == C.EV_MIGRANT:
        gnome_from_supply(S)
        S.pl[seat, C.PL_GNOME_AVAIL] += 1
        push(S, C.PILE_EDISC, t)
        gnome_guild(S, R, B, seat)
        return
    if kind == C.EV_QUEST and R.evt[t, EF_BREWER]:
        brewer_leaves(S, seat, take_brewer(S, seat, 0, False))
        q = S.pl[seat, C.PL_N_QUESTS]
        if q >= C.MAX_QUESTS:
            S.g[C.G_OVERFLOW] = 1
            return
        S.pl[seat, C.PL_QUESTS + q] = t
        S.pl[seat, C.PL_N_QUESTS] = q + 1
    else:
        push(S, C.PILE_EDISC, t)
    if kind == C.EV_SCROLL:
        for _ in range(R.evt[t, EF_GAIN_RECIPES]):
            r = draw_recipe(S, pol.scroll_deck(S, R, B, seat))
            if r >= 0:
                add_to_book(S, seat, r)
    S.pl[seat, C.PL_GOLD] += R.evt[t, EF_GAIN_GOLD]
    score(S, seat, R.evt[t, EF_GAIN_VP], C.ST_VP_QUESTS)
    gk, gn = R.evt[t, EF_GAIN_KIND], R.evt[t, EF_GAIN_N]
    if gk == C.GK_EACH_GRAIN:
        for i in range(3):
            S.pl[seat, C.PL_INV + C.WHEAT + i] += gn
    elif gk == C.GK_GRAIN:
        gain_grains(S, R, B, seat, gn)
    elif gk == C.GK_MAGIC:
        gain_magic(S, R, B, seat, gn)
    elif gk == C.GK_WORT:
        for _ in range(gn):
            S.pl[seat, C.PL_INV + pol.wort_any(S, R, B, seat)] += 1


@jit
def gnome_from_supply(S):
    """One purple meeple leaves the box; once the box is empty no Migrant Gnomes may be drafted
    for the rest of the season, even if gnomes come back (passed or drained)."""
    S.g[C.G_GNOME_SUPPLY] -= 1
    if S.g[C.G_GNOME_SUPPLY] == 0:
        S.g[C.G_GNOMES_RAN_OUT] = 1


@jit
def gnome_guild(S, R, B, seat):
    """Free Gnomes: when another player drafts Migrant Gnomes, they may hire one too."""
    fee = R.ab[C.AB_GNOME_GUILD, AF_GOLD]
    for q in range(S.g[C.G_N]):
        if (q != seat and has_ability(S, q, C.AB_GNOME_GUILD) and S.g[C.G_GNOME_SUPPLY] > 0
                and S.pl[q, C.PL_GOLD] >= fee and pol.guild_hire(S, R, B, q)):
            S.pl[q, C.PL_GOLD] -= fee
            gnome_from_supply(S)
            S.pl[q, C.PL_GNOME_AVAIL] += 1
            log_ability(S, R, q, C.AB_GNOME_GUILD, 1)


# ----------------------------------------------------------------------------- recipes

@jit
def take_recipe(S, R, B, seat, offer_only):
    """One recipe for seat from where its bot says (an offering card or the top of a deck)."""
    src = pol.pick_recipe(S, R, B, seat, offer_only)
    if src < pol.DECK:
        d, pos = src // C.MAX_ROW, src % C.MAX_ROW
        r = S.piles[C.ROW_OFFER_BARREL + d, pos]
        if r >= 0:
            add_to_book(S, seat, r)
            S.piles[C.ROW_OFFER_BARREL + d, pos] = -1
            return
        if offer_only:
            return
    else:
        d = src - pol.DECK
    r = draw_recipe(S, d)
    if r >= 0:
        add_to_book(S, seat, r)


@jit
def research(S, R, B, seat, n):
    """Brewer's Study: optionally clear five of the offering (1 gold), take n recipes from the
    offering or the decks, then refill the offering."""
    if S.pl[seat, C.PL_GOLD] >= R.p[P_CLEAR_OFFERING_COST] and pol.clear_offer(S, R, B, seat):
        S.pl[seat, C.PL_GOLD] -= R.p[P_CLEAR_OFFERING_COST]
        out_deck, out_pos = S.tmp[0], S.tmp[1]
        k = pol.offer_discards(S, R, B, seat, out_deck, out_pos)
        for a in range(k):
            r = S.piles[C.ROW_OFFER_BARREL + out_deck[a], out_pos[a]]
            if r >= 0:
                push(S, C.PILE_RDISC_BARREL + out_deck[a], r)
            S.piles[C.ROW_OFFER_BARREL + out_deck[a], out_pos[a]] = -1
        refill_offer(S, R)
    for _ in range(n):
        take_recipe(S, R, B, seat, False)
    refill_offer(S, R)
    log(S, seat, LOG_RESEARCH, R.p[P_LC_COMMON] + C.STUDY, n)
