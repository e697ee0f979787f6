"""Spreadsheets in and out: `data export` and `--data` (brewbalance/sheets.py).

An exported sheet reads back as no change at all (so a run from it is byte-identical), a
changed cell becomes one override of the right type, recorded in run.json with the sheet's
hash and shown in the report, and a bad cell stops with one line naming sheet, row and column.
"""

from __future__ import annotations

import csv
import json

import pytest
from clihelp import cli, error_line, manifest, part_hashes, simulate
from openpyxl import load_workbook

from brewbalance import sheets
from sim.core.errors import UsageError

GAMES = ("dwarfest", "brewin_usa", "homebrewers", "dragon_brew")
ARGS = ("--games", "300", "--players", "2,3,4", "--seed", "5", "--jobs", "1")


def set_cell(path, sheet: str, ident: str, column: str, value) -> None:
    """Change one cell of an exported workbook, as a designer would in a spreadsheet program."""
    wb = load_workbook(path)
    ws = wb[sheet]
    col = [c.value for c in ws[1]].index(column)
    (row,) = [r for r in ws.iter_rows(min_row=2) if r[1].value == ident]
    row[col].value = value
    wb.save(path)


def set_csv(path, ident: str, column: str, text: str) -> None:
    rows = list(csv.reader(path.open(encoding="utf-8")))
    col = rows[0].index(column)
    for r in rows[1:]:
        if r[1] == ident:
            r[col] = text
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


@pytest.mark.parametrize("game", GAMES)
def test_export_reads_back_as_no_change(tmp_path, game):
    book = sheets.export(game, tmp_path / f"{game}.xlsx")
    folder = sheets.export(game, tmp_path / "csv")
    assert book == [tmp_path / f"{game}.xlsx"]
    assert {p.name for p in folder} >= {"about.csv", "params.csv"}
    assert sheets.read(game, tmp_path / f"{game}.xlsx").overrides == []
    assert sheets.read(game, tmp_path / "csv").overrides == []


def test_every_card_and_parameter_is_in_the_sheet_with_estimates_in_their_own_column(tmp_path):
    sheets.export("dragon_brew", tmp_path / "db.xlsx")
    wb = load_workbook(tmp_path / "db.xlsx")
    assert wb.sheetnames == ["about", "abilities", "brewery_cards", "event_cards", "judges", "params",
                             "policies", "races", "recipes"]  # variants stay TOML
    races = [[c.value for c in r] for r in wb["races"].iter_rows()]
    header = races[0]
    assert header[:3] == ["table", "id", "name"] and header[-1] == "estimate"
    halfling = next(r for r in races if r[1] == "halfling")
    assert halfling[header.index("gold")] == 6 and isinstance(halfling[header.index("gold")], int)
    assert races[1][0] == "(file)" and "not printed" in races[1][-1]
    params = {r[1]: r for r in ([c.value for c in r] for r in wb["params"].iter_rows()) if r[0] == "params"}
    assert params["max_spices"][2] == 2
    assert "the rules set no limit" in params["max_spices"][-1]   # from [estimates]
    assert params["years"][-1] in (None, "")                       # printed in the rulebook


def test_a_changed_cell_is_one_override_of_the_shipped_type(tmp_path):
    path = tmp_path / "db.xlsx"
    sheets.export("dragon_brew", path)
    set_cell(path, "races", "halfling", "gold", 3)
    set_cell(path, "policies", "greedy", "vp", 3)          # a float field typed as a whole number
    got = sheets.read("dragon_brew", path)
    assert got.overrides == [("policies.greedy.vp", 3.0), ("races.halfling.gold", 3)]
    assert isinstance(got.overrides[0][1], float) and isinstance(got.overrides[1][1], int)
    assert got.source["format"] == "xlsx" and got.source["changed_values"] == 2
    assert got.source["sha256"] == sheets._hash(path)
    assert got.sets() == ["policies.greedy.vp=3.0", "races.halfling.gold=3"]


@pytest.mark.parametrize(("edit", "message"), [
    (("races", "halfling", "gold", "lots"),
     "sheet 'races', row 10, column L (gold): expected a whole number like 6, got 'lots'"),
    (("races", "halfling", "id", "hobbit"),
     "sheet 'races', row 10: no row (table 'race', id 'hobbit') in the shipped data"),
    (("params", "corrupt_judge", "value", "maybe"),
     "column C (value): expected true or false like false, got 'maybe'"),
    (("recipes", "dunkel", "needs", '["barley"]'),
     "column E (needs): this cell cannot be changed from a sheet (list values cannot be overridden)"),
    (("params", "years", "study", "true"),
     "column D (study): this row has no field 'study'"),
])
def test_bad_cells_name_sheet_row_and_column(tmp_path, edit, message):
    path = tmp_path / "db.xlsx"
    sheets.export("dragon_brew", path)
    set_cell(path, *edit)
    with pytest.raises(UsageError) as err:
        sheets.read("dragon_brew", path)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_wrong_game_missing_sheet_and_unknown_column(tmp_path):
    sheets.export("dwarfest", tmp_path / "dw.xlsx")
    with pytest.raises(UsageError, match="this sheet holds dwarfest data, not dragon_brew"):
        sheets.read("dragon_brew", tmp_path / "dw.xlsx")
    folder = tmp_path / "csv"
    sheets.export("dwarfest", folder)
    (folder / "fame_table.csv").unlink()
    with pytest.raises(UsageError, match=r"missing sheet fame_table \(dwarfest has sheets customer_cards, fame_table"):
        sheets.read("dwarfest", folder)
    sheets.export("dwarfest", folder)
    text = (folder / "params.csv").read_text().replace("table,id,value", "table,id,valeu", 1)
    (folder / "params.csv").write_text(text)
    with pytest.raises(UsageError, match=r"sheet 'params', row 1, column C: unknown column 'valeu'"):
        sheets.read("dwarfest", folder)


def test_cli_round_trip_is_byte_identical_and_a_change_equals_set(tmp_path):
    """export -> --data gives the very same part files; a changed CSV cell equals --set."""
    assert cli("data", "export", "dwarfest", "--to", "dw.xlsx", cwd=tmp_path).returncode == 0
    assert cli("data", "export", "dwarfest", "--to", "dw_csv", cwd=tmp_path).returncode == 0
    for out, extra in (("plain", ()), ("sheet", ("--data", "dw.xlsx")),
                       ("set", ("--set", "dwarfest.tavern_cards.bouncer.cost=9"))):
        proc = simulate(tmp_path, out, *ARGS, *extra)
        assert proc.returncode == 0, proc.stderr
    assert part_hashes(tmp_path / "sheet") == part_hashes(tmp_path / "plain")
    assert manifest(tmp_path / "sheet")["changes"] == [] and manifest(tmp_path / "sheet")["overrides"] == []

    set_csv(tmp_path / "dw_csv" / "tavern_cards.csv", "bouncer", "cost", "9")
    proc = simulate(tmp_path, "changed", *ARGS, "--data", "dw_csv")
    assert proc.returncode == 0, proc.stderr
    assert part_hashes(tmp_path / "changed") == part_hashes(tmp_path / "set")
    m = manifest(tmp_path / "changed")
    assert m["overrides"] == [["tavern_cards.bouncer.cost", 9]]
    assert m["data_sheet"]["format"] == "csv" and m["data_sheet"]["changed_values"] == 1
    (change,) = m["changes"]
    assert change["key"] == "tavern_cards.bouncer.cost" and change["value"] == 9
    assert change["source"] == "sheet" and change["shipped"] != 9
    assert manifest(tmp_path / "set")["changes"][0]["source"] == "override"

    # the report's first screen and its JSON say what changed
    proc = cli("report", "changed", "--format", "all", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "changed" / "report.html").read_text()
    first = html[html.index('<section id="glance">'):html.index('<section id="evidence">')]
    assert f"tavern_cards.bouncer.cost: {change['shipped']} -&gt; 9 (sheet)" in first
    doc = json.loads((tmp_path / "changed" / "report.json").read_text())
    assert doc["changes"] == m["changes"]
    assert doc["glance"]["changes"] == m["changes"] and 3 <= len(doc["glance"]["sentences"]) <= 6

    # compare lists the values either run changed, shipped -> A -> B
    proc = cli("compare", "plain", "changed", "--format", "json", "--out", "cmp.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "cmp.json").read_text())
    assert doc["changes"] == [{"key": "tavern_cards.bouncer.cost", "shipped": str(change["shipped"]),
                               "a": "shipped", "b": "9"}]


def test_cli_errors_are_one_line(tmp_path):
    proc = cli("data", "export", "chess", "--to", "x.xlsx", cwd=tmp_path)
    assert "unknown game 'chess'" in error_line(proc, 2)
    proc = cli("data", "export", "dwarfest", "--to", "x.ods", cwd=tmp_path)
    assert "give a .xlsx file or a folder" in error_line(proc, 2)
    assert not (tmp_path / "x.ods").exists()
    proc = cli("simulate", "dwarfest", "--out", "run", *ARGS, "--data", "missing.xlsx", cwd=tmp_path)
    assert "--data 'missing.xlsx': no such file or folder" in error_line(proc, 2)
    assert not (tmp_path / "run").exists()
