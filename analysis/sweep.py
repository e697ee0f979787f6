"""A parameter sweep: one arm per value of a parameter, all on the same seed.

Per arm and player count: the win rate of every faction (or seat, in a symmetric game)
with its Wilson 95% interval, the first-player advantage (seat 0 rate - 1/n) with its
Wilson interval, and whether the unit rates differ at all: a heterogeneity test (Wald
chi-square of the K - 1 contrasts between unit rates, with a game-clustered covariance so
that units sharing a game, copies of a faction and fractional shared wins are all
accounted for), Holm-adjusted across every arm and player count of the sweep, and the
between-unit SD net of sampling noise. The largest-minus-smallest spread is kept as a
description only: it is biased up by noise and has no valid simple interval.

The arms share their deals, so the first-player advantage is compared with the first value
game by game (paired t interval and the variance reduction pairing buys). No arm is called
"best" on point estimates: the verdict lines name only paired changes whose interval
excludes 0 and arms whose units differ significantly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl
from scipy.stats import chi2

from analysis import paired as _paired
from analysis.metrics import ALPHA, first_player_advantage, first_seat, holm_family
from analysis.records import NOT_SIGNIFICANT, SIGNIFICANT, Verdict, not_estimable
from analysis.runfolder import load_manifest
from analysis.stats import group_sums, wilson


@dataclass
class SweepArm:
    value: object
    run_dir: str
    units: pl.DataFrame   # n_players, unit, games, wins, rate, lo, hi
    shape: pl.DataFrame   # n_players, games, spread, het_chi2, het_df, het_p, het_p_holm, sd_net,
                          # fpa, fpa_lo, fpa_hi, fpa_diff, fpa_diff_lo, fpa_diff_hi,
                          # variance_reduction
    manifest: dict = field(default_factory=dict)  # the arm's run.json, for its provenance


@dataclass
class Sweep:
    key: str
    kind: str             # 'faction' or 'seat'
    arms: list[SweepArm]
    verdicts: list[str] = field(default_factory=list)

    def shape_table(self) -> pl.DataFrame:
        return pl.concat([a.shape.with_columns(value=pl.lit(str(a.value))) for a in self.arms])

    def units_table(self) -> pl.DataFrame:
        return pl.concat([a.units.with_columns(value=pl.lit(str(a.value))) for a in self.arms])

    @property
    def records(self) -> list[Verdict]:
        """Every verdict of the sweep as a record (see `sweep_records`)."""
        return sweep_records(self)


def unit_column(players: pl.DataFrame) -> str:
    """'faction' when the game has factions, else 'seat'."""
    return "seat" if players["faction"].n_unique() == 1 else "faction"


def unit_rates(players: pl.DataFrame, unit: str) -> pl.DataFrame:
    """Win rate per (n_players, unit) with Wilson 95% interval."""
    df = (group_sums(players, ["n_players", unit], games=pl.lit(1.0), wins="win")
          .with_columns(pl.col("games").cast(pl.UInt32))
          .with_columns(pl.col(unit).cast(pl.String).alias("unit"))
          .select("n_players", "unit", "games", "wins")
          .sort("n_players", "unit"))
    lo, hi = wilson(df["wins"].to_numpy(), df["games"].to_numpy())
    return df.with_columns(rate=pl.col("wins") / pl.col("games"), lo=pl.Series(lo), hi=pl.Series(hi))


def game_matrix(players: pl.DataFrame, unit: str) -> tuple[np.ndarray, np.ndarray]:
    """(wins, present): games x units arrays of one player count's games; a unit absent
    from a game has win 0 and present 0."""
    rows = players.select(
        g=pl.col("game_id").rank("dense").cast(pl.Int64) - 1,
        u=pl.col(unit).cast(pl.String).rank("dense").cast(pl.Int64) - 1,
        w=pl.col("win").cast(pl.Float64))
    g, u = rows["g"].to_numpy(), rows["u"].to_numpy()
    shape = (int(g.max()) + 1, int(u.max()) + 1) if rows.height else (0, 0)
    wins, present = np.zeros(shape), np.zeros(shape)
    np.add.at(wins, (g, u), rows["w"].to_numpy())
    np.add.at(present, (g, u), 1.0)
    return wins, present


def spread(wins: np.ndarray, present: np.ndarray) -> float:
    """Largest minus smallest unit rate (descriptive: biased up by noise). Units never
    present are left out."""
    num, den = wins.sum(axis=0), present.sum(axis=0)
    rate = num[den > 0] / den[den > 0]
    return float(rate.max() - rate.min()) if rate.size else float("nan")


def heterogeneity(wins: np.ndarray, present: np.ndarray) -> tuple[float, int, float, float]:
    """Test that every unit has the same win rate, from games x units arrays (wins may be
    fractional; a unit may appear several times in a game).

    Rates r_u = sum wins / sum present. Their covariance is game-clustered: the per-game
    influence of unit u is (wins_gu - r_u present_gu) / present_u, and the covariance is
    the sum over games of the outer products (x G / (G - 1)), which carries the negative
    correlation of units sharing a game. The Wald statistic of the K - 1 contrasts
    r_u - r_K is chi-square with their rank as degrees of freedom under equal rates.
    Returns (chi2, df, p, sd_net): sd_net is the between-unit SD of the rates net of the
    sampling variance (0 when noise explains all of it)."""
    den = present.sum(axis=0)
    keep = den > 0
    w, c, den = wins[:, keep], present[:, keep], den[keep]
    games, k = w.shape
    if k < 2 or games < 2:
        return float("nan"), 0, float("nan"), float("nan")
    rate = w.sum(axis=0) / den
    influence = (w - c * rate) / den
    cov = influence.T @ influence * games / (games - 1)
    contrast = np.hstack([np.eye(k - 1), -np.ones((k - 1, 1))])
    d, v = contrast @ rate, contrast @ cov @ contrast.T
    df = int(np.linalg.matrix_rank(v))
    stat = float(d @ np.linalg.pinv(v) @ d)
    noise = (np.trace(cov) - cov.sum() / k) / (k - 1)  # E[sample variance of rates] if equal
    sd_net = float(np.sqrt(max(0.0, np.var(rate, ddof=1) - noise)))
    return stat, df, float(chi2.sf(stat, df)) if df else float("nan"), sd_net


def shape(players: pl.DataFrame, reference: pl.DataFrame | None, unit: str) -> pl.DataFrame:
    """Heterogeneity, spread and first-player advantage per player count, and the paired change of the
    first-player advantage against the reference arm's players (NaN for the reference
    itself: reference=None)."""
    rows = []
    paired = (_paired.paired_stats(first_seat(_paired.seat_rows(reference)),
                                   first_seat(_paired.seat_rows(players)),
                                   _paired.GAME_KEYS, ["n_players"], "win")
              if reference is not None else pl.DataFrame(schema={"n_players": pl.Int64}))
    for (n,), part in sorted(players.group_by("n_players"), key=lambda x: x[0]):
        matrix = game_matrix(part, unit)
        stat, df, p, sd_net = heterogeneity(*matrix)
        first = first_seat(part)
        wins, games = float(first["win"].sum()), first.height
        fpa_lo, fpa_hi = (float(first_player_advantage(float(x), n)) for x in wilson(wins, games))
        pr = paired.filter(pl.col("n_players") == n)
        rows.append({"n_players": int(n), "games": int(matrix[0].shape[0]), "spread": spread(*matrix),
                     "het_chi2": stat, "het_df": df, "het_p": p, "sd_net": sd_net,
                     "fpa": float(first_player_advantage(wins / games, n)), "fpa_lo": fpa_lo, "fpa_hi": fpa_hi,
                     "fpa_diff": pr["diff"][0] if pr.height else np.nan,
                     "fpa_diff_lo": pr["lo"][0] if pr.height else np.nan,
                     "fpa_diff_hi": pr["hi"][0] if pr.height else np.nan,
                     "variance_reduction": pr["variance_reduction"][0] if pr.height else np.nan})
    return pl.DataFrame(rows)


def players_table(run_dir) -> pl.DataFrame:
    return _paired.load_units(run_dir).players.select("game_id", "n_players", "seat", "faction",
                                                      pl.col("win").cast(pl.Float64))


def run_sweep(key: str, arms: list[tuple[object, str]]) -> Sweep:
    """Analyse the arms [(value, run folder), ...] of a sweep over `key`, the first arm
    being the reference for paired changes."""
    reference = players_table(arms[0][1])
    unit = unit_column(reference)
    out = []
    for k, (value, run_dir) in enumerate(arms):
        players = reference if k == 0 else players_table(run_dir)
        out.append(SweepArm(value, str(run_dir), unit_rates(players, unit),
                            shape(players, reference if k else None, unit),
                            load_manifest(Path(run_dir))))
    adjusted = holm_family(np.concatenate([a.shape["het_p"].to_numpy() for a in out]))
    start = 0
    for arm in out:
        arm.shape = arm.shape.with_columns(
            het_p_holm=pl.Series(adjusted[start:start + arm.shape.height]))
        start += arm.shape.height
    sweep = Sweep(key, unit, out)
    sweep.verdicts = sweep_lines(sweep)
    return sweep


def sweep_lines(s: Sweep) -> list[str]:
    """Per player count: which arms' units differ (heterogeneity, Holm across the sweep) and
    which paired changes of the first-player advantage exclude 0. No "best value" claim."""
    table = s.shape_table()
    lines = [f"Sweep of {s.key} over {', '.join(str(a.value) for a in s.arms)} "
             f"(same seed in every arm; paired changes are against {s.key} = {s.arms[0].value}). "
             f"No value is called best: the smallest of several noisy spreads is not evidence."]
    for (n,), part in sorted(table.group_by("n_players"), key=lambda x: x[0]):
        rows = part.to_dicts()
        differ = [f"{r['value']} (SD net of noise {100 * r['sd_net']:.1f} pp)" for r in rows
                  if r["het_p_holm"] < ALPHA]
        same = [str(r["value"]) for r in rows if not r["het_p_holm"] < ALPHA]
        moved = [f"{r['value']} ({100 * r['fpa_diff']:+.1f} pp, 95% CI {100 * r['fpa_diff_lo']:+.1f} "
                 f"to {100 * r['fpa_diff_hi']:+.1f})" for r in rows
                 if not np.isnan(r["fpa_diff"]) and (r["fpa_diff_lo"] > 0 or r["fpa_diff_hi"] < 0)]
        lines.append(
            f"{n} players: {s.kind} win rates differ (heterogeneity test, Holm across "
            f"{table.height} tests) at {s.key} = {', '.join(differ) if differ else 'no value'}"
            + (f"; no significant difference at {', '.join(same)}" if same else "")
            + "; first-player advantage changes against the reference (paired) at "
            + (", ".join(moved) if moved else "no value") + ".")
    return lines


def sweep_records(s: Sweep) -> list:
    """One record per arm and player count, kind sweep_heterogeneity: estimate = between-unit
    SD net of noise, verdict significant / not_significant from the Holm-adjusted
    heterogeneity test, n = games."""
    family = f"sweep heterogeneity over {s.key}"
    out = []
    for r in s.shape_table().to_dicts():
        unit = f"{s.key}={r['value']}"
        if np.isnan(r["het_p"]):
            out.append(not_estimable("sweep_heterogeneity", unit, r["n_players"], r["games"], "games",
                                     f"fewer than two {s.kind}s", family))
            continue
        out.append(Verdict(kind="sweep_heterogeneity", unit=unit, n_players=r["n_players"],
                           estimate=r["sd_net"], ci_low=None, ci_high=None, n=r["games"],
                           n_unit="games", verdict=SIGNIFICANT if r["het_p_holm"] < ALPHA else NOT_SIGNIFICANT,
                           p_adjusted=r["het_p_holm"], family=family, metric="between-unit SD",
                           note=f"Wald chi-square {r['het_chi2']:.1f} on {r['het_df']} df, "
                                f"game-clustered, across {s.kind}s"))
    return out
