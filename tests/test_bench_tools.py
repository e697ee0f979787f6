"""The bench scripts' own helpers (the benchmarks themselves run in `make bench`, not here)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from kernel_profile import numba_name  # noqa: E402


def test_numba_symbols_read_as_module_and_function():
    """kernel_profile names perf's samples from numba's mangled symbols: the length-prefixed
    parts up to the first ABI tag, without the package; anything else is left as it is."""
    mangled = "_ZN3sim11homebrewers8policies16fresh_roll_valueB2v9B38c8tJTIcFKzyF2ILShI4CrgQElQb6HczSBAA_3dE5TupleIxE"
    assert numba_name(mangled) == "homebrewers.policies.fresh_roll_value"
    assert numba_name("_ZN3sim4core3rng5mix64B2v3E") == "core.rng.mix64"
    assert numba_name("clear_page_erms") == "clear_page_erms"


def _speed_profile():
    """bench/profile.py as a module of its own name (plain `profile` is the standard library's)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("speed_profile", Path(__file__).resolve().parents[1] / "bench" / "profile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_what_bounds_a_game_is_split_per_game_per_decision_and_per_row(tmp_path):
    """Step 6 of the speed profile, on a hand-built run of 2 games: 2 cores at 2,000 games/s
    with random bots and 1,000 with greedy bots are 1,000 and 2,000 microseconds of one core a
    game, so the greedy bot's 1,000 extra over (10 + 30) / 2 = 20 decisions is 50 a decision;
    0.004 thread-seconds of writing over 2 games of (2 + 8 + 10 + 0) / 2 = 10 rows is 2,000 a game
    and 200,000 ns a row."""
    import polars as pl

    tables = {"games": pl.DataFrame({"game_id": [0, 1], "decisions": [10, 30]}),
              "players": pl.DataFrame({"game_id": [0, 0, 1, 1, 1, 1, 1, 1]}),
              "events": pl.DataFrame({"game_id": [0] * 4 + [1] * 6})}
    for name, df in tables.items():
        (tmp_path / name).mkdir()
        df.write_parquet(tmp_path / name / "part-00000.parquet")
    (tmp_path / "rounds").mkdir()  # a table with no file yet counts no rows
    prof = _speed_profile()
    got = prof.bounds("dwarfest", tmp_path, 2, 2, {"random": 2000.0, "greedy": 1000.0},
                      {"kernel": 1.0, "tables": 0.002, "write": 0.004})
    assert got["random_us"] == 1000.0 and got["bot_us"] == 1000.0
    assert got["decisions"] == 20.0 and got["per_decision_us"] == 50.0
    assert got["rows"] == 10.0 and got["write_us"] == 2000.0 and got["per_row_ns"] == 200_000.0
    assert got["tables_us"] == 1000.0
    assert got["goal_us"] == 2 / prof.GOALS["dwarfest"] * 1e6


def test_the_full_benchs_kernel_worker_plays_the_games_it_is_given():
    """bench.py --full's kernel-only worker (the second half of `make bench`) runs on the
    current game API: it imported a constant the game packages no longer have, unnoticed."""
    import bench

    config, pols, counts = bench.kernel_setup()
    assert bench.kernel_worker(config, pols, counts, 0, 30) == 30


def test_the_benchs_end_to_end_ratio_interval_covers_the_truth_about_95_percent_of_the_time():
    """bench/profile.py step 3 on synthetic pairs: segments whose speed drifts together (the
    machine) with independent noise on each side, the end-to-end side at a known 0.9 of the
    kernel's speed. The 95% interval must cover 0.9 in about 95% of benches, and a bench of a
    writer that costs more (0.85) must put the whole interval below 0.9 most of the time."""
    import numpy as np

    ratio_with_interval = _speed_profile().ratio_with_interval
    rng = np.random.default_rng(16)

    def bench(truth):
        drift = rng.uniform(0.8, 1.25, 10)
        kernel = drift * rng.normal(1, 0.03, 10)
        return ratio_with_interval({"kernel": list(kernel), "e2e": list(drift / truth * rng.normal(1, 0.03, 10))})

    covered = np.mean([low <= 0.9 <= high for _, low, high in (bench(0.9) for _ in range(2000))])
    assert 0.93 <= covered <= 0.97
    below = np.mean([high < 0.9 for _, _, high in (bench(0.85) for _ in range(500))])
    assert below > 0.9
    assert np.allclose(ratio_with_interval({"kernel": [0.9, 1.8], "e2e": [1.0, 2.0]}), 0.9)  # no spread, no width
