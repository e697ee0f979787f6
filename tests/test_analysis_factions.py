"""Faction x seat, head-to-head, convergence and card detail (analysis/factions.py) on the
hand-built faction run of runfixture.py, with answers worked out by hand."""

from __future__ import annotations

import math

import polars as pl
import pytest
from runfixture import FACTION_GAMES, manifest, write_run

import analysis
from analysis import factions as fx
from analysis import runfolder
from analysis.clustered import card_cells
from analysis.stats import holm, mantel_haenszel_diff, newcombe_diff, wilson

# FACTION_GAMES (seat 0 first):
#   g0 2p elves 9 / orcs 1        g1 2p orcs 2 / elves 8      g2 2p elves 5 / orcs 5 (tie)
#   g3 2p orcs 7 / elves 4        g4 3p elves 1, orcs 2, dwarves 9
EVENTS = [
    (0, 0, 1, "keg", "draw", 1), (0, 0, 2, "keg", "play", 1),  # elves win, drew and played
    (0, 1, 1, "keg", "draw", 1),                               # orcs lose, drew, never played
    (1, 1, 2, "keg", "draw", 1),                               # elves win, never played
    (2, 0, 3, "keg", "draw", 1), (2, 0, 3, "keg", "play", 1),  # elves, shared win (0.5)
    (3, 0, 1, "keg", "draw", 1),                               # orcs win, never played
]


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    run = write_run(tmp_path_factory.mktemp("f") / "run", FACTION_GAMES, EVENTS,
                    manifest(game="made_up", n_games=5, cards=[], estimates=[]))
    connection = runfolder.connect(run)
    yield connection
    connection.close()


def row(df: pl.DataFrame, **keys) -> dict:
    match = df.filter(pl.all_horizontal(pl.col(k) == v for k, v in keys.items()))
    assert len(match) == 1, (keys, match)
    return match.row(0, named=True)


def test_faction_by_seat(con):
    df = fx.faction_seat(con, "none")
    r = row(df, n_players=2, faction="elves", seat=0)  # g0 win, g2 half
    assert (r["games"], r["wins"], r["expected"], r["rate"]) == (2, 1.5, 1.0, 0.75)
    assert r["win_ratio"] == pytest.approx(1.5)
    r = row(df, n_players=2, faction="elves", seat=1)  # g1 win, g3 loss
    assert (r["games"], r["wins"], r["rate"]) == (2, 1.0, 0.5)
    lo, hi = wilson(1.0, 2)
    assert (r["lo"], r["hi"]) == pytest.approx((float(lo), float(hi)))
    r = row(df, n_players=3, faction="dwarves", seat=2)
    assert (r["games"], r["wins"], r["expected"]) == (1, 1.0, pytest.approx(1 / 3))
    assert len(df) == 7  # 2p: 2 factions x 2 seats; 3p: 3 factions in one seat each


def test_head_to_head(con):
    df = fx.copresence(con, "none")
    r = row(df, faction="elves", opponent="orcs")  # all five games: 1 + 1 + 0.5 + 0 + 0
    assert (r["games"], r["wins"]) == (5, 2.5)
    assert r["expected"] == pytest.approx(4 * 0.5 + 1 / 3)
    assert r["fair"] == pytest.approx((2 + 1 / 3) / 5)
    assert r["deviation"] == pytest.approx(0.5 - (2 + 1 / 3) / 5)
    assert row(df, faction="dwarves", opponent="elves")["rate"] == 1.0
    assert row(df, faction="elves", opponent="dwarves")["rate"] == 0.0
    assert len(df) == 6  # every ordered pair of the three factions met in g4


def test_convergence_by_faction_and_by_seat(con):
    df = fx.convergence(con, True, "none", buckets=5)  # one game per bucket
    elves = df.filter(pl.col("series") == "elves").sort("bucket")
    assert elves["cum_games"].to_list() == [1, 2, 3, 4, 5]
    assert elves["rate"].to_list() == pytest.approx([1.0, 1.0, 2.5 / 3, 2.5 / 4, 2.5 / 5])
    assert elves["fair"][-1] == pytest.approx((2 + 1 / 3) / 5)
    lo, hi = wilson(2.5, 5)
    assert (elves["lo"][-1], elves["hi"][-1]) == pytest.approx((float(lo), float(hi)))
    seats = fx.convergence(con, False, "none", buckets=5)
    seat0 = seats.filter((pl.col("n_players") == 2) & (pl.col("series") == "seat 0")).sort("bucket")
    assert seat0["rate"].to_list() == pytest.approx([1.0, 0.5, 1.5 / 3, 2.5 / 4])


def test_card_acquired_but_unused_and_by_round(con):
    unused = row(fx.card_unused(con, ["draw"], ["play"], 1000), card="keg")
    assert (unused["acquired"], unused["unused"], unused["share"]) == (5, 3, 0.6)
    by_round = fx.card_by_round(con, ["draw"], 1000)
    first = row(by_round, card="keg", round=1)  # g0 s0 (win), g0 s1 (loss), g3 s0 (win)
    assert (first["players"], first["wins"], first["expected"]) == (3, 2.0, 1.5)
    assert row(by_round, card="keg", round=3)["wins"] == 0.5


def test_card_value_adjusted_for_faction(con):
    """Strata 2p elves: with 3 (2.5 wins), without 1 (0); 2p orcs: with 2 (1), without 2
    (0.5); the 3p strata have no holder. MH: (2.5*1/4 + (1*2 - 0.5*2)/4) / (3/4 + 1) = 0.5."""
    r = row(fx.card_adjusted(card_cells(con, ["draw"], 1000)), card="keg")
    assert (r["players_with"], r["strata"]) == (5, 2)
    assert r["adj_diff"] == pytest.approx(0.5)


def test_mantel_haenszel_difference():
    # One stratum: the plain difference, and a standard error close to the unpooled Wald one.
    diff, lo, hi, _ = mantel_haenszel_diff([30], [100], [50], [200])
    assert diff == pytest.approx(0.30 - 0.25)
    se = (0.3 * 0.7 / 100 + 0.25 * 0.75 / 200) ** 0.5
    assert (hi - lo) / (2 * 1.959964) == pytest.approx(se, rel=1e-3)
    # Simpson's paradox: +10 pp inside each stratum, +34 pp crude.
    s1, n1, s0, n0 = [45, 2], [90, 10], [4, 9], [10, 90]
    assert newcombe_diff(sum(s1), sum(n1), sum(s0), sum(n0))[0] == pytest.approx(0.34)
    diff, lo, hi, p = mantel_haenszel_diff(s1, n1, s0, n0)
    assert diff == pytest.approx(0.10)
    assert lo < 0.10 < hi and 0 < p < 1
    # strata missing a group carry no weight; none left -> NaN
    assert mantel_haenszel_diff([1, 5], [0, 10], [1, 2], [3, 10])[0] == pytest.approx(0.3)
    assert all(v != v for v in mantel_haenszel_diff([1], [2], [0], [0]))


def test_analyze_carries_the_new_tables(tmp_path):
    run = write_run(tmp_path / "run", FACTION_GAMES * 4, [],
                    manifest(game="made_up", n_games=20, cards=[], estimates=[]))
    a = analysis.analyze(run)
    factions = a.strength.filter(pl.col("kind") == "faction")
    assert set(factions["model"]) == {"winner", "finishing_order"}
    for _, model in factions.group_by("model"):
        assert set(model["faction"]) == {"dwarves", "elves", "orcs"}
        # dwarves only ever sat in 3p seat 2: aliased with that seat, no number; elves and
        # orcs rotate, so they are estimable, centred on each other
        fixed = model.filter(pl.col("faction") == "dwarves").row(0, named=True)
        assert not fixed["estimable"] and math.isnan(fixed["strength"])
        rest = model.filter(pl.col("estimable"))
        assert set(rest["faction"]) == {"elves", "orcs"}
        assert rest["strength"].sum() == pytest.approx(0.0, abs=1e-9)  # centred
    assert not a.faction_seat.is_empty() and not a.copresence.is_empty()
    assert a.card_unused.is_empty()  # made_up logs no acquire/use kinds
    assert any(line.startswith("Strength by who wins") and "fitted on all 20 games" in line
               for line in a.verdicts)
    assert a.strength_games == 20 and a.strength["games_total"][0] == 20  # from the data
    assert a.card_basis == "played"


def test_card_value_uses_acquisitions_where_logged_and_holm(tmp_path):
    """Homebrewers logs draws: card value compares players who drew a card with those who
    did not; p_holm is Holm over the game-clustered tests of every row."""
    events = EVENTS + [(4, 2, 1, "hops", "draw", 1)]
    run = write_run(tmp_path / "run", FACTION_GAMES, events,
                    manifest(game="homebrewers", n_games=5, cards=[], estimates=[]))
    a = analysis.analyze(run)
    assert a.card_basis == "acquired"
    keg = row(a.card_value, card="keg", n_players=2)  # 5 drawers of 8 players: 1+0+1+0.5+1
    assert (keg["players_with"], keg["wins_with"], keg["players_without"]) == (5, 3.5, 3)
    assert keg["diff"] == pytest.approx(3.5 / 5 - keg["wins_without"] / 3)
    assert a.card_value["p_holm"].to_list() == pytest.approx(
        list(holm(a.card_value["p_value"].to_numpy())), nan_ok=True)
    unused = row(a.card_unused, card="keg")  # draw without play_top / play_bottom: all unused
    assert (unused["acquired"], unused["unused"]) == (5, 5)
