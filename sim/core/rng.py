"""Counter-based random streams for numba kernels.

Every game owns its randomness explicitly. A stream is one uint64 word of state that
SplitMix64 advances; its starting value is a hash of (run seed, game index, stream id,
sub-stream), so streams never overlap in practice and do not depend on the order in
which games run, on the number of jobs, or on the shard size.

Separate streams for separate sources of chance (deck shuffles, bar flicks, each seat's
bot decisions) mean that changing a bot or a card does not reshuffle the decks: paired
(common-random-numbers) comparisons rely on this.
"""

import numpy as np

from .jit import jit, jit_inline

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

# Stream ids shared by every game. A game may add its own above 100.
STREAM_DECKS = 1  # setup and reshuffles of every deck
STREAM_DICE = 2  # dice, flicks and other physical chance, one sub-stream per seat
STREAM_POLICY = 3  # bot decisions, one sub-stream per seat
# (4 is the seat schedule's, sim/core/schedule.py)
STREAM_SEARCH = 5  # a search bot's determinisations and rollouts, one sub-stream per seat


@jit_inline
def mix64(z):
    """SplitMix64 finaliser: a bijective avalanche of one 64-bit word."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@jit
def stream_seed(seed, game_id, stream, sub):
    """Starting state of stream (stream, sub) of game `game_id` in a run seeded `seed`."""
    h = mix64(np.uint64(seed) + GOLDEN)
    h = mix64(h ^ (np.uint64(game_id) * GOLDEN))
    h = mix64(h ^ (np.uint64(stream) * _M1))
    return mix64(h ^ (np.uint64(sub) * _M2 + GOLDEN))


@jit_inline
def next_u64(state, i):
    """Advance stream `i` of the state array in place and return its next 64-bit word."""
    state[i] = state[i] + GOLDEN
    return mix64(state[i])


@jit_inline
def uniform(state, i):
    """A float in [0, 1) with 53 random bits."""
    return (next_u64(state, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit_inline
def randint(state, i, n):
    """An int in [0, n) (n >= 1). Lemire's multiply-shift; bias < n / 2**32, negligible here."""
    r = next_u64(state, i) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))


@jit
def shuffle(arr, n, state, i):
    """Fisher-Yates shuffle of the first n items of arr in place."""
    for k in range(n - 1, 0, -1):
        j = randint(state, i, k + 1)
        tmp = arr[k]
        arr[k] = arr[j]
        arr[j] = tmp
