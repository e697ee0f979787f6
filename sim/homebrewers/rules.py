"""Homebrewers rules (after the rulebook in shared/rules/homebrewers.txt), as small numba functions.

Paraphrase of the game, as modelled here:
  Setup: 4 of 11 judge tiles join the pre-printed "twice the lowest recipe" judge; 8 of 12 quality
  tiles cover levels 4-7 and 8-11 of the four recipe tracks; 6 of 8 event tiles go face down on the
  six non-festival months (June is Summerfest, October Octoberfest); four flavor cards lie face up.
  Everyone gets 3 dice, $2, trub on the two leftmost sanitization spots of their garage, 2 flavor
  cards, and places one grain on a recipe in turn order. With 2 players Charlie joins: 5 of his 10
  cards form his deck and he has 3 dice.
  A month: the event is revealed; everyone rolls 3 dice; dice are traded one for one (bots propose
  swaps both sides gain from); three matching dice may be re-rolled at any time of the trade phase;
  $1 changes a die in the trade phase too (bots do it to complete a triple and re-roll it). With
  two players, the players first take turns trading single dice with Charlie (re-rolling their own
  triple and his first if they like) until both pass in a row, and Charlie's top card advances his
  quality markers (if he cannot move on it at all, +1 on every other recipe instead).
  Actions, from the start player round the table: each die is one action (any order), $1 changes a
  die, a die may be forgone for $2, one extra action a month costs $3, a character power costs $1
  once per action phase (Ananya's extra die is used or let go, never changed or sold). Sanitize removes the rightmost trub; Event takes the month's top action or
  pays $2 for the bottom; Grain goes at once onto one recipe; Flavor draws a card (face-up row or
  deck; $1 first refreshes the row) or plays one from hand (discarded for its bottom benefit, or
  under a recipe for its top benefit on every brew of that recipe); Brew moves a recipe up by the
  leftmost uncovered sanitization level, the grain turns into trub covering that spot, the recipe's
  flavor tops trigger, and every track space passed or landed on pays its benefit. Level 12 locks
  the gold medal: nobody else may reach it, and a recipe that cannot move cannot be brewed.
  June and October end with medals per recipe (ties add the tied places and split rounded down;
  level 0 never scores; Charlie takes places but not the win); October adds the judges. Most
  reputation wins; ties: most Octoberfest golds, then silvers, then bronzes, else shared.
"""

from collections import namedtuple

import numpy as np

from sim.core.jit import PLAIN_PYTHON, jit, jit_inline
from sim.core.rng import randint, shuffle
from sim.core.rows import next_row, put7, put_trace8, tracing

from . import constants as C


@jit_inline
def param(R, i):
    return np.int64(R.p[i])


@jit_inline
def trace(S, code, seat, a, b, c, d, e):
    """Append one replay row when tracing: move code, month, seat, five arguments."""
    if tracing(S.trace):  # a replay
        put_trace8(S.trace, S.g, C.G_TRACE, C.G_OVERFLOW, code, S.g[C.G_MONTH], seat, a, b, c, d, e)


@jit  # compiled once: it is called from 17 places (inlined, numba re-read it at each)
def log_event(S, seat, card, kind, amount, target):
    """Append one events-table row (sim/core/schema.py events_table order), month 1-based."""
    i = next_row(S.ev, S.g, C.G_EVENTS, C.G_OVERFLOW)
    put7(S.ev, i, S.g[C.G_GAME], seat, S.g[C.G_MONTH] + 1, card, kind, amount, target)


# --- garages ------------------------------------------------------------------------------------

@jit_inline
def n_slots(S, R, seat):
    return R.chars[S.pl[seat, C.FACTION], C.CH_SLOTS]


@jit_inline
def level(S, R, seat):
    """Quality of the leftmost uncovered sanitization spot (0 when all are covered)."""
    cov = S.pl[seat, C.COVERED]
    if cov >= n_slots(S, R, seat):
        return np.int64(0)
    return R.chars[S.pl[seat, C.FACTION], C.CH_LEVEL + cov]


@jit_inline
def has_power(S, R, seat):
    """Seat's character power is in play: the characters variant, a character, and no power_off
    treatment on it."""
    return param(R, C.P_USE_CHARACTERS) == 1 and S.pl[seat, C.FACTION] < C.STANDARD and S.pl[seat, C.POWER_OFF] == 0


@jit_inline
def cap_for(S, seat, r):
    """Highest level seat may reach on recipe r: 12 unless someone else locked it."""
    lk = S.g[C.G_LOCK0 + r]
    if lk >= 0 and lk != seat:
        return np.int64(C.MAX_Q - 1)
    return np.int64(C.MAX_Q)


@jit_inline
def can_move(S, seat, r):
    return S.pl[seat, C.Q0 + r] < cap_for(S, seat, r)


@jit_inline
def can_brew(S, R, seat, r):
    return S.pl[seat, C.GRAIN0 + r] > 0 and level(S, R, seat) > 0 and can_move(S, seat, r)


@jit_inline
def any_brew(S, R, seat):
    for r in range(C.N_RECIPES):
        if can_brew(S, R, seat, r):
            return True
    return False


@jit_inline
def lowest_q(S, seat):
    lo = S.pl[seat, C.Q0]
    for r in range(1, C.N_RECIPES):
        lo = min(lo, S.pl[seat, C.Q0 + r])
    return lo


@jit_inline
def cards_of(S, loc, seat):
    """The cards at location loc (LOC_HAND, LOC_RECIPE) that seat holds, as bits (1 << c): one
    pass without a branch per card (a branch on each card's location and owner mispredicts
    often); walk them in card order with first_card and drop_first."""
    m = np.int64(0)
    for c in range(C.CARD_SLOTS):
        m |= np.int64((S.card[c, 0] == loc) & (S.card[c, 1] == seat)) << c
    return m


if PLAIN_PYTHON:  # numba's intrinsic runs only compiled
    def trailing_zeros(m):
        return (int(m) & -int(m)).bit_length() - 1
else:
    from numba.cpython.unsafe.numbers import trailing_zeros


@jit_inline
def first_card(m):
    """The lowest card of a non-empty set of cards_of."""
    return np.int64(trailing_zeros(m))


@jit_inline
def drop_first(m):
    """The set of cards_of without its lowest card."""
    return m & (m - 1)


# --- dice -----------------------------------------------------------------------------------------

@jit_inline
def roll_face(S, R, stream):
    x = randint(S.rng, stream, 6)
    for a in range(C.N_ACTIONS):
        x -= R.p[C.P_FACE0 + a]
        if x < 0:
            return np.int64(a)
    return np.int64(C.BREW)


@jit
def roll_dice(S, R, row, stream, k):
    for a in range(C.N_ACTIONS):
        S.dice[row, a] = 0
    for _ in range(k):
        S.dice[row, roll_face(S, R, stream)] += 1


@jit_inline
def dice_left(S, row):
    k = 0
    for a in range(C.N_ACTIONS):
        k += S.dice[row, a]
    return k


@jit_inline
def triple(S, row):
    for a in range(C.N_ACTIONS):
        if S.dice[row, a] == 3:
            return True
    return False


# --- flavor deck -------------------------------------------------------------------------------------

@jit
def draw_top(S):
    """Top card of the deck (the discards are reshuffled in when it runs out), or -1."""
    if S.g[C.G_DECK_N] == 0:
        nd = S.g[C.G_DISC_N]
        for i in range(nd):
            S.pile[C.PILE_DECK, i] = S.pile[C.PILE_DISC, i]
            S.card[S.pile[C.PILE_DISC, i], 0] = C.LOC_DECK
        S.g[C.G_DISC_N] = 0
        S.g[C.G_DECK_N] = nd
        shuffle(S.pile[C.PILE_DECK], nd, S.rng, 0)
        if nd == 0:
            return np.int64(-1)
    S.g[C.G_DECK_N] -= 1
    return S.pile[C.PILE_DECK, S.g[C.G_DECK_N]]


@jit_inline
def discard(S, c):
    S.card[c, 0] = C.LOC_DISCARD
    S.card[c, 1] = -1
    S.card[c, 2] = -1
    S.pile[C.PILE_DISC, S.g[C.G_DISC_N]] = c
    S.g[C.G_DISC_N] += 1


@jit
def refill_row(S):
    for i in range(C.ROW):
        if S.pile[C.PILE_ROW, i] < 0:
            c = draw_top(S)
            S.pile[C.PILE_ROW, i] = c
            if c >= 0:
                S.card[c, 0] = C.LOC_ROW
                S.card[c, 1] = -1


@jit_inline
def add_flavor(S, R, seat, r, c, d):
    """Count card c under seat's recipe r (d = +1) or take it off (d = -1); the neutral card has
    no flavor kind and is never counted."""
    kind = R.cards[R.phys[c], C.CF_KIND]
    if kind < C.N_KINDS:
        S.fl[seat, r, kind] += d


@jit_inline
def to_hand(S, seat, c):
    S.card[c, 0] = C.LOC_HAND
    S.card[c, 1] = seat
    S.card[c, 2] = -1


@jit_inline
def refresh_row(S):
    for i in range(C.ROW):
        c = S.pile[C.PILE_ROW, i]
        if c >= 0:
            discard(S, c)
            S.pile[C.PILE_ROW, i] = -1
    refill_row(S)


# --- scoring -----------------------------------------------------------------------------------------

@jit_inline
def judge_value(S, R, seat, j):
    """Reputation judge j gives seat (Octoberfest)."""
    kind = R.judges[j, C.JF_KIND]
    fk = R.judges[j, C.JF_FLAVOR]
    mn = R.judges[j, C.JF_MIN]
    rep = R.judges[j, C.JF_REP]
    fl = S.fl[seat]
    if kind == C.J_LOWEST:
        return rep * lowest_q(S, seat)
    total = 0
    per = 0
    for r in range(C.N_RECIPES):
        t = fl[r, 0] + fl[r, 1] + fl[r, 2]
        total += t
        if kind == C.J_RECIPE_ALL_KINDS:
            if fl[r, 0] >= 1 and fl[r, 1] >= 1 and fl[r, 2] >= 1:
                per += 1
        elif kind == C.J_RECIPE_KIND:
            if fl[r, fk] >= mn:
                per += 1
        elif kind == C.J_RECIPE_TOTAL:
            if t >= mn:
                per += 1
        elif kind == C.J_SPREAD:
            if t >= mn:
                per += 1
    if kind == C.J_TOTAL:
        return rep if total >= mn else 0
    if kind == C.J_EACH_KIND:
        for k in range(C.N_KINDS):
            s = fl[0, k] + fl[1, k] + fl[2, k] + fl[3, k]
            if s < mn:
                return 0
        return rep
    if kind == C.J_TOTAL_KIND:
        s = fl[0, fk] + fl[1, fk] + fl[2, fk] + fl[3, fk]
        return rep if s >= mn else 0
    if kind == C.J_SPREAD:
        return rep if per >= R.judges[j, C.JF_RECIPES] else 0
    return rep * per


# What judges_total reads: a compiled call passes every array of its tuples field by field
# (all of S and R: 232 words a call; work_out_gains makes 13 calls each time).
JudgeState = namedtuple("JudgeState", "pl board fl")
JudgeRules = namedtuple("JudgeRules", "judges")


@jit_inline
def judges_total(S, R, seat, skip_lowest):
    """Reputation the judges in play give seat (all but the lowest-recipe one when skip_lowest)."""
    return judges_sum(JudgeState(S.pl, S.board, S.fl), JudgeRules(R.judges), seat, skip_lowest)


@jit  # compiled once: inlined, its judge_value body was re-read and typed at each caller
def judges_sum(S, R, seat, skip_lowest):
    """judges_total, on the arrays it reads."""
    tot = 0
    for i in range(C.N_JUDGES_IN_PLAY):
        j = S.board[C.B_JUDGES, i]
        if skip_lowest and R.judges[j, C.JF_KIND] == C.J_LOWEST:
            continue
        tot += judge_value(S, R, seat, j)
    return tot


@jit_inline
def medal_group(n):
    if n <= 3:
        return 0
    return n - 3


@jit
def award_medals(S, R, n, fest, out):
    """Medals of one festival (fest 0 Summerfest, 1 Octoberfest): fills out[row] with reputation
    won and S.tmp[16 + 4 * row + place] counts (place 0..3 gold..honorable), rows include Charlie
    (row 5) in 2-player games. Ties: each tied competitor gets the sum of the places they span,
    divided by their number, rounded down; the next competitor takes the place after the span."""
    grp = medal_group(n)
    for row in range(C.N_ROWS):
        out[row] = 0
    for i in range(16, 16 + 4 * C.N_ROWS):
        S.tmp[i] = 0
    for r in range(C.N_RECIPES):
        place = 0
        prev = C.MAX_Q + 1
        while place < C.N_PLACES:
            # best quality strictly below prev among competitors
            best = 0
            for row in range(C.N_ROWS):
                if row >= n and not (row == C.CHARLIE and n == 2):
                    continue
                q = S.pl[row, C.Q0 + r]
                if q < prev and q > best:
                    best = q
            if best == 0:
                break
            k = 0
            for row in range(C.N_ROWS):
                if row >= n and not (row == C.CHARLIE and n == 2):
                    continue
                if S.pl[row, C.Q0 + r] == best:
                    k += 1
            total = 0
            for p in range(place, min(place + k, C.N_PLACES)):
                total += R.medals[grp, fest, p]
            share = total // k
            for row in range(C.N_ROWS):
                if row >= n and not (row == C.CHARLIE and n == 2):
                    continue
                if S.pl[row, C.Q0 + r] == best:
                    out[row] += share
                    S.tmp[16 + 4 * row + place] += 1
                    trace(S, C.TR_MEDAL, row, r, place, share, best, k)
            place += k
            prev = best


# --- setup --------------------------------------------------------------------------------------------

@jit_inline
def setup_board(S, R, n):
    """Judges, quality tiles, events, flavor deck and row, Charlie's deck (deck stream)."""
    t = S.tmp
    for i in range(C.N_JUDGE_TILES):
        t[i] = i + 1
    shuffle(t, C.N_JUDGE_TILES, S.rng, 0)
    S.board[C.B_JUDGES, 0] = 0
    for i in range(4):
        S.board[C.B_JUDGES, 1 + i] = t[i]
    for i in range(C.N_TRACK_TILES):
        t[i] = i
    shuffle(t, C.N_TRACK_TILES, S.rng, 0)
    for r in range(C.N_RECIPES):
        for lv in range(C.MAX_Q + 1):
            S.board[r, lv] = R.board[lv]
        for k in range(4):
            S.board[r, 4 + k] = R.tiles[t[2 * r], k]
            S.board[r, 8 + k] = R.tiles[t[2 * r + 1], k]
    for i in range(C.N_EVENT_TILES):
        t[i] = i
    shuffle(t, C.N_EVENT_TILES, S.rng, 0)
    k = 0
    for m in range(C.MONTHS):
        if m == C.SUMMERFEST:
            S.board[C.B_EVENTS, m] = C.SUMMER_EVENT
        elif m == C.OCTOBERFEST:
            S.board[C.B_EVENTS, m] = C.OCTOBER_EVENT
        else:
            S.board[C.B_EVENTS, m] = t[k]
            k += 1
    for c in range(C.DECK):
        S.pile[C.PILE_DECK, c] = c
        S.card[c, 0] = C.LOC_DECK
        S.card[c, 1] = -1
        S.card[c, 2] = -1
    S.card[C.SPARE, 0] = C.LOC_OUT  # out of play unless a treatment injects it
    shuffle(S.pile[C.PILE_DECK], C.DECK, S.rng, 0)
    S.g[C.G_DECK_N] = C.DECK
    S.g[C.G_DISC_N] = 0
    for i in range(C.ROW):
        S.pile[C.PILE_ROW, i] = -1
    refill_row(S)
    if n == 2:
        for i in range(C.N_CHARLIE):
            t[i] = i
        shuffle(t, C.N_CHARLIE, S.rng, 0)
        for i in range(C.CHARLIE_DECK):
            S.board[C.B_CHARLIE, i] = t[i]
        S.g[C.G_CHARLIE_POS] = 0


@jit_inline
def setup_players(S, R, n):
    for s in range(C.N_ROWS):
        for f in range(C.N_PL):
            S.pl[s, f] = 0
        for r in range(C.N_RECIPES):
            for k in range(C.N_KINDS):
                S.fl[s, r, k] = 0
        for a in range(C.N_ACTIONS):
            S.dice[s, a] = 0
    for r in range(C.N_RECIPES):
        S.g[C.G_LOCK0 + r] = -1
    for s in range(n):
        S.pl[s, C.FACTION] = S.board[C.B_FACTION, s]
        S.pl[s, C.MONEY] = param(R, C.P_START_MONEY)
        S.pl[s, C.COVERED] = min(param(R, C.P_START_TRUB), n_slots(S, R, s))
        for _ in range(param(R, C.P_START_FLAVOR)):
            c = draw_top(S)
            if c >= 0:
                to_hand(S, s, c)
    S.pl[C.CHARLIE, C.FACTION] = C.STANDARD
