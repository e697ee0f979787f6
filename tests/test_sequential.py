"""The sequential stopping rule of `simulate --until-decided` on synthetic Bernoulli streams
with known rates: a null inside the band is rarely declared outside, a clear deviation is
found with the right sign, and naive per-look 95% intervals (the mistake the Bonferroni
spending avoids) would be caught by the same check."""

import numpy as np
import polars as pl
import pytest
from scipy.stats import binomtest

from analysis.sequential import (
    BONFERRONI,
    GSPRT,
    Plan,
    decide,
    gsprt_step,
    hypotheses,
    run_sequence,
    simulate_stream,
    step,
)
from analysis.stats import INSIDE, OUTSIDE, UNDECIDED

FAIR, BAND = 0.25, 0.03
REPLICATES, M = 2000, 4


def simulate_streams(p: np.ndarray, plan: Plan, seed: int, looks: int | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Final verdicts (replicates x m) and the look each replicate stopped at, for
    independent Bernoulli streams with true rates p (m,), run through `step` look by look
    (`looks` overrides the plan's number of looks, to misuse a plan on purpose)."""
    looks = looks or plan.looks
    rng = np.random.default_rng(seed)
    wins = np.zeros((REPLICATES, p.size))
    verdict = np.full((REPLICATES, p.size), UNDECIDED, dtype=object)
    stopped = np.full(REPLICATES, looks)
    running = np.ones(REPLICATES, dtype=bool)
    for k in range(1, looks + 1):
        wins = wins + rng.binomial(plan.batch, p, size=wins.shape) * running[:, None]
        _, _, new = step(wins, np.full(wins.shape, k * plan.batch), FAIR, plan, verdict)
        verdict = np.where(running[:, None], new, verdict)
        done = running & (verdict != UNDECIDED).all(axis=1)
        stopped[done] = k
        running &= ~done
        if not running.any():
            break
    return verdict, stopped


def plan(alpha=0.05, hypotheses=M) -> Plan:
    return Plan(band=BAND, alpha=alpha, batch=500, max_games=20_000, hypotheses=hypotheses,
                rule=BONFERRONI)


def test_per_interval_confidence_is_bonferroni_over_looks_and_hypotheses():
    p = plan()
    assert p.looks == 40
    assert p.confidence() == pytest.approx(1 - 0.05 / 160)


def test_step_intervals_match_scipy_wilson():
    p = plan()
    lo, hi, _ = step(np.array([130.0]), np.array([500.0]), FAIR, p)
    ref = binomtest(130, 500).proportion_ci(confidence_level=1 - 0.05 / 160, method="wilson")
    assert (lo[0], hi[0]) == pytest.approx((ref.low, ref.high), abs=1e-10)


def test_null_on_the_band_edge_is_rarely_declared_outside():
    # The hardest null: every rate exactly on the upper edge (inside, barely).
    verdict, _ = simulate_streams(np.full(M, FAIR + BAND), plan(), seed=1)
    wrong = (verdict == OUTSIDE).any(axis=1).mean()
    assert wrong <= 0.05


def test_naive_per_look_intervals_would_fail_the_same_check():
    # Same streams with 95% intervals at every look and no spending: the family-wise
    # error of wrongly declaring 'outside' is far above 5% (the check above can fail).
    naive = Plan(band=BAND, alpha=0.05, batch=500, max_games=500, hypotheses=1,
                 rule=BONFERRONI)  # 95% intervals
    assert naive.confidence() == pytest.approx(0.95)
    verdict, _ = simulate_streams(np.full(M, FAIR + BAND), naive, seed=1, looks=40)
    assert (verdict == OUTSIDE).any(axis=1).mean() > 0.10


def test_fair_rates_are_declared_inside():
    verdict, stopped = simulate_streams(np.full(M, FAIR), plan(), seed=2)
    assert (verdict == INSIDE).all(axis=1).mean() >= 0.95
    assert np.median(stopped) < plan().looks  # it stops early, not at the cap


def test_a_clear_deviation_is_found_with_the_right_sign():
    rates = np.array([FAIR, FAIR, FAIR + 0.10, FAIR - 0.10])
    verdict, _ = simulate_streams(rates, plan(), seed=3)
    assert (verdict[:, 2] == OUTSIDE).mean() >= 0.99
    assert (verdict[:, 3] == OUTSIDE).mean() >= 0.99
    assert (verdict[:, :2] == OUTSIDE).mean() <= 0.01


def players_table(wins_by_seat: list[list[float]]) -> pl.DataFrame:
    """One 2-player game per column; rows = seats."""
    rows = [{"game_id": g, "n_players": 2, "seat": s, "faction": "none", "win": w}
            for s, seat_wins in enumerate(wins_by_seat) for g, w in enumerate(seat_wins)]
    return pl.DataFrame(rows)


def test_decide_on_a_table_keeps_earlier_verdicts_and_uses_seats_when_symmetric():
    p = Plan(band=0.2, alpha=0.05, batch=100, max_games=200, hypotheses=2, rule=BONFERRONI)
    first = hypotheses(players_table([[1.0] * 95 + [0.0] * 5, [0.0] * 95 + [1.0] * 5]))
    assert first["kind"].to_list() == ["seat", "seat"]
    d1 = decide(first, p)
    assert d1["verdict"].to_list() == [OUTSIDE, OUTSIDE]
    # A later look with balanced wins would be 'inside' or undecided, but decided stays decided.
    later = first.with_columns(wins=pl.lit(100.0), games=pl.lit(200))
    final, look = run_sequence([first, later], p)
    assert look == 1 and final["verdict"].to_list() == [OUTSIDE, OUTSIDE]
    d2 = decide(later, p, {(2, "0"): OUTSIDE})
    assert d2["verdict"][0] == OUTSIDE and d2["verdict"][1] != OUTSIDE


def test_look_tables_are_cumulative_per_batch():
    from analysis.sequential import look_tables

    # 5 games of 2 players, looks of 2 games: seat 0 wins games 0, 1 and 4.
    players = players_table([[1.0, 1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0, 0.0]])
    tables = look_tables(players, batch=2)
    assert [t["games"].to_list() for t in tables] == [[2, 2], [4, 4], [5, 5]]
    assert [t["wins"].to_list() for t in tables] == [[2.0, 0.0], [2.0, 2.0], [3.0, 2.0]]
    assert tables[-1].equals(hypotheses(players))


# ---------------------------------------------------------------- GSPRT (the default rule)
def gsprt_plan(rule=GSPRT) -> Plan:
    """The setting of docs/experiments.md: m = 4, looks every 5,000 games, cap 1,000,000."""
    return Plan(band=BAND, alpha=0.05, batch=5_000, max_games=1_000_000, hypotheses=M, rule=rule)


@pytest.mark.parametrize("deviation, right", [(0.0, INSIDE), (0.025, INSIDE), (0.035, OUTSIDE)])
def test_gsprt_wrong_decisions_stay_below_alpha(deviation, right):
    # One hypothesis's share of the family-wise budget is 2 edges x alpha / (2 m) = 1.25%;
    # 2.5 and 3.5 pp sit on the edges of the +-0.5 pp indifference zone (the hardest rates
    # the guarantee covers). With 2,000 streams the Monte-Carlo SE at 1.25% is 0.25 pp, so
    # 2% is three SEs above the per-hypothesis budget and well below alpha = 5%.
    verdict, _ = simulate_stream(FAIR + deviation, FAIR, gsprt_plan(), REPLICATES, seed=11)
    wrong = ((verdict != right) & (verdict != UNDECIDED)).mean()
    assert wrong <= 0.02
    assert (verdict == UNDECIDED).mean() == 0  # every stream stops before the cap


def test_gsprt_stops_on_the_band_edge_where_bonferroni_runs_to_the_cap():
    new_v, new_games = simulate_stream(FAIR + BAND, FAIR, gsprt_plan(), 500, seed=12)
    old_v, old_games = simulate_stream(FAIR + BAND, FAIR, gsprt_plan(BONFERRONI), 500, seed=12)
    assert (new_v == UNDECIDED).mean() == 0
    assert (old_v == UNDECIDED).mean() > 0.9            # the old rule never decides an edge
    assert new_games.mean() < 0.15 * old_games.mean()   # measured: about 74k vs 999k games


def test_gsprt_is_faster_near_an_edge_and_no_slower_at_fair():
    for deviation, factor in ((0.02, 0.6), (0.0, 1.0)):
        _, new_games = simulate_stream(FAIR + deviation, FAIR, gsprt_plan(), 500, seed=13)
        _, old_games = simulate_stream(FAIR + deviation, FAIR, gsprt_plan(BONFERRONI), 500, seed=13)
        assert new_games.mean() <= factor * old_games.mean()


def test_gsprt_counts_shared_wins_as_fractions():
    # 2 players, every game a 2-way tie: each seat wins 1/2 a game, exactly fair. A mutant
    # counting a shared win as a whole one would see two seats winning every game (outside).
    ties = players_table([[0.5] * 20_000, [0.5] * 20_000])
    from analysis.sequential import look_tables

    p = Plan(band=BAND, alpha=0.05, batch=5_000, max_games=20_000, hypotheses=2, rule=GSPRT)
    final, look = run_sequence(look_tables(ties, p.batch), p)
    assert final["rate"].to_list() == [0.5, 0.5]
    assert final["verdict"].to_list() == [INSIDE, INSIDE] and look <= 4
    whole = players_table([[1.0] * 20_000, [1.0] * 20_000])
    assert run_sequence(look_tables(whole, p.batch), p)[0]["verdict"].to_list() == [OUTSIDE, OUTSIDE]


def test_gsprt_keeps_decided_edges_between_looks():
    p = gsprt_plan()
    # 30% after 20k games: the upper edge (28%) is passed; a later dip cannot undo it.
    v, low, high = gsprt_step(np.array([6000.0]), np.array([20_000.0]), FAIR, p)
    assert v[0] == OUTSIDE and high[0] == 1
    v2, _, high2 = gsprt_step(np.array([10_000.0]), np.array([40_000.0]), FAIR, p, low, high, v)
    assert v2[0] == OUTSIDE and high2[0] == 1


def test_indifference_zone_sets_the_cost_on_the_edge():
    wide = Plan(band=BAND, alpha=0.05, batch=5_000, max_games=1_000_000, hypotheses=M,
                indifference=0.01)
    _, narrow_games = simulate_stream(FAIR + BAND, FAIR, gsprt_plan(), 300, seed=14)
    _, wide_games = simulate_stream(FAIR + BAND, FAIR, wide, 300, seed=14)
    assert wide_games.mean() < 0.5 * narrow_games.mean()  # about 1/d^2


def test_sequential_records_from_the_stored_outcome():
    from analysis.sequential import sequential_records

    stored = {"band": BAND, "alpha": 0.05, "hypotheses": 2, "rule": GSPRT, "indifference": 0.005,
              "outcome": {"verdicts": [
                  {"n_players": 2, "kind": "seat", "unit": "0", "wins": 60.0, "games": 100,
                   "rate": 0.6, "lo": 0.5, "hi": 0.7, "verdict": OUTSIDE},
                  {"n_players": 3, "kind": "faction", "unit": "elves", "wins": 30.0, "games": 90,
                   "rate": 1 / 3, "lo": 0.2, "hi": 0.4, "verdict": INSIDE}]}}
    recs = sequential_records(stored)
    assert [(r.kind, r.n_unit, r.verdict) for r in recs] == [
        ("sequential_seat", "games", OUTSIDE), ("sequential_faction", "seats", INSIDE)]
    assert recs[0].ci_low is None  # the GSPRT decides on likelihood ratios, not an interval
    assert sequential_records(dict(stored, rule=BONFERRONI))[0].ci_low == 0.5


def test_look_tables_sum_tie_shares_exactly_whatever_the_row_order():
    """A resumed run reads the same rows in another order: the win totals must not move in the
    last bit (they decide the verdicts and are stored in run.json)."""
    from fractions import Fraction

    from analysis.sequential import look_tables

    rng = np.random.default_rng(3)
    n = 30_000
    share = rng.choice([0.0, 1.0, 1 / 3, 1 / 6, 0.2, 0.25, 0.5], n)
    players = pl.DataFrame({"game_id": np.arange(n) // 4, "n_players": 4, "seat": np.arange(n) % 4,
                            "faction": "none", "win": share})
    tables = [look_tables(players.sample(fraction=1.0, shuffle=True, seed=s), batch=500) for s in range(3)]
    for other in tables[1:]:
        assert all(a.equals(b) for a, b in zip(tables[0], other, strict=True))
    exact = sum(Fraction(1, round(1 / w)) for w in share[players["seat"].to_numpy() == 0] if w > 0)
    assert tables[0][-1].filter(pl.col("unit") == "0")["wins"][0] == float(exact)
