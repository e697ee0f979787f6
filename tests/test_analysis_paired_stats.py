"""The hand-written tests behind paired compare and Holm, cross-checked against scipy."""

import numpy as np
import pytest
from scipy import stats

from analysis.stats import (
    paired_t,
    rate_vs_fair_p,
    two_proportion_p,
    welch_p,
    wilson,
)


def test_rate_vs_fair_p_is_the_test_the_wilson_interval_inverts():
    n = np.full(400, 400)
    wins = np.arange(400)
    lo, hi = wilson(wins, n)
    outside = (0.25 < lo) | (0.25 > hi)
    p = rate_vs_fair_p(wins, n, 0.25)
    assert ((p < 0.05) == outside).all()


def test_rate_vs_fair_p_is_close_to_the_exact_binomial_test_for_large_n():
    for wins in (530, 540, 545):
        p = rate_vs_fair_p(wins, 2000, 0.25)
        assert p == pytest.approx(stats.binomtest(wins, 2000, 0.25).pvalue, rel=0.1)


def test_two_proportion_p_matches_the_uncorrected_chi_square():
    table = np.array([[70, 30], [50, 50]])
    chi2 = stats.chi2_contingency(table, correction=False)
    assert two_proportion_p(70, 100, 50, 100) == pytest.approx(chi2.pvalue)
    assert two_proportion_p(5, 10, 5, 10) == pytest.approx(1.0)
    assert two_proportion_p(10, 10, 10, 10) == pytest.approx(1.0)  # nothing varies


def test_welch_p_matches_scipy_from_summary_statistics():
    ref = stats.ttest_ind_from_stats(5.0, 2.0, 30, 6.1, 3.0, 40, equal_var=False)
    assert welch_p(5.0, 2.0, 30, 6.1, 3.0, 40) == pytest.approx(ref.pvalue)
    assert np.isnan(welch_p(5.0, 2.0, 1, 6.1, 3.0, 40))


def test_paired_t_matches_scipy():
    rng = np.random.default_rng(3)
    a = rng.normal(size=50)
    b = a + rng.normal(0.3, 0.2, size=50)
    d = b - a
    lo, hi, p = paired_t(d.mean(), d.std(ddof=1), 50)
    ref = stats.ttest_rel(b, a)
    assert p == pytest.approx(ref.pvalue)
    ci = ref.confidence_interval(0.95)
    assert (lo, hi) == pytest.approx((ci.low, ci.high))


def test_paired_t_with_no_spread_is_exact():
    lo, hi, p = paired_t([0.0, 0.5], [0.0, 0.0], [10, 10])
    assert list(lo) == [0.0, 0.5] and list(hi) == [0.0, 0.5]
    assert list(p) == [1.0, 0.0]
    assert np.isnan(paired_t(0.1, 0.2, 1)[0])


def test_paired_stats_matches_scipy_per_group_and_lists_groups_in_order():
    import polars as pl

    from analysis.paired import paired_stats

    rng = np.random.default_rng(3)
    games = 600
    n_players = rng.choice([4, 2, 3], games)  # the first games are not in group order
    a = pl.DataFrame({"game_id": np.arange(games), "n_players": n_players, "score": rng.normal(20, 3, games)})
    b = a.with_columns(score=pl.col("score") + rng.normal(0.5, 1, games))
    got = paired_stats(a, b, ["game_id", "n_players"], ["n_players"], "score")
    assert got["n_players"].to_list() == [2, 3, 4]
    for row in got.iter_rows(named=True):
        mine = n_players == row["n_players"]
        d = b["score"].to_numpy()[mine] - a["score"].to_numpy()[mine]
        assert row["n"] == mine.sum()
        assert row["diff"] == pytest.approx(d.mean(), rel=1e-12)
        assert row["p_value"] == pytest.approx(stats.ttest_1samp(d, 0).pvalue, rel=1e-9)
