"""Homebrewers search bot (policy kind `search`): what it compares, what it may know, how it
scores a rollout. The rollouts themselves (copy, resume, play on) are game flow and live in
kernel.py (`rollout`, `play_rest`, `search_turn`); docs/games/homebrewers.md "Search bot".

Determinised Monte-Carlo search with greedy rollouts, at every step of the searching seat's
action turn (use a die, change it for $1, forgo it for $2, the power, the extra action,
Ananya's extra die). The candidates are greedy's own step first, then the other legal steps
in the order of greedy's values (`step_values`). One rollout copies the live state into the
per-thread scratch state, re-samples what the seat cannot see (`determinise`), applies the
candidate and lets greedy play every seat on; `rollout_value` scores the end (or the horizon).
Common random numbers: the rollouts go in sweeps, one per sampled world, every candidate played
once in each, so a candidate's lead over another is measured on the same deals and dice.

Everything else the seat decides (trades, re-rolls, which recipe a brew die brews, which card a
flavor die plays) is greedy's, made by the heuristic functions of policies.py: kind `search`
is not `random`, so they play it as the heuristic with its weights.
"""

from collections import namedtuple

import numpy as np

from sim.core.jit import jit, jit_inline
from sim.core.rng import STREAM_SEARCH, next_u64, shuffle, stream_seed
from sim.core.scratch import copy_into

from . import constants as C
from . import policies as pol
from . import rules as ru
from .state import N_RNG, RNG_DECK, RNG_SEARCH0, make_state

MAX_STEPS = 64  # legal steps one decision can list (5 faces x 6 + power + 5 extras + done)

# Per-thread search buffers, made in Python (make_search) and passed in through the run inputs:
#   T      State     the scratch state a rollout plays in (same layout as the live one)
#   cand   int64[MAX_CANDIDATES]    the steps compared, greedy's first
#   total  float64[MAX_CANDIDATES]  summed rollout values per candidate
#   visits int64[MAX_CANDIDATES]    rollouts per candidate
#   code   int64[MAX_STEPS], score float64[MAX_STEPS]  every legal step and greedy's value of it
#   pool   int64[64]                cards, tiles or Charlie cards being re-sampled
#   pols   int64[MAX_PLAYERS]       the rollout's bot per seat (the searching bot's row: greedy play)
Search = namedtuple("Search", "T cand total visits code score pool pols")


def make_search(event_capacity: int) -> Search:
    """Search buffers for one thread; the scratch state's event buffer holds one game's rows."""
    return Search(T=make_state(event_capacity, 1, 1), cand=np.zeros(C.MAX_CANDIDATES, np.int64),
                  total=np.zeros(C.MAX_CANDIDATES, np.float64), visits=np.zeros(C.MAX_CANDIDATES, np.int64),
                  code=np.zeros(MAX_STEPS, np.int64), score=np.zeros(MAX_STEPS, np.float64),
                  pool=np.zeros(64, np.int64), pols=np.zeros(C.MAX_PLAYERS, np.int64))


@jit_inline
def knob(R, p, i):
    return int(R.pol_w[p, i])


# --- candidates -----------------------------------------------------------------------------

@jit_inline
def push(Q, k, code, value):
    Q.code[k] = code
    Q.score[k] = value
    return k + 1


@jit
def step_values(S, R, Q, seat, p):
    """Every legal step of seat's action turn now, with greedy's value of it (in reputation):
    a die used is worth `need` of its action, changed the need of the new face less the $1,
    forgone the $2, the extra action its action's need less the $3. Returns how many."""
    money = S.pl[seat, C.MONEY]
    wm = pol.w(R, p, C.W_MONEY)
    k = 0
    if S.pl[seat, C.EXTRA_DIE] >= 0:  # Ananya's extra die must be settled first
        a = S.pl[seat, C.EXTRA_DIE]
        if pol.legal_use(S, R, seat, a):
            k = push(Q, k, C.STEP_EXTRA_DIE * 64 + a * 8 + 1, pol.need(S, R, seat, p, a))
        return push(Q, k, C.STEP_EXTRA_DIE * 64 + a * 8, 0.0)
    forgo = ru.param(R, C.P_FORGO) * wm
    change = ru.param(R, C.P_CHANGE)
    for a in range(C.N_ACTIONS):
        if S.dice[seat, a] == 0:
            continue
        if pol.legal_use(S, R, seat, a):
            k = push(Q, k, C.STEP_USE * 64 + a * 8, pol.need(S, R, seat, p, a))
        k = push(Q, k, C.STEP_FORGO * 64 + a * 8, forgo)
        if money >= change:
            for b in range(C.N_ACTIONS):
                if b != a and pol.legal_use(S, R, seat, b):
                    k = push(Q, k, C.STEP_CHANGE * 64 + a * 8 + b, pol.need(S, R, seat, p, b) - change * wm)
    if (not S.pl[seat, C.POWER_USED]) and ru.has_power(S, R, seat) and money >= ru.param(R, C.P_POWER) \
            and S.pl[seat, C.FACTION] != C.ANDREW:  # Andrew's power is part of a brew
        k = push(Q, k, C.STEP_POWER * 64, forgo)  # greedy has no value for it: ranked as a forgo
    extra = ru.param(R, C.P_EXTRA)
    if S.pl[seat, C.EXTRA_USED] == 0 and money >= extra:
        for b in range(C.N_ACTIONS):
            if pol.legal_use(S, R, seat, b):
                k = push(Q, k, C.STEP_EXTRA * 64 + b * 8, pol.need(S, R, seat, p, b) - extra * wm)
    if ru.dice_left(S, seat) == 0:
        k = push(Q, k, C.STEP_DONE * 64, 0.0)
    return k


@jit
def candidates(S, R, Q, seat, p, greedy_step, most):
    """Fill Q.cand with greedy's step, then the best other legal steps by greedy's values (ties:
    listing order), at most `most` in all; returns how many."""
    k = step_values(S, R, Q, seat, p)
    greedy_step %= C.STEP_CHOICE  # as step_values lists it: without the choice greedy carries
    Q.cand[0] = greedy_step
    nc = 1
    most = min(most, C.MAX_CANDIDATES)
    for i in range(k):
        if Q.code[i] == greedy_step:
            Q.score[i] = -np.inf  # already listed
    while nc < most:
        best, arg = -np.inf, -1
        for i in range(k):
            if Q.score[i] > best:
                best, arg = Q.score[i], i
        if arg < 0:
            break
        Q.cand[nc] = Q.code[arg]
        Q.score[arg] = -np.inf
        nc += 1
    return nc


# --- the scratch copy and what the seat cannot see ----------------------------------------

@jit
def copy_state(S, T):
    """The live game into the scratch state: every table but the output buffers (events, trace,
    rounds), whose counters restart at 0 so the rollout writes only into the scratch."""
    copy_into(T.g, S.g)
    copy_into(T.pl, S.pl)
    copy_into(T.card, S.card)
    copy_into(T.pile, S.pile)
    copy_into(T.board, S.board)
    copy_into(T.dice, S.dice)
    copy_into(T.fl, S.fl)
    copy_into(T.tmp, S.tmp)
    copy_into(T.vals, S.vals)
    copy_into(T.gains, S.gains)
    copy_into(T.hands, S.hands)
    T.g[C.G_EVENTS] = 0
    T.g[C.G_TRACE] = 0
    T.g[C.G_ROUNDS] = 0


@jit_inline
def next_world(S, seat):
    """The next sampled world: a word of seat's own search stream (the live game's deck, dice and
    bot streams are never read or advanced)."""
    return next_u64(S.rng, RNG_SEARCH0 + seat)


@jit_inline
def reseed(T, world):
    """Every stream of the scratch from the world's word: the candidates of one sweep, reseeded
    from the same word, meet the same deck order, events, Charlie cards and dice."""
    for i in range(N_RNG):
        T.rng[i] = stream_seed(world, 0, STREAM_SEARCH, i)


@jit_inline
def unseen_into_pool(T, row, n_shown, n_items, pool):
    """The items 0..n_items-1 not among the first n_shown cells of board row `row`, into pool;
    returns how many."""
    k = 0
    for item in range(n_items):
        seen = False
        for i in range(n_shown):
            if T.board[row, i] == item:
                seen = True
        if not seen:
            pool[k] = item
            k += 1
    return k


@jit
def resample_events(T, Q):
    """Future months' event tiles are face down: the tiles not yet revealed (the two unused ones
    among them) dealt at random to the months still to come."""
    m = T.g[C.G_MONTH]
    k = unseen_into_pool(T, C.B_EVENTS, m + 1, C.N_EVENT_TILES, Q.pool)
    shuffle(Q.pool, k, T.rng, RNG_DECK)
    j = 0
    for mm in range(m + 1, C.MONTHS):
        if mm != C.SUMMERFEST and mm != C.OCTOBERFEST:
            T.board[C.B_EVENTS, mm] = Q.pool[j]
            j += 1


@jit
def resample_charlie(T, Q):
    """Charlie's unrevealed cards: before Summerfest any of the ten not yet shown this cycle (five
    were dealt unseen); after it the five are known and only their order is hidden."""
    pos = T.g[C.G_CHARLIE_POS] % C.CHARLIE_DECK
    if T.g[C.G_MONTH] > C.SUMMERFEST:
        for i in range(pos, C.CHARLIE_DECK):
            Q.pool[i - pos] = T.board[C.B_CHARLIE, i]
        k = C.CHARLIE_DECK - pos
    else:
        k = unseen_into_pool(T, C.B_CHARLIE, pos, C.N_CHARLIE, Q.pool)
    shuffle(Q.pool, k, T.rng, RNG_DECK)
    for i in range(pos, C.CHARLIE_DECK):
        T.board[C.B_CHARLIE, i] = Q.pool[i - pos]


@jit
def determinise(T, Q, n):
    """Re-sample in the scratch what no player can see: the flavor deck's order (hands, the row,
    recipes and discards are face up), the future event tiles, Charlie's deck; future dice come
    from the reseeded dice streams."""
    shuffle(T.pile[C.PILE_DECK], T.g[C.G_DECK_N], T.rng, RNG_DECK)
    resample_events(T, Q)
    if n == 2:
        resample_charlie(T, Q)


# --- scoring a rollout --------------------------------------------------------------------

@jit
def estimate(T, R, n, out):
    """Each seat's expected final reputation at a horizon before the end: reputation so far, the
    medals its qualities would win now (Summerfest's too if it is still to come) and the judges'
    reputation of its flavor cards now; into out[0:n]."""
    medals = T.tmp[40:46]
    for s in range(n):
        out[s] = T.pl[s, C.REP] + ru.judges_total(T, R, s, False)
    fests = 1 if T.g[C.G_MONTH] >= C.SUMMERFEST else 2
    for f in range(fests):
        ru.award_medals(T, R, n, 1 - f, medals)
        for s in range(n):
            out[s] += medals[s]


@jit
def rollout_value(T, R, n, seat, ended, margin):
    """The seat's win share (ties shared, broken as the final ranking breaks them: Octoberfest
    golds, silvers, bronzes) + margin x its score lead over the best rival (negative if behind)."""
    key = T.vals[48:48 + C.MAX_PLAYERS]
    if ended:
        for s in range(n):
            key[s] = T.pl[s, C.REP]
    else:
        estimate(T, R, n, key)
    rival = -np.inf
    for s in range(n):
        if s != seat:
            rival = max(rival, key[s])
    lead = key[seat] - rival
    if ended:  # exact tie-breakers after reputation (each count is at most 4)
        for s in range(n):
            key[s] += T.pl[s, C.GOLD] / 10.0 + T.pl[s, C.SILVER] / 100.0 + T.pl[s, C.BRONZE] / 1000.0
    top = -np.inf
    for s in range(n):
        top = max(top, key[s])
    tied = 0
    for s in range(n):
        if key[s] == top:
            tied += 1
    win = 1.0 / tied if key[seat] == top else 0.0
    return win + margin * lead


@jit_inline
def pick(Q, nc):
    """The candidate with the best mean rollout value; ties (and unvisited ones) keep greedy's order."""
    best, arg = -np.inf, 0
    for i in range(nc):
        if Q.visits[i] > 0:
            v = Q.total[i] / Q.visits[i]
            if v > best:
                best, arg = v, i
    return Q.cand[arg]


@jit_inline
def rollout_seats(Q, n, p):
    """Every seat of a rollout plays the searching bot's heuristic (greedy's weights)."""
    for s in range(n):
        Q.pols[s] = p
