"""A run is a pure function of (data, seed, games, player counts, policies): same input,
same bytes, whatever --jobs is (DESIGN.md §10)."""

from __future__ import annotations

import re

import polars as pl
import pytest
from clihelp import (
    TABLES,
    cli,
    manifest,
    part_hashes,
    reference_run,
    shard_records,
    simulate,
    table,
)
from polars.testing import assert_frame_equal

BASE = ("--games", "600", "--players", "2,3,4", "--policies", "random,greedy", "--seed", "11")
SHARDED = ("--games", "1500", "--players", "2,3,4", "--policies", "random,greedy",
           "--seed", "11", "--shard-size", "200")


@pytest.fixture(scope="module")
def run_a(tmp_path_factory):
    return reference_run(tmp_path_factory, *BASE, "--jobs", "2")


def replay(run, game_id, cwd) -> str:
    proc = cli("replay", run, game_id, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"Dwarfest game {game_id} ")
    return proc.stdout


def test_same_seed_same_data(tmp_path, run_a):
    simulate(tmp_path, "b", *BASE, "--jobs", "1")
    for name in TABLES:
        a, b = table(run_a, name), table(tmp_path / "b", name)
        assert a.height > 0
        assert_frame_equal(a, b)
    assert table(run_a, "games")["game_id"].to_list() == list(range(600))
    for key in ("seed", "n_games", "player_counts", "policies", "data_hashes", "overrides"):
        assert manifest(run_a)[key] == manifest(tmp_path / "b")[key]


def test_jobs_do_not_change_a_byte(tmp_path):
    simulate(tmp_path, "j1", *SHARDED, "--jobs", "1")
    simulate(tmp_path, "j2", *SHARDED, "--jobs", "2")
    h1, h2 = part_hashes(tmp_path / "j1"), part_hashes(tmp_path / "j2")
    assert len(h1) == len(TABLES) * 8  # 1500 games / 200 per shard = 8 shards, every table each
    assert h1 == h2
    r1, r2 = shard_records(tmp_path / "j1"), shard_records(tmp_path / "j2")
    assert r1 == r2
    assert [r["id"] for r in r1] == list(range(8))
    assert sum(r["n_games"] for r in r1) == 1500
    for r in r1:  # the records describe the files actually on disk
        for name in TABLES:
            assert r["sha256"][name] == h1[f"{name}/part-{r['id']:05d}.parquet"]
            assert r["rows"][name] == pl.read_parquet(tmp_path / "j1" / name / f"part-{r['id']:05d}.parquet").height


def test_shard_size_does_not_change_the_data(tmp_path, run_a):
    """Games depend on their id, not on which shard ran them."""
    simulate(tmp_path, "s", *BASE, "--shard-size", "70", "--jobs", "2")
    assert len(shard_records(tmp_path / "s")) == 9
    for name in TABLES:
        assert_frame_equal(table(run_a, name), table(tmp_path / "s", name))


def test_a_shorter_run_is_a_prefix(tmp_path, run_a):
    short = ("--games", "40", *BASE[2:])
    simulate(tmp_path, "short", *short, "--jobs", "1")
    for name in ("games", "players"):
        full = table(run_a, name).filter(pl.col("game_id") < 40)
        assert_frame_equal(full, table(tmp_path / "short", name))


def test_different_seed_different_data(tmp_path, run_a):
    other = [a if a != "11" else "12" for a in BASE]
    simulate(tmp_path, "c", *other, "--jobs", "2")
    assert manifest(tmp_path / "c")["seed"] == 12
    for name in TABLES:
        a, c = table(run_a, name), table(tmp_path / "c", name)
        assert not a.equals(c), f"{name} identical under seeds 11 and 12"
    scores_a = table(run_a, "players")["score"].to_list()
    scores_c = table(tmp_path / "c", "players")["score"].to_list()
    assert scores_a != scores_c
    assert part_hashes(run_a) != part_hashes(tmp_path / "c")


def test_replay_unchanged_by_a_no_op_override(tmp_path, run_a):
    # bar_barrels_max is 1 in params.toml: setting it to 1 changes nothing but the manifest.
    simulate(tmp_path, "noop", *BASE, "--set", "dwarfest.bar_barrels_max=1", "--jobs", "2")
    assert manifest(tmp_path / "noop")["overrides"] == [["dwarfest.bar_barrels_max", 1]]
    assert manifest(run_a)["overrides"] == []
    assert replay(run_a, 0, tmp_path) == replay(tmp_path / "noop", 0, tmp_path)
    assert_frame_equal(table(run_a, "players"), table(tmp_path / "noop", "players"))
    assert part_hashes(run_a) == part_hashes(tmp_path / "noop")


def test_replay_depends_on_seed(tmp_path, run_a):
    other = [a if a != "11" else "12" for a in BASE]
    simulate(tmp_path, "c", "--games", "5", *other[2:], "--jobs", "1")
    first = replay(run_a, 0, tmp_path)
    assert first == replay(run_a, 0, tmp_path)  # replay itself is deterministic
    assert first != replay(tmp_path / "c", 0, tmp_path)
    draws = [ln for ln in first.splitlines() if "draws" in ln]
    assert draws, "a replay shows the Customer cards drawn"


def test_replay_matches_the_recorded_game(tmp_path, run_a):
    """The replay of a game re-plays the very game stored in the run."""
    text = replay(run_a, 3, tmp_path)
    players = table(run_a, "players").filter(pl.col("game_id") == 3).sort("seat")
    header = text.splitlines()[0]
    n = players.height
    assert f"{n} players" in header
    for seat, pol in enumerate(players["policy"].to_list()):
        assert f"seat {seat} {pol}" in header
    result = text.splitlines()[-1]
    assert result.startswith("Result:")
    got = [(int(s), int(sc), int(r)) for s, sc, r in
           re.findall(r"seat (\d+) (-?\d+) Nuggets \(rank (\d+)\)", result)]
    assert got == list(zip(players["seat"].to_list(), players["score"].to_list(),
                           players["rank"].to_list(), strict=True))


def test_report_json_is_the_same_bytes_every_time(tmp_path):
    """Analysis is deterministic too: DuckDB sums floating-point win shares (1/3, 1/6 for ties)
    in a fixed order, so reporting a run twice writes the same JSON to the last digit."""
    simulate(tmp_path, "r", "--games", "4000", "--players", "2,3,4,5,6", "--seed", "3", "--shard-size", "500")
    texts = []
    for k in range(3):
        proc = cli("report", tmp_path / "r", "--format", "json", "--out", tmp_path / f"rep{k}", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        texts.append((tmp_path / f"rep{k}.json").read_bytes())
    assert len(texts[0]) > 10_000
    assert texts[0] == texts[1] == texts[2]


def test_the_last_shards_are_cut_into_pieces_that_cover_each_game_once():
    """runner.tasks: whole shards in game order, then the last --jobs shards in pieces taken
    in turn, each game in exactly one piece; one job plays every shard whole (nothing to wait
    for). test_jobs_do_not_change_a_byte checks that the pieces write the same bytes."""
    from sim.core.runner import TAIL_PIECES, plan_shards, tasks

    shards = plan_shards(1010, 200)  # five of 200 and a last one of 10
    for jobs in (1, 2, 3, 8):
        cut = tasks(shards, jobs)
        games = sorted(g for _, _, first, n, _ in cut for g in range(first, first + n))
        assert games == list(range(1010))
        pieces = {s["id"]: count for s, _, _, _, count in cut}
        whole = max(0, len(shards) - jobs) if jobs > 1 else len(shards)
        assert all(pieces[i] == 1 for i in range(whole))
        assert all(pieces[i] == min(TAIL_PIECES, shards[i]["n_games"]) for i in range(whole, len(shards)))
        assert all(shards[s["id"]]["first_game"] <= first and first + n <= shards[s["id"]]["first_game"] + shards[s["id"]]["n_games"]
                   for s, _, first, n, _ in cut)


def test_the_last_pieces_are_the_smallest():
    """runner.TAIL_WEIGHTS: a tail shard's pieces shrink, so a thread that runs dry waits for
    at most a thirtieth of a shard; a shard of a few games is cut in equal pieces."""
    from sim.core.runner import TAIL_WEIGHTS, plan_shards, tasks

    sizes = [n for _, _, _, n, _ in tasks(plan_shards(30_000, 30_000), 2)]
    assert sizes == [1000 * w for w in TAIL_WEIGHTS]
    assert [n for _, _, _, n, _ in tasks(plan_shards(9, 9), 2)] == [1] * 7 + [2]


def test_the_last_shards_are_finished_together_so_their_writing_overlaps():
    """With 2 equal last shards, their pieces alternate, so the last two tasks finish one
    shard each: both threads write a shard at the end, rather than one thread writing the
    last shard alone while the other idles."""
    from sim.core.runner import TAIL_PIECES, plan_shards, tasks

    shards = plan_shards(50_000, 25_000)
    cut = tasks(shards, 2)
    assert [(s["id"], i) for s, i, *_ in cut[-2:]] == [(0, TAIL_PIECES - 1), (1, TAIL_PIECES - 1)]
    assert [s["id"] for s, *_ in cut[:4]] == [0, 1, 0, 1]
    whole_then_tail = tasks(plan_shards(100_000, 25_000), 2)
    assert [s["id"] for s, *_ in whole_then_tail[:3]] == [0, 1, 2]


def test_a_table_writes_the_same_bytes_however_its_rows_are_chunked(tmp_path):
    """A shard played in pieces is a frame of more chunks than the same shard played whole;
    the run folder's writer (sim/core/parquet.py) must write both to the same bytes."""
    import numpy as np

    from sim.core.parquet import write_parquet

    rng = np.random.default_rng(5)
    rows = pl.DataFrame({"game_id": np.repeat(np.arange(6000), 100), "amount": rng.integers(0, 9, 600_000)})
    pieces = pl.concat([rows[:150_000], rows[150_000:420_000], rows[420_000:]], rechunk=False)
    assert pieces.n_chunks() == 3 and rows.n_chunks() == 1
    for frame, name in ((pieces, "pieces.parquet"), (rows, "whole.parquet")):
        with open(tmp_path / name, "wb") as fh:
            write_parquet(frame, fh)
    assert (tmp_path / "pieces.parquet").read_bytes() == (tmp_path / "whole.parquet").read_bytes()
