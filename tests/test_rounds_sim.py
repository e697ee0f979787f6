"""The rounds table written by every game: one row per (game, seat, round), the last round's
score equal to players.score, as many rounds as games.rounds; resumable like the others."""

from __future__ import annotations

import hashlib
import json
import shutil

import numpy as np
import polars as pl
import pytest
from clihelp import cli, part_hashes, reference_run, shard_records

from sim.core.config import prepare
from sim.core.signature import frame_digest, light_search
from sim.registry import games

GAMES = [("dwarfest", 60), ("brewin_usa", 60), ("homebrewers", 60), ("dragon_brew", 12)]
SCHEMA = {"game_id": pl.Int64, "seat": pl.Int16, "round": pl.Int16, "score": pl.Int32}


# Digest of the rounds table of 30 games (seed 11, from game 5, every player count and bot;
# the search bot at a light budget, sim/core/signature.light_search).
# The bench signature hashes outcomes (games, players, events) only; this pins the per-round
# scores too, e.g. for Dragon Brew's numba port, which must write the same rows as the Python
# engine. Change a value only on purpose and say why in the commit message.
ROUNDS_DIGESTS = {"dwarfest": "f136b2c1e0fe2716", "brewin_usa": "3c7ee7d9130c5761",
                  "homebrewers": "e997da86ed5708f9", "dragon_brew": "96e9ea2e3abd69bb"}


def play(gid: str, n_games: int):
    game = games()[gid]
    config = game.build(prepare(gid, "base", light_search(gid), []))
    return game.simulate(config, 11, 5, n_games, list(game.player_counts), game.policies(config)).frames


@pytest.mark.parametrize(("gid", "n_games"), GAMES)
def test_last_round_is_the_final_score(gid, n_games):
    frames = play(gid, n_games)
    rounds, players, played = frames["rounds"], frames["players"], frames["games"]
    assert dict(rounds.schema) == SCHEMA
    # every seat has rounds 1..games.rounds exactly once
    per_seat = rounds.group_by("game_id", "seat").agg(
        k=pl.len(), first=pl.col("round").min(), last=pl.col("round").max(),
        final=pl.col("score").sort_by("round").last())
    joined = (players.select("game_id", pl.col("seat").cast(pl.Int16), "score")
              .join(per_seat, on=["game_id", "seat"], how="left")
              .join(played.select("game_id", "rounds"), on="game_id"))
    assert joined.height == players.height and joined["final"].null_count() == 0
    assert (joined["first"] == 1).all()
    assert (joined["last"] == joined["rounds"]).all() and (joined["k"] == joined["rounds"]).all()
    assert (joined["final"] == joined["score"]).all()
    assert rounds.height == int((played["n_players"].cast(pl.Int64) * played["rounds"].cast(pl.Int64)).sum())


@pytest.mark.parametrize("gid", sorted(ROUNDS_DIGESTS))
def test_round_scores_are_pinned(gid):
    digest = hashlib.sha256()
    frame_digest(play(gid, 30)["rounds"], digest)
    assert digest.hexdigest()[:16] == ROUNDS_DIGESTS[gid]


def test_a_full_rounds_buffer_resumes_instead_of_truncating(monkeypatch):
    """With room in its rounds buffer for one game at its bound (its event buffer as usual), Brewin'
    USA's kernel stops after every game and resumes, and the tables are the same."""
    normal = play("brewin_usa", 40)
    game = games()["brewin_usa"]
    sized = game.buffer_rows
    monkeypatch.setattr(game, "buffer_rows", lambda cfg, n: (sized(cfg, n)[0], game.per_game_bounds(cfg)[1]))
    tight = play("brewin_usa", 40)
    for name in ("games", "players", "events", "rounds"):
        assert tight[name].equals(normal[name]), name


SMALL = ("--games", "1400", "--players", "2,3,4", "--policies", "random,greedy",
         "--seed", "21", "--shard-size", "200")  # the resume tests' run: shared reference


def test_resuming_a_run_from_before_the_rounds_table_replays_its_shards(tmp_path, tmp_path_factory):
    ref = reference_run(tmp_path_factory, *SMALL, "--jobs", "2")
    run = tmp_path / "run"
    shutil.copytree(ref, run)
    (run / "run.json").unlink()
    shutil.rmtree(run / "rounds")
    for record in sorted((run / "_run").glob("shard-*.json")):  # records as older versions wrote them
        data = json.loads(record.read_text())
        for key in ("rows", "sha256"):
            data[key].pop("rounds")
        record.write_text(json.dumps(data))
    proc = cli("simulate", "--resume", run, "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert part_hashes(run) == part_hashes(ref)
    assert shard_records(run) == shard_records(ref)
    assert np.all([(run / "rounds" / f"part-{i:05d}.parquet").is_file() for i in range(7)])
