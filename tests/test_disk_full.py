"""A full filesystem (an injected ENOSPC where the files are written): one `error:` line, no
half-written file, and a state that resumes (simulate --resume) or reruns (report)."""

from __future__ import annotations

import errno
import shutil

import pytest
from clihelp import error_line, in_process, part_hashes

ARGS = ("--games", "600", "--players", "2", "--shard-size", "100", "--seed", "4", "--jobs", "1", "--quiet")


def no_space(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("full") / "ref"
    assert in_process("simulate", "dwarfest", *ARGS, "--out", out).returncode == 0
    return out


def test_simulate_on_a_full_disk_stops_cleanly_and_resumes(tmp_path, monkeypatch, reference):
    import sim.core.runfolder as runfolder

    real = runfolder.write_parquet
    calls = {"n": 0}

    def fills_up(frame, fh):  # the disk fills during the third shard
        calls["n"] += 1
        if calls["n"] > 9:
            real(frame, fh)  # a partial file, as a full disk leaves one
            fh.truncate(10)
            no_space()
        return real(frame, fh)

    monkeypatch.setattr(runfolder, "write_parquet", fills_up)
    out = tmp_path / "run"
    msg = error_line(in_process("simulate", "dwarfest", *ARGS, "--out", out), 1)
    assert "No space left on device" in msg and "part-0000" in msg
    assert not (out / "run.json").exists()
    assert not [p for p in out.rglob("*") if ".tmp-" in p.name], "a half-written file was left"
    monkeypatch.setattr(runfolder, "write_parquet", real)
    assert in_process("simulate", "--resume", out, "--quiet").returncode == 0
    assert part_hashes(out) == part_hashes(reference)


@pytest.mark.parametrize("fmt", ["json", "html", "all"])
def test_report_on_a_full_disk_leaves_no_file(tmp_path, monkeypatch, reference, fmt):
    import reports.files

    run = tmp_path / "run"
    shutil.copytree(reference, run)
    monkeypatch.setattr(reports.files.os, "fsync", no_space)
    msg = error_line(in_process("report", run, "--format", fmt, "--out", tmp_path / "o" / "r"), 1)
    assert "No space left on device" in msg and str(tmp_path / "o" / "r") in msg
    assert not list((tmp_path / "o").iterdir()), "a report or its temporary file was left"
    monkeypatch.undo()
    assert in_process("report", run, "--format", fmt, "--out", tmp_path / "o" / "r").returncode == 0
