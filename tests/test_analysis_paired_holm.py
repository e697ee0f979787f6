"""Holm's correction: the hand example, family-wise calibration under the null, and a
planted seat imbalance flagged with the right sign by analyze() and compare()."""

import numpy as np
import polars as pl
import pytest
from runfixture import manifest, write_run

import analysis
from analysis.core import with_fairness
from analysis.stats import holm

N_GAMES = 2000
N_SEATS = 4


def test_holm_hand_example():
    # statsmodels' multipletests(method="holm") formula by hand: sorted p
    # 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04; running max
    # 0.02, 0.03, 0.06, 0.06; back in the original order:
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_and_skips_nan():
    out = holm([0.5, np.nan, 0.6])
    assert out[0] == pytest.approx(1.0) and out[2] == pytest.approx(1.0)
    assert np.isnan(out[1])
    assert holm([]).size == 0
    assert holm([0.2]) == pytest.approx([0.2])


def _seat_table(wins: np.ndarray) -> pl.DataFrame:
    """A seat_winrate-shaped table for one 4-player run."""
    return pl.DataFrame({"n_players": [N_SEATS] * N_SEATS, "seat": list(range(N_SEATS)),
                         "games": [N_GAMES] * N_SEATS, "wins": wins.astype(float),
                         "rate": wins / N_GAMES})


def _winners(rng, probs, n=N_GAMES) -> np.ndarray:
    return rng.choice(N_SEATS, size=n, p=probs)


def test_null_calibration_of_holm_seat_flags():
    # 1000 fair 4-player runs of 2000 games: Holm keeps the chance of flagging any seat
    # at or below 5% (the family-wise rate); Monte-Carlo sd is about 0.7 pp.
    rng = np.random.default_rng(2024)
    runs, any_flag, seat_flags = 1000, 0, 0
    for _ in range(runs):
        wins = np.bincount(_winners(rng, [0.25] * 4), minlength=N_SEATS)
        flags = with_fairness(_seat_table(wins), 0.03)["significant_holm"].to_numpy()
        any_flag += bool(flags.any())
        seat_flags += int(flags.sum())
    assert any_flag / runs <= 0.05 + 0.02
    assert seat_flags / (runs * N_SEATS) <= 0.05


def _random_games(rng, probs) -> list[dict]:
    games = []
    for w in _winners(rng, probs):
        scores = [1] * N_SEATS
        scores[w] = 9
        games.append({"scores": scores})
    return games


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """A fair run and a run where seat 0 wins 35% of 4-player games."""
    root = tmp_path_factory.mktemp("planted")
    rng = np.random.default_rng(5)
    strong = [0.35] + [0.65 / 3] * 3
    fair = write_run(root / "fair", _random_games(rng, [0.25] * 4),
                     manifest_data=manifest(n_games=N_GAMES, player_counts=[4]))
    bent = write_run(root / "bent", _random_games(rng, strong),
                     manifest_data=manifest(n_games=N_GAMES, player_counts=[4]))
    bent_other_seed = write_run(root / "bent8", _random_games(rng, strong),
                                manifest_data=manifest(n_games=N_GAMES, player_counts=[4],
                                                       seed=8))
    return fair, bent, bent_other_seed


def test_planted_imbalance_is_outside_the_band_with_the_right_sign(planted):
    a = analysis.analyze(planted[1])
    seat0 = a.seat_winrate.filter(pl.col("seat") == 0).to_dicts()[0]
    assert seat0["verdict"] == "outside" and seat0["deviation"] > 0
    assert seat0["significant_holm"]
    assert any("seat 0 is OUTSIDE the fairness band (too strong" in line
               and "significant after Holm across this table's 4 tests" in line for line in a.verdicts)
    assert any(line.startswith("Seats that differ from the fair share at all")
               and "significant after Holm across 4 tests" in line for line in a.verdicts)


@pytest.mark.parametrize("which, paired", [(1, True), (2, False)])
def test_compare_flags_the_planted_seat_with_the_right_sign(planted, which, paired):
    c = analysis.compare(planted[0], planted[which])
    assert c.paired is paired
    m = c.metrics.filter(pl.col("metric") == "seat win rate")
    seat0 = m.filter(pl.col("group") == "seat 0, 4p").to_dicts()[0]
    assert seat0["diff"] > 0.05 and seat0["lo"] > 0
    assert seat0["significant_holm"] and seat0["p_holm"] < 0.05
    assert m["p_holm"].to_numpy() == pytest.approx(holm(m["p_value"].to_numpy()))
    assert any(line.startswith("seat win rate, seat 0, 4p:")
               and "Significant after Holm across 4 tests" in line for line in c.verdicts)


def test_null_calibration_end_to_end_through_run_folders(tmp_path):
    # Fewer runs, written as real run folders: analyze() flags exactly what the table-level
    # computation flags, and rarely anything at all.
    rng = np.random.default_rng(77)
    any_flag = 0
    for i in range(40):
        games = _random_games(rng, [0.25] * 4)
        run = write_run(tmp_path / f"r{i}", games,
                        manifest_data=manifest(n_games=N_GAMES, player_counts=[4]))
        flags = analysis.analyze(run).seat_winrate["significant_holm"].to_numpy()
        wins = np.bincount([g["scores"].index(9) for g in games], minlength=N_SEATS)
        expected = with_fairness(_seat_table(wins), 0.03)["significant_holm"].to_numpy()
        assert (flags == expected).all()
        any_flag += bool(flags.any())
    assert any_flag <= 5  # nominal 2 of 40
