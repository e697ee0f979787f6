"""Paired comparison of two runs that share their chance (common random numbers).

Game i of a run is a pure function of (data, seed, i), with separate random streams for
decks, dice and each seat's bot. Two runs with the same seed and the same player-count
list therefore deal the same cards and roll the same dice in game i: game i of A and
game i of B form a pair. Comparing each metric game by game (d_i = x_B,i - x_A,i) removes
the luck the two runs share, so the interval of the mean difference is narrower.

The unit of a pair is a game: player-level means (score, extras) are averaged over
seats within each game first, so the seats of one game never count as independent. A
faction's win rate is a ratio over games (its wins over its seats), paired game by game
with a linearised variance, so a faction seated twice at a table is counted per seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis import runfolder
from analysis.runfolder import query
from analysis.stats import group_sums, paired_ratio_diff, paired_t

GAME_KEYS = ["game_id", "n_players"]


@dataclass
class Units:
    """Per-game (`games`) and per-seat (`players`) rows of one run, for pairing."""

    players: pl.DataFrame  # game_id, n_players, seat, faction, policy, score, rank, win, extras
    games: pl.DataFrame    # every games column plus tied (0.0 / 1.0)


def shares_deals(manifest_a: dict, manifest_b: dict) -> bool:
    """Whether two manifests promise the same deals game by game: the same (non-null)
    seed and the same list of player counts."""
    seed = manifest_a.get("seed")
    return (seed is not None and seed == manifest_b.get("seed")
            and manifest_a.get("player_counts") == manifest_b.get("player_counts"))


def load_units(run_dir: str | Path) -> Units:
    """Read the per-game and per-seat rows of a run folder."""
    con = runfolder.connect(run_dir)
    try:
        return Units(players=query(con, "paired_players"), games=query(con, "paired_games"))
    finally:
        con.close()


def common_games(a: Units, b: Units) -> int:
    """Games present in both runs, at the same player count."""
    return a.games.select(GAME_KEYS).join(b.games.select(GAME_KEYS), on=GAME_KEYS).height


def numeric(column: str) -> pl.Expr:
    """`column` as Float64 (non-numeric values become null, like SQL TRY_CAST)."""
    return pl.col(column).cast(pl.Float64, strict=False)


def per_game_mean(players: pl.DataFrame, column: str) -> pl.DataFrame:
    """One row per game: the mean of a player column over the game's seats."""
    return (players.group_by(GAME_KEYS)
            .agg(numeric(column).mean().alias(column)))


def seat_rows(players: pl.DataFrame, seat: int | None = None) -> pl.DataFrame:
    """game_id, n_players, seat, win (optionally one seat only)."""
    df = players.select(*GAME_KEYS, "seat", numeric("win").alias("win"))
    return df if seat is None else df.filter(pl.col("seat") == seat)


def faction_rows(players: pl.DataFrame) -> pl.DataFrame:
    """One row per (game, faction): the faction's wins (win) and its seats (copies) in
    that game, the numerator and denominator of its per-seat win rate."""
    return (players.group_by(*GAME_KEYS, "faction")
            .agg(numeric("win").sum().alias("win"), pl.len().cast(pl.Float64).alias("copies")))


def faction_ratio_stats(a: pl.DataFrame, b: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """Paired difference of per-seat faction win rates over the games both runs have.

    a, b: `faction_rows` of each run. Per (n_players, faction): value_a = sum(win) /
    sum(copies) in A over the paired games with the faction in either arm, value_b
    likewise, diff = value_b - value_a with the linearised paired interval and p-value
    (`analysis.stats.paired_ratio_diff`), variance_reduction, and n = those games.
    """
    common = a.select(GAME_KEYS).unique().join(b.select(GAME_KEYS).unique(), on=GAME_KEYS)
    keys = [*GAME_KEYS, "faction"]
    both = (a.join(common, on=GAME_KEYS).join(b.join(common, on=GAME_KEYS), on=keys,
                                              how="full", coalesce=True, suffix="_b")
            .with_columns(pl.col("win", "copies", "win_b", "copies_b").fill_null(0.0))
            .sort(keys))  # a group's rows keep this order, so its sums do too
    rows = []
    for (n_players, faction), g in both.group_by("n_players", "faction"):
        r_a, r_b, d, lo, hi, p, vr = paired_ratio_diff(g["win"], g["copies"], g["win_b"],
                                                       g["copies_b"], confidence)
        rows.append({"n_players": n_players, "faction": faction, "n": g.height, "value_a": r_a,
                     "value_b": r_b, "diff": d, "lo": lo, "hi": hi, "p_value": p,
                     "variance_reduction": vr})
    schema = {"n_players": pl.Int64, "faction": pl.String, "n": pl.Int64, "value_a": pl.Float64,
              "value_b": pl.Float64, "diff": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
              "p_value": pl.Float64, "variance_reduction": pl.Float64}
    return pl.DataFrame(rows, schema=schema).sort("n_players", "faction")


def game_column(games: pl.DataFrame, column: str) -> pl.DataFrame:
    """game_id, n_players and one game column as Float64."""
    return games.select(*GAME_KEYS, numeric(column).alias(column))


def _means_and_variances(df: pl.DataFrame, by: list[str], columns: dict[str, str]) -> pl.DataFrame:
    """Per `by` group (sorted): n, and for each name: column of `columns` its mean (name) and
    sample variance (var_name; null below 2 rows), summed in row order (two passes)."""
    sums = group_sums(df, by, n=pl.lit(1.0), **columns)
    means = sums.select(*by, pl.col("n").cast(pl.UInt32),
                        *[(pl.col(name) / pl.col("n")).alias(name) for name in columns])
    centred = df.join(means.select(*by, *[pl.col(name).alias(f"_mean_{name}") for name in columns]),
                      on=by, how="left", maintain_order="left")
    squares = group_sums(centred, by, **{f"var_{name}": (pl.col(c) - pl.col(f"_mean_{name}")) ** 2
                                         for name, c in columns.items()})
    n = pl.col("n").cast(pl.Float64)
    return means.join(squares, on=by, maintain_order="left").with_columns(
        *[pl.when(n > 1).then(pl.col(f"var_{name}") / (n - 1)).alias(f"var_{name}") for name in columns]
    ).sort(by)


def paired_stats(a: pl.DataFrame, b: pl.DataFrame, keys: list[str], by: list[str],
                 value: str, confidence: float = 0.95) -> pl.DataFrame:
    """Paired difference of `value` between two unit tables matched on `keys`.

    One row per `by` group: n (pairs), value_a, value_b, diff = mean(d) with
    d = value_B - value_A per unit, its t interval lo..hi, p_value (paired t), and
    variance_reduction = (Var_A + Var_B) / Var_d: how many times the unpaired
    variance of the difference exceeds the paired one (inf when every d is equal
    while A or B vary; NaN when nothing varies or n < 2).
    """
    # sorted by unit, so the sums below add in one fixed order (analysis.stats.group_sums)
    joined = (a.select(*keys, value)
              .join(b.select(*keys, value), on=keys, how="inner", suffix="_b")
              .drop_nulls([value, f"{value}_b"])
              .with_columns(d=pl.col(f"{value}_b") - pl.col(value))
              .sort(keys))
    grouped = _means_and_variances(joined, by, {"value_a": value, "value_b": f"{value}_b", "diff": "d"})
    variances = ["var_value_a", "var_value_b", "var_diff"]
    var_a, var_b, var_d = (grouped[c].to_numpy().astype(float) for c in variances)
    lo, hi, p = paired_t(grouped["diff"].to_numpy().astype(float), np.sqrt(var_d),
                         grouped["n"].to_numpy(), confidence)
    return grouped.drop(variances).with_columns(
        lo=pl.Series(lo, dtype=pl.Float64), hi=pl.Series(hi, dtype=pl.Float64),
        p_value=pl.Series(p, dtype=pl.Float64),
        variance_reduction=pl.Series(variance_reduction(var_a, var_b, var_d), dtype=pl.Float64),
    )


def variance_reduction(var_a, var_b, var_d) -> np.ndarray:
    """(Var_A/n + Var_B/n) / (Var_d/n); inf when only the paired variance is 0."""
    var_a, var_b, var_d = (np.asarray(x, dtype=float) for x in (var_a, var_b, var_d))
    unpaired = var_a + var_b
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = unpaired / var_d
    return np.where((var_d == 0) & (unpaired > 0), np.inf,
                    np.where((var_d == 0) & (unpaired == 0), np.nan, ratio))
