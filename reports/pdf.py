"""PDF rendering with reportlab platypus: the same page model as the HTML.

Text stays real text in standard fonts (extractable, searchable); charts are PNGs of
the very figures the HTML shows as SVG.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    Image,
    KeepTogether,
    ListFlowable,
    ListItem,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    TableStyle,
)
from reportlab.platypus import Table as RLTable

from reports import charts, formatting, model

# Binary streams, not ASCII85 text: reportlab encodes ASCII85 in pure Python (measured on a
# Dragon Brew report: a sixth of the PDF's time, and a file a fifth larger).
rl_config.useA85 = 0

MARGIN = 16 * mm
FRAME_WIDTH = A4[0] - 2 * MARGIN
CHART_MAX_HEIGHT = A4[1] - 2 * MARGIN - 72  # a tall chart (e.g. 19 factions x 3 player counts) must fit a page


def _styles() -> dict[str, ParagraphStyle]:
    base = getSampleStyleSheet()
    return {
        "title": base["Title"],
        "subtitle": ParagraphStyle("subtitle", parent=base["BodyText"], textColor=colors.grey,
                                   fontSize=8),
        "h2": ParagraphStyle("h2", parent=base["Heading2"], textColor=colors.HexColor("#2b7a3d")),
        "h3": base["Heading3"],
        "body": base["BodyText"],
        "strong": ParagraphStyle("strong", parent=base["BodyText"], fontName="Helvetica-Bold"),
        "bullet": ParagraphStyle("bullet", parent=base["BodyText"], fontSize=9, leading=11.5),
        "cell": ParagraphStyle("cell", parent=base["BodyText"], fontSize=7, leading=8.5),
        "cell_num": ParagraphStyle("cell_num", parent=base["BodyText"], fontSize=7, leading=8.5,
                                   alignment=TA_RIGHT),
        "grid": ParagraphStyle("grid", parent=base["BodyText"], fontSize=6, leading=7),
        "grid_num": ParagraphStyle("grid_num", parent=base["BodyText"], fontSize=6, leading=7,
                                   alignment=TA_RIGHT),
        "head": ParagraphStyle("head", parent=base["BodyText"], fontSize=7, leading=8.5,
                               fontName="Helvetica-Bold"),
        "caption": ParagraphStyle("caption", parent=base["BodyText"], fontSize=7,
                                  textColor=colors.grey),
    }


def _p(text: str, style: ParagraphStyle) -> Paragraph:
    # Paragraph parses a small XML markup: escape so '<', '&' in data stay literal.
    return Paragraph(escape(str(text)), style)


def _table(block: model.Table, st: dict) -> list:
    header = [_p(c.header, st["head"]) for c in block.columns]
    body = [[_p(formatting.fmt(row.get(c.key), c.fmt),
                st["cell"] if c.fmt == "text" else st["cell_num"]) for c in block.columns]
            for row in block.rows]
    table = RLTable([header] + body, repeatRows=1, hAlign="LEFT",
                    colWidths=_col_widths(block))
    table.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#f2f2f2")),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.HexColor("#dddddd")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]))
    out = [table]
    if block.caption:
        out.append(_p(block.caption, st["caption"]))
    return out + [Spacer(1, 4 * mm)]


def _col_widths(block: model.Table) -> list[float]:
    """Each column at least as wide as its longest word (header or cell) and, for a number
    column, its widest cell, so no word or number breaks inside; the width left over goes to
    the columns by how much more their text would take (long text wraps between words)."""
    pad = 6.5  # left + right cell padding, and a hair for rounding
    need, want = [], []
    for col in block.columns:
        cells = [formatting.fmt(r.get(col.key), col.fmt) for r in block.rows[:200]]
        word = max((stringWidth(w, "Helvetica-Bold", 7) for w in col.header.split()), default=0)
        cell = max((stringWidth(c, "Helvetica", 7) for c in cells), default=0)
        if col.fmt == "text":  # text may wrap between words, never inside one
            cell_word = max((stringWidth(w, "Helvetica", 7) for c in cells for w in c.split()), default=0)
            need.append(pad + max(word, min(cell_word, 120)))
        else:
            need.append(pad + max(word, cell))
        want.append(max(need[-1], pad + min(max(stringWidth(col.header, "Helvetica-Bold", 7), cell), 180)))
    if sum(need) >= FRAME_WIDTH:  # too many columns to keep every word whole: shrink them all
        return [FRAME_WIDTH * n / sum(need) for n in need]
    if sum(want) <= FRAME_WIDTH:  # every cell fits on one line: widen them all alike
        return [FRAME_WIDTH * w / sum(want) for w in want]
    spare, room = FRAME_WIDTH - sum(need), sum(want) - sum(need)
    return [n + spare * (w - n) / room for n, w in zip(need, want, strict=True)]


def _chart(block: model.Chart, frame: float = FRAME_WIDTH) -> Image:
    png = charts.to_png(block.figure)
    width, height = block.figure.get_size_inches()
    scale = min(1.0, frame / (width * 72), CHART_MAX_HEIGHT / (height * 72))
    return Image(io.BytesIO(png), width=width * 72 * scale, height=height * 72 * scale)


GRID_COLOURS = {"outside": "#f6d5cc", "undecided": "#d6e3f1", "inside": "#d5ecd9"}


def _grid(block: model.Grid, st: dict, width: float = FRAME_WIDTH) -> list:
    """A verdict grid: each cell's background is its verdict's colour."""
    header = [_p(h, st["head"]) for h in block.header]
    body = [[_p(text, st["grid"] if verdict is None else st["grid_num"]) for text, verdict in row]
            for row in block.rows]
    first = min(0.3, 1.2 / max(2, len(block.header)))
    widths = [width * first] + [width * (1 - first) / (len(block.header) - 1)] * (len(block.header) - 1)
    table = RLTable([header] + body, repeatRows=1, hAlign="LEFT", colWidths=widths)
    style = [("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#f2f2f2")),
             ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.white),
             ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
             ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3)]
    for r, row in enumerate(block.rows, start=1):
        for c, (_, verdict) in enumerate(row):
            if verdict in GRID_COLOURS:
                style.append(("BACKGROUND", (c, r), (c, r), colors.HexColor(GRID_COLOURS[verdict])))
    table.setStyle(TableStyle(style))
    return [table] + ([_p(block.caption, st["caption"])] if block.caption else [])


def _fitted(block, st: dict, width: float) -> list:
    """A block's flowables for a column `width` wide (charts and grids are sized to it)."""
    if isinstance(block, model.Grid):
        return _grid(block, st, width)
    if isinstance(block, model.Chart):
        caption = [_p(block.caption, st["caption"])] if block.caption else []
        return [_chart(block, width), *caption]
    return _block(block, st)


def _group(block: model.Group, st: dict) -> list:
    """The blocks side by side in one borderless table row, each in its share of the width."""
    shares = block.widths or [1 / len(block.blocks)] * len(block.blocks)
    gap = 4 * mm
    widths = [FRAME_WIDTH * s - gap for s in shares]
    cells = [_fitted(b, st, w) for b, w in zip(block.blocks, widths, strict=True)]
    outer = RLTable([cells], colWidths=[w + gap for w in widths], hAlign="LEFT")
    outer.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0)]))
    return [outer, Spacer(1, 3 * mm)]


def _block(block, st: dict) -> list:
    if isinstance(block, model.Paragraph):
        return [_p(block.text, st["strong"] if block.emphasis else st["body"])]
    if isinstance(block, model.Bullets):
        # One list per item: a single list flowable longer than a page would be pushed whole
        # past its heading (KeepTogether in `render`), leaving a blank page.
        return [ListFlowable([ListItem(_p(t, st["bullet"]), leftIndent=10)], bulletType="bullet", start="-",
                             leftIndent=10) for t in block.items]
    if isinstance(block, model.Table):
        return _table(block, st)
    if isinstance(block, model.Chart):
        caption = [_p(block.caption, st["caption"])] if block.caption else []
        return [_chart(block), *caption, Spacer(1, 3 * mm)]
    if isinstance(block, model.Grid):
        return _grid(block, st) + [Spacer(1, 3 * mm)]
    if isinstance(block, model.Group):
        return _group(block, st)
    raise TypeError(f"unknown block {type(block).__name__}")


def _footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont("Helvetica", 7)
    canvas.setFillColor(colors.grey)
    canvas.drawString(MARGIN, 8 * mm, f"brewbalance - {doc.title} - page {doc.page}")
    canvas.restoreState()


def render(page: model.Page) -> bytes:
    """The page as PDF bytes."""
    st = _styles()
    story = [_p(page.title, st["title"]), _p(page.subtitle, st["subtitle"]), Spacer(1, 4 * mm)]
    for section in page.sections:
        heading = _p(section.title, st["h2" if section.level <= 2 else "h3"])
        flow = [f for b in section.blocks for f in _block(b, st)]
        # Keep a heading with its first block so no heading ends a page alone.
        story.append(KeepTogether([heading] + flow[:1]))
        story.extend(flow[1:])
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN,
                            topMargin=MARGIN, bottomMargin=MARGIN, title=page.title,
                            author="brewbalance")
    doc.build(story, onFirstPage=_footer, onLaterPages=_footer)
    return buf.getvalue()
