"""Homebrewers game flow: 8 months of trade and action phases, Summerfest and Octoberfest, for a
batch of games. `run_chunk` is the compiled entry point (sim/core/driver.py's loop over `play` and
`record`); sim/homebrewers/__init__.py wraps it. A run none of whose bots searches plays on
`run_chunk_without_search`, the same flow without the search bot's turns, so it compiles none of
the search code.

Actions that need a decision (where grain goes, which card to draw) live here, between the pure
rules (rules.py) and the bots (policies.py).
"""

from collections import namedtuple

import numpy as np

from sim.core.driver import Counters, flag_violation, play_chunk, record_to_compile
from sim.core.jit import jit, jit_inline
from sim.core.ranking import rank_seats
from sim.core.rng import (
    STREAM_DECKS,
    STREAM_DICE,
    STREAM_POLICY,
    STREAM_SEARCH,
    randint,
    stream_seed,
)
from sim.core.rounds import record_round
from sim.core.schedule import drawn_factions, listed_factions, position, seat_bots
from sim.core.treatment import T_INJECT, T_POWER_OFF, treated_seat

from . import constants as C
from . import invariants as inv
from . import policies as pol
from . import rules as ru
from . import search as srch
from .schema import GAMES, PLAYERS
from .state import RNG_DICE0, RNG_FACTION, RNG_POL0, RNG_SEARCH0

G, P = GAMES.at, PLAYERS.at  # output column indices by name
POLS_AT, RANKS_AT = 48, 53  # S.tmp slots of the seats' bots and final ranks (MAX_PLAYERS each)
SWAPS_AT = 58  # S.tmp slots of the swaps each seat accepts in a round of open trading (accepted_swaps)

# The run inputs beyond the rules (the driver's X): the character pool drawn from, a fixed
# lineup ([-1] = draw from the pool), whether the lineup rotates across seats, and the run's
# treatment as sim/core/treatment.codes (kind code, target index), and the search bot's per-thread
# buffers (search.Search). A `remove` treatment is already in the rules' card-type map
# (state.make_rules); the kernel applies inject and power_off.
RunInputs = namedtuple("RunInputs", "pool lineup rotate treatment search")

# What an action turn reads and writes of S and R: all but the trade phase's hand cache, the
# scratch, the rounds buffer, and the tables only setup and scoring read. A compiled call
# passes every array of its tuples field by field (232 words with S and R, 170 with these),
# and an action turn makes a few hundred calls a game.
PlayState = namedtuple("PlayState", "g pl card pile board dice fl rng ev trace vals gains")
PlayRules = namedtuple("PlayRules", "p cards phys events chars judges pol_kind pol_w")


@jit_inline
def play_view(S, R):
    """The arrays of S and R an action turn uses (a view's own view is the same type)."""
    return PlayState(S.g, S.pl, S.card, S.pile, S.board, S.dice, S.fl, S.rng, S.ev, S.trace, S.vals, S.gains), \
        PlayRules(R.p, R.cards, R.phys, R.events, R.chars, R.judges, R.pol_kind, R.pol_w)


@jit_inline
def seed_streams(S, seed, game_id):
    for s in range(RNG_FACTION):  # the last slot, RNG_FACTION, is the seat schedule's scratch
        stream, sub = STREAM_DECKS, 0
        if s >= RNG_POL0:
            stream, sub = STREAM_POLICY, s - RNG_POL0
        elif s >= RNG_DICE0:
            stream, sub = STREAM_DICE, s - RNG_DICE0
        S.rng[s] = stream_seed(seed, game_id, stream, sub)
    for s in range(C.MAX_PLAYERS):  # a search bot's own stream per seat (read by no other bot)
        S.rng[RNG_SEARCH0 + s] = stream_seed(seed, game_id, STREAM_SEARCH, s)


@jit_inline
def decided(S):
    S.g[C.G_DECISIONS] += 1


@jit_inline
def assign_factions(S, R, seed, k, n, pool, lineup, n_policies, rotate):
    """Character of each seat by the seat schedule (sim/core/schedule.py) at position k: distinct
    characters of the pool, or the lineup (rotated across seats unless `rotate` is false);
    everyone `standard` in the standard variant."""
    if ru.param(R, C.P_USE_CHARACTERS) == 0 or ru.param(R, C.P_STANDARD_TILE) == 1:
        for s in range(C.MAX_PLAYERS):
            S.board[C.B_FACTION, s] = C.STANDARD
        return
    if lineup[0] >= 0:
        listed_factions(k, n, lineup, n_policies, rotate, S.board[C.B_FACTION])
    else:
        drawn_factions(seed, k, n, pool, S.tmp, S.rng, RNG_FACTION, S.board[C.B_FACTION])


@jit_inline
def apply_treatment(S, R, X, n, k, n_policies):
    """Issue 14's inject and power_off at setup, before the opening grain: the treated seat takes
    the spare card (a copy of the target, from outside the deck, so no deal or stream changes),
    or every seat holding the target character loses its power (its garage stays)."""
    S.g[C.G_TREATED] = -1
    kind, target = X.treatment[0], X.treatment[1]
    if kind == T_INJECT:
        t = treated_seat(k, n, n_policies)
        S.g[C.G_TREATED] = t
        ru.to_hand(S, t, C.SPARE)
        ru.trace(S, C.TR_INJECT, t, C.SPARE, 0, 0, 0, 0)
    elif kind == T_POWER_OFF:
        for s in range(n):
            if S.pl[s, C.FACTION] == target:
                S.pl[s, C.POWER_OFF] = 1


# --- offers (issue 14: randomised availability) -----------------------------------------------------

@jit_inline
def offer(S, R, seat, c, where):
    """One offer row: card c shown to seat by the deal alone, before any decision (amount 1).
    Later rows, draws and Evie's cards depend on play, so they are not logged: no analysis
    reads them (docs/games/homebrewers.md)."""
    ru.log_event(S, seat, R.phys[c], C.LOG_OFFER, 1, where)


@jit
def offer_row(S, R, seat):
    """The opening face-up row, offered to a seat."""
    for i in range(C.ROW):
        c = S.pile[C.PILE_ROW, i]
        if c >= 0:
            offer(S, R, seat, c, i)


@jit
def offer_opening(S, R, n):
    """Setup's offers, all fixed by the shuffle: each seat's opening hand and the opening row."""
    for s in range(n):
        for c in range(C.DECK):
            if S.card[c, 0] == C.LOC_HAND and S.card[c, 1] == s:
                offer(S, R, s, c, C.OFFER_DECK)
        offer_row(S, R, s)


# --- effects -------------------------------------------------------------------------------------

@jit
def draw_card(S, R, seat, pols, choice):
    """Draw one flavor card: choice 0..3 face-up, 4 deck (+8: pay to refresh the row first)."""
    if choice >= 8:
        if S.pl[seat, C.MONEY] >= ru.param(R, C.P_REFRESH):
            S.pl[seat, C.MONEY] -= ru.param(R, C.P_REFRESH)
            ru.refresh_row(S)
            ru.trace(S, C.TR_REFRESH, seat, 0, 0, 0, 0, 0)
        choice -= 8
    c = -1
    if choice < 4:
        c = S.pile[C.PILE_ROW, choice]
        if c >= 0:
            S.pile[C.PILE_ROW, choice] = -1
            ru.to_hand(S, seat, c)
            ru.refill_row(S)
    if c < 0:
        c = ru.draw_top(S)
        if c < 0:
            return
        ru.to_hand(S, seat, c)
    S.pl[seat, C.ST_DRAWN] += 1
    ru.log_event(S, seat, R.phys[c], C.LOG_DRAW, 1, choice)
    ru.trace(S, C.TR_DRAW, seat, c, choice, 0, 0, 0)


@jit_inline
def gain_basic(S, R, seat, pols, e, amt):
    """Money, reputation, grain, sanitize, draw: the effects allowed on track spaces. Money and
    reputation (half the gains) inline: a compiled call (170 words) costs more than they do."""
    if e == C.E_MONEY:
        S.pl[seat, C.MONEY] += amt
    elif e == C.E_REP:
        S.pl[seat, C.REP] += amt
    elif e != C.E_NONE:
        gain_more(S, R, seat, pols, e, amt)


@jit
def gain_more(S, R, seat, pols, e, amt):
    """gain_basic's grain, sanitize and draws (the first and last ask the bot)."""
    p = pols[seat]
    if e == C.E_GRAIN:
        for _ in range(amt):
            decided(S)
            r = pol.choose_grain(S, R, seat, p)
            S.pl[seat, C.GRAIN0 + r] += 1
            ru.trace(S, C.TR_GRAIN, seat, r, 0, 0, 0, 0)
    elif e == C.E_SANITIZE:
        for _ in range(amt):
            if S.pl[seat, C.COVERED] > 0:
                S.pl[seat, C.COVERED] -= 1
                ru.trace(S, C.TR_SANITIZE, seat, S.pl[seat, C.COVERED], 0, 0, 0, 0)
    elif e == C.E_DRAW:
        for _ in range(amt):
            decided(S)
            draw_card(S, R, seat, pols, pol.choose_draw(S, R, seat, p))


@jit
def move_quality(S, R, seat, pols, r, amt):
    """Move seat's marker on recipe r up by amt, stopping at 12 (or 11 if someone else locked it);
    every track space passed or landed on pays its benefit (not to Charlie). Returns levels moved."""
    q = S.pl[seat, C.Q0 + r]
    target = min(q + amt, ru.cap_for(S, seat, r))
    if target <= q:
        return np.int64(0)
    S.pl[seat, C.Q0 + r] = target
    if target == C.MAX_Q:
        S.g[C.G_LOCK0 + r] = seat
    if seat == C.CHARLIE:
        return target - q
    for lv in range(q + 1, target + 1):
        b = S.board[r, lv]
        if b > 0:
            ru.trace(S, C.TR_GAIN, seat, b // 8, b % 8, r, lv, 0)
            gain_basic(S, R, seat, pols, b // 8, b % 8)
    return target - q


@jit
def apply_top(S, R, seat, pols, r, top):
    if top == C.T_MONEY:
        S.pl[seat, C.MONEY] += 2
    elif top == C.T_REP:
        S.pl[seat, C.REP] += 1
    elif top == C.T_QUALITY:
        move_quality(S, R, seat, pols, r, 1)
    elif top == C.T_ADJACENT:  # left or right recipe (wrapping) +1 unless it is already at 6 or more
        left = (r + C.N_RECIPES - 1) % C.N_RECIPES
        right = (r + 1) % C.N_RECIPES
        ql, qr = S.pl[seat, C.Q0 + left], S.pl[seat, C.Q0 + right]
        tgt = -1
        if ql < 6 and qr < 6:
            tgt = left if ql <= qr else right
        elif ql < 6:
            tgt = left
        elif qr < 6:
            tgt = right
        if tgt >= 0:
            move_quality(S, R, seat, pols, tgt, 1)


@jit
def brew(S, R, seat, pols, r, gabriel):
    """The four brewing steps. gabriel: the Contender's brew at quality 1, no grain, no trub."""
    p = pols[seat]
    q0 = np.int64(0)
    target = np.int64(0)
    if gabriel:
        moved = move_quality(S, R, seat, pols, r, 1)
        keep = True
    else:
        lv = ru.level(S, R, seat)
        q0 = S.pl[seat, C.Q0 + r]
        target = min(q0 + lv, ru.cap_for(S, seat, r))
        keep = False
        decided(S)
        if pol.andrew_keeps(S, R, seat, p):
            keep = True
            S.pl[seat, C.POWER_USED] = 1
            S.pl[seat, C.MONEY] -= ru.param(R, C.P_POWER)
            S.pl[seat, C.ST_POWERS] += 1
            ru.log_event(S, seat, R.cards.shape[0] + C.ANDREW, C.LOG_POWER, ru.param(R, C.P_POWER), r)
            ru.trace(S, C.TR_POWER, seat, C.ANDREW, r, 0, 0, 0)
        # step 1: move (the spaces passed pay in step 4, after the flavors)
        S.pl[seat, C.Q0 + r] = target
        if target == C.MAX_Q:
            S.g[C.G_LOCK0 + r] = seat
        moved = target - q0
        # step 2: the grain becomes trub on the leftmost uncovered spot (unless Andrew keeps it)
        if not keep:
            S.pl[seat, C.GRAIN0 + r] -= 1
            S.pl[seat, C.COVERED] += 1
    S.pl[seat, C.ST_BREWS] += 1
    ru.log_event(S, seat, R.cards.shape[0] + C.SPECIAL_BREW + r, C.LOG_BREW, moved, r)
    ru.trace(S, C.TR_BREW, seat, r, moved, S.pl[seat, C.Q0 + r], 1 if gabriel else 0, 1 if keep else 0)
    # step 3: flavor tops under this recipe (a +1 quality top pays the spaces it passes at once;
    # no card comes to lie under a recipe meanwhile, so the set found first holds them all)
    under = ru.cards_of(S, C.LOC_RECIPE, seat)
    while under != 0:
        c = ru.first_card(under)
        under = ru.drop_first(under)
        if S.card[c, 2] == r:
            apply_top(S, R, seat, pols, r, R.cards[R.phys[c], C.CF_TOP])
    if not gabriel:
        # step 4: the track spaces the main move passed or landed on
        for lv in range(q0 + 1, target + 1):
            b = S.board[r, lv]
            if b > 0:
                ru.trace(S, C.TR_GAIN, seat, b // 8, b % 8, r, lv, 0)
                gain_basic(S, R, seat, pols, b // 8, b % 8)


@jit
def gain_effect(S, R, seat, pols, e, amt):
    p = pols[seat]
    if e < C.BASIC_EFFECTS and e != C.E_QUALITY_LOWEST:
        gain_basic(S, R, seat, pols, e, amt)
    elif e == C.E_QUALITY_LOWEST:
        for _ in range(amt):
            decided(S)
            r = pol.lowest_choice(S, R, seat, p)
            if r >= 0:
                move_quality(S, R, seat, pols, r, 1)
    elif e == C.E_BREW:
        for _ in range(amt):
            decided(S)
            r = pol.choose_brew(S, R, seat, p)
            if r >= 0:
                brew(S, R, seat, pols, r, False)
    elif e == C.E_SAN_GRAIN:
        gain_basic(S, R, seat, pols, C.E_SANITIZE, 1)
        gain_basic(S, R, seat, pols, C.E_GRAIN, 1)
    elif e == C.E_COPY:
        decided(S)
        c = pol.copy_choice(S, R, seat, p)
        if c >= 0:
            apply_top(S, R, seat, pols, S.card[c, 2], R.cards[R.phys[c], C.CF_TOP])


@jit_inline
def do_event(S, R, seat, pols, ev, bottom):
    if bottom:
        S.pl[seat, C.MONEY] -= ru.param(R, C.P_EVENT_BOTTOM)
        gain_effect(S, R, seat, pols, R.events[ev, C.EV_BOT], R.events[ev, C.EV_BOT_N])
        gain_effect(S, R, seat, pols, R.events[ev, C.EV_BOT2], R.events[ev, C.EV_BOT2_N])
    else:
        gain_effect(S, R, seat, pols, R.events[ev, C.EV_TOP], R.events[ev, C.EV_TOP_N])
    ru.trace(S, C.TR_EVENT, seat, ev, 1 if bottom else 0, 0, 0, 0)


@jit_inline
def act(S, R, seat, pols, a, choice):
    """Resolve one action die (or extra action) of face a. choice: the bot's choice + 1 when it
    made it already (pol.need_of_use: for a Brew die the recipe, for a Flavor die the move),
    0 to choose now. Sanitize and grain go straight to gain_more: a compiled call less (170
    words pushed) for two of the die's six faces."""
    if a == C.SANITIZE:
        gain_more(S, R, seat, pols, C.E_SANITIZE, 1)
    elif a == C.GRAIN:
        gain_more(S, R, seat, pols, C.E_GRAIN, 1)
    else:
        take_action(S, R, seat, pols, a, choice)


@jit
def take_action(S, R, seat, pols, a, choice):
    """act's Brew, Event and Flavor actions."""
    p = pols[seat]
    if a == C.BREW:
        decided(S)
        r = choice - 1 if choice > 0 else pol.choose_brew(S, R, seat, p)
        if r >= 0:
            brew(S, R, seat, pols, r, False)
    elif a == C.EVENT:
        ev = S.board[C.B_EVENTS, S.g[C.G_MONTH]]
        decided(S)
        do_event(S, R, seat, pols, ev, pol.event_bottom(S, R, seat, p, ev))
    else:
        decided(S)
        move = choice - 1 if choice > 0 else pol.choose_flavor(S, R, seat, p)
        if move < 0 or move >= pol.DRAW_MOVE:
            decided(S)
            draw_card(S, R, seat, pols, move - pol.DRAW_MOVE if move >= 0 else pol.choose_draw(S, R, seat, p))
        else:
            c, t = move // 8, move % 8
            if t < 4:
                S.card[c, 0] = C.LOC_RECIPE
                S.card[c, 2] = t
                ru.add_flavor(S, R, seat, t, c, 1)
                S.pl[seat, C.ST_TOP] += 1
                ru.log_event(S, seat, R.phys[c], C.LOG_TOP, 1, t)
                ru.trace(S, C.TR_PLAY_TOP, seat, c, t, 0, 0, 0)
            else:
                ru.discard(S, c)
                S.pl[seat, C.ST_BOTTOM] += 1
                ru.log_event(S, seat, R.phys[c], C.LOG_BOTTOM, 1, 4)
                ru.trace(S, C.TR_PLAY_BOTTOM, seat, c, 0, 0, 0, 0)
                gain_effect(S, R, seat, pols, R.cards[R.phys[c], C.CF_BOTTOM], R.cards[R.phys[c], 4])


@jit
def use_power(S, R, seat, pols):
    p = pols[seat]
    ch = S.pl[seat, C.FACTION]
    S.pl[seat, C.POWER_USED] = 1
    S.pl[seat, C.MONEY] -= ru.param(R, C.P_POWER)
    S.pl[seat, C.ST_POWERS] += 1
    a = -1
    if ch == C.ANANYA:
        a = ru.roll_face(S, R, RNG_DICE0 + seat)
        S.pl[seat, C.EXTRA_DIE] = a
    elif ch == C.COLT:
        decided(S)
        V, VR = pol.power_view(S, R)
        m = pol.best_revealed_event(V, VR, seat, p)
        ev = S.board[C.B_EVENTS, m]
        a = ev
        gain_effect(S, R, seat, pols, R.events[ev, C.EV_TOP], R.events[ev, C.EV_TOP_N])
    elif ch == C.EVIE:
        c1 = ru.draw_top(S)
        c2 = ru.draw_top(S)
        if c1 >= 0:
            decided(S)
            keep = pol.evie_keep(S, R, seat, p, c1, c2)
            other = c2 if keep == c1 else c1
            ru.to_hand(S, seat, keep)
            S.pl[seat, C.ST_DRAWN] += 1
            ru.log_event(S, seat, R.phys[keep], C.LOG_DRAW, 1, 5)
            if other >= 0:
                ru.discard(S, other)
            a = keep
    elif ch == C.GABRIEL:
        decided(S)
        r = pol.lowest_choice(S, R, seat, p)
        a = r
        if r >= 0:
            brew(S, R, seat, pols, r, True)
    elif ch == C.KATHERINE:
        a = S.pl[seat, C.COVERED]
        S.pl[seat, C.COVERED] = 0
    elif ch == C.TONY:
        decided(S)
        r = pol.lowest_choice(S, R, seat, p)
        a = r
        if r >= 0:
            move_quality(S, R, seat, pols, r, 1)
    ru.log_event(S, seat, R.cards.shape[0] + ch, C.LOG_POWER, ru.param(R, C.P_POWER), a)
    ru.trace(S, C.TR_POWER, seat, ch, a, 0, 0, 0)


@jit_inline
def resolve_step(S, R, seat, pols, step):
    """One step of an action turn, step = choice * STEP_CHOICE + kind * 64 + a * 8 + b (see
    STEP_*): a die of face a used, changed to b, forgone, the power, the extra action of face a
    (a die used and the extra action with the bot's choice + 1, if it made it), or Ananya's
    extra die of face a (b = 1 to use it). Inline in the turn's loop, as is pol.next_step: a
    compiled call passes all of S and R, and a game takes about 140 steps."""
    kind, a, b = (step // 64) % 8, (step // 8) % 8, step % 8
    V, VR = play_view(S, R)
    use = False  # an action of face a to resolve (one call site of act for the three kinds)
    if kind == C.STEP_USE:
        S.dice[seat, a] -= 1
        ru.trace(S, C.TR_DIE, seat, a, 0, 0, 0, 0)
        use = True
    elif kind == C.STEP_CHANGE:
        S.dice[seat, a] -= 1
        S.dice[seat, b] += 1
        S.pl[seat, C.MONEY] -= ru.param(R, C.P_CHANGE)
        S.pl[seat, C.ST_CHANGES] += 1
        ru.trace(S, C.TR_CHANGE, seat, a, b, 0, 0, 0)
    elif kind == C.STEP_FORGO:
        S.dice[seat, a] -= 1
        S.pl[seat, C.MONEY] += ru.param(R, C.P_FORGO)
        S.pl[seat, C.ST_FORGONE] += 1
        ru.trace(S, C.TR_FORGO, seat, a, 0, 0, 0, 0)
    elif kind == C.STEP_POWER:
        use_power(V, VR, seat, pols)
    elif kind == C.STEP_EXTRA:
        S.pl[seat, C.EXTRA_USED] = 1
        S.pl[seat, C.MONEY] -= ru.param(R, C.P_EXTRA)
        S.pl[seat, C.ST_EXTRAS] += 1
        ru.log_event(S, seat, R.cards.shape[0] + C.SPECIAL_EXTRA, C.LOG_EXTRA, ru.param(R, C.P_EXTRA), a)
        ru.trace(S, C.TR_EXTRA, seat, a, 0, 0, 0, 0)
        use = True
    else:  # Ananya's extra die: used (b = 1, when legal) or let go; never changed or sold
        S.pl[seat, C.EXTRA_DIE] = -1
        use = b == 1 and pol.legal_use(S, R, seat, a)
        ru.trace(S, C.TR_DIE, seat, a, 1, 0 if use else 1, 0, 0)
    if use:
        act(V, VR, seat, pols, a, step // C.STEP_CHOICE)


@jit_inline
def action_turn(S, R, seat, pols):
    """Seat's action turn, greedy or random (play_turn on play_view's arrays)."""
    V, VR = play_view(S, R)
    play_turn(V, VR, seat, pols)


@jit
def play_turn(S, R, seat, pols):
    """action_turn's steps."""
    p = pols[seat]
    for _ in range(60):  # a turn has at most ~10 steps; the bound only guards against a bot bug
        decided(S)
        step = pol.next_step(S, R, seat, p)
        if (step // 64) % 8 == C.STEP_DONE:
            break
        resolve_step(S, R, seat, pols, step)
    end_turn(S, R, seat)


@jit_inline
def end_turn(S, R, seat):
    """Unresolved dice (only after a turn's guard, or a rollout's `done` step) are forgone."""
    for a in range(C.N_ACTIONS):
        while S.dice[seat, a] > 0:
            S.dice[seat, a] -= 1
            S.pl[seat, C.MONEY] += ru.param(R, C.P_FORGO)
    S.pl[seat, C.EXTRA_DIE] = -1


# --- trade phase -------------------------------------------------------------------------------------

@jit
def reroll_own(S, R, s, pols, force):
    """Seat s re-rolls its triple if it wants to (or, with force, because it just made one to
    re-roll). Returns whether it did."""
    if ru.triple(S, s):
        decided(S)
        if force or pol.wants_reroll(S, R, s, pols[s], s):
            ru.roll_dice(S, R, s, RNG_DICE0 + s, 3)
            ru.trace(S, C.TR_REROLL, s, S.dice[s, 0], S.dice[s, 1], S.dice[s, 2], S.dice[s, 3], S.dice[s, 4])
            return True
    return False


@jit
def reroll_triples(S, R, n, pols):
    """Every seat's reroll_own; returns the seats that re-rolled, one bit per seat."""
    rolled = 0
    for s in range(n):
        if reroll_own(S, R, s, pols, False):
            rolled |= 1 << s
    return rolled


@jit_inline
def change_to_reroll(S, R, s, pols):
    """Trade phase: seat s may pay $1 to change a die, here to complete a triple and re-roll it.
    Inline in trade_phase, its one caller: a compiled call passes all of S and R."""
    decided(S)
    V, VR = pol.trade_view(S, R)
    code = pol.trade_change(V, VR, s, pols[s])
    if code < 0:
        return
    a, b = code // 8, code % 8
    S.dice[s, a] -= 1
    S.dice[s, b] += 1
    S.pl[s, C.MONEY] -= ru.param(R, C.P_CHANGE)
    S.pl[s, C.ST_CHANGES] += 1
    ru.trace(S, C.TR_CHANGE, s, a, b, 1, 0, 0)
    reroll_own(S, R, s, pols, True)


@jit
def do_trade(S, R, i, j, a, b):
    """Seat i gives a die showing a for j's die showing b (j may be Charlie)."""
    S.dice[i, a] -= 1
    S.dice[i, b] += 1
    S.dice[j, b] -= 1
    S.dice[j, a] += 1
    S.pl[i, C.ST_TRADES] += 1
    S.g[C.G_TRADES] += 1
    ru.log_event(S, i, R.cards.shape[0] + C.SPECIAL_TRADE, C.LOG_TRADE, a, b)
    if j < C.MAX_PLAYERS:
        S.pl[j, C.ST_TRADES] += 1
        ru.log_event(S, j, R.cards.shape[0] + C.SPECIAL_TRADE, C.LOG_TRADE, b, a)
    ru.trace(S, C.TR_TRADE, i, j, a, b, 0, 0)


@jit_inline
def swap_cell(seat, give, get):
    """Where player_trades keeps seat's gain from giving a die showing `give` for one showing
    `get` (S.vals, from V_SWAP on); seat s's cells run from swap_cell(s, 0, 0) to swap_cell(s + 1, 0, 0)."""
    return C.V_SWAP + (seat * C.N_ACTIONS + give) * C.N_ACTIONS + get


@jit_inline
def accepted_swaps(S, R, seat, p):
    """The swaps seat accepts with its dice now, as bits: give * N_ACTIONS + get for giving a face
    it holds for another one (bits 0-24), and the same swaps as a partner makes them,
    get * N_ACTIONS + give (bits 32-56), so that a pair's possible trades are one AND (SWAPS_AT).
    The heuristic accepts a gain above its margin (its swap_cell, from pol.swap_gains), a random
    bot any swap (its coin is tossed once a trade is picked)."""
    mine, partners = 0, 0
    for give in range(C.N_ACTIONS):
        if S.dice[seat, give] == 0:
            continue
        for get in range(C.N_ACTIONS):
            if get != give and (pol.is_random(R, p) or S.vals[swap_cell(seat, give, get)] > R.pol_w[p, C.W_TRADE_MARGIN]):
                mine |= 1 << (give * C.N_ACTIONS + get)
                partners |= 1 << (get * C.N_ACTIONS + give)
    return mine | (partners << 32)


@jit
def player_trades(S, R, n, pols):
    """Open trading: the pair and faces with the largest joint gain that both accept, repeatedly
    (ties: the first pair, then face given, then face taken).
    A seat's gain from a swap does not depend on its partner, and nothing changes the dice while
    one round's proposals are compared, so each seat's gains (pol.swap_gains) and the swaps it
    accepts are worked out once a round, and again only after its dice changed (a trade or a
    re-roll). The cells of a face the seat does not hold are stale, and never read."""
    moved = (1 << n) - 1  # the seats whose dice changed since their swap gains were worked out
    for _ in range(ru.param(R, C.P_MAX_TRADES)):
        moved |= reroll_triples(S, R, n, pols)
        best, bi, bj, ba, bb = -1e9, -1, -1, -1, -1
        for i in range(n):
            if moved & (1 << i) != 0:
                if not pol.is_random(R, pols[i]):
                    V, VR = pol.trade_view(S, R)
                    pol.swap_gains(V, VR, i, pols[i], S.vals[swap_cell(i, 0, 0):swap_cell(i + 1, 0, 0)])
                S.tmp[SWAPS_AT + i] = accepted_swaps(S, R, i, pols[i])
        moved = 0
        for i in range(n):
            for j in range(i + 1, n):
                both = S.tmp[SWAPS_AT + i] & (S.tmp[SWAPS_AT + j] >> 32)  # i gives a, j gives b
                if both == 0:
                    continue  # mostly: no swap both would accept
                for cell in range(C.N_ACTIONS * C.N_ACTIONS):  # a, then b, ascending
                    if (both >> cell) & 1 == 0:
                        continue
                    a, b = cell // C.N_ACTIONS, cell % C.N_ACTIONS
                    gi = 0.0 if pol.is_random(R, pols[i]) else S.vals[swap_cell(i, a, b)]
                    gj = 0.0 if pol.is_random(R, pols[j]) else S.vals[swap_cell(j, b, a)]
                    if gi + gj > best:
                        best, bi, bj, ba, bb = gi + gj, i, j, a, b
        if bi < 0:
            break
        # a random bot in the pair decides by coin
        decided(S)
        if pol.is_random(R, pols[bi]) and not pol.accepts(S, R, bi, pols[bi], ba, bb):
            break
        decided(S)
        if pol.is_random(R, pols[bj]) and not pol.accepts(S, R, bj, pols[bj], bb, ba):
            break
        do_trade(S, R, bi, bj, ba, bb)
        moved = (1 << bi) | (1 << bj)
    reroll_triples(S, R, n, pols)


@jit_inline
def charlie_phase(S, R, pols):
    """2 players: the start player rolls Charlie's dice, then the turns of trading with him."""
    ru.roll_dice(S, R, C.CHARLIE, RNG_DICE0 + C.CHARLIE, 3)
    ru.trace(S, C.TR_ROLL, C.CHARLIE, S.dice[C.CHARLIE, 0], S.dice[C.CHARLIE, 1], S.dice[C.CHARLIE, 2],
             S.dice[C.CHARLIE, 3], S.dice[C.CHARLIE, 4])
    charlie_turns(S, R, pols)


@jit
def charlie_turns(S, R, pols):
    """Turns from the start player until both pass in a row: on their turn a player may re-roll
    their own triple (allowed at any time of the trade phase) and Charlie's, then trade one die
    with Charlie or pass. Returns the number of turns taken."""
    start = S.g[C.G_START]
    passes = 0
    turn = 0
    while passes < 2 and turn < ru.param(R, C.P_CHARLIE_TURNS):
        s = (start + turn) % 2
        turn += 1
        reroll_own(S, R, s, pols, False)
        if ru.triple(S, C.CHARLIE):
            decided(S)
            if pol.wants_reroll(S, R, s, pols[s], C.CHARLIE):
                ru.roll_dice(S, R, C.CHARLIE, RNG_DICE0 + C.CHARLIE, 3)
                ru.trace(S, C.TR_REROLL, C.CHARLIE, S.dice[C.CHARLIE, 0], S.dice[C.CHARLIE, 1],
                         S.dice[C.CHARLIE, 2], S.dice[C.CHARLIE, 3], S.dice[C.CHARLIE, 4])
        decided(S)
        code = pol.charlie_trade(S, R, s, pols[s])
        if code < 0:
            passes += 1
        else:
            passes = 0
            do_trade(S, R, s, C.CHARLIE, code // 8, code % 8)
    return turn


@jit_inline
def charlie_advance(S, R, pols):
    pos = S.g[C.G_CHARLIE_POS] % C.CHARLIE_DECK
    S.g[C.G_CHARLIE_POS] += 1
    card = S.board[C.B_CHARLIE, pos]
    V, VR = play_view(S, R)
    moved = 0
    for r in range(C.N_RECIPES):
        amt = R.charlie[card, r]
        if amt > 0:
            moved += move_quality(V, VR, C.CHARLIE, pols, r, amt)
    skip = 0
    if moved == 0:  # he cannot move on this card: +1 on every other recipe instead
        skip = 1
        S.g[C.G_CHARLIE_SKIPS] += 1
        for r in range(C.N_RECIPES):
            if R.charlie[card, r] == 0:
                move_quality(V, VR, C.CHARLIE, pols, r, 1)
    ru.trace(S, C.TR_CHARLIE, C.CHARLIE, card, skip, S.pl[C.CHARLIE, C.Q0], S.pl[C.CHARLIE, C.Q0 + 1],
             S.pl[C.CHARLIE, C.Q0 + 2] * 16 + S.pl[C.CHARLIE, C.Q0 + 3])


@jit_inline
def charlie_reshuffle(S):
    """After Summerfest Charlie's five cards are shuffled back into one stack."""
    shuffle_n = C.CHARLIE_DECK
    t = S.tmp
    for i in range(shuffle_n):
        t[i] = S.board[C.B_CHARLIE, i]
    for k in range(shuffle_n - 1, 0, -1):
        j = randint(S.rng, 0, k + 1)
        x = t[k]
        t[k] = t[j]
        t[j] = x
    for i in range(shuffle_n):
        S.board[C.B_CHARLIE, i] = t[i]
    S.g[C.G_CHARLIE_POS] = 0


@jit_inline
def trade_phase(S, R, n, pols):
    for s in range(n):
        pol.prep_trade(S, R, s, pols[s])
    for s in range(n):
        ru.roll_dice(S, R, s, RNG_DICE0 + s, 3)
        ru.trace(S, C.TR_ROLL, s, S.dice[s, 0], S.dice[s, 1], S.dice[s, 2], S.dice[s, 3], S.dice[s, 4])
    for s in range(n):
        change_to_reroll(S, R, s, pols)
    if n == 2:
        charlie_phase(S, R, pols)
    player_trades(S, R, n, pols)
    if n == 2:
        charlie_advance(S, R, pols)


# --- scoring -----------------------------------------------------------------------------------------

@jit
def festival(S, R, n, fest):
    out = S.tmp[40:46]
    ru.award_medals(S, R, n, fest, out)
    for s in range(n):
        S.pl[s, C.REP] += out[s]
        if out[s] > 0:
            ru.log_event(S, s, R.cards.shape[0] + C.SPECIAL_MEDAL, C.LOG_MEDAL, out[s], fest)
        if fest == 0:
            S.pl[s, C.SUMMER_REP] = out[s]
        else:
            S.pl[s, C.MEDAL_REP] = out[s]
            S.pl[s, C.GOLD] = S.tmp[16 + 4 * s]
            S.pl[s, C.SILVER] = S.tmp[17 + 4 * s]
            S.pl[s, C.BRONZE] = S.tmp[18 + 4 * s]
            S.pl[s, C.HONORABLE] = S.tmp[19 + 4 * s]
    if fest == 1:
        for s in range(n):
            for r in range(C.N_RECIPES):
                S.pl[s, C.OCT_Q0 + r] = S.pl[s, C.Q0 + r]
            j = ru.judges_total(S, R, s, False)
            S.pl[s, C.JUDGE_REP] = j
            S.pl[s, C.REP] += j
            if j > 0:
                ru.log_event(S, s, R.cards.shape[0] + C.SPECIAL_JUDGE, C.LOG_JUDGE, j, 0)
            ru.trace(S, C.TR_JUDGE, s, j, 0, 0, 0, 0)


@jit_inline
def verify(S, R, n, check, phase):
    S.g[C.G_PHASE] = phase  # the invariants read it: some hold only between certain phases
    return check and flag_violation(S.g, C.G_VIOLATION, C.G_PHASE, inv.check_all(S, R, n), phase)


@jit_inline
def record_month(S, n, game_id, month):
    """Every seat's reputation at the end of this month (1-based) -> the rounds buffer."""
    record_round(S.rnd, S.g, C.G_ROUNDS, C.G_OVERFLOW, game_id, month, S.pl, C.REP, n)


@jit
def setup_game(S, R, X, n, pols, seed, game_id, k, n_policies):
    """Game `game_id` at schedule position k up to its first month: counters, streams, characters,
    board and players, the opening offers, the run's treatment, then one grain each in turn order."""
    kept_events, kept_trace, kept_rounds = S.g[C.G_EVENTS], S.g[C.G_TRACE], S.g[C.G_ROUNDS]
    for i in range(C.N_G):
        S.g[i] = 0
    S.g[C.G_EVENTS], S.g[C.G_TRACE], S.g[C.G_ROUNDS] = kept_events, kept_trace, kept_rounds
    S.g[C.G_N] = n
    S.g[C.G_GAME] = game_id
    seed_streams(S, seed, game_id)
    assign_factions(S, R, seed, k, n, X.pool, X.lineup, n_policies, X.rotate)
    ru.setup_board(S, R, n)
    ru.setup_players(S, R, n)
    for s in range(C.N_ROWS):
        S.pl[s, C.EXTRA_DIE] = -1
    offer_opening(S, R, n)
    ru.trace(S, C.TR_SETUP, -1, S.board[C.B_JUDGES, 1], S.board[C.B_JUDGES, 2], S.board[C.B_JUDGES, 3],
             S.board[C.B_JUDGES, 4], 0)
    apply_treatment(S, R, X, n, k, n_policies)
    V, VR = play_view(S, R)
    for _ in range(ru.param(R, C.P_START_GRAIN)):
        for s in range(n):
            gain_basic(V, VR, s, pols, C.E_GRAIN, 1)


@jit_inline
def begin_month(S, R, n, pols, m):
    """A month's start: the start player, this month's flags, the trade phase."""
    S.g[C.G_MONTH] = m
    start = m % n
    S.g[C.G_START] = start
    ru.trace(S, C.TR_MONTH, start, m, S.board[C.B_EVENTS, m], 0, 0, 0)
    for s in range(n):
        S.pl[s, C.POWER_USED] = 0
        S.pl[s, C.EXTRA_USED] = 0
    trade_phase(S, R, n, pols)


@jit_inline
def end_month(S, R, n, m):
    """After the action phase: the festival of June or October (Charlie's cards reshuffled after June)."""
    if m == C.SUMMERFEST:
        festival(S, R, n, 0)
        if n == 2:
            charlie_reshuffle(S)
    elif m == C.OCTOBERFEST:
        festival(S, R, n, 1)


# --- the search bot's rollouts (policy kind search; sim/homebrewers/search.py) ------------------

@jit_inline
def play_rest(S, R, n, pols, m0, k0, last):
    """A rollout's resume point: continue a copied game from the k0-th action turn of month m0
    (turn order from that month's start player) to the end of month `last`, festivals included;
    no invariant checks and no rounds rows (the scratch state's buffers are not output)."""
    for m in range(m0, last + 1):
        if m > m0:
            begin_month(S, R, n, pols, m)
        start = S.g[C.G_START]
        for k in range(k0 if m == m0 else 0, n):
            action_turn(S, R, (start + k) % n, pols)
            if S.g[C.G_OVERFLOW]:
                return
        end_month(S, R, n, m)


@jit
def rollout(S, R, Q, n, seat, m, k, step, world):
    """One rollout of `step` for seat, whose k-th turn of month m it is, in the sampled world
    `world` (search.reseed): the value (search.rollout_value) of the game greedy plays on from it
    in the scratch state Q.T."""
    p = S.tmp[POLS_AT + seat]
    T = Q.T
    srch.copy_state(S, T)
    srch.reseed(T, world)
    srch.determinise(T, Q, n)
    if (step // 64) % 8 == C.STEP_DONE:
        end_turn(T, R, seat)
    else:
        resolve_step(T, R, seat, Q.pols, step)
        action_turn(T, R, seat, Q.pols)  # the rest of this turn, greedy
    last = min(m + srch.knob(R, p, C.W_HORIZON), C.OCTOBERFEST)
    play_rest(T, R, n, Q.pols, m, k + 1, last)
    return srch.rollout_value(T, R, n, seat, last == C.OCTOBERFEST, R.pol_w[p, C.W_MARGIN])


@jit
def search_step(S, R, Q, n, pols, seat, m, k):
    """The step the search bot takes next: greedy's, unless `budget` rollouts find a better mean.
    The rollouts go in sweeps over the candidates (search.candidates), one sampled world per
    sweep shared by all of them (common random numbers). Forced steps cost no rollout."""
    p = pols[seat]
    greedy_step = pol.next_step(S, R, seat, p)
    budget = srch.knob(R, p, C.W_BUDGET)
    nc = srch.candidates(S, R, Q, seat, p, greedy_step, srch.knob(R, p, C.W_CANDIDATES))
    if budget <= 1 or nc <= 1:
        return greedy_step
    srch.rollout_seats(Q, n, p)
    for i in range(nc):
        Q.total[i] = 0.0
        Q.visits[i] = 0
    done = 0
    while done < budget:  # one sweep per world (no `world = 0` before: int64 | uint64 types as float64)
        world = srch.next_world(S, seat)
        for i in range(min(nc, budget - done)):
            Q.total[i] += rollout(S, R, Q, n, seat, m, k, Q.cand[i], world)
            Q.visits[i] += 1
        done += min(nc, budget - done)
    S.pl[seat, C.SEARCH_ROLLOUTS] += budget
    return srch.pick(Q, nc)


@jit_inline
def search_turn(S, R, Q, n, pols, seat, m, k):
    """The search bot's action turn: action_turn's loop with each step chosen by search_step."""
    for _ in range(60):
        decided(S)
        step = search_step(S, R, Q, n, pols, seat, m, k)
        if (step // 64) % 8 == C.STEP_DONE:
            break
        resolve_step(S, R, seat, pols, step)
    end_turn(S, R, seat)


@jit
def play_game(S, R, X, n, pols, seed, game_id, check, k, n_policies, search):
    """Play one whole game. `search` is the search bot's buffers (X.search), or None in the
    kernel without search: numba then drops the search branch before typing it, so none of
    the search code is compiled."""
    setup_game(S, R, X, n, pols, seed, game_id, k, n_policies)
    if verify(S, R, n, check, C.PH_SETUP):
        return
    for m in range(C.MONTHS):
        begin_month(S, R, n, pols, m)
        if verify(S, R, n, check, C.PH_TRADE):
            return
        start = S.g[C.G_START]
        for k in range(n):
            seat = (start + k) % n
            if search is not None and R.pol_kind[pols[seat]] == C.KIND_SEARCH:
                search_turn(S, R, search, n, pols, seat, m, k)
            else:
                action_turn(S, R, seat, pols)
            if S.g[C.G_OVERFLOW]:
                return
        if verify(S, R, n, check, C.PH_ACTION):
            return
        end_month(S, R, n, m)
        if m == C.SUMMERFEST and verify(S, R, n, check, C.PH_SUMMER):
            return
        if m == C.OCTOBERFEST and verify(S, R, n, check, C.PH_OCTOBER):
            return
        record_month(S, n, game_id, m + 1)
    for s in range(n):
        ru.trace(S, C.TR_SCORE, s, S.pl[s, C.REP], S.pl[s, C.SUMMER_REP], S.pl[s, C.MEDAL_REP],
                 S.pl[s, C.JUDGE_REP], S.pl[s, C.MONEY])


@jit_inline
def seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, search):
    """Seat game `game_id` by the seat schedule (bots, then characters from X) and play it;
    returns its player count."""
    n = counts[game_id % counts.shape[0]]
    k = position(game_id, counts)
    pols = S.tmp[POLS_AT:POLS_AT + C.MAX_PLAYERS]
    seat_bots(k, n, seat_policies, pols)
    play_game(S, R, X, n, pols, seed, game_id, check, k, seat_policies.shape[0], search)
    return n


@jit_inline
def play(S, R, X, seed, game_id, counts, seat_policies, check):
    """The driver's `play`, every bot."""
    return seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, X.search)


@jit_inline
def play_without_search(S, R, X, seed, game_id, counts, seat_policies, check):
    """The driver's `play` for a run none of whose bots searches."""
    return seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, None)


@jit
def record(S, R, X, game_id, n, game_row, player_rows, win_rows):
    """Rank by reputation, then Octoberfest golds, silvers, bronzes (exact ties share the win),
    and fill the game's output rows (schema.py)."""
    ranks = S.tmp[RANKS_AT:RANKS_AT + C.MAX_PLAYERS]
    winners = rank_seats(S.pl, n, (C.REP, C.GOLD, C.SILVER, C.BRONZE), ranks, win_rows)
    for s in range(n):
        row = player_rows[s]
        row[P.game_id] = game_id
        row[P.seat] = s
        row[P.faction] = S.pl[s, C.FACTION]
        row[P.policy] = S.tmp[POLS_AT + s]
        row[P.score] = S.pl[s, C.REP]
        row[P.rank] = ranks[s]
        row[P.money] = S.pl[s, C.MONEY]
        for k in range(len(C.PLAYER_STATS)):
            row[P.powers_used + k] = S.pl[s, C.ST_POWERS + k]
        row[P.search_rollouts] = S.pl[s, C.SEARCH_ROLLOUTS]
    game_row[G.game_id] = game_id
    game_row[G.n_players] = n
    game_row[G.rounds] = C.MONTHS
    game_row[G.decisions] = S.g[C.G_DECISIONS]
    game_row[G.end_reason] = 0
    game_row[G.n_winners] = winners
    game_row[G.trades] = S.g[C.G_TRADES]
    game_row[G.treated_seat] = S.g[C.G_TREATED]


COUNTERS = Counters(C.G_EVENTS, C.G_ROUNDS, C.G_OVERFLOW, C.G_VIOLATION)


@jit
def run_chunk(S, R, X, seed, first_game, n_games, counts, seat_policies, games, players, wins,
              events_per_game_max, rounds_per_game_max, check):
    """The compiled entry point: sim/core/driver.py's loop over Homebrewers' play and record."""
    return play_chunk(play, record, COUNTERS, S, R, X, seed, first_game, n_games, counts, seat_policies,
                      games, players, wins, events_per_game_max, rounds_per_game_max, check)


@jit
def run_chunk_without_search(S, R, X, seed, first_game, n_games, counts, seat_policies, games, players, wins,
                             events_per_game_max, rounds_per_game_max, check):
    """run_chunk for a run none of whose bots searches: the same games, without compiling the
    search bot's rollouts."""
    return play_chunk(play_without_search, record, COUNTERS, S, R, X, seed, first_game, n_games, counts,
                      seat_policies, games, players, wins, events_per_game_max, rounds_per_game_max, check)


def compile_ahead(S, R, X):
    """The big functions of this kernel's call tree, in the order it reaches them (callees
    first), with arguments of the types it passes: a cold compile shares them between two
    processes (sim/core/ahead.py). A turn's functions take the view play_view makes."""
    V, VR = play_view.py_func(S, R)
    pols = S.tmp[POLS_AT:POLS_AT + C.MAX_PLAYERS]
    return [(gain_more, (V, VR, 0, pols, 0, 0)),
            (setup_game, (S, R, X, 0, pols, np.uint64(0), 0, 0, 0)),
            (inv.check_all, (S, R, 0)),
            (pol.trade_change, (*pol.trade_view.py_func(S, R), 0, 0)),
            (reroll_own, (S, R, 0, pols, False)),
            (charlie_turns, (S, R, pols)),
            (player_trades, (S, R, 0, pols)),
            (pol.random_step, (V, VR, 0, 0)),
            (pol.power_now, (*pol.power_view.py_func(V, VR), 0, 0, 0)),
            (brew, (V, VR, 0, pols, 0, False)),
            (gain_effect, (V, VR, 0, pols, 0, 0)),
            (use_power, (V, VR, 0, pols)),
            (take_action, (V, VR, 0, pols, 0, 0)),
            (play_turn, (V, VR, 0, pols)),
            (festival, (S, R, 0, 0)),
            record_to_compile(record, S, R, X, GAMES, PLAYERS)]
