"""`analyze`: turn one run folder into a RunAnalysis of polars tables and verdict lines."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import polars as pl

from analysis import factions as fx
from analysis import runfolder, verdicts
from analysis.clustered import CardCells, card_cells, card_differences, card_records
from analysis.games import card_kinds, extras_for
from analysis.metrics import (
    ALPHA,
    fair_share,
    first_player_advantage,
    first_seat,
    holm_family,
    significant,
)
from analysis.records import Verdict
from analysis.rounds import RoundsAnalysis, analyze_rounds, with_round_shape
from analysis.runfolder import query
from analysis.sequential import sequential_records
from analysis.stats import (
    band_decision,
    games_needed,
    games_to_decide,
    games_to_decide_band,
    rate_vs_fair_p,
    wilson,
    with_interval,
)

NO_FACTION = "none"
PLAY_KINDS = ["play"]  # event kinds valued as "played"; a manifest may list more (value_kinds)
CARD_VALUE_MAX_GAMES = 300_000  # card value uses the first games of larger runs (see card_value.sql)
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
    estimate_influence: list[dict] = field(default_factory=list)  # from `report --sensitivity`
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
    def strength_kind(self) -> str:
        """What the strength table rates: 'faction', or 'seat' in a symmetric game."""
        return fx.strength_kind(self.strength)

    @property
    def strength_notes(self) -> list[str]:
        """What the strength fits saw: the games fitted and the player counts pooled."""
        first = self.strength.row(0, named=True)
        notes = (fx.fitted_note(first["games"], first.get("games_total")),
                 fx.pooled_note(first["player_counts"]))
        return [n for n in notes if n]

    @property
    def game(self) -> str:
        return str(self.manifest.get("game", "unknown game"))

    @property
    def n_games(self) -> int:
        """Games actually found in the run folder (the manifest may say otherwise)."""
        return int(self.game_length["games"].sum()) if not self.game_length.is_empty() else 0


FAMILY = "lead verdicts: seat and faction bands"
FAMILY_DEFINITION = (
    "The inside/outside/undecided verdicts the report leads with: one hypothesis per seat and "
    "per faction at each player count (at 2 players only seat 0: seat 1's rate is 1 minus "
    "seat 0's), plus the winner-model strength flag of each faction (games with factions). "
    "Bonferroni: every interval is taken at level 1 - alpha / m, so the chance that any of "
    "the m verdicts is wrong is at most alpha. Other tables (point-null Holm lines, cards, "
    "strength detail, comparisons) are separate families.")
COMPLEMENT = "complement of seat 0"  # `family` of seat 1 at 2 players: not a separate test
BALANCE_NULL_REPS = 2_000  # multinomial draws for the expected gap under fairness


def complement_rows(df: pl.DataFrame) -> np.ndarray:
    """True for rows that repeat another row's hypothesis: seat 1 at 2 players, whose win
    rate is 1 minus seat 0's (shared wins count 1/2 each, so the two still sum to 1)."""
    if df.is_empty() or "seat" not in df.columns:
        return np.zeros(df.height, dtype=bool)
    return ((df["n_players"] == 2) & (df["seat"] == 1)).to_numpy()


def winner_strength_rows(strength: pl.DataFrame) -> int:
    """Winner-model strength flags in the lead family (factions.lead_flags)."""
    return 0 if strength.is_empty() else strength.filter(fx.lead_flags(strength)).height


def family_size(seat: pl.DataFrame, factions: pl.DataFrame, strength: pl.DataFrame) -> int:
    """m of the lead family: seat rows (complements left out) + faction rows + winner flags."""
    return (int((~complement_rows(seat)).sum()) + factions.height
            + winner_strength_rows(strength))


def with_fairness(df: pl.DataFrame, band: float, family: int | None = None,
                  alpha: float = ALPHA) -> pl.DataFrame:
    """Add the fairness columns to a win-rate table with n_players, games, wins, rate:

    lo, hi     marginal Wilson 95% interval (for display)
    fair, deviation   1/n and rate - 1/n
    verdict, verdict_lo, verdict_hi, p_adjusted   the band verdict decided on the Wilson
               interval at 1 - alpha / m (Bonferroni over the `family` of m hypotheses;
               default: this table's rows), see `stats.band_decision`
    family     FAMILY, or COMPLEMENT for seat 1 at 2 players (same test as seat 0)
    more_games rough extra games that would decide an undecided row at that level; for a
               faction table (column games_with: games fielding the faction) the seats
               are converted to games with the faction's seats per game
    and the point-null tests of `with_tests`."""
    if df.is_empty():
        return df
    wins, games = df["wins"].to_numpy(), df["games"].to_numpy()
    lo, hi = wilson(wins, games)
    fair = fair_share(df["n_players"].to_numpy())
    rate = df["rate"].to_numpy()
    complement = complement_rows(df)
    m = family if family is not None else int((~complement).sum())
    v_lo, v_hi, verdict, p_adj = band_decision(wins, games, fair, band, m, alpha)
    more = games_to_decide(rate, v_lo, v_hi, games, fair, band)
    if "games_with" in df.columns:  # seats -> games: a game fields games/games_with copies
        more = np.ceil(more * df["games_with"].to_numpy() / games)
    return df.with_columns(
        lo=pl.Series(lo),
        hi=pl.Series(hi),
        fair=pl.Series(fair),
        deviation=pl.Series(rate - fair),
        verdict=pl.Series(verdict, dtype=pl.String),
        more_games=pl.Series(more),
        verdict_lo=pl.Series(v_lo),
        verdict_hi=pl.Series(v_hi),
        p_adjusted=pl.Series(p_adj),
        family=pl.Series(np.where(complement, COMPLEMENT, FAMILY), dtype=pl.String),
        family_size=pl.lit(m, dtype=pl.Int64),
    ).pipe(with_tests)


def with_tests(df: pl.DataFrame) -> pl.DataFrame:
    """Add p_value (two-sided score test of rate against fair, the test the Wilson
    interval inverts), p_holm (Holm-adjusted across the table's rows: its own family,
    separate from the band verdicts; seat 1 at 2 players is not counted again and gets
    seat 0's adjusted p) and significant_holm (p_holm < 5%) to a table with wins, games,
    fair."""
    p = rate_vs_fair_p(df["wins"].to_numpy(), df["games"].to_numpy(), df["fair"].to_numpy())
    complement = complement_rows(df)
    adjusted = holm_family(p, ~complement)
    if complement.any():  # seat 1 at 2p: its p equals seat 0's (rates mirror about 1/2)
        seat0 = ((df["n_players"] == 2) & (df["seat"] == 0)).to_numpy()
        adjusted[complement] = adjusted[seat0][0] if seat0.any() else holm_family(p[complement])
    return df.with_columns(p_value=pl.Series(p), p_holm=pl.Series(adjusted),
                           significant_holm=pl.Series(significant(adjusted)))


def first_player(seat_winrate: pl.DataFrame) -> pl.DataFrame:
    """Seat 0's row per player count, with its advantage over a fair share (the same
    hypothesis as seat 0's band verdict, not a second test)."""
    first = first_seat(seat_winrate).select(
        "n_players", "games", "wins", "rate", "lo", "hi", "fair", "verdict",
        "verdict_lo", "verdict_hi", "p_adjusted")
    advantage = first_player_advantage(first["rate"].to_numpy(), first["n_players"].to_numpy())
    return first.with_columns(advantage=pl.Series(advantage, dtype=pl.Float64))


def expected_null_gap(n_players: int, games: int, reps: int = BALANCE_NULL_REPS,
                      seed: int = 0) -> float:
    """Mean largest gap between seat win rates if every seat were exactly fair: winners
    drawn uniformly over the seats (multinomial, seeded). Shared victories only shrink
    the noise, so this slightly overstates the null gap when ties are common."""
    rng = np.random.default_rng(seed + n_players)
    rates = rng.multinomial(games, np.full(n_players, 1.0 / n_players), size=reps) / games
    return float(np.mean(rates.max(axis=1) - rates.min(axis=1)))


def balance(seat_winrate: pl.DataFrame, alpha: float = ALPHA) -> pl.DataFrame:
    """Ludii-style balance per player count: 1 - (best seat rate - worst seat rate).

    gap_lo / gap_hi: a conservative simultaneous interval for the true largest gap, from
    Wilson intervals at 1 - alpha / k for the k seats (Bonferroni: all cover at once with
    probability >= 1 - alpha, and then the true gap lies between max(lo) - min(hi) and
    max(hi) - min(lo)). balance_lo / balance_hi are 1 minus those. gap_null is the
    expected gap from noise alone with every seat fair (`expected_null_gap`); gap_excess =
    max(0, gap - gap_null) is the gap net of that upward bias."""
    cols = {"n_players": pl.Int64, "balance": pl.Float64, "gap": pl.Float64, "best_seat": pl.Int64,
            "worst_seat": pl.Int64, "balance_lo": pl.Float64, "balance_hi": pl.Float64,
            "gap_lo": pl.Float64, "gap_hi": pl.Float64, "gap_null": pl.Float64,
            "gap_excess": pl.Float64, "games": pl.Int64}
    rows = []
    for (n,), part in sorted(seat_winrate.group_by("n_players"), key=lambda x: x[0]):
        lo, hi = wilson(part["wins"].to_numpy(), part["games"].to_numpy(), 1 - alpha / part.height)
        rate = part["rate"].to_numpy()
        gap = float(rate.max() - rate.min())
        gap_lo, gap_hi = max(0.0, float(lo.max() - hi.min())), float(hi.max() - lo.min())
        games = int(part["games"].min())
        null = expected_null_gap(int(n), games)
        rows.append({"n_players": int(n), "balance": 1 - gap, "gap": gap,
                     "best_seat": int(part["seat"][int(np.argmax(rate))]),
                     "worst_seat": int(part["seat"][int(np.argmin(rate))]),
                     "balance_lo": 1 - gap_hi, "balance_hi": 1 - gap_lo, "gap_lo": gap_lo,
                     "gap_hi": gap_hi, "gap_null": null, "gap_excess": max(0.0, gap - null),
                     "games": games})
    return pl.DataFrame(rows, schema=cols)


def planner(game_length: pl.DataFrame, deviations=PLANNER_DEVIATIONS, family: int = 1,
            alpha: float = ALPHA, power: float = PLANNER_POWER, band: float = 0.03,
            factions_per_count: dict | None = None) -> pl.DataFrame:
    """How many games decide a seat's (and a faction's) deviation from its fair share 1/n,
    per player count, at the multiplicity level the report uses: confidence 1 - alpha / m
    for the lead family of m hypotheses (`family_size`).

    One row per (n_players, deviation): fair, confidence, power, family, games_needed (the
    two-sided point-null test; each game gives one observation per seat, so games =
    samples per seat; `stats.games_needed`), games_to_decide (games until the band verdict
    is inside or outside; inf on a band edge; `stats.games_to_decide_band`), band,
    faction_games_to_decide (a faction fielded n / K times a game in a pool of K factions,
    so games = seats needed x K / n; NaN without factions), games (in this run at that
    count) and enough (games >= games_needed).
    """
    rows = [(n, d, g) for n, g in zip(game_length["n_players"], game_length["games"], strict=True)
            for d in deviations]
    n_players = np.array([r[0] for r in rows], dtype=np.int64)
    deviation = np.array([r[1] for r in rows], dtype=float)
    games = np.array([r[2] for r in rows], dtype=np.int64)
    fair = fair_share(n_players) if rows else np.array([], dtype=float)
    confidence = 1 - alpha / max(1, family)
    needed = games_needed(fair, deviation, confidence, power).astype(np.int64)
    decide = games_to_decide_band(fair, deviation, band, confidence, power)
    pool = np.array([(factions_per_count or {}).get(int(n), np.nan) for n in n_players], dtype=float)
    return pl.DataFrame({
        "n_players": n_players, "deviation": deviation, "fair": fair,
        "confidence": np.full(len(rows), confidence), "power": np.full(len(rows), power),
        "family": np.full(len(rows), max(1, family), dtype=np.int64),
        "games_needed": needed, "games": games, "enough": games >= needed,
        "band": np.full(len(rows), band), "games_to_decide": decide,
        "faction_games_to_decide": np.ceil(decide * pool / n_players),
    })


def _band_record(row: dict, kind: str, unit, n_unit: str, note: str | None = None) -> Verdict:
    return Verdict(kind=kind, unit=unit, n_players=row["n_players"], estimate=row["rate"],
                   ci_low=row["verdict_lo"], ci_high=row["verdict_hi"], n=row["games"],
                   n_unit=n_unit, verdict=row["verdict"], p_adjusted=row["p_adjusted"],
                   family=FAMILY, metric="win rate", note=note)


def band_records(seat_df: pl.DataFrame, faction_df: pl.DataFrame, first_df: pl.DataFrame,
                 balance_df: pl.DataFrame) -> list[Verdict]:
    """The lead verdicts as records: kinds seat, faction (band verdicts on the Bonferroni
    interval, family FAMILY), first_player (seat 0's advantage: the same test as seat 0,
    not counted twice) and balance (no verdict; the conservative simultaneous interval)."""
    out = []
    for r in seat_df.to_dicts():
        note = ("seat 1's rate is 1 minus seat 0's: same hypothesis, not counted twice"
                if r["family"] == COMPLEMENT else None)
        out.append(_band_record(r, "seat", r["seat"], "games", note))
    for r in faction_df.to_dicts():
        out.append(_band_record(r, "faction", r["faction"], "seats",
                                f"{r['games']:,} seats in {r['games_with']:,} games"
                                if "games_with" in r else None))
    for r in first_df.to_dicts():
        out.append(Verdict(kind="first_player", unit=0, n_players=r["n_players"],
                           estimate=r["advantage"], ci_low=r["verdict_lo"] - r["fair"],
                           ci_high=r["verdict_hi"] - r["fair"], n=r["games"], n_unit="games",
                           verdict=r["verdict"], p_adjusted=r["p_adjusted"], family=FAMILY,
                           metric="pp", note="seat 0's band verdict (same test)"))
    for r in balance_df.to_dicts():
        out.append(Verdict(kind="balance", unit="1 - largest seat gap", n_players=r["n_players"],
                           estimate=r["balance"], ci_low=r["balance_lo"], ci_high=r["balance_hi"],
                           n=r["games"], n_unit="games", metric="balance",
                           note=f"conservative simultaneous 95% interval; noise alone gives a gap "
                                f"of about {100 * r['gap_null']:.1f} pp"))
    return out


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


def card_cells_of(con: duckdb.DuckDBPyConnection, manifest: dict) -> CardCells:
    """The per-game card cells every card table of the run is computed from."""
    return card_cells(con, value_kinds(manifest)[0], CARD_VALUE_MAX_GAMES)


def card_value(con: duckdb.DuckDBPyConnection, manifest: dict, card: CardCells) -> pl.DataFrame:
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
    diffs = card_differences(card, by_faction=False).select(
        "n_players", "card", diff_se="se", diff_lo="lo", diff_hi="hi", p_value="p_value")
    df = df.join(diffs, on=["n_players", "card"], how="left").sort("n_players", "card")
    adjusted = holm_family(df["p_value"].to_numpy())
    return df.with_columns(
        diff=pl.col("rate_with") - pl.col("rate_without"),
        name=pl.Series(card_names(manifest, df["card"]), dtype=pl.String),
        p_holm=pl.Series(adjusted), significant_holm=pl.Series(significant(adjusted)),
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
    """Analyse a run folder. See `analysis.analyze` for the public documentation.

    The tables no verdict needs (rounds, game-specific extras, extra means) are made at the
    same time on a second connection, in a thread: each connection runs its queries on one
    thread (runfolder.connect), so the results are the same as one after the other, and an
    analysis takes 12-25% less time where a second core is free (DuckDB releases the
    GIL while a query runs)."""
    run_dir = Path(run_dir)
    manifest = runfolder.load_manifest(run_dir)
    con = runfolder.connect(run_dir)
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            side = pool.submit(_side_tables, run_dir, manifest.get("game"))
            return _analyze(con, run_dir, manifest, band, side)
    finally:
        con.close()


def _side_tables(run_dir: Path, game: str | None) -> dict:
    """The RunAnalysis fields that no verdict reads, by name, from a connection of their own."""
    con = runfolder.connect(run_dir)
    try:
        return {"rounds": analyze_rounds(con),
                "extras": extras_for(game, con),
                "player_extra_means": _extra_means(con, "players"),
                "game_extra_means": _extra_means(con, "games")}
    finally:
        con.close()


def _analyze(con, run_dir: Path, manifest: dict, band: float, side: Future) -> RunAnalysis:
    seat_raw = query(con, "seat_winrate")
    faction_raw = query(con, "faction_winrate", none_label=NO_FACTION)
    # One faction for everybody (e.g. Homebrewers' standard variant) is a symmetric game here.
    several = not faction_raw.is_empty() and faction_raw["faction"].n_unique() > 1
    card = card_cells_of(con, manifest)
    detail = ratings_and_cards(con, manifest, card, has_factions=several)
    m = family_size(seat_raw, faction_raw, detail["strength"])
    detail["strength"] = fx.with_lead_family(detail["strength"], FAMILY, m)
    seat = with_fairness(seat_raw, band, m)
    factions = with_fairness(faction_raw, band, m)
    first = first_player(seat)
    bal = balance(seat)
    length = query(con, "game_length")
    margins = query(con, "margin_summary")
    ties = with_interval(query(con, "tie_rate"), "ties", "games")
    pool = ({int(n): int(k) for n, k in factions.group_by("n_players").agg(pl.len()).iter_rows()}
            if several else None)
    plan = planner(length, family=m, band=band, factions_per_count=pool)
    lines = (verdicts.sequential_lines(manifest, band)
             + verdicts.family_line(m, band, strength_flags=winner_strength_rows(detail["strength"]))
             + verdicts.fairness_lines(seat, "seat", band)
             + verdicts.first_player_lines(first)
             + verdicts.balance_line(bal)
             + verdicts.fairness_lines(factions, "faction", band)
             + verdicts.strength_lines(detail["strength"])
             + verdicts.planner_lines(plan))
    cards = card_value(con, manifest, card)
    card_games = int(query(con, "games_below", max_game=CARD_VALUE_MAX_GAMES)["games"][0])
    side_tables = side.result()
    records = (sequential_records(manifest.get("until_decided") or {})
               + band_records(seat, factions, first, bal)
               + fx.strength_records(detail["strength"])
               + card_records(cards, detail.get("card_adjusted"), card_games, int(length["games"].sum())))
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
        card_value=cards,
        card_value_games=card_games,
        verdicts=lines,
        estimates=[e for e in manifest.get("estimates") or [] if isinstance(e, dict)],
        planner=plan,
        game_shape=with_round_shape(game_shape(bal, first, ties, length, margins), side_tables["rounds"]),
        records=records,
        **side_tables,
        **detail,
    )


def ratings_and_cards(con, manifest: dict, card: CardCells, has_factions: bool) -> dict:
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
        adjusted = fx.card_adjusted(card)
        detail.update(faction_seat=fx.faction_seat(con, NO_FACTION),
                      copresence=fx.copresence(con, NO_FACTION),
                      copresence_games=min(int(manifest.get("n_games") or 0),
                                           fx.COPRESENCE_MAX_GAMES),
                      card_adjusted=adjusted.with_columns(
                          name=pl.Series(card_names(manifest, adjusted["card"]), dtype=pl.String)))
    return detail
