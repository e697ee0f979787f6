"""The Dask engine: every shard is one dask.distributed task (`simulate --engine dask`).

A task plays its shard's games and writes the shard's files and completion record into the
run folder itself, exactly as the local engine does (runfolder.write_shard), so the folder
must be on a filesystem the driver and every worker see at the same path. The driver only
collects the small completion records and writes run.json last. Games are pure functions of
(data, seed, game id) and shard boundaries come from the plan, so the files are byte-for-byte
those of `--engine local`, and a run started on one engine resumes on the other.

Without a scheduler address the driver starts a LocalCluster of worker processes (one
thread each). Workers import this module by name, so `sim/__init__` sets their numba cache
folder from their own BREWBALANCE_CACHE_DIR (a LocalCluster's workers inherit the driver's
environment).

A worker that dies mid-shard leaves at most a temporary file; the scheduler reruns the shard
on another worker, and the rerun renames identical bytes into place. After
distributed's `allowed-failures` deaths of the same task the run stops with a one-line error
and stays resumable.
"""

from __future__ import annotations

import logging
import signal
import uuid
import warnings
from pathlib import Path

from distributed import WorkerPlugin

from . import runfolder as rf
from .errors import BrewError


def code_fingerprint() -> str:
    """The digest of the sim sources (also the name of the numba cache folder): a worker with
    other code would write other games, so the driver compares it with every worker's."""
    import sim

    return sim._numba_cache_dir().name


def play_shard(game_id: str, config, plan: dict, out: str, shard: dict, check: bool,
               fingerprint: str) -> dict:
    """The task: play one shard, write its files and record, return the record."""
    from sim.registry import get_game

    if code_fingerprint() != fingerprint:
        raise BrewError(f"dask worker runs other brewbalance code (sim sources {code_fingerprint()}, "
                        f"driver {fingerprint}); install the same version on every worker")
    extra = {"options": plan["options"]} if plan.get("options") else {}
    result = get_game(game_id).simulate(config, plan["seed"], shard["first_game"], shard["n_games"],
                                        plan["player_counts"], plan["policies"], check=check, **extra)
    return rf.write_shard(Path(out), shard, result.tables)


def connect(scheduler: str | None, jobs: int):
    """A Client on the given scheduler, or on a new LocalCluster of `jobs` worker processes."""
    import dask
    from dask.distributed import Client, LocalCluster

    if scheduler:
        try:  # waits up to distributed.comm.timeouts.connect (DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT)
            return Client(scheduler)
        except (OSError, TimeoutError, ValueError) as exc:
            raise BrewError(f"cannot connect to the dask scheduler at {scheduler}: {exc}") from None
    # silence_logs: the scheduler's and nannies' warnings (a restarted worker, a failed task)
    # would otherwise interleave with the progress bar; the run reports failures itself.
    # Worker environment without distributed's MALLOC_TRIM_THRESHOLD_: setting it turns off
    # glibc's dynamic mmap threshold, so every shard's buffers were mapped and faulted in
    # afresh (measured: +15% CPU, three times the system time, against --engine local).
    environ = {k: v for k, v in dask.config.get("distributed.nanny.pre-spawn-environ").items()
               if k != "MALLOC_TRIM_THRESHOLD_"}
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}), warnings.catch_warnings():
        # the scheduler's HTTP endpoint falls back to a free port if 8787 is taken, with a warning
        warnings.simplefilter("ignore", UserWarning)
        cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.CRITICAL)
    client = Client(cluster)
    client.register_plugin(IgnoreSigint())
    return client


class IgnoreSigint(WorkerPlugin):
    """Worker plugin for the local cluster only: Ctrl-C reaches the whole process group, and
    the driver alone handles it (it stops the cluster and keeps the completed shards); the
    workers would otherwise each print a KeyboardInterrupt traceback."""

    name = "brewbalance-ignore-sigint"

    def setup(self, worker) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def close(client) -> None:
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


def run_shards(client, game, config, plan: dict, out: Path, todo: list[dict], check: bool,
               on_done) -> None:
    """Run the shards `todo` as tasks on `client`; call on_done(record) as each one completes."""
    from dask.distributed import as_completed
    from distributed.scheduler import KilledWorker

    fingerprint = code_fingerprint()
    run_token = uuid.uuid4().hex[:8]  # unique keys: several runs may share a scheduler
    task_plan = {k: v for k, v in plan.items() if k != "shards"}  # each task needs only its own shard
    futures = {}
    for s in todo:
        key = f"brewbalance-{run_token}-shard-{s['id']:05d}"
        futures[client.submit(play_shard, game.id, config, task_plan, str(out.resolve()), s, check,
                              fingerprint, key=key)] = s
    try:
        for fut in as_completed(futures):
            on_done(fut.result())
    except KilledWorker as exc:
        shard = next((s for f, s in futures.items() if f.key == getattr(exc, "task", None)), None)
        which = f"shard {shard['id']}" if shard else "a shard"
        raise BrewError(f"dask workers died repeatedly while running {which}; completed shards "
                        f"are kept; resume with: brewbalance simulate --resume {out}") from None
    finally:
        client.cancel(list(futures))
