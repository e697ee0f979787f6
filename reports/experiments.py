"""Report pages of the multi-arm commands: `experiment`, `sweep` and `robustness`.

Same page model, house style and section order as the run report: verdict first, then the
evidence, then what was run (provenance of every arm) and the note on bots.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from reports import _write, build, charts
from reports.formatting import pct, pp
from reports.model import Bullets, Chart, Column, Page, Paragraph, Section, Table

if TYPE_CHECKING:
    from analysis.experiment import Experiment
    from analysis.robustness import Robustness
    from analysis.sweep import Sweep


# ---------------------------------------------------------------- charts
def _numeric(values: list) -> np.ndarray | None:
    try:
        return np.array([float(v) for v in values])
    except (TypeError, ValueError):
        return None


def _x_axis(ax, values: list[str], label: str) -> np.ndarray:
    """Numeric x positions when every value is a number, else evenly spaced labels."""
    x = _numeric(values)
    if x is None:
        x = np.arange(len(values), dtype=float)
    ax.set_xticks(x, values)  # one tick per arm: the values actually run
    ax.set_xlabel(label)
    return x


def _line_with_interval(ax, x, y, lo, hi, colour, label: str, fmt: str = "-o") -> None:
    err = np.clip(np.vstack([y - lo, hi - y]), 0, None)
    ax.errorbar(x, y, yerr=err, fmt=fmt, color=colour, capsize=3, lw=1.3, ms=4, label=label)


def sweep_metric(table: pl.DataFrame, column: str, key: str, title: str, zero_line: bool) -> charts.Figure:
    """One metric (with <column>_lo/_hi) against the parameter, one line per player count."""
    fig = charts.new_figure(height=2.6)
    ax = fig.subplots()
    values = list(dict.fromkeys(table["value"].to_list()))
    x = _x_axis(ax, values, key)
    pos = dict(zip(values, x, strict=True))
    if zero_line:
        ax.axhline(0, color=charts.FAIR, lw=1.2)
    for i, (n, g) in enumerate(charts._by_count(table)):
        x_n, y = np.array([pos[v] for v in g["value"]]), g[column].to_numpy()
        colour = charts.PALETTE[i % len(charts.PALETTE)]
        if f"{column}_lo" in table.columns:
            _line_with_interval(ax, x_n, y, g[f"{column}_lo"].to_numpy(), g[f"{column}_hi"].to_numpy(),
                                colour, f"{n}p")
        else:  # a description without a valid interval: no bars
            ax.plot(x_n, y, "-o", color=colour, lw=1.3, ms=4, label=f"{n}p")
    charts._pct_axis(ax, "y")
    ax.set_title(title)
    ax.legend()
    return fig


def sweep_units(table: pl.DataFrame, key: str, kind: str) -> charts.Figure:
    """Every faction's (or seat's) win rate against the parameter, a panel per player count."""
    groups = charts._by_count(table)
    fig = charts.new_figure(height=2.8 * -(-len(groups) // 2))
    values = list(dict.fromkeys(table["value"].to_list()))
    for ax, (n, g) in zip(charts._axes_grid(fig, len(groups), ncols=2), groups, strict=True):
        x = _x_axis(ax, values, key)
        pos = dict(zip(values, x, strict=True))
        ax.axhline(1 / n, color=charts.FAIR, lw=1.2)
        for i, unit in enumerate(sorted(g["unit"].unique())):
            u = g.filter(pl.col("unit") == unit)
            _line_with_interval(ax, np.array([pos[v] for v in u["value"]]), u["rate"].to_numpy(),
                                u["lo"].to_numpy(), u["hi"].to_numpy(),
                                charts.PALETTE[i % len(charts.PALETTE)], f"{kind} {unit}" if kind == "seat" else unit)
        charts._pct_axis(ax, "y")
        ax.set_title(f"{n} players")
    handles, labels = fig.axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 4))
    fig.suptitle(f"{kind.capitalize()} win rate against {key} (green line = 1/n)")
    return fig


def robustness_dots(rates: pl.DataFrame, arms: list[str], kind: str) -> charts.Figure:
    """Win rate of each faction (or seat) under each bot setting, a panel per player count."""
    groups = charts._by_count(rates)
    tallest = max(g["unit"].n_unique() for _, g in groups)
    fig = charts.new_figure(height=max(2.2, 0.3 * tallest + 1.2) * -(-len(groups) // 2))
    for ax, (n, g) in zip(charts._axes_grid(fig, len(groups), ncols=2), groups, strict=True):
        units = sorted(g["unit"].unique())
        y = {u: i for i, u in enumerate(units[::-1])}
        ax.axvline(1 / n, color=charts.FAIR, lw=1.2)
        for i, arm in enumerate(arms):
            a = g.filter(pl.col("arm") == arm)
            offset = (i - (len(arms) - 1) / 2) * 0.18
            ys = np.array([y[u] for u in a["unit"]]) + offset
            colour = charts.PALETTE[i % len(charts.PALETTE)]
            ax.hlines(ys, a["lo"], a["hi"], colors=colour, lw=1.5)
            ax.scatter(a["rate"], ys, color=colour, s=14, zorder=3, label=arm)
        ax.set_yticks(list(y.values()), [f"{kind} {u}" if kind == "seat" else u for u in y])
        ax.grid(axis="y", visible=False)
        charts._pct_axis(ax)
        ax.set_title(f"{n} players")
    handles, labels = fig.axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(arms), 6))
    fig.suptitle(f"{kind.capitalize()} win rate by bot setting (bar = 95% interval, green = 1/n)")
    return fig


# ---------------------------------------------------------------- pages
def _arm_provenance(name: str, manifest: dict) -> Section:
    section = build.provenance_section(manifest, f"Provenance of arm {name}", f"provenance-{name}")
    section.level = 3  # under one "Provenance of the arms" heading: a page may have dozens of arms
    return section


def closing_sections(arms: list[tuple[str, dict]]) -> list[Section]:
    """Provenance of every arm (name, manifest), the estimated data values (of the first
    arm: arms share their data files, changed only by their recorded overrides) and the
    note on bots. The multi-arm reports (experiment, sweep, robustness, cards, powers,
    strength, ladder) all end with these."""
    estimates = [x for x in arms[0][1].get("estimates") or [] if isinstance(x, dict)]
    heading = Section("Provenance of the arms", "provenance", [Paragraph(
        f"{len(arms)} arms, each an ordinary run folder under arms/ (report, compare and replay work on it).")])
    return ([heading, *(_arm_provenance(n, m) for n, m in arms)]
            + [build.estimates_section(estimates), build.bots_section()])


def experiment_page(e: Experiment) -> Page:
    sections = [Section("Verdict", "verdict", [Bullets(list(e.verdicts), css="verdicts"), Paragraph(
        "Every arm plays the same games as the reference: same seed, same player counts, so "
        "the same deals and dice in game i. Each difference is the mean of game-by-game "
        "differences with a paired t interval; variance reduction = unpaired variance of the "
        "difference / paired variance (above 1: pairing made the interval narrower).")]),
        Section("Evidence", "evidence", [])]
    for arm in e.arms:
        rows = arm.key_rows
        wins = rows.filter(pl.col("metric").is_in(["seat win rate", "faction win rate"]))
        blocks = [Paragraph(f"Change: {arm.change}.")]
        if wins.height:
            blocks.append(Chart(charts.difference_forest(wins), "Win-rate change arm - reference "
                                "with 95% paired interval; red = interval excludes 0."))
        blocks.append(Table([
            Column("metric", "metric"), Column("group", "group"), Column("a", "reference"),
            Column("b", "arm"), Column("d", "arm - reference"), Column("ci", "95% interval"),
            Column("p_holm", "p (Holm)", "p"), Column("holm", "Holm sig."),
            Column("variance_reduction", "variance reduction", "ratio"),
        ], build._metric_rows(rows), caption="Each row is paired game by game over the games both "
           "arms played (n = paired games); a faction's rate is its wins per seat (a faction seated "
           "twice counts twice), paired as a ratio. Holm: across this arm's seat and faction "
           "win-rate rows."))
        sections.append(Section(f"Arm {arm.name} vs {e.reference}", f"arm-{arm.name}", blocks, level=3))
    manifests = [(e.reference, e.arms[0].comparison.manifest_a)]
    sections += closing_sections(manifests + [(a.name, a.comparison.manifest_b) for a in e.arms])
    game = e.arms[0].comparison.manifest_a.get("game", "?")
    return Page(f"Experiment: {game}, {len(e.arms) + 1} arms on shared seeds",
                f"Reference arm: {e.reference}", sections)


def sweep_page(s: Sweep) -> Page:
    shape = s.shape_table()
    units = s.units_table()
    evidence = [
        Chart(sweep_metric(shape, "sd_net", s.key, f"Between-{s.kind} SD of win rates, net of noise", False),
              f"Dot = SD of the {s.kind} win rates minus what sampling noise alone gives (game-clustered), "
              "n = games per arm and player count. Whether the rates differ at all is the "
              "heterogeneity test in the table."),
        Chart(sweep_metric(shape, "fpa", s.key, "First-player advantage (seat 0 rate - 1/n)", True),
              "Bar = Wilson 95% interval of seat 0's win rate, shifted by 1/n."),
        Chart(sweep_units(units, s.key, s.kind), "Bar = Wilson 95% interval."),
        Table([Column("value", s.key), Column("n_players", "players", "int"),
               Column("games", "games", "int"),
               Column("spread", "spread (max - min)", "pp"), Column("sd_net", "SD net of noise", "pp"),
               Column("het_chi2", "chi-square", "num"), Column("het_df", "df", "int"),
               Column("het_p_holm", "p differ (Holm)", "p"),
               Column("fpa", "first-player adv.", "pp"), Column("fpa_ci", "95% interval"),
               Column("fpa_diff", "adv. change (paired)", "pp"), Column("fpa_diff_ci", "95% interval"),
               Column("variance_reduction", "variance reduction", "ratio")],
              build._rows(shape, fpa_ci=lambda r: f"{pp(r['fpa_lo'])} to {pp(r['fpa_hi'])}",
                          fpa_diff_ci=lambda r: ("reference" if np.isnan(r["fpa_diff"]) else
                                                 f"{pp(r['fpa_diff_lo'])} to {pp(r['fpa_diff_hi'])}")),
              caption=f"n = games. Heterogeneity: Wald chi-square test that every {s.kind} of the arm "
                      "has the same win rate, with a game-clustered covariance (units sharing a "
                      "game, copies and shared wins accounted for), Holm-adjusted across every arm "
                      "and player count. The spread is descriptive only: it is biased up by noise and "
                      "has no valid simple interval, so no value is called best on it. Paired change: "
                      f"seat 0's win rate against {s.key} = {s.arms[0].value}, game by game on the "
                      "shared deals."),
        Table([Column("value", s.key), Column("n_players", "players", "int"), Column("unit", s.kind),
               Column("games", "seats" if s.kind == "faction" else "games", "int"),
               Column("rate", "win rate", "pct"), Column("ci", "95% interval")],
              build._rows(units, ci=lambda r: f"{pct(r['lo'])} to {pct(r['hi'])}"),
              caption=("n = seats (player-games) of the faction; Wilson interval per seat"
                       if s.kind == "faction" else "n = games; Wilson interval")),
    ]
    sections = [Section("Verdict", "verdict", [Bullets(list(s.verdicts), css="verdicts")]),
                Section("Evidence", "evidence", evidence)]
    sections += closing_sections([(f"{s.key}={a.value}", a.manifest) for a in s.arms])
    return Page(f"Sweep of {s.key}", f"{len(s.arms)} arms on a shared seed", sections)


def robustness_page(r: Robustness, arms: list[tuple[str, str]]) -> Page:
    names = [a for a, _ in arms]
    evidence = [
        Chart(robustness_dots(r.rates, names, r.kind)),
        Table([Column("n_players", "players", "int"), Column("arm_a", "bots A"), Column("arm_b", "bots B"),
               Column("units", f"{r.kind}s", "int"), Column("tau", "Kendall tau", "num"),
               Column("p_value", "p", "p")], r.taus.to_dicts(),
              caption="Kendall's tau-b between the win-rate rankings (scipy.stats.kendalltau): 1 = same "
                      "order, 0 = unrelated, -1 = reversed."),
        Table([Column("arm", "bots"), Column("n_players", "players", "int"), Column("unit", r.kind),
               Column("games", "games", "int"), Column("rate", "win rate", "pct"), Column("ci", "95% interval"),
               Column("rank", "rank", "int"), Column("verdict", "verdict")],
              build._rows(r.rates, ci=lambda x: f"{pct(x['lo'])} to {pct(x['hi'])}"),
              caption=f"Verdict against 1/n +/- {100 * r.band:g} pp: strong / weak = whole interval "
                      "above / below the band, fair = inside it, else undecided."),
    ]
    if r.flips.height:
        evidence.append(Table([Column("n_players", "players", "int"), Column("unit", r.kind),
                               Column("arm_a", "bots A"), Column("verdict_a", "verdict A"),
                               Column("arm_b", "bots B"), Column("verdict_b", "verdict B")],
                              r.flips.to_dicts(), caption="Conclusions that flip with the bot."))
    sections = [Section("Verdict", "verdict", [Bullets(list(r.verdicts), css="verdicts")]),
                Section("Evidence", "evidence", evidence)]
    sections += closing_sections(list(zip(names, r.manifests, strict=True)))
    return Page("Robustness of balance conclusions to the bots", f"Bot settings: {', '.join(names)}", sections)


def write_experiment(e: Experiment, html_path, pdf_path) -> list[Path]:
    return _write(experiment_page(e), html_path, pdf_path)


def write_sweep(s: Sweep, html_path, pdf_path) -> list[Path]:
    return _write(sweep_page(s), html_path, pdf_path)


def write_robustness(r: Robustness, arms: list[tuple[str, str]], html_path, pdf_path) -> list[Path]:
    return _write(robustness_page(r, arms), html_path, pdf_path)
