"""The ladder's verdict-across-skill rules and its power-use reasons, on hand-made values."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.ladder import DEPENDS, HOLDS, NOT_DECIDED, check_rungs, mark_of, power_flags, status
from analysis.robustness import FAIR, STRONG, UNDECIDED, WEAK
from sim.core.errors import UsageError


@pytest.mark.parametrize("a, b, diff, lo, hi, top, expected", [
    (STRONG, FAIR, -0.05, -0.08, -0.02, 0.26, "flips"),
    (STRONG, STRONG, 0.04, 0.02, 0.06, 0.35, "strengthens"),
    (STRONG, STRONG, -0.04, -0.06, -0.02, 0.30, "weakens"),
    (WEAK, WEAK, 0.01, -0.01, 0.03, 0.20, "holds"),
    (UNDECIDED, STRONG, 0.01, -0.01, 0.03, 0.30, "undecided"),
])
def test_status(a, b, diff, lo, hi, top, expected):
    assert status(a, b, diff, lo, hi, top, 0.25) == expected


def test_marks():
    assert mark_of(STRONG, FAIR, "flips") == DEPENDS
    assert mark_of(STRONG, STRONG, "strengthens") == HOLDS
    assert mark_of(UNDECIDED, STRONG, "undecided") == NOT_DECIDED


def test_rungs_need_greedy_below_the_top():
    with pytest.raises(UsageError, match="must include greedy"):
        check_rungs(["random", "search:16"])
    with pytest.raises(UsageError, match="last rung is the top"):
        check_rungs(["random", "greedy"])


def test_power_flags_reason_from_the_random_rung():
    power = pl.DataFrame({"rung": ["random", "random", "search:64", "search:64"], "n_players": [4] * 4,
                          "faction": ["naga", "gnome"] * 2, "used_share": [0.1, 0.8, 0.2, 0.3]})
    flags = {r["faction"]: r["reason"] for r in power_flags(power, "search:64").to_dicts()}
    assert flags["naga"].startswith("rarely legal") and flags["gnome"].startswith("bot never values it")
