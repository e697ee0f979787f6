"""`compare`: the difference between two runs, metric by metric, with intervals.

The runs are treated as independent samples, which is conservative when they share
a seed (paired analysis would give tighter intervals). Each difference is B - A.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis.core import RunAnalysis, analyze
from analysis.stats import INSIDE, OUTSIDE, mean_diff, newcombe_diff
from analysis.text import count, pct, pp

METRIC_COLUMNS = ("metric", "group", "value_a", "value_b", "diff", "lo", "hi", "significant",
                  "kind")


@dataclass
class Comparison:
    """Two runs side by side. `metrics` has one row per (metric, group) with
    value_a, value_b, diff = B - A, its 95% interval lo..hi, and significant
    (interval excludes 0). `kind` is 'rate' (a proportion) or 'mean'."""

    run_a: str
    run_b: str
    manifest_a: dict
    manifest_b: dict
    band: float
    metrics: pl.DataFrame
    verdicts: list[str] = field(default_factory=list)
    estimates_a: list[dict] = field(default_factory=list)
    estimates_b: list[dict] = field(default_factory=list)


def _rate_rows(metric: str, a: pl.DataFrame, b: pl.DataFrame, keys: list[str], label,
               wins: str = "wins", n: str = "games", offset: str | None = None) -> pl.DataFrame:
    """Rows comparing a proportion present in both tables (matched on keys). With
    `offset`, values are shown relative to that column (e.g. the fair share)."""
    joined = a.join(b, on=keys, how="inner", suffix="_b").sort(keys)
    if joined.is_empty():
        return _empty()
    diff, lo, hi = newcombe_diff(joined[f"{wins}_b"].to_numpy(), joined[f"{n}_b"].to_numpy(),
                                 joined[wins].to_numpy(), joined[n].to_numpy())
    value_a = joined[wins].to_numpy() / joined[n].to_numpy()
    if offset:
        value_a = value_a - joined[offset].to_numpy()
    return _rows(metric, [label(r) for r in joined.to_dicts()], value_a, value_a + diff,
                 diff, lo, hi, "rate")


def _mean_rows(metric: str, a: pl.DataFrame, b: pl.DataFrame, keys: list[str], label,
               mean: str = "mean", sd: str = "sd", n: str = "n") -> pl.DataFrame:
    """Rows comparing a mean present in both tables, with a Welch interval."""
    joined = a.join(b, on=keys, how="inner", suffix="_b").sort(keys)
    if joined.is_empty():
        return _empty()
    cols = [joined[c].to_numpy().astype(float) for c in (f"{mean}_b", f"{sd}_b", f"{n}_b",
                                                        mean, sd, n)]
    diff, lo, hi = mean_diff(*cols)
    return _rows(metric, [label(r) for r in joined.to_dicts()], cols[3], cols[0],
                 diff, lo, hi, "mean")


def _rows(metric, groups, value_a, value_b, diff, lo, hi, kind) -> pl.DataFrame:
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    return pl.DataFrame({
        "metric": [metric] * len(groups),
        "group": groups,
        "value_a": np.asarray(value_a, dtype=float),
        "value_b": np.asarray(value_b, dtype=float),
        "diff": np.asarray(diff, dtype=float),
        "lo": lo,
        "hi": hi,
        "significant": (lo > 0) | (hi < 0),
        "kind": [kind] * len(groups),
    })


def _empty() -> pl.DataFrame:
    return pl.DataFrame(schema={"metric": pl.String, "group": pl.String, "value_a": pl.Float64,
                                "value_b": pl.Float64, "diff": pl.Float64, "lo": pl.Float64,
                                "hi": pl.Float64, "significant": pl.Boolean, "kind": pl.String})


def _length_stats(x: RunAnalysis, what: str) -> pl.DataFrame:
    return x.game_length.select("n_players", mean=f"mean_{what}", sd=f"sd_{what}", n="games")


def _count_label(row: dict) -> str:
    return f"{row['n_players']}p"


def _seat_label(row: dict) -> str:
    return f"seat {row['seat']}, {row['n_players']}p"


def _faction_label(row: dict) -> str:
    return f"{row['faction']}, {row['n_players']}p"


def metrics_table(a: RunAnalysis, b: RunAnalysis) -> pl.DataFrame:
    """All compared metrics, in report order."""
    by_count = ["n_players"]
    parts = [
        _rate_rows("seat win rate", a.seat_winrate, b.seat_winrate, ["n_players", "seat"],
                   _seat_label),
        _rate_rows("first-player advantage", a.first_player, b.first_player, by_count,
                   _count_label, offset="fair"),
        _rate_rows("faction win rate", a.faction_winrate, b.faction_winrate,
                   ["n_players", "faction"], _faction_label)
        if a.has_factions and b.has_factions else _empty(),
        _rate_rows("tie rate", a.tie_rate, b.tie_rate, by_count, _count_label, wins="ties"),
        _mean_rows("mean score", a.scores, b.scores, by_count, _count_label, n="players"),
        _mean_rows("mean rounds", _length_stats(a, "rounds"), _length_stats(b, "rounds"),
                   by_count, _count_label),
        _mean_rows("mean decisions", _length_stats(a, "decisions"), _length_stats(b, "decisions"),
                   by_count, _count_label),
    ]
    for table_a, table_b, unit in ((a.player_extra_means, b.player_extra_means, "per player"),
                                   (a.game_extra_means, b.game_extra_means, "per game")):
        if table_a.is_empty() or table_b.is_empty():
            continue
        for metric in sorted(set(table_a["metric"]) & set(table_b["metric"])):
            parts.append(_mean_rows(f"mean {metric} ({unit})",
                                    table_a.filter(pl.col("metric") == metric),
                                    table_b.filter(pl.col("metric") == metric),
                                    by_count, _count_label))
    return pl.concat(parts, how="vertical")


def _fmt_value(kind: str, x: float) -> str:
    return pct(x) if kind == "rate" else f"{x:.2f}"


def _fmt_diff(kind: str, x: float) -> str:
    return pp(x) if kind == "rate" else f"{x:+.2f}"


def _label(manifest: dict, run: str) -> str:
    return f"{manifest.get('game', '?')}/{manifest.get('variant', '?')} ({Path(run).name})"


def compare_lines(a: RunAnalysis, b: RunAnalysis, metrics: pl.DataFrame) -> list[str]:
    """Verdict lines for a comparison: what changed significantly, first."""
    sig = metrics.filter(pl.col("significant"))
    lines = [f"A = {_label(a.manifest, a.run_dir)}, {count(a.n_games)} games; "
             f"B = {_label(b.manifest, b.run_dir)}, {count(b.n_games)} games. Differences are B - A."]
    if a.manifest.get("game") != b.manifest.get("game"):
        lines.append("Warning: the two runs are of different games; only common metrics are compared.")
    lines.append(f"{len(sig)} of {len(metrics)} metrics differ significantly (95% interval of the "
                 "difference excludes 0). With many metrics, about 1 in 20 such flags is chance.")
    for r in sig.to_dicts():
        lines.append(f"{r['metric']}, {r['group']}: {_fmt_value(r['kind'], r['value_a'])} -> "
                     f"{_fmt_value(r['kind'], r['value_b'])} ({_fmt_diff(r['kind'], r['diff'])}, "
                     f"95% CI {_fmt_diff(r['kind'], r['lo'])} to {_fmt_diff(r['kind'], r['hi'])}).")
    for verdict, word in ((OUTSIDE, "outside"), (INSIDE, "inside")):
        na = int((a.seat_winrate["verdict"] == verdict).sum()) if not a.seat_winrate.is_empty() else 0
        nb = int((b.seat_winrate["verdict"] == verdict).sum()) if not b.seat_winrate.is_empty() else 0
        lines.append(f"Seats {word} the fairness band: A {na}, B {nb}.")
    if a.manifest.get("seed") is not None and a.manifest.get("seed") == b.manifest.get("seed"):
        lines.append("Both runs share a seed; intervals treat them as independent, which is "
                     "conservative (a paired analysis would be tighter).")
    return lines


def compare(run_a: str | Path, run_b: str | Path, band: float = 0.03) -> Comparison:
    """Compare two run folders. See `analysis.compare` for the public documentation."""
    a, b = analyze(run_a, band), analyze(run_b, band)
    metrics = metrics_table(a, b)
    return Comparison(
        run_a=str(run_a), run_b=str(run_b),
        manifest_a=a.manifest, manifest_b=b.manifest,
        band=band, metrics=metrics,
        verdicts=compare_lines(a, b, metrics),
        estimates_a=a.estimates, estimates_b=b.estimates,
    )
