"""Known-truth checks of the strength statistics on synthetic games: a bot equal to its
opponent gets an interval that covers the fair share about 95% of the time; a planted edge is
found with the right sign; the budget where search stops improving is the first that is as
good as the best, paired by game."""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.strength import analyse


def synthetic(n_games: int, n_players: int, p_candidate: float, rng: np.random.Generator) -> pl.DataFrame:
    """Players table of games with the candidate ('search') in alternate seats, rotated game
    by game, and 'greedy' in the others; one winner per game, a candidate seat winning with
    total probability p_candidate (shared equally among its seats)."""
    rows = []
    for g in range(n_games):
        mine = [(s + g) % 2 == 0 for s in range(n_players)]
        k = sum(mine)
        weights = np.array([p_candidate / k if m else (1 - p_candidate) / (n_players - k) for m in mine])
        winner = rng.choice(n_players, p=weights)
        rows += [{"game_id": g, "n_players": n_players, "seat": s, "policy": "search" if mine[s] else "greedy",
                  "win": float(s == winner), "search_rollouts": 10 if mine[s] else 0} for s in range(n_players)]
    return pl.DataFrame(rows)


def test_equal_bots_cover_the_fair_share_about_95_percent():
    rng = np.random.default_rng(7)
    covered = 0
    trials = 300
    for _ in range(trials):
        players = synthetic(200, 4, 0.5, rng)  # 2 of 4 seats, half the wins: fair 1/4 per seat
        row = analyse([(16, players)], "search", "greedy").share.row(0, named=True)
        covered += row["lo"] <= 0.25 <= row["hi"]
    assert 0.91 <= covered / trials <= 0.99


def test_planted_edge_found_with_the_right_sign():
    rng = np.random.default_rng(3)
    players = synthetic(2000, 2, 0.65, rng)
    row = analyse([(16, players)], "search", "greedy").share.row(0, named=True)
    assert row["lo"] > 0.5 and abs(row["share"] - 0.65) < 0.04
    assert abs(row["ratio"] - 2 * row["share"]) < 1e-12
    weak = analyse([(16, synthetic(2000, 2, 0.35, rng))], "search", "greedy").share.row(0, named=True)
    assert weak["hi"] < 0.5


def test_stop_budget_is_the_first_as_good_as_the_best():
    """Budgets 4 and 16 share their luck (the same games) and differ on a few; 64 = 16."""
    rng = np.random.default_rng(11)
    strong = synthetic(3000, 2, 0.70, rng)
    weak = strong.with_columns(  # flip the candidate's wins of a third of the games to losses
        win=pl.when(pl.col("game_id") % 3 == 0).then(pl.col("policy") == "greedy")
        .otherwise(pl.col("win") > 0).cast(pl.Float64))
    s = analyse([(4, weak), (16, strong), (64, strong)], "search", "greedy", {4: 1.0, 16: 2.0, 64: 4.0})
    stop = s.stops.row(0, named=True)
    assert stop["stop_budget"] == 16
    share = {r["budget"]: r for r in s.share.to_dicts()}
    assert share[4]["diff_hi"] < 0 and not share[4]["not_below_best"]
    assert share[16]["games_per_s"] == 1500 and share[16]["rollouts_per_s"] == 3000 * 10 / 2.0
    assert any("stops improving at budget 16" in line for line in s.verdicts)
