"""Analysis of the multi-arm commands on hand-built run folders with known answers:
paired experiment, parameter sweep (spread, first-player advantage) and robustness to bots
(Kendall's tau, flipped conclusions)."""

import numpy as np
import pytest
from runfixture import manifest, write_run
from scipy.stats import kendalltau

from analysis.experiment import run_experiment
from analysis.robustness import run_robustness
from analysis.sweep import game_matrix, heterogeneity, run_sweep, spread, sweep_records


def two_player(winners: list[int]) -> list[dict]:
    return [{"scores": [9, 1] if w == 0 else [1, 9]} for w in winners]


A_WINNERS = [0] * 5 + [1] * 5   # seat 0 wins games 0-4
B_WINNERS = [0] * 7 + [1] * 3   # in B, games 5 and 6 flip to seat 0


@pytest.fixture
def arms(tmp_path):
    a = write_run(tmp_path / "a", two_player(A_WINNERS), manifest_data=manifest(n_games=10))
    b = write_run(tmp_path / "b", two_player(B_WINNERS), manifest_data=manifest(n_games=10))
    return a, b


# ---------------------------------------------------------------- experiment
def test_experiment_pairs_arms_and_reports_the_variance_reduction(arms):
    a, b = arms
    e = run_experiment(("base", "baseline", a), [("flip", "set x=1", b)])
    arm = e.arms[0]
    assert arm.comparison.paired and arm.comparison.n_paired == 10
    seat0 = arm.key_rows.filter((arm.key_rows["metric"] == "seat win rate")
                                & (arm.key_rows["group"] == "seat 0, 2p")).to_dicts()[0]
    # d = two 1s and eight 0s: mean 0.2; Var_A 2.5/9, Var_B 2.1/9, Var_d 1.6/9 -> 2.875.
    assert seat0["diff"] == pytest.approx(0.2)
    assert seat0["variance_reduction"] == pytest.approx(2.875)
    line = next(x for x in e.verdicts if "variance reduction" in x)
    assert "win rates median 2.8" in line and "mean score n/a" in line  # scores never differ


def test_experiment_warns_when_an_arm_does_not_share_the_deals(tmp_path, arms):
    a, _ = arms
    other = write_run(tmp_path / "c", two_player(B_WINNERS), manifest_data=manifest(n_games=10, seed=8))
    e = run_experiment(("base", "baseline", a), [("other", "seed 8", other)])
    assert not e.arms[0].comparison.paired
    assert any(line.startswith("Warning: arms other") for line in e.verdicts)


# ---------------------------------------------------------------- sweep
def test_spread_by_hand():
    wins = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 0]], dtype=float)
    present = np.array([[1, 1, 0], [1, 1, 0], [1, 0, 1], [1, 0, 1]], dtype=float)
    # rates: unit 0 3/4, unit 1 1/2, unit 2 0/2 -> spread 0.75
    assert spread(wins, present) == pytest.approx(0.75)
    # only game 1: unit 0 0/1, unit 1 1/1; unit 2 absent and left out -> 1.0
    assert spread(wins[1:2], present[1:2]) == pytest.approx(1.0)


def test_game_matrix_marks_absent_factions():
    import polars as pl

    players = pl.DataFrame({"game_id": [10, 10, 12, 12], "faction": ["orc", "elf", "dwarf", "orc"],
                            "win": [1.0, 0.0, 0.5, 0.5]})
    wins, present = game_matrix(players, "faction")  # games 10, 12 x units dwarf, elf, orc
    assert wins.tolist() == [[0, 0, 1], [0.5, 0, 0.5]]
    assert present.tolist() == [[0, 1, 1], [1, 0, 1]]
    # rates: dwarf 0.5/1, elf 0/1, orc 1.5/2 -> spread 0.75
    assert spread(wins, present) == pytest.approx(0.75)


def _seat_games(rng, rates, games: int, tie_share: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """games x seats win shares: one winner drawn with `rates`, and in `tie_share` of the
    games the winner shares the win (1/2 each) with the next seat."""
    k = len(rates)
    winner = rng.choice(k, size=games, p=rates)
    wins = np.zeros((games, k))
    tie = rng.random(games) < tie_share
    wins[np.arange(games), winner] = np.where(tie, 0.5, 1.0)
    wins[np.arange(games)[tie], (winner[tie] + 1) % k] = 0.5
    return wins, np.ones((games, k))


def test_heterogeneity_null_rejection_is_nominal_on_equal_seats():
    # 4 seats with equal rates, shared wins in 10% of games, 2,000 games, 600 replicates.
    # Monte-Carlo SE of a 5% rate over 600 replicates is 0.89 pp: accept 5% +- 3 SE.
    rng = np.random.default_rng(3)
    p = np.array([heterogeneity(*_seat_games(rng, [0.25] * 4, 2000))[2] for _ in range(600)])
    assert 0.05 - 0.027 <= (p < 0.05).mean() <= 0.05 + 0.027


def test_heterogeneity_accounts_for_copies_sharing_a_game():
    # Factions dealt with replacement (2 of 3 seats, copies allowed): equal rates. Treating
    # seats as independent would misstate the variance; the clustered test stays nominal.
    rng = np.random.default_rng(4)
    rejections = []
    for _ in range(400):
        deal = rng.integers(0, 3, size=(1500, 3))  # 3 seats, factions 0..2
        winner = rng.integers(0, 3, size=1500)
        wins, present = np.zeros((1500, 3)), np.zeros((1500, 3))
        for seat in range(3):
            np.add.at(present, (np.arange(1500), deal[:, seat]), 1.0)
            np.add.at(wins, (np.arange(1500), deal[:, seat]), (winner == seat).astype(float))
        rejections.append(heterogeneity(wins, present)[2] < 0.05)
    # 400 replicates: MC SE 1.1 pp; accept 5% +- 3 SE.
    assert 0.05 - 0.033 <= np.mean(rejections) <= 0.05 + 0.033


def test_heterogeneity_detects_a_planted_spread_and_nets_out_noise():
    rng = np.random.default_rng(5)
    planted = [0.29, 0.2367, 0.2367, 0.2366]  # seat 0 +4 pp, the others -1.3 pp
    results = [heterogeneity(*_seat_games(rng, planted, 5000)) for _ in range(200)]
    assert np.mean([r[2] < 0.05 for r in results]) >= 0.9
    true_sd = np.std(planted, ddof=1)
    assert np.mean([r[3] for r in results]) == pytest.approx(true_sd, abs=0.006)
    null = [heterogeneity(*_seat_games(rng, [0.25] * 4, 5000))[3] for _ in range(200)]
    assert np.mean(null) < 0.004  # the raw SD of the rates would be about 0.6 pp from noise


def test_sweep_reports_heterogeneity_and_paired_first_player_change(arms):
    a, b = arms
    s = run_sweep("brawl_limit", [(3, a), (4, b)])
    shape = s.shape_table()
    assert s.kind == "seat"
    first, second = shape.to_dicts()
    assert first["spread"] == pytest.approx(0.0) and second["spread"] == pytest.approx(0.4)
    assert first["fpa"] == pytest.approx(0.0) and second["fpa"] == pytest.approx(0.2)
    assert np.isnan(first["fpa_diff"])  # the reference is not compared with itself
    assert second["fpa_diff"] == pytest.approx(0.2)
    assert second["variance_reduction"] == pytest.approx(2.875)
    rates = s.units_table().filter(s.units_table()["value"] == "4")
    assert rates["rate"].to_list() == pytest.approx([0.7, 0.3])
    assert "het_p_holm" in shape.columns and not any("spread at" in x for x in s.verdicts)
    recs = sweep_records(s)
    assert [r.kind for r in recs] == ["sweep_heterogeneity"] * 2
    assert recs[0].unit == "brawl_limit=3" and recs[0].n_unit == "games"


# ---------------------------------------------------------------- robustness
def three_player(order_wins: dict[str, int], games: int = 60) -> list[dict]:
    """3-player games of factions a, b, c (rotating seats); order_wins[f] games won by f."""
    winners = [f for f, k in order_wins.items() for _ in range(k)]
    out = []
    for g in range(games):
        factions = ["a", "b", "c"][g % 3:] + ["a", "b", "c"][:g % 3]
        out.append({"scores": [9 if f == winners[g] else 1 for f in factions], "factions": factions})
    return out


def test_robustness_finds_the_reversed_ranking_and_the_flips(tmp_path):
    m = manifest(n_games=60, player_counts=[3])
    x = write_run(tmp_path / "x", three_player({"a": 36, "b": 18, "c": 6}), manifest_data=m)
    y = write_run(tmp_path / "y", three_player({"a": 6, "b": 18, "c": 36}), manifest_data=m)
    r = run_robustness([("greedy", str(x)), ("random", str(y))], band=0.03)
    assert r.kind == "faction"
    tau = r.taus.to_dicts()[0]
    assert tau["tau"] == pytest.approx(kendalltau([0.6, 0.3, 0.1], [0.1, 0.3, 0.6]).statistic)
    assert tau["tau"] == pytest.approx(-1.0)
    # a: 36/60, Wilson lo 0.47 > 1/3 + 3 pp -> strong; c: 6/60, hi 0.20 < 1/3 - 3 pp -> weak;
    # b: 18/60 -> undecided, so never a flip.
    flips = {(f["unit"], f["verdict_a"], f["verdict_b"]) for f in r.flips.to_dicts()}
    assert flips == {("a", "strong", "weak"), ("c", "weak", "strong")}
    assert r.verdicts[0].startswith("Warning: 2 conclusion(s) flip with the bot")


def test_robustness_without_flips_says_so(tmp_path):
    m = manifest(n_games=60, player_counts=[3])
    x = write_run(tmp_path / "x", three_player({"a": 36, "b": 18, "c": 6}), manifest_data=m)
    r = run_robustness([("greedy", str(x)), ("cautious", str(x))])
    assert r.flips.is_empty() and r.taus["tau"][0] == pytest.approx(1.0)
    assert r.verdicts[0].startswith("No faction conclusion flips")


def test_kendall_tau_on_few_units_is_said_to_be_untestable(tmp_path):
    from scipy.stats import kendalltau as kt

    from analysis.robustness import smallest_tau_p

    # Exact p of a perfect agreement on 3 and 4 units is the smallest possible: 2/k!.
    assert smallest_tau_p(3) == pytest.approx(kt([1, 2, 3], [1, 2, 3], method="exact").pvalue)
    assert smallest_tau_p(4) == pytest.approx(kt([1, 2, 3, 4], [1, 2, 3, 4], method="exact").pvalue)
    m = manifest(n_games=60, player_counts=[3])
    x = write_run(tmp_path / "x", three_player({"a": 36, "b": 18, "c": 6}), manifest_data=m)
    r = run_robustness([("greedy", str(x)), ("cautious", str(x))])
    assert "tau cannot be significant at 5% whatever the data" in r.verdicts[1]
