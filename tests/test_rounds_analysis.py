"""Lead changes, comeback odds and leader-wins rates (analysis/rounds.py and its SQL) on
hand-built run folders with hand-computed answers (fixture: runfixture.TINY_ROUNDS)."""

import numpy as np
import polars as pl
import pytest
from runfixture import rounds_run, tiny_run

import analysis
from analysis import runfolder
from analysis.rounds import analyze_rounds, bucket_labels, clean_edges, lead_change_summary


@pytest.fixture
def tiny(tmp_path):
    con = runfolder.connect(rounds_run(tmp_path / "run"))
    yield analyze_rounds(con)
    con.close()


def by(df: pl.DataFrame, *keys) -> dict:
    return {tuple(r[k] for k in keys): r for r in df.to_dicts()}


def test_lead_changes_per_game(tiny):
    hist = by(tiny.lead_change_hist, "n_players", "lead_changes")
    assert {k: r["games"] for k, r in hist.items()} == {(2, 0): 1, (2, 1): 2, (3, 2): 1}


def test_a_tie_neither_starts_nor_ends_a_lead(tmp_path):
    # A, tie, A, B -> 1 change; all rounds tied -> 0; B, A, B, A -> 3
    per_game = [[[2, 3, 5, 6], [1, 3, 4, 7]], [[1, 2, 3, 4], [1, 2, 3, 4]], [[1, 3, 5, 7], [2, 2, 6, 6]]]
    con = runfolder.connect(rounds_run(tmp_path / "run", per_game))
    hist = analyze_rounds(con).lead_change_hist
    con.close()
    assert sorted(zip(hist["lead_changes"], hist["games"], strict=True)) == [(0, 1), (1, 1), (3, 1)]


def test_lead_change_summary_matches_numpy(tiny):
    s = by(tiny.lead_changes, "n_players")
    two = s[(2,)]
    values = np.array([1, 1, 0])
    assert (two["games"], two["max"], two["any_games"]) == (3, 1, 2)
    assert two["mean"] == pytest.approx(values.mean())
    assert two["sd"] == pytest.approx(values.std(ddof=1))
    assert two["any_lo"] < 2 / 3 < two["any_hi"]
    assert s[(3,)]["sd"] is None  # one game: no sample sd


def test_summary_of_a_histogram_equals_the_raw_values():
    rng = np.random.default_rng(5)
    raw = rng.integers(0, 6, 500)
    ks, counts = np.unique(raw, return_counts=True)
    hist = pl.DataFrame({"n_players": [4] * len(ks), "lead_changes": ks, "games": counts})
    row = lead_change_summary(hist).row(0, named=True)
    assert row["mean"] == pytest.approx(raw.mean()) and row["sd"] == pytest.approx(raw.std(ddof=1))


def test_deficit_edges_are_the_quartiles_of_positive_deficits(tiny):
    # positive deficits after rounds 1-2: g0 1; g1 1, 1; g2 4, 4; g3 2, 1, 2, 1
    deficits = np.array([1, 1, 1, 4, 4, 2, 1, 2, 1])
    expected = clean_edges(np.quantile(deficits, [0.25, 0.5, 0.75], method="inverted_cdf"))
    assert tiny.edges == expected == [1, 2]
    assert bucket_labels(tiny.edges) == ["0", "1", "2", "3 or more"]
    assert bucket_labels([3, 5, 9]) == ["0", "1-3", "4-5", "6-9", "10 or more"]
    assert bucket_labels([]) == ["0", "1 or more"]


def test_comeback_by_round_and_bucket(tiny):
    got = by(tiny.comeback, "n_players", "round", "bucket")
    assert {k: (r["players"], r["wins"]) for k, r in got.items()} == {
        (2, 1, 0): (3, 1.5), (2, 1, 1): (2, 1.5), (2, 1, 3): (1, 0.0),
        (2, 2, 0): (4, 2.5), (2, 2, 1): (1, 0.5), (2, 2, 3): (1, 0.0),
        (3, 1, 0): (1, 0.0), (3, 1, 1): (1, 1.0), (3, 1, 2): (1, 0.0),
        (3, 2, 0): (1, 0.0), (3, 2, 1): (1, 0.0), (3, 2, 2): (1, 1.0),
    }
    assert got[(2, 1, 3)]["deficit"] == "3 or more" and got[(2, 1, 3)]["min_deficit"] == 4
    assert all(r["lo"] <= r["rate"] <= r["hi"] for r in got.values())


def test_comeback_pooled_over_rounds(tiny):
    got = by(tiny.comeback_pooled, "n_players", "bucket")
    assert got[(2, 0)]["players"] == 7 and got[(2, 0)]["wins"] == 4.0
    assert got[(2, 1)]["rate"] == pytest.approx(2 / 3)
    assert got[(2, 3)]["rate"] == 0.0


def test_leader_after_a_round_wins(tiny):
    got = by(tiny.leader_wins, "n_players", "round")
    assert {k: (r["games"], r["wins"]) for k, r in got.items()} == {
        (2, 1): (3, 1.5), (2, 2): (2, 1.5), (3, 1): (1, 0.0), (3, 2): (1, 0.0)}


def test_game_shape_gets_lead_columns(tmp_path):
    a = analysis.analyze(rounds_run(tmp_path / "run"))
    shape = by(a.game_shape, "n_players")
    assert shape[(2,)]["mean_lead_changes"] == pytest.approx(2 / 3)
    assert shape[(2,)]["first_leader_wins"] == pytest.approx(0.5)
    assert shape[(3,)]["mean_lead_changes"] == 2.0


def test_a_run_without_rounds_still_analyses(tmp_path):
    a = analysis.analyze(tiny_run(tmp_path / "run"))
    assert not a.rounds.available
    assert "mean_lead_changes" not in a.game_shape.columns


def test_huge_runs_use_their_first_games(tmp_path):
    con = runfolder.connect(rounds_run(tmp_path / "run"))
    ra = analyze_rounds(con, max_game=3)  # games 0-2: the 2-player games only
    con.close()
    assert ra.lead_change_hist["n_players"].to_list() == [2, 2]
    assert set(ra.comeback["n_players"]) == {2} and set(ra.leader_wins["n_players"]) == {2}
