"""Dragon Brew game flow: three years of spring, fall and winter per game. `play` seats, deals
and plays one game, `record` ranks it and writes its output rows (by the names of schema.py),
and `run_chunk`, the compiled entry point, is sim/core/driver.py's loop over the two. A run none
of whose bots searches plays on `run_chunk_without_search`, whose spring moves are the bots' own
(rules.bot_choice), so it compiles none of the search code.

The run inputs X beyond the rules are a `RunInputs`: the race pool, the lineup (empty: races
are drawn from the pool), whether the lineup rotates across seats, the planner's bot state, and
the run's treatment (sim/core/treatment.codes: kind code, target index), and the search bots'
scratch (search.Search).
"""

from collections import namedtuple

import numpy as np

from sim.core.driver import Counters, flag_violation, play_chunk, record_to_compile
from sim.core.jit import jit, jit_inline, unvectorized
from sim.core.ranking import rank_seats
from sim.core.rng import STREAM_DECKS, STREAM_POLICY, stream_seed
from sim.core.rounds import record_round
from sim.core.schedule import drawn_factions, listed_factions, position, seat_bots
from sim.core.treatment import T_INJECT, treated_seat

from . import constants as C
from . import invariants as inv
from . import rules as ru
from . import search as sr
from .planner import beers, card_values, choices, memory
from .schema import GAMES, PLAYERS
from .state import P_YEARS

G, P = GAMES.at, PLAYERS.at  # output column indices by name

RunInputs = namedtuple("RunInputs", "pool lineup rotate bots treatment search")


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
def start_game(S, R, seed, game_id, counts, seat_policies, pool, lineup, rotate, treatment):
    """Seat game `game_id` (its player count cycles through `counts`) and deal its setup, with the
    run's treatment (an inject goes to the seat sim/core/treatment.treated_seat names)."""
    races, pols = S.tmp[16], S.tmp[17]
    n = counts[game_id % counts.shape[0]]
    k = position(game_id, counts)
    assign_seats(S, seed, k, n, seat_policies, pool, lineup, rotate, races, pols)
    S.rng[0] = stream_seed(seed, game_id, STREAM_DECKS, 0)
    for s in range(C.MAX_PLAYERS):
        S.rng[1 + s] = stream_seed(seed, game_id, STREAM_POLICY, s)
    S.g[C.G_GAME] = game_id
    S.g[C.G_OVERFLOW] = 0
    S.g[C.G_VIOLATION] = 0
    S.g[C.G_TREATED_SEAT] = treated_seat(k, n, seat_policies.shape[0]) if treatment[0] == T_INJECT else -1
    ru.setup(S, R, n, races, pols, treatment[0], treatment[1])


@jit_inline
def checked(S, R, check, phase):
    """Under --check: record the first broken invariant; True if the game must stop."""
    if S.g[C.G_OVERFLOW]:
        return True
    return check and flag_violation(S.g, C.G_VIOLATION, C.G_PHASE, inv.check_all(S, R, phase), phase)


@jit_inline
def play_game(S, R, B, Z, check, choose):
    """Play the set-up game to its end (or until an overflow or, under --check, a violation);
    `choose` picks the spring moves (search.turn_choice, or rules.bot_choice without search)."""
    while True:
        ru.spring(S, R, B, Z, choose)
        if checked(S, R, check, 1):
            return
        ru.fall(S, R, B)
        if not record_round(S.rnd, S.g, C.G_ROUNDS, C.G_OVERFLOW, S.g[C.G_GAME], S.g[C.G_YEAR], S.pl, C.PL_VP,
                            S.g[C.G_N]):
            return
        if checked(S, R, check, 2):
            return
        if S.g[C.G_YEAR] >= R.p[P_YEARS]:
            break
        S.g[C.G_YEAR] += 1
        ru.winter(S, R, B)
        if checked(S, R, check, 3):
            return
    S.g[C.G_PHASE] = 4


@jit_inline
def seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, choose):
    """Seat game `game_id` by the seat schedule, deal it and play it."""
    start_game(S, R, seed, game_id, counts, seat_policies, X.pool, X.lineup, X.rotate, X.treatment)
    sr.start_game(X.search, seed, game_id)
    play_game(S, R, X.bots, X.search, check, choose)
    return counts[game_id % counts.shape[0]]


@jit_inline
def play(S, R, X, seed, game_id, counts, seat_policies, check):
    """The driver's `play`, every bot."""
    return seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, sr.turn_choice)


@jit_inline
def play_without_search(S, R, X, seed, game_id, counts, seat_policies, check):
    """The driver's `play` for a run none of whose bots searches."""
    return seat_and_play(S, R, X, seed, game_id, counts, seat_policies, check, ru.bot_choice)


@jit
def record(S, R, X, game_id, n, game_row, player_rows, win_rows):
    """Rank by VP, then ribbons, then gold (rulebook l. 436-438; full ties share the rank and
    the win; the rank stays in S.pl[:, PL_RANK]) and fill the game's output rows (schema.py)."""
    ranks = S.pl[:, C.PL_RANK]
    winners = rank_seats(S.pl, n, (C.PL_VP, C.PL_RIBBONS, C.PL_GOLD), ranks, win_rows)
    for s in range(n):
        S.pl[s, C.PL_STATS + C.ST_RIBBONS] = S.pl[s, C.PL_RIBBONS]
        S.pl[s, C.PL_STATS + C.ST_GOLD] = S.pl[s, C.PL_GOLD]
        S.pl[s, C.PL_STATS + C.ST_ESTATE_SIZE] = S.pl[s, C.PL_N_CARDS]
        row = player_rows[s]
        row[P.game_id] = game_id
        row[P.seat] = s
        row[P.faction] = S.pl[s, C.PL_RACE]
        row[P.policy] = S.pl[s, C.PL_POLICY]
        row[P.score] = S.pl[s, C.PL_VP]
        row[P.rank] = ranks[s]
        for k in range(len(C.PLAYER_STATS)):
            row[P.ribbons + k] = S.pl[s, C.PL_STATS + k]
        row[P.search_rollouts] = X.search.rollouts[s]
    game_row[G.game_id] = game_id
    game_row[G.n_players] = n
    game_row[G.rounds] = R.p[P_YEARS]
    game_row[G.decisions] = S.g[C.G_DECISIONS]
    game_row[G.end_reason] = 0
    game_row[G.n_winners] = winners
    game_row[G.judges_awarded] = S.g[C.G_JUDGED]
    game_row[G.spring_turns] = S.g[C.G_TURNS]
    game_row[G.treated_seat] = S.g[C.G_TREATED_SEAT]


COUNTERS = Counters(C.G_EV, C.G_ROUNDS, C.G_OVERFLOW, C.G_VIOLATION)


@unvectorized
@jit
def run_chunk(S, R, X, seed, first_game, n_games, counts, seat_policies, games, players, wins,
              events_per_game_max, rounds_per_game_max, check):
    """The compiled entry point: sim/core/driver.py's loop over Dragon Brew's play and record."""
    return play_chunk(play, record, COUNTERS, S, R, X, seed, first_game, n_games, counts, seat_policies,
                      games, players, wins, events_per_game_max, rounds_per_game_max, check)


@unvectorized
@jit
def run_chunk_without_search(S, R, X, seed, first_game, n_games, counts, seat_policies, games, players, wins,
                             events_per_game_max, rounds_per_game_max, check):
    """run_chunk for a run none of whose bots searches: the same games, without compiling the
    search bot's rollouts."""
    return play_chunk(play_without_search, record, COUNTERS, S, R, X, seed, first_game, n_games, counts,
                      seat_policies, games, players, wins, events_per_game_max, rounds_per_game_max, check)



def compile_ahead(S, R, X):
    """The big functions of this kernel's call tree, in the order it reaches them (callees
    first), with arguments of the types it passes: a cold compile shares them between two
    processes (sim/core/ahead.py)."""
    B = X.bots
    seats = np.zeros(1, np.int64)
    V = memory.value_view.py_func(S, R, B)  # the valuations' view of S, R and B
    return [(beers.select, (S, R, B, 0, 0, False, 0.0)),  # first: start_turn, soon after, needs it
            (card_values.action_core, (*V, 0, 0, 0)),  # the planning and the choosing both need it
            (assign_seats, (S, np.uint64(0), 0, 0, seats, X.pool, X.lineup, X.rotate, S.tmp[16], S.tmp[17])),
            (ru.setup, (S, R, 0, S.tmp[16], S.tmp[17], 0, 0)),
            (ru.legal_moves, (S, R, 0)),
            (card_values.recast_value, (*V, 0, 0)),
            (card_values.naga_mana_bonus, (*V, 0)),
            (choices.start_turn, (S, R, B, 0)),
            (choices.choose, (S, R, B, 0, 0)),
            (ru.drafts.clear_draft, (S, R, B, 0)),
            (ru.drafts.do_draft, (S, R, B, 0, 0, 0, False, True)),
            (ru.actions.perform, (S, R, B, 0, 0, 0)),
            (ru.spells.cast_spell, (S, R, B, 0, 0, 0, True, 0, 0, True)),
            (ru.apply_move, (S, R, B, 0, S.moves[0])),
            (inv.check_all, (S, R, 0)),
            (ru.fall_phase.brew_beers, (S, R, B, 0)),
            (ru.fall_phase.judge_all, (S, R)),
            (ru.fall, (S, R, B)),
            (ru.winter_phase.winter_player, (S, R, B, 0)),
            record_to_compile(record, S, R, X, GAMES, PLAYERS)]
