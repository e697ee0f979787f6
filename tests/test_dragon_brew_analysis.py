"""Dragon Brew analysis extras on tiny hand-built tables with hand-computed answers."""

import duckdb
import polars as pl
import pytest

from analysis.games import extras_for
from analysis.runfolder import query


@pytest.fixture()
def con(tmp_path):
    games = pl.DataFrame({"game_id": [0, 1], "n_players": [2, 3], "rounds": [3, 3]})
    players = pl.DataFrame({
        "game_id": [0, 0, 1, 1, 1], "seat": [0, 1, 0, 1, 2],
        "faction": ["wizard", "dwarf", "wizard", "naga", "dwarf"],
        "win": [1.0, 0.0, 0.0, 0.5, 0.5], "score": [20, 10, 8, 15, 15],
        "outside_recommended": [1, 0, 0, 0, 0],
        "vp_judges": [10, 2, 4, 5, 5], "vp_profit": [8, 6, 4, 8, 8], "vp_quests": [2, 2, 0, 2, 2],
        "beers_brewed": [9, 6, 5, 7, 7], "judges_won": [5, 1, 2, 3, 3], "ribbons": [5, 1, 2, 3, 3],
        "gold": [3, 9, 1, 4, 2],
    })
    events = pl.DataFrame({
        "game_id": [0, 0, 0, 1, 1], "seat": [0, 0, 1, 1, 0], "round": [1, 2, 1, 3, 1],
        "kind": ["ability", "ability", "ability", "bribe", "draft_event"],
        "card": ["spell_book", "spell_book", "gold_mine", "greedy_gorbin", "recipe_scroll"],
        "amount": [1, 1, 5, 2, 1],
    })
    c = duckdb.connect()
    for name, df in (("games", games), ("players", players), ("events", events)):
        path = tmp_path / f"{name}.parquet"
        df.write_parquet(path)
        c.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{path}')")
    return c


def test_races_outside_their_recommended_counts(con):
    df = query(con, "dragon_brew_outside")
    assert df.to_dicts() == [{"n_players": 2, "faction": "wizard", "games": 1, "wins": 1.0, "rate": 1.0,
                              "fair_share": 0.5}]


def test_ability_use_share_and_uses_per_game(con):
    df = query(con, "dragon_brew_abilities").sort("n_players", "faction")
    got = {(r["n_players"], r["faction"]): (r["games_used"], r["uses_per_game"]) for r in df.to_dicts()}
    assert got[(2, "wizard")] == (1, 2.0)
    assert got[(2, "dwarf")] == (1, 1.0)
    assert got[(3, "naga")] == (0, 0.0)  # a bribe is not an ability use


def test_vp_sources_and_bribes(con):
    vp = query(con, "dragon_brew_vp_sources")
    dwarf = vp.filter(pl.col("faction") == "dwarf").to_dicts()[0]
    assert dwarf["games"] == 2 and dwarf["score"] == 12.5 and dwarf["gold"] == 5.5
    br = query(con, "dragon_brew_bribes").sort("n_players")
    assert br["bribes"].to_list() == [0, 1] and br["mean_bribe"].to_list() == [0.0, 2.0]


def test_extras_registry_has_every_table(con):
    titles = set(extras_for("dragon_brew", con))
    assert {"Races outside their recommended player counts (flagged)", "Race ability use",
            "Victory Point sources by race", "Bribes (Corrupt Judge variant)"} == titles
