"""Dragon Brew search bot (policy kind `search`, weights in data/games/dragon_brew/policies.toml):
determinised Monte-Carlo search with greedy rollouts, compiled.

Which decisions search: every decision of a spring turn (the turn's loop of legal move -> choice,
rules/spring_phase.take_turn): the draft, the brewer action, spells, free actions, bribes and
ending the turn. The choices inside a move (which grain, recipe, bribe amount...), the fall and
winter free-action windows, brewing and the winter cuts stay greedy's (the seat's planner weights
are greedy's).

One decision: greedy's choice (planner.choose) first, then the other legal moves by greedy's value
(planner.move_value), best first, stable, including moves greedy never plays because they gain
nothing; the first `candidates` of them plus any further move valued within `near` gold of the
last one (at most MAX_CANDS) are searched. One or no candidate,
(`candidates` below 2), or a budget below 1, plays greedy's move. Otherwise `budget` rollouts go round-robin over the
candidates, one sampled world per round shared by every candidate of the round (common random
numbers: the candidates are compared on the same deals). The move with the best mean score wins;
ties, and candidates no rollout reached, go to greedy's order.

One rollout: the live state and bot memory are copied into the scratch Search.S / Search.B made
in Python (no allocation in the loop; the copy's bot caches are its own, keyed by what they depend
on). The world is sampled from what the seat could know: the Brewery, Event and judge decks are
reshuffled, the other seats' recipe books are redealt in their sizes (barrels and spices apart)
from those books and the recipe decks together, and, unless the seat is the Dark Elf, her hidden
judges are redealt with the judge deck. The face-up rows, discards, estates, gold, ingredients
and VP stay: they are on the table or follow from moves everyone sees. The sample comes from the
seat's STREAM_SEARCH sub-stream, which also reseeds every stream of the copy, so the real game's
streams are never read or advanced. Every seat of the copy then plays the search seat's planner
weights (greedy).

Resume point: the copy applies the candidate (rules.apply_move), finishes the current turn with
greedy's moves, and resumes spring at the next position of the turn order (rules/spring_phase's own turn loops,
given spring_phase.bot_choice instead of turn_choice, so a rollout never searches). Then fall is played; while fewer than `horizon` falls have been played and the
game goes on, winter and the next spring and fall too. Score: at the game's end the seat's win
share by the game's ranking (VP, then ribbons, then gold; ties shared); at an earlier horizon the
win share by VP + eval_gold x gold + eval_card x estate cards. Plus `margin` x the seat's lead
(VP, or the evaluation) over the best other seat.
"""

from collections import namedtuple

import numpy as np

from sim.core.jit import jit, jit_inline
from sim.core.rng import STREAM_SEARCH, next_u64, shuffle, stream_seed
from sim.core.scratch import copy_into

from . import constants as C
from . import planner as pn
from . import policies as pol
from . import rules as ru  # a module object: read when compiling, after the rules package is loaded
from .planner.memory import M_GID, M_NEED, M_NPLAN, make_bot_state, sync
from .rules import spring_phase as sp
from .state import (
    P_YEARS,
    POL_SEARCH,
    RC_SPICE,
    W_BUDGET,
    W_CANDIDATES,
    W_EVAL_CARD,
    W_EVAL_GOLD,
    W_HORIZON,
    W_MARGIN,
    W_NEAR,
    make_state,
)

MAX_CANDS = 8  # moves one decision searches at most

# S, B: the rollout's scratch game and bot memory; rng uint64[N]: each seat's STREAM_SEARCH
# sub-stream; rollouts int64[N]: rollouts per seat this game; cand int64[MAX_CANDS]: the
# candidates (move rows) in greedy's order, n int64[MAX_CANDS] their rollouts, total
# float64[MAX_CANDS] their summed scores; value float64[MAX_MOVES]: greedy's value of each move;
# pool int64[2 * PILE_W]: cards being redealt.
Search = namedtuple("Search", "S B rng rollouts cand n total value pool")


def make_search(cfg, R, events_per_game: int) -> Search:
    years = int(cfg.params["years"])
    return Search(S=make_state(events_per_game, C.MAX_PLAYERS * years), B=make_bot_state(cfg, R),
                  rng=np.zeros(C.MAX_PLAYERS, np.uint64), rollouts=np.zeros(C.MAX_PLAYERS, np.int64),
                  cand=np.zeros(MAX_CANDS, np.int64), n=np.zeros(MAX_CANDS, np.int64),
                  total=np.zeros(MAX_CANDS, np.float64), value=np.zeros(C.MAX_MOVES, np.float64),
                  pool=np.zeros(2 * C.PILE_W, np.int64))


@jit
def start_game(Z, seed, game_id):
    """Each seat's search stream for this game, and no rollouts yet."""
    for s in range(C.MAX_PLAYERS):
        Z.rng[s] = stream_seed(seed, game_id, STREAM_SEARCH, s)
        Z.rollouts[s] = 0


@jit_inline
def knob(S, R, seat, k):
    return R.pol_w[S.pl[seat, C.PL_POLICY], k]


@jit
def turn_choice(S, R, B, Z, seat, n_moves):
    """The move a spring turn plays among S.moves[:n_moves]: searched for a search seat, else
    the seat's bot's."""
    if R.pol_kind[S.pl[seat, C.PL_POLICY]] == POL_SEARCH:
        return choose(S, R, B, Z, seat, n_moves)
    return pol.choose(S, R, B, seat, n_moves)


# ----------------------------------------------------------------------------- the decision

@jit
def rank_candidates(S, R, B, Z, seat, n_moves):
    """The moves to search into Z.cand: greedy's choice (planner.choose) first, then the other
    moves by greedy's value, best first and stable (moves greedy never plays, gaining nothing,
    included: the search may find them better). Returns how many to search."""
    sync(S, B, seat)
    pn.refresh_need(S, R, B, seat)
    pick, pv = -1, -1e9
    for k in range(n_moves):
        v = pn.move_value(S, R, B, seat, k)
        Z.value[k] = v
        kind = S.moves[k, 0]
        brewer = (kind == C.M_BREWER or kind == C.M_GUEST or kind == C.M_SACRIFICE or kind == C.M_OGRE
                  or kind == C.M_SPELLBOOK or kind == C.M_PASS)
        if (brewer or kind == C.M_END or v > 0) and v > pv:
            pick, pv = k, v
    Z.cand[0] = max(pick, 0)
    m = 1
    for k in range(n_moves):
        if k == Z.cand[0]:
            continue
        a = m  # insertion after every candidate valued at least as much (stable), greedy's first
        while a > 1 and Z.value[Z.cand[a - 1]] < Z.value[k]:
            a -= 1
        if a >= MAX_CANDS:
            continue
        for b in range(min(m, MAX_CANDS - 1), a, -1):
            Z.cand[b] = Z.cand[b - 1]
        Z.cand[a] = k
        m = min(m + 1, MAX_CANDS)
    nc = min(max(int(knob(S, R, seat, W_CANDIDATES)), 1), m)
    if nc < 2:
        return 1  # one candidate: greedy's move, whatever is valued like it
    floor = Z.value[Z.cand[nc - 1]] - knob(S, R, seat, W_NEAR)
    while nc < m and Z.value[Z.cand[nc]] >= floor:
        nc += 1
    return nc


@jit
def choose(S, R, B, Z, seat, n_moves):
    """Index of the move to play among S.moves[:n_moves] (see the module docstring)."""
    nc = rank_candidates(S, R, B, Z, seat, n_moves)
    budget = int(knob(S, R, seat, W_BUDGET))
    if nc < 2 or budget < 1:
        return Z.cand[0]
    for c in range(nc):
        Z.n[c] = 0
        Z.total[c] = 0.0
    pos = turn_position(S, seat)
    done = 0
    while done < budget:
        world = next_u64(Z.rng, seat)
        for c in range(nc):
            if done >= budget:
                break
            Z.total[c] += rollout(S, R, B, Z, seat, pos, Z.cand[c], world)
            Z.n[c] += 1
            done += 1
    Z.rollouts[seat] += done
    best = 0
    for c in range(1, nc):
        if Z.n[c] > 0 and Z.total[c] / Z.n[c] > Z.total[best] / Z.n[best]:
            best = c
    return Z.cand[best]


@jit_inline
def turn_position(S, seat):
    for k in range(S.g[C.G_N]):
        if S.g[C.G_ORDER + k] == seat:
            return k
    return 0


# ----------------------------------------------------------------------------- one rollout

@jit_inline
def rollout(S, R, B, Z, seat, pos, move, world):
    """Score of playing S.moves[move] now, in one sampled world, played out by greedy bots."""
    T, BT = Z.S, Z.B
    copy_game(S, B, T, BT)
    determinise(T, R, Z.pool, seat, world)
    for q in range(T.g[C.G_N]):
        T.pl[q, C.PL_POLICY] = S.pl[seat, C.PL_POLICY]
    for j in range(C.MOVE_W):
        T.moves[0, j] = S.moves[move, j]
    kind = T.moves[0, 0]
    ru.apply_move(T, R, BT, seat, T.moves[0])
    if kind != C.M_END and not T.g[C.G_OVERFLOW]:
        sp.finish_turn(T, R, BT, Z, seat, sp.bot_choice)
    sp.spring_from(T, R, BT, Z, pos + 1, sp.bot_choice)
    falls = max(int(knob(S, R, seat, W_HORIZON)), 1)
    while not T.g[C.G_OVERFLOW]:
        play_fall(T, R, BT)
        falls -= 1
        if T.g[C.G_YEAR] >= R.p[P_YEARS] or falls <= 0:
            break
        T.g[C.G_YEAR] += 1
        play_winter(T, R, BT)
        T.g[C.G_PHASE] = 1
        T.g[C.G_GNOMES_RAN_OUT] = 1 if T.g[C.G_GNOME_SUPPLY] == 0 else 0
        sp.spring_from(T, R, BT, Z, 0, sp.bot_choice)
    return outcome(T, R, seat, T.g[C.G_YEAR] >= R.p[P_YEARS])


@jit
def copy_game(S, B, T, BT):
    """The live game into the scratch one (not its logs) and the bots' plans into the scratch
    memory (whose candidate and judge caches stay its own)."""
    copy_into(T.g, S.g)
    T.g[C.G_EV] = 0
    T.g[C.G_ROUNDS] = 0
    T.g[C.G_TRACE] = 0
    copy_into(T.piles, S.piles)
    copy_into(T.pl, S.pl)
    copy_into(T.tmp, S.tmp)
    copy_into(T.est, S.est)
    copy_into(T.beers, S.beers)
    copy_into(BT.plan, B.plan)
    copy_into(BT.fv, B.fv)
    for s in range(S.est.shape[0]):
        BT.mem[s, M_NPLAN] = B.mem[s, M_NPLAN]
        BT.mem[s, M_GID] = B.mem[s, M_GID]
        for i in range(C.N_INGS):
            BT.mem[s, M_NEED + i] = B.mem[s, M_NEED + i]


@jit
def determinise(T, R, pool, seat, world):
    """Resample what seat cannot see (module docstring), from the world's word only."""
    T.rng[0] = world
    for s in range(1, T.rng.shape[0]):
        T.rng[s] = next_u64(T.rng, 0)
    for deck in (C.PILE_BDECK, C.PILE_EDECK):
        shuffle(T.piles[deck], T.g[C.G_N_PILE + deck], T.rng, 0)
    for d in range(2):
        redeal_books(T, R, pool, seat, d)
    redeal_shadow_judges(T, pool, seat)


@jit
def redeal_books(T, R, pool, seat, d):
    """The other seats' recipes of deck d (0 barrel, 1 spice) and that deck, shuffled together
    and dealt back in the same places."""
    deck = C.PILE_RDECK_BARREL + d
    m = 0
    for q in range(T.g[C.G_N]):
        if q != seat:
            for a in range(T.pl[q, C.PL_N_BOOK]):
                r = T.pl[q, C.PL_BOOK + a]
                if R.rc[r, RC_SPICE] == d:
                    pool[m] = r
                    m += 1
    for k in range(T.g[C.G_N_PILE + deck]):
        pool[m] = T.piles[deck, k]
        m += 1
    shuffle(pool, m, T.rng, 0)
    m = 0
    for q in range(T.g[C.G_N]):
        if q != seat:
            for a in range(T.pl[q, C.PL_N_BOOK]):
                if R.rc[T.pl[q, C.PL_BOOK + a], RC_SPICE] == d:
                    T.pl[q, C.PL_BOOK + a] = pool[m]
                    m += 1
    for k in range(T.g[C.G_N_PILE + deck]):
        T.piles[deck, k] = pool[m]
        m += 1


@jit
def redeal_shadow_judges(T, pool, seat):
    """The judge deck reshuffled, with the Dark Elf's hidden judges unless seat is the Dark Elf."""
    hidden = T.g[C.G_N_SHADOW] if T.pl[seat, C.PL_ABILITY] != C.AB_SHADOW_JUDGE else 0
    m = T.g[C.G_N_PILE + C.PILE_JDECK]
    for k in range(m):
        pool[k] = T.piles[C.PILE_JDECK, k]
    for k in range(hidden):
        pool[m + k] = T.piles[C.ROW_SHADOW, k]
    shuffle(pool, m + hidden, T.rng, 0)
    for k in range(m):
        T.piles[C.PILE_JDECK, k] = pool[k]
    for k in range(hidden):
        T.piles[C.ROW_SHADOW, k] = pool[m + k]


# ----------------------------------------------------------------------------- greedy play-out

# fall and winter compiled once as functions of their own, not inlined into the rollout
@jit_inline
def play_fall(S, R, B):
    ru.fall(S, R, B)


@jit_inline
def play_winter(S, R, B):
    ru.winter(S, R, B)


@jit
def outcome(T, R, seat, final):
    """The rollout's score for seat: win share (ties shared) + margin x lead over the best other."""
    best, ties, other = -1e18, 0, -1e18
    own = 0.0
    for q in range(T.g[C.G_N]):
        v = standing(T, R, seat, q, final)
        if q == seat:
            own = v
        elif v > other:
            other = v
        if v > best:
            best, ties = v, 1
        elif v == best:
            ties += 1
    share = 1.0 / ties if own == best else 0.0
    return share + knob(T, R, seat, W_MARGIN) * (own - other)


@jit_inline
def standing(T, R, seat, q, final):
    """Seat q's standing: at the end VP with ribbons and gold as tie-breaks (each below the
    one before: counts stay below 1000), else the evaluation of the module docstring."""
    vp = T.pl[q, C.PL_VP]
    if final:
        return vp + 1e-3 * T.pl[q, C.PL_RIBBONS] + 1e-6 * T.pl[q, C.PL_GOLD]
    return (vp + knob(T, R, seat, W_EVAL_GOLD) * T.pl[q, C.PL_GOLD]
            + knob(T, R, seat, W_EVAL_CARD) * T.pl[q, C.PL_N_CARDS])
