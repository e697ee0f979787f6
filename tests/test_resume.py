"""Interrupted runs keep their completed shards, and `--resume` finishes them into exactly
the files an uninterrupted run writes (DESIGN.md §6, §10)."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import time

import pytest
from clihelp import (
    TABLES,
    cli,
    copy_data,
    error_line,
    manifest,
    part_hashes,
    popen,
    reference_run,
    sha256,
    shard_records,
    simulate,
    snapshot,
)

SMALL = ("--games", "1400", "--players", "2,3,4", "--policies", "random,greedy",
         "--seed", "21", "--shard-size", "200")  # 7 shards
LONG = ("--games", "40000", "--players", "2,3,4", "--seed", "22",
        "--shard-size", "2000", "--jobs", "1")  # 20 shards, several seconds
PART = re.compile(r"part-(\d{5})\.parquet")
TEMP = re.compile(r"\.part-\d{5}\.parquet\.tmp-\d+")


def drop_shard(run, shard_id: int) -> None:
    """Make shard `shard_id` incomplete, as if the run died before it finished."""
    (run / "_run" / f"shard-{shard_id:05d}.json").unlink()
    for name in TABLES:
        (run / name / f"part-{shard_id:05d}.parquet").unlink()


def resume(run, cwd, *extra, data=None) -> subprocess.CompletedProcess:
    proc = cli("simulate", "--resume", run, "--quiet", *extra, cwd=cwd, data=data)
    assert proc.returncode == 0, f"resume failed ({proc.returncode}):\n{proc.stderr}"
    return proc


def assert_same_run(run, ref) -> None:
    assert part_hashes(run) == part_hashes(ref)
    assert shard_records(run) == shard_records(ref)
    for key in ("game", "variant", "overrides", "seed", "n_games", "player_counts",
                "policies", "data_hashes", "shard_size"):
        assert manifest(run)[key] == manifest(ref)[key], key
    leftovers = [p for p in run.rglob("*") if ".tmp-" in p.name]
    assert not leftovers, leftovers


@pytest.fixture(scope="module")
def small_ref(tmp_path_factory):
    return reference_run(tmp_path_factory, *SMALL, "--jobs", "2")


@pytest.fixture(scope="module")
def long_ref(tmp_path_factory):
    return reference_run(tmp_path_factory, *LONG)


# --- (a) resume after losing shards ---------------------------------------------------------


@pytest.mark.parametrize("lost", [[3], [0, 6], [1, 2, 4]])
def test_resume_rebuilds_lost_shards(tmp_path, small_ref, lost):
    run = tmp_path / "run"
    shutil.copytree(small_ref, run)
    (run / "run.json").unlink()
    for shard_id in lost:
        drop_shard(run, shard_id)
    kept = part_hashes(run)
    mtimes = {k: (run / k).stat().st_mtime_ns for k in kept}
    resume(run, tmp_path, "--jobs", "2")
    assert_same_run(run, small_ref)
    # shards that were complete are kept, not rewritten
    assert {k: (run / k).stat().st_mtime_ns for k in kept} == mtimes


def test_resume_redoes_a_shard_whose_file_does_not_match(tmp_path, small_ref):
    run = tmp_path / "run"
    shutil.copytree(small_ref, run)
    (run / "run.json").unlink()
    corrupt = run / "players" / "part-00002.parquet"
    corrupt.write_bytes(corrupt.read_bytes()[:-10])  # truncated: hash no longer matches
    (run / "events" / "part-00005.parquet").unlink()  # record kept, file gone
    resume(run, tmp_path, "--jobs", "1")
    assert_same_run(run, small_ref)


def test_resume_removes_stale_temporaries(tmp_path, small_ref):
    run = tmp_path / "run"
    shutil.copytree(small_ref, run)
    (run / "run.json").unlink()
    drop_shard(run, 4)
    stale = run / "games" / ".part-00004.parquet.tmp-99999"
    stale.write_bytes(b"half a parquet file")
    resume(run, tmp_path, "--jobs", "2")
    assert not stale.exists()
    assert_same_run(run, small_ref)


# --- (b) a real interrupt ---------------------------------------------------------------------


def interrupt(cwd, sig) -> subprocess.CompletedProcess:
    """Start the LONG run, signal it once a shard is complete, return the finished process."""
    run = cwd / "run"
    proc = popen("simulate", "dwarfest", "--out", "run", "--quiet", *LONG, cwd=cwd)
    deadline = time.monotonic() + 300
    try:
        while not list((run / "_run").glob("shard-*.json")):
            assert proc.poll() is None, f"the run ended before its first shard:\n{proc.stderr.read()}"
            assert time.monotonic() < deadline, "no shard completed within 300 s"
            time.sleep(0.005)
        assert not (run / "run.json").exists(), "the run finished before it could be interrupted"
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.fixture(scope="module", params=[signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def interrupted(request, tmp_path_factory, long_ref):
    """An interrupted LONG run: (its folder, the finished process). Tests must not change it."""
    cwd = tmp_path_factory.mktemp(f"interrupted-{request.param.name}")
    proc = interrupt(cwd, request.param)
    return request.param, cwd / "run", proc


def test_interrupt_leaves_no_manifest(interrupted):
    sig, run, proc = interrupted
    assert not (run / "run.json").exists()
    assert (run / "_run" / "plan.json").exists()
    done = list((run / "_run").glob("shard-*.json"))
    assert 1 <= len(done) < 20


def test_interrupt_exit_code(interrupted):
    sig, run, proc = interrupted
    if sig == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL
        return
    assert "--resume" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1


def test_interrupt_leaves_only_whole_files(interrupted, long_ref):
    """A file named part-*.parquet is always complete: it is the reference run's file."""
    sig, run, proc = interrupted
    ref = part_hashes(long_ref)
    for name in TABLES:
        for path in (run / name).iterdir():
            if PART.fullmatch(path.name):
                assert sha256(path) == ref[f"{name}/{path.name}"], f"{path} differs"
            else:
                assert TEMP.fullmatch(path.name), f"unexpected file {path}"
                assert sig == signal.SIGKILL, f"SIGINT left a temporary behind: {path}"
    for record_path in (run / "_run").glob("shard-*.json"):
        record = json.loads(record_path.read_text())
        for name in TABLES:
            part = run / name / f"part-{record['id']:05d}.parquet"
            assert part.exists() and sha256(part) == record["sha256"][name]
            assert record["sha256"][name] == ref[f"{name}/{part.name}"]


def test_resume_after_interrupt(interrupted, long_ref, tmp_path):
    sig, original, proc = interrupted
    run = tmp_path / "run"
    shutil.copytree(original, run)
    done = sorted(p.name for p in (run / "_run").glob("shard-*.json"))
    resume(run, tmp_path, "--jobs", "2")
    assert_same_run(run, long_ref)
    assert len(shard_records(run)) == 20
    assert done  # the resumed run really started from a partial one


# --- (c) data changed since the run began ----------------------------------------------------


def test_resume_refuses_changed_data(tmp_path):
    data = copy_data(tmp_path / "data")
    params = data / "games" / "dwarfest" / "params.toml"
    original = params.read_text()
    simulate(tmp_path, "run", *SMALL, "--jobs", "2", data=data)
    ref = part_hashes(tmp_path / "run")
    records = shard_records(tmp_path / "run")
    run = tmp_path / "run"
    (run / "run.json").unlink()
    drop_shard(run, 5)
    assert "dancer_cost = 3" in original
    params.write_text(original.replace("dancer_cost = 3", "dancer_cost = 4", 1))
    before = snapshot(run)
    proc = cli("simulate", "--resume", run, "--quiet", cwd=tmp_path, data=data)
    msg = error_line(proc, 1)
    assert "params.toml" in msg and "changed" in msg
    assert "tavern_cards.toml" not in msg  # names only the files that changed
    assert snapshot(run) == before
    # with the data restored the run resumes to the same files as before
    params.write_text(original)
    resume(run, tmp_path, data=data)
    assert part_hashes(run) == ref
    assert shard_records(run) == records


def test_resume_refuses_an_unreadable_plan(tmp_path, small_ref):
    run = tmp_path / "run"
    shutil.copytree(small_ref, run)
    (run / "run.json").unlink()
    (run / "_run" / "plan.json").write_text("{not json")
    msg = error_line(cli("simulate", "--resume", run, "--quiet", cwd=tmp_path), 1)
    assert "plan.json" in msg


# --- (d) nothing to resume --------------------------------------------------------------------


def test_resume_without_a_run(tmp_path):
    (tmp_path / "empty").mkdir()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    for folder in ("empty", "other", "missing"):
        proc = cli("simulate", "--resume", folder, "--quiet", cwd=tmp_path)
        msg = error_line(proc, 2)
        assert folder in msg and "--resume" in msg
    assert not (tmp_path / "missing").exists()
    assert list((tmp_path / "empty").iterdir()) == []
    assert [p.name for p in other.iterdir()] == ["notes.txt"]
