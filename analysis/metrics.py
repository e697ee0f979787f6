"""The balance metrics several analyses share, each defined once here.

- fair share: 1/n, a seat's (or a faction seat's) share of the wins in a fair n-player game;
- first-player advantage: the win rate of seat 0 (first in turn order) minus its fair share;
- win share: a player's share of its game's win, 1/k for each of k players tied first, so
  the shares of every game sum to 1 (the `win` column the simulator writes);
- the Holm family adjustment: Holm's step-down p-values over the rows of one family, and
  the significance flag at ALPHA.

`analyze` (core), `compare` (comparison), `sweep`, `sequential`, `robustness`, the ratings
and the card tables call these instead of repeating them. The SQL counts wins per seat
(seat_winrate.sql) and no query computes the first-player advantage, so the Python here
is its one definition; the faction queries sum 1/n per seat as expected wins, the same
fair share summed where the rows are.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.stats import holm

ALPHA = 0.05  # family-wise error rate of every Holm family and significance flag
FIRST_SEAT = 0  # seat 0 moves first


def fair_share(n_players):
    """1 / n_players (array or scalar): the win rate of a seat in a fair game."""
    return 1.0 / np.asarray(n_players)


def first_seat(table: pl.DataFrame) -> pl.DataFrame:
    """The first player's rows (seat 0) of a table with a `seat` column, order kept."""
    return table.filter(pl.col("seat") == FIRST_SEAT)


def first_player_advantage(rate, n_players):
    """The first player's win rate minus the fair share 1/n: above 0 when moving first
    helps. Also shifts an interval bound of that rate onto the advantage scale."""
    return rate - fair_share(n_players)


def win_share(rank: np.ndarray, seated: np.ndarray) -> np.ndarray:
    """Each player's share of its game's win, from games x seats arrays of finishing ranks
    (lower is better) and `seated` (False for an empty seat of a smaller table): 1/k for
    each of the k players on the best rank, else 0, so each game's shares sum to 1."""
    best = np.where(seated, rank, np.iinfo(np.int64).max).min(axis=1, keepdims=True)
    won = seated & (rank == best)
    return won / won.sum(axis=1, keepdims=True)


def holm_family(p_values, members=None) -> np.ndarray:
    """Holm-adjusted p-values of one family: the rows where `members` is True (default:
    every row) and a p-value exists. Rows outside the family, or without a test (NaN p),
    get NaN and do not count towards its size."""
    p = np.asarray(p_values, dtype=float)
    return holm(p if members is None else np.where(members, p, np.nan))


def significant(p_adjusted, alpha: float = ALPHA) -> np.ndarray:
    """True where an adjusted p-value rejects at the family-wise level alpha (NaN: False)."""
    return np.asarray(p_adjusted, dtype=float) < alpha
