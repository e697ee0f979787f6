"""Sequential stopping: add games until every faction's (or seat's) deviation from its fair
share 1/n is decided inside or outside the fairness band.

The test is a group-sequential procedure with Bonferroni alpha spending:

* The looks are planned in advance: one after every batch of `batch` games, at most
  K = ceil(max_games / batch) looks.
* There are m hypotheses, one per (player count, faction) or (player count, seat),
  counted in advance from the game's factions (or seats) and player counts.
* At every look, each hypothesis gets a two-sided Wilson interval at level
  1 - alpha / (K m). By the union bound, all K m intervals cover their true rates at
  the same time with probability at least 1 - alpha, whatever the dependence between
  looks, seats or factions.
* A hypothesis is decided 'inside' when its interval lies within [fair - band,
  fair + band], 'outside' when it lies entirely beyond one edge; once decided it stays
  decided. On the event that every interval covers, every decision is right, so the
  chance that any decision is wrong is at most alpha (family-wise, across looks and
  hypotheses).

Each observation is a game's win indicator of one seat or faction (1/k for a k-way shared
victory). Its variance is at most p(1 - p), the Bernoulli variance the Wilson interval
assumes, so shared victories only make the interval conservative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis.stats import INSIDE, OUTSIDE, UNDECIDED, fairness_verdict, wilson


@dataclass(frozen=True)
class Plan:
    """The planned looks and the per-interval confidence they imply."""

    band: float
    alpha: float
    batch: int
    max_games: int
    hypotheses: int

    @property
    def looks(self) -> int:
        return math.ceil(self.max_games / self.batch)

    def confidence(self) -> float:
        """Confidence of each interval: 1 - alpha / (looks x hypotheses)."""
        return 1.0 - self.alpha / (self.looks * max(1, self.hypotheses))


def hypotheses(players: pl.DataFrame) -> pl.DataFrame:
    """One row per hypothesis with wins and games so far: per (n_players, faction) in a
    game with factions, per (n_players, seat) in a symmetric game.

    `players` needs n_players, seat, faction and win (one row per game and seat)."""
    return look_tables(players.with_columns(game_id=pl.lit(0)), batch=1)[0]


def look_tables(players: pl.DataFrame, batch: int) -> list[pl.DataFrame]:
    """The hypothesis table (see `hypotheses`) after each look, cumulative: look k (from 1)
    covers games 0 .. k * batch - 1. `players` also needs game_id."""
    unit = "seat" if players["faction"].n_unique() == 1 else "faction"
    per_look = (players.group_by((pl.col("game_id") // batch).alias("look"), "n_players",
                                 pl.col(unit).cast(pl.String).alias("unit"))
                .agg(wins=pl.col("win").cast(pl.Float64).sum(), games=pl.len()))
    looks = int(per_look["look"].max()) + 1 if per_look.height else 0
    return [per_look.filter(pl.col("look") <= k).group_by("n_players", "unit")
            .agg(pl.col("wins").sum(), pl.col("games").sum())
            .with_columns(kind=pl.lit(unit)).select("n_players", "kind", "unit", "wins", "games")
            .sort("n_players", "unit") for k in range(looks)]


def step(wins, games, fair, plan: Plan, previous=None):
    """One look of the procedure on arrays (any shape, element by element): Wilson
    intervals at the per-interval confidence and the verdicts, keeping any verdict
    already decided in `previous` (same shape; UNDECIDED where still open).
    Returns (lo, hi, verdict)."""
    lo, hi = wilson(wins, games, plan.confidence())
    verdict = fairness_verdict(lo, hi, fair, plan.band)
    if previous is not None:
        previous = np.asarray(previous)
        verdict = np.where(previous != UNDECIDED, previous, verdict)
    return lo, hi, verdict


def decide(table: pl.DataFrame, plan: Plan, previous: dict | None = None) -> pl.DataFrame:
    """Add rate, lo, hi (Wilson at the plan's per-interval confidence), fair and verdict.

    `previous` maps (n_players, unit) -> a verdict reached at an earlier look: a decided
    hypothesis keeps its verdict (the procedure stops monitoring it)."""
    wins, games = table["wins"].to_numpy(), table["games"].to_numpy()
    conf = plan.confidence()
    fair = 1.0 / table["n_players"].to_numpy()
    keys = zip(table["n_players"].to_list(), table["unit"].to_list(), strict=True)
    before = np.array([(previous or {}).get(k, UNDECIDED) for k in keys], dtype=object)
    lo, hi, verdict = step(wins, games, fair, plan, before)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = wins / games
    return table.with_columns(rate=pl.Series(rate), lo=pl.Series(lo), hi=pl.Series(hi),
                              fair=pl.Series(fair), confidence=pl.lit(conf),
                              verdict=pl.Series(verdict, dtype=pl.String))


def verdict_map(decided: pl.DataFrame) -> dict:
    return {(n, u): v for n, u, v in decided.select("n_players", "unit", "verdict").iter_rows()}


def all_decided(decided: pl.DataFrame) -> bool:
    return bool((decided["verdict"] != UNDECIDED).all())


def summary_lines(decided: pl.DataFrame, plan: Plan, n_games: int, stopped: bool) -> list[str]:
    """What the procedure concluded, in words."""
    kind = decided["kind"][0] if decided.height else "seat"
    head = (f"Decided after {n_games:,} games: every {kind} is inside or outside the band "
            f"of +/-{100 * plan.band:g} pp around 1/n" if stopped else
            f"Not decided: stopped at the limit of {plan.max_games:,} games with "
            f"{int((decided['verdict'] == UNDECIDED).sum())} {kind}(s) still undecided")
    per = 1 - decided["confidence"][0]
    lines = [head + f" (family-wise error <= {plan.alpha:g}: {plan.looks} planned looks "
             f"of {plan.batch:,} games x {plan.hypotheses} hypotheses, each interval at error {per:.2g})."]
    for verdict in (OUTSIDE, INSIDE, UNDECIDED):
        rows = decided.filter(pl.col("verdict") == verdict)
        if rows.height:
            names = ", ".join(f"{r['kind']} {r['unit']} at {r['n_players']}p "
                              f"({100 * (r['rate'] - r['fair']):+.1f} pp, n {r['games']:,})"
                              for r in rows.to_dicts())
            lines.append(f"{verdict} the band: {names}")
    return lines


def run_sequence(looks: list[pl.DataFrame], plan: Plan) -> tuple[pl.DataFrame, int]:
    """Apply the procedure to cumulative tables, one per look (for tests and replays of
    a finished run). Returns the final decision table and the 1-based look it stopped at
    (len(looks) when it never stopped)."""
    previous: dict = {}
    decided = None
    for k, table in enumerate(looks, start=1):
        decided = decide(table, plan, previous)
        previous = verdict_map(decided)
        if all_decided(decided):
            return decided, k
    return decided, len(looks)
