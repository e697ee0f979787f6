"""brewbalance analysis: statistics from a run folder.

Knows the run-folder format only (run.json plus games/, players/, events/ Parquet
parts), never a game's internals; game-specific extras live in `analysis.games`.
SQL lives in `analysis/sql/*.sql`, one query per file, run by DuckDB; results come
back as polars DataFrames with 95% intervals (Wilson for proportions).

Public API:

    analyze(run_dir, band=0.03) -> RunAnalysis
    compare(run_a, run_b, band=0.03) -> Comparison
"""

from __future__ import annotations

from pathlib import Path

from analysis import comparison as _comparison
from analysis import core as _core
from analysis.comparison import Comparison
from analysis.core import RunAnalysis
from analysis.runfolder import RunFolderError

__all__ = ["Comparison", "RunAnalysis", "RunFolderError", "analyze", "compare"]


def analyze(run_dir: str | Path, band: float = 0.03) -> RunAnalysis:
    """Analyse one run folder.

    Args:
        run_dir: the run folder (holding run.json and games/, players/, events/ parts).
        band: half-width of the fairness band around each fair share 1/n, as a
            proportion (0.03 = +/-3 percentage points).

    Returns:
        RunAnalysis with the manifest, the tables (seat_winrate, first_player, balance,
        faction_winrate, scores, score_hist, margins, margin_hist, game_length,
        tie_rate, end_reasons, card_value, planner, game_shape), game-specific
        `extras`, plain-text `verdicts` (most important first) and the manifest's
        `estimates`.

        Seat and faction tables also carry p_value (two-sided score test of the rate
        against 1/n), p_holm (Holm-adjusted across the table) and significant_holm.
        `planner` gives, per player count and deviation (1, 2, 3 pp), the games needed
        to detect it at 95% confidence and 80% power; `game_shape` is one row per player
        count with balance, first-player advantage, tie rate, mean length and margin.

        Ratings and card detail (analysis/factions.py, docs/ratings.md): `strength`
        (winner-model and finishing-order strengths of factions and seats, column `model`,
        with robust Wald intervals, Holm flags, `estimable` and the fit check, on the first
        `strength_games` games), `faction_seat`, `copresence` (the
        head-to-head matrix, long form), `convergence` (cumulative win rates with bands),
        `card_adjusted` (Mantel-Haenszel difference within player count x faction),
        `card_by_round`, `card_unused` (empty where the game does not log both acquiring
        and using a card) and `card_basis` ('acquired' or 'played'). The card table also
        carries p_value, p_holm and significant_holm.

        A seat or faction is 'outside' when its 95% interval lies entirely outside
        [fair - band, fair + band], 'inside' when entirely within, else 'undecided'
        (`more_games` then gives a rough number of extra games that would decide it).

    Raises:
        RunFolderError: no run.json, or no games/ or players/ parts.
    """
    return _core.analyze(run_dir, band)


def compare(run_a: str | Path, run_b: str | Path, band: float = 0.03) -> Comparison:
    """Compare two run folders, metric by metric (difference = B - A).

    Covers seat win rates, first-player advantage, faction win rates (when both runs
    have factions), tie rate, mean score, mean game length (rounds, decisions) and the
    mean of every numeric game-specific column both runs have, all by player count.
    When both manifests have the same seed and the same player_counts list, game i
    of A and game i of B share their deals and dice: the games present in both are
    compared game by game (paired t interval of the mean difference, with the
    `variance_reduction` pairing buys; player-level means are averaged per game
    first). Otherwise the runs are independent: proportions get a Newcombe hybrid
    score interval, means a Welch t interval. `significant` means the 95% interval
    excludes 0; seat and faction win-rate rows are also Holm-adjusted as one family
    (p_holm, significant_holm). `Comparison.paired` / `n_paired` say which was used.

    Raises:
        RunFolderError: either folder is not a readable run folder.
    """
    return _comparison.compare(run_a, run_b, band)
