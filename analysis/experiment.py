"""A paired experiment: several arms of one game on the same seed, each compared with
the first (the reference) game by game.

Each comparison is `analysis.compare` on two run folders that share their deals, so it
uses the paired analysis (paired t intervals, variance reduction against unpaired
sampling). This module picks the rows a designer asks an experiment about (win rate by
seat and faction, first-player advantage, mean score) and summarises them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import polars as pl

from analysis.comparison import Comparison, compare
from analysis.text import pp

KEY_METRICS = ("seat win rate", "faction win rate", "first-player advantage", "mean score")


@dataclass
class ArmResult:
    """One arm against the reference: its name, what it changes, and the comparison."""

    name: str
    change: str
    comparison: Comparison

    @property
    def records(self) -> list:
        """The comparison's Verdict records, each noting this arm against the reference."""
        return [replace(v, note=f"arm {self.name} ({self.change}) - reference")
                for v in self.comparison.records]

    @property
    def key_rows(self) -> pl.DataFrame:
        return self.comparison.metrics.filter(pl.col("metric").is_in(list(KEY_METRICS)))


@dataclass
class Experiment:
    """The reference arm and every other arm compared with it (differences arm - reference)."""

    reference: str
    reference_change: str
    arms: list[ArmResult]
    band: float
    verdicts: list[str] = field(default_factory=list)


def median_variance_reduction(rows: pl.DataFrame) -> float:
    """Median over finite variance ratios (unpaired / paired); NaN when there is none."""
    vr = rows["variance_reduction"].to_numpy().astype(float)
    vr = vr[np.isfinite(vr)]
    return float(np.median(vr)) if vr.size else float("nan")


def _ratio(x: float) -> str:
    return "n/a" if np.isnan(x) else f"{x:.2f}x"


def _score_rows(rows: pl.DataFrame) -> pl.DataFrame:
    return rows.filter(pl.col("metric") == "mean score")


def arm_lines(arm: ArmResult) -> list[str]:
    """Verdict lines of one arm: significant win-rate changes after Holm, the score
    change, and what pairing bought."""
    rows = arm.key_rows
    c = arm.comparison
    lines = [f"{arm.name} ({arm.change}) vs reference, {c.n_paired:,} paired games:"]
    wins = rows.filter(pl.col("metric").is_in(["seat win rate", "faction win rate"]))
    hits = wins.filter(pl.col("significant_holm").fill_null(False))
    if hits.is_empty():
        lines.append(f"  no seat or faction win rate changes significantly (Holm across {len(wins)} tests).")
    for r in hits.sort("diff").to_dicts():
        lines.append(f"  {r['metric']}, {r['group']}: {pp(r['diff'])} "
                     f"(95% CI {pp(r['lo'])} to {pp(r['hi'])}), significant after Holm.")
    for r in _score_rows(rows).to_dicts():
        lines.append(f"  mean score, {r['group']}: {r['diff']:+.2f} (95% CI {r['lo']:+.2f} to {r['hi']:+.2f}).")
    vr_win, vr_score = median_variance_reduction(wins), median_variance_reduction(_score_rows(rows))
    lines.append(f"  variance reduction from pairing (unpaired / paired variance): win rates median "
                 f"{_ratio(vr_win)}, mean score {_ratio(vr_score)}.")
    return lines


def run_experiment(reference: tuple[str, str, Path], arms: list[tuple[str, str, Path]],
                   band: float = 0.03) -> Experiment:
    """Compare each arm's run folder with the reference's.

    Args:
        reference: (name, description of its change, run folder) of the first arm.
        arms: the same for every other arm.
        band: fairness band passed to the comparison.
    """
    name, change, folder = reference
    results = [ArmResult(n, ch, compare(folder, f, band)) for n, ch, f in arms]
    exp = Experiment(name, change, results, band)
    unpaired = [r.name for r in results if not r.comparison.paired]
    exp.verdicts = [f"Reference arm: {name} ({change}). Differences are arm - reference."]
    if unpaired:
        exp.verdicts.append(f"Warning: arms {', '.join(unpaired)} do not share the reference's deals; "
                            "they were compared as independent samples.")
    for r in results:
        exp.verdicts += arm_lines(r)
    return exp
