"""The sequential stopping rule of `simulate --until-decided` on synthetic Bernoulli streams
with known rates: a null inside the band is rarely declared outside, a clear deviation is
found with the right sign, and naive per-look 95% intervals (the mistake the Bonferroni
spending avoids) would be caught by the same check."""

import numpy as np
import polars as pl
import pytest
from scipy.stats import binomtest

from analysis.sequential import Plan, decide, hypotheses, run_sequence, step
from analysis.stats import INSIDE, OUTSIDE, UNDECIDED

FAIR, BAND = 0.25, 0.03
REPLICATES, M = 2000, 4


def simulate_streams(p: np.ndarray, plan: Plan, seed: int, looks: int | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Final verdicts (replicates x m) and the look each replicate stopped at, for
    independent Bernoulli streams with true rates p (m,), run through `step` look by look
    (`looks` overrides the plan's number of looks, to misuse a plan on purpose)."""
    looks = looks or plan.looks
    rng = np.random.default_rng(seed)
    wins = np.zeros((REPLICATES, p.size))
    verdict = np.full((REPLICATES, p.size), UNDECIDED, dtype=object)
    stopped = np.full(REPLICATES, looks)
    running = np.ones(REPLICATES, dtype=bool)
    for k in range(1, looks + 1):
        wins = wins + rng.binomial(plan.batch, p, size=wins.shape) * running[:, None]
        _, _, new = step(wins, np.full(wins.shape, k * plan.batch), FAIR, plan, verdict)
        verdict = np.where(running[:, None], new, verdict)
        done = running & (verdict != UNDECIDED).all(axis=1)
        stopped[done] = k
        running &= ~done
        if not running.any():
            break
    return verdict, stopped


def plan(alpha=0.05, hypotheses=M) -> Plan:
    return Plan(band=BAND, alpha=alpha, batch=500, max_games=20_000, hypotheses=hypotheses)


def test_per_interval_confidence_is_bonferroni_over_looks_and_hypotheses():
    p = plan()
    assert p.looks == 40
    assert p.confidence() == pytest.approx(1 - 0.05 / 160)


def test_step_intervals_match_scipy_wilson():
    p = plan()
    lo, hi, _ = step(np.array([130.0]), np.array([500.0]), FAIR, p)
    ref = binomtest(130, 500).proportion_ci(confidence_level=1 - 0.05 / 160, method="wilson")
    assert (lo[0], hi[0]) == pytest.approx((ref.low, ref.high), abs=1e-10)


def test_null_on_the_band_edge_is_rarely_declared_outside():
    # The hardest null: every rate exactly on the upper edge (inside, barely).
    verdict, _ = simulate_streams(np.full(M, FAIR + BAND), plan(), seed=1)
    wrong = (verdict == OUTSIDE).any(axis=1).mean()
    assert wrong <= 0.05


def test_naive_per_look_intervals_would_fail_the_same_check():
    # Same streams with 95% intervals at every look and no spending: the family-wise
    # error of wrongly declaring 'outside' is far above 5% (the check above can fail).
    naive = Plan(band=BAND, alpha=0.05, batch=500, max_games=500, hypotheses=1)  # 95% intervals
    assert naive.confidence() == pytest.approx(0.95)
    verdict, _ = simulate_streams(np.full(M, FAIR + BAND), naive, seed=1, looks=40)
    assert (verdict == OUTSIDE).any(axis=1).mean() > 0.10


def test_fair_rates_are_declared_inside():
    verdict, stopped = simulate_streams(np.full(M, FAIR), plan(), seed=2)
    assert (verdict == INSIDE).all(axis=1).mean() >= 0.95
    assert np.median(stopped) < plan().looks  # it stops early, not at the cap


def test_a_clear_deviation_is_found_with_the_right_sign():
    rates = np.array([FAIR, FAIR, FAIR + 0.10, FAIR - 0.10])
    verdict, _ = simulate_streams(rates, plan(), seed=3)
    assert (verdict[:, 2] == OUTSIDE).mean() >= 0.99
    assert (verdict[:, 3] == OUTSIDE).mean() >= 0.99
    assert (verdict[:, :2] == OUTSIDE).mean() <= 0.01


def players_table(wins_by_seat: list[list[float]]) -> pl.DataFrame:
    """One 2-player game per column; rows = seats."""
    rows = [{"game_id": g, "n_players": 2, "seat": s, "faction": "none", "win": w}
            for s, seat_wins in enumerate(wins_by_seat) for g, w in enumerate(seat_wins)]
    return pl.DataFrame(rows)


def test_decide_on_a_table_keeps_earlier_verdicts_and_uses_seats_when_symmetric():
    p = Plan(band=0.2, alpha=0.05, batch=100, max_games=200, hypotheses=2)
    first = hypotheses(players_table([[1.0] * 95 + [0.0] * 5, [0.0] * 95 + [1.0] * 5]))
    assert first["kind"].to_list() == ["seat", "seat"]
    d1 = decide(first, p)
    assert d1["verdict"].to_list() == [OUTSIDE, OUTSIDE]
    # A later look with balanced wins would be 'inside' or undecided, but decided stays decided.
    later = first.with_columns(wins=pl.lit(100.0), games=pl.lit(200))
    final, look = run_sequence([first, later], p)
    assert look == 1 and final["verdict"].to_list() == [OUTSIDE, OUTSIDE]
    d2 = decide(later, p, {(2, "0"): OUTSIDE})
    assert d2["verdict"][0] == OUTSIDE and d2["verdict"][1] != OUTSIDE


def test_look_tables_are_cumulative_per_batch():
    from analysis.sequential import look_tables

    # 5 games of 2 players, looks of 2 games: seat 0 wins games 0, 1 and 4.
    players = players_table([[1.0, 1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0, 0.0]])
    tables = look_tables(players, batch=2)
    assert [t["games"].to_list() for t in tables] == [[2, 2], [4, 4], [5, 5]]
    assert [t["wins"].to_list() for t in tables] == [[2.0, 0.0], [2.0, 2.0], [3.0, 2.0]]
    assert tables[-1].equals(hypotheses(players))
