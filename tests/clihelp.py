"""Helpers for the end-to-end CLI tests: run `python -m brewbalance` in a subprocess and
inspect the run folders it writes.

Kept out of conftest.py on purpose: the test modules import it like runfixture.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import polars as pl

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"
TABLES = ("games", "players", "events", "rounds")
# Columns that identify a row of each table, for order-independent comparisons.
SORT_KEYS = {"games": ["game_id"], "players": ["game_id", "seat"], "events": None,
             "rounds": ["game_id", "seat", "round"]}


def cli_env(data: Path | None = None) -> dict[str, str]:
    """The environment for a CLI subprocess: the caller's, with a chosen data root."""
    env = dict(os.environ)
    env.pop("BREWBALANCE_DATA", None)
    if data is not None:
        env["BREWBALANCE_DATA"] = str(data)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def cli(*args, cwd: Path, data: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run `python -m brewbalance ARGS` in `cwd` and return the finished process."""
    return subprocess.run(
        [sys.executable, "-m", "brewbalance", *map(str, args)],
        cwd=cwd, env=cli_env(data), capture_output=True, text=True, timeout=timeout,
    )


def in_process(*args) -> subprocess.CompletedProcess:
    """Run the CLI's `main()` in this process with ARGS and return what a subprocess would:
    exit code, stdout, stderr. Many times faster than `cli` (no interpreter start-up and
    imports), for tests that run dozens of commands; give absolute paths."""
    import contextlib
    import io

    from brewbalance import cli as brew_cli

    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["brewbalance", *map(str, args)]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                brew_cli.main()
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = argv
        brew_cli.DEBUG["on"] = False
    return subprocess.CompletedProcess(sys.argv, code, out.getvalue(), err.getvalue())


def _default_sigint() -> None:
    # A shell's background jobs inherit SIGINT as ignored, and Python then never turns it
    # into KeyboardInterrupt; give the child the default disposition so SIGINT means Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def popen(*args, cwd: Path, data: Path | None = None) -> subprocess.Popen:
    """Start `python -m brewbalance ARGS` in `cwd`; SIGINT acts like Ctrl-C in it."""
    return subprocess.Popen(
        [sys.executable, "-m", "brewbalance", *map(str, args)],
        cwd=cwd, env=cli_env(data), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_default_sigint,
    )


def simulate(cwd: Path, out: Path | str, *args, data: Path | None = None) -> subprocess.CompletedProcess:
    """`simulate dwarfest --out OUT --quiet ARGS`; fails the test unless it exits 0."""
    proc = cli("simulate", "dwarfest", "--out", out, "--quiet", *args, cwd=cwd, data=data)
    assert proc.returncode == 0, f"simulate failed ({proc.returncode}):\n{proc.stderr}"
    assert (Path(cwd) / out / "run.json").is_file()
    return proc


def error_line(proc: subprocess.CompletedProcess, code: int) -> str:
    """Check the CLI failed with `code` and one `error:` line, no traceback; return the line."""
    assert proc.returncode == code, (
        f"exit code {proc.returncode}, expected {code}\nstderr:\n{proc.stderr}")
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, f"expected exactly one stderr line, got {len(lines)}:\n{proc.stderr}"
    assert lines[0].startswith("error:"), lines[0]
    assert len(lines[0]) > len("error:") + 3, lines[0]
    return lines[0]


def assert_nothing_written(out: Path) -> None:
    """A failed command left no run behind: no folder, or one without run.json or parts."""
    out = Path(out)
    if not out.exists():
        return
    assert not (out / "run.json").exists(), f"{out}/run.json written by a failed command"
    parts = sorted(out.rglob("part-*.parquet"))
    assert not parts, f"part files written by a failed command: {parts}"


def copy_data(dest: Path) -> Path:
    """A private copy of the data root, for editing data files (BREWBALANCE_DATA)."""
    shutil.copytree(DATA, dest)
    return dest


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def part_hashes(run: Path) -> dict[str, str]:
    """sha256 of every part file of a run, keyed 'table/part-NNNNN.parquet'."""
    run = Path(run)
    out = {}
    for table in TABLES:
        for part in sorted((run / table).glob("part-*.parquet")):
            out[f"{table}/{part.name}"] = sha256(part)
    return out


def manifest(run: Path) -> dict:
    return json.loads((Path(run) / "run.json").read_text())


def shard_records(run: Path) -> list[dict]:
    return manifest(run)["shards"]


def table(run: Path, name: str) -> pl.DataFrame:
    """A table of a run, all parts, in a canonical row order."""
    df = pl.read_parquet(sorted((Path(run) / name).glob("part-*.parquet")))
    keys = SORT_KEYS[name] or df.columns
    return df.sort(keys, maintain_order=True)


def snapshot(folder: Path) -> dict[str, tuple[str, int]]:
    """(sha256, mtime_ns) of every file under `folder`, to prove it was left untouched."""
    folder = Path(folder)
    return {str(p.relative_to(folder)): (sha256(p), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


_REFERENCE: dict[tuple, Path] = {}


def reference_run(tmp_path_factory, *args: str) -> Path:
    """An uninterrupted run made once per test session for a given argument list.

    Used as the ground truth that resumed and parallel runs must reproduce byte for byte.
    Tests must not modify it."""
    key = tuple(args)
    if key not in _REFERENCE:
        base = tmp_path_factory.mktemp("reference")
        simulate(base, "run", *args)
        _REFERENCE[key] = base / "run"
    return _REFERENCE[key]
