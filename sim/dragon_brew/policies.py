"""Dragon Brew bots: every choice the rules ask of a player, dispatched on the seat's bot kind.

`random` (kind random): uniform over the legal moves of every decision and uniform choices
inside actions (which grain, which recipe, which beers among the brewable ones), each drawn from
the seat's own policy stream.

`greedy` and `builder` (kind planner, weights in data/games/dragon_brew/policies.toml) are in
planner/: they plan the year's beers against the judges and value every move in
gold-equivalents.

Conventions: `S` state, `R` rules, `B` the bots' memory (planner.BotState); `seat` the player
choosing; out-arrays are scratch rows the caller owns. Recipe sources are coded as
OFFER + deck * MAX_ROW + position (an offering card) or DECK + deck (the top of a deck).
"""

from sim.core.jit import jit, jit_inline
from sim.core.rng import randint, shuffle

from . import constants as C
from . import planner as pn
from .state import (
    P_CLEAR_DRAFT_N,
    P_DRAFT_ROW,
    P_OFFERING_ROW,
    POL_RANDOM,
    RC_SPICE,
    class_range,
    pay_recipe_needs,
    recipe_needs_payable,
    wort_grains,
)

OFFER, DECK = 0, 100


@jit_inline
def stream(seat):
    return 1 + seat


@jit_inline
def is_random(S, R, seat):
    return R.pol_kind[S.pl[seat, C.PL_POLICY]] == POL_RANDOM


@jit_inline
def pick(S, seat, n):
    """A uniform index in [0, n) from the seat's policy stream."""
    return randint(S.rng, stream(seat), n)


@jit_inline
def start_turn(S, R, B, seat):
    if not is_random(S, R, seat):
        pn.start_turn(S, R, B, seat)


@jit_inline
def choose(S, R, B, seat, n_moves):
    """Index of the move to play among S.moves[:n_moves]."""
    if is_random(S, R, seat):
        return pick(S, seat, n_moves)
    return pn.choose(S, R, B, seat, n_moves)


@jit
def spend(S, R, B, seat, klass, n, out):
    """Which ingredients of a class (CL_* code) pay n: written to out, returns how many (mana
    weed pays the rest)."""
    if not is_random(S, R, seat):
        return pn.spend(S, R, B, seat, klass, n, out)
    inv = S.tmp[7]
    for i in range(C.N_INGS):
        inv[i] = S.pl[seat, C.PL_INV + i]
    k = 0
    lo, hi = class_range(klass)  # a class code (CL_*)
    for _ in range(n):
        m = 0
        for i in range(lo, hi):
            if inv[i] > 0:
                m += 1
        if m == 0:
            break
        r = pick(S, seat, m)
        for i in range(lo, hi):
            if inv[i] > 0:
                if r == 0:
                    inv[i] -= 1
                    out[k] = i
                    k += 1
                    break
                r -= 1
    return k


@jit
def grains(S, R, B, seat, n, out):
    if not is_random(S, R, seat):
        pn.grains(S, R, B, seat, n, out)
        return
    for k in range(n):
        out[k] = C.WHEAT + pick(S, seat, 3)


@jit
def magic(S, R, B, seat, n, out):
    if not is_random(S, R, seat):
        pn.magic(S, R, B, seat, n, out)
        return
    for k in range(n):
        out[k] = C.TOAD + pick(S, seat, 3)


@jit
def can_mash(S, seat, w):
    a, b = wort_grains(w)
    short = 0
    if S.pl[seat, C.PL_INV + a] < 1:
        short += 1
    if S.pl[seat, C.PL_INV + b] < 1:
        short += 1
    return short <= S.pl[seat, C.PL_INV + C.MANA]


@jit
def wort(S, R, B, seat):
    """The wort to mash next, or -1 to stop."""
    if not is_random(S, R, seat):
        return pn.wort(S, R, B, seat)
    m = 0
    for w in range(C.GREEN, C.PURPLE + 1):
        if can_mash(S, seat, w):
            m += 1
    if m == 0:
        return -1
    r = pick(S, seat, m)
    for w in range(C.GREEN, C.PURPLE + 1):
        if can_mash(S, seat, w):
            if r == 0:
                return w
            r -= 1
    return -1


@jit
def wort_any(S, R, B, seat):
    if not is_random(S, R, seat):
        return pn.wort_any(S, R, B, seat)
    return C.GREEN + pick(S, seat, 3)


@jit
def trader_count(S, R, B, seat, mult, cost):
    if not is_random(S, R, seat):
        return pn.trader_count(S, R, B, seat, mult, cost)
    return pick(S, seat, mult + 1)


@jit
def black_market_clear(S, R, B, seat):
    if not is_random(S, R, seat):
        return False
    return pick(S, seat, 2) == 0


@jit
def clear_offer(S, R, B, seat):
    if not is_random(S, R, seat):
        return False
    return pick(S, seat, 2) == 0


@jit
def guild_hire(S, R, B, seat):
    if not is_random(S, R, seat):
        return pn.guild_hire(S, R, B, seat)
    return pick(S, seat, 2) == 0


@jit
def scroll_deck(S, R, B, seat):
    """0 = barrel deck, 1 = spice deck."""
    if not is_random(S, R, seat):
        return pn.scroll_deck(S, R, B, seat)
    return pick(S, seat, 2)


@jit
def pick_free_card(S, R, B, seat, opt_row, opt_slot, n):
    """Index of the card (row, slot) to take for free among n options."""
    if not is_random(S, R, seat):
        return pn.pick_free_card(S, R, B, seat, opt_row, opt_slot, n)
    return pick(S, seat, n)


@jit
def bribe_amount(S, R, B, seat, slot, lo, hi):
    """The gold put on a corrupt judge, lo (the least that tops the standing bribe) .. hi (all
    the seat's gold): uniform for the random bot, the least for the planner."""
    if not is_random(S, R, seat):
        return lo
    return lo + pick(S, seat, hi - lo + 1)


@jit
def pick_servant(S, R, B, seat, opt_seat, opt_ci, n):
    if not is_random(S, R, seat):
        return pn.pick_servant(S, R, B, seat, opt_seat, opt_ci, n)
    return pick(S, seat, n)


@jit
def clear_picks(S, R, B, seat, out_row, out_slot):
    """The draft cards to clear (row, slot): returns how many."""
    if not is_random(S, R, seat):
        return pn.clear_picks(S, R, B, seat, out_row, out_slot)
    width = R.p[P_DRAFT_ROW]
    allpos = S.tmp[6]
    for i in range(2 * width):
        allpos[i] = i
    shuffle(allpos, 2 * width, S.rng, stream(seat))
    k = min(R.p[P_CLEAR_DRAFT_N], 2 * width)
    for i in range(k):
        out_row[i] = allpos[i] // width
        out_slot[i] = allpos[i] % width
    return k


@jit
def offer_discards(S, R, B, seat, out_deck, out_pos):
    """The five offering cards to discard when clearing it (random bot only)."""
    width = R.p[P_OFFERING_ROW]
    allpos = S.tmp[6]
    for i in range(2 * width):
        allpos[i] = i
    shuffle(allpos, 2 * width, S.rng, stream(seat))
    k = min(5, 2 * width)
    for i in range(k):
        out_deck[i] = allpos[i] // width
        out_pos[i] = allpos[i] % width
    return k


@jit
def pick_recipe(S, R, B, seat, offer_only):
    """Where the next recipe comes from: OFFER + deck * MAX_ROW + pos, or DECK + deck."""
    if not is_random(S, R, seat):
        return pn.pick_recipe(S, R, B, seat, offer_only)
    width = R.p[P_OFFERING_ROW]
    m = 0
    for d in range(2):
        for i in range(width):
            if S.piles[C.ROW_OFFER_BARREL + d, i] >= 0:
                m += 1
    total = m if offer_only else m + 2
    if total == 0:
        return DECK + 1
    r = pick(S, seat, total)
    for d in range(2):
        for i in range(width):
            if S.piles[C.ROW_OFFER_BARREL + d, i] >= 0:
                if r == 0:
                    return OFFER + d * C.MAX_ROW + i
                r -= 1
    return DECK + r


@jit
def brew(S, R, B, seat, maxn, out):
    """The beers to brew: out[k] = barrel, spice, spice... (-1 padded); returns how many."""
    if not is_random(S, R, seat):
        return pn.brew(S, R, B, seat, maxn, out)
    nb = S.pl[seat, C.PL_N_BOOK]
    book = S.tmp[5]
    for i in range(nb):
        book[i] = S.pl[seat, C.PL_BOOK + i]
    shuffle(book, nb, S.rng, stream(seat))
    inv = S.tmp[7]
    for i in range(C.N_INGS):
        inv[i] = S.pl[seat, C.PL_INV + i]
    used = S.tmp[4]
    for i in range(nb):
        used[i] = 0
    k = 0
    for a in range(nb):
        b = book[a]
        if R.rc[b, RC_SPICE] != 0:  # a spice card
            continue
        if k >= maxn:
            break
        for c in range(nb):
            s = book[c]
            if R.rc[s, RC_SPICE] == 0 or used[c]:
                continue
            pair = S.tmp[3]
            pair[0] = b
            pair[1] = s
            if recipe_needs_payable(R, inv, pair, 2):
                pay_recipe_needs(R, inv, pair, 2)
                used[c] = 1
                out[k, 0] = b
                out[k, 1] = s
                for j in range(2, out.shape[1]):
                    out[k, j] = -1
                k += 1
                break
    return k


@jit
def shadow_swap(S, R, B, seat):
    """The Dark Elf's swap as judge slot * MAX_ROW + hidden judge, or -1."""
    if not is_random(S, R, seat):
        return pn.shadow_swap(S, R, B, seat)
    if pick(S, seat, 2) == 0 or S.g[C.G_N_SHADOW] == 0:
        return -1
    slot = pick(S, seat, S.g[C.G_N_JUDGES])
    return slot * C.MAX_ROW + pick(S, seat, S.g[C.G_N_SHADOW])


@jit
def winter_keep(S, R, B, seat, cap, out):
    """The ingredients kept over winter (at most cap), written to out[:N_INGS]."""
    if not is_random(S, R, seat):
        pn.winter_keep(S, R, B, seat, cap, out)
        return
    units = S.tmp[6]
    m = 0
    for i in range(C.N_INGS):
        for _ in range(S.pl[seat, C.PL_INV + i]):
            if m < units.shape[0]:
                units[m] = i
                m += 1
    shuffle(units, m, S.rng, stream(seat))
    for i in range(C.N_INGS):
        out[i] = 0
    for k in range(min(cap, m)):
        out[units[k]] += 1


@jit
def book_keep(S, R, B, seat, m, out):
    """The recipes kept when the book is cut to m, in their new book order, into out[:m]."""
    if not is_random(S, R, seat):
        pn.book_keep(S, R, B, seat, m, out)
        return
    nb = S.pl[seat, C.PL_N_BOOK]
    for i in range(nb):
        out[i] = S.pl[seat, C.PL_BOOK + i]
    shuffle(out, nb, S.rng, stream(seat))
