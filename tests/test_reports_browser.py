"""The HTML report in a real browser: headless Chromium loads it with no console errors
and no network requests, and its first screen is not blank (DESIGN.md §8)."""

from __future__ import annotations

import io
import os

import numpy as np
import pytest
from browser import chromium, visit
from matplotlib import image as mpimg
from runfixture import FACTION_GAMES, manifest, write_run

import analysis
from reports import write_report

# .ci/run installs Chromium and sets this: there a missing browser fails these tests instead of
# skipping them. On a developer's machine without Chromium they skip and say why.
REQUIRED = os.environ.get("BREWBALANCE_REQUIRE_BROWSER") == "1"
pytestmark = pytest.mark.skipif(chromium() is None and not REQUIRED,
                                reason="chromium is not installed (apt-get install chromium)")


def test_chromium_is_there():
    assert chromium() is not None, "BREWBALANCE_REQUIRE_BROWSER=1 but chromium is not installed"


def pixels(png: bytes) -> np.ndarray:
    return mpimg.imread(io.BytesIO(png), format="png")[..., :3]


def local_only(urls: list[str], page) -> list[str]:
    """Requests other than the page itself and inline data."""
    return [u for u in urls if u != page.resolve().as_uri() and not u.startswith("data:")]


def test_report_loads_cleanly_offline_and_is_not_blank(tmp_path):
    run = write_run(tmp_path / "run", FACTION_GAMES * 4, [],
                    manifest(game="made_up", n_games=20, cards=[], estimates=[]))
    (page,) = write_report(analysis.analyze(run), html_path=tmp_path / "report.html")
    seen = visit(page)
    assert seen.loaded
    assert seen.errors == []
    assert local_only(seen.requests, page) == []
    img = pixels(seen.screenshot)
    assert img.shape[:2] == (900, 1200)
    # a blank page is one colour; the report's first screen has text and the verdict box
    assert img.std() > 0.05
    assert (img.mean(axis=2) < 0.5).mean() > 0.002  # some dark (text) pixels


def test_the_check_catches_requests_errors_and_blank_pages(tmp_path):
    """The same checks fail on a page that fetches, logs an error, and shows nothing."""
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><body style="background:#fff">'
                   '<img src="http://127.0.0.1:9/x.png" style="display:none">'
                   '<script>console.error("boom")</script></body></html>', encoding="utf-8")
    seen = visit(bad)
    assert any("boom" in e for e in seen.errors)
    assert local_only(seen.requests, bad) == ["http://127.0.0.1:9/x.png"]
    assert pixels(seen.screenshot).std() < 0.01


# Each table beside a chart: how much of it lies past its own right edge, in CSS pixels (0 when
# every column shows without scrolling).
HIDDEN_WIDTHS = ("Array.from(document.querySelectorAll('.group > div .table-wrap'))"
                 ".map(w => w.scrollWidth - w.clientWidth)")


def test_a_verdict_table_too_wide_to_sit_beside_its_chart_moves_below_it(tmp_path):
    """Five player counts make the faction table wider than the room beside the chart at a
    1,300 px window: it must move below the chart with every column in view, not keep its place
    with the last columns hidden behind a scrollbar."""
    names = ["Chaos Wytches", "Wizard Folk", "Leprechauns", "Free Gnomes", "Tree Men", "Halfling"]
    games = [{"scores": [(g * 7 + s * 3) % 10 for s in range(n)],
              "factions": [names[(g + s) % len(names)] for s in range(n)]}
             for n in range(2, 7) for g in range(12)]
    run = write_run(tmp_path / "run", games, [],
                    manifest(game="made_up", n_games=len(games), player_counts=[2, 3, 4, 5, 6],
                             cards=[], estimates=[]))
    (page,) = write_report(analysis.analyze(run), html_path=tmp_path / "report.html")
    seen = visit(page, width=1300, evaluate=HIDDEN_WIDTHS)
    assert seen.errors == []
    assert seen.value, "no table beside a chart on the report's first screen"
    assert max(seen.value) <= 1, f"columns hidden behind a scrollbar: {seen.value} px"
