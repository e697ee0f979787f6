"""The page model: what a report says, in order, independent of HTML or PDF.

A Page is a list of Sections; a Section is a list of blocks (paragraphs, bullet
lists, tables, charts). Both renderers walk the same list, so the HTML and the PDF
always carry the same content in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matplotlib.figure import Figure


@dataclass
class Paragraph:
    text: str
    emphasis: bool = False


@dataclass
class Bullets:
    items: list[str]
    css: str = ""


@dataclass
class Column:
    key: str
    header: str
    fmt: str = "text"  # a name in reports.formatting.FORMATTERS


@dataclass
class Table:
    columns: list[Column]
    rows: list[dict]
    caption: str = ""


@dataclass
class Chart:
    figure: Figure
    caption: str = ""


Block = Paragraph | Bullets | Table | Chart


@dataclass
class Section:
    title: str
    anchor: str
    blocks: list[Block] = field(default_factory=list)
    level: int = 2


@dataclass
class Page:
    title: str
    subtitle: str
    sections: list[Section]

    def charts(self) -> list[Chart]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Chart)]

    def close(self) -> None:
        """Free the matplotlib figures once both outputs are rendered."""
        for chart in self.charts():
            chart.figure.clear()
