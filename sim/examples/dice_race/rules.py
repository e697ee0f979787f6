"""Dice Race, the toy game of docs/adding_a_game.md: its state, its rules, and the two
functions the shared chunk driver calls (sim/core/driver.py).

The game: 2-4 players take `rounds` turns each, in seat order. On a turn a player rolls one
die again and again, adding the pips to the turn total, until it banks the total (adds it to
its score) or rolls the bust face, which loses the turn total. The highest score wins; tied
players share the win.

Move layout: a decision is one bit, roll again (1) or bank (0), asked after every roll that
did not bust (policies.rolls_again). Trace rows: (TR_ROLL, round, seat, pips, turn total
after it, 0, 0, 0) and (TR_BANK, round, seat, turn total, score, 0, 0, 0).
Random streams (DESIGN.md §4): the die from STREAM_DICE, each seat's bot from STREAM_POLICY.
"""

from collections import namedtuple

import numpy as np

from sim.core.driver import Counters, flag_violation, play_chunk
from sim.core.jit import jit
from sim.core.ranking import rank_seats
from sim.core.rng import STREAM_DICE, STREAM_POLICY, randint, stream_seed
from sim.core.rounds import ROUND_COLS, record_round
from sim.core.rows import column_buffer, next_row, next_trace_row, put7, put8
from sim.core.schedule import position, seat_bots

from .policies import rolls_again
from .schema import GAMES, PLAYERS

MIN_PLAYERS, MAX_PLAYERS = 2, 4
P_ROUNDS, P_BUST_FACE = 0, 1  # R.p, in data.PARAMS order

# S.g: the counters the driver and the run writer read, then the game's own
G_EVENTS, G_ROUNDS, G_TRACE, G_OVERFLOW, G_VIOLATION, G_PHASE, G_ROUND, G_DECISIONS, N_G = range(9)
PHASES = ("after a round",)  # G_PHASE values, for error messages
VIOLATIONS = ("none", "a negative score or more busts than turns")  # G_VIOLATION codes
COUNTERS = Counters(G_EVENTS, G_ROUNDS, G_OVERFLOW, G_VIOLATION)

SCORE, BUSTS, ROLLS, N_PL = range(4)  # S.pl columns
KIND_BANK, KIND_BUST = 0, 1  # event kinds (schema labels: LOG_KINDS)
LOG_KINDS = ("bank", "bust")
CARDS = ("turn",)  # the events table's card labels
TR_ROLL, TR_BANK = 0, 1  # trace codes
TRACE_WIDTH = 8

State = namedtuple("State", "g pl pols ranks rng ev trace rnd")
Rules = namedtuple("Rules", "p pol_kind pol_hold")
G, P = GAMES.at, PLAYERS.at


def make_state(event_capacity: int, rounds_capacity: int, trace_capacity: int = 1) -> State:
    return State(g=np.zeros(N_G, np.int64), pl=np.zeros((MAX_PLAYERS, N_PL), np.int64),
                 pols=np.zeros(MAX_PLAYERS, np.int64), ranks=np.zeros(MAX_PLAYERS, np.int64),
                 rng=np.zeros(1 + MAX_PLAYERS, np.uint64), ev=column_buffer(event_capacity, 7),
                 trace=np.zeros((max(trace_capacity, 1), TRACE_WIDTH), np.int64),
                 rnd=column_buffer(rounds_capacity, ROUND_COLS))


@jit
def take_turn(S, R, seat, game_id):
    """Roll until the bot banks or the bust face shows; log the turn as one event."""
    total = 0
    while True:
        pips = 1 + randint(S.rng, 0, 6)
        S.pl[seat, ROLLS] += 1
        if pips == R.p[P_BUST_FACE]:
            S.pl[seat, BUSTS] += 1
            put7(S.ev, next_row(S.ev, S.g, G_EVENTS, G_OVERFLOW), game_id, seat, S.g[G_ROUND] + 1, 0, KIND_BUST,
                 total, -1)
            return
        total += pips
        put8(S.trace, next_trace_row(S.trace, S.g, G_TRACE, G_OVERFLOW), TR_ROLL, S.g[G_ROUND], seat, pips,
             total, 0, 0, 0)
        S.g[G_DECISIONS] += 1
        if not rolls_again(S, R, seat, S.pols[seat], total):
            S.pl[seat, SCORE] += total
            put7(S.ev, next_row(S.ev, S.g, G_EVENTS, G_OVERFLOW), game_id, seat, S.g[G_ROUND] + 1, 0, KIND_BANK,
                 total, -1)
            put8(S.trace, next_trace_row(S.trace, S.g, G_TRACE, G_OVERFLOW), TR_BANK, S.g[G_ROUND], seat, total,
                 S.pl[seat, SCORE], 0, 0, 0)
            return


@jit
def play(S, R, X, seed, game_id, counts, seat_policies, check):
    """The driver's `play`: seat the bots by the schedule, seed the streams, play every round."""
    n = counts[game_id % counts.shape[0]]
    for i in range(G_PHASE, N_G):  # the row counters (events, rounds, trace) run on across games
        S.g[i] = 0
    S.g[G_OVERFLOW] = 0
    for s in range(MAX_PLAYERS):
        for k in range(N_PL):
            S.pl[s, k] = 0
    seat_bots(position(game_id, counts), n, seat_policies, S.pols)
    S.rng[0] = stream_seed(seed, game_id, STREAM_DICE, 0)
    for s in range(MAX_PLAYERS):
        S.rng[1 + s] = stream_seed(seed, game_id, STREAM_POLICY, s)
    for r in range(R.p[P_ROUNDS]):
        S.g[G_ROUND] = r
        for s in range(n):
            take_turn(S, R, s, game_id)
        if not record_round(S.rnd, S.g, G_ROUNDS, G_OVERFLOW, game_id, r + 1, S.pl, SCORE, n):
            return n
        if check and flag_violation(S.g, G_VIOLATION, G_PHASE, broken_invariant(S, n), 0):
            return n
    return n


@jit
def broken_invariant(S, n):
    """Under --check, after every round: 1 (VIOLATIONS) when a score is below zero or a player
    has more busts than turns, else 0."""
    for s in range(n):
        if S.pl[s, SCORE] < 0 or S.pl[s, BUSTS] > S.g[G_ROUND] + 1:
            return 1
    return 0


@jit
def record(S, R, X, game_id, n, game_row, player_rows, win_rows):
    """The driver's `record`: rank by score (ties share the win) and fill the output rows."""
    winners = rank_seats(S.pl, n, (SCORE,), S.ranks, win_rows)
    for s in range(n):
        row = player_rows[s]
        row[P.game_id] = game_id
        row[P.seat] = s
        row[P.policy] = S.pols[s]
        row[P.score] = S.pl[s, SCORE]
        row[P.rank] = S.ranks[s]
        row[P.busts] = S.pl[s, BUSTS]
        row[P.rolls] = S.pl[s, ROLLS]
    game_row[G.game_id] = game_id
    game_row[G.n_players] = n
    game_row[G.rounds] = R.p[P_ROUNDS]
    game_row[G.decisions] = S.g[G_DECISIONS]
    game_row[G.end_reason] = 0
    game_row[G.n_winners] = winners
    busts = 0
    for s in range(n):
        busts += S.pl[s, BUSTS]
    game_row[G.busts] = busts


@jit
def run_chunk(S, R, X, seed, first_game, n_games, counts, seat_policies, games, players, wins,
              events_per_game_max, rounds_per_game_max, check):
    return play_chunk(play, record, COUNTERS, S, R, X, seed, first_game, n_games, counts, seat_policies,
                      games, players, wins, events_per_game_max, rounds_per_game_max, check)
