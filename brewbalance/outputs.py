"""Report outputs shared by every command that writes one: the --format choices, and writing
the asked-for files (HTML, PDF, JSON) beside one base path, each atomically."""

from __future__ import annotations

from pathlib import Path

from sim.core.errors import UsageError, choices

FORMAT_HELP = "html, pdf, both (html and pdf), json (every verdict and table) or all."
FORMATS = {"html": (".html",), "pdf": (".pdf",), "both": (".html", ".pdf"), "json": (".json",),
           "all": (".html", ".pdf", ".json")}


def output_formats(format: str) -> tuple[str, ...]:
    """The file suffixes a --format value asks for; UsageError naming the choices otherwise."""
    if format not in FORMATS:
        raise UsageError(f"--format '{format}': choose from {choices(FORMATS)}")
    return FORMATS[format]


def write_outputs(base: Path, suffixes, write_pages, json_document) -> list[Path]:
    """Write the asked-for outputs beside `base` (its suffix replaced): HTML/PDF through
    `write_pages(html_path, pdf_path)`, JSON from `json_document()`; every file atomically, and
    the JSON is rendered before any file is written, so an error there leaves nothing behind."""
    from reports.files import write_atomic  # imported here: reports pull in matplotlib

    text = json_document().to_json().encode("utf-8") if ".json" in suffixes else None
    html = base.with_suffix(".html") if ".html" in suffixes else None
    pdf = base.with_suffix(".pdf") if ".pdf" in suffixes else None
    written = []
    if html or pdf:
        write_pages(html, pdf)
        written += [p for p in (html, pdf) if p is not None]
    if text is not None:
        written.append(write_atomic(base.with_suffix(".json"), text))
    return written
