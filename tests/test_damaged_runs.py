"""Every command that reads a run folder, against damaged run folders: one `error:` line,
exit 1, no traceback; the line names the file. `simulate --resume` repairs damaged parts
(verified reads, brewbalance/verify.py; one error path, brewbalance/failures.py)."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest
from clihelp import cli, error_line, in_process, part_hashes, simulate

ARGS = ("--games", "600", "--players", "2,3", "--shard-size", "200", "--seed", "5", "--jobs", "1")


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    base = tmp_path_factory.mktemp("damaged")
    simulate(base, "run", *ARGS)
    simulate(base, "other", *ARGS[:-4], "--seed", "6", "--policy", "random", "--jobs", "1")
    return base


def flip(run):
    path = run / "games" / "part-00001.parquet"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    return path


def truncate(run):
    path = run / "players" / "part-00000.parquet"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return path


def empty(run):
    path = run / "events" / "part-00002.parquet"
    path.write_bytes(b"")
    return path


def missing(run):
    path = run / "rounds" / "part-00001.parquet"
    path.unlink()
    return path


def extra(run):
    path = run / "games" / "part-00007.parquet"
    shutil.copy(run / "games" / "part-00000.parquet", path)
    return path


def wrong_game(run):
    path = run / "run.json"
    manifest = json.loads(path.read_text())
    manifest["game"] = "homebrewers"
    path.write_text(json.dumps(manifest))
    return path


def unknown_game(run):
    path = run / "run.json"
    manifest = json.loads(path.read_text())
    manifest["game"] = "chess"
    path.write_text(json.dumps(manifest))
    return path


def wrong_schema(run):
    path = run / "games" / "part-00002.parquet"
    pl.read_parquet(path).drop("rounds").write_parquet(path)
    return path


def wrong_schema_rehashed(run):
    """A dropped column whose new hash is recorded too (parts of two versions mixed)."""
    path = wrong_schema(run)
    manifest = json.loads((run / "run.json").read_text())
    manifest["shards"][2]["sha256"]["games"] = part_hashes(run)["games/part-00002.parquet"]
    (run / "run.json").write_text(json.dumps(manifest))
    return path


def bad_manifest(run):
    path = run / "run.json"
    path.write_text(path.read_text()[:100])
    return path


DAMAGE = {"flipped": flip, "truncated": truncate, "empty": empty, "missing": missing, "extra": extra,
          "wrong_game": wrong_game, "wrong_schema": wrong_schema,
          "wrong_schema_rehashed": wrong_schema_rehashed, "bad_manifest": bad_manifest}
# Each command reading a run folder: (name, arguments with RUN and OTHER placeholders).
COMMANDS = {
    **{f"report-{f}": ("report", "RUN", "--format", f, "--out", "OUT/r") for f in ("html", "pdf", "both", "json", "all")},
    "compare": ("compare", "OTHER", "RUN", "--format", "json", "--out", "OUT/c"),
    "compare-second": ("compare", "RUN", "OTHER", "--format", "json", "--out", "OUT/c"),
    "replay": ("replay", "RUN", "3"),
    "robustness-runs": ("robustness", "--runs", "OTHER,RUN", "--format", "json", "--out", "OUT/rob"),
}


def damaged_copy(good, tmp_path, damage):
    run = tmp_path / "run"
    shutil.copytree(good / "run", run)
    return run, DAMAGE[damage](run)


def args_for(command, run, other, out):
    return [a.replace("OTHER", str(other)).replace("RUN", str(run)).replace("OUT", str(out))
            for a in COMMANDS[command]]


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_damaged_run_gives_one_line(tmp_path, good, command, damage):
    if command == "replay" and damage == "wrong_schema_rehashed":
        pytest.skip("replay reads no parts after the check")  # covered by the report rows
    run, path = damaged_copy(good, tmp_path, damage)
    out = tmp_path / "out"
    msg = error_line(in_process(*args_for(command, run, good / "other", out)), 1)
    assert str(path) in msg or str(run) in msg, msg
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()], "output written"


@pytest.mark.parametrize("damage", ["flipped", "truncated", "empty", "missing"])
def test_message_names_the_repair_and_resume_repairs_it(tmp_path, good, damage):
    run, path = damaged_copy(good, tmp_path, damage)
    msg = error_line(in_process("report", run, "--format", "json"), 1)
    assert str(path) in msg and f"brewbalance simulate --resume {run}" in msg, msg
    proc = in_process("simulate", "--resume", run, "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert part_hashes(run) == part_hashes(good / "run")
    assert in_process("report", run, "--format", "json").returncode == 0


@pytest.mark.parametrize("damage", ["truncated", "empty"])
@pytest.mark.parametrize("command", ["report-json", "report-html", "compare", "robustness-runs"])
def test_no_verify_still_gives_one_line(tmp_path, good, command, damage):
    """Without the check the damage reaches DuckDB/polars; the error is still one line."""
    run, _ = damaged_copy(good, tmp_path, damage)
    out = tmp_path / "out"
    proc = in_process(*args_for(command, run, good / "other", out), "--no-verify")
    assert str(run) in error_line(proc, 1)


def test_no_verify_skips_the_check(tmp_path, good):
    run, _ = damaged_copy(good, tmp_path, "extra")
    assert in_process("report", run, "--format", "json").returncode == 1
    proc = in_process("report", run, "--format", "json", "--no-verify")
    assert proc.returncode == 0, proc.stderr


def test_run_without_hashes_is_read_with_a_warning(tmp_path, good):
    run = tmp_path / "run"
    shutil.copytree(good / "run", run)
    manifest = json.loads((run / "run.json").read_text())
    for shard in manifest["shards"]:
        del shard["sha256"]
    (run / "run.json").write_text(json.dumps(manifest))
    proc = in_process("report", run, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning:") and "no recorded sha256" in lines[0]


def test_replay_of_an_unknown_game(tmp_path, good):
    """The analysis reads a run of any game; a replay needs the game's engine."""
    run, path = damaged_copy(good, tmp_path, "extra")
    path.unlink()
    unknown_game(run)
    msg = error_line(in_process("replay", run, "3"), 1)
    assert "run.json" in msg and "chess" in msg


def test_debug_shows_the_traceback(tmp_path, good):
    run, _ = damaged_copy(good, tmp_path, "empty")
    proc = cli("--debug", "report", run, "--format", "json", "--no-verify", cwd=tmp_path)
    assert proc.returncode == 1 and "Traceback" in proc.stderr
