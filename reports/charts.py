"""All charts, in one house style.

Figures are built with matplotlib's object API on the Agg canvas (no pyplot, no
global backend switch, safe in threads and on headless machines). Every figure can
be exported as inline SVG text for HTML and as PNG bytes for the PDF, so the two
reports show the same picture.
"""

from __future__ import annotations

import io
import math
import re

import matplotlib
import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

# House style: one palette, one type scale, light grid, no chart junk.
INK = "#222222"
MUTED = "#777777"
FAIR = "#2b7a3d"        # the fair line and band
BAND = "#d9eedd"
PALETTE = ["#1f5a96", "#c8553d", "#2b9348", "#8e6c8a", "#e0a030", "#3d9ec8", "#6b705c"]
VERDICT_COLOURS = {"outside": "#c8553d", "inside": "#2b9348", "undecided": "#1f5a96"}

STYLE = {
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Helvetica", "Arial", "sans-serif"],
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "axes.edgecolor": MUTED,
    "axes.labelcolor": INK,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#e6e6e6",
    "grid.linewidth": 0.6,
    "xtick.color": INK,
    "ytick.color": INK,
    "text.color": INK,
    "legend.frameon": False,
    "legend.fontsize": 8,
    "svg.fonttype": "none",       # keep text as text: small, selectable, searchable
    "svg.hashsalt": "brewbalance",  # deterministic element ids
    "figure.dpi": 100,
}

FOREST_CAPTION = ("Dot = win rate; bar = 95% interval; green line = fair share 1/n; shaded = "
                  "fairness band. Red: outside the band, green: inside, blue: undecided.")

WIDTH = 7.0  # inches: fits an A4 page with margins at 100% scale


def new_figure(height: float, width: float = WIDTH) -> Figure:
    """A blank figure in the house style, on an Agg canvas."""
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _axes_grid(fig: Figure, n: int, ncols: int = 3, sharex: bool = False):
    ncols = max(1, min(ncols, n))
    nrows = math.ceil(n / ncols)
    with matplotlib.rc_context(STYLE):
        axes = fig.subplots(nrows, ncols, squeeze=False, sharex=sharex)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.set_visible(False)
    return flat[:n]


def to_svg(fig: Figure, prefix: str) -> str:
    """Inline SVG text for HTML: no XML prolog, no metadata, and ids made unique with
    prefix so several charts can live in one page."""
    buf = io.StringIO()
    _save(fig, buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    svg = re.sub(r"<\?xml[^>]*\?>\s*", "", svg)
    svg = re.sub(r"<!DOCTYPE[^>]*>\s*", "", svg)
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    svg = _hover_titles(svg, getattr(fig, "hover", {}))
    ids = set(re.findall(r'id="([^"]+)"', svg))
    if ids:
        pattern = re.compile(r'(id="|#)(' + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r')(?=[")])')
        svg = pattern.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", svg)
    return svg.strip()


def _hover_titles(svg: str, hover: dict[str, str]) -> str:
    """Give each mark with a gid in `hover` an SVG <title>: browsers show it on hover."""
    from xml.sax.saxutils import escape

    def add(match: re.Match) -> str:
        text = hover.get(match.group(1))
        return match.group(0) + (f"<title>{escape(text)}</title>" if text else "")

    return re.sub(r'<g id="([^"]+)">', add, svg) if hover else svg


def _hover(ax, gid: str, text: str) -> str:
    """Register a mark's hover text on its figure (read by to_svg); returns the gid."""
    fig = ax.figure
    if not hasattr(fig, "hover"):
        fig.hover = {}
    fig.hover[gid] = text
    return gid


def _next_gid(ax) -> str:
    return f"h{len(getattr(ax.figure, 'hover', {}))}"


# Hover marks are drawn almost transparent rather than with colour "none": a browser sends
# pointer events only to painted SVG shapes, so an unpainted mark would never show its title.
HOVER_INK = (0.0, 0.0, 0.0, 0.01)


def _hover_rows(ax, lo, hi, y, texts) -> None:
    """Nearly invisible wide marks over interval rows (forest-style charts), each carrying its
    values as hover text in the HTML."""
    for a, b, yy, text in zip(lo, hi, y, texts, strict=True):
        _hover_only(ax.plot([a, b], [yy, yy], color=HOVER_INK, lw=8, zorder=4, gid=_hover(ax, _next_gid(ax), text)))


def _hover_points(ax, x, y, texts) -> None:
    """Nearly invisible dots over plotted points, each carrying its values on hover."""
    for xx, yy, text in zip(x, y, texts, strict=True):
        _hover_only(ax.plot([xx], [yy], "o", ms=8, color=HOVER_INK, zorder=4, gid=_hover(ax, _next_gid(ax), text)))


def _hover_only(lines) -> None:
    """Remember marks drawn only to carry hover text: the PNG (no hover) leaves them out."""
    fig = lines[0].figure
    fig.hover_marks = [*getattr(fig, "hover_marks", []), *lines]


def _hover_artists(ax, artists, texts) -> None:
    """Hover text on existing marks (bars, lines, cells), one per artist."""
    for artist, text in zip(artists, texts, strict=True):
        artist.set_gid(_hover(ax, _next_gid(ax), text))


def _ci(lo: float, hi: float, scale: float = 100, unit: str = "%") -> str:
    return f"95% interval {scale * lo:.1f}{unit} to {scale * hi:.1f}{unit}"


def to_png(fig: Figure, dpi: int = 150) -> bytes:
    """PNG bytes for the PDF, without the hover marks (a PNG has no hover)."""
    marks = [m for m in getattr(fig, "hover_marks", []) if m.get_visible()]
    for mark in marks:
        mark.set_visible(False)
    buf = io.BytesIO()
    try:
        _save(fig, buf, format="png", dpi=dpi)
    finally:
        for mark in marks:
            mark.set_visible(True)
    return buf.getvalue()


def _save(fig: Figure, buf, **kwargs) -> None:
    """savefig, then keep the layout it computed: the HTML's SVG and the PDF's PNG of one
    figure then share one constrained-layout pass, which costs about as much as drawing."""
    with matplotlib.rc_context(STYLE):
        fig.savefig(buf, **kwargs)
    fig.set_layout_engine("none")


def _pct_axis(ax, axis: str = "x") -> None:
    from matplotlib.ticker import PercentFormatter

    target = ax.xaxis if axis == "x" else ax.yaxis
    lo, hi = ax.get_xlim() if axis == "x" else ax.get_ylim()
    span = abs(hi - lo)
    # enough decimals that neighbouring ticks never print the same label
    decimals = 0 if span >= 0.2 else 1 if span >= 0.02 else 2
    target.set_major_formatter(PercentFormatter(xmax=1.0, decimals=decimals))


def _forest_panel(ax, labels, rate, lo, hi, verdicts, fair: float, band: float, title: str):
    """One forest panel: a dot and 95% bar per row, the fair line and band behind."""
    y = np.arange(len(labels))[::-1]
    ax.axvspan(fair - band, fair + band, color=BAND, zorder=0, lw=0)
    ax.axvline(fair, color=FAIR, lw=1.2, zorder=1)
    colours = [VERDICT_COLOURS.get(v, PALETTE[0]) for v in verdicts]
    ax.hlines(y, lo, hi, colors=colours, lw=2, zorder=2)
    ax.scatter(rate, y, color=colours, s=22, zorder=3)
    # Invisible wider marks carry the values shown on hover in the HTML.
    _hover_rows(ax, lo, hi, y, [f"{title}, {label}: {100 * r:.1f}% ({_ci(a, b)}), {v}"
                                for label, r, a, b, v in zip(labels, rate, lo, hi, verdicts, strict=True)])
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(labels) - 0.3)  # same row spacing whatever the seat count
    ax.set_title(title)
    ax.grid(axis="y", visible=False)
    _pct_axis(ax)


def _by_count(df: pl.DataFrame) -> list[tuple[int, pl.DataFrame]]:
    return [(int(k), df.filter(pl.col("n_players") == k)) for k in sorted(df["n_players"].unique())]


def seat_forest(seat_winrate: pl.DataFrame, band: float) -> Figure:
    """Seat win rates with 95% intervals, one panel per player count, fair line 1/n."""
    groups = _by_count(seat_winrate)
    rows = math.ceil(len(groups) / 3)
    fig = new_figure(height=max(2.0, 0.35 * max(len(g) for _, g in groups) + 1.0) * rows)
    for ax, (n, g) in zip(_axes_grid(fig, len(groups)), groups, strict=True):
        _forest_panel(ax, [f"seat {s}" for s in g["seat"]], g["rate"], g["lo"], g["hi"],
                      g["verdict"], 1 / n, band, f"{n} players")
    fig.suptitle("Seat win rate by player count")
    return fig


def faction_forest(faction_winrate: pl.DataFrame, band: float) -> Figure:
    """Faction win rates with 95% intervals, one panel per player count, sorted by rate."""
    groups = _by_count(faction_winrate)
    tallest = max(len(g) for _, g in groups)
    fig = new_figure(height=max(2.0, 0.28 * tallest + 1.0) * math.ceil(len(groups) / 2))
    for ax, (n, g) in zip(_axes_grid(fig, len(groups), ncols=2), groups, strict=True):
        g = g.sort("rate", descending=True)
        _forest_panel(ax, list(g["faction"]), g["rate"], g["lo"], g["hi"], g["verdict"],
                      1 / n, band, f"{n} players")
    fig.suptitle("Faction win rate by player count")
    return fig


def first_player(first: pl.DataFrame, band: float) -> Figure:
    """First-player advantage (rate - 1/n) with 95% interval by player count."""
    fig = new_figure(height=2.4)
    ax = fig.subplots()
    x = np.arange(len(first))
    ax.axhspan(-band, band, color=BAND, lw=0, zorder=0)
    ax.axhline(0, color=FAIR, lw=1.2)
    adv = first["advantage"].to_numpy()
    err = np.vstack([adv - (first["lo"] - first["fair"]).to_numpy(),
                     (first["hi"] - first["fair"]).to_numpy() - adv])
    ax.errorbar(x, adv, yerr=err, fmt="o", color=PALETTE[0], capsize=4, lw=1.5)
    _hover_points(ax, x, adv, [f"{n} players: seat 0 {100 * a:+.1f} pp from fair "
                               f"({_ci(lo - f, hi - f, unit=' pp')})" for n, a, lo, hi, f
                               in zip(first["n_players"], adv, first["lo"], first["hi"], first["fair"], strict=True)])
    ax.set_xticks(x, [f"{n}p" for n in first["n_players"]])
    ax.set_ylabel("advantage over fair share")
    _pct_axis(ax, "y")
    ax.set_title("First-player advantage: seat 0 win rate minus 1/n")
    return fig


def histogram(hist: pl.DataFrame, value: str, count: str, title: str, xlabel: str) -> Figure:
    """Distribution per player count as step lines of the share of observations."""
    fig = new_figure(height=2.6)
    ax = fig.subplots()
    for i, (n, g) in enumerate(_by_count(hist)):
        share = g[count].to_numpy() / g[count].sum()
        values = g[value].to_numpy()
        line, = ax.step(values, share, where="mid", color=PALETTE[i % len(PALETTE)], lw=1.5,
                        label=f"{n}p")
        mean = float((values * share).sum())
        _hover_artists(ax, [line], [f"{n} players: mean {xlabel} {mean:.2f}, "
                                    f"{int(g[count].sum()):,} observations"])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    _pct_axis(ax, "y")
    ax.set_title(title)
    ax.legend(ncols=min(6, hist["n_players"].n_unique()))
    return fig


def rate_bars(df: pl.DataFrame, rate: str, title: str, ylabel: str) -> Figure:
    """A proportion per player count as bars with 95% interval whiskers."""
    fig = new_figure(height=2.4)
    ax = fig.subplots()
    x = np.arange(len(df))
    values = df[rate].to_numpy()
    err = np.vstack([values - df["lo"].to_numpy(), df["hi"].to_numpy() - values])
    bars = ax.bar(x, values, color=PALETTE[0], width=0.6)
    ax.errorbar(x, values, yerr=np.clip(err, 0, None), fmt="none", ecolor=INK, capsize=4, lw=1)
    _hover_artists(ax, bars, [f"{n} players: {ylabel} {100 * v:.1f}% ({_ci(a, b)})" for n, v, a, b
                              in zip(df["n_players"], values, df["lo"], df["hi"], strict=True)])
    ax.set_xticks(x, [f"{n}p" for n in df["n_players"]])
    ax.set_ylabel(ylabel)
    _pct_axis(ax, "y")
    ax.set_title(title)
    return fig


def game_length(length: pl.DataFrame) -> Figure:
    """Mean decisions per game by player count, whiskers = one standard deviation."""
    fig = new_figure(height=2.4)
    ax = fig.subplots()
    x = np.arange(len(length))
    means, sds = length["mean_decisions"].to_numpy(), length["sd_decisions"].fill_null(0).to_numpy()
    bars = ax.bar(x, means, color=PALETTE[0], width=0.6, yerr=sds, ecolor=INK, capsize=4)
    _hover_artists(ax, bars, [f"{n} players: {m:.1f} decisions per game (sd {s:.1f})"
                              for n, m, s in zip(length["n_players"], means, sds, strict=True)])
    ax.set_xticks(x, [f"{n}p" for n in length["n_players"]])
    ax.set_ylabel("decisions per game")
    ax.set_title("Mean bot decisions per game (whisker = 1 sd)")
    return fig


def end_reasons(reasons: pl.DataFrame) -> Figure:
    """Share of each end reason, stacked, by player count."""
    fig = new_figure(height=2.2)
    ax = fig.subplots()
    counts = sorted(reasons["n_players"].unique())
    left = np.zeros(len(counts))
    for i, reason in enumerate(sorted(reasons["end_reason"].unique())):
        share = np.array([reasons.filter((pl.col("n_players") == n) & (pl.col("end_reason") == reason))["share"].sum()
                          for n in counts])
        bars = ax.barh([f"{n}p" for n in counts], share, left=left, color=PALETTE[i % len(PALETTE)],
                       label=reason, height=0.6)
        _hover_artists(ax, bars, [f"{n} players: {100 * s:.1f}% of games end by {reason}"
                                  for n, s in zip(counts, share, strict=True)])
        left += share
    _pct_axis(ax)
    ax.grid(axis="y", visible=False)
    ax.set_title("How games end")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncols=4)
    return fig


def card_value(cards: pl.DataFrame, limit: int = 30, basis: str = "played") -> Figure:
    """Win-rate difference (played, or acquired, minus not) per card with 95% interval.
    Shows the `limit` most-played rows so the chart stays readable; the table has all."""
    top = cards.sort("players_with", descending=True).head(limit).sort(["diff"], descending=True)
    labels = [f"{name} ({n}p)" for name, n in zip(top["name"], top["n_players"], strict=True)]
    fig = new_figure(height=max(2.0, 0.25 * len(top) + 1.0))
    ax = fig.subplots()
    y = np.arange(len(top))[::-1]
    ax.axvline(0, color=FAIR, lw=1.2)
    ax.hlines(y, top["diff_lo"], top["diff_hi"], colors=PALETTE[0], lw=2)
    ax.scatter(top["diff"], y, color=PALETTE[0], s=18, zorder=3)
    _hover_rows(ax, top["diff_lo"], top["diff_hi"], y,
                [f"{label}: {100 * d:+.1f} pp ({_ci(a, b, unit=' pp')}), association, not cause"
                 for label, d, a, b in zip(labels, top["diff"], top["diff_lo"], top["diff_hi"], strict=True)])
    ax.set_yticks(y, labels)
    ax.grid(axis="y", visible=False)
    _pct_axis(ax)
    ax.set_title(f"Card value: win rate when {basis} minus otherwise")
    return fig


def _pp_forest(labels: list[str], rows: pl.DataFrame, hover: str, title: str) -> Figure:
    """Differences of proportions (diff, lo, hi, significant) with 95% intervals, a row per
    label, red where significant; hover text `{label}: {hover} +x pp (ci)`."""
    fig = new_figure(height=max(2.0, 0.25 * len(rows) + 1.0))
    ax = fig.subplots()
    y = np.arange(len(rows))[::-1]
    colours = [VERDICT_COLOURS["outside"] if s else PALETTE[0] for s in rows["significant"]]
    ax.axvline(0, color=FAIR, lw=1.2)
    ax.hlines(y, rows["lo"], rows["hi"], colors=colours, lw=2)
    ax.scatter(rows["diff"], y, color=colours, s=18, zorder=3)
    _hover_rows(ax, rows["lo"], rows["hi"], y,
                [f"{lab}: {hover}{100 * d:+.1f} pp ({_ci(a, b, unit=' pp')})" for lab, d, a, b
                 in zip(labels, rows["diff"], rows["lo"], rows["hi"], strict=True)])
    ax.set_yticks(y, labels)
    ax.grid(axis="y", visible=False)
    _pct_axis(ax)
    ax.set_title(title)
    return fig


def difference_forest(metrics: pl.DataFrame) -> Figure:
    """Differences B - A of proportions with 95% intervals, one row per group."""
    return _pp_forest(list(metrics["group"]), metrics, "", "Win-rate change B - A (red = significant)")


def strength_forest(strength: pl.DataFrame) -> Figure:
    """Winner-model strengths (log-odds of winning, 0 = average) with 95% intervals:
    factions sorted by strength, or seats per player count; not-estimable rows are left out
    (the table names them). Red = differs from 0 after Holm."""
    kind = "faction" if (strength["kind"] == "faction").any() else "seat"
    rows = strength.filter((pl.col("kind") == kind) & pl.col("estimable"))
    rows = rows.sort("strength", descending=True) if kind == "faction" else rows.sort("n_players", "seat")
    labels = (list(rows["faction"]) if kind == "faction"
              else [f"{n}p seat {s}" for n, s in zip(rows["n_players"], rows["seat"], strict=True)])
    fig = new_figure(height=max(2.0, 0.28 * len(rows) + 1.0))
    ax = fig.subplots()
    y = np.arange(len(rows))[::-1]
    flags = rows["significant"] if "significant" in rows.columns else rows["significant_holm"]
    colours = [VERDICT_COLOURS["outside"] if s else PALETTE[0] for s in flags]
    ax.axvline(0, color=FAIR, lw=1.2)
    ax.hlines(y, rows["lo"], rows["hi"], colors=colours, lw=2)
    ax.scatter(rows["strength"], y, color=colours, s=20, zorder=3)
    _hover_rows(ax, rows["lo"], rows["hi"], y,
                [f"{label}: {s:+.2f} log-odds (95% interval {a:+.2f} to {b:+.2f})"
                 for label, s, a, b in zip(labels, rows["strength"], rows["lo"], rows["hi"], strict=True)])
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("strength (log-odds of winning; 0 = average)")
    ax.set_title(f"Who wins: {kind} strength, controlling for "
                 + ("seat and opponents" if kind == "faction" else "player count"))
    return fig


def copresence_heatmap(matrix: pl.DataFrame) -> Figure:
    """Head-to-head matrix: row faction's win rate minus its fair share when the column
    faction is at the table, diverging colours centred on 0, cells without games blank."""
    names = sorted(set(matrix["faction"]) | set(matrix["opponent"]))
    index = {name: i for i, name in enumerate(names)}
    grid = np.full((len(names), len(names)), np.nan)
    for row in matrix.iter_rows(named=True):
        grid[index[row["faction"]], index[row["opponent"]]] = row["deviation"]
    limit = max(float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 0.0, 0.01)
    size = max(3.0, 0.32 * len(names) + 1.8)
    fig = new_figure(height=size, width=min(WIDTH, size + 1.2))
    ax = fig.subplots()
    image = ax.imshow(grid, cmap="RdBu_r", vmin=-limit, vmax=limit)
    ax.set_xticks(range(len(names)), names, rotation=60, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.grid(False)
    ax.set_xlabel("opponent at the table")
    ax.set_ylabel("faction")
    from matplotlib.patches import Rectangle

    cells = [(i, j) for i in range(len(names)) for j in range(len(names)) if np.isfinite(grid[i, j])]
    marks = [ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=HOVER_INK, lw=0)) for i, j in cells]
    _hover_artists(ax, marks, [f"{names[i]} against {names[j]}: {100 * grid[i, j]:+.1f} pp from fair"
                               for i, j in cells])
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    from matplotlib.ticker import PercentFormatter
    bar.ax.yaxis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))
    ax.set_title("Head to head: win rate minus fair share")
    return fig


def _convergence_line(ax, s: pl.DataFrame, colour: str, label: str | None = None) -> None:
    x = s["cum_games"].to_numpy()
    ax.fill_between(x, s["lo"].to_numpy(), s["hi"].to_numpy(), color=colour, alpha=0.15, lw=0)
    line, = ax.plot(x, s["rate"].to_numpy(), color=colour, lw=1.3, label=label)
    last = s.tail(1).to_dicts()[0]
    _hover_artists(ax, [line], [f"{label or s['series'][0]}: {100 * last['rate']:.1f}% after "
                                f"{int(last['cum_games']):,} games ({_ci(last['lo'], last['hi'])})"])
    ax.plot(x, s["fair"].to_numpy(), color=FAIR, lw=0.8, ls="--")


def convergence(conv: pl.DataFrame) -> Figure:
    """Cumulative win rate as games accumulate, 95% band, dashed fair share: one small
    panel per faction (pooled over player counts), or one panel per player count with a
    line per seat."""
    by_faction = bool((conv["n_players"] == 0).all())
    if by_faction:
        panels = [(str(name), conv.filter(pl.col("series") == name).sort("bucket"))
                  for name in sorted(conv["series"].unique())]
        ncols = 4
    else:
        panels = [(f"{n} players", g) for n, g in _by_count(conv)]
        ncols = 2
    nrows = math.ceil(len(panels) / min(ncols, len(panels)))
    fig = new_figure(height=(1.6 if by_faction else 2.6) * nrows + 0.6)
    axes = _axes_grid(fig, len(panels), ncols=ncols)
    top = float(conv["hi"].max())
    for ax, (title, g) in zip(axes, panels, strict=True):
        if by_faction:
            _convergence_line(ax, g, PALETTE[0])
        else:
            for i, series in enumerate(sorted(g["series"].unique())):
                _convergence_line(ax, g.filter(pl.col("series") == series).sort("bucket"),
                                  PALETTE[i % len(PALETTE)], series)
            ax.legend(ncols=3, fontsize=7)
        ax.set_ylim(0, min(1.0, top * 1.05))
        ax.set_title(title, fontsize=8 if by_faction else 10)
        ax.tick_params(labelsize=7)
        _pct_axis(ax, "y")
    fig.suptitle("Win rate as games accumulate")
    return fig


COMEBACK_CAPTION = ("Share of players who went on to win, by how far behind the leader they were "
                    "after the round (deficit in the game's own points; 0 = leading or tied for "
                    "the lead). Bar = 95% interval; dashed line = fair share 1/n. Points from "
                    "fewer than 30 players are left out.")


def _spread_rounds(rounds: list[int], most: int = 5) -> list[int]:
    """At most `most` rounds, evenly spread from the first to the last, so long games stay legible."""
    if len(rounds) <= most:
        return rounds
    picks = np.linspace(0, len(rounds) - 1, most).round().astype(int)
    return [rounds[i] for i in sorted(set(picks))]


def comeback(comeback: pl.DataFrame, labels: list[str], min_players: int = 30) -> Figure:
    """Comeback odds: P(win) against the deficit bucket after a round, one panel per player
    count, one series per round (at most five, the same rounds and colours in every panel),
    with 95% interval bars."""
    from matplotlib.lines import Line2D

    data = comeback.filter(pl.col("players") >= min_players)
    groups = _by_count(data)
    shown = _spread_rounds(sorted(data["round"].unique().to_list()))
    colour = {r: PALETTE[i % len(PALETTE)] for i, r in enumerate(shown)}
    width = 0.6 / max(len(shown), 1)
    fig = new_figure(height=2.6 * math.ceil(max(len(groups), 1) / 3))
    axes = _axes_grid(fig, len(groups))
    for ax, (n, g) in zip(axes, groups, strict=True):
        for i, r in enumerate(shown):
            s = g.filter(pl.col("round") == r).sort("bucket")
            if s.is_empty():
                continue
            x = s["bucket"].to_numpy() + (i - (len(shown) - 1) / 2) * width
            rate = s["rate"].to_numpy()
            err = np.clip(np.vstack([rate - s["lo"].to_numpy(), s["hi"].to_numpy() - rate]), 0, None)
            ax.errorbar(x, rate, yerr=err, fmt="o-", ms=3, lw=1, capsize=2, color=colour[r])
            _hover_points(ax, x, rate, [f"{n} players, after round {r}, {labels[b]} behind: "
                                        f"{100 * v:.1f}% went on to win ({_ci(a, h)})" for b, v, a, h
                                        in zip(s["bucket"], rate, s["lo"], s["hi"], strict=True)])
        ax.axhline(1 / n, color=FAIR, lw=1, ls="--")
        ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
        ax.set_ylim(0, 1)
        ax.set_xlabel("points behind the leader")
        ax.set_title(f"{n} players")
        _pct_axis(ax, "y")
    if axes:  # one legend for every panel (proxies, so rounds missing from panel 1 still show)
        axes[0].legend([Line2D([], [], color=colour[r], marker="o", ms=3, lw=1) for r in shown],
                       [f"after round {r}" for r in shown], fontsize=7)
    fig.suptitle("Comeback odds: win rate by deficit after a round")
    return fig


GLANCE_MARKERS = ["o", "s", "^", "D", "v"]
GLANCE_WIDTH = 5.0  # inches: beside the glance table
GLANCE_CAPTION = ("Each row: a faction (or seat); one mark per player count. Dot = win rate minus "
                  "the fair share 1/n, in percentage points; bar = the interval the verdict was "
                  "decided on; shaded = the fairness band. Red: outside the band, blue: "
                  "undecided, green: inside.")


def glance(g) -> Figure:
    """The glance figure: deviation from fair share with its verdict interval, one row per
    unit (largest first), one mark per player count, coloured by verdict."""
    counts = g.player_counts
    fig = new_figure(height=0.19 * len(g.units) + 1.1, width=GLANCE_WIDTH)
    ax = fig.subplots()
    ax.axvspan(-100 * g.band, 100 * g.band, color=BAND, lw=0, zorder=0)
    ax.axvline(0, color=FAIR, lw=1.2, zorder=1)
    step = 0.6 / max(1, len(counts))
    hover = {}
    for row, unit in enumerate(g.units):
        y0 = len(g.units) - 1 - row
        for j, n in enumerate(counts):
            c = g.cell(unit, n)
            if c is None:
                continue
            y = y0 + (j - (len(counts) - 1) / 2) * step
            colour = VERDICT_COLOURS.get(c.verdict, PALETTE[0])
            gid = f"pt{len(hover)}"
            ax.plot([100 * c.lo, 100 * c.hi], [y, y], color=colour, lw=1.6, zorder=2, gid=gid + "b")
            ax.plot([100 * c.deviation], [y], GLANCE_MARKERS[j % len(GLANCE_MARKERS)], color=colour,
                    ms=4.5, zorder=3, gid=gid)
            text = (f"{c.name}, {n} players: {100 * c.deviation:+.1f} pp "
                    f"(interval {100 * c.lo:+.1f} to {100 * c.hi:+.1f}), {c.verdict}, n = {c.n:,}")
            _hover(ax, gid, text)
            _hover(ax, gid + "b", text)
            hover[gid] = text
    ax.set_yticks(range(len(g.units)), [g.names[u] for u in reversed(g.units)])
    ax.set_ylim(-0.7, len(g.units) - 0.3)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("win rate minus fair share (percentage points)")
    for j, n in enumerate(counts):
        ax.plot([], [], GLANCE_MARKERS[j % len(GLANCE_MARKERS)], color=INK, ms=4.5, label=f"{n} players")
    if len(counts) > 1:  # below the axis label, outside the axes (constrained layout makes room);
        # at most 3 a row: 5 in one row were wider than the figure and lost their ends
        fig.legend(loc="outside lower center", ncols=min(len(counts), 3))
    ax.set_title(f"Win rate minus fair share, by {g.unit_kind}")
    return fig


def tornado(rows: pl.DataFrame, title: str, band: float) -> Figure:
    """One verdict's estimates as a tornado: a bar per estimate from 0 to its effect (high arm
    minus low arm, in pp), the 95% interval as a whisker, the largest on top; dashed lines at
    +-half the band (the size an effect needs to count)."""
    rows = rows.sort("size", descending=True, nulls_last=True)
    fig = new_figure(height=0.9 + 0.28 * rows.height)
    ax = fig.subplots()
    y = np.arange(rows.height)[::-1]
    diff, lo, hi = (rows[c].fill_null(0.0).to_numpy() * 100 for c in ("diff", "lo", "hi"))
    colours = [VERDICT_COLOURS["outside"] if r else PALETTE[0] for r in rows["influential"].to_list()]
    ax.barh(y, diff, color=colours, height=0.6)
    ax.errorbar(diff, y, xerr=np.clip(np.vstack([diff - lo, hi - diff]), 0, None), fmt="none",
                ecolor=INK, capsize=2, lw=0.8)
    for x in (-band * 50, band * 50):
        ax.axvline(x, color=FAIR, lw=0.8, ls="--")
    ax.axvline(0, color=MUTED, lw=0.8)
    ax.set_yticks(y, rows["estimate"].to_list())
    ax.set_xlabel("effect, high minus low (pp)")
    ax.set_title(title)
    return fig


def influence_bars(influence: pl.DataFrame, limit: int = 20) -> Figure:
    """The estimates' largest effect on any verdict (pp), most influential on top."""
    rows = influence.head(limit)
    fig = new_figure(height=0.9 + 0.26 * rows.height)
    ax = fig.subplots()
    y = np.arange(rows.height)[::-1]
    ax.barh(y, rows["max_effect"].fill_null(0.0).to_numpy() * 100, color=PALETTE[0], height=0.6)
    ax.set_yticks(y, rows["estimate"].to_list())
    ax.set_xlabel("largest |effect| on a verdict (pp)")
    ax.set_title("Influence of each estimate")
    return fig


CAUSAL_MARKS = (("assoc", "association (holders - others)", "o", MUTED),
                ("blank_win", "causal: injection vs blank card", "s", PALETTE[0]),
                ("inject_win", "causal: injection vs untreated", "D", PALETTE[5]),
                ("itt", "causal ITT: randomised offer", "^", PALETTE[1]))


def causal_vs_association(cards: pl.DataFrame) -> Figure:
    """Per card and player count: the card table's association beside the causal values
    (injection against the blank card and against the untreated game, ITT) in win rate, each with its 95% interval; rows without a value skip it."""
    labels = [f"{c} ({n}p)" for c, n in zip(cards["card"], cards["n_players"], strict=True)]
    fig = new_figure(height=max(2.2, 0.42 * len(cards) + 1.3))
    ax = fig.subplots()
    y = np.arange(len(cards))[::-1].astype(float)
    ax.axvline(0, color=FAIR, lw=1.2)
    for i, (key, label, marker, colour) in enumerate(CAUSAL_MARKS):
        if key not in cards.columns:
            continue
        est = cards[key].cast(pl.Float64).to_numpy()
        lo, hi = (cards[f"{key}_lo"].cast(pl.Float64).to_numpy(), cards[f"{key}_hi"].cast(pl.Float64).to_numpy())
        keep = ~np.isnan(est)
        ys = y[keep] + (1.5 - i) * 0.17
        ax.hlines(ys, lo[keep], hi[keep], colors=colour, lw=1.6)
        ax.scatter(est[keep], ys, color=colour, marker=marker, s=20, zorder=3, label=label)
        _hover_rows(ax, lo[keep], hi[keep], ys,
                    [f"{lab}: {label} {100 * e:+.1f} pp ({_ci(a, b, unit=' pp')})"
                     for lab, e, a, b in zip(np.array(labels)[keep], est[keep], lo[keep], hi[keep], strict=True)])
    ax.set_yticks(y, labels)
    ax.grid(axis="y", visible=False)
    _pct_axis(ax)
    ax.set_title("Card value in win rate: association vs cause")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=2, fontsize=7)
    return fig


def power_forest(powers: pl.DataFrame) -> Figure:
    """Power value (untreated - power off) in win rate per faction, a row per player count;
    not-estimable rows are left out."""
    rows = powers.filter((pl.col("measure") == "win") & (pl.col("n") > 0)).sort("faction", "n_players")
    labels = [f"{f} ({n}p)" for f, n in zip(rows["faction"], rows["n_players"], strict=True)]
    return _pp_forest(labels, rows, "power worth ", "Power value: win rate, power on - off")
