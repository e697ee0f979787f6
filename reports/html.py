"""HTML rendering: one Jinja environment, formatting filters, inline SVG charts."""

from __future__ import annotations

from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from reports import charts, formatting
from reports.model import Bullets, Chart, Grid, Group, Page, Paragraph, Table


@cache
def environment() -> Environment:
    """The one Jinja environment of the package (autoescaping on, strict undefined)."""
    env = Environment(
        loader=PackageLoader("reports", "templates"),
        autoescape=select_autoescape(["html", "j2"], default=True),
        undefined=StrictUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
    )
    env.filters.update({
        "pct": formatting.pct, "pp": formatting.pp, "num": formatting.num,
        "int": formatting.integer, "signed": formatting.signed, "fmt": formatting.fmt,
    })
    # Tests let the page template dispatch on block type without string tags.
    env.tests.update({
        "paragraph": lambda b: isinstance(b, Paragraph),
        "bullets": lambda b: isinstance(b, Bullets),
        "table": lambda b: isinstance(b, Table),
        "chart": lambda b: isinstance(b, Chart),
        "grid": lambda b: isinstance(b, Grid),
        "group": lambda b: isinstance(b, Group),
    })
    return env


def render(page: Page) -> str:
    """The page as one self-contained HTML document."""
    svgs = {id(chart): Markup(charts.to_svg(chart.figure, f"c{i}"))
            for i, chart in enumerate(page.charts())}
    template = environment().get_template("page.html.j2")
    return template.render(page=page, svg_of=lambda chart: svgs[id(chart)])
