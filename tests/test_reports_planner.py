"""Report sections for the planner ("How many games"), the game-shape table, Holm p-values
and the paired comparison columns, in both HTML and PDF."""

import pytest
from pdftext import pdf_text
from runfixture import manifest, tiny_run, write_run

import analysis
from reports import write_compare, write_report


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("planner")
    a = analysis.analyze(tiny_run(root / "run"))
    html, pdf = write_report(a, html_path=root / "r.html", pdf_path=root / "r.pdf")
    return html.read_text(encoding="utf-8"), pdf_text(pdf)


def test_html_has_game_shape_first_and_how_many_games_before_provenance(outputs):
    html, _ = outputs
    order = [html.index(f'<section id="{anchor}">')
             for anchor in ("glance", "evidence", "verdict", "game-shape", "seats", "how-many-games",
                            "provenance")]
    assert order == sorted(order)
    planner = html[order[5]:order[6]]
    assert "games needed" in planner and "27,875" in planner   # 2 players, 1 pp, at 1 - 0.05/4 (family of 4)
    assert "1 pp" in planner and "3 pp" in planner
    assert "mean winning margin" in html[order[3]:order[4]]
    assert "p (Holm)" in html[order[4]:order[5]]
    assert 'href="#how-many-games"' in html  # listed in the contents


def test_pdf_carries_the_same_sections(outputs):
    _, text = outputs
    # (the glance on page 1 mentions "How many games" too: look for the section after Game shape)
    shape = text.index("Game shape")
    assert shape < text.index("How many games", shape) < text.index("Provenance")
    assert "27,875" in text and "you need about" in text


def test_compare_report_shows_pairing(tmp_path):
    games = [{"scores": [9, 1] if i % 3 else [1, 9]} for i in range(30)]
    flipped = [{"scores": [9, 1]} if i < 3 else g for i, g in enumerate(games)]
    a = write_run(tmp_path / "a", games, manifest_data=manifest(n_games=30))
    b = write_run(tmp_path / "b", flipped, manifest_data=manifest(n_games=30))
    c = analysis.compare(a, b)
    html, pdf = write_compare(c, html_path=tmp_path / "c.html", pdf_path=tmp_path / "c.pdf")
    page = html.read_text(encoding="utf-8")
    assert "variance reduction" in page and "p (Holm)" in page
    assert "Paired: 30 games shared by both runs" in page
    text = pdf_text(pdf)
    assert "Paired analysis: both runs use seed 7" in text
    assert "significant after Holm across 2 tests" in text
