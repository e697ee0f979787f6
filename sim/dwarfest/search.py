"""Dwarfest's search bot (policy kind `search`): determinised Monte-Carlo search with greedy
rollouts, compiled. The game flow that plays a rollout to the end lives in kernel.py; this
module holds what a search decision is made of.

Which decisions search. The two choices that move a Tavern's Nuggets most: the hidden
Restocking choice (Tables, Barrels, Dancers, whether to activate the cards greedy picked)
and, in Table Service, how many of its Customer cards to refuse. Everything else (Events,
cancels, Barrels opened, Bouncers, sips, the Cash-in discard) stays greedy.

Candidates. Greedy's own choice first, then its neighbours in a fixed order (below), the
first `candidates` of them that are legal and affordable. A forced choice (one candidate)
costs no rollout.

One rollout. The live state is copied into the thread's scratch state, then determinised
from what the searching seat could know: the Tavern deck and the rivals' hands are pooled,
shuffled and the hands redealt in their sizes; the Customer deck is reshuffled (its cards
are known to a player who counts, their order is not); every random stream of the copy
(decks, Bar flicks, random bots) restarts from a seed drawn from the seat's STREAM_SEARCH
sub-stream. The discard pile is treated as seen (played, cancelled and wrecked cards are
face up; a rival's one Cash-in discard is a small leak). The candidate is applied and the
copy plays on to the end of the game with the greedy heuristic in every seat. Its score is
the seat's win share (ties shared) plus `margin_weight` per Nugget of its margin over the
best rival. All candidates of one round share one determinisation (common random numbers),
so their difference is not drowned by the deal.

The real game's streams are never read or advanced by a search: its deal stays paired with
the other arms of an experiment.
"""

import numpy as np

from sim.core.jit import jit, jit_inline
from sim.core.rng import GOLDEN, mix64, shuffle

from . import constants as C
from .policies import best_barrels, fill_service_context
from .rules import dwarves_in, nugget_price, param, refuse_card, take_from_pool

N_REPLAYED_STREAMS = 1 + 2 * C.MAX_PLAYERS  # decks, dice and bot streams: what a rollout draws from


@jit_inline
def search_stream(seat):
    return 1 + 2 * C.MAX_PLAYERS + seat


@jit_inline
def is_searching(R, p):
    """A search bot with a budget and a choice to make; otherwise it plays greedy."""
    return R.pol_kind[p] == C.KIND_SEARCH and R.pol_w[p, C.W_BUDGET] >= 1 and R.pol_w[p, C.W_CANDIDATES] >= 2


@jit_inline
def candidate_limit(R, p):
    return min(np.int64(R.pol_w[p, C.W_CANDIDATES]), C.MAX_CANDIDATES)


@jit_inline
def rounds_for(R, p, n_cands):
    """Rollouts per candidate: the budget spread over the candidates, at least one each."""
    return max(np.int64(R.pol_w[p, C.W_BUDGET]) // n_cands, 1)


@jit
def rollout_bots(bots, p):
    """Inside a rollout every seat plays the search entry's heuristic (greedy's weights)."""
    bots[:] = p


@jit
def best_candidate(value, n_cands):
    """Highest summed score; ties go to the earlier candidate (greedy's order)."""
    best = 0
    for c in range(1, n_cands):
        if value[c] > value[best]:
            best = c
    return best


# --- the rollout's copy -------------------------------------------------------------------------

@jit_inline
def copy_rows(dst, src):
    """dst[:] = src for 1-D and 2-D arrays, as a plain loop (a slice copy would allocate)."""
    flat_dst, flat_src = dst.reshape(-1), src.reshape(-1)
    for i in range(flat_src.shape[0]):
        flat_dst[i] = flat_src[i]


@jit
def copy_state(dst, src):
    """The game state of `src` into `dst`, element by element (no allocation); the log buffers
    are not copied and their counters restart, so a rollout writes from row 0."""
    copy_rows(dst.g, src.g)
    copy_rows(dst.pl, src.pl)
    copy_rows(dst.st, src.st)
    copy_rows(dst.hand, src.hand)
    copy_rows(dst.tav, src.tav)
    copy_rows(dst.piles, src.piles)
    copy_rows(dst.drawn, src.drawn)
    copy_rows(dst.plays, src.plays)
    copy_rows(dst.seats, src.seats)
    copy_rows(dst.picks, src.picks)
    copy_rows(dst.rng, src.rng)
    copy_rows(dst.ctx, src.ctx)
    dst.g[C.G_EVENTS] = 0
    dst.g[C.G_TRACE] = 0
    dst.g[C.G_ROUNDS] = 0
    dst.g[C.G_OVERFLOW] = 0


@jit
def reseed_streams(S, seed):
    """Every stream a rollout draws from restarts from `seed`: sampled future flicks, draws."""
    for i in range(N_REPLAYED_STREAMS):
        S.rng[i] = mix64(np.uint64(seed) + np.uint64(i + 1) * GOLDEN)


@jit
def redeal_rival_hands(S, seat, n, sizes):
    """Pool the Tavern deck with the rivals' hands, shuffle, and redeal each rival as many
    cards as it held; the rest is the deck."""
    deck = S.piles[C.PILE_TDECK]
    k = S.g[C.G_TDECK]
    for s in range(n):
        sizes[s] = 0
        if s == seat:
            continue
        for t in range(S.hand.shape[1]):
            while S.hand[s, t] > 0 and k < deck.shape[0]:
                deck[k] = t
                k += 1
                S.hand[s, t] -= 1
                sizes[s] += 1
    shuffle(deck, k, S.rng, 0)
    for s in range(n):
        for _ in range(sizes[s]):
            k -= 1
            S.hand[s, deck[k]] += 1
    S.g[C.G_TDECK] = k


@jit
def determinise(W, S, seat, n, seed, sizes):
    """W = the live state S as `seat` could imagine it: hidden cards and future chance sampled."""
    copy_state(W, S)
    reseed_streams(W, seed)
    redeal_rival_hands(W, seat, n, sizes)
    shuffle(W.piles[C.PILE_CDECK], W.g[C.G_CDECK], W.rng, 0)


@jit
def rollout_score(S, n, seat, margin_weight):
    """Win share of `seat` at the end of a rollout (ties shared), plus the margin tie-break."""
    mine = S.pl[seat, C.TILL]
    best = -1
    for s in range(n):
        if s != seat:
            best = max(best, S.pl[s, C.TILL])
    win = 0.0
    if mine > best:
        win = 1.0
    elif mine == best:
        tied = 1
        for s in range(n):
            if s != seat and S.pl[s, C.TILL] == best:
                tied += 1
        win = 1.0 / tied
    return win + margin_weight * (mine - best)


# --- Restocking candidates: cands[c] = (Tables, Barrels, Dancers, cards kept 1/0) ----------------

@jit
def plays_cost(S, R, seat):
    total = 0
    for k in range(S.pl[seat, C.N_PLAYS]):
        total += nugget_price(R, S.plays[seat, k, 0], S.plays[seat, k, 2])
    return total


@jit
def add_restock(S, R, seat, cands, k, tables, barrels, dancers, cards):
    """Append a Restocking candidate at row k if it is legal, affordable and new; returns the
    candidate count."""
    if k >= cands.shape[0] or min(tables, barrels, dancers) < 0:
        return k
    if (S.pl[seat, C.TABLES] + tables > param(R, C.P_MAX_TABLES)
            or S.pl[seat, C.BARRELS] + barrels > param(R, C.P_MAX_BARRELS)
            or S.pl[seat, C.DANCERS] + dancers > param(R, C.P_MAX_DANCERS)):
        return k
    cost = (tables * param(R, C.P_TABLE_COST) + barrels * param(R, C.P_BARREL_COST)
            + dancers * param(R, C.P_DANCER_COST) + cards * plays_cost(S, R, seat))
    if cost > S.pl[seat, C.TILL]:
        return k
    for j in range(k):
        if cands[j, 0] == tables and cands[j, 1] == barrels and cands[j, 2] == dancers and cands[j, 3] == cards:
            return k
    cands[k, 0], cands[k, 1], cands[k, 2], cands[k, 3] = tables, barrels, dancers, cards
    return k + 1


@jit
def restock_candidates(S, R, seat, cands, limit):
    """Greedy's hidden choice (already in S.pl[seat, BUY_*] and S.plays[seat]) first, then
    its neighbours: a Table more (with a Barrel for its seats), a Table less, a Dancer more,
    a Dancer less, no cards activated, a Barrel more, a Barrel less. Returns how many of
    them (at most `limit`) are legal."""
    t, b, d = S.pl[seat, C.BUY_TABLES], S.pl[seat, C.BUY_BARRELS], S.pl[seat, C.BUY_DANCERS]
    cands[0, 0], cands[0, 1], cands[0, 2], cands[0, 3] = t, b, d, 1
    k = add_restock(S, R, seat, cands, 1, t + 1, b + 1, d, 1)
    k = add_restock(S, R, seat, cands, k, t - 1, b, d, 1)
    k = add_restock(S, R, seat, cands, k, t, b, d + 1, 1)
    k = add_restock(S, R, seat, cands, k, t, b, d - 1, 1)
    if S.pl[seat, C.N_PLAYS] > 0:
        k = add_restock(S, R, seat, cands, k, t, b, d, 0)
    k = add_restock(S, R, seat, cands, k, t, b + 1, d, 1)
    k = add_restock(S, R, seat, cands, k, t, b - 1, d, 1)
    return min(k, limit)


@jit
def apply_restock(S, seat, cand):
    S.pl[seat, C.BUY_TABLES] = cand[0]
    S.pl[seat, C.BUY_BARRELS] = cand[1]
    S.pl[seat, C.BUY_DANCERS] = cand[2]
    if cand[3] == 0:
        S.pl[seat, C.N_PLAYS] = 0


# --- Table Service candidates: cands[c, 0] = Customer cards refused -----------------------------

@jit
def refusal_order(S, R, seat, pol, nt, order):
    """Greedy's refusal order of `seat`'s Customer cards, after it takes the nt pool cards in
    S.picks[PICK_TAKE]: at each step the card whose refusal leaves the best expected value
    (policies.heuristic_service's step), carried on past the point where greedy stops."""
    fill_service_context(S, R, seat, pol)
    cx = S.ctx
    dwarves = dwarves_in(S, seat)
    for i in range(nt):
        dwarves += S.piles[C.PILE_POOL, S.picks[C.PICK_TAKE, i]]
    brawl = S.pl[seat, C.BRAWL]
    nd = S.pl[seat, C.N_DRAWN]
    kept = S.picks[C.PICK_KEPT]
    kept[:nd] = 1
    for step in range(nd):
        best_k, best_v = -1, -np.inf
        for k in range(nd):
            if kept[k] == 1:
                _, v = best_barrels(R, cx, dwarves - S.drawn[seat, k], brawl + (step + 1) * param(R, C.P_REFUSE_BRAWL),
                                    (step + 1) * param(R, C.P_REFUSE_FAME))
                if v > best_v + 1e-9:
                    best_k, best_v = k, v
        kept[best_k] = 0
        order[step] = best_k
        dwarves -= S.drawn[seat, best_k]


@jit
def service_candidates(nr, nd, cands, limit):
    """Refusal counts around greedy's nr: nr, nr+1, nr-1, nr+2, ... within 0..nd, at most `limit`."""
    k = 0
    for step in range(2 * nd + 1):
        off = (step + 1) // 2
        j = nr + off if step % 2 == 1 else nr - off
        if 0 <= j <= nd:
            cands[k, 0] = j
            k += 1
            if k == limit:
                break
    return k


@jit
def apply_refusals(S, R, seat, nt, j, order):
    """Take greedy's nt pool cards, then refuse the first j cards of greedy's refusal order."""
    nd = S.pl[seat, C.N_DRAWN]
    kept = S.picks[C.PICK_KEPT]
    kept[:nd] = 1
    for i in range(j):
        kept[order[i]] = 0
    for i in range(nt):  # descending pool indices, as greedy leaves them
        take_from_pool(S, seat, S.picks[C.PICK_TAKE, i])
    for k in range(nd - 1, -1, -1):  # descending, so each refusal leaves lower indices in place
        if kept[k] == 0:
            refuse_card(S, R, seat, k)
