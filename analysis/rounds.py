"""Game shape from the rounds table: lead changes, comeback odds by deficit, and how often
the leader after a round goes on to win.

Runs made before the rounds table existed have no `rounds` view; their RoundsAnalysis is
`available = False` and the report says so instead of showing these tables.

Definitions (the SQL files carry them too):
- leader after a round: the one player with the top score; a shared top score means no leader;
- lead change: a round whose leader differs from the most recent earlier round with a leader;
- deficit: the top score minus the player's score after the round (0 when leading or tied);
- deficit buckets: 0, then the quartiles of the positive deficits of this run (rounds before
  each game's last), so they follow the game's own score scale.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import duckdb
import numpy as np
import polars as pl

from analysis.runfolder import has_view, query, sql_text
from analysis.stats import clustered_ratio_se, wilson, wilson_clustered

MAX_GAMES = 300_000  # larger runs use their first games: intervals are already tight there
_HIST_SCHEMA = {"n_players": pl.Int64, "lead_changes": pl.Int64, "games": pl.Int64}


@dataclass
class RoundsAnalysis:
    """Everything computed from the rounds table. Empty tables when `available` is False."""

    available: bool = False
    lead_change_hist: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=_HIST_SCHEMA))
    # n_players, games, mean, sd, max, any_games, any_rate, any_lo, any_hi
    lead_changes: pl.DataFrame = field(default_factory=pl.DataFrame)
    # n_players, round, bucket, deficit (label), players (player-rounds), wins, rate, lo, hi
    # (game-clustered), se, games, min_deficit, max_deficit, sum_w2, sum_wn, sum_n2
    comeback: pl.DataFrame = field(default_factory=pl.DataFrame)
    # the same pooled over every round before the last (one player counted once per round;
    # the interval is clustered by game): n_players, bucket, deficit, players, ...
    comeback_pooled: pl.DataFrame = field(default_factory=pl.DataFrame)
    leader_wins: pl.DataFrame = field(default_factory=pl.DataFrame)  # n_players, round, games, wins, rate, lo, hi
    edges: list[int] = field(default_factory=list)  # upper edges of deficit buckets 1..len(edges)
    max_game: int = MAX_GAMES  # computed on games with game_id < max_game

    @property
    def deficit_labels(self) -> list[str]:
        """Display label of every deficit bucket (see `bucket_labels`)."""
        return bucket_labels(self.edges)


def bucket_labels(edges: list[int]) -> list[str]:
    """Display label of every deficit bucket: '0', then '1-e1', 'e1+1-e2', ..., 'eK+1 or more'."""
    labels, low = ["0"], 1
    for e in edges:
        labels.append(f"{low}" if e == low else f"{low}-{e}")
        low = e + 1
    labels.append(f"{low} or more")
    return labels


def clean_edges(raw) -> list[int]:
    """Quartile edges from deficit_edges.sql as strictly increasing positive integers."""
    return sorted({int(e) for e in ([] if raw is None else raw) if e is not None and e >= 1})


def with_wilson(df: pl.DataFrame, wins: str = "wins", n: str = "games", prefix: str = "") -> pl.DataFrame:
    if df.is_empty():
        return df.with_columns(pl.lit(None, pl.Float64).alias(f"{prefix}lo"), pl.lit(None, pl.Float64).alias(f"{prefix}hi"))
    lo, hi = wilson(df[wins].to_numpy(), df[n].to_numpy())
    return df.with_columns(pl.Series(f"{prefix}lo", lo), pl.Series(f"{prefix}hi", hi))


def lead_change_summary(hist: pl.DataFrame) -> pl.DataFrame:
    """Per player count from the histogram: games, mean, sd (sample), max, and the share of
    games with at least one lead change with its Wilson interval."""
    rows = []
    for (n,), g in hist.group_by("n_players", maintain_order=True):
        k = g["lead_changes"].to_numpy().astype(float)
        w = g["games"].to_numpy().astype(float)
        games = w.sum()
        mean = float((k * w).sum() / games)
        sd = float(np.sqrt(((k - mean) ** 2 * w).sum() / (games - 1))) if games > 1 else None
        rows.append({"n_players": int(n), "games": int(games), "mean": mean, "sd": sd,
                     "max": int(k.max()), "any_games": int(w[k > 0].sum())})
    schema = {"n_players": pl.Int64, "games": pl.Int64, "mean": pl.Float64, "sd": pl.Float64,
              "max": pl.Int64, "any_games": pl.Int64}
    df = pl.DataFrame(rows, schema=schema).sort("n_players")
    df = df.with_columns(any_rate=pl.col("any_games") / pl.col("games"))
    return with_wilson(df, "any_games", "games", "any_")


def _labelled(df: pl.DataFrame, edges: list[int]) -> pl.DataFrame:
    labels = bucket_labels(edges)
    return df.with_columns(deficit=pl.col("bucket").replace_strict(dict(enumerate(labels)), return_dtype=pl.String))


def with_clustered(df: pl.DataFrame, wins: str = "wins", n: str = "players") -> pl.DataFrame:
    """Wilson interval at the game-clustered effective sample size (players of one game
    share its win, and pooled rows count one player once per round), from the per-game
    moments the SQL returns; adds se, lo, hi."""
    if df.is_empty():
        return with_wilson(df, wins, n)
    se = clustered_ratio_se(df[wins], df[n], df["sum_w2"], df["sum_wn"], df["sum_n2"], df["games"])
    lo, hi = wilson_clustered(df[wins], df[n], se)
    return df.with_columns(se=pl.Series(se), lo=pl.Series(lo), hi=pl.Series(hi))


def analyze_rounds(con: duckdb.DuckDBPyConnection, max_game: int = MAX_GAMES) -> RoundsAnalysis:
    """Lead changes, comeback odds and leader-wins rates over the games with game_id <
    max_game, or `available = False` when the run has no rounds table."""
    if not has_view(con, "rounds"):
        return RoundsAnalysis()
    # a table, not a view: four queries below read it, and each would compute its window
    # functions again (about a tenth of a large report's time); MAX_GAMES bounds its size
    con.execute(f"CREATE OR REPLACE TEMP TABLE standings AS {sql_text('round_standings')}",
                {"max_game": max_game})
    hist = query(con, "lead_changes", max_game=max_game)
    edges = clean_edges(con.execute(sql_text("deficit_edges")).fetchall()[0][0])  # a list or None
    comeback = _labelled(with_clustered(query(con, "comeback", edges=edges)), edges)
    pool = _labelled(with_clustered(query(con, "comeback_pooled", edges=edges)), edges)
    return RoundsAnalysis(
        available=True,
        lead_change_hist=hist,
        lead_changes=lead_change_summary(hist),
        comeback=comeback,
        comeback_pooled=pool,
        leader_wins=with_wilson(query(con, "leader_wins")),
        edges=edges,
        max_game=max_game,
    )


def with_round_shape(shape: pl.DataFrame, ra: RoundsAnalysis) -> pl.DataFrame:
    """Add mean_lead_changes and first_leader_wins (how often the leader after round 1 wins)
    to the game-shape table; unchanged when the run has no rounds table."""
    if not ra.available or ra.lead_changes.is_empty():
        return shape
    leads = ra.lead_changes.select("n_players", mean_lead_changes="mean")
    first = ra.leader_wins.filter(pl.col("round") == 1).select("n_players", first_leader_wins="rate")
    return shape.join(leads, on="n_players", how="left").join(first, on="n_players", how="left")
