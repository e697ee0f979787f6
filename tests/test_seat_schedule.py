"""The seat schedule (sim/core/schedule.py): within each player count, every (seat, bot) and every
(seat, faction) pair occurs equally often, up to one game, for any number of player counts, bots
and lineup length; and every game's kernel really follows it."""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest

from sim.core.config import prepare
from sim.core.schedule import lineup_rotates, position, seat_table
from sim.registry import get_game

COUNT_LISTS = ([2], [2, 3], [2, 4], [2, 3, 4], [2, 3, 4, 5], [2, 2, 3], [3, 6], [2, 3, 4, 5, 6])
N_BOTS = (1, 2, 3, 4, 5, 6)


def pair_counts(rows: np.ndarray, n: int, column: int, levels: int) -> np.ndarray:
    """(seat x level) counts of one player count's rows of a seat_table."""
    sub = rows[rows[:, 0] == n]
    counts = np.zeros((n, levels), np.int64)
    np.add.at(counts, (sub[:, 1], sub[:, column]), 1)
    return counts


def assert_balanced(rows, counts_list, column, levels, what):
    for n in set(counts_list):
        c = pair_counts(rows, n, column, levels)
        assert c.max() - c.min() <= 1, f"{what}, {n} players: (seat x level) counts\n{c}"


@pytest.mark.parametrize("counts", COUNT_LISTS, ids=str)
def test_every_bot_sits_in_every_seat_equally_often(counts):
    for bots in N_BOTS:
        for games in (1, 97, 1000):
            rows = seat_table(games, counts, bots)
            if games >= len(counts) * bots * 2:
                assert_balanced(rows, counts, 2, bots, f"{bots} bots, {games} games")
            else:  # a short run: still never more than one game apart
                for n in set(counts):
                    c = pair_counts(rows, n, 2, bots)
                    assert c.max() - c.min() <= 1


def test_the_reported_case_rotates():
    """`--players 2,3 --policies greedy,random` used to seat greedy in seat 0 of every 2-player
    game (the rotation stepped by the number of player counts)."""
    rows = seat_table(2000, [2, 3], 2)
    assert pair_counts(rows, 2, 2, 2).tolist() == [[500, 500], [500, 500]]
    assert (pair_counts(rows, 3, 2, 2).sum(axis=1) == 1000).all()


@pytest.mark.parametrize("counts", COUNT_LISTS, ids=str)
@pytest.mark.parametrize("size", (6, 7, 8))
def test_a_lineup_rotates_every_faction_through_every_seat(counts, size):
    for bots in N_BOTS:
        rows = seat_table(1009, counts, bots, lineup_size=size)
        assert_balanced(rows, counts, 3, size, f"lineup of {size}, {bots} bots")
        assert_balanced(rows, counts, 2, bots, f"bots beside a lineup of {size}")


@pytest.mark.parametrize("bots,size", [(2, 4), (3, 4), (4, 4), (3, 6), (1, 5), (5, 3), (2, 3)])
@pytest.mark.parametrize("n", [2, 3])
def test_lineup_and_bots_cross_in_every_seat(bots, size, n):
    """Over bots x seats x lineup positions each seat meets each (bot, faction) combination
    equally often (n times), so a faction is never tied to a bot."""
    if size < n:
        return
    rows = seat_table(bots * n * size, [n], bots, lineup_size=size)
    cube = np.zeros((n, bots, size), np.int64)
    np.add.at(cube, (rows[:, 1], rows[:, 2], rows[:, 3]), 1)
    assert (cube == n).all()


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("bots", [2, 3, 4])
def test_every_seat_faces_the_same_mixes_of_bots(n, bots):
    """Over bots x seats positions, the (own bot, bots of the next seats in turn order) that a
    seat meets are the same for every seat: a mixed run cannot make one seat the lone strong
    bot more often than another (with 2 bots at 3 players, rotating the bot list alone makes
    seat 1 the lone greedy bot whenever it is greedy)."""
    rows = seat_table(bots * n * 3, [n], bots)
    tables = rows[:, 2].reshape(-1, n)
    seen = [sorted(tuple(np.roll(t, -s)) for t in tables) for s in range(n)]
    assert all(seen[s] == seen[0] for s in range(n))


def test_fixed_seats_keep_the_listed_order():
    rows = seat_table(60, [4], 3, lineup_size=4, rotate=False)
    assert (rows[:, 3] == rows[:, 1]).all()
    assert lineup_rotates({"lineup": ["a"]}) and not lineup_rotates({"lineup": ["a"], "seats": "fixed"})


@pytest.mark.parametrize("counts", COUNT_LISTS, ids=str)
@pytest.mark.parametrize("pool", (6, 7, 19))
def test_drawn_factions_are_distinct_and_balanced_by_seat(counts, pool):
    rows = seat_table(3 * pool * len(counts) + 5, counts, 2, pool_size=pool, seed=9)
    assert_balanced(rows, counts, 3, pool, f"pool of {pool}")
    start = 0
    for g in range(3 * pool * len(counts) + 5):  # factions are distinct within each game
        n = counts[g % len(counts)]
        assert len(set(rows[start:start + n, 3])) == n
        start += n


def test_drawn_tables_are_random_across_cycles():
    """Every pair of factions meets, and consecutive cycles use different orders."""
    rows = seat_table(7 * 60, [3], 1, pool_size=7, seed=1)
    met = set()
    for g in range(7 * 60):
        met |= set(itertools.combinations(sorted(rows[3 * g:3 * g + 3, 3]), 2))
    assert len(met) == 21
    first, second = rows[:21, 3], rows[21:42, 3]
    assert not np.array_equal(first, second)
    # a different seed gives a different schedule
    assert not np.array_equal(seat_table(70, [3], 1, pool_size=7, seed=2)[:, 3],
                              seat_table(70, [3], 1, pool_size=7, seed=1)[:, 3])


def test_position_counts_games_of_one_player_count():
    counts = np.array([2, 3, 2], np.int64)
    twos = [position(g, counts) for g in range(30) if counts[g % 3] == 2]
    assert twos == list(range(20))
    assert [position(g, np.array([4])) for g in range(5)] == [0, 1, 2, 3, 4]


# --- every kernel follows the schedule -------------------------------------------------------------

KERNEL_CASES = [  # (game, variant, player counts, bots, options): bots and counts share a factor
    ("dwarfest", "base", [2, 3, 4], ["greedy", "random", "cautious"], None),
    ("brewin_usa", "base", [2, 4], ["greedy", "random"], None),
    ("homebrewers", "characters", [2, 3, 4], ["greedy", "random", "racer"], None),
    ("homebrewers", "characters", [4], ["greedy", "random"], {"lineup": ["tony", "andrew", "colt", "evie"]}),
    ("dragon_brew", "base", [2, 3, 4], ["greedy", "random", "builder"], None),
    ("dragon_brew", "base", [3], ["greedy", "random"], {"lineup": ["ogre", "naga", "giant"]}),
]


def played_seats(game_id, variant, counts, bots, options, n_games):
    game = get_game(game_id)
    config = game.build(prepare(game_id, variant, [], []))
    extra = {"options": options} if options else {}  # symmetric games take no faction options
    shard = game.simulate(config, 5, 0, n_games, counts, bots, **extra)
    players = shard.frames["players"].join(shard.frames["games"].select("game_id", "n_players"),
                                           on="game_id")
    return players.with_columns(pl.col("policy").cast(pl.String), pl.col("faction").cast(pl.String))


def spread(players: pl.DataFrame, column: str) -> int:
    """Largest (max - min) over player counts of the (seat, column) pair counts, zeros included."""
    worst = 0
    for (_,), group in players.group_by(["n_players"]):
        table = group.group_by("seat", column).len().pivot(on=column, index="seat", values="len")
        worst = max(worst, int(np.ptp(table.fill_null(0).drop("seat").to_numpy())))
    return worst


@pytest.mark.parametrize("case", KERNEL_CASES, ids=lambda c: f"{c[0]}-{len(c[2])}counts-{c[4] and 'lineup'}")
def test_kernels_seat_bots_and_factions_by_the_schedule(case):
    game_id, variant, counts, bots, options = case
    players = played_seats(game_id, variant, counts, bots, options, 360)
    assert spread(players, "policy") <= 1
    if players["faction"].n_unique() > 1:
        assert spread(players, "faction") <= 1
