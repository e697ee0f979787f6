"""`analyze`: turn one run folder into a RunAnalysis of polars tables and verdict lines."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import polars as pl

from analysis import factions as fx
from analysis import runfolder, verdicts
from analysis.clustered import card_differences
from analysis.games import card_kinds, extras_for
from analysis.rounds import RoundsAnalysis, analyze_rounds, with_round_shape
from analysis.runfolder import query
from analysis.stats import (
    fairness_verdict,
    games_needed,
    games_to_decide,
    holm,
    rate_vs_fair_p,
    wilson,
    with_interval,
)

NO_FACTION = "none"
PLAY_KINDS = ["play"]  # event kinds valued as "played"; a manifest may list more (value_kinds)
CARD_VALUE_MAX_GAMES = 300_000  # card value uses the first games of larger runs (see card_value.sql)
ALPHA = 0.05
PLANNER_DEVIATIONS = (0.01, 0.02, 0.03)
PLANNER_POWER = 0.80


@dataclass
class RunAnalysis:
    """Everything the reports need about one run. All tables are polars DataFrames,
    one row per player count (and seat / faction / card) unless stated otherwise."""

    run_dir: str
    manifest: dict
    band: float
    seat_winrate: pl.DataFrame      # n_players, seat, games, wins, rate, lo, hi, fair, deviation, verdict,
                                    # more_games, p_value, p_holm, significant_holm
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
    planner: pl.DataFrame = field(default_factory=pl.DataFrame)     # see `planner`
    card_value_games: int = 0       # games the card table was computed on (CARD_VALUE_MAX_GAMES)
    game_shape: pl.DataFrame = field(default_factory=pl.DataFrame)  # see `game_shape`
    # Ratings and card detail (analysis/factions.py); empty frames where they do not apply.
    strength: pl.DataFrame = field(default_factory=pl.DataFrame)       # winner + finishing order
    strength_games: int = 0         # games the strength fits used (counted in the data)
    faction_seat: pl.DataFrame = field(default_factory=pl.DataFrame)
    copresence: pl.DataFrame = field(default_factory=pl.DataFrame)
    copresence_games: int = 0       # games the head-to-head matrix used (COPRESENCE_MAX_GAMES)
    convergence: pl.DataFrame = field(default_factory=pl.DataFrame)
    card_basis: str = "played"      # what card value compares: 'acquired' or 'played'
    card_adjusted: pl.DataFrame = field(default_factory=pl.DataFrame)  # faction-adjusted
    card_by_round: pl.DataFrame = field(default_factory=pl.DataFrame)
    card_unused: pl.DataFrame = field(default_factory=pl.DataFrame)    # empty: use not logged
    rounds: RoundsAnalysis = field(default_factory=RoundsAnalysis)  # lead changes, comebacks
    # Every verdict as a machine-readable record (analysis/records.py): what --format json
    # writes and what the text verdict lines are rendered from.
    records: list = field(default_factory=list)

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
    ).pipe(with_tests)


def with_tests(df: pl.DataFrame) -> pl.DataFrame:
    """Add p_value (two-sided score test of rate against fair, the test the Wilson
    interval inverts), p_holm (Holm-adjusted across every row of the table: one
    family) and significant_holm (p_holm < 5%) to a table with wins, games, fair."""
    p = rate_vs_fair_p(df["wins"].to_numpy(), df["games"].to_numpy(), df["fair"].to_numpy())
    adjusted = holm(p)
    return df.with_columns(p_value=pl.Series(p), p_holm=pl.Series(adjusted),
                           significant_holm=pl.Series(adjusted < ALPHA))


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


def planner(game_length: pl.DataFrame, deviations=PLANNER_DEVIATIONS,
            confidence: float = 1 - ALPHA, power: float = PLANNER_POWER) -> pl.DataFrame:
    """How many games tell a seat's deviation from its fair share 1/n, per player count.

    One row per (n_players, deviation): fair, games_needed (each game gives one
    observation per seat, so games = samples per seat; see `stats.games_needed`),
    games (in this run at that count) and enough (games >= games_needed).
    """
    rows = [(n, d, g) for n, g in zip(game_length["n_players"], game_length["games"], strict=True)
            for d in deviations]
    n_players = np.array([r[0] for r in rows], dtype=np.int64)
    deviation = np.array([r[1] for r in rows], dtype=float)
    games = np.array([r[2] for r in rows], dtype=np.int64)
    fair = 1.0 / n_players if rows else np.array([], dtype=float)
    needed = games_needed(fair, deviation, confidence, power).astype(np.int64)
    return pl.DataFrame({
        "n_players": n_players, "deviation": deviation, "fair": fair,
        "confidence": np.full(len(rows), confidence), "power": np.full(len(rows), power),
        "games_needed": needed, "games": games, "enough": games >= needed,
    })


def game_shape(bal: pl.DataFrame, first: pl.DataFrame, ties: pl.DataFrame,
               length: pl.DataFrame, margins: pl.DataFrame) -> pl.DataFrame:
    """Ludii-style summary, one row per player count: games, balance, first-player
    advantage, tie rate, mean rounds, mean decisions and mean winning margin."""
    parts = [
        length.select("n_players", "games", "mean_rounds", "mean_decisions"),
        bal.select("n_players", "balance"),
        first.select("n_players", first_player_advantage="advantage"),
        ties.select("n_players", tie_rate="rate"),
        margins.select("n_players", mean_margin="mean"),
    ]
    shape = parts[0]
    for part in parts[1:]:
        shape = shape.join(part, on="n_players", how="left")
    return shape.select("n_players", "games", "balance", "first_player_advantage", "tie_rate",
                        "mean_rounds", "mean_decisions", "mean_margin").sort("n_players")


def value_kinds(manifest: dict) -> tuple[list[str], str]:
    """Event kinds card value compares on, and what they mean: the manifest's value_kinds,
    else the kinds that acquire a card where the game logs them, else plays."""
    if "value_kinds" in manifest:
        return list(manifest["value_kinds"]), "played"
    acquire, _ = card_kinds(manifest.get("game"))
    return (acquire, "acquired") if acquire else (PLAY_KINDS, "played")


def card_value(con: duckdb.DuckDBPyConnection, manifest: dict) -> pl.DataFrame:
    """Card table: Wilson intervals for both rates (over players), the difference of the
    rates with a game-clustered 95% interval (diff_se; players of one game share its win,
    see analysis/clustered.py), its Wald p-value Holm-adjusted across the table, and the
    display name from the manifest's card list."""

    kinds = value_kinds(manifest)[0]
    df = query(con, "card_value", kinds=kinds, max_game=CARD_VALUE_MAX_GAMES)
    if df.is_empty():
        return df.with_columns(name=pl.lit(None, dtype=pl.String))
    df = with_interval(df, "wins_with", "players_with", "with_")
    df = with_interval(df, "wins_without", "players_without", "without_")
    diffs = card_differences(con, kinds, CARD_VALUE_MAX_GAMES, by_faction=False).select(
        "n_players", "card", diff_se="se", diff_lo="lo", diff_hi="hi", p_value="p_value")
    df = df.join(diffs, on=["n_players", "card"], how="left").sort("n_players", "card")
    adjusted = holm(df["p_value"].to_numpy())
    return df.with_columns(
        diff=pl.col("rate_with") - pl.col("rate_without"),
        name=pl.Series(card_names(manifest, df["card"]), dtype=pl.String),
        p_holm=pl.Series(adjusted), significant_holm=pl.Series(adjusted < ALPHA),
    )


def card_names(manifest: dict, cards) -> list[str]:
    """Display names from the manifest's card list (the id where it has none)."""
    names = {c.get("id"): c.get("name") for c in manifest.get("cards") or [] if isinstance(c, dict)}
    return [names.get(c, c) for c in cards]


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
    length = query(con, "game_length")
    margins = query(con, "margin_summary")
    ties = with_interval(query(con, "tie_rate"), "ties", "games")
    plan = planner(length)
    # One faction for everybody (e.g. Homebrewers' standard variant) is a symmetric game here.
    several = not factions.is_empty() and factions["faction"].n_unique() > 1
    detail = ratings_and_cards(con, manifest, has_factions=several)
    rounds = analyze_rounds(con)
    lines = (verdicts.fairness_lines(seat, "seat", band)
             + verdicts.first_player_lines(first)
             + verdicts.balance_line(bal)
             + verdicts.fairness_lines(factions, "faction", band)
             + verdicts.strength_lines(detail["strength"])
             + verdicts.planner_lines(plan))
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
        margins=margins,
        margin_hist=query(con, "margin_hist"),
        game_length=length,
        tie_rate=ties,
        end_reasons=query(con, "end_reasons"),
        card_value=card_value(con, manifest),
        card_value_games=int(query(con, "games_below", max_game=CARD_VALUE_MAX_GAMES)["games"][0]),
        extras=extras_for(manifest.get("game"), con),
        verdicts=lines,
        estimates=[e for e in manifest.get("estimates") or [] if isinstance(e, dict)],
        player_extra_means=_extra_means(con, "players"),
        game_extra_means=_extra_means(con, "games"),
        planner=plan,
        game_shape=with_round_shape(game_shape(bal, first, ties, length, margins), rounds),
        rounds=rounds,
        **detail,
    )


def ratings_and_cards(con, manifest: dict, has_factions: bool) -> dict:
    """The RunAnalysis fields computed in analysis/factions.py, by name."""
    kinds, basis = value_kinds(manifest)
    acquire, use = card_kinds(manifest.get("game"))
    strength = fx.strength(con, has_factions, NO_FACTION)
    detail = {
        "strength": strength,
        "strength_games": int(strength["games"][0]) if not strength.is_empty() else 0,
        "convergence": fx.convergence(con, has_factions, NO_FACTION),
        "card_basis": basis,
        "card_by_round": fx.card_by_round(con, kinds, CARD_VALUE_MAX_GAMES),
        "card_unused": (fx.card_unused(con, acquire, use, CARD_VALUE_MAX_GAMES)
                        if acquire and use else pl.DataFrame()),
    }
    if has_factions:
        adjusted = fx.card_adjusted(con, kinds, CARD_VALUE_MAX_GAMES)
        detail.update(faction_seat=fx.faction_seat(con, NO_FACTION),
                      copresence=fx.copresence(con, NO_FACTION),
                      copresence_games=min(int(manifest.get("n_games") or 0),
                                           fx.COPRESENCE_MAX_GAMES),
                      card_adjusted=adjusted.with_columns(
                          name=pl.Series(card_names(manifest, adjusted["card"]), dtype=pl.String)))
    return detail
