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
        tie_rate, end_reasons, card_value), game-specific `extras`, plain-text
        `verdicts` (most important first) and the manifest's `estimates`.

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
    Proportions get a Newcombe hybrid score interval, means a Welch t interval;
    `significant` means the 95% interval excludes 0. The runs are treated as
    independent samples.

    Raises:
        RunFolderError: either folder is not a readable run folder.
    """
    return _comparison.compare(run_a, run_b, band)
