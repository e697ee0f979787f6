"""`simulate --engine dask` writes exactly the files of `--engine local`, resumes across
engines, and survives real faults: a SIGKILLed worker, a SIGKILLed driver, a write error.

Every test starts a real LocalCluster (worker processes), so they are few and small."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import psutil
import pytest
from clihelp import cli, cli_env, error_line, part_hashes, popen, reference_run, shard_records
from test_resume import SMALL, assert_same_run, drop_shard, resume

pytest.importorskip("distributed")

# 60 shards: long enough (a few seconds) to kill something once the first shard is done
KILL = ("--games", "60000", "--players", "2,3,4", "--seed", "23", "--shard-size", "1000", "--jobs", "2")


@pytest.fixture(scope="module")
def small_ref(tmp_path_factory):
    return reference_run(tmp_path_factory, *SMALL, "--jobs", "2")


@pytest.fixture(scope="module")
def kill_ref(tmp_path_factory):
    return reference_run(tmp_path_factory, *KILL)


def test_dask_engine_writes_the_local_engines_files(tmp_path, small_ref):
    proc = cli("simulate", "dwarfest", "--out", "run", "--quiet", *SMALL, "--jobs", "2",
               "--engine", "dask", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert_same_run(tmp_path / "run", small_ref)  # part sha256s and shard records


def test_a_worker_write_error_is_one_line_and_resumable(tmp_path, small_ref):
    """A directory where a worker must write a part file: the shard's write fails on the worker.
    The folder comes from a local run, so the final resume also crosses engines (local -> dask)."""
    run = tmp_path / "run"
    shutil.copytree(small_ref, run)
    (run / "run.json").unlink()
    drop_shard(run, 3)
    drop_shard(run, 5)
    blocker = run / "players" / "part-00003.parquet"
    (blocker / "sub").mkdir(parents=True)
    proc = cli("simulate", "--resume", run, "--quiet", "--engine", "dask", "--jobs", "2", cwd=tmp_path)
    msg = error_line(proc, 1)
    assert "cannot write" in msg and "part-00003.parquet" in msg
    assert not (run / "run.json").exists()
    assert not [p for p in run.rglob("*") if ".tmp-" in p.name]
    shutil.rmtree(blocker)
    resume(run, tmp_path, "--engine", "dask", "--jobs", "2")
    assert_same_run(run, small_ref)


def workers_of(driver: psutil.Process) -> list[psutil.Process]:
    """The LocalCluster's worker processes: the driver's spawned multiprocessing children."""
    return [p for p in driver.children(recursive=True)
            if "spawn_main" in " ".join(p.cmdline()) and "resource_tracker" not in " ".join(p.cmdline())]


def start_and_wait_for_a_shard(cwd, *args):
    """Start a dask KILL run in cwd/run; return (process, its workers) once a shard is done."""
    proc = popen("simulate", "dwarfest", "--out", "run", "--quiet", *KILL, "--engine", "dask", *args, cwd=cwd)
    records = cwd / "run" / "_run"
    deadline = time.monotonic() + 300
    while not (records.exists() and list(records.glob("shard-*.json"))):
        assert proc.poll() is None, f"the run ended before its first shard:\n{proc.stderr.read()}"
        assert time.monotonic() < deadline, "no shard completed within 300 s"
        time.sleep(0.01)
    assert not (cwd / "run" / "run.json").exists(), "the run finished before the fault"
    workers = workers_of(psutil.Process(proc.pid))
    assert len(workers) == 2, workers
    return proc, workers


def kill_a_worker(tmp_path):
    """SIGKILL one worker once a shard is done; (driver process, its stderr) when it ends."""
    proc, workers = start_and_wait_for_a_shard(tmp_path)
    try:
        workers[0].send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc, err


def test_a_killed_worker_is_replaced_and_the_run_completes(tmp_path, kill_ref):
    proc, err = kill_a_worker(tmp_path)
    assert proc.returncode == 0, err
    assert_same_run(tmp_path / "run", kill_ref)


def test_a_worker_that_keeps_dying_stops_the_run_resumably(tmp_path, kill_ref, monkeypatch):
    """With no failures allowed, the first worker death is the scheduler's last word."""
    monkeypatch.setenv("DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES", "0")
    proc, err = kill_a_worker(tmp_path)
    msg = error_line(subprocess.CompletedProcess(proc.args, proc.returncode, "", err), 1)
    assert "died" in msg and "--resume" in msg
    assert not (tmp_path / "run" / "run.json").exists()
    monkeypatch.delenv("DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES")
    resume(tmp_path / "run", tmp_path, "--engine", "dask", "--jobs", "2")
    assert_same_run(tmp_path / "run", kill_ref)


def test_a_killed_driver_resumes_to_the_uninterrupted_run(tmp_path, kill_ref):
    proc, workers = start_and_wait_for_a_shard(tmp_path)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    # the orphaned workers notice their parent is gone and exit; none may write any more
    _, alive = psutil.wait_procs(workers, timeout=60)
    assert not alive, f"workers outlived their driver: {alive}"
    run = tmp_path / "run"
    assert not (run / "run.json").exists()
    kept = part_hashes(run)
    assert kept and all(kill_ref_hash == part_hashes(kill_ref)[k] for k, kill_ref_hash in kept.items())
    resume(run, tmp_path, "--engine", "local", "--jobs", "2")  # and across engines: dask -> local
    assert_same_run(run, kill_ref)
    assert len(shard_records(run)) == 60


def test_ctrl_c_stops_driver_and_workers_cleanly(tmp_path, kill_ref):
    """Ctrl-C in a terminal signals the whole process group: driver and local workers."""
    proc = subprocess.Popen([sys.executable, "-m", "brewbalance", "simulate", "dwarfest", "--out", "run",
                             "--quiet", *KILL, "--engine", "dask"], cwd=tmp_path, env=cli_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its own process group, as under a shell
    try:
        deadline = time.monotonic() + 300
        while not list((tmp_path / "run" / "_run").glob("shard-*.json")):
            assert proc.poll() is None and time.monotonic() < deadline, "no shard completed"
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 1, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "--resume" in err
    resume(tmp_path / "run", tmp_path, "--engine", "dask", "--jobs", "2")
    assert_same_run(tmp_path / "run", kill_ref)


def test_workers_use_the_drivers_numba_cache():
    """A LocalCluster worker imports sim itself: its numba cache folder (from its inherited
    BREWBALANCE_CACHE_DIR, else the user cache folder) must be the driver's."""
    import numba

    from sim.core import dask_engine

    client = dask_engine.connect(None, 1)
    try:
        from_workers = client.run(lambda: (numba.config.CACHE_DIR, dask_engine.code_fingerprint()))
    finally:
        dask_engine.close(client)
    assert list(from_workers.values()) == [(numba.config.CACHE_DIR, dask_engine.code_fingerprint())]


def test_bad_engine_and_scheduler_choices(tmp_path, monkeypatch):
    monkeypatch.setenv("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "2s")  # fail fast
    msg = error_line(cli("simulate", "dwarfest", "--games", "10", "--engine", "spark", "--out", "r",
                         "--quiet", cwd=tmp_path), 2)
    assert "spark" in msg and "local, dask" in msg
    msg = error_line(cli("simulate", "dwarfest", "--games", "10", "--scheduler", "tcp://x:1", "--out", "r",
                         "--quiet", cwd=tmp_path), 2)
    assert "--engine dask" in msg
    msg = error_line(cli("simulate", "dwarfest", "--games", "10", "--engine", "dask", "--scheduler",
                         "tcp://127.0.0.1:9", "--out", "r", "--quiet", cwd=tmp_path), 1)
    assert "tcp://127.0.0.1:9" in msg and "scheduler" in msg
    assert not (tmp_path / "r").exists()  # nothing written before the scheduler answered
