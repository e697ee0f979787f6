"""analyze(): the assembled RunAnalysis, verdicts and the extras registry."""

import math

import pytest
from runfixture import faction_run, tiny_run, write_run

import analysis
from analysis.games import EXTRAS, dwarfest


def _two_player_games(n: int, seat0_wins: int) -> list[dict]:
    """n 2-player games, seat 0 winning the first seat0_wins of them."""
    return [{"scores": [9, 1] if i < seat0_wins else [1, 9]} for i in range(n)]


@pytest.fixture
def tiny(tmp_path):
    return analysis.analyze(tiny_run(tmp_path / "run"))


def test_seat_table_has_intervals_and_fairness_columns(tiny):
    seat = tiny.seat_winrate
    assert seat.columns[:10] == ["n_players", "seat", "games", "wins", "rate", "lo", "hi",
                                 "fair", "deviation", "verdict"]
    row = seat.filter((seat["n_players"] == 2) & (seat["seat"] == 0)).to_dicts()[0]
    assert row["fair"] == 0.5 and row["deviation"] == pytest.approx(5 / 6 - 0.5)
    assert row["lo"] < 5 / 6 < row["hi"]
    assert row["verdict"] == "undecided"


def test_first_player_and_balance(tiny):
    first = {r["n_players"]: r for r in tiny.first_player.to_dicts()}
    assert first[2]["advantage"] == pytest.approx(5 / 6 - 1 / 2)
    assert first[3]["advantage"] == pytest.approx(-1 / 3)
    bal = {r["n_players"]: r for r in tiny.balance.to_dicts()}
    assert bal[2]["balance"] == pytest.approx(1 - (5 / 6 - 1 / 6))
    assert (bal[2]["best_seat"], bal[2]["worst_seat"]) == (0, 1)
    assert bal[3]["balance"] == pytest.approx(0.0)


def test_tie_rate_and_card_value_carry_intervals(tiny):
    ties = {r["n_players"]: r for r in tiny.tie_rate.to_dicts()}
    assert ties[2]["lo"] < 1 / 3 < ties[2]["hi"]
    cards = {(r["n_players"], r["card"]): r for r in tiny.card_value.to_dicts()}
    bouncer = cards[(2, "bouncer")]
    assert bouncer["name"] == "Bouncer"  # display name from the manifest
    assert bouncer["diff"] == pytest.approx(5 / 6 - 1 / 6)
    assert bouncer["diff_lo"] < bouncer["diff"] < bouncer["diff_hi"]


def test_symmetric_game_has_no_faction_table(tiny):
    assert not tiny.has_factions
    assert not any("Faction" in line for line in tiny.verdicts)


def test_factions_are_analysed_when_present(tmp_path):
    a = analysis.analyze(faction_run(tmp_path / "f"))
    assert a.has_factions
    elves = a.faction_winrate.filter((a.faction_winrate["faction"] == "elves")
                                     & (a.faction_winrate["n_players"] == 2)).to_dicts()[0]
    assert elves["win_ratio"] == pytest.approx(1.25)
    assert elves["verdict"] == "undecided"
    assert any(line.startswith("Factions:") for line in a.verdicts)
    assert a.extras == {}  # no extras registered for this made-up game


def test_dwarfest_extras_are_wired_through_the_registry(tiny):
    assert EXTRAS["dwarfest"] is dwarfest.extras
    brawls = tiny.extras["Brawl rate per player-evening"]
    two = brawls.filter(brawls["n_players"] == 2).to_dicts()[0]
    assert two["rate"] == pytest.approx(0.1) and two["lo"] < 0.1 < two["hi"]
    seats = tiny.extras["Means by seat"]
    assert seats.columns[:3] == ["n_players", "seat", "games"]
    assert seats.filter((seats["n_players"] == 2) & (seats["seat"] == 0))["nuggets"][0] == 9.0
    assert set(tiny.extras) == {"Brawl rate per player-evening", "Tavern destruction per player-game",
                                "Beer service", "Means by seat"}


def test_manifest_and_estimates_are_passed_through(tiny):
    assert tiny.manifest["seed"] == 7
    assert tiny.estimates == [{"file": "data/games/dwarfest/cards.toml", "entry": "keg",
                               "why": "cost not printed; guessed from the example"}]
    assert tiny.n_games == 4


def test_missing_optional_manifest_keys_are_fine(tmp_path):
    from runfixture import TINY_GAMES

    run = write_run(tmp_path / "bare", TINY_GAMES, [], manifest_data={"game": "dwarfest"})
    a = analysis.analyze(run)
    assert a.estimates == [] and a.card_value.is_empty()
    assert a.seat_winrate["games"].sum() == 9


def test_clear_seat_advantage_is_outside_the_band(tmp_path):
    # 700 of 1000 two-player games won by seat 0: 95% interval about 67%-73%.
    a = analysis.analyze(write_run(tmp_path / "r", _two_player_games(1000, 700)))
    verdicts = {r["seat"]: r["verdict"] for r in a.seat_winrate.to_dicts()}
    assert verdicts == {0: "outside", 1: "outside"}
    # the error-control line says what the family is, then the seat verdicts follow
    assert a.verdicts[0].startswith("Error control: the seat and faction band verdicts below are "
                                    "one family of 1 hypothesis")
    assert a.verdicts[1].startswith("Seats: 2 outside the fairness band, 0 inside, 0 undecided")
    assert "seat 0 is OUTSIDE the fairness band (too strong, +20.0 pp)" in a.verdicts[2]
    assert "seat 1 is OUTSIDE the fairness band (too weak, -20.0 pp)" in a.verdicts[3]
    assert a.balance["balance"][0] == pytest.approx(0.6)


def test_even_seats_with_many_games_are_inside(tmp_path):
    a = analysis.analyze(write_run(tmp_path / "r", _two_player_games(4000, 2000), parts=4))
    assert set(a.seat_winrate["verdict"]) == {"inside"}
    assert any("seats 0 and 1 inside the fairness band" in line for line in a.verdicts)


def test_undecided_seat_says_how_many_more_games(tmp_path):
    a = analysis.analyze(write_run(tmp_path / "r", _two_player_games(200, 110)))
    row = a.seat_winrate.filter(a.seat_winrate["seat"] == 0).to_dicts()[0]
    assert row["verdict"] == "undecided"
    assert 0 < row["more_games"] < math.inf
    line = next(v for v in a.verdicts if "seat 0 is undecided" in v)
    assert f"roughly {int(row['more_games']):,} more games" in line


def test_band_is_a_parameter(tmp_path):
    run = write_run(tmp_path / "r", _two_player_games(1000, 600))
    assert analysis.analyze(run, band=0.03).seat_winrate["verdict"][0] == "outside"
    assert analysis.analyze(run, band=0.15).seat_winrate["verdict"][0] == "inside"


def test_dwarfest_tables_with_missing_columns_are_skipped(tmp_path):
    # A dwarfest manifest over data without the Dwarfest columns: no crash, no extras.
    a = analysis.analyze(write_run(tmp_path / "r", _two_player_games(10, 5)))
    assert a.manifest["game"] == "dwarfest"
    assert a.extras == {}


def test_a_rate_on_the_band_edge_is_called_unsettleable(tmp_path):
    # 530 of 1000: the rate sits exactly on fair + band.
    a = analysis.analyze(write_run(tmp_path / "r", _two_player_games(1000, 530)))
    line = next(v for v in a.verdicts if "seat 0 is undecided" in v)
    assert "almost on the band edge" in line


def test_many_faction_verdicts_are_compacted_to_one_line_per_player_count():
    import polars as pl

    from analysis.verdicts import DETAIL_LIMIT, OUTSIDE, fairness_lines

    rows = [{"n_players": 3, "faction": f"f{i}", "games": 100, "rate": 0.6, "lo": 0.5, "hi": 0.7,
             "fair": 1 / 3, "deviation": 0.6 - 1 / 3, "verdict": OUTSIDE, "more_games": 0.0}
            for i in range(DETAIL_LIMIT + 1)]
    lines = fairness_lines(pl.DataFrame(rows), "faction", 0.03)
    compact = [line for line in lines if line.startswith("3 players,")]
    assert len(compact) == 1
    assert all(f"f{i} +26.7 pp" in compact[0] for i in range(DETAIL_LIMIT + 1))
