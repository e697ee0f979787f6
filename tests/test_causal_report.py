"""The causal report on hand-made arm folders (no simulation): `report OUT` on a cards folder
renders HTML, PDF and JSON, every value labelled causal or association; bad settings fail in
one line."""

from __future__ import annotations

import json

import numpy as np
from clihelp import error_line, in_process
from pdftext import pdf_text
from runfixture import manifest, write_run

GAMES = 120


def _games(rng, treated: bool) -> list[dict]:
    out = []
    for g in range(GAMES):
        scores = [int(x) for x in rng.integers(0, 30, 3)]
        if treated:
            scores[g % 3] += 8  # the injected card helps its holder
        out.append({"scores": scores, "game_extras": {"treated_seat": g % 3 if treated else -1}})
    return out


def cards_folder(tmp_path):
    out = tmp_path / "cards"
    rng = np.random.default_rng(1)
    base_games = _games(rng, treated=False)
    rng = np.random.default_rng(1)
    arm_games = _games(rng, treated=True)
    events = [(g, s, 0, "keg", "offer", 1) for g in range(GAMES) for s in range(3) if (g + s) % 4 == 0]
    events += [(g, g % 3, 1, "keg", "play", 0) for g in range(0, GAMES, 2)]
    m = manifest(n_games=GAMES, player_counts=[3])
    write_run(out / "arms" / "untreated", base_games, events, m)
    write_run(out / "arms" / "inject_keg", arm_games, events, m)
    (out / "causal.json").write_text(json.dumps({
        "command": "cards", "game": "dwarfest", "notes": {"inject": "one extra copy in hand"},
        "arms": [{"name": "untreated", "kind": "none", "target": None},
                 {"name": "inject_keg", "kind": "inject", "target": "keg"}]}))
    return out


def test_report_on_a_cards_folder_writes_every_format(tmp_path):
    out = cards_folder(tmp_path)
    proc = in_process("report", out, "--format", "all")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((out / "report.json").read_text())
    assert doc["command"] == "cards" and doc["source"]["paired"]
    kinds = {v["kind"] for v in doc["verdicts"]}
    assert {"card_injection_win", "card_injection_score", "card_itt", "card"} <= kinds
    inj = next(v for v in doc["verdicts"] if v["kind"] == "card_injection_score")
    assert inj["estimate"] > 5 and inj["ci_low"] > 0 and inj["n_unit"] == "paired games"
    assert inj["note"] == "causal (injection on paired seeds)"
    assert next(v for v in doc["verdicts"] if v["kind"] == "card")["note"].startswith("association")
    html = (out / "report.html").read_text()
    assert "Causal card value: dwarfest" in html and "association" in html and "one extra copy" in html
    text = pdf_text(out / "report.pdf")
    assert "causal ITT" in text and "Provenance of arm inject_keg" in text


def test_report_on_a_broken_cards_folder_fails_in_one_line(tmp_path):
    out = cards_folder(tmp_path)
    (out / "causal.json").write_text("{not json")
    assert "causal command's settings" in error_line(in_process("report", out), 1)
