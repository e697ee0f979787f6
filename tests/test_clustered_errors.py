"""Game-clustered uncertainty on synthetic data with known truth.

Players of one game share its single win, so intervals pooled over players (card value),
seats (head-to-head, repeated factions), player-rounds (comeback odds) or player scores
must take the game as the unit. Each test generates many replicates at once (the
replicate id is folded into the grouping keys) so it runs in a few seconds.

Tolerances: a rejection rate over R replicates at nominal 5% has Monte-Carlo SE
sqrt(0.05 * 0.95 / R) (0.69% at R = 1000, 0.97% at R = 500); coverage near 95% likewise.
Bounds are set at about 3 MC SE, so a calibrated method fails them less than 0.3% of the
time, while the old player-level methods (8.5-31% rejection) fall outside.
"""

import duckdb
import numpy as np
import polars as pl
import pytest

from analysis import factions as fx
from analysis.clustered import STRATUM, CardCells, card_differences, mh_clustered
from analysis.comparison import _mean_rows, _paired_rows
from analysis.paired import GAME_KEYS, faction_ratio_stats, faction_rows, seat_rows
from analysis.runfolder import query
from analysis.stats import (
    clustered_ratio_se,
    mantel_haenszel_diff,
    two_proportion_p,
    wilson,
    wilson_clustered,
)


def connect(tmp_path, players: pl.DataFrame, games: pl.DataFrame) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with `players` and `games` views over Parquet copies."""
    con = duckdb.connect()
    for name, df in (("players", players), ("games", games)):
        path = tmp_path / f"{name}_{id(df)}.parquet"
        df.write_parquet(path)
        con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM read_parquet('{path}')")
    return con


def mc_bounds(rate: float, reps: int, k: float = 3.0) -> tuple[float, float]:
    se = np.sqrt(rate * (1 - rate) / reps)
    return rate - k * se, rate + k * se


def winners(rng, games: int, weights: np.ndarray) -> np.ndarray:
    """One winner per game drawn with probability proportional to `weights` (games x n)."""
    p = weights / weights.sum(axis=1, keepdims=True)
    u = rng.random((games, 1))
    return (u > np.cumsum(p, axis=1)).sum(axis=1)


def card_data(rng, reps: int, games: int, n: int, mode: str, effect: float = 1.0,
              factions: int = 1):
    """Synthetic card holdings for reps x games games of n players.

    mode 'one': one copy, held by one random player in 60% of games; 'independent': each
    player holds it with probability 0.3. Holders' win weight is `effect` (1 = no effect).
    Returns (players frame, cells, holders) with game ids unique across replicates."""
    g = reps * games
    if mode == "one":
        hold = np.zeros((g, n), bool)
        has = rng.random(g) < 0.6
        hold[np.flatnonzero(has), rng.integers(0, n, g)[has]] = True
    else:
        hold = rng.random((g, n)) < 0.3
    w = winners(rng, g, np.where(hold, effect, 1.0))
    win = np.zeros((g, n))
    win[np.arange(g), w] = 1.0
    rep = np.repeat(np.arange(g) // games, n)
    faction = rng.integers(0, factions, g * n)
    df = pl.DataFrame({"game_id": np.repeat(np.arange(g), n), "rep": rep,
                       "stratum": rep * 100 + faction, "win": win.ravel(), "held": hold.ravel()})
    cells = df.group_by("game_id", "stratum").agg(N=pl.len(), S=pl.col("win").sum())
    holders = (df.filter(pl.col("held")).group_by("rep", "game_id", "stratum")
               .agg(n1=pl.len(), s1=pl.col("win").sum()))
    return df, cells, holders


def naive_p(df: pl.DataFrame) -> np.ndarray:
    """The old player-level pooled two-proportion test, per replicate."""
    t = (df.group_by("rep").agg(s1=pl.col("win").filter(pl.col("held")).sum(),
                                n1=pl.col("held").sum(),
                                s0=pl.col("win").filter(~pl.col("held")).sum(),
                                n0=(~pl.col("held")).sum()).sort("rep"))
    return two_proportion_p(t["s1"], t["n1"], t["s0"], t["n0"])


# ---------------------------------------------------------------- card value
@pytest.mark.parametrize("n", [2, 4])
def test_one_copy_card_null_is_calibrated(n):
    """At most one holder a game, no effect: the clustered test rejects ~5% (R = 1000,
    MC SE 0.69%); the old player-level test is inflated on the same data."""
    rng = np.random.default_rng(10 + n)
    df, cells, holders = card_data(rng, 1000, 400, n, "one")
    est = mh_clustered(holders, cells, ["rep"])
    reject = float((est["p_value"] < 0.05).mean())
    lo, hi = mc_bounds(0.05, 1000)
    assert lo < reject < hi, reject
    assert float((naive_p(df) < 0.05).mean()) > reject


def test_independently_held_card_stays_calibrated():
    rng = np.random.default_rng(3)
    _, cells, holders = card_data(rng, 1000, 300, 4, "independent")
    reject = float((mh_clustered(holders, cells, ["rep"])["p_value"] < 0.05).mean())
    lo, hi = mc_bounds(0.05, 1000)
    assert lo < reject < hi, reject


def test_faction_adjusted_one_copy_null_is_calibrated():
    """The Mantel-Haenszel path (strata player count x faction, 3 factions)."""
    rng = np.random.default_rng(4)
    _, cells, holders = card_data(rng, 1000, 400, 4, "one", factions=3)
    est = mh_clustered(holders, cells, ["rep"])
    assert (est["strata"] == 3).all()
    reject = float((est["p_value"] < 0.05).mean())
    lo, hi = mc_bounds(0.05, 1000)
    assert lo < reject < hi, reject


@pytest.mark.parametrize("effect", [1.6, 0.6])
def test_planted_card_effect_is_found_with_its_sign(effect):
    rng = np.random.default_rng(5)
    _, cells, holders = card_data(rng, 200, 400, 4, "one", effect=effect)
    est = mh_clustered(holders, cells, ["rep"])
    sign = np.sign(effect - 1)
    hits = (est["p_value"] < 0.05) & (np.sign(est["diff"]) == sign)
    wrong = (est["p_value"] < 0.05) & (np.sign(est["diff"]) == -sign)
    assert hits.mean() > 0.8 and wrong.sum() == 0


def test_faction_adjusted_card_value_strata_are_the_count_and_faction_pairs():
    """card_differences keys its strata by one integer per (player count, faction); the
    estimates are those of the same Mantel-Haenszel fit keyed by "count|faction" strings, to
    the last bit, planted effect included."""
    rng = np.random.default_rng(6)
    _, cells, holders = card_data(rng, 1, 3000, 4, "one", effect=1.6, factions=3)
    names = np.array(["Elves", "Dwarves", "Naga"])

    def tidy(df):
        return df.with_columns(n_players=2 + pl.col("game_id") % 3,
                               faction=pl.Series(names[df[STRATUM].to_numpy() % 100])).drop(STRATUM)

    card = CardCells(tidy(holders).with_columns(card=pl.lit("brewery")).drop("rep").sort("game_id"),
                     tidy(cells).sort("game_id"))
    got = card_differences(card, by_faction=True)
    key = pl.format("{}|{}", pl.col("n_players"), pl.col("faction")).alias(STRATUM)
    want = mh_clustered(card.holders.with_columns(key),
                        card.cells.with_columns(key).select("game_id", STRATUM, "N", "S"), ["card"])
    assert got.equals(want)
    assert got["strata"].item() == 9 and got["diff"].item() > 0 and got["p_value"].item() < 0.05


def test_clustered_se_matches_a_game_bootstrap():
    """Brute force: resample whole games 400 times and recompute the MH difference. The
    bootstrap SD has relative MC error about 1/sqrt(2 * 400) = 3.5%; allow 12%. For
    independent holders it also matches the Sato (players-independent) SE."""
    rng = np.random.default_rng(6)
    for mode in ("one", "independent"):
        df, cells, holders = card_data(rng, 1, 3000, 4, mode, factions=2)
        se = float(mh_clustered(holders, cells, ["rep"])["se"][0])
        win = df["win"].to_numpy().reshape(3000, 4)
        held = df["held"].to_numpy().reshape(3000, 4)
        stratum = df["stratum"].to_numpy().reshape(3000, 4)

        def mh(ix, win=win, held=held, stratum=stratum):
            w, h, s = win[ix].ravel(), held[ix].ravel(), stratum[ix].ravel()
            cols = [[w[(s == k) & h].sum() for k in (0, 1)], [((s == k) & h).sum() for k in (0, 1)],
                    [w[(s == k) & ~h].sum() for k in (0, 1)], [((s == k) & ~h).sum() for k in (0, 1)]]
            return mantel_haenszel_diff(*cols)

        boot = np.std([mh(rng.integers(0, 3000, 3000))[0] for _ in range(400)])
        assert se == pytest.approx(boot, rel=0.12), mode
        if mode == "independent":
            _, lo, hi, _ = mh(np.arange(3000))
            assert se == pytest.approx((hi - lo) / (2 * 1.959964), rel=0.1)


# ---------------------------------------------------------------- unpaired mean score
def correlated_scores(rng, reps: int, games: int, n: int, rho: float) -> pl.DataFrame:
    """Players with scores sharing a game effect: within-game correlation rho."""
    g = reps * games
    shared = rng.normal(size=(g, 1)) * np.sqrt(rho)
    score = 10 + 3 * (shared + rng.normal(size=(g, n)) * np.sqrt(1 - rho))
    return pl.DataFrame({"game_id": np.repeat(np.arange(g), n),
                         "n_players": np.repeat(np.arange(g) // games, n),  # replicate id
                         "score": score.ravel()})


def test_unpaired_mean_score_null_with_correlated_scores(tmp_path):
    """Two independent runs, within-game correlation 0.8: comparing per-game means
    (game_score_means.sql, n = games) rejects ~5% (R = 1000, MC SE 0.69%); the old
    player-level comparison rejects far more often on the same data."""
    rng = np.random.default_rng(7)
    rates = {}
    for sql in ("game_score_means", "score_summary"):
        tables = []
        for _ in range(2):
            players = correlated_scores(rng, 1000, 200, 4, 0.8)
            con = connect(tmp_path, players.drop("n_players"),
                          players.select("game_id", "n_players").unique())
            t = query(con, sql)
            tables.append(t if sql == "game_score_means" else t.rename({"players": "n"}))
        rows = _mean_rows("mean score", *tables, ["n_players"], lambda r: str(r["n_players"]))
        rates[sql] = float(rows["significant"].mean())
    lo, hi = mc_bounds(0.05, 1000)
    assert lo < rates["game_score_means"] < hi, rates
    assert rates["score_summary"] > 0.2, rates


# ---------------------------------------------------------------- repeated factions
def faction_games(rng, reps: int, games: int, planted: float = 0.0, base=None):
    """4 players, factions A-D dealt with replacement, winner uniform. With `base` (the
    A arm's frame), B keeps the deal and each game's winner with probability 0.5; with
    probability `planted` the winner is redrawn among faction A's seats (if any)."""
    g = reps * games
    if base is None:
        faction = rng.integers(0, 4, (g, 4))
        w = rng.integers(0, 4, g)
    else:
        faction = base["f"].to_numpy().reshape(g, 4)
        old = base["win"].to_numpy().reshape(g, 4).argmax(axis=1)
        w = np.where(rng.random(g) < 0.5, old, rng.integers(0, 4, g))
        is_a = faction == 0
        redraw = (rng.random(g) < planted) & is_a.any(axis=1)
        pick = winners(rng, g, is_a + 1e-12)
        w = np.where(redraw, pick, w)
    win = np.zeros((g, 4))
    win[np.arange(g), w] = 1.0
    return pl.DataFrame({"game_id": np.repeat(np.arange(g), 4),
                         "n_players": np.repeat(np.arange(g) // games, 4),  # replicate id
                         "seat": np.tile(np.arange(4), g), "f": faction.ravel(),
                         "faction": np.array(list("ABCD"))[faction.ravel()],
                         "win": win.ravel()})


def test_paired_faction_rate_is_the_per_seat_rate():
    """With repeated factions the per-seat rate is 25%; the old per-game share was 36.6%
    (1 - (3/4)^4 = 68.4% of games hold A, 25% of 4 seats... P(A wins | A present))."""
    rng = np.random.default_rng(8)
    a = faction_games(rng, 1, 40_000)
    st = faction_ratio_stats(faction_rows(a), faction_rows(a))
    unpaired = a.group_by("faction").agg(rate=pl.col("win").mean()).sort("faction")
    assert st["value_a"].to_list() == pytest.approx(unpaired["rate"].to_list(), abs=1e-12)
    assert st["value_a"].to_numpy() == pytest.approx(0.25, abs=0.01)
    old = faction_rows(a).group_by("faction").agg(pl.col("win").mean())["win"].to_numpy()
    assert old == pytest.approx(0.366, abs=0.01)


def test_paired_faction_difference_covers_null_and_planted_change():
    """Coverage of the paired ratio interval, R = 500 replicates x 4 factions (MC SE about
    1% per 500; factions of a replicate are dependent, so a 3.5-SE band). Planted: with
    q = 0.1 faction A's per-seat rate becomes 0.1 (1 - (3/4)^4) + 0.9 x 0.25 = 29.3%."""
    rng = np.random.default_rng(9)
    a = faction_games(rng, 500, 400)
    for planted, truth in ((0.0, {f: 0.0 for f in "ABCD"}),
                           (0.1, {"A": 0.1 * (1 - 0.75**4) + 0.9 * 0.25 - 0.25})):
        b = faction_games(rng, 500, 400, planted=planted, base=a)
        st = faction_ratio_stats(faction_rows(a), faction_rows(b)).filter(
            pl.col("faction").is_in(list(truth)))
        true = st["faction"].replace_strict(truth, return_dtype=pl.Float64)
        covered = float(((st["lo"] <= true) & (true <= st["hi"])).mean())
        lo, hi = mc_bounds(0.95, st.height, 3.5)
        assert lo < covered < hi, (planted, covered)
    assert st["diff"].mean() == pytest.approx(truth["A"], abs=0.005)


@pytest.mark.parametrize("n", [3, 4])
def test_paired_first_player_advantage_offsets_by_one_over_n(n):
    """Seat 0 wins 60% of A's games and 70% of B's: shown as 0.6 - 1/n and 0.7 - 1/n."""
    games = 1000
    win_a = np.zeros((games, n))
    win_a[np.arange(games), np.where(np.arange(games) < 600, 0, 1)] = 1
    win_b = np.zeros((games, n))
    win_b[np.arange(games), np.where(np.arange(games) < 700, 0, 1)] = 1
    frames = [pl.DataFrame({"game_id": np.repeat(np.arange(games), n),
                            "n_players": np.full(games * n, n),
                            "seat": np.tile(np.arange(n), games), "win": w.ravel()})
              for w in (win_a, win_b)]
    rows = _paired_rows("first-player advantage", seat_rows(frames[0], 0),
                        seat_rows(frames[1], 0), GAME_KEYS, ["n_players"], "win",
                        lambda r: f"{r['n_players']}p", "rate", offset_fair=True)
    r = rows.to_dicts()[0]
    assert (r["value_a"], r["value_b"]) == pytest.approx((0.6 - 1 / n, 0.7 - 1 / n))
    assert r["diff"] == pytest.approx(0.1)


# ---------------------------------------------------------------- comeback, head-to-head
def test_pooled_comeback_interval_covers_with_player_rounds():
    """A deficit bucket holds one random player of a game (in 70% of games) for 1-6 rounds,
    each with the same final outcome: truth 25% by symmetry. Clustered Wilson coverage
    ~95% over R = 1000 (MC SE 0.69%); the player-round Wilson under-covers."""
    rng = np.random.default_rng(11)
    reps, games = 1000, 300
    g = reps * games
    win = np.zeros((g, 4))
    win[np.arange(g), rng.integers(0, 4, g)] = 1
    rounds = np.zeros((g, 4))  # player-rounds in the bucket
    rounds[np.arange(g), rng.integers(0, 4, g)] = rng.integers(1, 7, g) * (rng.random(g) < 0.7)
    wg = (rounds * win).sum(axis=1).reshape(reps, games)
    ng = rounds.sum(axis=1).reshape(reps, games)
    used = ng > 0
    wins, n = wg.sum(axis=1), ng.sum(axis=1)
    se = clustered_ratio_se(wins, n, (wg**2).sum(axis=1), (wg * ng).sum(axis=1),
                            (ng**2).sum(axis=1), used.sum(axis=1))
    lo, hi = wilson_clustered(wins, n, se)
    covered = float(((lo <= 0.25) & (0.25 <= hi)).mean())
    low, high = mc_bounds(0.95, reps)
    assert low < covered < high, covered
    nlo, nhi = wilson(wins, n)
    assert float(((nlo <= 0.25) & (0.25 <= nhi)).mean()) < low


def test_head_to_head_interval_covers_with_repeated_factions(tmp_path):
    """copresence() end to end (faction_copresence.sql): factions dealt with replacement,
    winner uniform, so every pair's per-seat rate is 25%. R = 250 replicates x 16 pairs
    (pairs of a replicate are dependent: 3.5-SE band on 4,000 intervals)."""
    rng = np.random.default_rng(12)
    a = faction_games(rng, 250, 400)
    players = a.with_columns(faction=pl.format("{}_{}", pl.col("n_players"), pl.col("faction")))
    con = connect(tmp_path, players.select("game_id", "seat", "faction", "win"),
                  players.select("game_id").unique().with_columns(n_players=pl.lit(4)))
    h2h = fx.copresence(con, "none")
    h2h = h2h.filter(pl.col("faction").str.split("_").list.first()
                     == pl.col("opponent").str.split("_").list.first())
    assert h2h.height == 250 * 16
    assert (h2h["seats"] >= h2h["games"]).all()
    covered = float(((h2h["lo"] <= 0.25) & (0.25 <= h2h["hi"])).mean())
    lo, hi = mc_bounds(0.95, h2h.height, 3.5)
    assert lo < covered < hi, covered


def test_holder_game_terms_match_their_definition(monkeypatch):
    """B_g of every (card, game) row = sum over the game's strata of b_s S + b_n N with that
    card's coefficients (0 where it has none): the array version against a plain loop, on
    games of one to four strata and across the boundary of its row blocks."""
    from analysis import clustered

    monkeypatch.setattr(clustered, "_ROWS_AT_ONCE", 7)  # several blocks on this small case
    rng = np.random.default_rng(3)
    cells = pl.DataFrame([{"game_id": g, "stratum": k, "N": float(rng.integers(1, 4)), "S": float(rng.random())}
                          for g in range(30) for k in rng.choice(["a", "b", "c", "d"], rng.integers(1, 5), replace=False)])
    h = pl.DataFrame([{"card": c, "game_id": g} for c in ("x", "y", "z") for g in range(30) if rng.random() < 0.6])
    coef = pl.DataFrame([{"card": c, "stratum": k, "b_s": rng.normal(), "b_n": rng.normal()}
                         for c in ("x", "y", "z") for k in ("a", "b", "c", "d") if (c, k) != ("z", "b")])
    got = clustered._holder_games_b(h, cells, coef, ["card"])
    b = {(r["card"], r["stratum"]): (r["b_s"], r["b_n"]) for r in coef.to_dicts()}
    want = [sum(b.get((row["card"], c["stratum"]), (0.0, 0.0))[0] * c["S"]
                + b.get((row["card"], c["stratum"]), (0.0, 0.0))[1] * c["N"]
                for c in cells.filter(pl.col("game_id") == row["game_id"]).to_dicts())
            for row in h.to_dicts()]
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
