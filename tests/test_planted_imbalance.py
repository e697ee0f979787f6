"""A planted imbalance is found (issue 6, Checks): an override that makes one Dragon Brew
race, or one seat, clearly stronger is flagged with the right sign by the report's analysis
(winner-model strength and win rate, Holm-adjusted) and by `compare`.

Small runs (150 three-player games among four races of middling strength) keep this quick;
the planted effects are large (25 extra starting gold for the Ogres; 39 extra first-year gold
for the second player instead of 1: +19 points of win rate, Holm p 0.0003; the greedy bot that
budgets its beers in brewer actions gains less from gold, 19 extra gave +13 points, Holm p
0.05), so a failure here means the analysis missed them.
"""

from __future__ import annotations

import polars as pl
import pytest
from clihelp import cli

import analysis

BASE = ("--games", "150", "--players", "3", "--factions", "goblin,vampire,ogre,centaur",
        "--seed", "3", "--jobs", "1", "--quiet")
PLANTS = {"base": (), "ogre": ("--set", "dragon_brew.races.ogre.gold=30"),
          "seat1": ("--set", "dragon_brew.extra_gold_2nd=40")}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("planted")
    for name, extra in PLANTS.items():
        proc = cli("simulate", "dragon_brew", "--out", name, *BASE, *extra, cwd=root)
        assert proc.returncode == 0, proc.stderr
    return {name: root / name for name in PLANTS}


def only(df: pl.DataFrame, **keys) -> dict:
    match = df.filter(pl.all_horizontal(pl.col(k) == v for k, v in keys.items()))
    assert len(match) == 1, (keys, match)
    return match.row(0, named=True)


def test_a_stronger_race_is_flagged_by_the_report_and_by_compare(runs, tmp_path):
    a = analysis.analyze(runs["ogre"])
    ogre = only(a.strength, model="winner", kind="faction", faction="ogre")
    assert ogre["strength"] > 0 and ogre["significant_holm"] and ogre["lo"] > 0
    winner = a.strength.filter((pl.col("model") == "winner") & (pl.col("kind") == "faction"))
    assert winner.sort("strength")["faction"][-1] == "ogre"
    rate = only(a.faction_winrate, faction="ogre", n_players=3)
    assert rate["deviation"] > 0 and rate["significant_holm"]
    assert any("strongest is ogre" in v for v in a.verdicts)

    change = only(analysis.compare(runs["base"], runs["ogre"]).metrics,
                  metric="faction win rate", group="ogre, 3p")
    assert change["diff"] > 0 and change["significant_holm"]

    proc = cli("report", runs["ogre"], "--format", "html", "--out", tmp_path / "r.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "strongest is ogre" in html


def test_a_stronger_seat_is_flagged_by_the_report_and_by_compare(runs):
    a = analysis.analyze(runs["seat1"])
    seat = only(a.strength, model="winner", kind="seat", n_players=3, seat=1)
    assert seat["strength"] > 0 and seat["significant_holm"]
    rate = only(a.seat_winrate, n_players=3, seat=1)
    assert rate["deviation"] > 0 and rate["significant_holm"]

    change = only(analysis.compare(runs["base"], runs["seat1"]).metrics,
                  metric="seat win rate", group="seat 1, 3p")
    assert change["diff"] > 0 and change["significant_holm"]
