"""Checks of the numeric options several commands share, so every command refuses the same
values with the same line (NaN included: it fails every comparison)."""

from __future__ import annotations

from sim.core.errors import UsageError


def check_band(band: float) -> float:
    """--band: a fairness band strictly between 0 and 0.5 (a share of the fair win rate)."""
    if not 0 < band < 0.5:
        raise UsageError(f"--band must be between 0 and 0.5 (a share, e.g. 0.03 = 3 pp), got {band}")
    return band


def check_alpha(alpha: float) -> float:
    """--alpha: a family-wise error rate strictly between 0 and 1."""
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1, e.g. 0.05, got {alpha}")
    return alpha


def check_jobs(jobs: int | None) -> int | None:
    """--jobs: at least 1 (None: all cores)."""
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (leave it out for all cores), got {jobs}")
    return jobs
