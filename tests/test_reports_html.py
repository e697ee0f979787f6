"""HTML report: order, self-containment, content."""

import re

import pytest
from runfixture import faction_run, manifest, tiny_run

import analysis
from reports import write_compare, write_report

EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.I)


@pytest.fixture
def tiny_html(tmp_path):
    a = analysis.analyze(tiny_run(tmp_path / "run"))
    (path,) = write_report(a, html_path=tmp_path / "out" / "report.html")
    return path.read_text(encoding="utf-8")


def test_glance_first_then_evidence_with_the_long_verdicts_then_provenance_estimates_bots(tiny_html):
    order = [tiny_html.index(f'<section id="{anchor}">')
             for anchor in ("glance", "evidence", "verdict", "seats", "cards", "extras", "changes",
                            "provenance", "estimates", "bots")]
    assert order == sorted(order)
    glance = tiny_html[order[0]:order[1]]
    # the first screen: what changed, the grid coloured by verdict, the sentences; not the long list
    assert "Data: 1 value changed from the shipped data." in glance
    assert 'class="num v-undecided"' in glance
    assert "undecided, 0 inside." in glance
    assert "2 players: seat 0 is undecided: wins 83.3%" not in glance
    verdict = tiny_html[order[2]:order[3]]
    assert "5 undecided" in verdict
    assert "2 players: seat 0 is undecided: wins 83.3%" in verdict


def test_html_is_self_contained_with_inline_svg(tiny_html):
    assert tiny_html.count("<svg") >= 8
    assert not EXTERNAL.search(tiny_html)
    # one inline script (sorting, filtering, the contents bar), nothing loaded from anywhere
    assert tiny_html.count("<script") == 1 and "<script>" in tiny_html and "<script src" not in tiny_html
    assert "<link" not in tiny_html
    assert "@import" not in tiny_html and "url(http" not in tiny_html
    # svg ids are unique across charts (prefixed per chart)
    ids = re.findall(r'\bid="([^"]+)"', tiny_html)
    assert len(ids) == len(set(ids))


def test_html_shows_provenance_estimates_and_the_bots_note(tiny_html):
    m = manifest()
    assert m["command"] in tiny_html
    assert "ab" * 32 in tiny_html  # data hash
    assert "dwarfest.brawl_limit = 5" in tiny_html
    assert "numba 0.68.1" in tiny_html
    assert "1 data value is estimated" in tiny_html
    assert "cost not printed; guessed from the example" in tiny_html
    assert "Bots are not people" in tiny_html and "scripted bot is not a human player" in tiny_html


def test_html_tables_use_the_formatting_filters(tiny_html):
    assert "83.3%" in tiny_html  # seat 0, 2p win rate
    assert "+33.3 pp" in tiny_html  # first-player advantage, 2p
    assert "Brawl rate per player-evening" in tiny_html
    assert "Bouncer" in tiny_html


def test_faction_section_only_when_factions_exist(tmp_path, tiny_html):
    assert 'id="factions"' not in tiny_html
    a = analysis.analyze(faction_run(tmp_path / "f"))
    (path,) = write_report(a, html_path=tmp_path / "f.html")
    text = path.read_text(encoding="utf-8")
    assert 'id="factions"' in text and "elves" in text
    assert text.index('id="verdict"') < text.index('id="factions"')


def test_manifest_text_is_escaped(tmp_path):
    run = tiny_run(tmp_path / "run", command="simulate <script>alert(1)</script>")
    (path,) = write_report(analysis.analyze(run), html_path=tmp_path / "r.html")
    text = path.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in text and text.count("<script>") == 1  # only the page's own
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


def test_compare_html_puts_verdict_first(tmp_path):
    run = tiny_run(tmp_path / "run")
    c = analysis.compare(run, run)
    (path,) = write_compare(c, html_path=tmp_path / "c.html")
    text = path.read_text(encoding="utf-8")
    assert text.index('id="verdict"') < text.index('id="evidence"') < text.index('id="provenance-a"')
    assert "<svg" in text and not EXTERNAL.search(text)
    assert "seat 0, 2p" in text
    assert "Bots are not people" in text


def test_tables_sort_and_filter_and_charts_show_values_on_hover(tiny_html):
    """Item 4 of the designer's desk: the interactivity is inline, and the marks carry titles."""
    assert "th.classList.add(\"sortable\")" in tiny_html and "Filter rows..." in tiny_html
    assert '<nav class="toc"' in tiny_html and "position: sticky" in tiny_html
    titles = re.findall(r"<title>([^<]+)</title>", tiny_html.split("</head>", 1)[1])
    assert any(t.startswith("2 players, seat 0: 83.3%") for t in titles), titles[:5]
    charts = re.findall(r"<svg.*?</svg>", tiny_html.split("</head>", 1)[1], flags=re.S)
    bare = [re.search(r"<!-- (.*?) -->", c) for c in charts if "<title>" not in c]
    assert charts and not bare, f"charts without values on hover: {[b and b.group(1) for b in bare]}"


def charts_without_hover(page: str) -> int:
    """How many inline charts carry no <title> (no values on hover)."""
    charts = re.findall(r"<svg.*?</svg>", page.split("</head>", 1)[1], flags=re.S)
    assert charts
    return sum("<title>" not in c for c in charts)


def test_every_chart_of_a_faction_report_shows_values_on_hover(tmp_path):
    """Faction forest, strength forest, head-to-head cells, convergence lines and the rest."""
    run = faction_run(tmp_path / "run")
    write_report(analysis.analyze(run), html_path=tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    assert charts_without_hover(page) == 0
    assert re.search(r"<title>elves against orcs: [+-]\d", page)  # a head-to-head cell
