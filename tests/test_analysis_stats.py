"""Interval estimates and verdict helpers, cross-checked against scipy and the literature."""

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats as sp

from analysis.stats import (
    INSIDE,
    OUTSIDE,
    UNDECIDED,
    fairness_verdict,
    games_to_decide,
    group_sums,
    mean_diff,
    newcombe_diff,
    wilson,
)

INTEGER_CASES = [(0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (7, 23), (500, 1000), (1, 2000)]


@pytest.mark.parametrize(("k", "n"), INTEGER_CASES)
def test_wilson_matches_scipy_binomtest(k, n):
    ci = sp.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(ci.low, abs=1e-12)
    assert hi == pytest.approx(ci.high, abs=1e-12)


def test_wilson_is_vectorised_and_handles_empty_samples():
    lo, hi = wilson(np.array([3, 0]), np.array([10, 0]))
    ref = sp.binomtest(3, 10).proportion_ci(method="wilson")
    assert lo[0] == pytest.approx(ref.low) and hi[0] == pytest.approx(ref.high)
    assert np.isnan(lo[1]) and np.isnan(hi[1])


@pytest.mark.parametrize(("s", "n"), [(1.5, 3), (2.5, 4), (0.5, 1), (10 / 3, 7)])
def test_wilson_fractional_bounds_solve_the_score_equation(s, n):
    # Wilson bounds are the two roots p of (p - phat)^2 = z^2 p (1 - p) / n; solve
    # that quadratic independently for a fractional number of successes (ties).
    z = sp.norm.ppf(0.975)
    phat = s / n
    a, b, c = 1 + z * z / n, -(2 * phat + z * z / n), phat * phat
    roots = np.sort(np.roots([a, b, c]).real)
    lo, hi = wilson(s, n)
    assert (lo, hi) == pytest.approx(tuple(roots), abs=1e-12)


def test_wilson_fractional_lies_between_integer_neighbours():
    lo_1, _ = wilson(1, 3)
    lo_15, hi_15 = wilson(1.5, 3)
    lo_2, _ = wilson(2, 3)
    assert lo_1 < lo_15 < lo_2
    assert lo_15 < 0.5 < hi_15


# Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10 (score, no CC).
NEWCOMBE_TABLE = [
    ((56, 70, 48, 80), (0.0524, 0.3339)),
    ((9, 10, 3, 10), (0.1705, 0.8090)),
    ((6, 7, 2, 7), (0.0582, 0.8062)),
    ((5, 56, 0, 29), (-0.0381, 0.1926)),
    ((0, 10, 0, 20), (-0.1611, 0.2775)),
    ((10, 10, 0, 20), (0.6791, 1.0000)),
]


@pytest.mark.parametrize(("counts", "expected"), NEWCOMBE_TABLE)
def test_newcombe_matches_published_intervals(counts, expected):
    diff, lo, hi = newcombe_diff(*counts)
    s1, n1, s2, n2 = counts
    assert diff == pytest.approx(s1 / n1 - s2 / n2)
    assert lo == pytest.approx(expected[0], abs=6e-5)
    assert hi == pytest.approx(expected[1], abs=6e-5)


def test_newcombe_is_antisymmetric():
    d1, lo1, hi1 = newcombe_diff(2.5, 3, 0.5, 3)
    d2, lo2, hi2 = newcombe_diff(0.5, 3, 2.5, 3)
    assert d1 == pytest.approx(-d2)
    assert lo1 == pytest.approx(-hi2) and hi1 == pytest.approx(-lo2)


def test_mean_diff_matches_scipy_welch_interval():
    rng = np.random.default_rng(3)
    a, b = rng.normal(10, 2, 40), rng.normal(11, 3, 25)
    diff, lo, hi = mean_diff(a.mean(), a.std(ddof=1), len(a), b.mean(), b.std(ddof=1), len(b))
    ci = sp.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert diff == pytest.approx(a.mean() - b.mean())
    assert lo == pytest.approx(ci.low, rel=1e-9)
    assert hi == pytest.approx(ci.high, rel=1e-9)


def test_mean_diff_needs_two_values_per_side():
    _, lo, hi = mean_diff(5.0, np.nan, 1, 4.0, 1.0, 10)
    assert np.isnan(lo) and np.isnan(hi)


def test_fairness_verdict_rule():
    fair, band = 0.5, 0.03
    lo = np.array([0.55, 0.48, 0.40, 0.20, 0.47])
    hi = np.array([0.60, 0.52, 0.60, 0.45, 0.53])
    assert list(fairness_verdict(lo, hi, fair, band)) == [OUTSIDE, INSIDE, UNDECIDED, OUTSIDE, INSIDE]


@pytest.mark.parametrize(("wins", "games"), [(55, 100), (104, 200), (40, 100), (51, 100)])
def test_games_to_decide_is_enough_when_the_rate_holds(wins, games):
    fair, band = 0.5, 0.03
    lo, hi = wilson(wins, games)
    rate = wins / games
    assert fairness_verdict(lo, hi, fair, band) == UNDECIDED
    extra = float(games_to_decide(rate, lo, hi, games, fair, band))
    assert extra > 0
    # The rough 1/sqrt(n) rule should land close: with 30% more games than it asks for,
    # the interval at the same rate is decided.
    total = games + 1.3 * extra
    lo2, hi2 = wilson(rate * total, total)
    assert fairness_verdict(lo2, hi2, fair, band) != UNDECIDED


def test_games_to_decide_zero_when_decided_and_inf_on_edge():
    lo, hi = wilson(700, 1000)
    assert games_to_decide(0.7, lo, hi, 1000, 0.5, 0.03) == 0
    lo, hi = wilson(53, 100)
    assert np.isinf(games_to_decide(0.53, lo, hi, 100, 0.5, 0.03))


def _shares_frame(rows: int, seed: int) -> pl.DataFrame:
    """Win shares of ties (1/2, 1/3, 1/6 ...) in a few groups: sums whose last bits depend on
    the order of the additions."""
    rng = np.random.default_rng(seed)
    return pl.DataFrame({"card": rng.choice(["a", "b", "c"], rows), "n_players": rng.integers(2, 5, rows),
                         "s": rng.choice([0.0, 1.0, 1 / 2, 1 / 3, 1 / 6, 1 / 5], rows)})


def test_group_sums_depend_on_each_group_alone_whatever_polars_threads():
    # The same groups with their rows interleaved differently (each group's own order kept):
    # a sum made of per-thread partial sums changes bits, a sum of the group's rows does not.
    df = _shares_frame(2_000_000, seed=1).with_row_index("row")
    interleaved = df.sort("card", "n_players", "row")
    keys = ["card", "n_players"]
    got = group_sums(df, keys, s="s", twice=pl.col("s") * 2)
    again = group_sums(interleaved, keys, s="s", twice=pl.col("s") * 2).sort(keys)
    assert got.columns == [*keys, "s", "twice"]
    assert got.sort(keys).equals(again)
    for (card, n, s, twice) in got.iter_rows():
        values = df.filter((pl.col("card") == card) & (pl.col("n_players") == n))["s"].to_list()
        assert s == pytest.approx(math.fsum(values), rel=1e-12)
        assert twice == pytest.approx(2 * s, rel=1e-12)


def test_group_sums_is_the_same_on_every_call_and_counts_nulls_as_zero():
    df = _shares_frame(1_000_000, seed=2)
    first = group_sums(df, ["card"], s="s")
    assert all(group_sums(df, ["card"], s="s").equals(first) for _ in range(3))
    with_nulls = pl.DataFrame({"k": [2, 1, 1], "v": [None, 1.5, None]})
    assert group_sums(with_nulls, ["k"], v="v").to_dicts() == [{"k": 2, "v": 0.0}, {"k": 1, "v": 1.5}]
    empty = group_sums(df.head(0), ["card"], s="s")
    assert empty.is_empty() and empty.columns == ["card", "s"] and empty["s"].dtype == pl.Float64
