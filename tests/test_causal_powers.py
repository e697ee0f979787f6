"""`powers` end to end on Dragon Brew and Homebrewers (three factions drawn from a --pool, three
players, a few hundred games per arm): the CLI runs, writes HTML, PDF and JSON, and the JSON
parses. Dragon Brew: the Halfling's Fertile Fields made far stronger (8 extra grains a harvest
instead of 2) gives a large positive power value; the Dark Elf's Shadow Judge overridden to
nothing (n = 0 hidden judges: the rules never use it) gives an interval covering 0. Homebrewers: with the
power's price out of reach (power_cost = 100) no character's power is ever used, so switching
one off changes nothing. Bad --pool input is a one-line error."""

from __future__ import annotations

import json

import pytest
from clihelp import error_line, in_process

DRAGON = ("powers", "dragon_brew", "--pool", "halfling,dark_elf,elf", "--players", "3", "--games", "300",
          "--seed", "5", "--jobs", "2", "--quiet", "--format", "all",
          "--set", "dragon_brew.abilities.fertile_fields.n=8", "--set", "dragon_brew.abilities.shadow_judge.n=0")
HOMEBREWERS = ("powers", "homebrewers", "--variant", "characters", "--pool", "ananya,colt,evie",
               "--players", "3", "--games", "300", "--seed", "5", "--jobs", "2", "--quiet", "--format", "all",
               "--set", "homebrewers.params.power_cost=100")


def _run(args, tmp_path_factory, name):
    out = tmp_path_factory.mktemp(name) / "out"
    proc = in_process(*args, "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert (out / "report.html").stat().st_size > 0 and (out / "report.pdf").read_bytes()[:4] == b"%PDF"
    return out, proc, json.loads((out / "report.json").read_text())


@pytest.fixture(scope="module")
def dragon(tmp_path_factory):
    return _run(DRAGON, tmp_path_factory, "dragon")


@pytest.fixture(scope="module")
def homebrewers(tmp_path_factory):
    return _run(HOMEBREWERS, tmp_path_factory, "homebrewers")


def _power(doc, faction, measure="win"):
    return next(v for v in doc["verdicts"] if v["kind"] == f"power_{measure}" and v["unit"] == faction)


def test_dragon_brew_a_power_made_far_stronger_is_worth_a_lot(dragon):
    _, proc, doc = dragon
    v = _power(doc, "halfling")
    assert v["ci_low"] > 0.05 and v["verdict"] == "significant" and v["n"] == 300
    assert _power(doc, "halfling", "score")["ci_low"] > 0
    assert "plan: 4 arms x 300 games" in proc.stderr


def test_dragon_brew_a_power_overridden_to_nothing_is_worth_nothing(dragon):
    _, _, doc = dragon
    rows = [r for r in doc["tables"]["powers"] if r["faction"] == "dark_elf" and r["measure"] == "win"]
    assert len(rows) == 1 and rows[0]["n"] == 300
    assert rows[0]["lo"] <= 0 <= rows[0]["hi"]


def test_homebrewers_powers_nobody_can_pay_for_are_worth_nothing(homebrewers):
    _, _, doc = homebrewers
    assert {r["faction"] for r in doc["tables"]["powers"]} == {"ananya", "colt", "evie"}
    for r in doc["tables"]["powers"]:
        assert r["n"] == 300 and r["diff"] == 0  # the same games, move for move


def test_homebrewers_powers_report_is_written_in_every_format(homebrewers):
    out, proc, doc = homebrewers
    assert doc["command"] == "powers"
    assert "power value (win rate, untreated - off)" in proc.stdout
    assert json.loads((out / "causal.json").read_text())["command"] == "powers"
    assert {"powers"} <= set(doc["tables"])


@pytest.mark.parametrize(("pool", "says"), [
    ("dwarf,nope,elf", "--pool 'nope': unknown; choose from all or"),
    ("dwarf,elf", "--factions lists 2 factions, fewer than 3 players"),
])
def test_a_bad_pool_is_one_line_and_writes_nothing(tmp_path, pool, says):
    out = tmp_path / "bad"
    msg = error_line(in_process("powers", "dragon_brew", "--pool", pool, "--players", "3", "--games", "10",
                                "--out", out), 2)
    assert says in msg
    assert not out.exists()
