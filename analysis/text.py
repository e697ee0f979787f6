"""Plain-text number formatting for verdict lines (reports have their own filters)."""

from __future__ import annotations

import math


def pct(x: float, digits: int = 1) -> str:
    """0.4123 -> '41.2%'."""
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.{digits}f}%"


def pp(x: float, digits: int = 1) -> str:
    """Signed percentage points: 0.031 -> '+3.1 pp'."""
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:+.{digits}f} pp"


def count(n: float) -> str:
    """12345 -> '12,345'."""
    return f"{int(n):,}"


def plural(n: float, word: str) -> str:
    """(1, 'game') -> '1 game'; (3, 'game') -> '3 games'."""
    return f"{count(n)} {word}{'' if int(n) == 1 else 's'}"


def seats(values) -> str:
    """[0, 2] -> 'seats 0 and 2'; [1] -> 'seat 1'."""
    values = [str(v) for v in values]
    if len(values) == 1:
        return f"seat {values[0]}"
    return "seats " + ", ".join(values[:-1]) + " and " + values[-1]
