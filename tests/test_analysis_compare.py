"""compare(): differences between two runs with intervals."""

import pytest
from runfixture import faction_run, manifest, tiny_run, write_run

import analysis
from analysis.stats import newcombe_diff


def _games(n: int, seat0_wins: int, winner_score: int = 9) -> list[dict]:
    return [{"scores": [winner_score, 1] if i < seat0_wins else [1, winner_score]}
            for i in range(n)]


def test_identical_runs_show_no_difference(tmp_path):
    run = tiny_run(tmp_path / "a")
    c = analysis.compare(run, run)
    assert c.metrics["diff"].abs().max() == pytest.approx(0.0)
    assert not c.metrics["significant"].any()
    groups = set(zip(c.metrics["metric"], c.metrics["group"], strict=True))
    for expected in [("seat win rate", "seat 0, 2p"), ("first-player advantage", "3p"),
                     ("tie rate", "2p"), ("mean score", "2p"), ("mean rounds", "2p"),
                     ("mean decisions", "3p"), ("mean nuggets (per player)", "2p"),
                     ("mean brawls (per game)", "2p")]:
        assert expected in groups
    assert c.verdicts[0].startswith("A = dwarfest/base")
    assert "0 of" in c.verdicts[1]


def test_a_real_change_is_significant_with_the_newcombe_interval(tmp_path):
    # Different seeds: independent samples (the same seed would pair the games).
    a = write_run(tmp_path / "a", _games(1000, 500))
    b = write_run(tmp_path / "b", _games(1000, 700, winner_score=12),
                  manifest_data=manifest(n_games=1000, seed=8))
    c = analysis.compare(a, b)
    assert not c.paired and not c.metrics["paired"].any()
    seat0 = c.metrics.filter((c.metrics["metric"] == "seat win rate")
                             & (c.metrics["group"] == "seat 0, 2p")).to_dicts()[0]
    diff, lo, hi = newcombe_diff(700, 1000, 500, 1000)
    assert (seat0["value_a"], seat0["value_b"]) == (0.5, 0.7)
    assert seat0["diff"] == pytest.approx(diff)
    assert (seat0["lo"], seat0["hi"]) == pytest.approx((lo, hi))
    assert seat0["significant"]
    first = c.metrics.filter(c.metrics["metric"] == "first-player advantage").to_dicts()[0]
    assert (first["value_a"], first["value_b"]) == pytest.approx((0.0, 0.2))
    score = c.metrics.filter(c.metrics["metric"] == "mean score").to_dicts()[0]
    assert score["diff"] == pytest.approx(1.5)  # mean score 5 -> 6.5
    assert score["significant"]
    assert any(line.startswith("seat win rate, seat 0, 2p: 50.0% -> 70.0% (+20.0 pp")
               for line in c.verdicts)
    assert "Seats outside the fairness band: A 0, B 2." in c.verdicts


def test_only_common_extras_and_factions_are_compared(tmp_path):
    c = analysis.compare(tiny_run(tmp_path / "a"), faction_run(tmp_path / "b"))
    metrics = set(c.metrics["metric"])
    assert "mean nuggets (per player)" not in metrics
    assert "faction win rate" not in metrics
    assert any("different games" in line for line in c.verdicts)


def test_factions_are_compared_when_both_runs_have_them(tmp_path):
    run = faction_run(tmp_path / "f")
    c = analysis.compare(run, run)
    assert ("faction win rate", "elves, 2p") in set(zip(c.metrics["metric"], c.metrics["group"],
                                                        strict=True))


def test_comparison_records_one_per_row_with_units(tmp_path):
    a = write_run(tmp_path / "a", _games(1000, 500))
    b = write_run(tmp_path / "b", _games(1000, 700, winner_score=12),
                  manifest_data=manifest(n_games=1000, seed=8))
    c = analysis.compare(a, b)
    assert len(c.records) == c.metrics.height
    seat0 = next(r for r in c.records if r.kind == "seat_difference" and r.unit == 0)
    assert (seat0.n_players, seat0.n, seat0.n_unit) == (2, 2000, "seats")
    assert seat0.verdict == "significant" and seat0.family and seat0.p_adjusted < 0.05
    assert seat0.estimate == pytest.approx(0.2)
    score = next(r for r in c.records if r.kind == "score_difference")
    assert (score.n_unit, score.n, score.family, score.p_adjusted) == ("games", 2000, None, None)
    assert {r.kind for r in c.records} >= {"first_player_difference", "tie_rate_difference",
                                           "length_difference"}


def test_card_records_say_association_and_subset(tmp_path):
    from analysis.clustered import card_records
    a = analysis.analyze(tiny_run(tmp_path / "a"))
    records = card_records(a.card_value, None, 5, 10)
    assert len(records) == a.card_value.height
    assert all(r.kind == "card" and "not the card's causal effect" in r.note
               and "first 5 of 10 games" in r.note for r in records)
    assert {r.verdict for r in records} <= {"significant", "not_significant", "not_estimable"}
