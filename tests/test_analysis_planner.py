"""How many games (planner) and the game-shape table of analyze()."""

import math

import pytest
from runfixture import manifest, tiny_run, write_run

import analysis
from analysis.stats import games_needed


def test_games_needed_matches_the_closed_form_by_hand():
    # 4 players: p0 = 0.25, d = 0.01, 95% two-sided (z = 1.959964), 80% power (z = 0.841621).
    # p1 = 0.26: (1.959964 * sqrt(0.1875) + 0.841621 * sqrt(0.1924))^2 / 0.0001
    #          = (0.848690 + 0.369164)^2 / 0.0001 = 14831.7 -> 14832.
    # p1 = 0.24 needs fewer (14596), so the planner takes 14832.
    by_hand = (1.959964 * math.sqrt(0.1875) + 0.841621 * math.sqrt(0.26 * 0.74)) ** 2 / 1e-4
    assert by_hand == pytest.approx(14831.7, abs=0.1)
    assert games_needed(0.25, 0.01) == 14832
    # 2 players: p0 = 0.5, symmetric; larger deviations need fewer games (about 1/d^2).
    assert games_needed(0.5, 0.01) > games_needed(0.5, 0.02) > games_needed(0.5, 0.03)


def test_planner_table_and_verdict_line(tmp_path):
    games = [{"scores": [9, 1, 1, 1]}] * 30
    a = analysis.analyze(write_run(tmp_path / "r", games,
                                   manifest_data=manifest(n_games=30, player_counts=[4])))
    plan = a.planner
    assert plan.columns == ["n_players", "deviation", "fair", "confidence", "power", "family",
                            "games_needed", "games", "enough", "band", "games_to_decide",
                            "faction_games_to_decide"]
    assert plan["deviation"].to_list() == pytest.approx([0.01, 0.02, 0.03])
    one = plan.to_dicts()[0]
    # The report's family is the 4 seats: level 1 - 0.05/4, z = 2.497705 instead of 1.96:
    # (2.497705 * sqrt(0.1875) + 0.841621 * sqrt(0.26 * 0.74))^2 / 1e-4 = 21045.4 -> 21046.
    by_hand = (2.497705 * math.sqrt(0.1875) + 0.841621 * math.sqrt(0.26 * 0.74)) ** 2 / 1e-4
    assert math.ceil(by_hand) == 21046
    assert (one["n_players"], one["family"], one["games_needed"], one["games"], one["enough"]) == \
        (4, 4, 21046, 30, False)
    # Deciding "inside" +-3 pp: the one-sided test against the edge 28% at 0.05/8, power 80%:
    # (2.497705 * sqrt(0.28 * 0.72) + 0.841621 * sqrt(0.26 * 0.74))^2 / 0.02^2.
    inside = (2.497705 * math.sqrt(0.28 * 0.72) + 0.841621 * math.sqrt(0.26 * 0.74)) ** 2 / 4e-4
    assert one["games_to_decide"] == math.ceil(inside)
    assert math.isinf(plan.to_dicts()[2]["games_to_decide"])  # 3 pp sits on the band edge
    assert ("To tell a 1 pp deviation of a seat from its fair share at 98.75% confidence "
            "(80% power; the report's family-wise level over 4 hypotheses) you need about "
            f"21,046 games at 4 players; to decide such a seat inside the ±3 pp band, about "
            f"{math.ceil(inside):,} games; this run has 30.") in a.verdicts


def test_game_shape_on_the_tiny_run(tmp_path):
    shape = {r["n_players"]: r for r in analysis.analyze(tiny_run(tmp_path / "t")).game_shape.to_dicts()}
    two, three = shape[2], shape[3]
    assert two["games"] == 3 and three["games"] == 1
    assert two["balance"] == pytest.approx(1 - (5 / 6 - 1 / 6))
    assert two["first_player_advantage"] == pytest.approx(5 / 6 - 1 / 2)
    assert two["tie_rate"] == pytest.approx(1 / 3)
    assert two["mean_rounds"] == pytest.approx(5.0)
    assert two["mean_decisions"] == pytest.approx(22.0)
    assert two["mean_margin"] == pytest.approx(10 / 3)   # margins 4, 0, 6
    assert three["first_player_advantage"] == pytest.approx(-1 / 3)
    assert three["mean_margin"] == pytest.approx(2.0)
