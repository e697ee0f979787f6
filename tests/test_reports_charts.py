"""Charts and formatting: one house style, clean inline SVG, shared formatters."""

import io
import math
from types import SimpleNamespace

import polars as pl
import pytest

from reports import charts, formatting
from reports.html import environment


def _seat_table():
    return pl.DataFrame({"n_players": [2, 2], "seat": [0, 1], "rate": [0.6, 0.4],
                         "lo": [0.55, 0.35], "hi": [0.65, 0.45], "verdict": ["outside", "outside"]})


def test_svg_is_inline_ready_and_ids_are_prefixed():
    fig = charts.seat_forest(_seat_table(), 0.03)
    svg = charts.to_svg(fig, "c7")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "<?xml" not in svg and "<!DOCTYPE" not in svg and "<metadata" not in svg
    assert 'id="c7-' in svg
    assert 'id="' not in svg.replace('id="c7-', "")
    assert "seat 0" in svg  # text kept as text (svg.fonttype none)


def test_png_export_of_the_same_figure():
    png = charts.to_png(charts.seat_forest(_seat_table(), 0.03))
    assert png.startswith(b"\x89PNG") and len(png) > 5000


def test_png_after_svg_keeps_the_layout_and_the_data_marks_but_not_the_hover_marks():
    """The PNG reuses the SVG's layout pass: the same axes positions as a PNG laid out on its
    own, the same data marks, and none of the nearly invisible marks that only carry hover."""
    from matplotlib.image import imread

    alone, after = charts.seat_forest(_seat_table(), 0.03), charts.seat_forest(_seat_table(), 0.03)
    png_alone = charts.to_png(alone)
    charts.to_svg(after, "c0")
    png_after = charts.to_png(after)
    for a, b in zip(alone.axes, after.axes, strict=True):
        assert a.get_position().bounds == pytest.approx(b.get_position().bounds, abs=0.01)
    assert imread(io.BytesIO(png_alone)).shape == imread(io.BytesIO(png_after)).shape
    hover_marks = after.hover_marks
    assert hover_marks and all(m.get_visible() for m in hover_marks)  # restored for the SVG
    data_marks = [ln for ax in after.axes for ln in ax.lines if ln not in hover_marks]
    assert data_marks and all(ln.get_visible() for ln in data_marks)
    svg = charts.to_svg(after, "c1")
    assert svg.count("<title>") == len(after.hover)  # a second SVG still carries every hover


def test_charts_do_not_touch_the_global_matplotlib_state():
    import matplotlib

    before = dict(matplotlib.rcParams)
    charts.histogram(pl.DataFrame({"n_players": [2, 2], "score": [1, 2], "players": [3, 1]}),
                     "score", "players", "t", "score")
    assert dict(matplotlib.rcParams) == before


@pytest.mark.parametrize(("fn", "value", "expected"), [
    (formatting.pct, 0.4123, "41.2%"),
    (formatting.pct, float("nan"), "n/a"),
    (formatting.pp, 0.031, "+3.1 pp"),
    (formatting.pp, -0.2, "-20.0 pp"),
    (formatting.num, 1234.567, "1,234.57"),
    (formatting.num, 7, "7"),
    (formatting.num, math.inf, "inf"),
    (formatting.integer, 12345.0, "12,345"),
    (formatting.signed, 0.5, "+0.50"),
    (formatting.text, None, ""),
])
def test_formatters(fn, value, expected):
    assert fn(value) == expected


def test_jinja_environment_has_the_filters_and_autoescapes():
    env = environment()
    out = env.from_string("{{ x | pct }} {{ y | pp }} {{ z | num }} {{ s }}").render(
        x=0.5, y=-0.01, z=2.0, s="<b>")
    assert out == "50.0% -1.0 pp 2.00 &lt;b&gt;"


@pytest.mark.parametrize("n_counts", [2, 3, 4, 5])
def test_the_glance_legend_fits_inside_its_figure(n_counts):
    # five player counts in one legend row were wider than the figure and lost their ends
    counts = list(range(2, 2 + n_counts))
    units = [f"seat {i}" for i in range(counts[-1])]

    def cell(unit, n):
        seat = units.index(unit)
        return None if seat >= n else SimpleNamespace(verdict="inside", lo=-0.01, hi=0.008, deviation=-0.001,
                                                     name=unit, n=1000)

    glance = SimpleNamespace(player_counts=counts, units=units, band=0.03, cell=cell,
                             names={u: u for u in units}, unit_kind="seat")
    fig = charts.glance(glance)
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    legend, figure = fig.legends[0].get_window_extent(renderer), fig.bbox
    assert figure.x0 <= legend.x0 and legend.x1 <= figure.x1
