"""Minimal text extraction from reportlab PDFs for tests (pypdf is not a dependency).

Reportlab encodes page streams as ASCII85 then Flate; decoding them and collecting the
strings of text operators ('(...) Tj') is enough to check wording and order.
"""

from __future__ import annotations

import base64
import re
import zlib
from pathlib import Path

_STREAM = re.compile(rb"<<(.*?)>>\s*stream\r?\n(.*?)endstream", re.S)


def _decode(header: bytes, data: bytes) -> bytes | None:
    if b"/Subtype /Image" in header:
        return None
    if b"ASCII85Decode" in header:
        data = data.strip()
        data = data[:-2] if data.endswith(b"~>") else data
        data = base64.a85decode(data)
    if b"FlateDecode" in header:
        data = zlib.decompress(data)
    return data


def _unescape(s: bytes) -> str:
    def one(m: re.Match) -> bytes:
        esc = m.group(1)
        return bytes([int(esc, 8)]) if esc[:1].isdigit() else esc

    s = re.sub(rb"\\([0-7]{1,3}|.)", one, s)
    return s.decode("cp1252", errors="replace")


def pdf_text(path: Path) -> str:
    """All text-operator strings of the document, in stream order, joined by newlines."""
    raw = Path(path).read_bytes()
    parts = []
    for header, data in _STREAM.findall(raw):
        content = _decode(header, data)
        if content is None:
            continue
        parts += [_unescape(m) for m in re.findall(rb"\(((?:[^()\\]|\\.)*)\)\s*Tj", content)]
    return "\n".join(parts)


def page_count(path: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", Path(path).read_bytes()))
