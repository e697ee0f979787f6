"""Dragon Brew rules, the spring phase: turns in turn order until no race card holds a brewer,
each turn a loop of legal move -> bot choice -> apply; and the free-action windows of fall and
winter, which use the same loop.

Rules implemented here (l. = line of ../shared/rules/dragon_brew.txt):
- Spring is played clockwise in turn order until every brewer is assigned or passed; a player
  without brewers still takes turns (to draft) while others have brewers, and the last placer
  finishes the turn (l. 165, 185, 251).
- After spring no spells, brewer actions or drafts: free action cards stay usable in fall and
  winter (l. 253). Each player gets one window in turn order, in fall before brewing and in
  winter before the Winter Stores cut.

Move layout: see moves.py; `apply_move` plays one row (for M_BRIBE it first asks the bot for the
amount and stores it in the move's b field, which the replay shows).
"""

from sim.core.jit import jit, jit_inline

from .. import constants as C
from .. import policies as pol
from ..state import AF_OWN_ONLY, P_CLEAR_DRAFT_COST, P_LC_DRAFT_POOL, on_race_card
from .actions import bribe, dark_sacrifice, free_action, perform
from .common import (
    LOG_CLEAR_DRAFT,
    MAX_FREE_MOVES,
    ability_of_key,
    brewer_leaves,
    log,
    log_ability,
    place,
    refund_bribe,
    take_brewer,
    trace_move,
)
from .drafts import clear_draft, do_draft
from .moves import add_move, free_usable, legal_moves
from .spells import cast_spell

# ----------------------------------------------------------------------------- applying moves

@jit
def apply_move(S, R, B, seat, mv):
    """Play move row mv for seat (S.g[C.G_FLAGS:C.G_FLAGS + 4] holds the turn state)."""
    F = S.g[C.G_FLAGS:C.G_FLAGS + 4]
    S.g[C.G_DECISIONS] += 1
    k = mv[0]
    if k == C.M_BRIBE:  # the amount, from mv[2] (the least that tops the bribe) up to mv[3]
        mv[2] = pol.bribe_amount(S, R, B, seat, mv[1], mv[2], mv[3])
    trace_move(S, R, seat, mv)
    if k == C.M_END:
        return
    if k == C.M_CLEAR:
        S.pl[seat, C.PL_GOLD] -= R.p[P_CLEAR_DRAFT_COST]
        clear_draft(S, R, B, seat)
        F[C.F_CLEARED] = 1
        log(S, seat, LOG_CLEAR_DRAFT, R.p[P_LC_DRAFT_POOL], 1)
        return
    if k == C.M_DRAFT:
        do_draft(S, R, B, seat, mv[1], mv[2], False, True)
        F[C.F_DRAFTED] = 1
        return
    if k == C.M_SPELL or k == C.M_SERVANT:
        F[C.F_FREE] += 1
        if k == C.M_SERVANT:
            cast_spell(S, R, B, seat, seat, mv[1], True, mv[2], mv[3], True)
        else:
            cast_spell(S, R, B, seat, seat, mv[1], True, -1, -1, True)
        return
    if k == C.M_FREE:
        F[C.F_FREE] += 1
        free_action(S, R, B, seat, mv[1])
        return
    if k == C.M_BRIBE:
        F[C.F_FREE] += 1
        bribe(S, R, seat, mv[1], mv[2])
        return
    if k == C.M_HOUSE:
        F[C.F_FREE] += 1
        S.pl[seat, C.PL_GNOME_AVAIL] -= 1
        S.pl[seat, C.PL_HOUSING] += 1
        return
    F[C.F_BREWER] = 1
    if k == C.M_PASS:
        brewer_leaves(S, seat, take_brewer(S, seat, mv[1], False))
        return
    ci = mv[1]
    a = ability_of_key(S.est[seat, ci, C.CF_KEY])
    own_only = a >= 0 and R.ab[a, AF_OWN_ONLY] != 0
    src = 0
    if k == C.M_BREWER:
        src = mv[2]
    elif k == C.M_GUEST:
        src = mv[4]
    place(S, seat, ci, take_brewer(S, seat, src, own_only))
    if k == C.M_BREWER:
        perform(S, R, B, seat, seat, ci)
    elif k == C.M_GUEST:
        log_ability(S, R, seat, C.AB_HORSE_GUESTS, 1)
        perform(S, R, B, seat, mv[2], mv[3])
    elif k == C.M_SACRIFICE:
        dark_sacrifice(S, R, seat, mv[2])
    elif k == C.M_OGRE:
        slot = mv[2]
        S.piles[C.ROW_OGRE, slot] = seat
        S.pl[seat, C.PL_OWN_OUT] += 1  # the brewer stands on the judge
        S.est[seat, ci, C.CF_OWN] -= 1
        refund_bribe(S, slot)  # Ogre-Ruled: the bribe goes back to its owner
        log_ability(S, R, seat, C.AB_OGRE_RULED, 1)
    elif k == C.M_SPELLBOOK:
        log_ability(S, R, seat, C.AB_SPELL_BOOK, 1)
        cast_spell(S, R, B, seat, mv[2], mv[3], False, -1, -1, False)


# ----------------------------------------------------------------------------- spring

@jit
def any_on_race_card(S):
    for s in range(S.g[C.G_N]):
        if on_race_card(S, s) > 0:
            return True
    return False


@jit
def bot_choice(S, R, B, Z, seat, n_moves):
    """The seat's bot's move among S.moves[:n_moves] (a `choose` for the loops below that never
    searches: the search bot's rollouts play with it)."""
    return pol.choose(S, R, B, seat, n_moves)


@jit_inline
def spring(S, R, B, Z, choose):
    """The spring turns. `choose(S, R, B, Z, seat, n_moves)` picks each move: search.turn_choice
    in a game (Z is the search bots' scratch, search.Search), bot_choice in a search rollout. It
    is an argument, not an import, because the search replays these very loops."""
    S.g[C.G_PHASE] = 1
    S.g[C.G_GNOMES_RAN_OUT] = 1 if S.g[C.G_GNOME_SUPPLY] == 0 else 0
    spring_from(S, R, B, Z, 0, choose)


@jit_inline
def spring_from(S, R, B, Z, k0, choose):
    """Spring's turns from position k0 of the turn order on, then full rounds until no race card
    holds a brewer."""
    guard = 0
    while any_on_race_card(S):
        for k in range(k0, S.g[C.G_N]):
            seat = S.g[C.G_ORDER + k]
            if not any_on_race_card(S) and S.pl[seat, C.PL_HOUSING] == 0:
                break
            S.g[C.G_FLAGS:C.G_FLAGS + 4] = 0
            pol.start_turn(S, R, B, seat)
            finish_turn(S, R, B, Z, seat, choose)
            S.g[C.G_TURNS] += 1
            guard += 1
            if guard > 2000 or S.g[C.G_OVERFLOW]:
                S.g[C.G_OVERFLOW] = 1
                return
            if not any_on_race_card(S):
                break
        k0 = 0


@jit_inline
def finish_turn(S, R, B, Z, seat, choose):
    """The seat's turn from its current state on: legal moves -> choose -> apply, until it ends."""
    for _ in range(10 * MAX_FREE_MOVES):
        n = legal_moves(S, R, seat)
        k = choose(S, R, B, Z, seat, n)
        apply_move(S, R, B, seat, S.moves[k])
        if S.moves[k, 0] == C.M_END or S.g[C.G_OVERFLOW]:
            return
    S.g[C.G_OVERFLOW] = 1  # a turn that never ends is a bug


# ----------------------------------------------------------------------------- free actions after spring

@jit
def window_moves(S, R, seat):
    """The moves of a fall or winter window: stop, or use a free action card."""
    n = add_move(S, 0, C.M_END, 0, 0, 0, 0)
    if S.g[C.G_FLAGS + C.F_FREE] >= MAX_FREE_MOVES:
        return n
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, ci, C.CF_KIND] == C.K_FREE and free_usable(S, R, seat, ci):
            n = add_move(S, n, C.M_FREE, ci, 0, 0, 0)
    return n


@jit
def free_window(S, R, B):
    for k in range(S.g[C.G_N]):
        seat = S.g[C.G_ORDER + k]
        if not owns_free_card(S, seat):
            continue  # no choice to make: the bot's streams stay as they were
        S.g[C.G_FLAGS:C.G_FLAGS + 4] = 0
        pol.start_turn(S, R, B, seat)
        while True:
            n = window_moves(S, R, seat)
            m = pol.choose(S, R, B, seat, n)
            apply_move(S, R, B, seat, S.moves[m])
            if S.moves[m, 0] == C.M_END or S.g[C.G_OVERFLOW]:
                break


@jit
def owns_free_card(S, seat):
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, ci, C.CF_KIND] == C.K_FREE:
            return True
    return False
