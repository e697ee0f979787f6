"""A parameter sweep: one arm per value of a parameter, all on the same seed.

Per arm and player count: the win rate of every faction (or seat, in a symmetric game)
with its Wilson 95% interval, the first-player advantage (seat 0 rate - 1/n) with its
Wilson interval, and the win-rate spread (largest minus smallest faction or seat rate)
with a basic bootstrap interval over games. The arms share their deals, so the
first-player advantage is also compared with the first value game by game (paired t
interval and the variance reduction pairing buys).

The spread is biased upward with few games (noise alone separates the rates); compare
values of the parameter at equal game counts, which a sweep guarantees.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from analysis import paired as _paired
from analysis.stats import wilson

BOOT_REPS = 400
BOOT_CHUNK = 50  # bootstrap replicates drawn at once ...
BOOT_CELLS = 5_000_000  # ... but at most this many weights (chunk x games) in memory


@dataclass
class SweepArm:
    value: object
    run_dir: str
    units: pl.DataFrame   # n_players, unit, games, wins, rate, lo, hi
    shape: pl.DataFrame   # n_players, spread, spread_lo, spread_hi, fpa, fpa_lo, fpa_hi,
                          # fpa_diff, fpa_diff_lo, fpa_diff_hi, variance_reduction


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


def unit_column(players: pl.DataFrame) -> str:
    """'faction' when the game has factions, else 'seat'."""
    return "seat" if players["faction"].n_unique() == 1 else "faction"


def unit_rates(players: pl.DataFrame, unit: str) -> pl.DataFrame:
    """Win rate per (n_players, unit) with Wilson 95% interval."""
    df = (players.group_by("n_players", unit)
          .agg(games=pl.len(), wins=pl.col("win").cast(pl.Float64).sum())
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


def spread(wins: np.ndarray, present: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Largest minus smallest unit rate; with `weights` (replicates x games), one spread
    per replicate. Units never present in a replicate are left out."""
    w = np.ones((1, wins.shape[0])) if weights is None else weights
    num, den = w @ wins, w @ present
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(den > 0, num / den, np.nan)
    return np.nanmax(rate, axis=1) - np.nanmin(rate, axis=1)


def spread_interval(wins: np.ndarray, present: np.ndarray, seed: int, reps: int = BOOT_REPS,
                    confidence: float = 0.95) -> tuple[float, float, float]:
    """Spread and its basic (reverse-percentile) bootstrap interval, games resampled with
    replacement and seeded (same data and seed, same interval).

    The spread is a max minus a min, biased upward by noise; the basic interval
    (2 s - q_hi, 2 s - q_lo) reflects that bias back instead of inheriting it, as the
    percentile interval would. Clipped at 0, the smallest possible spread."""
    rng = np.random.default_rng(seed)
    n = wins.shape[0]
    draws = []
    chunk = max(1, min(BOOT_CHUNK, BOOT_CELLS // max(n, 1)))
    for start in range(0, reps, chunk):
        k = min(chunk, reps - start)
        draws.append(spread(wins, present, rng.multinomial(n, np.full(n, 1.0 / n), size=k).astype(float)))
    boot = np.concatenate(draws)
    tail = (1 - confidence) / 2
    s = float(spread(wins, present)[0])
    q_lo, q_hi = np.quantile(boot, [tail, 1 - tail])
    return s, max(0.0, 2 * s - float(q_hi)), max(0.0, 2 * s - float(q_lo))


def shape(players: pl.DataFrame, reference: pl.DataFrame | None, unit: str, seed: int) -> pl.DataFrame:
    """Spread and first-player advantage per player count, and the paired change of the
    first-player advantage against the reference arm's players (NaN for the reference
    itself: reference=None)."""
    rows = []
    paired = (_paired.paired_stats(_paired.seat_rows(reference, 0), _paired.seat_rows(players, 0),
                                   _paired.GAME_KEYS, ["n_players"], "win")
              if reference is not None else pl.DataFrame(schema={"n_players": pl.Int64}))
    for (n,), part in sorted(players.group_by("n_players"), key=lambda x: x[0]):
        s, s_lo, s_hi = spread_interval(*game_matrix(part, unit), seed=seed + int(n))
        first = part.filter(pl.col("seat") == 0)
        wins, games = float(first["win"].sum()), first.height
        lo, hi = wilson(wins, games)
        pr = paired.filter(pl.col("n_players") == n)
        rows.append({"n_players": int(n), "spread": s, "spread_lo": s_lo, "spread_hi": s_hi,
                     "fpa": wins / games - 1 / n, "fpa_lo": float(lo) - 1 / n, "fpa_hi": float(hi) - 1 / n,
                     "fpa_diff": pr["diff"][0] if pr.height else np.nan,
                     "fpa_diff_lo": pr["lo"][0] if pr.height else np.nan,
                     "fpa_diff_hi": pr["hi"][0] if pr.height else np.nan,
                     "variance_reduction": pr["variance_reduction"][0] if pr.height else np.nan})
    return pl.DataFrame(rows)


def players_table(run_dir) -> pl.DataFrame:
    return _paired.load_units(run_dir).players.select("game_id", "n_players", "seat", "faction",
                                                      pl.col("win").cast(pl.Float64))


def run_sweep(key: str, arms: list[tuple[object, str]], seed: int = 0) -> Sweep:
    """Analyse the arms [(value, run folder), ...] of a sweep over `key`, the first arm
    being the reference for paired changes."""
    reference = players_table(arms[0][1])
    unit = unit_column(reference)
    out = []
    for k, (value, run_dir) in enumerate(arms):
        players = reference if k == 0 else players_table(run_dir)
        out.append(SweepArm(value, str(run_dir), unit_rates(players, unit),
                            shape(players, reference if k else None, unit, seed)))
    sweep = Sweep(key, unit, out)
    sweep.verdicts = sweep_lines(sweep)
    return sweep


def sweep_lines(s: Sweep) -> list[str]:
    """Per player count: where the spread and the first-player advantage are smallest."""
    table = s.shape_table()
    lines = [f"Sweep of {s.key} over {', '.join(str(a.value) for a in s.arms)} "
             f"(same seed in every arm; paired changes are against {s.key} = {s.arms[0].value})."]
    for (n,), part in sorted(table.group_by("n_players"), key=lambda x: x[0]):
        best = part.sort("spread").row(0, named=True)
        fair = part.with_columns(a=pl.col("fpa").abs()).sort("a").row(0, named=True)
        lines.append(f"{n} players: smallest {s.kind} win-rate spread at {s.key} = {best['value']} "
                     f"({100 * best['spread']:.1f} pp, 95% CI {100 * best['spread_lo']:.1f} to "
                     f"{100 * best['spread_hi']:.1f}); first-player advantage closest to 0 at "
                     f"{fair['value']} ({100 * fair['fpa']:+.1f} pp).")
    return lines
