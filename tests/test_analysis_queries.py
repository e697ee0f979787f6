"""Every SQL query on tiny hand-built run folders, against hand-computed answers.

The canonical fixture (runfixture.TINY_GAMES):
    g0 2p: 10 vs 6   seat 0 wins          margin 4   20 decisions
    g1 2p: 8 vs 8    shared, 0.5 / 0.5    margin 0   22 decisions
    g2 2p: 9 vs 3    seat 0 wins          margin 6   24 decisions  ends by 'collapse'
    g3 3p: 5, 7, 5   seat 1 wins          margin 2   30 decisions
"""

import math
import re
from importlib import resources

import duckdb
import numpy as np
import polars as pl
import pytest
from runfixture import faction_run, tiny_run, write_run

from analysis import runfolder
from analysis.runfolder import RunFolderError, query, sql_text


@pytest.fixture
def con(tmp_path):
    c = runfolder.connect(tiny_run(tmp_path / "run"))
    yield c
    c.close()


def rows(df: pl.DataFrame, *keys) -> dict:
    """Index a result by its key columns for readable asserts."""
    out = {}
    for r in df.to_dicts():
        out[tuple(r[k] for k in keys) if len(keys) > 1 else r[keys[0]]] = r
    return out


def test_seat_winrate_counts_shared_wins_as_fractions(con):
    got = rows(query(con, "seat_winrate"), "n_players", "seat")
    assert got[(2, 0)]["games"] == 3 and got[(2, 0)]["wins"] == 2.5
    assert got[(2, 1)]["wins"] == 0.5 and got[(2, 1)]["rate"] == pytest.approx(1 / 6)
    assert [got[(3, s)]["wins"] for s in range(3)] == [0.0, 1.0, 0.0]
    assert len(got) == 5


def test_faction_winrate_with_expected_wins(tmp_path):
    c = runfolder.connect(faction_run(tmp_path / "f"))
    got = rows(query(c, "faction_winrate", none_label="none"), "n_players", "faction")
    elves, orcs, dwarves = got[(2, "elves")], got[(2, "orcs")], got[(3, "dwarves")]
    assert (elves["games"], elves["wins"], elves["expected"]) == (4, 2.5, 2.0)
    assert elves["win_ratio"] == pytest.approx(1.25)
    assert orcs["wins"] == 1.5 and orcs["win_ratio"] == pytest.approx(0.75)
    assert dwarves["expected"] == pytest.approx(1 / 3) and dwarves["win_ratio"] == pytest.approx(3.0)
    assert got[(3, "elves")]["wins"] == 0.0


def test_faction_winrate_is_empty_for_symmetric_games(con):
    assert query(con, "faction_winrate", none_label="none").is_empty()


def test_score_summary(con):
    got = rows(query(con, "score_summary"), "n_players")
    two = got[2]
    # 2p scores: 10, 6, 8, 8, 9, 3
    assert two["players"] == 6
    assert two["mean"] == pytest.approx(44 / 6)
    assert two["sd"] == pytest.approx(math.sqrt(31.333333333 / 5))
    assert (two["min"], two["median"], two["max"]) == (3.0, 8.0, 10.0)
    assert got[3]["mean"] == pytest.approx(17 / 3)


def test_score_hist(con):
    got = rows(query(con, "score_hist"), "n_players", "score")
    assert got[(2, 8)]["players"] == 2
    assert got[(3, 5)]["players"] == 2
    assert sum(r["players"] for r in got.values()) == 9


def test_margins_from_winner_and_runner_up(con):
    hist = rows(query(con, "margin_hist"), "n_players", "margin")
    assert {k: v["games"] for k, v in hist.items()} == {(2, 0): 1, (2, 4): 1, (2, 6): 1, (3, 2): 1}
    summary = rows(query(con, "margin_summary"), "n_players")
    assert summary[2]["mean"] == pytest.approx(10 / 3)
    assert summary[2]["zero_share"] == pytest.approx(1 / 3)
    assert summary[3]["median"] == 2.0


def test_game_length(con):
    got = rows(query(con, "game_length"), "n_players")
    assert got[2]["games"] == 3
    assert got[2]["mean_decisions"] == 22.0 and got[2]["sd_decisions"] == pytest.approx(2.0)
    assert got[2]["mean_rounds"] == 5.0
    assert got[3]["max_decisions"] == 30.0


def test_tie_rate(con):
    got = rows(query(con, "tie_rate"), "n_players")
    assert (got[2]["games"], got[2]["ties"]) == (3, 1)
    assert got[2]["rate"] == pytest.approx(1 / 3)
    assert got[3]["ties"] == 0


def test_end_reasons(con):
    got = rows(query(con, "end_reasons"), "n_players", "end_reason")
    assert got[(2, "rounds")]["games"] == 2 and got[(2, "rounds")]["share"] == pytest.approx(2 / 3)
    assert got[(2, "collapse")]["games"] == 1
    assert got[(3, "rounds")]["share"] == 1.0


def test_card_value_compares_players_who_played_with_those_who_did_not(con):
    got = rows(query(con, "card_value", kinds=["play"], max_game=10**9), "n_players", "card")
    bouncer = got[(2, "bouncer")]
    # played by g0 seat 0 (win), g1 seat 1 (half win), g2 seat 0 twice (win)
    assert (bouncer["players_with"], bouncer["games_with"], bouncer["plays"]) == (3, 3, 4)
    assert bouncer["wins_with"] == 2.5 and bouncer["rate_with"] == pytest.approx(5 / 6)
    assert (bouncer["players_without"], bouncer["wins_without"]) == (3, 0.5)
    assert bouncer["plays_per_game"] == pytest.approx(4 / 3)
    keg = got[(2, "keg")]  # the g2 discard does not count as a play
    assert (keg["players_with"], keg["wins_with"], keg["plays"]) == (1, 0.0, 1)
    assert keg["rate_without"] == pytest.approx(3 / 5)
    assert keg["game_share"] == pytest.approx(1 / 3)
    assert got[(3, "bouncer")]["rate_with"] == 1.0 and got[(3, "bouncer")]["rate_without"] == 0.0


def test_card_value_uses_only_games_below_max_game(con):
    everything = rows(query(con, "card_value", kinds=["play"], max_game=10**9), "n_players", "card")
    nothing = query(con, "card_value", kinds=["play"], max_game=0)
    assert everything and nothing.is_empty()


def test_card_value_kinds_are_a_parameter(con):
    got = rows(query(con, "card_value", kinds=["discard"], max_game=10**9), "n_players", "card")
    assert list(got) == [(2, "keg")]
    assert got[(2, "keg")]["players_with"] == 1
    both = rows(query(con, "card_value", kinds=["play", "discard"], max_game=10**9), "n_players", "card")
    assert set(both) == set(rows(query(con, "card_value", kinds=["play"], max_game=10**9), "n_players", "card")) | {(2, "keg")}


def test_extra_means_cover_every_numeric_extra_column(con):
    players = rows(query(con, "player_extra_means"), "n_players", "metric")
    assert players[(2, "nuggets")]["mean"] == pytest.approx(44 / 6)
    assert players[(2, "beers_wasted")]["n"] == 6
    assert (2, "faction") not in players and (2, "score") not in players
    games = rows(query(con, "game_extra_means"), "n_players", "metric")
    assert games[(2, "brawls")]["mean"] == pytest.approx(1.0)
    assert games[(3, "taverns_destroyed")]["mean"] == 1.0
    assert (2, "decisions") not in games


def test_dwarfest_brawls_per_player_evening(con):
    got = rows(query(con, "dwarfest_brawls"), "n_players")
    assert (got[2]["player_evenings"], got[2]["brawls"]) == (30, 3)
    assert got[2]["rate"] == pytest.approx(0.1)
    assert got[2]["brawls_per_game"] == pytest.approx(1.0)
    assert got[3]["rate"] == pytest.approx(0.2)


def test_dwarfest_taverns_and_beers(con):
    taverns = rows(query(con, "dwarfest_taverns"), "n_players")
    assert (taverns[2]["player_games"], taverns[2]["destroyed"], taverns[2]["players_hit"]) == (6, 1, 1)
    assert taverns[3]["per_player_game"] == pytest.approx(1 / 3)
    beers = rows(query(con, "dwarfest_beers"), "n_players")
    assert (beers[2]["served"], beers[2]["wasted"]) == (52, 3)
    assert beers[2]["waste_share"] == pytest.approx(3 / 55)
    assert beers[3]["wasted_per_player_game"] == 1.0


def test_dwarfest_seat_means(con):
    got = rows(query(con, "dwarfest_seat_means"), "n_players", "seat", "metric")
    assert got[(2, 0, "nuggets")]["mean"] == pytest.approx(9.0)
    assert got[(2, 1, "beers_served")]["mean"] == pytest.approx(7.0)
    assert got[(3, 0, "beers_wasted")]["mean"] == 3.0
    assert got[(2, 0, "nuggets")]["games"] == 3


def test_dwarfest_beers_accepts_served_split_by_table_and_bar(tmp_path):
    from runfixture import TINY_GAMES

    games = []
    for g in TINY_GAMES:
        extras = dict(g["player_extras"])
        served = extras.pop("beers_served")
        # Same totals, logged the way the simulator splits them.
        extras["beers_served_table"] = [s - 1 for s in served]
        extras["beers_served_bar"] = [1] * len(served)
        games.append(dict(g, player_extras=extras))
    c = runfolder.connect(write_run(tmp_path / "split", games))
    beers = rows(query(c, "dwarfest_beers"), "n_players")
    assert (beers[2]["served"], beers[2]["wasted"]) == (52, 3)


def test_results_do_not_depend_on_how_parts_are_split(tmp_path):
    from runfixture import TINY_EVENTS, TINY_GAMES

    one = runfolder.connect(write_run(tmp_path / "one", TINY_GAMES, TINY_EVENTS))
    three = runfolder.connect(write_run(tmp_path / "three", TINY_GAMES, TINY_EVENTS, parts=3))
    for name, params in (("seat_winrate", {}), ("card_value", {"kinds": ["play"], "max_game": 10**9}),
                         ("margin_hist", {})):
        assert query(one, name, **params).equals(query(three, name, **params))


def test_only_completed_parts_are_read(tmp_path):
    run = tiny_run(tmp_path / "run")
    # Leftovers of an interrupted write must never count as data.
    (run / "games" / "part-00009.parquet.tmp").write_bytes(b"half written")
    (run / "_shards").mkdir()
    pl.DataFrame({"game_id": [99]}).write_parquet(run / "_shards" / "part-00000.parquet")
    (run / "games" / "notes.txt").write_text("x")
    c = runfolder.connect(run)
    assert c.execute("SELECT count(*) FROM games").fetchone()[0] == 4


def test_missing_events_give_an_empty_card_table(tmp_path):
    run = tiny_run(tmp_path / "run")
    for f in (run / "events").iterdir():
        f.unlink()
    c = runfolder.connect(run)
    assert query(c, "card_value", kinds=["play"], max_game=10**9).is_empty()


def test_a_folder_with_odd_characters_is_read_safely(tmp_path):
    # The path goes to DuckDB as a value, never spliced into SQL text.
    run = tiny_run(tmp_path / "it's a run; DROP")
    c = runfolder.connect(run)
    assert query(c, "tie_rate")["games"].sum() == 4


def test_missing_pieces_raise_run_folder_error(tmp_path):
    with pytest.raises(RunFolderError, match="run.json"):
        runfolder.load_manifest(tmp_path)
    run = tiny_run(tmp_path / "run")
    for f in (run / "players").iterdir():
        f.unlink()
    with pytest.raises(RunFolderError, match="players"):
        runfolder.connect(run)


SQL_FILES = sorted(p.stem for p in resources.files("analysis").joinpath("sql").iterdir()
                   if p.name.endswith(".sql"))


@pytest.mark.parametrize("name", SQL_FILES)
def test_every_sql_file_is_one_documented_statement(name):
    text = sql_text(name)
    header = text.split("\n", 1)[0]
    assert header.startswith("-- Purpose")
    assert re.search(r"^-- Parameters:", text, re.M)
    assert len(duckdb.extract_statements(text)) == 1
    # Values come in as $parameters, never by string formatting.
    assert "{" not in text and "%s" not in text


def test_card_tables_share_one_grouping_made_again_when_its_parameters_change(tmp_path):
    """card_names, card_round, card_holder_cells and card_value read one card_holdings table
    (runfolder.query makes it for their $kinds and $max_game): on one connection, each answer
    equals the answer of a fresh connection, whatever parameters came before it."""
    run = tiny_run(tmp_path / "run")
    shared = runfolder.connect(run)
    sequence = [(["play"], 10**9), (["play"], 2), (["discard"], 10**9), (["play", "discard"], 10**9),
                (["play"], 10**9)]
    for kinds, max_game in sequence:
        fresh = runfolder.connect(run)
        for name in ("card_names", "card_round", "card_value"):
            got = query(shared, name, kinds=kinds, max_game=max_game)
            assert got.equals(query(fresh, name, kinds=kinds, max_game=max_game)), (name, kinds, max_game)
        names = {"card": query(fresh, "card_names", kinds=kinds, max_game=max_game)["card"].to_list(),
                 "faction": query(fresh, "faction_names")["faction"].to_list()}
        cells = runfolder.query_coded(shared, "card_holder_cells", names, kinds=kinds, max_game=max_game)
        assert cells.equals(runfolder.query_coded(fresh, "card_holder_cells", names, kinds=kinds, max_game=max_game))
        fresh.close()
    assert query(shared, "card_names", kinds=["discard"], max_game=10**9)["card"].to_list() == ["keg"]
    shared.close()


def _card_run(root, rng, games: int, hot_weight: float):
    """3-player games where each seat plays card 'hot' and card 'cold' with chance 1/2 each; the
    winner is drawn with weight `hot_weight` for a seat that played 'hot', 1 otherwise ('cold'
    never matters)."""
    specs, events = [], []
    for g in range(games):
        hot, cold = rng.random(3) < 0.5, rng.random(3) < 0.5
        weights = np.where(hot, hot_weight, 1.0)
        winner = rng.choice(3, p=weights / weights.sum())
        specs.append({"scores": [int(s == winner) for s in range(3)]})
        events += [(g, s, 1, card, "play", 1) for s in range(3)
                   for card, held in (("hot", hot[s]), ("cold", cold[s])) if held]
    return write_run(root, specs, events)


def _card_table(run):
    from analysis.clustered import card_cells
    from analysis.core import card_value

    con = runfolder.connect(run)
    manifest = runfolder.load_manifest(run)
    table = card_value(con, manifest, card_cells(con, ["play"], 10**9))
    con.close()
    return {row["card"]: row for row in table.iter_rows(named=True)}


def test_card_value_through_the_shared_grouping_finds_a_planted_card_and_stays_calibrated(tmp_path):
    """End to end through the SQL (card_holdings, card_holder_cells, card_value): a card that
    doubles its holder's chance to win gets a positive difference whose interval excludes 0;
    a card that changes nothing is flagged (p < 0.05) in about 5% of 60 null runs."""
    rng = np.random.default_rng(5)
    planted = _card_table(_card_run(tmp_path / "planted", rng, 1500, hot_weight=2.0))
    assert planted["hot"]["diff_lo"] > 0 and planted["hot"]["diff"] > 0
    flagged = sum(_card_table(_card_run(tmp_path / f"null{k}", rng, 300, hot_weight=1.0))["cold"]["p_value"] < 0.05
                  for k in range(60))
    assert flagged <= 9  # P(X >= 10) < 0.3% for X ~ Binomial(60, 0.05)
