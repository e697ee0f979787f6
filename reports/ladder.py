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
from reports.experiments import _line_with_interval, closing_sections
from reports.formatting import pct
from reports.model import Bullets, Chart, Column, Page, Paragraph, Section, Table

if TYPE_CHECKING:
    from analysis.ladder import Ladder
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
    sections += closing_sections([(f"budget-{b}", m) for b, m in zip(budgets, s.manifests, strict=True)])
    return Page(f"Strength of {s.candidate} against {s.opponent}",
                f"Budgets {', '.join(map(str, budgets))}, rotated seats, one seed", sections)


def write_strength(s: Strength, html_path, pdf_path) -> list[Path]:
    return _write(strength_page(s), html_path, pdf_path)


LINE_STYLES = ("-o", "--s", ":^")


def ladder_chart(rates: pl.DataFrame, rungs: list[str], kind: str) -> charts.Figure:
    """Win rate against skill (rungs in order), one line per faction or seat, a panel per count."""
    groups = charts._by_count(rates)
    fig = charts.new_figure(height=2.8 * len(groups))
    x_of = {r: float(i) for i, r in enumerate(rungs)}
    for ax, (n, g) in zip(charts._axes_grid(fig, len(groups), ncols=1), groups, strict=True):
        ax.axhline(1 / n, color=charts.FAIR, lw=1.2)
        units = sorted(g["unit"].unique().to_list())
        for i, unit in enumerate(units):
            u = g.filter(pl.col("unit") == unit).sort(pl.col("rung").replace_strict(x_of, return_dtype=pl.Float64))
            offset = (i % 7 - 3) * 0.03  # keep overlapping intervals apart
            x = np.array([x_of[r] for r in u["rung"]]) + offset
            name = f"seat {unit}" if kind == "seat" else unit
            cycle = i // len(charts.PALETTE)  # past the palette's colours, a new line style
            _line_with_interval(ax, x, u["rate"].to_numpy(), u["lo"].to_numpy(), u["hi"].to_numpy(),
                                charts.PALETTE[i % len(charts.PALETTE)], name, LINE_STYLES[cycle % len(LINE_STYLES)])
        ax.set_xticks(list(x_of.values()), rungs)
        ax.set_xlabel("skill (rung)")
        charts._pct_axis(ax, "y")
        ax.set_title(f"{n} players")
        # beside the panel, not on it: with 19 races a legend inside covers the top rung's points
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=6, ncols=2 if len(units) > 10 else 1)
    fig.suptitle(f"{kind.capitalize()} win rate by rung (bar = 95% interval, green = 1/n)")
    return fig


def ladder_page(lad: Ladder) -> Page:
    top = lad.rungs[-1]
    evidence = [
        Chart(ladder_chart(lad.rates, lad.rungs, lad.kind)),
        Table([Column("n_players", "players", "int"), Column("unit", lad.kind),
               Column("label_greedy", "verdict at greedy"), Column("label_top", f"verdict at {top}"),
               Column("d", f"{top} - greedy (paired)"), Column("status", "across skill"),
               Column("mark", "mark")],
              build._rows(lad.across, d=lambda r: f"{100 * r['diff']:+.1f} pp ({100 * r['lo']:+.1f} to "
                                                  f"{100 * r['hi']:+.1f})"),
              caption=f"Verdict against 1/n +/- {100 * lad.band:g} pp: favoured / disfavoured = interval "
                      "above / below the band, fair = inside it. Flips: both decided and different; "
                      "strengthens / weakens: the paired difference is significant away from / towards "
                      "the fair share without a flip; holds: the same decided verdict."),
        Table([Column("rung", "rung"), Column("n_players", "players", "int"), Column("unit", lad.kind),
               Column("games", "games", "int"), Column("rate", "win rate", "pct"), Column("ci", "95% interval"),
               Column("rank", "rank", "int"), Column("label", "verdict")],
              build._rows(lad.rates, ci=lambda x: f"{pct(x['lo'])} to {pct(x['hi'])}")),
        Table([Column("n_players", "players", "int"), Column("rung_a", "rung A"), Column("rung_b", "rung B"),
               Column("units", f"{lad.kind}s", "int"), Column("tau", "Kendall tau", "num"),
               Column("p_value", "p", "p")], lad.taus.to_dicts(),
              caption="Kendall's tau-b between the win-rate rankings of two rungs."),
    ]
    power = [Paragraph(f"{lad.power_note}.")]
    if not lad.power.is_empty():
        power.append(Table([Column("rung", "rung"), Column("n_players", "players", "int"),
                            Column("faction", "faction"), Column("seats", "seats", "int"),
                            Column("used_share", "used its power", "pct")], lad.power.to_dicts(),
                           caption="Share of the faction's seats that used its power at least once."))
        power.append(Table([Column("n_players", "players", "int"), Column("faction", "faction"),
                            Column("used_share", f"used at {top}", "pct"), Column("reason", "reason")],
                           lad.power_flags.to_dicts(), caption="Powers used in under half the games at the top rung."))
    sections = [Section("Verdict", "verdict", [Bullets(list(lad.verdicts), css="verdicts")]),
                Section("Evidence", "evidence", evidence), Section("Power use by rung", "power", power)]
    sections += closing_sections(list(zip(lad.rungs, lad.manifests, strict=True)))
    return Page(f"Skill ladder: {lad.game} ({lad.variant})", f"Rungs: {', '.join(lad.rungs)}", sections)


def write_ladder(lad: Ladder, html_path, pdf_path) -> list[Path]:
    return _write(ladder_page(lad), html_path, pdf_path)
