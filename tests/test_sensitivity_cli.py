"""`sensitivity` end to end through the CLI. Known truth on Dragon Brew: a planted influential
estimate ranks first for the verdict it drives and an estimate no rule reads in that setup
ranks last with an interval around 0. On Dwarfest: grouped screening resumes across both
stages to the uninterrupted result, and `--engine dask` writes the local engine's arms byte
for byte (for `sensitivity` and for `cards`, which run their arms through the same run_all)."""

from __future__ import annotations

import json

import pytest
from clihelp import cli, copy_data, in_process, part_hashes, shard_records

from brewbalance import arms as A


def edit(path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def planted_data(root):
    """A data copy with two planted estimates of Dragon Brew: the Halfling's brewers (printed
    7; moved over the field's whole valid range 1..7, surely influential for the Halfling) and
    params.corrupt_removed, which only the Corrupt Judge variant reads (sim/dragon_brew/rules/
    game_setup.py setup_judges), so in the base variant its low and high arms deal and play the
    same games."""
    games = copy_data(root) / "games" / "dragon_brew"
    edit(games / "races.toml", "range = { stores = [6, 10] }", "range = { stores = [6, 10], brewers = [1, 7] }")
    params = games / "params.toml"
    edit(params, "[estimates]\n", '[estimates]\ncorrupt_removed = "planted: read by the Corrupt Judge only"\n')
    edit(params, "[estimate_ranges]\n", "[estimate_ranges]\ncorrupt_removed = [0, 20]\n")
    edit(params, "[estimate_range_why]\n", '[estimate_range_why]\ncorrupt_removed = "planted for a test"\n')
    return root


PLANTED = ("sensitivity", "dragon_brew", "--estimates", "races.halfling.*,races.*.gold,params.corrupt_removed",
           "--screen", "oat", "--games", "300", "--players", "2", "--seed", "5", "--jobs", "2", "--quiet",
           "--format", "json")


def test_planted_estimate_ranks_first_and_an_unread_one_last(tmp_path, monkeypatch):
    monkeypatch.setenv("BREWBALANCE_DATA", str(planted_data(tmp_path / "data")))
    out = tmp_path / "out"
    proc = in_process(*PLANTED, "--out", out)
    assert proc.returncode == 0, proc.stderr
    report, marker = outputs(out)
    rows = [v for v in report["verdicts"] if v["kind"] == "sensitivity of faction win rate"
            and v["n_players"] == 2 and v["unit"].startswith("halfling / ")]
    ranked = sorted(rows, key=lambda v: -abs(v["estimate"]))
    assert [v["unit"] for v in ranked][0] == "halfling / races.halfling.brewers"
    assert ranked[0]["ci_low"] > 0.3 and ranked[0]["p_adjusted"] < 0.01  # more brewers, more wins
    assert ranked[-1]["unit"] == "halfling / params.corrupt_removed"
    assert ranked[-1]["ci_low"] <= 0 <= ranked[-1]["ci_high"] and ranked[-1]["estimate"] == 0
    label = next(r for r in marker["labels"] if r["kind"] == "faction win rate" and r["unit"] == "halfling")
    assert label["top"][0] == "races.halfling.brewers" and label["rests_on"][0] == "races.halfling.brewers"
    assert "params.corrupt_removed" not in label["rests_on"]
    assert not any("params.corrupt_removed" in r["rests_on"] for r in marker["labels"])
    unread = [v for v in report["verdicts"] if v["unit"].endswith("/ params.corrupt_removed")]
    assert unread and all(v["ci_low"] <= 0 <= v["ci_high"] for v in unread)


# Two groups of several members (the params and the greedy bot's files); a band this small
# passes every group whose joint move shifts a verdict at all, so the follow-up stage runs.
GROUPED = ("sensitivity", "dwarfest", "--estimates",
           "params.restart_*,policies.greedy.bar_skill,policies.greedy.brawl_margin",
           "--screen", "grouped", "--band", "0.001", "--games", "300", "--players", "2",
           "--seed", "11", "--jobs", "1", "--quiet", "--format", "json")
STAGE_ONE = 5  # the untreated arm and each group's low and high arm


def arm_folders(out):
    return sorted(p for p in (out / "arms").iterdir() if p.is_dir())


def finished(out) -> dict[str, dict]:
    """Part hashes of every finished arm (run.json written), by arm name."""
    return {p.name: part_hashes(p) for p in arm_folders(out) if (p / "run.json").is_file()}


def outputs(out) -> tuple[dict, dict]:
    return (json.loads((out / "report.json").read_text()), json.loads((out / "sensitivity.json").read_text()))


@pytest.fixture(scope="module")
def grouped_ref(tmp_path_factory):
    out = tmp_path_factory.mktemp("grouped") / "ref"
    proc = in_process(*GROUPED, "--out", out)
    assert proc.returncode == 0, proc.stderr
    return out, proc


def test_grouped_screen_runs_a_follow_up_stage(grouped_ref):
    out, proc = grouped_ref
    marker = outputs(out)[1]
    assert marker["screen"] == "grouped"
    assert "screen: 2 of 2 groups pass" in proc.stderr
    assert len(arm_folders(out)) == STAGE_ONE + 2 * 5  # and each of the five members alone
    assert {e["id"] for e in marker["estimates"]} == {
        "params.restart_nuggets", "params.restart_tables", "params.restart_barrels",
        "policies.greedy.bar_skill", "policies.greedy.brawl_margin"}


def interrupt_after(monkeypatch, arms_done: int):
    """Ctrl-C once `arms_done` arms (counted over both stages) have finished: the next arm's
    simulation raises KeyboardInterrupt, as the terminal's SIGINT does."""
    real, count = A.runner.execute, {"n": 0}

    def execute(*args, **kwargs):
        if count["n"] == arms_done:
            raise KeyboardInterrupt
        count["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(A.runner, "execute", execute)


def test_interrupted_follow_up_stage_resumes_to_the_uninterrupted_result(grouped_ref, tmp_path, monkeypatch):
    ref, _ = grouped_ref
    out = tmp_path / "out"
    interrupt_after(monkeypatch, STAGE_ONE + 3)  # stage one done, three follow-up arms done
    proc = in_process(*GROUPED, "--out", out)
    assert proc.returncode == 1 and "--resume" in proc.stderr, proc.stderr
    assert not (out / "report.json").exists() and not (out / "sensitivity.json").exists()
    kept = finished(out)
    assert len(kept) == STAGE_ONE + 3
    mtimes = {name: [f.stat().st_mtime_ns for f in sorted((out / "arms" / name).rglob("part-*"))]
              for name in kept}
    monkeypatch.undo()
    resumed = in_process(*GROUPED, "--out", out, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert outputs(out) == outputs(ref)
    assert finished(out) == finished(ref)
    for name, times in mtimes.items():  # finished arms are kept, not simulated again
        assert [f.stat().st_mtime_ns for f in sorted((out / "arms" / name).rglob("part-*"))] == times, name


def test_interrupted_screening_stage_resumes_too(grouped_ref, tmp_path, monkeypatch):
    ref, _ = grouped_ref
    out = tmp_path / "out"
    interrupt_after(monkeypatch, 2)
    assert in_process(*GROUPED, "--out", out).returncode == 1
    monkeypatch.undo()
    assert in_process(*GROUPED, "--out", out, "--resume").returncode == 0
    assert outputs(out) == outputs(ref) and finished(out) == finished(ref)


# ---------------------------------------------------------------- --engine dask
def same_arms(out, ref) -> None:
    assert [p.name for p in arm_folders(out)] == [p.name for p in arm_folders(ref)]
    for arm, ref_arm in zip(arm_folders(out), arm_folders(ref), strict=True):
        assert part_hashes(arm) == part_hashes(ref_arm), arm.name
        assert shard_records(arm) == shard_records(ref_arm), arm.name


SMALL_SENS = ("sensitivity", "dwarfest", "--estimates", "params.restart_nuggets,tavern_cards.barmaid.income",
              "--games", "300", "--players", "2", "--seed", "12", "--jobs", "2", "--quiet", "--format", "json")
SMALL_CARDS = ("cards", "dwarfest", "--cards", "barmaid,iron_mugs", "--modes", "inject,remove",
               "--games", "300", "--players", "2", "--seed", "12", "--jobs", "2", "--quiet", "--format", "json")


@pytest.mark.parametrize("command", [SMALL_SENS, SMALL_CARDS], ids=["sensitivity", "cards"])
def test_dask_engine_writes_the_local_engines_arms(tmp_path, command):
    pytest.importorskip("distributed")
    local, dask = tmp_path / "local", tmp_path / "dask"
    assert in_process(*command, "--out", local).returncode == 0
    proc = cli(*command, "--out", dask, "--engine", "dask", cwd=tmp_path)  # a real LocalCluster
    assert proc.returncode == 0, proc.stderr
    same_arms(dask, local)
    assert (json.loads((dask / "report.json").read_text())["verdicts"]
            == json.loads((local / "report.json").read_text())["verdicts"])
