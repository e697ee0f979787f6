"""`analyze`: turn one run folder into a RunAnalysis of polars tables and verdict lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl

from analysis import runfolder, verdicts
from analysis.games import extras_for
from analysis.runfolder import query
from analysis.stats import fairness_verdict, games_to_decide, newcombe_diff, wilson

NO_FACTION = "none"
PLAY_KINDS = ["play"]  # event kinds valued as "played"; a manifest may list more (value_kinds)


@dataclass
class RunAnalysis:
    """Everything the reports need about one run. All tables are polars DataFrames,
    one row per player count (and seat / faction / card) unless stated otherwise."""

    run_dir: str
    manifest: dict
    band: float
    seat_winrate: pl.DataFrame      # n_players, seat, games, wins, rate, lo, hi, fair, deviation, verdict, more_games
    first_player: pl.DataFrame      # n_players, games, wins, rate, lo, hi, fair, advantage, verdict
    balance: pl.DataFrame           # n_players, balance, gap, best_seat, worst_seat
    faction_winrate: pl.DataFrame   # empty when every faction is 'none'
    scores: pl.DataFrame            # score summary
    score_hist: pl.DataFrame        # n_players, score, players
    margins: pl.DataFrame           # margin summary
    margin_hist: pl.DataFrame       # n_players, margin, games
    game_length: pl.DataFrame
    tie_rate: pl.DataFrame          # n_players, games, ties, rate, lo, hi
    end_reasons: pl.DataFrame
    card_value: pl.DataFrame        # per n_players and card, with intervals
    extras: dict[str, pl.DataFrame] = field(default_factory=dict)
    verdicts: list[str] = field(default_factory=list)
    estimates: list[dict] = field(default_factory=list)
    player_extra_means: pl.DataFrame = field(default_factory=pl.DataFrame)
    game_extra_means: pl.DataFrame = field(default_factory=pl.DataFrame)

    @property
    def has_factions(self) -> bool:
        return not self.faction_winrate.is_empty()

    @property
    def game(self) -> str:
        return str(self.manifest.get("game", "unknown game"))

    @property
    def n_games(self) -> int:
        """Games actually found in the run folder (the manifest may say otherwise)."""
        return int(self.game_length["games"].sum()) if not self.game_length.is_empty() else 0


def with_fairness(df: pl.DataFrame, band: float) -> pl.DataFrame:
    """Add lo, hi (Wilson 95%), fair (1/n), deviation, verdict and more_games to a
    win-rate table with columns n_players, games, wins, rate."""
    if df.is_empty():
        return df
    lo, hi = wilson(df["wins"].to_numpy(), df["games"].to_numpy())
    fair = 1.0 / df["n_players"].to_numpy()
    rate = df["rate"].to_numpy()
    more = games_to_decide(rate, lo, hi, df["games"].to_numpy(), fair, band)
    return df.with_columns(
        lo=pl.Series(lo),
        hi=pl.Series(hi),
        fair=pl.Series(fair),
        deviation=pl.Series(rate - fair),
        verdict=pl.Series(fairness_verdict(lo, hi, fair, band), dtype=pl.String),
        more_games=pl.Series(more),
    )


def first_player(seat_winrate: pl.DataFrame) -> pl.DataFrame:
    """Seat 0's row per player count, with its advantage over a fair share."""
    return (
        seat_winrate.filter(pl.col("seat") == 0)
        .select("n_players", "games", "wins", "rate", "lo", "hi", "fair", "verdict")
        .with_columns(advantage=pl.col("rate") - pl.col("fair"))
    )


def balance(seat_winrate: pl.DataFrame) -> pl.DataFrame:
    """Ludii-style balance per player count: 1 - (best seat rate - worst seat rate)."""
    if seat_winrate.is_empty():
        return pl.DataFrame(schema={"n_players": pl.Int64, "balance": pl.Float64,
                                    "gap": pl.Float64, "best_seat": pl.Int64,
                                    "worst_seat": pl.Int64})
    return (
        seat_winrate.group_by("n_players")
        .agg(
            gap=pl.col("rate").max() - pl.col("rate").min(),
            best_seat=pl.col("seat").sort_by("rate", descending=True).first(),
            worst_seat=pl.col("seat").sort_by("rate").first(),
        )
        .with_columns(balance=1 - pl.col("gap"))
        .select("n_players", "balance", "gap", "best_seat", "worst_seat")
        .sort("n_players")
    )


def with_interval(df: pl.DataFrame, successes: str, n: str, prefix: str = "") -> pl.DataFrame:
    """Add Wilson 95% columns `<prefix>lo`, `<prefix>hi` for successes / n."""
    lo, hi = wilson(df[successes].to_numpy(), df[n].to_numpy())
    return df.with_columns(pl.Series(f"{prefix}lo", lo), pl.Series(f"{prefix}hi", hi))


def card_value(con: duckdb.DuckDBPyConnection, manifest: dict) -> pl.DataFrame:
    """Card table with Wilson intervals for both rates, the Newcombe interval of their
    difference, and the display name from the manifest's card list."""

    df = query(con, "card_value", kinds=list(manifest.get("value_kinds", PLAY_KINDS)))
    if df.is_empty():
        return df.with_columns(name=pl.lit(None, dtype=pl.String))
    df = with_interval(df, "wins_with", "players_with", "with_")
    df = with_interval(df, "wins_without", "players_without", "without_")
    diff, lo, hi = newcombe_diff(df["wins_with"].to_numpy(), df["players_with"].to_numpy(),
                                 df["wins_without"].to_numpy(), df["players_without"].to_numpy())
    names = {c.get("id"): c.get("name") for c in manifest.get("cards") or [] if isinstance(c, dict)}
    return df.with_columns(
        diff=pl.Series(diff), diff_lo=pl.Series(lo), diff_hi=pl.Series(hi),
        name=pl.Series([names.get(c, c) for c in df["card"]], dtype=pl.String),
    )


def _extra_means(con: duckdb.DuckDBPyConnection, view: str) -> pl.DataFrame:
    # The UNPIVOT query needs at least one extra column to exist.
    if not runfolder.extra_columns(con, view):
        return pl.DataFrame(schema={"n_players": pl.Int64, "metric": pl.String, "n": pl.Int64,
                                    "mean": pl.Float64, "sd": pl.Float64})
    return query(con, "player_extra_means" if view == "players" else "game_extra_means")


def analyze(run_dir: str | Path, band: float = 0.03) -> RunAnalysis:
    """Analyse a run folder. See `analysis.analyze` for the public documentation."""
    run_dir = Path(run_dir)
    manifest = runfolder.load_manifest(run_dir)
    con = runfolder.connect(run_dir)
    try:
        return _analyze(con, run_dir, manifest, band)
    finally:
        con.close()


def _analyze(con, run_dir: Path, manifest: dict, band: float) -> RunAnalysis:
    seat = with_fairness(query(con, "seat_winrate"), band)
    factions = with_fairness(query(con, "faction_winrate", none_label=NO_FACTION), band)
    first = first_player(seat)
    bal = balance(seat)
    lines = (verdicts.fairness_lines(seat, "seat", band)
             + verdicts.first_player_lines(first)
             + verdicts.balance_line(bal)
             + verdicts.fairness_lines(factions, "faction", band))
    return RunAnalysis(
        run_dir=str(run_dir),
        manifest=manifest,
        band=band,
        seat_winrate=seat,
        first_player=first,
        balance=bal,
        faction_winrate=factions,
        scores=query(con, "score_summary"),
        score_hist=query(con, "score_hist"),
        margins=query(con, "margin_summary"),
        margin_hist=query(con, "margin_hist"),
        game_length=query(con, "game_length"),
        tie_rate=with_interval(query(con, "tie_rate"), "ties", "games"),
        end_reasons=query(con, "end_reasons"),
        card_value=card_value(con, manifest),
        extras=extras_for(manifest.get("game"), con),
        verdicts=lines,
        estimates=[e for e in manifest.get("estimates") or [] if isinstance(e, dict)],
        player_extra_means=_extra_means(con, "players"),
        game_extra_means=_extra_means(con, "games"),
    )
