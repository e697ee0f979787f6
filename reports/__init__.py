"""brewbalance reports: render analysis results as one self-contained HTML file and a PDF.

Knows analysis results only (RunAnalysis, Comparison). Both outputs come from the same
page model (reports.build), in the same order: verdict, evidence, provenance,
estimated data values, and a note that bots are not people.

Public API:

    write_report(analysis, html_path=None, pdf_path=None) -> list[Path]
    write_compare(comparison, html_path=None, pdf_path=None) -> list[Path]
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reports import build, html, pdf
from reports.files import ReportError, write_atomic
from reports.model import Page

if TYPE_CHECKING:
    from analysis import Comparison, RunAnalysis

__all__ = ["ReportError", "write_compare", "write_report"]


def _write(page: Page, html_path, pdf_path) -> list[Path]:
    if html_path is None and pdf_path is None:
        raise ValueError("give html_path and/or pdf_path")
    try:
        # Render everything before writing anything: a rendering error leaves no file.
        outputs = []
        if html_path is not None:
            outputs.append((Path(html_path), html.render(page).encode("utf-8")))
        if pdf_path is not None:
            outputs.append((Path(pdf_path), pdf.render(page)))
    finally:
        page.close()
    return [write_atomic(path, data) for path, data in outputs]


def write_report(analysis: RunAnalysis, html_path: str | Path | None = None,
                 pdf_path: str | Path | None = None) -> list[Path]:
    """Write the report of one run as HTML and/or PDF.

    Args:
        analysis: the result of `analysis.analyze(run_dir)`.
        html_path: where to write the self-contained HTML file (None: skip).
        pdf_path: where to write the PDF (None: skip).

    Returns:
        The paths written. Each file is written to a temp name and renamed, so no
        half-written report is ever left behind; missing folders are created.

    Raises:
        ValueError: neither path given.
        ReportError: an output folder cannot be created or written.
    """
    return _write(build.run_page(analysis), html_path, pdf_path)


def write_compare(comparison: Comparison, html_path: str | Path | None = None,
                  pdf_path: str | Path | None = None) -> list[Path]:
    """Write the comparison of two runs as HTML and/or PDF (see `write_report`)."""
    return _write(build.compare_page(comparison), html_path, pdf_path)
