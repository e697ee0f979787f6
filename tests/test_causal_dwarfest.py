"""End to end on Dwarfest: `cards` and `powers` from the CLI. A planted strong card gets a
large positive injection value; a card made identical to the blank (neutral) card changes
nothing when it replaces its copies; a card that winners play more shows an association the
causal values do not repeat; against the blank card (the automatic inject neutral arm) the
blank-identical card is worth nothing while the planted one stays large; plan line, --resume, bad input, `report` on the folder, JSON."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from clihelp import error_line, in_process

PLANT = ("--set", "dwarfest.tavern_cards.barmaid.income=12",      # far better than any card
         "--set", "dwarfest.tavern_cards.trophy_wall.fame=0")      # no effect: a blank with a cost
# The blank card an injection is compared with is free and has no copies in the deck, so the
# greedy bots play it at once; a card identical to it is free, without effect, and stackable (so
# a dealt copy is never barred by the injected one in the Tavern). A costly card without effect
# is not blank-identical: the bots keep it in hand, never paying for it (docs/causal_value.md).
BLANK_LIKE = ("--set", "dwarfest.tavern_cards.trophy_wall.fame=0", "--set", "dwarfest.tavern_cards.trophy_wall.cost=0",
              "--set", "dwarfest.tavern_cards.trophy_wall.stackable=true",
              "--set", "dwarfest.tavern_cards.barmaid.income=12")
RUN = ("cards", "dwarfest", "--cards", "barmaid,trophy_wall,iron_mugs", "--modes", "inject,remove",
       "--games", "2000", "--players", "3", "--seed", "3", "--jobs", "2", "--quiet", "--format", "all", *PLANT)


@pytest.fixture(scope="module")
def cards_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("cards") / "out"
    proc = in_process(*RUN, "--out", out)
    assert proc.returncode == 0, proc.stderr
    return out, proc, json.loads((out / "report.json").read_text())


def _verdict(doc, kind, unit):
    return next(v for v in doc["verdicts"] if v["kind"] == kind and v["unit"] == unit)


def test_planted_strong_card_has_a_large_positive_injection_value(cards_run):
    _, _, doc = cards_run
    v = _verdict(doc, "card_injection_win", "barmaid")
    assert v["ci_low"] > 0.1 and v["verdict"] == "significant" and v["n"] == 2000
    assert _verdict(doc, "card_injection_score", "barmaid")["ci_low"] > 10


@pytest.fixture(scope="module")
def blank_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("blank") / "out"
    proc = in_process("cards", "dwarfest", "--cards", "barmaid,trophy_wall", "--games", "2000", "--players", "3",
                      "--seed", "3", "--jobs", "2", "--quiet", "--format", "json", *BLANK_LIKE, "--out", out)
    assert proc.returncode == 0, proc.stderr
    return json.loads((out / "report.json").read_text())


def test_against_the_blank_card_a_blank_identical_card_is_worth_nothing_and_a_planted_one_a_lot(blank_run):
    doc = blank_run
    dud = _verdict(doc, "card_injection_vs_blank_win", "trophy_wall")
    assert dud["ci_low"] <= 0 <= dud["ci_high"] and dud["n"] == 2000
    assert dud["note"] == "causal (injection against the blank card on paired seeds)"
    strong = _verdict(doc, "card_injection_vs_blank_win", "barmaid")
    assert strong["ci_low"] > 0.1 and strong["verdict"] == "significant"
    assert "inject card - inject blank card" in strong["metric"]
    assert not [v for v in doc["verdicts"] if v["kind"].startswith("card_injection_vs_blank") and v["unit"] == "neutral"]
    assert set(doc["source"]["injection_against"]) == {"blank", "untreated"}
    rows = {r["card"]: r for r in doc["tables"]["cards"]}
    assert rows["barmaid"]["blank_win"] > 0.1 and rows["neutral"]["blank_win"] is None


def test_a_card_identical_to_the_blank_changes_nothing_when_it_replaces_its_copies(cards_run):
    _, _, doc = cards_run
    rows = [v for v in doc["verdicts"] if v["kind"] == "card_removal_seat" and v["unit"].startswith("trophy_wall")]
    assert len(rows) == 3
    assert all(v["ci_low"] <= 0 <= v["ci_high"] for v in rows)


def test_association_of_a_card_winners_play_more_is_not_repeated_by_the_causal_value(cards_run):
    # Iron Mugs (a small Bar-flick bonus) is played by the richer seats, who win more:
    # the card table credits it with a significant gain; giving the card to a seat does not.
    _, _, doc = cards_run
    assoc = _verdict(doc, "card", "iron_mugs")
    causal = _verdict(doc, "card_injection_win", "iron_mugs")
    assert assoc["ci_low"] > 0 and assoc["note"].startswith("association")
    assert causal["ci_low"] < 0 < causal["ci_high"] and causal["estimate"] < assoc["estimate"]
    assert causal["note"] == "causal (injection on paired seeds)"


def test_plan_is_printed_and_every_output_written(cards_run):
    out, proc, doc = cards_run
    assert "plan: 8 arms x 2,000 games = 16,000 games; ETA about" in proc.stderr  # with inject_neutral
    assert "vs blank card: win share" in proc.stdout and "association" in proc.stdout
    assert {"cards", "injection", "removal", "itt", "association"} <= set(doc["tables"])
    assert (out / "report.html").is_file() and (out / "report.pdf").is_file()
    assert json.loads((out / "causal.json").read_text())["command"] == "cards"


def test_report_renders_the_cards_folder_again(cards_run, tmp_path):
    out, _, doc = cards_run
    proc = in_process("report", out, "--format", "json", "--out", tmp_path / "again.json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "again.json").read_text())["verdicts"] == doc["verdicts"]


def test_resume_keeps_finished_arms_and_redoes_the_missing_one(cards_run, tmp_path):
    out, _, doc = cards_run
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    parts = sorted((copy / "arms" / "untreated").glob("*/part-*.parquet"))
    kept = [p.stat().st_mtime_ns for p in parts]
    shutil.rmtree(copy / "arms" / "remove_iron_mugs")  # as if killed before its last arm began
    os.remove(copy / "report.json")
    proc = in_process(*RUN, "--out", copy, "--resume")
    assert proc.returncode == 0, proc.stderr
    assert [p.stat().st_mtime_ns for p in parts] == kept  # finished arm not simulated again
    assert json.loads((copy / "report.json").read_text())["verdicts"] == doc["verdicts"]


@pytest.mark.parametrize(("args", "says"), [
    (("--cards", "barmaid,nope"), "--cards 'nope': unknown; choose from all or"),
    (("--modes", "inject,steal"), "--modes 'inject,steal': choose from inject, remove"),
    (("--format", "docx"), "--format 'docx'"),
])
def test_bad_card_input_fails_in_one_line_and_writes_nothing(tmp_path, args, says):
    out = tmp_path / "bad"
    msg = error_line(in_process("cards", "dwarfest", "--games", "10", *args, "--out", out), 2)
    assert says in msg
    assert not out.exists()


def test_powers_on_a_game_without_factions_names_the_games_with_them(tmp_path):
    out = tmp_path / "p"
    msg = error_line(in_process("powers", "dwarfest", "--games", "10", "--out", out), 2)
    assert "dwarfest has no faction powers" in msg and "dragon_brew" in msg and "homebrewers" in msg
    assert not out.exists()
