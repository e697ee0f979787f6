"""Homebrewers through the CLI: simulate both variants, --factions / --lineup recorded in run.json and
honoured by replay, bad faction options rejected (exit 2, one error line, nothing written)."""

from __future__ import annotations

import polars as pl
from clihelp import assert_nothing_written, cli, error_line, manifest, table

from sim.core.schedule import seat_table


def simulate(cwd, out, *args):
    proc = cli("simulate", "homebrewers", "--out", out, *args, cwd=cwd)
    assert proc.returncode == 0, f"simulate failed ({proc.returncode}):\n{proc.stderr}"
    return proc


def test_factions_and_lineup_are_recorded_and_replayed(tmp_path):
    simulate(tmp_path, "run", "--games", "20", "--players", "3", "--seed", "2", "--jobs", "1",
             "--factions", "tony,evie,colt,andrew", "--quiet")
    run = tmp_path / "run"
    assert manifest(run)["options"] == {"factions": ["tony", "evie", "colt", "andrew"]}
    got = set(table(run, "players")["faction"].cast(pl.String).unique())
    assert got <= {"tony", "evie", "colt", "andrew"}
    simulate(tmp_path, "rotated", "--games", "6", "--players", "2", "--seed", "2", "--jobs", "1",
             "--lineup", "gabriel,katherine", "--quiet")
    rotated = tmp_path / "rotated"
    p = table(rotated, "players").sort(["game_id", "seat"])
    lineup = ["gabriel", "katherine"]  # seated by the schedule (tests/test_seat_schedule.py)
    assert p["faction"].cast(pl.String).to_list() == [lineup[f] for f in seat_table(6, [2], 1, 2)[:, 3]]
    assert p.filter(pl.col("seat") == 0)["faction"].cast(pl.String).value_counts().sort("faction").rows() \
        == [("gabriel", 3), ("katherine", 3)]
    assert manifest(rotated)["options"] == {"lineup": ["gabriel", "katherine"]}
    proc = cli("replay", rotated, "1", cwd=tmp_path)
    assert proc.returncode == 0 and "seat 0 greedy (katherine)" in proc.stdout.splitlines()[0]
    simulate(tmp_path, "fixed", "--games", "6", "--players", "2", "--seed", "2", "--jobs", "1",
             "--lineup", "gabriel,katherine", "--fixed-seats", "--quiet")
    fixed = tmp_path / "fixed"
    p = table(fixed, "players").sort(["game_id", "seat"])
    assert p["faction"].cast(pl.String).to_list() == ["gabriel", "katherine"] * 6
    assert manifest(fixed)["options"] == {"lineup": ["gabriel", "katherine"], "seats": "fixed"}
    proc = cli("replay", fixed, "1", cwd=tmp_path)
    assert proc.returncode == 0 and "seat 0 greedy (gabriel)" in proc.stdout.splitlines()[0]


def test_standard_variant_runs(tmp_path):
    simulate(tmp_path, "std", "--games", "12", "--players", "2,5", "--variant", "standard", "--jobs", "1",
             "--quiet")
    p = table(tmp_path / "std", "players")
    assert (p["faction"].cast(pl.String) == "standard").all()


def test_bad_faction_options(tmp_path):
    for args, needle in ((("homebrewers", "--factions", "tony,bob"), "bob"),
                         (("homebrewers", "--players", "4", "--factions", "tony,evie"), "fewer than 4"),
                         (("dwarfest", "--lineup", "a,b"), "no factions")):
        out = tmp_path / "out"
        proc = cli("simulate", *args, "--games", "5", "--out", out, "--quiet", cwd=tmp_path)
        assert needle in error_line(proc, 2)
        assert_nothing_written(out)
