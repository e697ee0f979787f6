"""Plackett-Luce strengths (analysis/ratings.py): checked against choix, a closed form,
hand-computed tie handling, a brute-force game bootstrap of the robust standard error, and
for calibration on fair synthetic games."""

from __future__ import annotations

import math

import choix
import numpy as np
import polars as pl
import pytest

from analysis import ratings
from analysis.stats import holm, rate_vs_fair_p
from analysis.verdicts import strength_lines


def synthetic(rng, n_games: int, n_players: int, theta, seat_effect=None):
    """Games with finishing orders drawn from a Plackett-Luce model (Gumbel trick: sorting
    utility + Gumbel noise gives a PL order). Factions are dealt without replacement."""
    theta = np.asarray(theta, dtype=float)
    seat_effect = np.zeros(n_players) if seat_effect is None else np.asarray(seat_effect)
    rows, orders = [], []
    for g in range(n_games):
        fac = rng.choice(len(theta), n_players, replace=False)
        u = theta[fac] + seat_effect + rng.gumbel(size=n_players)
        order = np.argsort(-u)
        rank = np.empty(n_players, dtype=int)
        rank[order] = np.arange(1, n_players + 1)
        orders.append([int(fac[i]) for i in order])
        rows += [(g, s, f"f{fac[s]}", int(rank[s])) for s in range(n_players)]
    players = pl.DataFrame(rows, schema=["game_id", "seat", "faction", "rank"], orient="row")
    games = pl.DataFrame({"game_id": np.arange(n_games), "n_players": np.full(n_games, n_players)})
    return players, games, orders


def test_matches_choix_without_seat_effects():
    rng = np.random.default_rng(4)
    players, games, orders = synthetic(rng, 600, 4, [0.6, 0.3, 0.0, -0.2, -0.7])
    f = ratings.fit(ratings.design(players, games, with_seats=False))
    reference = choix.opt_rankings(5, orders)  # maximum likelihood, centred
    np.testing.assert_allclose(f.estimate[:5], reference - reference.mean(), atol=1e-5)


def test_two_factions_two_seats_closed_form():
    """Two factions in 2-player games is a saturated logistic model: with p1 = A's win rate
    when A sits in seat 0 and p2 when A sits in seat 1, A - B = (logit p1 + logit p2) / 2
    and seat 0 - seat 1 = (logit p1 - logit p2) / 2; var(logit p) = 1 / (n p q)."""
    cells = [("A", "B", 30, 40), ("B", "A", 18, 30)]  # seat 0, seat 1, A wins, games
    rows, g = [], 0
    for seat0, seat1, a_wins, n in cells:
        for i in range(n):
            a_first = i < a_wins
            ranks = {seat0: 1 if (seat0 == "A") == a_first else 2}
            ranks[seat1] = 3 - ranks[seat0]
            rows += [(g, 0, seat0, ranks[seat0]), (g, 1, seat1, ranks[seat1])]
            g += 1
    players = pl.DataFrame(rows, schema=["game_id", "seat", "faction", "rank"], orient="row")
    games = pl.DataFrame({"game_id": np.arange(g), "n_players": np.full(g, 2)})
    table = ratings.strengths(ratings.fit(ratings.design(players, games)))

    def logit(p):
        return math.log(p / (1 - p))

    p1, p2 = 30 / 40, 18 / 30
    diff, seat = (logit(p1) + logit(p2)) / 2, (logit(p1) - logit(p2)) / 2
    se_diff = math.sqrt(1 / (40 * p1 * (1 - p1)) + 1 / (30 * p2 * (1 - p2))) / 2
    a = table.filter(pl.col("faction") == "A").row(0, named=True)
    s0 = table.filter((pl.col("kind") == "seat") & (pl.col("seat") == 0)).row(0, named=True)
    assert a["strength"] == pytest.approx(diff / 2, abs=1e-7)   # centred: A = +d/2, B = -d/2
    assert s0["strength"] == pytest.approx(seat / 2, abs=1e-7)
    # saturated model: the robust (sandwich) SE equals the model-based one up to G/(G-1)
    assert a["se"] == pytest.approx(se_diff / 2 * math.sqrt(g / (g - 1)), rel=1e-4)


def test_ties_breslow_and_last_place_ties_carry_nothing():
    """Ranks [1, 1, 3]: both tied winners are chosen from all three (Breslow); the last
    player contributes nothing. Ranks [1, 2, 2]: only the winner's term."""
    players = pl.DataFrame({"game_id": [0, 0, 0, 1, 1, 1], "seat": [0, 1, 2, 0, 1, 2],
                            "faction": ["a", "b", "c", "a", "b", "c"],
                            "rank": [1, 1, 3, 1, 2, 2]})
    games = pl.DataFrame({"game_id": [0, 1], "n_players": [3, 3]})
    lik = ratings._Likelihood(ratings.design(players, games, with_seats=False))
    x = np.array([0.4, -0.3])  # free parameters: b and c (a is the reference, 0)
    ea, eb, ec = np.exp([0.0, 0.4, -0.3])
    total = ea + eb + ec
    expected = -(math.log(ea / total) + math.log(eb / total) + math.log(ea / total))
    assert lik.evaluate(x, np.ones(2))[0] == pytest.approx(expected, rel=1e-12)
    # a game where everybody ties is uninformative
    all_tied = pl.DataFrame({"game_id": [2, 2, 2], "seat": [0, 1, 2], "faction": ["a", "b", "c"],
                             "rank": [1, 1, 1]})
    more = ratings._Likelihood(ratings.design(
        pl.concat([players, all_tied]), pl.concat([games, pl.DataFrame({"game_id": [2], "n_players": [3]})]),
        with_seats=False))
    assert more.evaluate(x, np.ones(3))[0] == pytest.approx(expected, rel=1e-12)


def test_gradient_and_hessian_match_finite_differences():
    rng = np.random.default_rng(2)
    players, games, _ = synthetic(rng, 50, 3, [0.5, 0.0, -0.5, 0.2])
    lik = ratings._Likelihood(ratings.design(players, games))
    x = rng.normal(scale=0.3, size=len(lik.free))
    w = rng.integers(0, 3, size=50).astype(float)
    nll, grad, hess = lik.evaluate(x, w)
    h = 1e-6
    eye = np.eye(len(x))
    num_grad = [(lik.evaluate(x + h * e, w)[0] - lik.evaluate(x - h * e, w)[0]) / (2 * h) for e in eye]
    num_hess = np.column_stack([(lik.evaluate(x + h * e, w)[1] - lik.evaluate(x - h * e, w)[1]) / (2 * h)
                                for e in eye])
    np.testing.assert_allclose(grad, num_grad, atol=1e-5)
    np.testing.assert_allclose(hess, num_hess, atol=1e-4)


@pytest.mark.parametrize("model", ratings.MODELS)
def test_robust_se_matches_a_full_refit_game_bootstrap(model):
    """Brute-force reference for the sandwich SE: resample games with replacement and refit
    from scratch (60 replicates; the SD of an SD estimate from 60 draws is about 9%, so
    25% is more than 2.5 of its SEs)."""
    rng = np.random.default_rng(8)
    players, games, _ = synthetic(rng, 2000, 4, [0.5, 0.1, 0.0, -0.2, -0.4],
                                  seat_effect=[0.2, 0.0, 0.0, -0.2])
    full = ratings.fit(ratings.design(players, games, model=model), model)
    reps = []
    for _ in range(60):
        ids = pl.DataFrame({"game_id": rng.integers(0, 2000, 2000)}).with_row_index("new_id")
        boot_players = ids.join(players, on="game_id").drop("game_id").rename({"new_id": "game_id"})
        boot_games = ids.join(games, on="game_id").drop("game_id").rename({"new_id": "game_id"})
        reps.append(ratings.fit(ratings.design(boot_players, boot_games, model=model), model).estimate)
    np.testing.assert_allclose(np.std(reps, axis=0, ddof=1), full.se, rtol=0.25)
    table = ratings.strengths(full)
    seat0 = table.filter((pl.col("kind") == "seat") & (pl.col("seat") == 0)).row(0, named=True)
    # planted seat effect (+0.2 against a mean of 0) is found, inside its interval
    assert seat0["lo"] < 0.2 < seat0["hi"] and seat0["significant_holm"]
    top = table.filter(pl.col("kind") == "faction").sort("strength").row(-1, named=True)
    assert top["faction"] == "f0" and top["significant_holm"]


def test_null_is_not_over_flagged():
    """Fair games (every finishing order equally likely, factions dealt at random): across
    200 synthetic runs the share of runs with any Holm-flagged faction, seat or faction
    win rate stays at the nominal 5% (plus 3 Monte-Carlo standard errors), for both models."""
    rng = np.random.default_rng(2026)
    runs, flagged = 200, {"winrate": 0}
    for _ in range(runs):
        players, games, _ = synthetic(rng, 150, 4, np.zeros(6))
        table = ratings.strength_models(players, games, True)
        for (model, kind), g in table.group_by("model", "kind"):
            flagged[model, kind] = flagged.get((model, kind), 0) + bool(g["significant_holm"].any())
        rates = players.with_columns(win=(pl.col("rank") == 1).cast(float)) \
            .group_by("faction").agg(wins=pl.col("win").sum(), games=pl.len())
        p = rate_vs_fair_p(rates["wins"], rates["games"], np.full(len(rates), 0.25))
        flagged["winrate"] += bool((holm(p) < 0.05).any())
    limit = 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs)
    assert all(count / runs <= limit for count in flagged.values()), flagged


def test_a_planted_faction_is_found_at_the_same_size():
    """The calibration above is not vacuous: at the same size, a faction 0.6 stronger is
    flagged (with a positive sign) in most runs."""
    rng = np.random.default_rng(5)
    hits = 0
    for _ in range(20):
        players, games, _ = synthetic(rng, 150, 4, [0.6, 0, 0, 0, 0, 0])
        table = ratings.strengths(ratings.fit(ratings.design(players, games)))
        row = table.filter(pl.col("faction") == "f0").row(0, named=True)
        hits += row["significant_holm"] and row["strength"] > 0
    assert hits >= 14


def test_a_faction_that_always_wins_is_marked_separated():
    rows = []
    for g in range(30):  # A always first, C always last, seats rotate
        factions, ranks = (["A", "B", "C"], [1, 2, 3]) if g % 2 else (["B", "C", "A"], [2, 3, 1])
        rows += [(g, s, factions[s], ranks[s]) for s in range(3)]
    players = pl.DataFrame(rows, schema=["game_id", "seat", "faction", "rank"], orient="row")
    games = pl.DataFrame({"game_id": np.arange(30), "n_players": np.full(30, 3)})
    table = ratings.strength_models(players, games, True)
    order = table.filter(pl.col("model") == ratings.FINISHING_ORDER)
    flags = dict(zip(order["faction"], order["separated"], strict=True))
    assert flags["A"] and flags["C"] and not flags["B"]
    winner = table.filter(pl.col("model") == ratings.WINNER)
    assert dict(zip(winner["faction"], winner["separated"], strict=True))["A"]
    assert any("A always won" in line for line in strength_lines(table))
