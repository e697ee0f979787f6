"""The seat schedule: which bot and which faction sits in each seat of each game.

Every game uses these functions, so a seat verdict can never be a bot or faction assignment in
disguise. The design, for each player count separately:

* Games cycle through the run's player-count list, so game `g` plays `counts[g % C]` players.
  Its *position* `k` is its index among the games at that player count (`position`), which
  steps by one from game to game of that count, whatever C is. (Rotating by the global game id
  instead steps by C and never rotates when C is a multiple of the number of bots.)
* Bots: position k = P*j + c (c = k mod P, j = (k div P) mod n) plays the table pattern
  `bot (x + c) mod P` for x = 0..n-1, turned by j seats: seat s gets bot ((s + j) mod n + c)
  mod P. Over any P consecutive positions each seat meets every bot once, so each (seat, bot)
  pair occurs equally often, up to one game; and over P*n positions every table pattern is
  played turned to every seat, so all seats face the same mixes of opponents in the same
  order. (Rotating the bot list alone balances the pairs but not the mixes: with 2 bots at 3
  players, seat 1 would be the lone greedy bot whenever it is greedy.)
* Listed factions (`--lineup F1..FL`): rotated across seats, seat s gets `(s + o) mod L`. With
  T = P*n the bots' period: when T and L are coprime the offset is o = k mod L, and bots and
  factions already cross (Chinese remainder theorem). Otherwise o = (k + k // M) mod L,
  M = lcm(T, L): within a block of M positions the offset steps by one (so each (seat, faction)
  pair stays balanced up to one game) and the shift by one per block makes them cross. Either
  way, over T*L positions every seat meets every (bot, faction) combination equally often.
  `rotate=False` keeps the old fixed assignment, seat s = lineup[s mod L] (faction and seat are
  then aliased, and the ratings say so).
* Drawn factions (`--factions` pool, or every faction): positions come in cycles of F = pool
  size; each cycle draws one random order of the pool from its own stream (STREAM_SCHEDULE, keyed
  by cycle and player count, so decks and bots are undisturbed), and seat s of position k takes
  the order's item (k mod F + s) mod F. Each game's factions are therefore a uniformly random
  set in uniformly random seats, as before, while every faction sits in every seat exactly once
  per cycle.
"""

import numpy as np

from .jit import jit, jit_inline
from .rng import shuffle, stream_seed

STREAM_SCHEDULE = 4  # drawn-faction cycle orders (stream ids 1-3 are in rng.py)


@jit_inline
def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


@jit
def position(game_id, counts):
    """Index of game `game_id` among the games of its player count. A count listed d times
    (e.g. --players 2,2,3) takes d consecutive positions per cycle of the list."""
    c = counts.shape[0]
    i = game_id % c
    repeats = 0
    rank = 0
    for j in range(c):
        if counts[j] == counts[i]:
            if j < i:
                rank += 1
            repeats += 1
    return (game_id // c) * repeats + rank


@jit
def seat_bots(k, n, seat_policies, out):
    """Bot of each of the n seats at position k: table pattern k mod P, turned by (k div P)
    mod n seats (see the module docstring)."""
    p = seat_policies.shape[0]
    pattern = k % p
    turn = (k // p) % n
    for s in range(n):
        out[s] = seat_policies[((s + turn) % n + pattern) % p]


@jit
def listed_factions(k, n, lineup, n_policies, rotate, out):
    """Factions of the n seats from a lineup: rotated across seats (crossed with the bots),
    or fixed seat by seat when `rotate` is false."""
    size = lineup.shape[0]
    if not rotate:
        for s in range(n):
            out[s] = lineup[s % size]
        return
    period = n_policies * n  # the bots' period (seat_bots)
    common = _gcd(period, size)
    offset = k % size if common == 1 else (k + k // (period * size // common)) % size
    for s in range(n):
        out[s] = lineup[(s + offset) % size]


@jit
def drawn_factions(seed, k, n, pool, order, rng, slot, out):
    """n distinct factions of `pool` for the seats at position k: a window of this cycle's
    random order. `order` is scratch space of pool size; rng[slot] is a scratch stream."""
    size = pool.shape[0]
    for i in range(size):
        order[i] = pool[i]
    rng[slot] = stream_seed(seed, k // size, STREAM_SCHEDULE, n)
    shuffle(order, size, rng, slot)
    start = k % size
    for s in range(n):
        out[s] = order[(start + s) % size]


def lineup_rotates(options: dict | None) -> bool:
    """A lineup rotates across seats unless the run asked for fixed seats (--fixed-seats)."""
    return (options or {}).get("seats", "rotate") != "fixed"


def seat_table(n_games: int, counts, n_policies: int, lineup_size: int = 0, rotate: bool = True,
               pool_size: int = 0, seed: int = 0):
    """(n_players, seat, bot index, faction index) rows of a whole run's schedule, for tests and
    docs: the same compiled functions the kernels call."""
    counts = np.asarray(counts, np.int64)
    bots = np.arange(n_policies, dtype=np.int64)
    lineup = np.arange(lineup_size, dtype=np.int64)
    pool = np.arange(pool_size, dtype=np.int64)
    order = np.zeros(max(pool_size, 1), np.int64)
    rng = np.zeros(1, np.uint64)
    pol = np.zeros(8, np.int64)
    fac = np.full(8, -1, np.int64)
    rows = []
    for g in range(n_games):
        n = int(counts[g % counts.shape[0]])
        k = position(g, counts)
        seat_bots(k, n, bots, pol)
        if lineup_size:
            listed_factions(k, n, lineup, n_policies, rotate, fac)
        elif pool_size:
            drawn_factions(np.uint64(seed), k, n, pool, order, rng, 0, fac)
        rows.extend((n, s, int(pol[s]), int(fac[s])) for s in range(n))
    return np.array(rows, np.int64).reshape(-1, 4)
