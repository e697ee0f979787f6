"""Interval estimates and the fairness verdict.

Everything here is vectorised over NumPy arrays so a whole results table is handled
in one call. Successes may be fractional: a k-way shared victory counts 1/k per
winner, which keeps a seat's total wins equal to its expected share under fairness.
The Wilson interval is defined for any p in [0, 1], so fractional counts are fine;
tests cross-check integer cases against scipy.
"""

from __future__ import annotations

import numpy as np
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
