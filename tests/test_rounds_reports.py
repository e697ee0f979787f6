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
    assert "Comeback odds" in section and section.count("<svg") == 2  # lead-change histogram too
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


def test_comeback_chart_keeps_one_colour_per_round_across_panels():
    import polars as pl

    from reports import charts

    rows = [(n, r, b, 40, 10.0) for n in (2, 3) for r in ((1, 2, 3) if n == 2 else (2, 3)) for b in range(3)]
    df = pl.DataFrame(rows, schema=["n_players", "round", "bucket", "players", "wins"], orient="row")
    df = df.with_columns(rate=pl.col("wins") / pl.col("players"), lo=pl.lit(0.1), hi=pl.lit(0.4))
    fig = charts.comeback(df, ["0", "1-3", "4 or more"])
    two, three = [ax for ax in fig.axes if ax.get_visible()]
    assert two.get_title() == "2 players" and three.get_title() == "3 players"
    legend = [t.get_text() for t in two.get_legend().get_texts()]
    assert legend == ["after round 1", "after round 2", "after round 3"]
    colours = lambda ax: [line.get_color() for line in ax.get_lines() if line.get_linestyle() == "-"]  # noqa: E731
    assert len(set(colours(two))) == 3
    assert colours(three) == colours(two)[1:]  # rounds 2 and 3 keep their colours without round 1
