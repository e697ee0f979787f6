"""Report pages of the skill ladder: `strength` (search against an opponent by budget) and
`robustness --ladder` (verdicts by rung, power use by rung).

Same page model and house style as the other multi-arm pages (reports/experiments.py):
verdict first, then the evidence, then what was run.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from reports import _write, build, charts
from reports.experiments import _closing, _line_with_interval
from reports.formatting import pct
from reports.model import Bullets, Chart, Column, Page, Section, Table

if TYPE_CHECKING:
    from analysis.strength import Strength


def _log2_axis(ax, values: list[int], label: str) -> np.ndarray:
    """Budgets on a log2 axis (4, 16, 64 evenly spaced), one tick per budget run."""
    x = np.log2(np.array(values, dtype=float))
    ax.set_xticks(x, [str(v) for v in values])
    ax.set_xlabel(label)
    return x


def strength_chart(share: pl.DataFrame) -> charts.Figure:
    """Win share per seat against budget, one line per player count, with the fair shares."""
    fig = charts.new_figure(height=2.8)
    ax = fig.subplots()
    budgets = sorted(share["budget"].unique().to_list())
    pos = dict(zip(budgets, _log2_axis(ax, budgets, "budget (rollouts per decision)"), strict=True))
    for i, (n, g) in enumerate(charts._by_count(share)):
        colour = charts.PALETTE[i % len(charts.PALETTE)]
        ax.axhline(1 / n, color=colour, lw=0.8, ls=":")
        _line_with_interval(ax, np.array([pos[b] for b in g["budget"]]), g["share"].to_numpy(),
                            g["lo"].to_numpy(), g["hi"].to_numpy(), colour, f"{n} players")
    charts._pct_axis(ax, "y")
    ax.legend(loc="best")
    ax.set_title("Search win share per seat by budget (dotted = fair share 1/n)")
    return fig


def strength_page(s: Strength) -> Page:
    table = Table([Column("n_players", "players", "int"), Column("budget", "budget", "int"),
                   Column("games", "games", "int"), Column("share", "win share / seat", "pct"),
                   Column("ci", "95% interval"), Column("ratio", "x fair", "ratio"),
                   Column("diff_ci", "vs best budget (paired)"), Column("games_per_s", "games/s", "num"),
                   Column("rollouts_per_s", "rollouts/s", "num")],
                  build._rows(s.share, ci=lambda r: f"{pct(r['lo'])} to {pct(r['hi'])}",
                              diff_ci=lambda r: f"{100 * r['diff_best']:+.1f} pp ({100 * r['diff_lo']:+.1f} "
                                                f"to {100 * r['diff_hi']:+.1f})"),
                  caption="Win share per seat = the candidate's wins (a j-way tie counts 1/j) over its "
                          "seats; fair = 1/n per seat whatever its number of seats; x fair = share x n. "
                          "Interval game-clustered (the seats of a game are not independent). "
                          "The paired column compares each budget with the best one game by game on "
                          "the shared deals. games/s and rollouts/s: the arm's games and the players "
                          "column search_rollouts over its simulation wall time in this command.")
    evidence = [Chart(strength_chart(s.share), "Bar = game-clustered 95% interval."), table,
                Table([Column("n_players", "players", "int"), Column("best_budget", "best budget", "int"),
                       Column("stop_budget", "stops improving at", "int")], s.stops.to_dicts(),
                      caption="Stops improving at: the smallest budget whose paired 95% interval "
                              "against the best budget reaches 0 (not significantly below it).")]
    sections = [Section("Verdict", "verdict", [Bullets(list(s.verdicts), css="verdicts")]),
                Section("Evidence", "evidence", evidence)]
    budgets = sorted(s.share["budget"].unique().to_list())
    sections += _closing([(f"budget-{b}", m) for b, m in zip(budgets, s.manifests, strict=True)])
    return Page(f"Strength of {s.candidate} against {s.opponent}",
                f"Budgets {', '.join(map(str, budgets))}, rotated seats, one seed", sections)


def write_strength(s: Strength, html_path, pdf_path) -> list[Path]:
    return _write(strength_page(s), html_path, pdf_path)


