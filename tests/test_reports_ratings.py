"""Ratings and card detail in the HTML and PDF reports: present, in order, verdict first."""

from __future__ import annotations

import pytest
from pdftext import page_count, pdf_text
from runfixture import FACTION_GAMES, manifest, tiny_run, write_run

import analysis
from reports import write_report

EVENTS = [(g, s, 1, "keg", "draw", 1) for g in range(0, 20, 2) for s in (0, 1)] + \
         [(g, 0, 2, "keg", "play", 1) for g in range(0, 20, 4)]


@pytest.fixture(scope="module")
def faction_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("rr")
    run = write_run(root / "run", FACTION_GAMES * 4, EVENTS,
                    manifest(game="made_up", n_games=20, cards=[], estimates=[],
                             value_kinds=["draw"]))
    return write_report(analysis.analyze(run), html_path=root / "r.html", pdf_path=root / "r.pdf")


SECTIONS = ["Verdict", "Factions", "Faction by seat", "Head to head",
            "Faction strength (who wins, and finishing order)", "Convergence", "Card value", "Card value in detail",
            "Provenance"]


def test_html_has_the_sections_in_order_with_charts(faction_report):
    html = faction_report[0].read_text(encoding="utf-8")
    anchors = ["verdict", "factions", "faction-seat", "head-to-head", "strength", "convergence",
               "cards", "card-detail", "provenance"]
    positions = [html.index(f'<section id="{a}">') for a in anchors]
    assert positions == sorted(positions)
    verdict = html[positions[0]:positions[1]]
    assert "Strength by who wins (conditional logit on the winner" in verdict
    assert "fitted on all 20 games" in verdict
    head = html[positions[3]:positions[4]]
    assert "<svg" in head and "Head to head: win rate minus fair share" in head
    strength = html[positions[4]:positions[5]]
    assert "Who wins: faction strength" in strength and "<svg" in strength
    assert strength.index("Who wins: conditional logit") < strength.index("Finishing-order strength")
    assert "model-implied win" in strength and "n counts games" in strength
    assert "Win rate as games accumulate" in html[positions[5]:positions[6]]
    detail = html[positions[7]:positions[8]]
    assert "Mantel-Haenszel" in detail and "not available for made_up" in detail


def test_pdf_carries_the_same_sections(faction_report):
    pdf = faction_report[1]
    assert page_count(pdf) >= 5
    text = pdf_text(pdf)
    positions = [text.index(s) for s in SECTIONS]
    assert positions == sorted(positions)
    assert "Strength by who wins" in text
    assert "Breslow" in text  # the method is stated


def test_symmetric_game_gets_seat_strengths(tmp_path):
    a = analysis.analyze(tiny_run(tmp_path / "run"))
    assert set(a.strength["kind"]) == {"seat"}
    assert a.faction_seat.is_empty() and a.copresence.is_empty()
    (html,) = write_report(a, html_path=tmp_path / "r.html")
    text = html.read_text(encoding="utf-8")
    assert "Seat strength (who wins, and finishing order)" in text and 'id="head-to-head"' not in text
    assert "not available for dwarfest" in text  # Dwarfest logs plays, not acquisitions


def test_one_faction_for_everybody_is_treated_as_symmetric(tmp_path):
    games = [dict(g, factions=["standard"] * len(g["scores"])) for g in FACTION_GAMES * 4]
    a = analysis.analyze(write_run(tmp_path / "run", games, [],
                                   manifest(game="made_up", n_games=20, cards=[], estimates=[])))
    assert set(a.strength["kind"]) == {"seat"} and a.copresence.is_empty()
    assert any("strongest is seat" in v for v in a.verdicts)


def test_fixed_lineup_report_says_not_estimable_with_no_numbers(tmp_path):
    """Every faction always in the same seat: the strength section and the verdict say
    'not estimable' and show no strength numbers (and no forest plot)."""
    games = [dict(g, factions=["dwarves", "elves", "orcs"][:len(g["scores"])])
             for g in FACTION_GAMES * 4]
    a = analysis.analyze(write_run(tmp_path / "run", games, [],
                                   manifest(game="made_up", n_games=20, cards=[], estimates=[])))
    assert not a.strength["estimable"].any()
    assert any("not estimable: factions are fixed to seats" in v for v in a.verdicts)
    assert not any("Strength by who wins" in v for v in a.verdicts)
    (html,) = write_report(a, html_path=tmp_path / "r.html")
    text = html.read_text(encoding="utf-8")
    section = text[text.index('<section id="strength">'):]
    section = section[:section.index("</section>")]
    assert "not estimable" in section and "Who wins: faction strength" not in section
