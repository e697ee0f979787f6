"""The lead-change and comeback section of the HTML and PDF reports, with and without a
rounds table in the run folder."""

from pdftext import pdf_text
from runfixture import TINY_ROUNDS, rounds_run, tiny_run

import analysis
from reports import write_report
from reports.build import ROUNDS_MISSING


def test_reports_show_lead_changes_and_the_comeback_chart(tmp_path):
    # 30 copies of the tiny games: every chart point has at least 30 players behind it
    a = analysis.analyze(rounds_run(tmp_path / "run", TINY_ROUNDS * 30))
    html_path, pdf_path = write_report(a, html_path=tmp_path / "r.html", pdf_path=tmp_path / "r.pdf")
    html = html_path.read_text(encoding="utf-8")
    section = html[html.index('id="comebacks"'):html.index('id="length"')]
    assert "Comeback odds" in section and "<svg" in section
    assert "mean lead changes" in html and "round-1 leader wins" in html
    assert ROUNDS_MISSING not in html
    text = pdf_text(pdf_path)
    assert "Lead changes and comebacks" in text and "leader wins" in text
    assert text.index("Winning margins") < text.index("Lead changes and comebacks") < text.index("Game length")


def test_a_run_without_rounds_says_so(tmp_path):
    a = analysis.analyze(tiny_run(tmp_path / "run"))
    (html_path,) = write_report(a, html_path=tmp_path / "r.html")
    html = html_path.read_text(encoding="utf-8")
    assert ROUNDS_MISSING in html
    assert "mean lead changes" not in html
