"""Brewin' USA analysis extras on tiny hand-built tables with hand-computed answers."""

import duckdb
import polars as pl
import pytest

from analysis.games import extras_for
from analysis.runfolder import query


@pytest.fixture()
def con(tmp_path):
    games = pl.DataFrame({"game_id": [0, 1], "n_players": [2, 3], "rounds": [4, 5], "brewfests": [2, 0]})
    players = pl.DataFrame({
        "game_id": [0, 0, 1, 1, 1], "seat": [0, 1, 0, 1, 2], "win": [1.0, 0.0, 0.5, 0.5, 0.0],
        "score": [30, 20, 25, 25, 10], "vp_cities": [8, 2, 5, 5, 0], "vp_regions": [4, 0, 0, 0, 0],
        "vp_beers": [14, 12, 15, 15, 10], "vp_bank": [4, 6, 5, 5, 0], "cities_controlled": [3, 1, 2, 2, 0],
        "beers_launched": [3, 2, 3, 3, 1],
    })
    events = pl.DataFrame({
        "game_id": [0, 0, 0, 0, 1], "seat": [0, 0, 1, 1, 2], "round": [0, 0, 1, 1, 0],
        "kind": ["play", "brewfest_win", "buy", "brewfest_win", "play"],
        "target": [3, 3, 4, 5, 1], "amount": [0, 9, 3, 8, 0], "card": ["gose", "gose", "batch", "witbier", "gose"],
    })
    c = duckdb.connect()
    for name, df in (("games", games), ("players", players), ("events", events)):
        path = tmp_path / f"{name}.parquet"
        df.write_parquet(path)
        c.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{path}')")
    return c


def test_brewfests_and_challenger_wins(con):
    df = query(con, "brewin_usa_brewfests").sort("n_players")
    # game 0: seat 0 launched onto city 3 and won there (challenger); seat 1 won city 5
    # without launching there that round (defender). Game 1: no Brewfest.
    assert df["brewfests"].to_list() == [2, 0]
    assert df["challenger_wins"].to_list() == [1, 0]
    assert df["challenger_rate"].to_list() == [0.5, 0.0]
    assert df["brewfests_per_game"].to_list() == [2.0, 0.0]


def test_vp_sources_split_winners_and_others(con):
    df = query(con, "brewin_usa_vp_sources").sort("n_players", "winner")
    three_winners = df.filter((pl.col("n_players") == 3) & pl.col("winner"))
    assert three_winners["players"][0] == 2 and three_winners["vp_cities"][0] == 5.0
    two_losers = df.filter((pl.col("n_players") == 2) & ~pl.col("winner"))
    assert two_losers["vp_bank"][0] == 6.0 and two_losers["score"][0] == 20.0


def test_extras_registry_returns_both_tables(con):
    out = extras_for("brewin_usa", con)
    assert set(out) == {"Brewfests and challenger wins", "Victory Point sources, winners and others"}
    assert {"lo", "hi"} <= set(out["Brewfests and challenger wins"].columns)
