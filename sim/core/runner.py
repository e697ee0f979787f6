"""Execution of a run: shards of games on a local thread pool (the `local` engine, here)
or as dask.distributed tasks (the `dask` engine, dask_engine.py).

The numba kernels release the GIL (nogil=True), and so does most of the Parquet writing, so
threads give real parallelism with one compiled copy of the kernel. Shard boundaries depend
only on the number of games and the shard size (never on --jobs), and every game is a pure
function of (data, seed, game id), so a run's files are identical whatever --jobs is.
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from datetime import UTC, datetime
from importlib import metadata
from itertools import accumulate
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from . import runfolder as rf
from .errors import BrewError, UsageError
from .frames import Columns

DEFAULT_SHARD = 25_000


def plan_shards(n_games: int, shard_size: int = DEFAULT_SHARD) -> list[dict]:
    """Split games 0..n_games-1 into consecutive shards of at most shard_size games."""
    if n_games < 1:
        raise UsageError(f"--games must be at least 1, got {n_games}")
    if shard_size < 1:
        raise UsageError(f"--shard-size must be at least 1, got {shard_size}")
    return [{"id": i, "first_game": first, "n_games": min(shard_size, n_games - first)}
            for i, first in enumerate(range(0, n_games, shard_size))]


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for pkg in ("brewbalance", "numpy", "numba", "polars", "duckdb"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = "not installed"
    return out


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class GamesPerSecond(TextColumn):
    def __init__(self):
        super().__init__("")

    def render(self, task):
        speed = task.finished_speed or task.speed or 0
        return f"{speed:,.0f} games/s"


def make_progress(quiet: bool) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        GamesPerSecond(), TextColumn("ETA"), TimeRemainingColumn(),
        console=Console(stderr=True), disable=quiet, transient=False,
    )


def check_out_folder(out: Path, resume: bool, force: bool) -> None:
    """Refuse to mix two runs in one folder."""
    has_plan = (out / rf.PLAN).exists()
    has_manifest = (out / "run.json").exists()
    if resume:
        if not has_plan:
            raise UsageError(f"--resume: {out} holds no run to resume (no {rf.PLAN})")
        return
    if (has_plan or has_manifest) and not force:
        what = "a complete run" if has_manifest else "an interrupted run (resume it with --resume)"
        raise UsageError(f"{out} already holds {what}; choose another --out or pass --force")
    if force and (has_plan or has_manifest):
        for sub in (*rf.TABLES, "_run"):
            shutil.rmtree(out / sub, ignore_errors=True)
        (out / "run.json").unlink(missing_ok=True)
    elif out.exists() and any(out.iterdir()):
        raise UsageError(f"{out} exists and is not empty; choose another --out")


ENGINES = ("local", "dask")


def check_engine(engine: str, scheduler: str | None) -> None:
    """A known --engine, and --scheduler only with dask (multi-arm commands call this before
    printing their plan, so a bad engine prints one line and nothing else)."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine '{engine}'; choose from {', '.join(ENGINES)}")
    if scheduler and engine != "dask":
        raise UsageError("--scheduler applies to --engine dask only")


def execute(game, config, plan: dict, out: Path, jobs: int, quiet: bool = False, check: bool = False,
            engine: str = "local", scheduler: str | None = None) -> dict:
    """Run every shard of `plan` not yet complete in `out`, then write run.json.

    Safe to interrupt at any point: completed shards stay, half-written files are temporary
    names that are cleaned up, and `--resume` picks up the rest (on either engine)."""
    check_engine(engine, scheduler)
    client = None
    if engine == "dask":  # connect first: a wrong --scheduler must leave nothing written
        try:
            from . import dask_engine
        except ImportError:
            raise BrewError("--engine dask needs dask.distributed: pip install 'dask[distributed]'") from None

        client = dask_engine.connect(scheduler, jobs)
    try:
        _run_plan(game, config, plan, out, jobs, quiet, check, client)
    finally:
        if client is not None:
            dask_engine.close(client)
    return rf.read_manifest(out)


def _run_plan(game, config, plan, out, jobs, quiet, check, client) -> None:
    rf.prepare_folder(out)
    rf.clean_temporaries(out)
    rf.atomic_write_text(out / rf.PLAN, _json(plan))
    done = rf.completed_shards(out, plan["shards"])
    todo = [s for s in plan["shards"] if s["id"] not in done]
    with make_progress(quiet) as progress:
        task = progress.add_task(f"{game.id}", total=plan["n_games"],
                                 completed=sum(s["n_games"] for s in plan["shards"] if s["id"] in done))
        try:
            if client is not None:
                from . import dask_engine

                def on_done(record):  # dask: the bar moves shard by shard
                    done[record["id"]] = record
                    progress.advance(task, record["n_games"])

                dask_engine.run_shards(client, game, config, plan, out, todo, check, on_done)
            else:
                _run_threads(game, config, plan, out, todo, jobs, check, done,
                             lambda k: progress.advance(task, k))
        except BaseException:
            rf.clean_temporaries(out)
            raise
    rf.clean_temporaries(out)  # a dask worker killed mid-write leaves one; its shard was rerun
    rf.write_manifest(out, plan, list(done.values()))


def _run_threads(game, config, plan, out, todo, jobs, check, done: dict, advance) -> None:
    """The local engine: shards on a thread pool; `done` collects their records. The last
    shards are played in pieces (`tasks`), so no thread idles while another plays the last
    whole shard; a shard is written by the thread that plays its last piece."""
    stop = threading.Event()
    lock = threading.Lock()
    played = {}  # shard id -> {piece index: its tables}, until the shard's last piece is in

    def progress(k):
        if stop.is_set():
            raise KeyboardInterrupt
        with lock:
            advance(k)

    def run_piece(shard, index, first_game, n_games, n_pieces):
        extra = {"options": plan["options"]} if plan.get("options") else {}
        tables = game.simulate(config, plan["seed"], first_game, n_games, plan["player_counts"],
                               plan["policies"], progress=progress, check=check, **extra).tables
        with lock:
            pieces = played.setdefault(shard["id"], {})
            pieces[index] = tables
            if len(pieces) < n_pieces:
                return None
            del played[shard["id"]]
        return rf.write_shard(out, shard, {t: Columns.concat([pieces[i][t] for i in range(n_pieces)]) for t in tables})

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    switch = sys.getswitchinterval()
    sys.setswitchinterval(GIL_SWITCH)
    try:
        pending = {pool.submit(run_piece, *task) for task in tasks(todo, jobs)}
        while pending:
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for fut in finished:
                record = fut.result()
                if record is not None:
                    done[record["id"]] = record
    except BaseException:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    finally:
        sys.setswitchinterval(switch)
    pool.shutdown(wait=True)


# The last shards' pieces, largest first, in these proportions: a thread that runs dry waits
# for at most the last piece, 1/30 of a shard (Dwarfest: about 30 ms), where eight equal pieces
# left up to 1/8 (110 ms). A piece costs one kernel call's set-up, under a millisecond.
TAIL_WEIGHTS = (8, 8, 4, 4, 2, 2, 1, 1)
TAIL_PIECES = len(TAIL_WEIGHTS)

# How long a thread running Python keeps the GIL when another thread asks for it (CPython's
# default is 5 ms). A thread whose kernel call has returned needs the GIL for a moment to start
# the next one; while the other thread writes a shard (Python between compiled calls), it
# waited up to the whole default interval: Dwarfest's threads idled 1.0 µs a game end to end
# against 0.01 kernel-only, and 0.3 with 0.5 ms (in-process, 200,000-game runs alternated).
GIL_SWITCH = 0.0005


def tasks(todo: list[dict], jobs: int) -> list[tuple]:
    """(shard, piece index, first game, games, pieces of the shard): whole shards in game
    order, then the last `jobs` shards in TAIL_PIECES pieces each, of shrinking size
    (TAIL_WEIGHTS), taken in turn piece by piece. In turn, every last shard is
    finished at the end of the run and each thread writes one of them at once; in game order
    the first of them was written mid-run and the last one alone, with the other threads idle
    for a whole shard's writing (Homebrewers, 2 shards: 4% of the run). The files do not depend
    on it: a shard's tables are the same rows however it is cut, and sim/core/parquet.py writes
    them to the same bytes."""
    tail = max(0, len(todo) - jobs) if jobs > 1 else len(todo)
    out = [(shard, 0, shard["first_game"], shard["n_games"], 1) for shard in todo[:tail]]
    cut = [_pieces(shard) for shard in todo[tail:]]
    for i in range(max((len(c) for c in cut), default=0)):
        out += [pieces[i] for pieces in cut if i < len(pieces)]
    return out


def _pieces(shard: dict) -> list[tuple]:
    """A shard cut by TAIL_WEIGHTS; a shard too small for every piece to hold a few games is
    cut in equal pieces."""
    first, n = shard["first_game"], shard["n_games"]
    weights = TAIL_WEIGHTS if n >= 4 * sum(TAIL_WEIGHTS) else (1,) * min(TAIL_PIECES, n)
    ends = list(accumulate(weights, initial=0))
    bounds = [first + n * end // ends[-1] for end in ends]
    return [(shard, i, bounds[i], bounds[i + 1] - bounds[i], len(weights)) for i in range(len(weights))]


def new_plan(game, data, config, *, n_games, shard_size, seed, player_counts, policies, command,
             options: dict | None = None) -> dict:
    extra = {"options": options} if options else {}  # recorded only when given (faction games)
    return {
        "format": 1,
        "game": game.id,
        "variant": data.variant,
        "overrides": [[k, v] for k, v in data.overrides],
        "policies": policies,
        "player_counts": player_counts,
        "seed": seed,
        "n_games": n_games,
        "shard_size": shard_size,
        "data_hashes": data.hashes,
        "versions": versions(),
        "command": command,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "shards": plan_shards(n_games, shard_size),
        **extra,
        **game.manifest_extras(config),
    }


def _json(obj) -> str:
    import json

    return json.dumps(obj, indent=2)




def command_line() -> str:
    return " ".join(["brewbalance", *sys.argv[1:]])
