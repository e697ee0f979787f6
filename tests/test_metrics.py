"""The shared metrics of analysis/metrics.py on synthetic data with a known answer: the
first-player advantage of a planted first-seat edge and of a fair game (also as analyze and
sweep report it: one definition), the Holm family against a hand-computed example, and the
win share of tied finishing orders."""

import numpy as np
import polars as pl
import pytest

from analysis.core import first_player, with_fairness
from analysis.metrics import (
    fair_share,
    first_player_advantage,
    first_seat,
    holm_family,
    significant,
    win_share,
)
from analysis.stats import wilson
from analysis.sweep import shape

GAMES = 20_000


def players(n_players: int, first_wins: float, seed: int) -> pl.DataFrame:
    """One row per (game, seat) of `GAMES` n-player games in which seat 0 wins with
    probability `first_wins` and the other seats share the rest equally (no ties)."""
    rng = np.random.default_rng(seed)
    rest = (1 - first_wins) / (n_players - 1)
    winner = rng.choice(n_players, size=GAMES, p=[first_wins] + [rest] * (n_players - 1))
    game = np.repeat(np.arange(GAMES), n_players)
    seat = np.tile(np.arange(n_players), GAMES)
    return pl.DataFrame({"game_id": game, "n_players": np.full(game.size, n_players), "seat": seat,
                         "faction": ["none"] * game.size,
                         "win": (seat == winner[game]).astype(float)})


def seat_table(rows: pl.DataFrame) -> pl.DataFrame:
    """What seat_winrate.sql returns: n_players, seat, games, wins, rate."""
    return (rows.group_by("n_players", "seat").agg(games=pl.len(), wins=pl.col("win").sum())
            .with_columns(rate=pl.col("wins") / pl.col("games")).sort("n_players", "seat"))


def advantage_of(rows: pl.DataFrame) -> tuple[float, float, float]:
    """The first-player advantage with its Wilson 95% interval, from per-seat rows."""
    first = first_seat(rows)
    wins, games = float(first["win"].sum()), first.height
    n = int(rows["n_players"][0])
    lo, hi = wilson(wins, games)
    return tuple(float(first_player_advantage(x, n)) for x in (wins / games, float(lo), float(hi)))


def test_fair_share_is_one_over_the_player_count():
    assert fair_share(np.array([2, 3, 4])).tolist() == [0.5, 1 / 3, 0.25]


@pytest.mark.parametrize("n_players, first_wins", [(2, 0.60), (3, 0.45), (4, 0.33)])
def test_a_planted_first_seat_edge_gives_a_positive_advantage(n_players, first_wins):
    estimate, lo, hi = advantage_of(players(n_players, first_wins, seed=n_players))
    planted = first_wins - 1 / n_players
    assert lo > 0
    assert lo < planted < hi
    assert estimate == pytest.approx(planted, abs=0.015)


@pytest.mark.parametrize("n_players", [2, 3, 5])
def test_a_fair_game_has_no_first_player_advantage(n_players):
    estimate, lo, hi = advantage_of(players(n_players, 1 / n_players, seed=10 + n_players))
    assert lo < 0 < hi
    assert abs(estimate) < 0.015


def test_a_handicapped_first_seat_gives_a_negative_advantage():
    estimate, _, hi = advantage_of(players(3, 0.25, seed=3))
    assert hi < 0
    assert estimate == pytest.approx(0.25 - 1 / 3, abs=0.015)


def test_analyze_and_sweep_report_the_same_advantage():
    rows = pl.concat([players(2, 0.58, seed=1), players(3, 0.40, seed=2)
                      .with_columns(game_id=pl.col("game_id") + GAMES)])
    first = first_player(with_fairness(seat_table(rows), band=0.03)).sort("n_players")
    swept = shape(rows, None, "seat").sort("n_players")
    expected = [advantage_of(rows.filter(pl.col("n_players") == n))[0] for n in (2, 3)]
    assert first["advantage"].to_list() == pytest.approx(expected, rel=1e-12)
    assert swept["fpa"].to_list() == pytest.approx(expected, rel=1e-12)
    assert expected[0] == pytest.approx(0.08, abs=0.015) and expected[1] == pytest.approx(0.40 - 1 / 3, abs=0.015)


def test_holm_family_matches_a_hand_computed_example():
    p = [0.01, 0.04, 0.03, 0.005]
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04; running max
    # 0.02, 0.03, 0.06, 0.06, back in the original order:
    assert holm_family(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert significant(holm_family(p)).tolist() == [True, False, False, True]


def test_holm_family_counts_only_its_members_with_a_test():
    p = [0.01, 0.04, 0.03, 0.005, np.nan]
    members = [True, True, False, True, True]
    # family of three (0.005, 0.01, 0.04): 0.015, 0.02, 0.04; the non-member and the
    # untested row are NaN and not counted
    adjusted = holm_family(p, members)
    assert adjusted[[0, 1, 3]] == pytest.approx([0.02, 0.04, 0.015])
    assert np.isnan(adjusted[[2, 4]]).all()
    assert significant(adjusted).tolist() == [True, True, False, True, False]


def test_holm_never_exceeds_one():
    assert holm_family([0.5, 0.6, 0.9]).tolist() == [1.0, 1.0, 1.0]


def test_win_share_splits_tied_victories_and_sums_to_one_per_game():
    rank = np.array([[1, 2, 3, 0],    # 3 players: seat 0 wins alone (seat 3 empty, rank 0)
                     [1, 1, 3, 0],    # two-way tie for first
                     [2, 2, 1, 3],    # seat 2 wins alone
                     [1, 1, 1, 1]])   # four-way tie
    seated = np.array([[True, True, True, False]] * 2 + [[True] * 4] * 2)
    share = win_share(rank, seated)
    assert share.tolist() == [[1, 0, 0, 0], [0.5, 0.5, 0, 0], [0, 0, 1, 0], [0.25] * 4]
    assert share.sum(axis=1).tolist() == [1.0] * 4
