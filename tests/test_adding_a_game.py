"""The toy fifth game of docs/adding_a_game.md (sim/examples/dice_race), played end to end:
a game written as rules, policies, data and schema only runs through `simulate` and `report`
like the four real games, and the shared plumbing it leans on (sim/core/rows.py, ranking.py,
driver.py, schema.py) does what it promises."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import sim.registry as registry
from sim.core import game as core_game
from sim.core.config import prepare
from sim.core.ranking import rank_seats
from sim.core.rows import next_row, next_trace_row
from sim.core.schema import ENUM, Column, Table
from sim.examples.dice_race import GAME, schema

EXAMPLE = Path(__file__).resolve().parents[1] / "sim" / "examples"

# the `toy` fixture (Dice Race registered as a fifth game) is in conftest.py


def test_the_toy_game_is_written_as_rules_policies_data_and_schema_only():
    files = sorted(p.name for p in (EXAMPLE / "dice_race").glob("*.py"))
    assert files == ["__init__.py", "data.py", "policies.py", "rules.py", "schema.py"]
    assert sorted(p.name for p in (EXAMPLE / "data" / "games" / "dice_race").glob("*.toml")) == [
        "params.toml", "policies.toml", "variants.toml"]


def test_the_toy_game_runs_through_simulate_and_report(toy, tmp_path):
    from brewbalance.cli import app

    run, out = tmp_path / "run", tmp_path / "report"
    cli = CliRunner()
    done = cli.invoke(app, ["simulate", "dice_race", "--games", "6000", "--players", "2,3,4",
                            "--policy", "random,greedy", "--out", str(run), "--quiet", "--check"])
    assert done.exit_code == 0, done.output
    done = cli.invoke(app, ["report", str(run), "--format", "json", "--out", str(out)])
    assert done.exit_code == 0, done.output
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["source"]["game"] == "dice_race"
    seats = [v for v in report["verdicts"] if v["kind"] == "seat"]
    assert {v["n_players"] for v in seats} == {2, 3, 4}
    # no bot reads another player's score, so the seats are fair by construction
    assert all(v["verdict"] != "outside" for v in seats), seats
    players = pl.read_parquet(run / "players")
    by_bot = dict(players.group_by("policy").agg(pl.col("win").mean()).iter_rows())
    assert by_bot["greedy"] > by_bot["random"] + 0.2  # holding at 20 beats a coin flip by far


def test_the_frames_have_exactly_the_declared_columns_and_types(toy):
    shard = GAME.simulate(toy, 5, 0, 300, [2, 4], ["random", "greedy"], check=True)
    for name, table in (("games", schema.GAMES), ("players", schema.PLAYERS), ("events", schema.EVENTS)):
        frame = shard.frames[name]
        assert frame.columns == [c.name for c in table.columns]
        for c in table.columns:
            assert isinstance(frame[c.name].dtype, pl.Enum) if c.dtype == ENUM else frame[c.name].dtype == c.dtype
    players, games = shard.frames["players"], shard.frames["games"]
    assert players.group_by("game_id").agg(pl.col("win").sum())["win"].to_list() == [1.0] * 300
    assert games["busts"].to_list() == players.group_by("game_id", maintain_order=True).agg(
        pl.col("busts").sum())["busts"].to_list()
    turns = shard.frames["events"].group_by("game_id", maintain_order=True).len()["len"].to_list()
    assert turns == (5 * games["n_players"]).to_list()  # one event row per turn


def test_same_seed_same_tables_whatever_the_chunk_size(toy, monkeypatch):
    a = GAME.simulate(toy, 9, 0, 500, [2, 3], ["greedy", "random"]).frames
    monkeypatch.setattr(core_game, "CHUNK", 7)
    b = GAME.simulate(toy, 9, 0, 500, [2, 3], ["greedy", "random"]).frames
    for name in ("games", "players", "events", "rounds"):
        assert a[name].equals(b[name]), name


def test_the_replay_retells_the_recorded_game(toy):
    lines = GAME.replay(toy, 1, 3, [2], ["random", "greedy"])
    shard = GAME.simulate(toy, 1, 3, 1, [2], ["random", "greedy"]).frames["players"]
    assert lines[-2:] == [f"Result: seat {s} {v}" for s, v in enumerate(shard["score"].to_list())]


# --- the shared plumbing --------------------------------------------------------------------

def test_a_full_buffer_raises_the_overflow_flag_instead_of_writing():
    buf, g = np.zeros((2, 7), np.int64), np.zeros(3, np.int64)  # g: [counter, overflow, -]
    assert [next_row(buf, g, 0, 1) for _ in range(3)] == [0, 1, -1]
    assert g[1] == 1 and g[0] == 2
    g[:] = 0
    assert next_trace_row(np.zeros((1, 8), np.int64), g, 0, 1) == -1 and g[1] == 0  # not tracing: no flag


@pytest.mark.parametrize("table, keys, ranks, wins", [
    ([[5, 0], [7, 0], [7, 0]], (0,), [3, 1, 1], [0.0, 0.5, 0.5]),  # a two-way tie shares the win
    ([[7, 1], [7, 3], [7, 2]], (0, 1), [3, 1, 2], [0.0, 1.0, 0.0]),  # the tie-breaker decides
    ([[4, 2], [4, 2], [1, 9]], (0, 1), [1, 1, 3], [0.5, 0.5, 0.0]),  # level on every key
])
def test_ranking_compares_the_keys_in_order_and_tied_winners_share(table, keys, ranks, wins):
    out_rank, out_win = np.zeros(3, np.int64), np.zeros(3, np.float64)
    winners = rank_seats(np.array(table, np.int64), 3, keys, out_rank, out_win)
    assert (out_rank.tolist(), out_win.tolist(), winners) == (ranks, wins, wins.count(max(wins)))
    assert out_win.sum() == pytest.approx(1.0)


def test_a_table_builds_its_frame_by_name_and_rejects_duplicate_names():
    t = Table("t", [Column("a", pl.Int8, ""), Column("b", ENUM, ""), Column("w", pl.Float64, "", given=True),
                    Column("a2", pl.Int16, "", copy_of="a")])
    assert (t.width, t.at.a, t.at.b) == (2, 0, 1)
    f = t.columns_of(np.array([[3, 1], [4, 0]]), {"b": ["x", "y"]}, {"w": np.array([0.5, 0.5])}).frame()
    assert f.columns == ["a", "b", "w", "a2"] and f["b"].to_list() == ["y", "x"] and f["a2"].dtype == pl.Int16
    with pytest.raises(ValueError, match="duplicate"):
        Table("t", [Column("a", pl.Int8, ""), Column("a", pl.Int8, "")])


def test_the_data_reaches_the_rules(toy):
    """Variants and --set go through the same data path as a real game's."""
    short = GAME.simulate(GAME.build(prepare(GAME.id, "short", [], [])), 2, 0, 200, [2], ["greedy"]).frames
    assert short["games"]["rounds"].unique().to_list() == [3]
    assert short["events"].height == 200 * 2 * 3  # one row per turn
    always = GAME.build(prepare(GAME.id, "base", ["policies.greedy.hold_at=1000"], []))
    busts = GAME.simulate(always, 2, 0, 200, [2], ["greedy"]).frames["players"]["busts"]
    assert busts.to_list() == [5] * 400  # never banking, every turn ends on the bust face


def test_games_lists_every_declared_column_with_its_meaning():
    from brewbalance.cli import app

    done = CliRunner().invoke(app, ["games", "--columns"])
    assert done.exit_code == 0, done.output
    for table in (schema.GAMES, schema.PLAYERS):  # the common columns, as every game declares them
        for c in table.columns[:6]:
            assert f"    {c.name:24s} " in done.output
    assert "win share: 1/k for a k-way shared win" in done.output
    assert "judges_awarded" in done.output and "caps_in_bag" in done.output  # each game's own columns


def test_asking_for_one_game_imports_that_game_only():
    """A `simulate` process imports the game it plays, not the other three (each game's package
    defines hundreds of compiled functions: about 0.5 s of imports for the three)."""
    code = ("import sys; from sim.registry import game_ids, get_game; get_game('dwarfest'); "
            "print(sorted(g for g in game_ids() if 'sim.' + g in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.split() == ["['dwarfest']"]
    assert registry.game_ids() == list(registry.games())  # the ids are the games' own, in order
    assert all(g.id == gid for gid, g in registry.games().items())
