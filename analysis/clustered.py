"""Game-clustered Mantel-Haenszel differences for card value.

A card's value is a difference of win rates, holders minus non-holders, within strata
(player count, or player count x faction). Holders and non-holders of one game share that
game's single win, so players are not independent: a one-copy card (at most one holder a
game) has a binomial SE about 10-30% too small. Here the variance comes from the game:

    RD = sum_k A_k / sum_k w_k,  A_k = (s1 n0 - s0 n1) / N,  w_k = n1 n0 / N   (per stratum k)

is a smooth function of the stratum totals (s1, n1, s0, n0), each a sum over games, so
its influence function is a per-game sum IF_g = sum_k grad_k . t_gk and
var(RD) = G/(G-1) sum_g IF_g^2 (a sandwich over games). With one stratum RD is the plain
difference of the two ratios s1/n1 - s0/n0. The sum over games splits into the part every
game has (from its stratum totals S_gk, N_gk; a quadratic form in their cross moments)
and the part only games with a holder have, so no per-card pass over every game is needed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis.records import NOT_SIGNIFICANT, SIGNIFICANT, Verdict, not_estimable
from analysis.stats import group_sums, wald_p, z_value

CARD_METRIC = "win-rate difference, association not cause"

STRATUM = "stratum"


def _coefficients(holders: pl.DataFrame, cells: pl.DataFrame, group: list[str]) -> pl.DataFrame:
    """Per (group, stratum): the MH terms and the gradient of RD with respect to the
    stratum totals, expressed on (S, N) of every player (b_s, b_n) and on the holders'
    (s1, n1) (h_s, h_n). Strata lacking holders or non-holders carry no weight."""
    totals = group_sums(cells, [STRATUM], N="N", S="S")
    k = (group_sums(holders, [*group, STRATUM], n1="n1", s1="s1")
         .join(totals, on=STRATUM, maintain_order="left")
         .with_columns(n0=pl.col("N") - pl.col("n1"), s0=pl.col("S") - pl.col("s1"))
         .filter((pl.col("n1") > 0) & (pl.col("n0") > 0))
         .with_columns(A=(pl.col("s1") * pl.col("n0") - pl.col("s0") * pl.col("n1")) / pl.col("N"),
                       w=pl.col("n1") * pl.col("n0") / pl.col("N")))
    k = k.join(group_sums(k, group, W="w", sumA="A"), on=group, maintain_order="left")
    k = k.with_columns(RD=pl.col("sumA") / pl.col("W"))
    n, w_all, rd = pl.col("N"), pl.col("W"), pl.col("RD")
    d_s1 = pl.col("n0") / n
    d_s0 = -pl.col("n1") / n
    d_n1 = ((-pl.col("s0") - pl.col("A")) - rd * (pl.col("n0") - pl.col("w"))) / n
    d_n0 = ((pl.col("s1") - pl.col("A")) - rd * (pl.col("n1") - pl.col("w"))) / n
    # s0 = S - s1 and n0 = N - n1 within a game, hence b_* on totals and h_* = d_1 - d_0.
    return k.with_columns(b_s=d_s0 / w_all, b_n=d_n0 / w_all,
                          h_s=(d_s1 - d_s0) / w_all, h_n=(d_n1 - d_n0) / w_all)


def _moments(cells: pl.DataFrame) -> pl.DataFrame:
    """Cross moments over games of the stratum totals: per ordered stratum pair (k, l),
    sum_g S_gk S_gl, S_gk N_gl, N_gk S_gl, N_gk N_gl."""
    pairs = cells.join(cells, on="game_id", suffix="_l", maintain_order="left")
    return group_sums(pairs, [STRATUM, f"{STRATUM}_l"],
                      SS=pl.col("S") * pl.col("S_l"), SN=pl.col("S") * pl.col("N_l"),
                      NS=pl.col("N") * pl.col("S_l"), NN=pl.col("N") * pl.col("N_l"))


def mh_clustered(holders: pl.DataFrame, cells: pl.DataFrame, group: list[str],
                 confidence: float = 0.95) -> pl.DataFrame:
    """Mantel-Haenszel difference (holders minus non-holders) per `group` with a
    game-clustered SE.

    Args:
        holders: group columns, game_id, stratum, n1 (holders in that game and stratum),
            s1 (their wins).
        cells: game_id, stratum, N (players), S (wins): every game and stratum used.
        group: the columns one estimate is made for (e.g. ["card"] or ["n_players", "card"]).
    Returns group columns, diff, se, lo, hi (Wald), p_value, strata (with weight), games;
    se, lo, hi and p_value are NaN where the games show no spread at all.
    """
    cells = cells.with_columns(pl.col("N", "S").cast(pl.Float64))
    holders = holders.with_columns(pl.col("n1", "s1").cast(pl.Float64))
    coef = _coefficients(holders, cells, group)
    games = cells["game_id"].n_unique()
    # every game: B_g = sum_k b_s S_gk + b_n N_gk, summed squared through the moments
    mom = _moments(cells)
    left = coef.select(*group, STRATUM, "b_s", "b_n")
    right = left.rename({STRATUM: f"{STRATUM}_l", "b_s": "b_s_l", "b_n": "b_n_l"})
    pairs = (mom.join(left, on=STRATUM, maintain_order="left")
             .join(right, on=[*group, f"{STRATUM}_l"], maintain_order="left"))
    base = group_sums(pairs, group, bb=pl.col("b_s") * pl.col("b_s_l") * pl.col("SS")
                      + pl.col("b_s") * pl.col("b_n_l") * pl.col("SN")
                      + pl.col("b_n") * pl.col("b_s_l") * pl.col("NS")
                      + pl.col("b_n") * pl.col("b_n_l") * pl.col("NN"))
    # games with a holder add 2 B_g H_g + H_g^2
    h = group_sums(holders.join(coef.select(*group, STRATUM, "h_s", "h_n"), on=[*group, STRATUM],
                                maintain_order="left"),
                   [*group, "game_id"], H=pl.col("h_s") * pl.col("s1") + pl.col("h_n") * pl.col("n1"))
    extra = group_sums(h.with_columns(B=pl.Series(_holder_games_b(h, cells, left, group))),
                       group, hh=2 * pl.col("B") * pl.col("H") + pl.col("H") ** 2)
    est = (coef.group_by(group, maintain_order=True).agg(diff=pl.col("RD").first(), strata=pl.len())
           .join(base, on=group, how="left", maintain_order="left")
           .join(extra, on=group, how="left", maintain_order="left")
           .with_columns(pl.col("bb").fill_null(0.0), pl.col("hh").fill_null(0.0)))
    var = games / max(games - 1, 1) * np.maximum(est["bb"].to_numpy() + est["hh"].to_numpy(), 0.0)
    # A zero spread over a handful of games is not evidence of an exact difference.
    se = np.where(var > 0, np.sqrt(var), np.nan)
    half = z_value(confidence) * se
    diff = est["diff"].to_numpy()
    return est.select(*group, "diff", "strata").with_columns(
        se=pl.Series(se), lo=pl.Series(diff - half), hi=pl.Series(diff + half),
        p_value=pl.Series(wald_p(diff, se)), games=pl.lit(games, dtype=pl.Int64))


_ROWS_AT_ONCE = 1 << 20  # (group, game) rows expanded at a time: bounds the memory of a big run


def _holder_games_b(h: pl.DataFrame, cells: pl.DataFrame, coef: pl.DataFrame, group: list[str]) -> np.ndarray:
    """B_g = sum_k b_s S_gk + b_n N_gk for every (group, game) row of `h`, over every stratum
    k of that game, with that group's coefficients (none for a stratum: 0).

    Each row meets each of its game's cells, so this is a join of millions of rows by several
    (Dragon Brew: a card x game row meets a game's four faction strata); done as array
    lookups, in each game's cell order (so the sums come out the same every run), a block of
    rows at a time."""
    strata = cells.select(STRATUM).unique(maintain_order=True).with_row_index("k")
    groups = h.select(group).unique(maintain_order=True).with_row_index("r")
    known = coef.join(groups, on=group).join(strata, on=STRATUM)
    b_s, b_n = np.zeros((groups.height, strata.height)), np.zeros((groups.height, strata.height))
    rows, cols = known["r"].to_numpy(), known["k"].to_numpy()
    b_s[rows, cols] = known["b_s"].to_numpy()
    b_n[rows, cols] = known["b_n"].to_numpy()
    by_game = cells.join(strata, on=STRATUM, maintain_order="left").sort("game_id", maintain_order=True)
    game, k = by_game["game_id"].to_numpy(), by_game["k"].to_numpy()
    s_tot, n_tot = by_game["S"].to_numpy(), by_game["N"].to_numpy()
    r_of = h.join(groups, on=group, how="left", maintain_order="left")["r"].to_numpy()
    h_game = h["game_id"].to_numpy()
    first, last = np.searchsorted(game, h_game, "left"), np.searchsorted(game, h_game, "right")
    out = np.zeros(h.height)
    for at in range(0, h.height, _ROWS_AT_ONCE):
        part = slice(at, at + _ROWS_AT_ONCE)
        count = last[part] - first[part]
        row = np.repeat(np.arange(count.size), count)              # h row (in the block) of each pair
        cell = first[part][row] + np.arange(row.size) - np.repeat(np.cumsum(count) - count, count)
        r, kk = r_of[part][row], k[cell]
        terms = b_s[r, kk] * s_tot[cell] + b_n[r, kk] * n_tot[cell]
        out[part] = np.bincount(row, weights=terms, minlength=count.size)
    return out


@dataclass(frozen=True)
class CardCells:
    """The per-game cells card value is computed from (fetched once per analysis: the holder
    cells are millions of rows for a big card pool, and three tables read them).

    holders: card, game_id, n_players, faction, n1, s1 (card_holder_cells.sql);
    cells: game_id, n_players, faction, N, S (card_game_cells.sql)."""

    holders: pl.DataFrame
    cells: pl.DataFrame


def card_cells(con, kinds: list[str], max_game: int) -> CardCells:
    """The run's card cells on the games with id < max_game, `kinds` counting as holding a card."""
    from analysis.runfolder import query, query_coded  # local: runfolder imports nothing from here

    names = {"card": query(con, "card_names", kinds=kinds, max_game=max_game)["card"].to_list(),
             "faction": query(con, "faction_names")["faction"].to_list()}
    return CardCells(query_coded(con, "card_holder_cells", names, kinds=kinds, max_game=max_game),
                     query(con, "card_game_cells", max_game=max_game))


def card_differences(card: CardCells, by_faction: bool) -> pl.DataFrame:
    """Card value differences with game-clustered SEs, from the run's per-game cells.

    by_faction False: one estimate per (n_players, card), the plain difference of the
    holders' and non-holders' win rates at that player count. True: one per card,
    Mantel-Haenszel over strata of player count x faction."""
    holders, cells = card.holders, card.cells
    if not by_faction:
        return count_differences(holders, cells)
    if holders.is_empty():
        return pl.DataFrame()
    key = _player_count_and_faction(holders, cells)
    return mh_clustered(holders.with_columns(key),
                        cells.with_columns(key).select("game_id", STRATUM, "N", "S"), ["card"])


def _player_count_and_faction(holders: pl.DataFrame, cells: pl.DataFrame) -> pl.Expr:
    """The stratum of player count x faction as one integer (player count x factions + the
    faction's position): the strata's joins and sums over millions of holder rows take about
    a tenth less time on an integer than on a "count|faction" string (Dragon Brew's 200,000-game
    demo run, 6.1M holder rows: 3.55 -> 3.18 s, best of 5), with the same strata in the same
    order, so the same results to the last bit."""
    factions = sorted(set(holders["faction"].unique().to_list()) | set(cells["faction"].unique().to_list()))
    position = pl.col("faction").cast(pl.Enum(factions)).to_physical().cast(pl.Int64)
    return (pl.col("n_players").cast(pl.Int64) * len(factions) + position).alias(STRATUM)


def count_differences(holders: pl.DataFrame, cells: pl.DataFrame) -> pl.DataFrame:
    """Per (n_players, card): holders' minus everyone else's win rate at that player count,
    with a game-clustered SE (`mh_clustered` with one stratum per player count).

    holders: card, game_id, n_players, n1, s1 (any further columns are summed over);
    cells: game_id, n_players, N, S (likewise). Empty when nobody holds a card."""
    if holders.is_empty():
        return pl.DataFrame()
    key = pl.col("n_players").alias(STRATUM)
    cells = group_sums(cells, ["game_id", "n_players"], N="N", S="S").with_columns(key)
    holders = group_sums(holders, ["card", "game_id", "n_players"], n1="n1", s1="s1").with_columns(key)
    return mh_clustered(holders, cells.select("game_id", STRATUM, "N", "S"), ["n_players", "card"])


def card_records(card_value_df: pl.DataFrame, card_adjusted_df: pl.DataFrame | None,
                 games_used: int, games_total: int) -> list[Verdict]:
    """Verdict records of the card tables: kind "card" per (card, player count) from
    `card_value`, "card_adjusted" per card from `card_adjusted` (pooled over counts).
    Estimate = win rate with the card minus without (game-clustered 95% interval);
    verdict = significant / not_significant after Holm across the table (not_estimable
    where the games show no spread); n = players who took the card. The note says it is
    an association and, when so, the subset of games used."""
    subset = (f"; computed on the first {games_used:,} of {games_total:,} games"
              if 0 < games_used < games_total else "")
    note = "association with winning, not the card's causal effect" + subset
    out = []
    specs = [(card_value_df, "card", "diff", "diff_lo", "diff_hi", "p_holm",
              "card value: cards x player counts")]
    if card_adjusted_df is not None:
        specs.append((card_adjusted_df, "card_adjusted", "adj_diff", "adj_lo", "adj_hi",
                      "adj_p_holm", "card value adjusted for faction: cards"))
    for df, kind, est, lo, hi, p, family in specs:
        for r in ([] if df is None or df.is_empty() else df.to_dicts()):
            n_players = r.get("n_players") if kind == "card" else None
            if r[p] is None or r[p] != r[p]:
                out.append(not_estimable(kind, r["card"], n_players, r["players_with"],
                                         "player-games", note + "; no spread over games",
                                         family=family))
                continue
            out.append(Verdict(kind=kind, unit=r["card"], n_players=n_players, estimate=r[est],
                               ci_low=r[lo], ci_high=r[hi], n=r["players_with"],
                               n_unit="player-games",
                               verdict=SIGNIFICANT if r[p] < 0.05 else NOT_SIGNIFICANT,
                               p_adjusted=r[p], family=family, metric=CARD_METRIC, note=note))
    return out
