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


@dataclass
class Grid:
    """A small table whose cells each carry a verdict that colours them (the glance view).
    Each cell is (text, verdict or None); the first column names the row."""

    header: list[str]
    rows: list[list[tuple[str, str | None]]]
    caption: str = ""


@dataclass
class Group:
    """Blocks shown side by side where there is room (HTML), one after the other otherwise."""

    blocks: list
    widths: list[float] = field(default_factory=list)  # shares of the width, for the PDF


Block = Paragraph | Bullets | Table | Chart | Grid | Group


def flat_blocks(blocks: list) -> list:
    """Blocks with every Group opened, in reading order."""
    out = []
    for b in blocks:
        out += flat_blocks(b.blocks) if isinstance(b, Group) else [b]
    return out


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
        return [b for s in self.sections for b in flat_blocks(s.blocks) if isinstance(b, Chart)]

    def close(self) -> None:
        """Free the matplotlib figures once both outputs are rendered."""
        for chart in self.charts():
            chart.figure.clear()
