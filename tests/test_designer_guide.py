"""docs/designer_guide.md: every command it shows runs, at small size, and prints what it says.

The guide's console blocks are run in order in one folder, with `--games` cut down, and the
spreadsheet edit it asks for (an `<!-- edit: ... -->` marker) done with openpyxl. Output lines
without digits (paths, table headers) must appear as printed; lines with numbers are the real
output at the guide's size and are checked for shape by the report assertions below.
"""

from __future__ import annotations

import json
import re
import shlex

from clihelp import REPO, cli
from openpyxl import load_workbook

GUIDE = REPO / "docs" / "designer_guide.md"
SMALL = "300"
STEP = re.compile(r"```console\n(.*?)```|<!-- edit: (.*?) -->", re.S)


def steps() -> list[tuple[str, object]]:
    """('run', (command args, expected output lines)) and ('edit', (file, sheet, id, column, value))."""
    out = []
    for block, edit in STEP.findall(GUIDE.read_text(encoding="utf-8")):
        if edit:
            out.append(("edit", edit.split()))
            continue
        for chunk in block.split("$ brewbalance ")[1:]:
            command, *lines = chunk.rstrip("\n").split("\n")
            out.append(("run", (shlex.split(command), lines)))
    return out


def small(args: list[str]) -> list[str]:
    return [SMALL if i and args[i - 1] == "--games" else a for i, a in enumerate(args)]


def edit_cell(folder, book: str, sheet: str, ident: str, column: str, value: str) -> None:
    wb = load_workbook(folder / book)
    ws = wb[sheet]
    col = [c.value for c in ws[1]].index(column)
    (row,) = [r for r in ws.iter_rows(min_row=2) if r[1].value == ident]
    row[col].value = int(value)
    wb.save(folder / book)


def test_the_readme_links_the_guide_first():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first_link = re.search(r"\]\(([^)]+)\)", readme).group(1)
    assert first_link == "docs/designer_guide.md"


def _spaced(line: str) -> str:
    return " ".join(line.split())


def test_the_guide_answers_five_questions_and_says_which_value_is_causal():
    text = GUIDE.read_text(encoding="utf-8")
    titles = re.findall(r"^## (\d)\. (.+)$", text, re.M)
    assert [t[0] for t in titles] == ["0", "1", "2", "3", "4", "5"]
    assert "association, not a cause" in text


def test_the_guide_never_calls_a_command_missing_that_the_cli_has():
    # It once said "There is no `cards` command yet" long after `cards` had shipped.
    from brewbalance.cli import app

    commands = {c.name or c.callback.__name__ for c in app.registered_commands}
    assert {"cards", "sensitivity", "simulate"} <= commands
    text = GUIDE.read_text(encoding="utf-8")
    said_missing = set(re.findall(r"[Nn]o `(\w+)` command", text))
    assert not said_missing & commands


def test_every_command_of_the_guide_runs_and_prints_what_it_shows(tmp_path):
    ran = []
    for kind, step in steps():
        if kind == "edit":
            edit_cell(tmp_path, *step)
            continue
        args, expected = step
        proc = cli(*small(args), cwd=tmp_path)
        assert proc.returncode == 0, f"brewbalance {' '.join(args)}\n{proc.stderr}"
        printed = [_spaced(p) for p in proc.stdout.splitlines()]
        for line in expected:
            if line.strip() and not re.search(r"\d", line) and not line.startswith("..."):
                # a table's padding follows the widest value, which differs at the small size
                assert _spaced(line) in printed, f"brewbalance {' '.join(args)}: {line!r} not in {printed}"
        ran.append(args[0])
    assert ran.count("simulate") == 4
    assert {"data", "report", "cards", "experiment", "compare", "sensitivity", "sweep"} <= set(ran)

    # the done-when of the guide: the changed run's first screen says what changed
    doc = json.loads((tmp_path / "runs" / "db_gold3" / "report.json").read_text())
    assert doc["changes"] == [{"key": "races.halfling.gold", "shipped": 6, "value": 3, "source": "sheet"}]
    html = (tmp_path / "runs" / "db_gold3" / "report.html").read_text()
    glance = html[html.index('<section id="glance">'):html.index('<section id="evidence">')]
    assert "races.halfling.gold: 6 -&gt; 3 (sheet)" in glance
    for run in ("db", "db_gold3", "dw"):
        sentences = json.loads((tmp_path / "runs" / run / "report.json").read_text())["glance"]["sentences"]
        assert 3 <= len(sentences) <= 6
        assert sentences[-1].startswith("Going first: ")
