"""Writing reports: atomic files, clear errors, no half-written output."""

import pytest
from runfixture import tiny_run

import analysis
import reports
from reports import ReportError, write_report
from reports.files import write_atomic


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return analysis.analyze(tiny_run(tmp_path_factory.mktemp("run") / "run"))


def test_missing_folders_are_created(tmp_path, tiny):
    (path,) = write_report(tiny, html_path=tmp_path / "a" / "b" / "r.html")
    assert path.is_file()
    assert [p.name for p in path.parent.iterdir()] == ["r.html"]  # no temp files left


def test_unwritable_folder_raises_a_clear_error(tmp_path, tiny):
    blocker = tmp_path / "not_a_folder"
    blocker.write_text("I am a file")
    with pytest.raises(ReportError, match="cannot write .*not_a_folder"):
        write_report(tiny, pdf_path=blocker / "r.pdf")


def test_rendering_error_leaves_no_file_and_keeps_the_old_one(tmp_path, tiny, monkeypatch):
    html_path, pdf_path = tmp_path / "r.html", tmp_path / "r.pdf"
    html_path.write_text("old report")

    def broken(page):
        raise RuntimeError("renderer exploded")

    monkeypatch.setattr(reports.pdf, "render", broken)
    with pytest.raises(RuntimeError, match="exploded"):
        write_report(tiny, html_path=html_path, pdf_path=pdf_path)
    assert html_path.read_text() == "old report"
    assert not pdf_path.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


def test_write_atomic_replaces_whole_file(tmp_path):
    target = tmp_path / "x.bin"
    target.write_bytes(b"old")
    write_atomic(target, b"new content")
    assert target.read_bytes() == b"new content"
    assert [p.name for p in tmp_path.iterdir()] == ["x.bin"]


def test_a_path_is_required(tiny):
    with pytest.raises(ValueError, match="html_path"):
        write_report(tiny)
