"""Faction and seat strength beyond raw win rates, and card value beyond one 2x2 table.

- `strength`: winner-model and finishing-order strengths of factions and seats
  (analysis/ratings.py) on the first RATINGS_MAX_GAMES games; `strength_records` turns
  them into Verdict records;
- `faction_seat`: wins / expected wins of each faction in each seat, by player count;
- `copresence`: the head-to-head matrix (row faction's win rate when the column faction
  is at the table);
- `convergence`: cumulative win rate as games accumulate, with 95% Wilson bands;
- `card_adjusted`, `card_by_round`, `card_unused`: card value stratified by faction and
  player count (Mantel-Haenszel), by the round acquired, and cards acquired but unused.

Every function takes the run's DuckDB connection and returns a polars DataFrame.
"""

from __future__ import annotations

import duckdb
import polars as pl

from analysis import ratings
from analysis.clustered import CardCells, card_differences
from analysis.metrics import ALPHA, holm_family, significant
from analysis.records import NOT_SIGNIFICANT, SIGNIFICANT, Verdict, not_estimable
from analysis.runfolder import query
from analysis.stats import clustered_ratio_se, wilson, wilson_clustered

RATINGS_MAX_GAMES = 20_000   # the strength fits use the first games of larger runs
COPRESENCE_MAX_GAMES = 300_000  # the head-to-head matrix likewise (as card value)
CONVERGENCE_BUCKETS = 20


def _intervals(df: pl.DataFrame, successes: str = "wins", n: str = "games") -> pl.DataFrame:
    lo, hi = wilson(df[successes].to_numpy(), df[n].to_numpy())
    return df.with_columns(lo=pl.Series(lo), hi=pl.Series(hi))


def _clustered_intervals(df: pl.DataFrame, successes: str, n: str) -> pl.DataFrame:
    """Wilson intervals at the game-clustered effective sample size (the rows pool units
    of one game: seats, players or acquisitions), from the per-game moments the SQL
    returns (games, sum_w2, sum_wn, sum_n2); adds se."""
    se = clustered_ratio_se(df[successes], df[n], df["sum_w2"], df["sum_wn"], df["sum_n2"],
                            df["games"])
    lo, hi = wilson_clustered(df[successes], df[n], se)
    return df.with_columns(se=pl.Series(se), lo=pl.Series(lo), hi=pl.Series(hi))


def strength(con: duckdb.DuckDBPyConnection, with_factions: bool, none_label: str,
             max_game: int = RATINGS_MAX_GAMES) -> pl.DataFrame:
    """Winner-model and finishing-order strengths (see `ratings.strengths`), fitted on games
    with id < max_game, plus games_total (every game of the run, from the data). Players
    without a faction stay in the risk sets of mixed games as an unreported level."""
    sample = query(con, "ratings_sample", max_game=max_game)
    if sample.is_empty():
        return pl.DataFrame()
    games = sample.select("game_id", "n_players").unique("game_id")
    table = ratings.strength_models(sample, games, with_factions, none_label)
    return table.with_columns(games_total=pl.lit(int(sample["games_total"][0]), dtype=pl.Int64))


STRENGTH_KIND = {ratings.WINNER: "strength", ratings.FINISHING_ORDER: "finishing_order"}
STRENGTH_FAMILY = {ratings.WINNER: "strength: winner model",
                   ratings.FINISHING_ORDER: "strength: finishing-order model"}


def strength_kind(strength: pl.DataFrame) -> str:
    """'faction' when the table has faction rows, else 'seat' (a symmetric game)."""
    return "faction" if (strength["kind"] == "faction").any() else "seat"


def lead_flags(strength: pl.DataFrame) -> pl.Expr:
    """The strength rows that are verdicts the report leads with: the winner model's estimable
    faction rows. A separated row (always or never won) is not tested, so it is not in the
    family; neither are seat strengths (without factions the winner model's seat strengths
    reproduce the seat win rates, the same question the seat rows already answer; they keep the
    Holm family of their own table)."""
    if strength_kind(strength) != "faction":
        return pl.lit(False)
    return ((pl.col("model") == ratings.WINNER) & (pl.col("kind") == "faction")
            & pl.col("estimable") & ~pl.col("separated").fill_null(False))


def with_lead_family(strength: pl.DataFrame, family: str, m: int, alpha: float = ALPHA) -> pl.DataFrame:
    """Add p_adjusted, significant and family to the strength table. The winner model's headline
    flags belong to the report's lead family (Bonferroni over its m hypotheses, like the band
    verdicts); every other row keeps the Holm adjustment of its own model's table."""
    if strength.is_empty():
        return strength
    lead = lead_flags(strength)
    own = (pl.col("model").replace_strict(STRENGTH_FAMILY, return_dtype=pl.String)
           + ", " + pl.col("kind") + "s")
    p_lead = pl.min_horizontal(pl.lit(1.0), pl.col("p_value") * m)
    out = strength.with_columns(p_adjusted=pl.when(lead).then(p_lead).otherwise(pl.col("p_holm")),
                                family=pl.when(lead).then(pl.lit(family)).otherwise(own))
    return out.with_columns(significant=pl.col("p_adjusted") < alpha)


def fitted_note(games: int, games_total: int | None) -> str:
    """'fitted on the first 20,000 of 1,000,000 games' or 'fitted on all 3,000 games'."""
    if games_total and games < games_total:
        return f"fitted on the first {games:,} of {games_total:,} games"
    return f"fitted on all {games:,} games"


def pooled_note(player_counts: str) -> str:
    """'pooled over player counts (2p 6,667, 3p 6,667 games)' from the table's mix column,
    or '' when the fit saw one player count."""
    parts = [p.split(":") for p in player_counts.split(",") if p]
    if len(parts) < 2:
        return ""
    return "pooled over player counts (" + ", ".join(f"{n}p {int(g):,}" for n, g in parts) + " games)"


ALIASED_NOTE = ("not estimable: factions are fixed to seats, so faction and seat effects "
                "cannot be separated")


def strength_records(strength: pl.DataFrame, games_used: int | None = None,
                     games_total: int | None = None) -> list[Verdict]:
    """One Verdict per faction (or per seat and player count in a symmetric game) and model:
    kind 'strength' (winner model, the headline) or 'finishing_order'; estimate = centred
    strength on the log-odds scale with its 95% interval; verdict significant /
    not_significant from the Holm flag; not_estimable records (no numbers) where faction and
    seat are aliased. Counts default to the table's games / games_total columns."""
    if strength.is_empty():
        return []
    kind = strength_kind(strength)
    used = int(games_used if games_used is not None else strength["games"][0])
    total = games_total if games_total is not None else \
        (int(strength["games_total"][0]) if "games_total" in strength.columns else None)
    notes = [fitted_note(used, total), pooled_note(str(strength["player_counts"][0]))]
    note = "; ".join(n for n in notes if n)
    out = []
    for r in strength.filter(pl.col("kind") == kind).to_dicts():
        family = r.get("family") or f"{STRENGTH_FAMILY[r['model']]}, {kind}s"
        unit = r["faction"] if kind == "faction" else r["seat"]
        n_players = None if kind == "faction" else r["n_players"]
        if not r["estimable"]:
            out.append(not_estimable(STRENGTH_KIND[r["model"]], unit, n_players, used, "games",
                                     f"{ALIASED_NOTE}; {note}", family))
            continue
        out.append(Verdict(
            kind=STRENGTH_KIND[r["model"]], unit=unit, n_players=n_players,
            estimate=r["strength"], ci_low=r["lo"], ci_high=r["hi"], n=used, n_unit="games",
            verdict=SIGNIFICANT if r.get("significant", r["significant_holm"]) else NOT_SIGNIFICANT,
            p_adjusted=r.get("p_adjusted", r["p_holm"]), family=family, metric="log-odds", note=note))
    return out


def faction_seat(con: duckdb.DuckDBPyConnection, none_label: str) -> pl.DataFrame:
    """Faction x seat table with Wilson intervals of the win rate."""
    df = query(con, "faction_seat", none_label=none_label)
    return df if df.is_empty() else _intervals(df)


def copresence(con: duckdb.DuckDBPyConnection, none_label: str,
               max_game: int = COPRESENCE_MAX_GAMES) -> pl.DataFrame:
    """Head-to-head matrix in long form on the games with id < max_game: games (distinct
    games with both factions), seats (the row faction's seats there), the win rate per
    seat with a game-clustered Wilson interval (a faction seated twice in a game shares
    that game's win), and deviation = rate - fair."""
    df = query(con, "faction_copresence", none_label=none_label, max_game=max_game)
    if df.is_empty():
        return df
    return _clustered_intervals(df, "wins", "seats").with_columns(
        deviation=pl.col("rate") - pl.col("fair"))


def convergence(con: duckdb.DuckDBPyConnection, by_faction: bool, none_label: str,
                buckets: int = CONVERGENCE_BUCKETS) -> pl.DataFrame:
    """Cumulative win rate per series after each game_id bucket, with its Wilson 95%
    band and the cumulative fair share (expected / games)."""
    df = query(con, "convergence", buckets=buckets, by_faction=by_faction, none_label=none_label)
    if df.is_empty():
        return df
    df = df.sort("n_players", "series", "bucket").with_columns(
        [pl.col(c).cum_sum().over("n_players", "series").alias(f"cum_{c}")
         for c in ("games", "wins", "expected")])
    lo, hi = wilson(df["cum_wins"].to_numpy(), df["cum_games"].to_numpy())
    return df.with_columns(
        rate=pl.col("cum_wins") / pl.col("cum_games"),
        fair=pl.col("cum_expected") / pl.col("cum_games"),
        lo=pl.Series(lo), hi=pl.Series(hi),
    ).select("n_players", "series", "bucket", "cum_games", "rate", "lo", "hi", "fair")


def card_adjusted(card: CardCells) -> pl.DataFrame:
    """Per card: the Mantel-Haenszel difference in win rate (acquired minus not) within
    strata of player count x faction, its 95% interval and p-value from a game-clustered
    SE (analysis/clustered.py; players of one game share its win), and the Holm flag
    across cards. Adjusting for faction removes the part of a card's value that only
    reflects which factions tend to take it; it is still an association, not a cause."""
    schema = {"card": pl.String, "players_with": pl.Int64, "strata": pl.Int64,
              "adj_diff": pl.Float64, "adj_se": pl.Float64, "adj_lo": pl.Float64,
              "adj_hi": pl.Float64, "adj_p": pl.Float64}
    est = card_differences(card, by_faction=True)
    if est.is_empty():
        df = pl.DataFrame(schema=schema)
    else:
        held = card.holders.group_by("card").agg(players_with=pl.col("n1").sum().cast(pl.Int64))
        df = (est.join(held, on="card", how="left").sort("card")
              .select("card", "players_with", pl.col("strata").cast(pl.Int64), adj_diff="diff",
                      adj_se="se", adj_lo="lo", adj_hi="hi", adj_p="p_value"))
    adjusted = holm_family(df["adj_p"].to_numpy())
    return df.with_columns(adj_p_holm=pl.Series(adjusted, dtype=pl.Float64),
                           adj_significant_holm=pl.Series(significant(adjusted)))


def card_by_round(con: duckdb.DuckDBPyConnection, kinds: list[str], max_game: int) -> pl.DataFrame:
    """Win rate by the round a card was first acquired, with game-clustered Wilson
    intervals (several players of one game may first take the card in the same round)."""
    df = query(con, "card_round", kinds=kinds, max_game=max_game)
    return df if df.is_empty() else _clustered_intervals(df, "wins", "players")


def card_unused(con: duckdb.DuckDBPyConnection, acquire: list[str], use: list[str],
                max_game: int) -> pl.DataFrame:
    """Share of acquisitions never used in the same game, with game-clustered Wilson
    intervals (acquisitions of one game are not independent)."""
    df = query(con, "card_unused", acquire=acquire, use=use, max_game=max_game)
    return df if df.is_empty() else _clustered_intervals(df, "unused", "acquired")

