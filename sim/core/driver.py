"""The chunk driver: the loop every game's compiled entry point runs over a batch of games.

A game supplies two compiled functions with these signatures and nothing else:

    play(S, R, X, seed, game_id, counts, seat_policies, check) -> n
        seat game `game_id` by the seat schedule (sim/core/schedule.py), seed its random
        streams, deal it and play it to the end; returns its player count. It raises the
        game's overflow or violation flag in S.g instead of returning early data.
    record(S, R, X, game_id, n, game_row, player_rows, win_rows) -> None
        rank the players (sim/core/ranking.py) and fill one row of the games table and n
        rows of the players table, by the column names of the game's schema (schema.py).

S is the game's state, R its rules (data), X its run inputs beyond those (the faction pool
and lineup, a bot's own state; `()` when there are none). `G` names the four counters the
driver reads in S.g (a `Counters` tuple, from the game's constants).

`play_chunk` is inlined into each game's own `run_chunk` (a one-line jitted function in the
game's kernel.py): numba can then cache every game's entry point on disk, which it cannot do
for a compiled function that takes other compiled functions as arguments.
"""

from collections import namedtuple

import numpy as np

from .errors import STATUS_FULL, STATUS_OK, STATUS_OVERFLOW, STATUS_VIOLATION
from .jit import jit_inline
from .rows import output_rows

Counters = namedtuple("Counters", "events rounds overflow violation")


@jit_inline
def flag_violation(g, violation, phase_slot, code, phase):
    """Record an invariant check's result (code 0 = sound) and the phase it was checked after;
    True when an invariant broke, and the game must stop (the driver then reports it)."""
    if code == 0:
        return False
    g[violation] = code
    g[phase_slot] = phase
    return True


@jit_inline
def play_chunk(play, record, G, S, R, X, seed, first_game, n_games, counts, seat_policies,
               games, players, wins, events_per_game_max, rounds_per_game_max, check):
    """Play games first_game .. first_game + n_games - 1 into the output arrays.

    Returns (games done, player rows written, event rows, status): STATUS_OK; STATUS_FULL when
    the event or rounds buffer has less room than one game can need (call again for the
    rest); STATUS_OVERFLOW (a buffer ran out, or a game wrote more event rows than its
    bound: a bug); STATUS_VIOLATION (with `check`: game first_game + games done broke an
    invariant, S.g holds the code and phase). The rounds rows of the games played are left in
    S.rnd[:S.g[G.rounds]] (sim/core/rounds.py)."""
    S.g[G.events] = 0
    S.g[G.rounds] = 0
    ev_rows = 0
    prow = 0
    for i in range(n_games):
        if (S.ev.shape[0] - ev_rows < events_per_game_max
                or S.rnd.shape[0] - S.g[G.rounds] < rounds_per_game_max):
            return i, prow, ev_rows, STATUS_FULL
        game_id = first_game + i
        n = play(S, R, X, seed, game_id, counts, seat_policies, check)
        if S.g[G.events] - ev_rows > events_per_game_max:
            S.g[G.overflow] = 1  # the game's bound is wrong: as much a bug as a full buffer
        if S.g[G.overflow]:
            return i, prow, ev_rows, STATUS_OVERFLOW
        if S.g[G.violation]:
            return i, prow, ev_rows, STATUS_VIOLATION
        ev_rows = S.g[G.events]
        record(S, R, X, game_id, n, games[i], players[prow:prow + n], wins[prow:prow + n])
        prow += n
    return n_games, prow, ev_rows, STATUS_OK


def record_to_compile(record, S, R, X, games_table, players_table):
    """A game's `record` with arguments of the types play_chunk passes it (one games row, the
    players rows and win shares of one game): the entry of the game's compile_ahead list
    (sim/core/ahead.py)."""
    return record, (S, R, X, 0, 0, output_rows(1, games_table.width)[0], output_rows(1, players_table.width),
                    np.zeros(1))
