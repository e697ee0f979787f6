"""Paired compare(): runs with the same seed and player counts share their deals, so
game i of A and game i of B are compared game by game."""

import numpy as np
import pytest
from runfixture import manifest, write_run
from scipy import stats

import analysis
from analysis.paired import variance_reduction


def _two_player(winners: list[int], scores=None) -> list[dict]:
    """2-player games; winners[i] is the winning seat of game i."""
    if scores is not None:
        return [{"scores": list(s)} for s in scores]
    return [{"scores": [9, 1] if w == 0 else [1, 9]} for w in winners]


def _row(c, metric: str, group: str) -> dict:
    m = c.metrics
    return m.filter((m["metric"] == metric) & (m["group"] == group)).to_dicts()[0]


A_WINNERS = [0] * 5 + [1] * 5           # seat 0 wins games 0-4
B_WINNERS = [0] * 7 + [1] * 3           # ... and, in B, games 5 and 6 flip to seat 0


@pytest.fixture
def flipped(tmp_path):
    a = write_run(tmp_path / "a", _two_player(A_WINNERS), manifest_data=manifest(n_games=10))
    b = write_run(tmp_path / "b", _two_player(B_WINNERS), manifest_data=manifest(n_games=10))
    return analysis.compare(a, b)


def test_flipped_wins_give_the_hand_computed_paired_interval(flipped):
    # d = win_B - win_A for seat 0: two 1s, eight 0s. mean 0.2,
    # Var_d = (2 * 0.8^2 + 8 * 0.2^2) / 9 = 1.6 / 9, se = sqrt(1.6 / 9 / 10) = 2/15,
    # t(0.975, 9) = 2.2621571627 -> half-width 0.30162095503.
    row = _row(flipped, "seat win rate", "seat 0, 2p")
    assert flipped.paired and flipped.n_paired == 10
    assert row["paired"]
    assert (row["value_a"], row["value_b"]) == pytest.approx((0.5, 0.7))
    assert row["diff"] == pytest.approx(0.2)
    assert row["lo"] == pytest.approx(0.2 - 0.30162095503, abs=1e-9)
    assert row["hi"] == pytest.approx(0.2 + 0.30162095503, abs=1e-9)
    assert not row["significant"]
    # t = 0.2 / (2/15) = 1.5 on 9 df; cross-checked against scipy's paired t-test.
    ttest = stats.ttest_rel((np.array(B_WINNERS) == 0).astype(float),
                            (np.array(A_WINNERS) == 0).astype(float))
    assert row["p_value"] == pytest.approx(ttest.pvalue)
    # Var_A = 2.5 / 9, Var_B = 2.1 / 9, Var_d = 1.6 / 9 -> (2.5 + 2.1) / 1.6 = 2.875.
    assert row["variance_reduction"] == pytest.approx(2.875)


def test_first_player_advantage_is_paired_against_the_fair_share(flipped):
    row = _row(flipped, "first-player advantage", "2p")
    assert (row["value_a"], row["value_b"]) == pytest.approx((0.0, 0.2))
    assert row["diff"] == pytest.approx(0.2) and row["paired"]


def test_paired_verdict_lines_report_pairing_and_variance_reduction(flipped):
    text = "\n".join(flipped.verdicts)
    assert "Paired analysis: both runs use seed 7 and player counts [2, 3]" in text
    assert "10 games present in both" in text
    assert "median variance reduction 2.9x" in text
    assert "significant after Holm across 2 tests" in text


def test_strongly_correlated_runs_gain_from_pairing(tmp_path):
    # B's scores are A's plus a small per-game change: the shared luck cancels.
    rng = np.random.default_rng(11)
    base = rng.integers(0, 40, size=(300, 2))
    bump = base + rng.integers(0, 3, size=(300, 2))
    a = write_run(tmp_path / "a", _two_player([], base), manifest_data=manifest(n_games=300))
    b = write_run(tmp_path / "b", _two_player([], bump), manifest_data=manifest(n_games=300))
    c = analysis.compare(a, b)
    score = _row(c, "mean score", "2p")
    assert score["variance_reduction"] > 20
    assert score["diff"] == pytest.approx(float((bump - base).mean()))
    assert score["significant"]  # +1 on average, now easily resolved
    # Per game, seat scores are averaged first: the unit is the game.
    per_game = (bump - base).mean(axis=1)
    half = stats.t.ppf(0.975, 299) * per_game.std(ddof=1) / np.sqrt(300)
    assert (score["lo"], score["hi"]) == pytest.approx((per_game.mean() - half,
                                                        per_game.mean() + half))
    seat0 = _row(c, "seat win rate", "seat 0, 2p")
    assert seat0["variance_reduction"] > 1


def test_pairing_uses_only_games_present_in_both(tmp_path):
    a = write_run(tmp_path / "a", _two_player(A_WINNERS), manifest_data=manifest(n_games=10))
    b = write_run(tmp_path / "b", _two_player(B_WINNERS[:6]), manifest_data=manifest(n_games=6))
    c = analysis.compare(a, b)
    assert c.n_paired == 6
    row = _row(c, "seat win rate", "seat 0, 2p")
    # Games 0-5: A seat 0 wins 5 of 6, B seat 0 wins 6 of 6.
    assert (row["value_a"], row["value_b"], row["diff"]) == pytest.approx((5 / 6, 1.0, 1 / 6))


@pytest.mark.parametrize("change", [{"seed": 8}, {"player_counts": [2]}, {"seed": None}])
def test_pairing_is_not_detected_without_shared_deals(tmp_path, change):
    # A missing seed never pairs, even when both sides lack it.
    a_manifest = manifest(n_games=10, **(change if change == {"seed": None} else {}))
    a = write_run(tmp_path / "a", _two_player(A_WINNERS), manifest_data=a_manifest)
    b = write_run(tmp_path / "b", _two_player(B_WINNERS),
                  manifest_data=manifest(n_games=10, **change))
    c = analysis.compare(a, b)
    assert not c.paired and c.n_paired == 0
    assert not c.metrics["paired"].any()
    assert c.metrics["variance_reduction"].is_nan().all()
    assert any(line.startswith("Runs treated as independent samples") for line in c.verdicts)
    # Unpaired: the Newcombe interval of the independent-samples analysis.
    row = _row(c, "seat win rate", "seat 0, 2p")
    assert row["diff"] == pytest.approx(0.2)
    assert row["hi"] - row["lo"] > 0.6


def test_variance_reduction_edge_cases():
    out = variance_reduction([1.0, 0.0, 1.0], [1.0, 0.0, 1.0], [0.5, 0.0, 0.0])
    assert out[0] == pytest.approx(4.0)
    assert np.isnan(out[1]) and np.isinf(out[2])


def test_metrics_frame_has_the_new_columns(flipped):
    assert {"p_value", "p_holm", "significant_holm", "variance_reduction",
            "paired"} <= set(flipped.metrics.columns)
    holm_rows = flipped.metrics.filter(flipped.metrics["significant_holm"].is_not_null())
    assert set(holm_rows["metric"]) == {"seat win rate"}
