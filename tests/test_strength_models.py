"""Strength that answers "who wins" (analysis/ratings.py, analysis/factions.py,
analysis/verdicts.py): the winner model against known truths, the finishing-order fit
check, identifiability under fixed and rotated lineups, and the Verdict records.

Synthetic games are generated vectorised with fixed seeds: 4 players, each of 4 factions
once per game in a random seat, and a finishing order drawn from a stated rank
distribution or a Plackett-Luce model (Gumbel trick)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from analysis import ratings
from analysis.factions import strength_records
from analysis.stats import holm, rate_vs_fair_p
from analysis.verdicts import strength_lines

FACTIONS = np.array(["A", "B", "C", "D"])


def _tables(fac: np.ndarray, rank: np.ndarray) -> tuple[pl.DataFrame, pl.DataFrame]:
    """players / games frames from (G, P) faction indices and ranks (column = seat)."""
    g, p = fac.shape
    players = pl.DataFrame({"game_id": np.repeat(np.arange(g), p), "seat": np.tile(np.arange(p), g),
                            "faction": FACTIONS[fac.ravel()], "rank": rank.ravel()})
    return players, pl.DataFrame({"game_id": np.arange(g), "n_players": np.full(g, p)})


def _random_seats(rng, n_games: int) -> np.ndarray:
    """Each faction once per game, seats shuffled: fac[g, seat]."""
    return np.argsort(rng.random((n_games, 4)), axis=1)


def x_profile_games(rng, n_games: int, x_rank_probs) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Faction A ("X") finishes at rank r with x_rank_probs[r-1]; the other three take the
    remaining ranks in random order. No seat effect."""
    fac = _random_seats(rng, n_games)
    x_rank = rng.choice(4, n_games, p=x_rank_probs)
    others = np.argsort(rng.random((n_games, 3)), axis=1)       # a random order of 3
    left = np.array([[r for r in range(4) if r != x] for x in range(4)])[x_rank]
    rank_of_faction = np.empty((n_games, 4), dtype=int)
    rank_of_faction[:, 0] = x_rank
    rank_of_faction[:, 1:] = np.take_along_axis(left, others, axis=1)
    rank = np.take_along_axis(rank_of_faction, fac, axis=1) + 1
    return _tables(fac, rank)


def pl_games(rng, n_games: int, theta, seat_effect=(0, 0, 0, 0), fac=None):
    """Finishing orders from a Plackett-Luce model with utilities theta[faction] + seat."""
    fac = _random_seats(rng, n_games) if fac is None else fac
    u = np.asarray(theta)[fac] + np.asarray(seat_effect) + rng.gumbel(size=fac.shape)
    rank = np.argsort(np.argsort(-u, axis=1), axis=1) + 1
    return _tables(fac, rank)


def winner_games(rng, n_games: int, theta, fac=None):
    """Only the winner follows the model (conditional logit); the others' order is random."""
    fac = _random_seats(rng, n_games) if fac is None else fac
    w = np.exp(np.asarray(theta, dtype=float)[fac])
    cum = np.cumsum(w / w.sum(axis=1, keepdims=True), axis=1)
    winner = (rng.random((n_games, 1)) > cum).sum(axis=1)
    rank = np.argsort(np.argsort(rng.random(fac.shape), axis=1), axis=1) + 2
    rank[np.arange(n_games), winner] = 1
    rank = np.argsort(np.argsort(rank, axis=1), axis=1) + 1
    return _tables(fac, rank)


def row(table: pl.DataFrame, model: str, faction: str) -> dict:
    return table.filter((pl.col("model") == model) & (pl.col("faction") == faction)).row(0, named=True)


@pytest.fixture(scope="module")
def swingy():
    players, games = x_profile_games(np.random.default_rng(11), 20_000, [0.38, 0.13, 0.13, 0.36])
    return players, ratings.strength_models(players, games, True)


@pytest.fixture(scope="module")
def steady():
    players, games = x_profile_games(np.random.default_rng(12), 20_000, [0.25, 0.35, 0.35, 0.05])
    return players, ratings.strength_models(players, games, True)


def test_swingy_faction_is_strongest_by_who_wins(swingy):
    """Truth: A wins 38% (others 20.7%), so the centred winner-model strength is
    3/4 log(0.38 / 0.2067) = +0.457. The finishing-order model ranks A weakest."""
    players, table = swingy
    a = row(table, ratings.WINNER, "A")
    top = table.filter(pl.col("model") == ratings.WINNER).sort("strength")["faction"][-1]
    assert top == "A" and a["significant_holm"]
    assert a["lo"] < 0.75 * math.log(0.38 / (0.62 / 3)) < a["hi"]
    # the win-rate verdict agrees in sign: A's win rate is above its fair 25%
    share = players.filter(pl.col("faction") == "A")["rank"].eq(1).mean()
    assert (share - 0.25) * a["strength"] > 0
    assert row(table, ratings.FINISHING_ORDER, "A")["strength"] < 0
    lines = strength_lines(table)
    assert any(line.startswith("Strength by who wins") and "strongest is A +0.4" in line
               for line in lines)
    warn = [line for line in lines if "does not fit who wins" in line]
    assert warn and "does not fit who wins: A wins 3" in warn[0]  # A first: largest gap
    assert any("rank these differently: A" in line for line in lines)


def test_steady_faction_is_not_flagged_by_who_wins(steady):
    """Truth: A wins exactly 25% (never flagged by the winner model) but is rarely last,
    so the finishing-order model calls it strongest; the fit check must say so."""
    _, table = steady
    a = row(table, ratings.WINNER, "A")
    assert not a["significant_holm"] and abs(a["strength"]) < 0.05
    fo = row(table, ratings.FINISHING_ORDER, "A")
    assert fo["strength"] > 0.3 and fo["significant_holm"]
    assert fo["fit_disagrees"] and fo["implied_win"] > fo["observed_win"] + 0.05
    assert any("does not fit who wins: A wins 2" in line for line in strength_lines(table))


def test_winner_model_reproduces_observed_win_rates_exactly(swingy):
    """The conditional-logit score equations set each faction's expected wins to its
    observed wins, a closed-form check of the winner likelihood and fit."""
    winner = swingy[1].filter((pl.col("model") == ratings.WINNER) & (pl.col("kind") == "faction"))
    np.testing.assert_allclose(winner["implied_win"], winner["observed_win"], atol=1e-6)


def test_planted_winner_effect_is_covered():
    """A truly +0.5 in who wins (conditional logit), others 0: centred truth +0.375 for A,
    -0.125 for each other. 40 runs x 2,000 games: A is flagged with the right sign in
    every run, and the 95% interval covers the truth in 34..40 of 40 (binomial 0.95,
    at least mean - 2.9 SE)."""
    rng = np.random.default_rng(21)
    truth = np.array([0.375, -0.125, -0.125, -0.125])
    flagged = covered = 0
    for _ in range(40):
        players, games = winner_games(rng, 2000, [0.5, 0, 0, 0])
        table = ratings.strengths(ratings.fit(ratings.design(players, games, model=ratings.WINNER),
                                              ratings.WINNER))
        f = table.filter(pl.col("kind") == "faction").sort("faction")
        a = f.row(0, named=True)
        flagged += a["significant_holm"] and a["strength"] > 0
        covered += a["lo"] < truth[0] < a["hi"]
        assert (f["lo"] < f["hi"]).all()
    assert flagged == 40 and covered >= 34, (flagged, covered)


def test_fair_null_any_faction_flag_rate_is_nominal():
    """Fair games (PL with equal strengths, no seat effect): the share of runs in which the
    winner model flags any faction (or any seat) after Holm is at most 5% + 3 MC SE
    (MC SE = sqrt(0.05 x 0.95 / 200) = 1.5 pp, limit 9.6%), and not vacuously 0 (>= 1 run of
    200 in either family would be expected; we require the faction rate below the limit and
    the rejections of the win-rate test in the same runs alike)."""
    rng = np.random.default_rng(2026)
    runs, hits = 200, {"faction": 0, "seat": 0, "winrate": 0}
    for _ in range(runs):
        players, games = pl_games(rng, 1000, [0, 0, 0, 0])
        table = ratings.strengths(ratings.fit(ratings.design(players, games, model=ratings.WINNER),
                                              ratings.WINNER))
        for kind in ("faction", "seat"):
            hits[kind] += bool(table.filter(pl.col("kind") == kind)["significant_holm"].any())
        rates = players.with_columns(win=(pl.col("rank") == 1).cast(float)) \
            .group_by("faction").agg(wins=pl.col("win").sum(), games=pl.len())
        hits["winrate"] += bool((holm(rate_vs_fair_p(rates["wins"], rates["games"],
                                                     np.full(4, 0.25))) < 0.05).any())
    limit = 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs)
    assert all(n / runs <= limit for n in hits.values()), hits


def _fixed(n_games: int, lineup) -> np.ndarray:
    return np.tile(np.asarray(lineup), (n_games, 1))


@pytest.mark.parametrize("lineup", [[0, 1, 2, 3], [0, 1, 0, 1]], ids=["full", "short"])
def test_fixed_lineup_is_not_estimable(lineup):
    """Faction = seat in every game (A,B,C,D; or A,B,A,B) with A truly +0.4: no strength
    numbers, only 'not estimable', in the table, the verdict lines and the records."""
    rng = np.random.default_rng(31)
    players, games = pl_games(rng, 3000, [0.4, 0, 0, 0], fac=_fixed(3000, lineup))
    table = ratings.strength_models(players, games, True)
    assert not table["estimable"].any()
    assert table["strength"].is_null().all() or table["strength"].is_nan().all()
    assert not table["significant_holm"].any()
    lines = strength_lines(table)
    assert any("not estimable: factions are fixed to seats" in line for line in lines)
    assert not any("strongest" in line for line in lines)
    records = strength_records(table)
    assert records and all(r.verdict == "not_estimable" and r.estimate is None for r in records)


def test_rotated_lineup_is_estimable_with_the_right_sign():
    """The same lineup A,B,C,D rotated one seat per game: identifiable, A found strongest."""
    rng = np.random.default_rng(32)
    fac = (np.arange(4)[None, :] + np.arange(3000)[:, None]) % 4
    players, games = winner_games(rng, 3000, [0.4, 0, 0, 0], fac=fac)
    table = ratings.strength_models(players, games, True)
    assert table["estimable"].all()
    a = row(table, ratings.WINNER, "A")
    assert a["strength"] > 0 and a["significant_holm"] and a["lo"] < 0.3 < a["hi"]


def test_partly_aliased_design_reports_the_estimable_part():
    """4p games with factions fixed to seats, plus 3p games where A,B,C rotate: the 3p games
    identify the factions (A, B, C) and with them the 4p seats; D only ever sits in 4p seat
    3, so D's strength and the 4p seat effects stay aliased and are marked, with numbers for
    the rest."""
    rng = np.random.default_rng(33)
    four, g4 = pl_games(rng, 1500, [0.4, 0, 0, 0], fac=_fixed(1500, [0, 1, 2, 3]))
    fac3 = (np.arange(3)[None, :] + np.arange(1500)[:, None]) % 3
    u = np.array([0.4, 0, 0])[fac3] + rng.gumbel(size=fac3.shape)
    three, g3 = _tables(fac3, np.argsort(np.argsort(-u, axis=1), axis=1) + 1)
    three = three.with_columns(game_id=pl.col("game_id") + 1500)
    g3 = g3.with_columns(game_id=pl.col("game_id") + 1500, n_players=pl.lit(3, dtype=pl.Int64))
    table = ratings.strength_models(pl.concat([four, three]), pl.concat([g4, g3]), True)
    winner = table.filter(pl.col("model") == ratings.WINNER)
    seats3 = winner.filter((pl.col("kind") == "seat") & (pl.col("n_players") == 3))
    assert seats3["estimable"].all()
    assert not winner.filter(pl.col("kind") == "faction")["estimable"].all()
    assert winner.filter(~pl.col("estimable"))["strength"].is_nan().all()
    assert any("not estimable" in line for line in strength_lines(table))


def test_records_carry_model_family_and_counts(swingy):
    _, table = swingy
    records = strength_records(table.with_columns(games_total=pl.lit(1_000_000)))
    kinds = {r.kind for r in records}
    assert kinds == {"strength", "finishing_order"}
    a = next(r for r in records if r.kind == "strength" and r.unit == "A")
    assert a.verdict == "significant" and a.metric == "log-odds" and a.n == 20_000
    assert a.n_unit == "games" and a.family == "strength: winner model, factions"
    assert a.note == "fitted on the first 20,000 of 1,000,000 games"
    assert a.ci_low < a.estimate < a.ci_high and a.p_adjusted < 0.05
