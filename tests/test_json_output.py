"""`--format json`: every verdict as a record with the documented schema, and every table, from
the same analysis objects the HTML and PDF render (README, "Machine-readable results")."""

from __future__ import annotations

import json

import numpy as np
import pytest
from clihelp import cli, error_line
from runfixture import manifest, write_run

import analysis
from analysis.records import VERDICTS

REQUIRED = {"kind": str, "unit": (str, int, type(None)), "n_players": (int, type(None)),
            "estimate": (float, int, type(None)), "ci_low": (float, int, type(None)),
            "ci_high": (float, int, type(None)), "n": (float, int, type(None)), "n_unit": str,
            "verdict": (str, type(None)), "p_adjusted": (float, int, type(None)),
            "family": (str, type(None))}


def faction_games(n_games: int, seed: int) -> list[dict]:
    """2- and 3-player games of four factions in random seats with random scores."""
    rng = np.random.default_rng(seed)
    names = ["elves", "orcs", "dwarves", "gnomes"]
    games = []
    for g in range(n_games):
        n = 2 + g % 2
        games.append({"scores": [int(x) for x in rng.integers(0, 20, n)],
                      "factions": [names[i] for i in rng.permutation(4)[:n]]})
    return games


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("json") / "run"
    games = faction_games(600, 3)
    return write_run(root, games, [], manifest(game="made_up", n_games=len(games), cards=[], estimates=[],
                                               player_counts=[2, 3]))


def check_record(record: dict) -> None:
    for key, types in REQUIRED.items():
        assert key in record, f"record without {key}: {record}"
        assert isinstance(record[key], types), f"{key}={record[key]!r} in {record}"
    assert record["verdict"] is None or record["verdict"] in VERDICTS
    if record["verdict"] == "not_estimable":
        assert record["estimate"] is None and record["ci_low"] is None and record["ci_high"] is None
    elif record["ci_low"] is not None:
        assert record["ci_low"] <= record["estimate"] <= record["ci_high"], record


def test_report_json_holds_every_verdict_and_table(run):
    proc = cli("report", run, "--format", "json", cwd=run.parent)
    assert proc.returncode == 0, proc.stderr
    path = run / "report.json"
    assert proc.stdout.strip() == str(path)
    assert not (run / "report.html").exists() and not (run / "report.pdf").exists()
    doc = json.loads(path.read_text())
    assert doc["schema_version"] == 1 and doc["command"] == "report"
    assert doc["source"]["game"] == "made_up" and doc["source"]["n_games"] == 600
    for record in doc["verdicts"]:
        check_record(record)
    result = analysis.analyze(run)
    # the seat verdicts are the analysis's own: same rates, same decisions
    seats = {(r["n_players"], r["unit"]): r for r in doc["verdicts"] if r["kind"] == "seat"}
    table = {(r["n_players"], r["seat"]): r for r in result.seat_winrate.to_dicts()}
    assert seats, "no seat verdicts in the JSON"
    for key, record in seats.items():
        assert record["estimate"] == pytest.approx(table[key]["rate"])
        assert record["verdict"] == table[key]["verdict"]
        assert record["n_unit"] == "games"
    assert {r["kind"] for r in doc["verdicts"]} >= {"seat", "faction", "first_player"}
    # the winner model's strength flags are decided in the same lead family as the band verdicts
    lead = {r["family"] for r in doc["verdicts"] if r["kind"] == "seat" and r["unit"] == 0}
    flags = [r for r in doc["verdicts"] if r["kind"] == "strength" and r["verdict"] != "not_estimable"]
    assert flags and {r["family"] for r in flags} == lead
    m = doc["tables"]["seat_winrate"][0]["family_size"]
    assert m == (1 + 3) + 4 * 2 + len(flags)  # seats (not 2p seat 1: the complement) + factions + flags
    table = {r["faction"]: r for r in doc["tables"]["strength"] if r["model"] == "winner"}
    for r in flags:
        assert r["p_adjusted"] == pytest.approx(min(1.0, m * table[r["unit"]]["p_value"]))
    for family in {r["family"] for r in doc["verdicts"] if r["family"]}:
        assert family in doc["families"]
    assert len(doc["tables"]["seat_winrate"]) == result.seat_winrate.height
    assert "faction_winrate" in doc["tables"] and "manifest" not in doc["tables"]


def test_compare_json_and_all_formats(tmp_path, run):
    other = write_run(tmp_path / "b", faction_games(600, 4), [],
                      manifest(game="made_up", n_games=600, cards=[], estimates=[], player_counts=[2, 3]))
    out = tmp_path / "cmp.html"
    proc = cli("compare", run, other, "--format", "all", "--out", out, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [p.split("/")[-1] for p in proc.stdout.split()] == ["cmp.html", "cmp.pdf", "cmp.json"]
    doc = json.loads((tmp_path / "cmp.json").read_text())
    assert doc["command"] == "compare" and doc["tables"]["metrics"]
    for record in doc["verdicts"]:
        check_record(record)


def test_an_unknown_format_is_one_line_and_writes_nothing(tmp_path, run):
    proc = cli("report", run, "--format", "xml", "--out", tmp_path / "r.html", cwd=tmp_path)
    line = error_line(proc, 2)
    assert "--format 'xml'" in line and "json" in line
    assert list(tmp_path.iterdir()) == []
