"""`compare`: the difference between two runs, metric by metric, with intervals.

Each difference is B - A. When both runs share their deals (same seed and same list of
player counts, see `analysis.paired`), the games present in both are compared game by
game: paired t intervals, and the variance reduction pairing buys. Otherwise the runs
are independent samples: Newcombe intervals for rates, Welch intervals for means.
The unit is the game wherever the rows of one game are dependent: mean score and per-player
extras are compared as per-game means (n = games), and the paired faction win rate is a
ratio estimator (wins over seats per arm, linearised per game). Seat and faction
win-rate changes are also tested with Holm's correction as one family.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis import paired as _paired
from analysis import runfolder
from analysis.core import RunAnalysis, analyze
from analysis.metrics import fair_share, first_seat, holm_family, significant
from analysis.paired import GAME_KEYS, Units
from analysis.records import NOT_SIGNIFICANT, SIGNIFICANT, Verdict
from analysis.runfolder import query
from analysis.stats import (
    INSIDE,
    OUTSIDE,
    mean_diff,
    newcombe_diff,
    two_proportion_p,
    welch_p,
)
from analysis.text import count, pct, pp

METRIC_COLUMNS = ("metric", "group", "value_a", "value_b", "diff", "lo", "hi", "significant",
                  "kind", "p_value", "p_holm", "significant_holm", "variance_reduction", "paired",
                  "n", "n_unit")
HOLM_FAMILY = ("seat win rate", "faction win rate")
HOLM_FAMILY_NAME = "compare: seat and faction win-rate changes"
# Verdict-record kind of each compared metric (extras: "extra_difference").
RECORD_KINDS = {"seat win rate": "seat_difference", "faction win rate": "faction_difference",
                "first-player advantage": "first_player_difference",
                "mean score": "score_difference", "tie rate": "tie_rate_difference",
                "mean rounds": "length_difference", "mean decisions": "length_difference"}


@dataclass
class Comparison:
    """Two runs side by side. `metrics` has one row per (metric, group) with
    value_a, value_b, diff = B - A, its 95% interval lo..hi, significant (interval
    excludes 0), `kind` ('rate', a proportion, or 'mean'), p_value (two-sided test of
    no difference), p_holm / significant_holm (Holm across the seat and faction
    win-rate rows; NaN / null elsewhere), variance_reduction (unpaired over paired
    variance of the difference; NaN when unpaired), paired (bool), n and n_unit (the
    sample behind the row: paired games, or the games / seats of A and B together).
    `n_paired` is the number of games compared pairwise (0 when unpaired).
    `records` holds one `analysis.records.Verdict` per row (see `comparison_records`)."""

    run_a: str
    run_b: str
    manifest_a: dict
    manifest_b: dict
    band: float
    metrics: pl.DataFrame
    verdicts: list[str] = field(default_factory=list)
    estimates_a: list[dict] = field(default_factory=list)
    estimates_b: list[dict] = field(default_factory=list)
    n_paired: int = 0
    records: list[Verdict] = field(default_factory=list)

    @property
    def paired(self) -> bool:
        return self.n_paired > 0


# ---------------------------------------------------------------- independent samples
def _rate_rows(metric: str, a: pl.DataFrame, b: pl.DataFrame, keys: list[str], label,
               wins: str = "wins", n: str = "games", offset_fair: bool = False,
               n_unit: str = "games") -> pl.DataFrame:
    """Rows comparing a proportion present in both tables (matched on keys). With
    `offset_fair`, values are shown relative to the fair share 1/n. `n_unit`
    names what `n` counts (one observation each: a seat's game, a game)."""
    joined = a.join(b, on=keys, how="inner", suffix="_b").sort(keys)
    if joined.is_empty():
        return _empty()
    counts = [joined[c].to_numpy() for c in (f"{wins}_b", f"{n}_b", wins, n)]
    diff, lo, hi = newcombe_diff(*counts)
    value_a = counts[2] / counts[3]
    if offset_fair:
        value_a = value_a - fair_share(joined["n_players"].to_numpy())
    return _rows(metric, [label(r) for r in joined.to_dicts()], value_a, value_a + diff,
                 diff, lo, hi, "rate", two_proportion_p(*counts),
                 n=counts[1] + counts[3], n_unit=n_unit)


def _mean_rows(metric: str, a: pl.DataFrame, b: pl.DataFrame, keys: list[str], label,
               mean: str = "mean", sd: str = "sd", n: str = "n") -> pl.DataFrame:
    """Rows comparing a mean present in both tables, with a Welch interval. Each `n` must
    count independent units: games (per-game means), never player-games."""
    joined = a.join(b, on=keys, how="inner", suffix="_b").sort(keys)
    if joined.is_empty():
        return _empty()
    cols = [joined[c].to_numpy().astype(float) for c in (f"{mean}_b", f"{sd}_b", f"{n}_b",
                                                        mean, sd, n)]
    diff, lo, hi = mean_diff(*cols)
    return _rows(metric, [label(r) for r in joined.to_dicts()], cols[3], cols[0],
                 diff, lo, hi, "mean", welch_p(*cols), n=cols[2] + cols[5], n_unit="games")


def _rows(metric, groups, value_a, value_b, diff, lo, hi, kind, p_value,
          variance_reduction=None, paired: bool = False, n=None,
          n_unit: str = "paired games") -> pl.DataFrame:
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    size = np.asarray(n, dtype=float)
    n = len(groups)
    vr = np.full(n, np.nan) if variance_reduction is None else variance_reduction
    return pl.DataFrame({
        "metric": [metric] * n,
        "group": groups,
        "value_a": np.asarray(value_a, dtype=float),
        "value_b": np.asarray(value_b, dtype=float),
        "diff": np.asarray(diff, dtype=float),
        "lo": lo,
        "hi": hi,
        "significant": (lo > 0) | (hi < 0),
        "kind": [kind] * n,
        "p_value": np.asarray(p_value, dtype=float),
        "variance_reduction": np.asarray(vr, dtype=float),
        "paired": [paired] * n,
        "n": size,
        "n_unit": [n_unit] * n,
    }, schema_overrides={"group": pl.String, "n": pl.Float64})


def _empty() -> pl.DataFrame:
    return pl.DataFrame(schema={"metric": pl.String, "group": pl.String, "value_a": pl.Float64,
                                "value_b": pl.Float64, "diff": pl.Float64, "lo": pl.Float64,
                                "hi": pl.Float64, "significant": pl.Boolean, "kind": pl.String,
                                "p_value": pl.Float64, "variance_reduction": pl.Float64,
                                "paired": pl.Boolean, "n": pl.Float64, "n_unit": pl.String})


def _length_stats(x: RunAnalysis, what: str) -> pl.DataFrame:
    return x.game_length.select("n_players", mean=f"mean_{what}", sd=f"sd_{what}", n="games")


def _count_label(row: dict) -> str:
    return f"{row['n_players']}p"


def _seat_label(row: dict) -> str:
    return f"seat {row['seat']}, {row['n_players']}p"


def _faction_label(row: dict) -> str:
    return f"{row['faction']}, {row['n_players']}p"


def _common_extras(a: RunAnalysis, b: RunAnalysis) -> list[tuple[str, str, str]]:
    """(column, unit, metric name) of every numeric extra column both runs have."""
    out = []
    for table_a, table_b, unit in ((a.player_extra_means, b.player_extra_means, "per player"),
                                   (a.game_extra_means, b.game_extra_means, "per game")):
        if table_a.is_empty() or table_b.is_empty():
            continue
        for column in sorted(set(table_a["metric"]) & set(table_b["metric"])):
            out.append((column, unit, f"mean {column} ({unit})"))
    return out


def _game_unit_tables(run_dir: str, extras: bool) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(mean score, per-player extras) of a run with the game as the unit: per-game means
    over seats, then their mean, sd and n = games (game_score_means.sql and
    player_extra_game_means.sql)."""
    con = runfolder.connect(run_dir)
    try:
        scores = query(con, "game_score_means")
        extra = query(con, "player_extra_game_means") if extras else pl.DataFrame()
    finally:
        con.close()
    return scores, extra


def independent_metrics(a: RunAnalysis, b: RunAnalysis) -> pl.DataFrame:
    """All compared metrics for independent runs, in report order. Means of player
    columns (score, per-player extras) are compared over per-game means: seats of one
    game are correlated, so n = games."""
    by_count = ["n_players"]
    extras = any(unit == "per player" for _, unit, _ in _common_extras(a, b))
    scores_a, extra_a = _game_unit_tables(a.run_dir, extras)
    scores_b, extra_b = _game_unit_tables(b.run_dir, extras)
    parts = [
        _rate_rows("seat win rate", a.seat_winrate, b.seat_winrate, ["n_players", "seat"],
                   _seat_label, n_unit="seats"),
        _rate_rows("first-player advantage", a.first_player, b.first_player, by_count,
                   _count_label, offset_fair=True),
        _rate_rows("faction win rate", a.faction_winrate, b.faction_winrate,
                   ["n_players", "faction"], _faction_label, n_unit="seats")
        if a.has_factions and b.has_factions else _empty(),
        _rate_rows("tie rate", a.tie_rate, b.tie_rate, by_count, _count_label, wins="ties"),
        _mean_rows("mean score", scores_a, scores_b, by_count, _count_label),
        _mean_rows("mean rounds", _length_stats(a, "rounds"), _length_stats(b, "rounds"),
                   by_count, _count_label),
        _mean_rows("mean decisions", _length_stats(a, "decisions"), _length_stats(b, "decisions"),
                   by_count, _count_label),
    ]
    for column, unit, metric in _common_extras(a, b):
        table_a = extra_a if unit == "per player" else a.game_extra_means
        table_b = extra_b if unit == "per player" else b.game_extra_means
        parts.append(_mean_rows(metric, table_a.filter(pl.col("metric") == column),
                                table_b.filter(pl.col("metric") == column),
                                by_count, _count_label))
    return pl.concat(parts, how="vertical")


# ---------------------------------------------------------------- paired samples
def _paired_rows(metric: str, a: pl.DataFrame, b: pl.DataFrame, keys: list[str],
                 by: list[str], value: str, label, kind: str,
                 offset_fair: bool = False) -> pl.DataFrame:
    """Rows of one metric from unit tables paired on `keys`, grouped by `by`. With
    offset_fair, values are shown relative to the fair share 1/n."""
    st = _paired.paired_stats(a, b, keys, by, value)
    if st.is_empty():
        return _empty()
    value_a, value_b = st["value_a"].to_numpy(), st["value_b"].to_numpy()
    if offset_fair:
        fair = fair_share(st["n_players"].to_numpy())
        value_a, value_b = value_a - fair, value_b - fair
    return _rows(metric, [label(r) for r in st.to_dicts()], value_a, value_b,
                 st["diff"].to_numpy(), st["lo"].to_numpy(), st["hi"].to_numpy(), kind,
                 st["p_value"].to_numpy(), st["variance_reduction"].to_numpy(), paired=True,
                 n=st["n"].to_numpy())


def _paired_faction_rows(ua: Units, ub: Units) -> pl.DataFrame:
    """Faction win rate compared game by game as a ratio estimator: per arm, wins over
    seats (copies) summed over the paired games, the same per-seat rate the unpaired
    path and `analyze` show, with the linearised paired interval (`paired_ratio_diff`)."""
    st = _paired.faction_ratio_stats(_paired.faction_rows(ua.players),
                                     _paired.faction_rows(ub.players))
    if st.is_empty():
        return _empty()
    return _rows("faction win rate", [_faction_label(r) for r in st.to_dicts()],
                 st["value_a"], st["value_b"], st["diff"], st["lo"], st["hi"], "rate",
                 st["p_value"], st["variance_reduction"].to_numpy(), paired=True,
                 n=st["n"].to_numpy())


def _per_game(ua: Units, ub: Units, metric: str, column: str, players: bool) -> pl.DataFrame:
    """A mean compared game by game: player columns are averaged over each game's seats."""
    if players:
        a, b = _paired.per_game_mean(ua.players, column), _paired.per_game_mean(ub.players, column)
    else:
        a, b = _paired.game_column(ua.games, column), _paired.game_column(ub.games, column)
    kind = "rate" if column == "tied" else "mean"
    return _paired_rows(metric, a, b, GAME_KEYS, ["n_players"], column, _count_label, kind)


def paired_metrics(a: RunAnalysis, b: RunAnalysis, ua: Units, ub: Units) -> pl.DataFrame:
    """All compared metrics for runs that share their deals, in report order."""
    seat_keys = [*GAME_KEYS, "seat"]
    parts = [
        _paired_rows("seat win rate", _paired.seat_rows(ua.players), _paired.seat_rows(ub.players),
                     seat_keys, ["n_players", "seat"], "win", _seat_label, "rate"),
        _paired_rows("first-player advantage", first_seat(_paired.seat_rows(ua.players)),
                     first_seat(_paired.seat_rows(ub.players)), GAME_KEYS, ["n_players"], "win",
                     _count_label, "rate", offset_fair=True),
        _paired_faction_rows(ua, ub)
        if a.has_factions and b.has_factions else _empty(),
        _per_game(ua, ub, "tie rate", "tied", players=False),
        _per_game(ua, ub, "mean score", "score", players=True),
        _per_game(ua, ub, "mean rounds", "rounds", players=False),
        _per_game(ua, ub, "mean decisions", "decisions", players=False),
    ]
    parts += [_per_game(ua, ub, metric, column, players=unit == "per player")
              for column, unit, metric in _common_extras(a, b)]
    return pl.concat(parts, how="vertical")


# ---------------------------------------------------------------- both
def with_holm(metrics: pl.DataFrame) -> pl.DataFrame:
    """Add p_holm and significant_holm: Holm across the seat and faction win-rate rows
    (one family); NaN / null on the other rows."""
    family = metrics["metric"].is_in(list(HOLM_FAMILY)).to_numpy()
    adjusted = holm_family(metrics["p_value"].to_numpy(), family)
    flags = [bool(s) if f else None for s, f in zip(significant(adjusted), family, strict=True)]
    out = metrics.with_columns(p_holm=pl.Series(adjusted, dtype=pl.Float64),
                               significant_holm=pl.Series(flags, dtype=pl.Boolean))
    return out.select(METRIC_COLUMNS)


def metrics_table(a: RunAnalysis, b: RunAnalysis, units: tuple[Units, Units] | None = None
                  ) -> pl.DataFrame:
    """All compared metrics, in report order: paired when `units` (both runs' rows) are
    given, independent otherwise."""
    metrics = independent_metrics(a, b) if units is None else paired_metrics(a, b, *units)
    return with_holm(metrics)


def comparison_records(metrics: pl.DataFrame, note: str | None = None) -> list[Verdict]:
    """One Verdict per compared row: kind from RECORD_KINDS ("extra_difference" for
    game-specific columns), unit = the seat number, the faction id or the metric name,
    estimate = B - A with its 95% interval, n / n_unit from the row, verdict significant /
    not_significant (the interval excludes 0), p_adjusted and family for the Holm rows."""
    out = []
    for r in metrics.to_dicts():
        in_family = r["significant_holm"] is not None
        head, _, count_label = r["group"].rpartition(", ")
        n_players = int((count_label or head).rstrip("p"))
        unit = (int(head.split()[1]) if r["metric"] == "seat win rate"
                else head if r["metric"] == "faction win rate" else r["metric"])
        out.append(Verdict(
            kind=RECORD_KINDS.get(r["metric"], "extra_difference"), unit=unit,
            n_players=n_players, estimate=r["diff"], ci_low=r["lo"], ci_high=r["hi"],
            n=r["n"], n_unit=r["n_unit"],
            verdict=SIGNIFICANT if r["significant"] else NOT_SIGNIFICANT,
            p_adjusted=r["p_holm"] if in_family else None,
            family=HOLM_FAMILY_NAME if in_family else None,
            metric=f"{r['metric']}, B - A" + (" (proportion)" if r["kind"] == "rate" else ""),
            note=note))
    return out


def _fmt_value(kind: str, x: float) -> str:
    return pct(x) if kind == "rate" else f"{x:.2f}"


def _fmt_diff(kind: str, x: float) -> str:
    return pp(x) if kind == "rate" else f"{x:+.2f}"


def _label(manifest: dict, run: str) -> str:
    return f"{manifest.get('game', '?')}/{manifest.get('variant', '?')} ({Path(run).name})"


def _pairing_lines(a: RunAnalysis, b: RunAnalysis, metrics: pl.DataFrame, n_paired: int
                   ) -> list[str]:
    """How the two runs were matched, and what pairing bought."""
    if not n_paired:
        same_seed = a.manifest.get("seed") is not None and a.manifest.get("seed") == b.manifest.get("seed")
        why = ("they share a seed but not the list of player counts, so their deals differ"
               if same_seed else "their seeds differ (or are unknown)")
        return [f"Runs treated as independent samples ({why}): Newcombe intervals for rates, "
                "Welch t intervals for means."]
    lines = [f"Paired analysis: both runs use seed {a.manifest.get('seed')} and player counts "
             f"{a.manifest.get('player_counts')}, so game i of A and game i of B share their "
             f"deals and dice; {count(n_paired)} games present in both are compared game by "
             "game (paired t intervals of the mean difference)."]
    vr = metrics.filter(pl.col("paired"))["variance_reduction"].to_numpy()
    vr = vr[~np.isnan(vr)]
    if vr.size:
        median = float(np.median(vr))
        shown = "unbounded (identical outcomes game by game)" if np.isinf(median) else f"{median:.1f}x"
        lines.append(f"Pairing made the comparison sharper: median variance reduction {shown} "
                     f"across {vr.size} metrics (unpaired variance of the difference divided "
                     "by the paired one; above 1 means tighter intervals than independent runs).")
    return lines


def _holm_lines(metrics: pl.DataFrame) -> list[str]:
    """One line on the seat / faction win-rate family under Holm."""
    family = metrics.filter(pl.col("metric").is_in(list(HOLM_FAMILY)))
    if family.is_empty():
        return []
    hits = family.filter(pl.col("significant_holm"))
    names = "; ".join(f"{r['metric']}, {r['group']} ({_fmt_diff(r['kind'], r['diff'])})"
                      for r in hits.to_dicts())
    return [f"Win-rate changes (seats and factions): {len(hits)} of {len(family)} significant "
            f"after Holm across {len(family)} tests (family-wise error 5%)"
            + (f": {names}." if names else ".")]


def _sig_line(r: dict, family: int) -> str:
    line = (f"{r['metric']}, {r['group']}: {_fmt_value(r['kind'], r['value_a'])} -> "
            f"{_fmt_value(r['kind'], r['value_b'])} ({_fmt_diff(r['kind'], r['diff'])}, "
            f"95% CI {_fmt_diff(r['kind'], r['lo'])} to {_fmt_diff(r['kind'], r['hi'])}).")
    if r["significant_holm"] is not None:
        word = "significant" if r["significant_holm"] else "not significant"
        line += f" {word.capitalize()} after Holm across {family} tests (adjusted p = {r['p_holm']:.3g})."
    return line


def compare_lines(a: RunAnalysis, b: RunAnalysis, metrics: pl.DataFrame, n_paired: int = 0
                  ) -> list[str]:
    """Verdict lines for a comparison: what changed significantly, first."""
    sig = metrics.filter(pl.col("significant"))
    family = int(metrics["metric"].is_in(list(HOLM_FAMILY)).sum())
    lines = [f"A = {_label(a.manifest, a.run_dir)}, {count(a.n_games)} games; "
             f"B = {_label(b.manifest, b.run_dir)}, {count(b.n_games)} games. Differences are B - A."]
    if a.manifest.get("game") != b.manifest.get("game"):
        lines.append("Warning: the two runs are of different games; only common metrics are compared.")
    lines.append(f"{len(sig)} of {len(metrics)} metrics differ significantly (95% interval of the "
                 "difference excludes 0). With many metrics, about 1 in 20 such flags is chance.")
    lines += _pairing_lines(a, b, metrics, n_paired) + _holm_lines(metrics)
    lines += [_sig_line(r, family) for r in sig.to_dicts()]
    for verdict, word in ((OUTSIDE, "outside"), (INSIDE, "inside")):
        na = int((a.seat_winrate["verdict"] == verdict).sum()) if not a.seat_winrate.is_empty() else 0
        nb = int((b.seat_winrate["verdict"] == verdict).sum()) if not b.seat_winrate.is_empty() else 0
        lines.append(f"Seats {word} the fairness band: A {na}, B {nb}.")
    return lines


def _units(a: RunAnalysis, b: RunAnalysis) -> tuple[Units, Units] | None:
    """Both runs' per-game rows when they share their deals and some games, else None."""
    if not _paired.shares_deals(a.manifest, b.manifest):
        return None
    units = _paired.load_units(a.run_dir), _paired.load_units(b.run_dir)
    return units if _paired.common_games(*units) else None


def compare(run_a: str | Path, run_b: str | Path, band: float = 0.03) -> Comparison:
    """Compare two run folders. See `analysis.compare` for the public documentation."""
    a, b = analyze(run_a, band), analyze(run_b, band)
    units = _units(a, b)
    n_paired = _paired.common_games(*units) if units else 0
    metrics = metrics_table(a, b, units)
    return Comparison(
        run_a=str(run_a), run_b=str(run_b),
        manifest_a=a.manifest, manifest_b=b.manifest,
        band=band, metrics=metrics,
        verdicts=compare_lines(a, b, metrics, n_paired),
        estimates_a=a.estimates, estimates_b=b.estimates,
        n_paired=n_paired,
        records=comparison_records(metrics),
    )
