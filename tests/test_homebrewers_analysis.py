"""Homebrewers analysis extras on tiny hand-built tables with hand-computed answers."""

import duckdb
import polars as pl
import pytest

from analysis.games import extras_for
from analysis.runfolder import query


@pytest.fixture()
def con(tmp_path):
    games = pl.DataFrame({"game_id": [0, 1], "n_players": [2, 2]})
    players = pl.DataFrame({
        "game_id": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "win": [1.0, 0.0, 0.5, 0.5],
        "faction": ["tony", "evie", "tony", "colt"], "score": [40, 20, 30, 30],
        "summerfest_rep": [4, 1, 3, 3], "medal_rep": [10, 5, 8, 8], "judge_rep": [12, 4, 9, 9],
        "gold": [2, 0, 1, 1], "powers_used": [7, 5, 6, 8],
    })
    events = pl.DataFrame({
        "game_id": [0, 0, 0, 0, 1], "seat": [0, 0, 1, 1, 0], "round": [1, 2, 1, 3, 1],
        "kind": ["draw", "play_top", "draw", "play_bottom", "draw"],
        "card": ["bacon", "bacon", "mango", "mango", "bacon"], "amount": [1, 1, 1, 1, 1], "target": [4, 0, 1, 4, 4],
    })
    c = duckdb.connect()
    for name, df in (("games", games), ("players", players), ("events", events)):
        path = tmp_path / f"{name}.parquet"
        df.write_parquet(path)
        c.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{path}')")
    return c


def test_reputation_sources_by_character(con):
    df = query(con, "homebrewers_rep_sources").sort("faction")
    tony = df.filter(pl.col("faction") == "tony")
    assert tony["players"][0] == 2 and tony["wins"][0] == 1.5 and tony["score"][0] == 35.0
    assert tony["other_rep"][0] == ((40 - 26) + (30 - 20)) / 2
    assert df.filter(pl.col("faction") == "evie")["powers_used"][0] == 5.0


def test_flavor_use(con):
    df = query(con, "homebrewers_flavors").sort("card")
    assert df["drawn"].to_list() == [2, 1]
    assert df["played_top"].to_list() == [1, 0] and df["played_bottom"].to_list() == [0, 1]
    assert df["top_share"].to_list() == [1.0, 0.0]


def test_extras_registry(con):
    out = extras_for("homebrewers", con)
    assert set(out) == {"Reputation sources by character", "Flavor cards: drawn and played"}
    assert {"lo", "hi"} <= set(out["Flavor cards: drawn and played"].columns)
