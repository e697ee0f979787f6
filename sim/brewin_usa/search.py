"""The search bot's pieces that do not play the game: the state copy, the determinisation, the
launch options it weighs and the value of a finished rollout. kernel.search_launch puts them
together (docs/games/brewin_usa.md, Search bot).

What the searching seat cannot see, and so samples afresh for every determinisation: the order
of the ingredient and beer decks, its rivals' ingredient cards and beer cards in hand (redealt
in their sizes from the unseen cards), and every later draw and blind discard. What it sees and
keeps: its own hand and beers, the board (cities, Market Demand, beers launched or skunked),
banks, and the discard piles (discarded ingredients lie face up; beer discards are taken to be
face up too, the rulebook says nothing of them). It does not remember which face-up batch cards
a rival bought: the rivals' hands are drawn from every unseen card alike.
"""

import numpy as np

from sim.core.jit import jit, jit_inline
from sim.core.rng import STREAM_SEARCH, next_u64, shuffle, stream_seed
from sim.core.scratch import copy_into

from . import constants as C
from . import policies as pol
from . import rules as ru

# columns of the candidate table (Inputs.cand)
CAND_BEER, CAND_CITY, CAND_SUM, CAND_N, CAND_SCORE = range(5)


@jit_inline
def search_stream(seat):
    """Slot of seat's STREAM_SEARCH sub-stream in State.rng (kernel.seed_streams)."""
    return 1 + 2 * C.MAX_PLAYERS + seat


@jit_inline
def searches(S, R, pols, seat):
    """Seat decides by search here: a search bot in the live game (a copy plays greedy)."""
    return S.g[C.G_ROLLOUT] == 0 and R.pol_kind[pols[seat]] == C.KIND_SEARCH


@jit_inline
def budget(R, p):
    return np.int64(max(R.pol_w[p, C.W_BUDGET], 0.0))


@jit
def copy_state(S, T):
    """T := the game in S (every array but the output buffers, which T keeps as its own)."""
    copy_into(T.g, S.g)
    copy_into(T.pl, S.pl)
    copy_into(T.hand, S.hand)
    copy_into(T.piles, S.piles)
    copy_into(T.beer, S.beer)
    copy_into(T.city, S.city)
    copy_into(T.batch, S.batch)
    copy_into(T.fest, S.fest)
    copy_into(T.seats, S.seats)
    copy_into(T.scratch, S.scratch)
    copy_into(T.rng, S.rng)
    copy_into(T.vals, S.vals)
    copy_into(T.auction, S.auction)
    T.g[C.G_ROLLOUT] = 1
    T.g[C.G_EVENTS] = 0
    T.g[C.G_TRACE] = 0
    T.g[C.G_ROUNDS] = 0


@jit_inline
def redeal_ingredients(T, seat, n):
    """Rivals' ingredient cards go back with the deck's, are shuffled, and rivals get as many back."""
    deck = T.piles[C.PILE_IDECK]
    k = T.g[C.G_IDECK]
    sizes = T.seats[C.ROW_TMP]
    for o in range(n):
        sizes[o] = 0
        if o == seat:
            continue
        for t in range(T.hand.shape[1]):
            for _ in range(T.hand[o, t]):
                deck[k] = t
                k += 1
            sizes[o] += T.hand[o, t]
            T.hand[o, t] = 0
    shuffle(deck, np.int64(k), T.rng, np.int64(0))
    for o in range(n):
        for _ in range(sizes[o]):
            k -= 1
            T.hand[o, deck[k]] += 1
    T.g[C.G_IDECK] = k


@jit_inline
def redeal_beers(T, seat, n):
    """Rivals' beer cards in hand go back into the beer deck, are shuffled, and rivals draw as many."""
    deck = T.piles[C.PILE_BDECK]
    k = T.g[C.G_BDECK]
    sizes = T.seats[C.ROW_TMP]
    for o in range(n):
        sizes[o] = 0
    for b in range(C.BEER_SLOTS):
        o = T.beer[b, C.B_OWNER]
        if T.beer[b, C.B_LOC] == C.LOC_HAND and o != seat:
            sizes[o] += 1
            deck[k] = b
            k += 1
            T.beer[b, C.B_LOC] = C.LOC_DECK
            T.beer[b, C.B_OWNER] = -1
    shuffle(deck, np.int64(k), T.rng, np.int64(0))
    for o in range(n):
        for _ in range(sizes[o]):
            k -= 1
            b = deck[k]
            T.beer[b, C.B_LOC] = C.LOC_HAND
            T.beer[b, C.B_OWNER] = o
            T.beer[b, C.B_CITY] = -1
    T.g[C.G_BDECK] = k


@jit
def determinise(T, seat, n, sample):
    """Sample in T what `seat` cannot see (module docstring); every random stream of T is
    reseeded from `sample`, a word of seat's search stream, so the copy never replays the live
    game's own future draws."""
    for s in range(T.rng.shape[0]):
        T.rng[s] = stream_seed(sample, np.int64(0), np.int64(STREAM_SEARCH), np.int64(s))
    redeal_ingredients(T, seat, n)
    redeal_beers(T, seat, n)


@jit_inline
def next_sample(S, seat):
    """The next determinisation seed of seat (advances only seat's search stream)."""
    return next_u64(S.rng, search_stream(seat))


# --- the launch options ----------------------------------------------------------------------------

@jit
def add_candidate(cand, k, limit, b, c, score):
    """Insert option (b, c) by greedy's score into rows 1.. of cand (row 0 is greedy's own
    choice), keeping the best limit; returns the rows filled."""
    if k >= limit and score <= cand[k - 1, CAND_SCORE]:
        return k
    i = min(k, limit - 1)
    while i > 1 and cand[i - 1, CAND_SCORE] < score:
        for j in range(cand.shape[1]):  # element by element: a row copy would allocate
            cand[i, j] = cand[i - 1, j]
        i -= 1
    cand[i, CAND_BEER] = b
    cand[i, CAND_CITY] = c
    cand[i, CAND_SCORE] = score
    return min(k + 1, limit)


@jit_inline
def launch_score(S, R, p, seat, b):
    """Greedy's score of launching beer b (policies.choose_launch): a new beer before any relaunch."""
    if S.beer[b, C.B_LOC] == C.LOC_HAND:
        return 100.0 + ru.beer_quality(S, R, b)
    return -np.float64(ru.param(R, C.P_RELAUNCH_COST))


@jit
def launch_candidates(S, R, seat, p, cand):
    """The options weighed at a launch decision, into cand (beer, city; -1, -1 = stop launching):
    row 0 is exactly greedy's choice (city -1: the city is chosen as greedy chooses it, after the
    recipe's cards are spent), then the best others by greedy's score of beer and city (launch
    score + policies.target_value), up to the policy's `candidates`; stopping is scored 0.
    Returns the rows filled."""
    limit = min(max(np.int64(R.pol_w[p, C.W_CANDIDATES]), 1), C.MAX_CANDIDATES)
    gb = pol.choose_launch(S, R, seat, p)
    cand[0, CAND_BEER] = gb
    cand[0, CAND_CITY] = -1
    cand[0, CAND_SCORE] = np.inf
    k = 1
    if gb < 0:
        skip_c = -1
    else:
        skip_c = pol.choose_target(S, R, seat, p, gb)  # greedy's city as it stands: row 0 already
        k = add_candidate(cand, k, limit, -1, -1, 0.0)
    profile = pol.hand_profile(S, R, S.hand[seat])
    tally = S.scratch[C.SC_TMP]
    pol.tally_targets(S, R, seat, tally)
    targets = ru.legal_targets(S, seat)  # none: no beer below finds a city
    for b in range(C.BEER_SLOTS):
        if S.beer[b, C.B_OWNER] != seat:
            continue
        loc = S.beer[b, C.B_LOC]
        if not ((loc == C.LOC_HAND and pol.can_launch_new(S, R, seat, b, profile))
                or (loc == C.LOC_SKUNKED and pol.can_relaunch(S, R, seat, b))):
            continue
        base = launch_score(S, R, p, seat, b)
        for c in range(C.N_CITIES):
            if ru.is_target(targets, c) and not (b == gb and c == skip_c):
                k = add_candidate(cand, k, limit, b, c, base + pol.target_value(S, R, p, seat, b, c, tally))
    for i in range(k):
        cand[i, CAND_SUM] = 0.0
        cand[i, CAND_N] = 0.0
    return k


@jit
def rollout_value(T, R, n, seat, score_margin):
    """A finished copy's value to `seat`: its win share (ties shared) plus `score_margin` per VP
    of lead over the best rival (negative when behind), a tie-break among equal win shares."""
    ru.final_score(T, R, n)
    own = T.pl[seat, C.SCORE]
    best_rival, tied = np.int64(-1 << 40), 1
    for s in range(n):
        if s != seat:
            v = T.pl[s, C.SCORE]
            if v > best_rival:
                best_rival = v
    for s in range(n):
        if s != seat and T.pl[s, C.SCORE] == own:
            tied += 1
    share = 0.0 if own < best_rival else 1.0 / tied
    return share + score_margin * (own - best_rival)


@jit
def best_candidate(cand, k):
    """Row with the best mean value among those rolled out (ties: the earlier, greedy's order)."""
    best, best_v = 0, -np.inf
    for i in range(k):
        if cand[i, CAND_N] > 0:
            v = cand[i, CAND_SUM] / cand[i, CAND_N]
            if v > best_v:
                best, best_v = i, v
    return best
