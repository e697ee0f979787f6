"""Interval estimates and the fairness verdict.

Everything here is vectorised over NumPy arrays so a whole results table is handled
in one call. Successes may be fractional: a k-way shared victory counts 1/k per
winner, which keeps a seat's total wins equal to its expected share under fairness.
The Wilson interval is defined for any p in [0, 1], so fractional counts are fine;
tests cross-check integer cases against scipy.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats as _sp

OUTSIDE = "outside"
INSIDE = "inside"
UNDECIDED = "undecided"


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile, e.g. 1.959964 for 95%."""
    return float(_sp.norm.ppf(0.5 + confidence / 2))


def wilson(successes, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (lo, hi) for successes out of n; NaN where n == 0."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / n
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
    hi = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    return lo, hi


def newcombe_diff(s1, n1, s2, n2, confidence: float = 0.95):
    """Difference p1 - p2 of two independent proportions and its Newcombe hybrid score
    interval (Newcombe 1998, method 10), built from the two Wilson intervals.

    Returns (diff, lo, hi) arrays.
    """
    s1, n1, s2, n2 = (np.asarray(x, dtype=float) for x in (s1, n1, s2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, confidence)
    l2, u2 = wilson(s2, n2, confidence)
    diff = p1 - p2
    lo = diff - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = diff + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return diff, lo, hi


def mean_diff(mean1, sd1, n1, mean2, sd2, n2, confidence: float = 0.95):
    """Difference mean1 - mean2 of two independent samples with a Welch t interval
    (unequal variances, Welch-Satterthwaite degrees of freedom).

    Returns (diff, lo, hi) arrays; NaN where a sample has fewer than 2 values.
    """
    m1, s1, k1, m2, s2, k2 = (np.asarray(x, dtype=float) for x in (mean1, sd1, n1, mean2, sd2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        v1, v2 = s1**2 / k1, s2**2 / k2
        se = np.sqrt(v1 + v2)
        df = (v1 + v2) ** 2 / (v1**2 / (k1 - 1) + v2**2 / (k2 - 1))
    # Zero variance on both sides: the difference is exact, not unknown.
    df = np.where(se > 0, df, np.inf)
    t = _sp.t.ppf(0.5 + confidence / 2, np.where(np.isnan(df), 1.0, df))
    diff = m1 - m2
    ok = (k1 >= 2) & (k2 >= 2)
    lo = np.where(ok, diff - t * se, np.nan)
    hi = np.where(ok, diff + t * se, np.nan)
    return diff, lo, hi


def fairness_verdict(lo, hi, fair, band: float) -> np.ndarray:
    """Classify intervals against the fairness band [fair - band, fair + band].

    'outside' when the interval lies entirely outside the band, 'inside' when entirely
    within it, otherwise 'undecided' (more games needed).
    """
    lo, hi, fair = (np.asarray(x, dtype=float) for x in (lo, hi, fair))
    low_edge, high_edge = fair - band, fair + band
    outside = (hi < low_edge) | (lo > high_edge)
    inside = (lo >= low_edge) & (hi <= high_edge)
    return np.where(outside, OUTSIDE, np.where(inside, INSIDE, UNDECIDED))


def games_to_decide(rate, lo, hi, n, fair, band: float) -> np.ndarray:
    """Rough number of *additional* samples that would decide an undecided interval,
    assuming the observed rate holds.

    Each side of the interval (rate - lo, hi - rate) shrinks roughly like 1/sqrt(n).
    Above the band, the lower side must clear the upper edge; below it, the upper side
    must clear the lower edge; inside it, both sides must fit within the band.
    Returns 0 where already decided and inf where the rate sits exactly on an edge.
    """
    rate, lo, hi, n, fair = (np.asarray(x, dtype=float) for x in (rate, lo, hi, n, fair))
    low_edge, high_edge = fair - band, fair + band
    below, above = rate - lo, hi - rate
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio_above = below / (rate - high_edge)       # rate above the band
        ratio_below = above / (low_edge - rate)        # rate below the band
        ratio_inside = np.maximum(below / (rate - low_edge), above / (high_edge - rate))
    ratio = np.where(rate > high_edge, ratio_above,
                     np.where(rate < low_edge, ratio_below, ratio_inside))
    on_edge = (rate == low_edge) | (rate == high_edge)
    needed = n * ratio**2
    extra = np.where(on_edge, np.inf, np.maximum(np.ceil(needed - n), 1.0))
    decided = fairness_verdict(lo, hi, fair, band) != UNDECIDED
    return np.where(decided, 0.0, extra)


# ---------------------------------------------------------------- tests and planning
def _two_sided_normal_p(z) -> np.ndarray:
    return 2.0 * _sp.norm.sf(np.abs(np.asarray(z, dtype=float)))


def _zero_se_p(diff) -> np.ndarray:
    """p-value of an exactly known difference: 1 when it is 0, else 0."""
    return np.where(np.asarray(diff, dtype=float) == 0, 1.0, 0.0)


def rate_vs_fair_p(successes, n, fair) -> np.ndarray:
    """Two-sided score test of a rate against a fixed share `fair`.

    z = (s/n - fair) / sqrt(fair (1 - fair) / n), the test the Wilson interval inverts:
    p < 1 - confidence exactly when `fair` lies outside the Wilson interval. Works for
    fractional successes (shared victories). NaN where n == 0.
    """
    s, n, fair = (np.asarray(x, dtype=float) for x in (successes, n, fair))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (s / n - fair) / np.sqrt(fair * (1 - fair) / n)
    return np.where(n > 0, _two_sided_normal_p(z), np.nan)


def two_proportion_p(s1, n1, s2, n2) -> np.ndarray:
    """Two-sided pooled z-test of p1 == p2 for independent proportions (the test
    behind a 2x2 chi-square without continuity correction)."""
    s1, n1, s2, n2 = (np.asarray(x, dtype=float) for x in (s1, n1, s2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        pooled = (s1 + s2) / (n1 + n2)
        se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        diff = s1 / n1 - s2 / n2
        p = np.where(se > 0, _two_sided_normal_p(diff / se), _zero_se_p(diff))
    return np.where((n1 > 0) & (n2 > 0), p, np.nan)


def welch_p(mean1, sd1, n1, mean2, sd2, n2) -> np.ndarray:
    """Two-sided Welch t-test p-value from summary statistics (the test matching
    `mean_diff`'s interval). NaN where a sample has fewer than 2 values."""
    m1, s1, k1, m2, s2, k2 = (np.asarray(x, dtype=float) for x in (mean1, sd1, n1, mean2, sd2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        v1, v2 = s1**2 / k1, s2**2 / k2
        se = np.sqrt(v1 + v2)
        df = (v1 + v2) ** 2 / (v1**2 / (k1 - 1) + v2**2 / (k2 - 1))
        t = (m1 - m2) / se
        p = np.where(se > 0, 2.0 * _sp.t.sf(np.abs(t), np.where(se > 0, df, 1.0)),
                     _zero_se_p(m1 - m2))
    return np.where((k1 >= 2) & (k2 >= 2), p, np.nan)


def paired_t(mean_d, sd_d, n, confidence: float = 0.95):
    """t interval and two-sided p-value for the mean of n paired differences.

    Returns (lo, hi, p) arrays. A zero spread gives the exact interval [mean, mean]
    (p 1 when the mean is 0, else 0); NaN where n < 2.
    """
    m, s, k = (np.asarray(x, dtype=float) for x in (mean_d, sd_d, n))
    dof = np.where(k >= 2, k - 1, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = s / np.sqrt(k)
        half = _sp.t.ppf(0.5 + confidence / 2, dof) * se
        p = np.where(se > 0, 2.0 * _sp.t.sf(np.abs(m / se), dof), _zero_se_p(m))
    ok = k >= 2
    return (np.where(ok, m - half, np.nan), np.where(ok, m + half, np.nan),
            np.where(ok, p, np.nan))


def holm(p_values) -> np.ndarray:
    """Holm step-down adjusted p-values (family-wise error control under any
    dependence). With p sorted ascending, adj_(i) = max_{j<=i} min(1, (m - j + 1) p_(j)).
    NaN entries are not part of the family and stay NaN.
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    family = p[ok]
    m = family.size
    if m == 0:
        return out
    order = np.argsort(family, kind="stable")
    scaled = (m - np.arange(m)) * family[order]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(np.maximum.accumulate(scaled), 1.0)
    out[ok] = adjusted
    return out


def games_needed(fair, deviation, confidence: float = 0.95, power: float = 0.80) -> np.ndarray:
    """Samples needed to tell a rate of fair +/- deviation from `fair` (two-sided test
    at `confidence`, with `power`), normal approximation:

        n = (z_{1-a/2} sqrt(p0 q0) + z_{1-b} sqrt(p1 q1))^2 / d^2

    taking whichever of p1 = p0 + d or p0 - d needs more (the one nearer 1/2).
    Rounded up to a whole number.
    """
    p0, d = np.asarray(fair, dtype=float), np.asarray(deviation, dtype=float)
    z_a, z_b = z_value(confidence), float(_sp.norm.ppf(power))

    def n_for(p1):
        return (z_a * np.sqrt(p0 * (1 - p0)) + z_b * np.sqrt(p1 * (1 - p1))) ** 2 / d**2

    up = n_for(np.clip(p0 + d, 0.0, 1.0))
    down = n_for(np.clip(p0 - d, 0.0, 1.0))
    return np.ceil(np.maximum(up, down))


def mantel_haenszel_diff(s1, n1, s0, n0, confidence: float = 0.95):
    """Mantel-Haenszel weighted difference p1 - p0 across strata (one array entry per
    stratum), with the Greenland-Robins/Sato variance, valid both for many small strata
    and for few large ones:

        RD = sum((s1 n0 - s0 n1) / N) / W,  W = sum(n1 n0 / N)
        var = (RD P + Q) / W^2,  P = sum((n1^2 s0 - n0^2 s1 + n1 n0 (n0 - n1) / 2) / N^2),
                                 Q = sum((s1 (n0 - s0) + s0 (n1 - s1)) / (2 N))

    Strata missing either group carry no weight. Returns (diff, lo, hi, p) floats: a Wald
    interval and two-sided p-value; NaN when no stratum has both groups.
    """
    s1, n1, s0, n0 = (np.asarray(x, dtype=float) for x in (s1, n1, s0, n0))
    keep = (n1 > 0) & (n0 > 0)
    s1, n1, s0, n0 = s1[keep], n1[keep], s0[keep], n0[keep]
    big_n = n1 + n0
    w = np.sum(n1 * n0 / big_n)
    if not keep.any() or w == 0:
        return (np.nan,) * 4
    rd = float(np.sum((s1 * n0 - s0 * n1) / big_n) / w)
    p_term = np.sum((n1**2 * s0 - n0**2 * s1 + n1 * n0 * (n0 - n1) / 2) / big_n**2)
    q_term = np.sum((s1 * (n0 - s0) + s0 * (n1 - s1)) / (2 * big_n))
    se = float(np.sqrt(max((rd * p_term + q_term) / w**2, 0.0)))
    half = z_value(confidence) * se
    p = float(_two_sided_normal_p(rd / se)) if se > 0 else float(_zero_se_p(rd))
    return rd, rd - half, rd + half, p


def with_interval(df: pl.DataFrame, successes: str, n: str, prefix: str = "") -> pl.DataFrame:
    """Add Wilson 95% columns `<prefix>lo`, `<prefix>hi` for successes / n."""
    lo, hi = wilson(df[successes].to_numpy(), df[n].to_numpy())
    return df.with_columns(pl.Series(f"{prefix}lo", lo), pl.Series(f"{prefix}hi", hi))


# ---------------------------------------------------------------- game-clustered errors
# Players of one game are not independent (at most one of them wins), so rates pooled over
# players, seats or rounds get their variance from per-game sums (a sandwich / linearised
# estimator over games) rather than from a binomial over the pooled units.
def clustered_ratio_se(wins, n, sum_w2, sum_wn, sum_n2, clusters) -> np.ndarray:
    """Game-clustered SE of a ratio R = sum_g w_g / sum_g n_g (w_g wins, n_g units in game g).

    Linearised per game: z_g = (w_g - R n_g) / N, var(R) = G/(G-1) sum_g z_g^2, expanded
    from the per-game moments sum w_g^2, sum w_g n_g, sum n_g^2 (games without units add 0).
    `clusters` = G, the number of games contributing units. NaN where n == 0 or G < 2.
    """
    w, k, w2, wn, n2, g = (np.asarray(x, dtype=float) for x in (wins, n, sum_w2, sum_wn, sum_n2, clusters))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = w / k
        ss = np.maximum(w2 - 2 * r * wn + r * r * n2, 0.0)
        var = g / (g - 1) * ss / (k * k)
    return np.where((k > 0) & (g >= 2), np.sqrt(var), np.nan)


def wilson_clustered(wins, n, se, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson interval at the effective sample size n_eff = R(1-R)/se^2 (Kish design
    effect), so a clustered SE widens (or narrows) the interval while it keeps Wilson's
    behaviour near 0 and 1. Falls back to n where the rate is 0 or 1 (se = 0)."""
    w, k, se = (np.asarray(x, dtype=float) for x in (wins, n, se))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = w / k
        n_eff = np.where(se > 0, r * (1 - r) / (se * se), k)
    n_eff = np.where(np.isfinite(n_eff) & (n_eff > 0), n_eff, k)
    return wilson(r * n_eff, n_eff, confidence)


def wald_p(estimate, se) -> np.ndarray:
    """Two-sided normal p-value of estimate / se (exact 0/1 where se == 0, NaN where unknown)."""
    est, se = np.asarray(estimate, dtype=float), np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(se > 0, _two_sided_normal_p(est / se), _zero_se_p(est))
    return np.where(np.isnan(se) | np.isnan(est), np.nan, p)


def paired_ratio_diff(w_a, n_a, w_b, n_b, confidence: float = 0.95):
    """Paired difference of two ratio estimators over the same games (arrays, one entry
    per game): R_A = sum w_a / sum n_a, R_B likewise, d = R_B - R_A.

    Linearised per game, z_g = (w_bg - R_B n_bg)/N_B - (w_ag - R_A n_ag)/N_A, so
    var(d) = G/(G-1) sum z_g^2 (G games); t interval with G - 1 df. Returns
    (r_a, r_b, d, lo, hi, p, variance_reduction) with variance_reduction the unpaired
    over the paired variance of d (as `analysis.paired.variance_reduction`).
    """
    w_a, n_a, w_b, n_b = (np.asarray(x, dtype=float) for x in (w_a, n_a, w_b, n_b))
    g = w_a.size
    big_a, big_b = n_a.sum(), n_b.sum()
    if g < 2 or big_a == 0 or big_b == 0:
        return (np.nan,) * 7
    r_a, r_b = w_a.sum() / big_a, w_b.sum() / big_b
    z_a, z_b = (w_a - r_a * n_a) / big_a, (w_b - r_b * n_b) / big_b
    scale = g / (g - 1)
    var_d = scale * np.sum((z_b - z_a) ** 2)
    unpaired = scale * (np.sum(z_a**2) + np.sum(z_b**2))
    lo, hi, p = paired_t(r_b - r_a, np.sqrt(var_d * g), g, confidence)
    vr = (np.inf if var_d == 0 and unpaired > 0 else np.nan if var_d == 0 else unpaired / var_d)
    return r_a, r_b, r_b - r_a, float(lo), float(hi), float(p), vr


# ---------------------------------------------------------------- band decisions with error control
def band_p_values(successes, n, fair, band: float) -> tuple[np.ndarray, np.ndarray]:
    """One-sided score-test p-values for a rate against the band [fair - band, fair + band].

    Returns (p_inside, p_outside). p_inside is the TOST p-value: the larger of the p-values
    of "rate at or below fair - band" and "rate at or above fair + band"; rejecting both
    decides inside. p_outside is the smaller of the p-values of "rate at or below fair +
    band" and "rate at or above fair - band"; rejecting one decides outside on that side.
    Each test uses the null variance at its edge, so p < a/2 exactly when that edge lies
    outside the two-sided Wilson interval at level 1 - a (the interval the verdict uses).
    An edge at or beyond 0 or 1 cannot be crossed by the rate: its p-value is 0 (inside
    side) or 1 (outside side). Shared victories (fractional successes) are allowed.
    """
    s, n, fair = (np.asarray(x, dtype=float) for x in (successes, n, fair))
    low, high = fair - band, fair + band
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = s / n
        z_low = (rate - low) / np.sqrt(low * (1 - low) / n)     # > 0: above the low edge
        z_high = (high - rate) / np.sqrt(high * (1 - high) / n)  # > 0: below the high edge
    z_low = np.where(low <= 0, np.inf, z_low)
    z_high = np.where(high >= 1, np.inf, z_high)
    p_above_low, p_below_high = _sp.norm.sf(z_low), _sp.norm.sf(z_high)
    p_inside = np.maximum(p_above_low, p_below_high)
    p_outside = np.minimum(_sp.norm.sf(-z_low), _sp.norm.sf(-z_high))
    nan = ~(n > 0)
    return np.where(nan, np.nan, p_inside), np.where(nan, np.nan, p_outside)


def band_decision(successes, n, fair, band: float, family_size: int, alpha: float = 0.05):
    """Band verdicts with family-wise error control over `family_size` hypotheses.

    Bonferroni: each row's Wilson interval is taken at level 1 - alpha / m, so all m
    intervals cover their true rates at once with probability >= 1 - alpha and then every
    inside/outside call is right. Equivalently each row runs its one-sided tests at
    alpha / (2 m), and p_adjusted = min(1, 2 m p) of the test the verdict rests on (the
    TOST p for inside, the outside p for outside, the smaller of the two when undecided).
    Returns (lo, hi, verdict, p_adjusted).
    """
    m = max(1, int(family_size))
    lo, hi = wilson(successes, n, 1 - alpha / m)
    verdict = fairness_verdict(lo, hi, fair, band)
    p_in, p_out = band_p_values(successes, n, fair, band)
    p = np.where(verdict == INSIDE, p_in, np.where(verdict == OUTSIDE, p_out, np.fmin(p_in, p_out)))
    return lo, hi, verdict, np.minimum(1.0, 2 * m * p)


def games_to_decide_band(fair, deviation, band: float, confidence: float = 0.95,
                         power: float = 0.80) -> np.ndarray:
    """Samples needed to decide a unit whose true rate is fair + deviation inside or outside
    the band [fair - band, fair + band], with the one-sided test against the nearer edge
    at level (1 - confidence) / 2 (the side of a two-sided interval at `confidence`) and
    the given power, normal approximation:
    n = (z_a sqrt(e (1 - e)) + z_b sqrt(p (1 - p)))^2 / (p - e)^2, e the nearer edge.
    The far edge needs fewer samples whenever the rate is nearer one edge. inf on an edge."""
    fair, deviation = np.broadcast_arrays(np.asarray(fair, dtype=float), np.asarray(deviation, dtype=float))
    rate = fair + deviation
    edge = np.where(deviation >= 0, fair + band, fair - band)
    z_a, z_b = z_value(confidence), float(_sp.norm.ppf(power))  # z_value: the 1 - a/2 quantile
    with np.errstate(divide="ignore", invalid="ignore"):
        n = (z_a * np.sqrt(edge * (1 - edge)) + z_b * np.sqrt(rate * (1 - rate))) ** 2 \
            / (rate - edge) ** 2
    return np.where(rate == edge, np.inf, np.ceil(n))


# ---------------------------------------------------------------- sums that do not depend on threads
def group_sums(df: pl.DataFrame, keys: list[str], **sums: str | pl.Expr) -> pl.DataFrame:
    """One row per distinct `keys`, in order of first appearance: each named sum of a
    column or expression over the group's rows, as Float64 (nulls count as 0).

    polars' `group_by().agg(sum())` adds a large group's floats in partial sums split over
    its threads, so a sum of win shares (1/3, 1/6, ...) can differ in the last bit from one
    call to the next, and so would the report (DESIGN §4: same input, same output). Here
    each group's values are gathered in row order (polars keeps the order within a group)
    and each list is summed whole, so the sum is fixed by the group's own rows; callers hand
    in frames in a fixed order (a query's ORDER BY, order-keeping joins, a sort).
    """
    values = {name: (pl.col(e) if isinstance(e, str) else e).cast(pl.Float64).fill_null(0.0)
              for name, e in sums.items()}
    names = list(sums)
    return (df.select(*keys, **values).group_by(keys, maintain_order=True).agg(pl.col(names))
            .with_columns(pl.col(names).list.sum().cast(pl.Float64)))
