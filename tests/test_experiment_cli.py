"""End to end: `experiment`, `sweep`, `robustness` and `simulate --until-decided` on small
real runs (Dwarfest, and Homebrewers for a game with factions), and their bad-input
contract (one `error:` line, exit 2, nothing written)."""

from __future__ import annotations

import json
import shutil

import pytest
from clihelp import assert_nothing_written, cli, error_line, manifest, part_hashes
from pdftext import pdf_text

import analysis

SMALL = ("--players", "4", "--games", "300", "--seed", "11", "--quiet", "--jobs", "1")


def ok(proc):
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_experiment_on_dwarfest_is_paired_and_reported(tmp_path):
    out = tmp_path / "exp"
    stdout = ok(cli("experiment", "dwarfest", "--arm", "base:", "--arm", "limit4:set=brawl_limit=4",
                    *SMALL, "--out", out, cwd=tmp_path))
    assert "limit4" in stdout and "mean score" in stdout and "var. reduction" in stdout
    base, arm = manifest(out / "arms" / "base"), manifest(out / "arms" / "limit4")
    assert base["seed"] == arm["seed"] == 11 and arm["overrides"] == [["brawl_limit", 4]]
    c = analysis.compare(out / "arms" / "base", out / "arms" / "limit4")
    assert c.paired
    score = c.metrics.filter(c.metrics["metric"] == "mean score").to_dicts()[0]
    assert score["variance_reduction"] > 1  # shared deals: pairing removes shared luck
    text = pdf_text(out / "report.pdf")
    assert "Experiment: dwarfest" in text and "Arm limit4 vs base" in text
    assert "variance reduction" in (out / "report.html").read_text()


def test_experiment_swaps_a_faction_in_a_seat(tmp_path):
    out = tmp_path / "swap"
    stdout = ok(cli("experiment", "homebrewers", "--arm", "ref:lineup=ananya,andrew,colt,evie;seats=fixed",
                    "--arm", "tony:lineup=tony,andrew,colt,evie;seats=fixed", "--players", "4", "--games", "200",
                    "--quiet", "--jobs", "1", "--out", out, cwd=tmp_path))
    assert "faction win rate" in stdout and "seat 0, 4p" in stdout
    assert manifest(out / "arms" / "tony")["options"] == {"lineup": ["tony", "andrew", "colt", "evie"],
                                                           "seats": "fixed"}
    # Tony is the strongest character (docs/experiments.md): the swap helps seat 0, paired.
    c = analysis.compare(out / "arms" / "ref", out / "arms" / "tony")
    seat0 = c.metrics.filter((c.metrics["metric"] == "seat win rate")
                             & (c.metrics["group"] == "seat 0, 4p")).to_dicts()[0]
    assert c.paired and seat0["lo"] > 0 and seat0["significant_holm"]


def test_sweep_writes_one_arm_per_value_and_a_report(tmp_path):
    out = tmp_path / "sweep"
    stdout = ok(cli("sweep", "dwarfest", "--set-range", "brawl_limit=3..5:2", *SMALL, "--out", out,
                    cwd=tmp_path))
    assert sorted(p.name for p in (out / "arms").iterdir()) == ["brawl_limit=3", "brawl_limit=5"]
    assert "seat spread" in stdout and "first-player adv." in stdout
    assert "Sweep of brawl_limit" in pdf_text(out / "report.pdf")


def test_robustness_compares_bot_settings(tmp_path):
    out = tmp_path / "rob"
    stdout = ok(cli("robustness", "dwarfest", "--policies", "greedy,random", *SMALL, "--out", out,
                    cwd=tmp_path))
    assert "Kendall tau" in stdout
    assert manifest(out / "arms" / "random")["policies"] == ["random"]
    assert "Robustness of balance conclusions" in pdf_text(out / "report.pdf")


def test_robustness_takes_finished_runs(tmp_path):
    from runfixture import manifest as fixture_manifest
    from runfixture import write_run
    from test_experiment_analysis import three_player

    m = fixture_manifest(n_games=60, player_counts=[3])
    write_run(tmp_path / "greedy", three_player({"a": 36, "b": 18, "c": 6}), manifest_data=m)
    write_run(tmp_path / "random", three_player({"a": 6, "b": 18, "c": 36}), manifest_data=m)
    stdout = ok(cli("robustness", "--runs", "greedy,random", "--out", "rob", cwd=tmp_path))
    assert stdout.startswith("Warning: 2 conclusion(s) flip with the bot: a at 3p is strong under greedy")
    assert (tmp_path / "rob" / "report.pdf").is_file()
    other = fixture_manifest(n_games=60, player_counts=[3], variant="epic")
    write_run(tmp_path / "epic", three_player({"a": 6, "b": 18, "c": 36}), manifest_data=other)
    msg = error_line(cli("robustness", "--runs", "greedy,epic", "--out", "rob2", cwd=tmp_path), 2)
    assert "differ in variant" in msg
    assert not (tmp_path / "rob2").exists()


UNTIL = ("simulate", "dwarfest", "--players", "4", "--until-decided", "--band", "0.1",
         "--shard-size", "100", "--max-games", "2000", "--seed", "5", "--quiet", "--jobs", "1")


def test_until_decided_stops_and_resumes_to_the_same_answer(tmp_path):
    stdout = ok(cli(*UNTIL, "--out", tmp_path / "ud", cwd=tmp_path))
    assert stdout.startswith("Decided after")
    m = manifest(tmp_path / "ud")
    outcome = m["until_decided"]["outcome"]
    assert outcome["decided"] and outcome["games"] == m["n_games"] < 2000
    assert sum(s["n_games"] for s in m["shards"]) == m["n_games"]
    assert {v["verdict"] for v in outcome["verdicts"]} <= {"inside", "outside"}
    # Interrupt it in its last look: drop run.json and the last shard, then resume.
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "ud", copy)
    last = m["shards"][-1]["id"]
    (copy / "run.json").unlink()
    (copy / "_run" / f"shard-{last:05d}.json").unlink()
    plan = json.loads((copy / "_run" / "plan.json").read_text())
    plan["until_decided"].pop("outcome")
    (copy / "_run" / "plan.json").write_text(json.dumps(plan))
    resumed = ok(cli("simulate", "--resume", copy, "--quiet", "--jobs", "1", cwd=tmp_path))
    assert resumed.splitlines()[0] == stdout.splitlines()[0]
    assert part_hashes(copy) == part_hashes(tmp_path / "ud")
    assert manifest(copy)["until_decided"]["outcome"] == outcome


@pytest.mark.parametrize("args, words", [
    (("sweep", "dwarfest", "--set-range", "no_such_key=1..3"), ["no_such_key"]),
    (("sweep", "dwarfest", "--set-range", "brawl_limit=5..3"), ["LO (5) is greater than HI (3)"]),
    (("sweep", "dwarfest", "--set-range", "brawl_limit=1..3:0"), ["STEP must be positive"]),
    (("sweep", "dwarfest", "--set-range", "brawl_limit=1..x"), ["HI 'x' is not a number"]),
    # a --set the swept range overrides in every arm is still checked (found by test_fuzz_inputs)
    (("sweep", "dwarfest", "--set-range", "brawl_limit=1..2", "--set", "params.brawl_limit=0"),
     ["brawl_limit", "outside its valid range 1..100"]),
    (("experiment", "dwarfest", "--set", "brawl_limit=0", "--arm", "a:set=brawl_limit=2",
      "--arm", "b:set=brawl_limit=3"),
     ["brawl_limit", "outside its valid range 1..100"]),
    (("robustness", "dwarfest", "--policies", "greedy,bogus"), ["unknown policy 'bogus'", "greedy"]),
    (("robustness", "dwarfest", "--policies", "greedy"), ["at least two bot settings"]),
    (("experiment", "dwarfest", "--arm", "a:"), ["at least two --arm"]),
    (("experiment", "dwarfest", "--arm", "a:", "--arm", "b:cost=2"), ["KIND one of set, lineup"]),
    (("experiment", "dwarfest", "--arm", "a:", "--arm", "..:"), ["arm name '..'"]),
    (("experiment", "dwarfest", "--arm", "a:", "--arm", "b:lineup=elf"), ["dwarfest has no factions"]),
    (("simulate", "dwarfest", "--until-decided", "--band", "0"), ["--band must be between 0 and 0.5"]),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, words):
    out = tmp_path / "out"
    msg = error_line(cli(*args, "--games", "20", "--quiet", "--out", out, cwd=tmp_path), 2)
    for w in words:
        assert w in msg
    assert_nothing_written(out)
