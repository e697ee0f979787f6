"""Multi-arm commands resume arm by arm: `experiment`/`sweep`/`robustness` killed (SIGKILL) or
interrupted (SIGINT, i.e. Ctrl-C) in the middle of an arm, then run again with --resume,
leave exactly the arm folders an uninterrupted command writes (brewbalance/arms.py)."""

from __future__ import annotations

import signal
import time

import pytest
from clihelp import error_line, in_process, part_hashes, popen, shard_records

from sim.core.warm import warm

COMMANDS = {
    "experiment": ("experiment", "dwarfest", "--arm", "a:", "--arm", "b:set=brawl_limit=4",
                   "--arm", "c:set=brawl_limit=6"),
    "sweep": ("sweep", "dwarfest", "--set-range", "brawl_limit=4..5"),
}  # robustness simulates its arms through the same run_all (brewbalance/experiment_cli.py)
COMMON = ("--games", "1000", "--shard-size", "100", "--players", "2", "--seed", "9", "--jobs", "1",
          "--quiet", "--format", "json")


def arm_folders(out):
    return sorted(p for p in (out / "arms").iterdir() if p.is_dir())


def wait_for_second_arm(proc, out, timeout=300):
    """Block until the first arm is complete and the second has one finished shard."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        arms = arm_folders(out) if (out / "arms").is_dir() else []
        if len(arms) >= 2 and (arms[0] / "run.json").exists() and list((arms[1] / "_run").glob("shard-*.json")):
            return arms[1]
        assert proc.poll() is None, f"finished before the interruption: {proc.communicate()[1]}"
        time.sleep(0.01)
    raise AssertionError("the second arm never started")


@pytest.mark.parametrize(("command", "sig"), [("experiment", signal.SIGKILL), ("sweep", signal.SIGINT)])
def test_interrupted_multi_arm_command_resumes_to_the_same_arms(tmp_path, command, sig):
    ref, out = tmp_path / "ref", tmp_path / "out"
    args = (*COMMANDS[command], *COMMON)
    warm("dwarfest")  # into the shared cache first: the child's deadline is for its run, not a cold compile
    proc = popen(*args, "--out", out, cwd=tmp_path)
    second = wait_for_second_arm(proc, out)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert not (second / "run.json").exists(), "the second arm finished before the signal"
    assert not (out / "report.json").exists()
    if sig == signal.SIGINT:
        assert proc.returncode == 1 and "--resume" in err, err
    # Running it again without --resume refuses to mix runs, and says how to continue.
    assert "--resume" in error_line(in_process(*args, "--out", out), 2)
    resumed = in_process(*args, "--out", out, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert in_process(*args, "--out", ref).returncode == 0
    assert [p.name for p in arm_folders(out)] == [p.name for p in arm_folders(ref)]
    for arm, ref_arm in zip(arm_folders(out), arm_folders(ref), strict=True):
        assert part_hashes(arm) == part_hashes(ref_arm), arm.name
        assert shard_records(arm) == shard_records(ref_arm), arm.name
        assert not [p for p in arm.rglob("*") if ".tmp-" in p.name]
    assert (out / "report.json").is_file()


def test_resume_refuses_other_settings(tmp_path):
    out = tmp_path / "out"
    args = (*COMMANDS["experiment"], *COMMON)
    assert in_process(*args, "--out", out).returncode == 0
    changed = [a if a != "9" else "10" for a in args]  # another seed
    msg = error_line(in_process(*changed, "--out", out, "--resume"), 2)
    assert "other settings" in msg and "seed" in msg


def test_resume_needs_arms(tmp_path):
    msg = error_line(in_process(*COMMANDS["sweep"], *COMMON, "--out", tmp_path / "none", "--resume"), 2)
    assert "no arms to resume" in msg
