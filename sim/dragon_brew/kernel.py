"""Dragon Brew game flow for a batch of games: three years of spring, fall and winter per game.
`run_chunk` is the compiled entry point; sim/dragon_brew/__init__.py wraps it.

Output columns are preallocated by the caller. A chunk stops early (returning the number of
games completed) when the event or rounds buffer could overflow, so nothing is ever truncated.
"""

from sim.core.errors import STATUS_FULL, STATUS_OK, STATUS_OVERFLOW, STATUS_VIOLATION
from sim.core.jit import jit, jit_inline
from sim.core.rng import STREAM_DECKS, STREAM_POLICY, stream_seed
from sim.core.rounds import record_round
from sim.core.schedule import drawn_factions, listed_factions, position, seat_bots

from . import constants as C
from . import invariants as inv
from . import rules as ru
from .state import P_YEARS

N_GAME_COLS = 8  # game_id, n_players, years, decisions, end reason, winners, judges awarded, spring turns
N_PLAYER_COLS = 6 + len(C.PLAYER_STATS)  # game_id, seat, race, policy, VP, rank, statistics


@jit
def assign_seats(S, seed, k, n, seat_policies, pool, lineup, rotate, races, pols):
    """Bots and races of the seats at position k of the seat schedule (sim/core/schedule.py):
    races from `lineup` if it is not empty (rotated unless `rotate` is false), else n distinct
    races of `pool` from the schedule's own stream, so decks and bots are undisturbed."""
    seat_bots(k, n, seat_policies, pols)
    if lineup.shape[0] > 0:
        listed_factions(k, n, lineup, seat_policies.shape[0], rotate, races)
    else:
        drawn_factions(seed, k, n, pool, S.tmp[6], S.rng, 0, races)


@jit_inline
def start_game(S, R, seed, game_id, counts, seat_policies, pool, lineup, rotate):
    """Seat game `game_id` (its player count cycles through `counts`) and deal its setup."""
    races, pols = S.tmp[16], S.tmp[17]
    n = counts[game_id % counts.shape[0]]
    assign_seats(S, seed, position(game_id, counts), n, seat_policies, pool, lineup, rotate, races, pols)
    S.rng[0] = stream_seed(seed, game_id, STREAM_DECKS, 0)
    for s in range(C.MAX_PLAYERS):
        S.rng[1 + s] = stream_seed(seed, game_id, STREAM_POLICY, s)
    S.g[C.G_GAME] = game_id
    S.g[C.G_OVERFLOW] = 0
    S.g[C.G_VIOLATION] = 0
    ru.setup(S, R, n, races, pols)


@jit_inline
def checked(S, R, check, phase):
    """Under --check: record the first broken invariant; True if the game must stop."""
    if S.g[C.G_OVERFLOW]:
        return True
    if check:
        v = inv.check_all(S, R, phase)
        if v:
            S.g[C.G_VIOLATION] = v
            S.g[C.G_PHASE] = phase
            return True
    return False


@jit_inline
def play_game(S, R, B, check):
    """Play the set-up game to its end; returns the number of winners (0 if it stopped)."""
    while True:
        ru.spring(S, R, B)
        if checked(S, R, check, 1):
            return 0
        ru.fall(S, R, B)
        at = record_round(S.rnd, S.g[C.G_ROUNDS], S.g[C.G_GAME], S.g[C.G_YEAR], S.pl, C.PL_VP, S.g[C.G_N])
        if at < 0:
            S.g[C.G_OVERFLOW] = 1
            return 0
        S.g[C.G_ROUNDS] = at
        if checked(S, R, check, 2):
            return 0
        if S.g[C.G_YEAR] >= R.p[P_YEARS]:
            break
        S.g[C.G_YEAR] += 1
        ru.winter(S, R, B)
        if checked(S, R, check, 3):
            return 0
    S.g[C.G_PHASE] = 4
    return ru.final_ranking(S)


@jit
def run_chunk(S, R, B, seed, first_game, n_games, player_counts, seat_policies, pool, lineup, rotate, games,
              players, wins_out, events_per_game_max, check):
    """Play games first_game .. first_game + n_games - 1 and fill the output columns.
    Returns (games done, player rows, event rows, status). Rounds rows of the games played are
    left in S.rnd[:S.g[G_ROUNDS]] (sim/core/rounds.py)."""
    S.g[C.G_EV] = 0
    S.g[C.G_ROUNDS] = 0
    ev_rows = 0
    prow = 0
    years = R.p[P_YEARS]
    for i in range(n_games):
        if (S.ev.shape[0] - ev_rows < events_per_game_max
                or S.rnd.shape[0] - S.g[C.G_ROUNDS] < C.MAX_PLAYERS * years):
            return i, prow, ev_rows, STATUS_FULL
        game_id = first_game + i
        n = player_counts[game_id % player_counts.shape[0]]
        start_game(S, R, seed, game_id, player_counts, seat_policies, pool, lineup, rotate)
        winners = play_game(S, R, B, check)
        if S.g[C.G_OVERFLOW] or S.g[C.G_EV] - ev_rows > events_per_game_max:
            return i, prow, ev_rows, STATUS_OVERFLOW
        if S.g[C.G_VIOLATION]:
            return i, prow, ev_rows, STATUS_VIOLATION
        ev_rows = S.g[C.G_EV]
        for s in range(n):
            S.pl[s, C.PL_STATS + C.ST_RIBBONS] = S.pl[s, C.PL_RIBBONS]
            S.pl[s, C.PL_STATS + C.ST_GOLD] = S.pl[s, C.PL_GOLD]
            S.pl[s, C.PL_STATS + C.ST_ESTATE_SIZE] = S.pl[s, C.PL_N_CARDS]
            row = players[prow]
            row[0] = game_id
            row[1] = s
            row[2] = S.pl[s, C.PL_RACE]
            row[3] = S.pl[s, C.PL_POLICY]
            row[4] = S.pl[s, C.PL_VP]
            row[5] = S.pl[s, C.PL_RANK]
            for k in range(len(C.PLAYER_STATS)):
                row[6 + k] = S.pl[s, C.PL_STATS + k]
            wins_out[prow] = S.wins[s]
            prow += 1
        g = games[i]
        g[0] = game_id
        g[1] = n
        g[2] = years
        g[3] = S.g[C.G_DECISIONS]
        g[4] = 0
        g[5] = winners
        g[6] = S.g[C.G_JUDGED]
        g[7] = S.g[C.G_TURNS]
    return n_games, prow, ev_rows, STATUS_OK
