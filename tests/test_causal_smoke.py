"""`cards` on each of the four games, small (two cards, 240 games per arm, JSON only): every
studied card gets an injection value against the untreated game and against the blank card
(the automatic inject_neutral arm), and removal values; the randomised-offer (ITT) rows exist
for exactly the studied cards the untreated run offers before any decision (amount-1 offer
events), and every game logs such offers."""

from __future__ import annotations

import json

import polars as pl
import pytest
from clihelp import in_process

CARDS = {
    "dwarfest": ("bouncer", "barmaid"),
    "brewin_usa": ("golden_pils", "harbor_helles"),
    "dragon_brew": ("gnome_housing", "dragons_den"),
    "homebrewers": ("chocolate", "vanilla"),
}


@pytest.fixture(scope="module", params=sorted(CARDS))
def cards_run(request, tmp_path_factory):
    game = request.param
    out = tmp_path_factory.mktemp(game) / "out"
    proc = in_process("cards", game, "--cards", ",".join(CARDS[game]), "--modes", "inject,remove",
                      "--games", "240", "--players", "3", "--seed", "21", "--jobs", "2", "--quiet",
                      "--format", "json", "--out", out)
    assert proc.returncode == 0, proc.stderr
    return game, out, json.loads((out / "report.json").read_text())


def _units(doc, kind) -> set:
    return {v["unit"] for v in doc["verdicts"] if v["kind"] == kind}


def test_every_card_has_injection_values_against_untreated_and_blank_and_removal_values(cards_run):
    game, out, doc = cards_run
    cards = set(CARDS[game])
    assert _units(doc, "card_injection_win") == cards | {"neutral"}  # the blank's own value too
    assert _units(doc, "card_injection_vs_blank_win") == cards
    assert _units(doc, "card_injection_vs_blank_score") == cards
    removed = {u.split(":")[0] for u in _units(doc, "card_removal_seat")}
    assert removed == cards
    assert all(v["n"] == 240 for v in doc["verdicts"] if v["kind"].startswith("card_injection"))
    assert sorted(p.name for p in (out / "arms").iterdir()) == sorted(
        ["untreated", "inject_neutral", *(f"{m}_{c}" for m in ("inject", "remove") for c in cards)])


def test_itt_rows_exist_for_the_cards_the_deal_offers_before_any_decision(cards_run):
    game, out, doc = cards_run
    events = pl.read_parquet(out / "arms" / "untreated" / "events" / "*.parquet")
    dealt = set(events.filter((pl.col("kind").cast(pl.String) == "offer") & (pl.col("amount") == 1))
                ["card"].cast(pl.String).unique())
    assert dealt, f"{game} logs no amount-1 offers"
    itt_cards = {r["card"] for r in doc["tables"].get("itt", [])}
    assert set(CARDS[game]) & dealt  # the smoke cards are dealt at setup in these games
    assert set(CARDS[game]) & itt_cards == set(CARDS[game]) & dealt
    assert _units(doc, "card_itt") >= set(CARDS[game]) & dealt
