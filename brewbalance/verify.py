"""Verified reads: before any command analyses a run folder, every Parquet part is checked
against the sha256 that `simulate` recorded for it in run.json (sim/core/runfolder.py).

A damaged, truncated, missing or unexpected part stops the command with one line naming
the file and the repair; `--no-verify` skips the check. A run folder from a version that
recorded no hashes is read with a one-line warning. The files are hashed in streaming
blocks on a few threads (hashlib releases the GIL), so the check costs a fraction of the
analysis that follows (measured in the README).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sim.core import config as cfg
from sim.core import runfolder as rf
from sim.core.errors import BrewError

# run.json keys every reader relies on, with the type each must have.
MANIFEST_KEYS = {"game": str, "variant": str, "overrides": list, "policies": list,
                 "player_counts": list, "seed": int, "n_games": int, "shards": list}
HASH_THREADS = 2  # hashing is I/O and memory bound; more threads do not help on 2 cores


def open_run(run: Path, verify: bool, warn) -> dict:
    """The manifest of a complete run folder, checked; with `verify`, its parts checked
    against their hashes too. Raises BrewError (one line) on any problem."""
    run = Path(run)
    manifest = rf.read_manifest(run)
    check_manifest(run, manifest)
    if verify:
        verify_parts(run, manifest, warn)
    return manifest


def check_manifest(run: Path, manifest) -> None:
    """run.json must be an object with the keys readers use, each of the right type."""
    where = Path(run) / "run.json"
    if not isinstance(manifest, dict):
        raise BrewError(f"{where}: malformed manifest: expected a JSON object; {repair(run)}")
    for key, typ in MANIFEST_KEYS.items():
        value = manifest.get(key)
        if not isinstance(value, typ) or isinstance(value, bool):
            raise BrewError(f"{where}: malformed manifest: '{key}' must be {typ.__name__}, "
                            f"got {value!r:.40}; {repair(run)}")
    for shard in manifest["shards"]:
        if not isinstance(shard, dict) or not isinstance(shard.get("id"), int):
            raise BrewError(f"{where}: malformed manifest: a shard entry without an integer id; {repair(run)}")
    check_game(run, manifest)


def check_game(run: Path, manifest: dict) -> None:
    """A run whose run.json names one game but records another game's data files (a data
    file only that other game has) would be analysed as the wrong game, silently wrong.
    Games this version does not know pass: the analysis reads any run folder."""
    recorded = manifest.get("data_hashes")
    games = cfg.data_root() / "games"
    if not isinstance(recorded, dict) or not (games / manifest["game"]).is_dir():
        return
    own = {p.name for p in (games / manifest["game"]).glob("*.toml")}
    names = {Path(str(k)).name for k in recorded}
    for game in sorted(d.name for d in games.iterdir() if d.is_dir() and d.name != manifest["game"]):
        theirs = {p.name for p in (games / game).glob("*.toml")} - own
        if names & theirs:
            raise BrewError(f"{Path(run) / 'run.json'}: names game '{manifest['game']}' but records data files "
                            f"of {game} ({', '.join(sorted(names & theirs)[:3])}): not a run of "
                            f"{manifest['game']}; re-create the run")


def repair(run: Path) -> str:
    """What to do about a damaged run folder: resume it (which replays every shard whose
    files do not match their hashes) when its plan is there, else re-create it."""
    if (Path(run) / rf.PLAN).is_file():
        return f"repair it with: brewbalance simulate --resume {run}"
    return "re-create it with the command recorded in its run.json (its resume plan is missing)"


def expected_parts(run: Path, manifest: dict) -> tuple[dict[Path, str], int]:
    """{part path: recorded sha256} for every part the manifest lists, and the number of
    parts it lists without a hash (a run folder written before hashes were recorded)."""
    expected, unhashed = {}, 0
    for shard in manifest["shards"]:
        hashes = shard.get("sha256") if isinstance(shard.get("sha256"), dict) else {}
        for table in rf.TABLES:
            path = Path(run) / table / rf.part_name(shard["id"])
            if table in hashes:
                expected[path] = hashes[table]
            elif path.exists():
                unhashed += 1  # an older run: the part exists but nothing says what it held
            elif table != "rounds":  # runs made before the rounds table have no rounds parts
                raise BrewError(f"{path}: missing part of run {run}; {repair(run)}")
    return expected, unhashed


def verify_parts(run: Path, manifest: dict, warn) -> None:
    """Check every part of `run` against run.json: present, hash equal, nothing extra."""
    run = Path(run)
    expected, unhashed = expected_parts(run, manifest)
    listed = {Path(run) / t / rf.part_name(s["id"]) for s in manifest["shards"] for t in rf.TABLES}
    for table in rf.TABLES:
        for path in sorted((run / table).glob("part-*.parquet")):
            if path not in listed:
                raise BrewError(f"{path}: not a part of run {run} (run.json lists no such shard); "
                                "move it out of the run folder")
    for path in expected:
        if not path.is_file():
            raise BrewError(f"{path}: missing part of run {run}; {repair(run)}")
    paths = sorted(expected)
    with ThreadPoolExecutor(max_workers=HASH_THREADS) as pool:
        actual = list(pool.map(_hash, paths))
    for path, digest in zip(paths, actual, strict=True):
        if digest != expected[path]:
            raise BrewError(f"{path}: damaged (its sha256 differs from the one in run.json); "
                            f"{repair(run)}, or read it anyway with --no-verify")
    check_schemas(run, paths)
    if unhashed:
        warn(f"warning: {run}: {unhashed} parts have no recorded sha256 (a run folder from an older "
             "version); they are read unverified")


def check_schemas(run: Path, paths: list[Path]) -> None:
    """Every part of a table must have the same columns as its first part (a folder mixing
    parts of two versions has consistent hashes but would be read with NULL-filled columns).
    Reads only the Parquet footers."""
    import polars as pl

    first: dict[str, tuple[Path, dict]] = {}
    for path in paths:
        try:
            schema = dict(pl.read_parquet_schema(path))
        except Exception as exc:  # polars raises its own error types for a damaged footer
            raise BrewError(f"{path}: not a readable Parquet file ({type(exc).__name__}); {repair(run)}") from None
        ref_path, ref = first.setdefault(path.parent.name, (path, schema))
        if schema != ref:
            missing = sorted(set(ref) - set(schema)) or sorted(set(schema) - set(ref)) or sorted(ref)
            raise BrewError(f"{path}: its columns differ from {ref_path.name}'s (e.g. {', '.join(missing[:3])}); "
                            f"the run folder mixes parts of different runs; re-create it with the command in its run.json")


def _hash(path: Path) -> str:
    try:
        return rf.sha256_file(path)
    except OSError as exc:
        raise BrewError(f"{path}: cannot read: {exc.strerror or exc}") from None
