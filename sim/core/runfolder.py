"""The run folder (DESIGN.md §6): the contract between simulation and analysis.

    <out>/run.json               manifest, written last
    <out>/games/part-NNNNN.parquet, players/..., events/..., rounds/... (sim/core/rounds.py)
    <out>/_run/plan.json         what the run will do (written first; lets a run resume)
    <out>/_run/shard-NNNNN.json  a shard's completion record (written after its files)

Every file is written to a temporary name in the same folder and renamed into place, so
a reader never sees a half-written file. A shard counts as done only when its record
exists and its files match the hashes in it. run.json lists only completed shards, and
exists only once every shard is done. A shard record written before the rounds table existed
has no hash for it, so resuming such a run replays that shard rather than mixing formats.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import polars as pl

from .errors import BrewError
from .frames import Columns
from .parquet import write_parquet

TABLES = ("games", "players", "events", "rounds")
PLAN = "_run/plan.json"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise BrewError(f"cannot write {path}: {exc.strerror or exc}") from None


def part_name(shard_id: int) -> str:
    return f"part-{shard_id:05d}.parquet"


def shard_record_path(out: Path, shard_id: int) -> Path:
    return out / "_run" / f"shard-{shard_id:05d}.json"


def prepare_folder(out: Path) -> None:
    """Create the run folder's sub-folders, with a clear message if that is impossible."""
    try:
        for sub in (*TABLES, "_run"):
            (out / sub).mkdir(parents=True, exist_ok=True)
        probe = out / "_run" / f".probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise BrewError(f"output folder {out} is not writable: {exc.strerror or exc}") from None


def write_shard(out: Path, shard: dict, tables: dict[str, Columns | pl.DataFrame]) -> dict:
    """Write one shard's tables (TABLES), then its completion record; returns the record.
    A table given as Columns is released once written (its memory goes back to the pool for
    the next shard's columns): it cannot be read afterwards."""
    record = {"id": shard["id"], "first_game": shard["first_game"], "n_games": shard["n_games"],
              "rows": {}, "sha256": {}}
    for table in TABLES:
        final = out / table / part_name(shard["id"])
        tmp = final.with_name(f".{final.name}.tmp-{os.getpid()}")
        try:
            with open(tmp, "wb") as fh:
                record["sha256"][table] = write_parquet(tables[table], fh)
            os.replace(tmp, final)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise BrewError(f"cannot write {final}: {exc.strerror or exc}") from None
        record["rows"][table] = tables[table].height
        if isinstance(tables[table], Columns):
            tables[table].release()
    atomic_write_text(shard_record_path(out, shard["id"]), json.dumps(record))
    return record


def completed_shards(out: Path, plan_shards: list[dict]) -> dict[int, dict]:
    """Records of shards whose files are all present and match their hashes."""
    done = {}
    for shard in plan_shards:
        path = shard_record_path(out, shard["id"])
        if not path.exists():
            continue
        try:
            record = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
        files = [out / t / part_name(shard["id"]) for t in TABLES]
        if all(f.exists() and sha256_file(f) == record["sha256"].get(t) for f, t in zip(files, TABLES, strict=True)):
            done[shard["id"]] = record
    return done


def clean_temporaries(out: Path) -> None:
    for sub in (*TABLES, "_run"):
        for tmp in (out / sub).glob(".*.tmp-*"):
            tmp.unlink(missing_ok=True)


def write_manifest(out: Path, plan: dict, records: list[dict]) -> None:
    manifest = dict(plan)
    manifest["shards"] = sorted(records, key=lambda r: r["id"])
    atomic_write_text(out / "run.json", json.dumps(manifest, indent=2, sort_keys=False))


def read_manifest(run: Path) -> dict:
    path = Path(run) / "run.json"
    if not path.exists():
        hint = " (an interrupted run: resume it with `brewbalance simulate --resume`)" if (Path(run) / PLAN).exists() else ""
        raise BrewError(f"{run} is not a complete run folder: no run.json{hint}")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise BrewError(f"{path}: malformed manifest: {exc}") from None
