"""PDF report: a real PDF whose text carries the same content in the same order."""

import pytest
from pdftext import page_count, pdf_text
from runfixture import tiny_run

import analysis
from reports import write_compare, write_report


@pytest.fixture
def tiny_pdf(tmp_path):
    a = analysis.analyze(tiny_run(tmp_path / "run"))
    (path,) = write_report(a, pdf_path=tmp_path / "report.pdf")
    return path


def test_pdf_is_a_pdf_of_several_pages(tiny_pdf):
    data = tiny_pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    assert data.rstrip().endswith(b"%%EOF")
    assert len(data) > 20_000  # charts are embedded
    assert page_count(tiny_pdf) >= 2


def test_pdf_text_is_extractable_and_in_report_order(tiny_pdf):
    text = pdf_text(tiny_pdf)
    marks = ["Verdict", "Evidence", "Seat win rates", "Card value", "Provenance",
             "Estimated data values", "Bots are not people"]
    positions = [text.index(m) for m in marks]
    assert positions == sorted(positions)
    assert "2 players: seat 0 is undecided: wins 83.3%" in text
    assert "± 3.0 percentage points" in text
    assert "brewbalance simulate dwarfest --games 4 --seed 7" in text


def test_both_outputs_from_one_call(tmp_path):
    a = analysis.analyze(tiny_run(tmp_path / "run"))
    paths = write_report(a, html_path=tmp_path / "r.html", pdf_path=tmp_path / "r.pdf")
    assert [p.name for p in paths] == ["r.html", "r.pdf"]
    assert all(p.stat().st_size > 1000 for p in paths)


def test_compare_pdf(tmp_path):
    run = tiny_run(tmp_path / "run")
    (path,) = write_compare(analysis.compare(run, run), pdf_path=tmp_path / "c.pdf")
    text = pdf_text(path)
    assert path.read_bytes().startswith(b"%PDF-")
    assert text.index("Verdict") < text.index("All metrics") < text.index("Provenance of run A")
    assert "seat win rate" in text
