"""The report page of `sensitivity`: per verdict a tornado chart of the estimates with its
label, the overall influence ranking, and the estimates with their ranges and reasons.

Same page model and section order as the run report: the verdict labels first, then the
evidence, then what was run and the note on bots.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reports import _write, charts
from reports.model import Bullets, Chart, Column, Page, Paragraph, Section, Table

if TYPE_CHECKING:
    from analysis.sensitivity import Sensitivity

TORNADO_ROWS = 10
RULE = ("A verdict rests on an estimate when moving the estimate from its low to its high value "
        "changes the verdict significantly after Holm across the estimates of that verdict, and by "
        "at least half the fairness band. Effects are paired game by game (same seed in every arm); "
        "n counts paired games.")


def _labels_section(s: Sensitivity) -> Section:
    rows = [{**r, "top": ", ".join(r["top"][:3])} for r in s.labels.to_dicts()]
    cols = [Column("kind", "verdict"), Column("n_players", "players"), Column("unit", "faction / seat"),
            Column("label", "label"), Column("top", "largest effects")]
    return Section("Which estimates each verdict rests on", "labels",
                   [Paragraph(RULE), Table(cols, rows, caption=f"band +/- {s.band:g}; screen: {s.screen}")])


def _tornado_section(s: Sensitivity) -> Section:
    blocks = [Paragraph("Each bar is one estimate's effect on the verdict (high arm minus low arm); "
                        "whiskers are 95% game-clustered intervals; red bars are estimates the verdict "
                        "rests on; dashed lines mark half the fairness band.")]
    for key, g in s.ranked.group_by(["kind", "n_players", "unit"], maintain_order=True):
        label = s.label_of(*key) or ""
        blocks.append(Chart(charts.tornado(g.head(TORNADO_ROWS), f"{key[0]}, {key[1]}p, {key[2]}", s.band),
                            caption=f"{label}; n = {g['n'].max()} paired games"))
    return Section("Tornado charts", "tornado", blocks)


def _influence_section(s: Sensitivity) -> Section:
    cols = [Column("rank", "rank"), Column("estimate", "estimate"), Column("verdicts_resting", "verdicts resting on it"),
            Column("max_effect", "largest |effect|", "pp"), Column("mean_rank", "mean rank", "num")]
    blocks = [Chart(charts.influence_bars(s.influence)), Table(cols, s.influence.to_dicts())]
    if s.screened_out:
        blocks.append(Paragraph("Screened out (their members moved together did not shift any verdict; "
                                "opposite effects inside a group can cancel): " + ", ".join(s.screened_out)))
    return Section("Influence of the estimates", "influence", blocks)


def _estimates_section(s: Sensitivity) -> Section:
    cols = [Column("id", "estimate"), Column("base", "value"), Column("low", "low"), Column("high", "high"),
            Column("range_source", "range"), Column("range_why", "why this range"), Column("why", "why this value")]
    blocks = [Table(cols, s.estimates, caption="Ranges are derived from printed numbers, never from results.")]
    if s.skipped:
        blocks.append(Bullets([f"left out: {x}" for x in s.skipped]))
    return Section("The estimates and their ranges", "estimates", blocks)


def sensitivity_page(s: Sensitivity) -> Page:
    about = Section("What was run", "about", [Paragraph(
        f"{s.game} ({s.variant}): the untreated arm and a low and a high arm per estimate, "
        f"{s.n_games:,} games each on one seed. Bots are not people: these are the verdicts of scripted bots.")])
    return Page(f"Estimate sensitivity: {s.game}", f"variant {s.variant}",
                [_labels_section(s), _tornado_section(s), _influence_section(s), _estimates_section(s), about])


def write_sensitivity(s: Sensitivity, html_path, pdf_path) -> list[Path]:
    return _write(sensitivity_page(s), html_path, pdf_path)

