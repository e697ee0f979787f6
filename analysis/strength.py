"""Bot strength: a candidate bot (the search bot) against an opponent in rotated seats,
one arm per search budget, all arms on one seed.

Win share per seat. In a game of n players the candidate holds k_g seats and takes
w_g = the sum of their win shares (1/j each for a j-way tie). Its win share per seat is
R = sum_g w_g / sum_g k_g, so a bot exactly as strong as its opponent has R = 1/n, the fair
share, at any seat split; `ratio` = R / (1/n) = n R (1.2 = 20% more than fair). The 95%
interval is game-clustered: the seats of one game are not independent (at most one wins),
so the variance of R is linearised per game (analysis.stats.clustered_ratio_se) and the
Wilson interval taken at the matching effective size.

Where search stops improving. The arms share their seed, so game i deals the same cards
and seats the candidate in the same seats in every arm: budgets are compared game by game
(analysis.stats.paired_ratio_diff, the paired difference of two ratios). Per player count
the best budget is the one with the highest R; a budget is "not significantly below the
best" when the upper end of the paired 95% interval of R_budget - R_best reaches 0. The
smallest such budget is where search stops improving (unadjusted intervals, one per
budget: a screen, not a family-wise claim).

Speed: games/s is an arm's games over the wall time its simulation took in the command
(recorded by the command in timing.json); rollouts/s adds the players column
`search_rollouts` (rollouts each seat ran) over the same time, when the run has it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis.records import NOT_SIGNIFICANT, SIGNIFICANT, Verdict
from analysis.runfolder import connect, load_manifest, to_polars
from analysis.stats import clustered_ratio_se, paired_ratio_diff, wilson_clustered

ROLLOUTS = "search_rollouts"
GAME_KEYS = ["game_id", "n_players"]


@dataclass
class Strength:
    candidate: str
    opponent: str
    share: pl.DataFrame      # budget, n_players, games, seats, wins, share, lo, hi, fair, ratio,
                             # diff_best, diff_lo, diff_hi, not_below_best, seconds, games_per_s,
                             # rollouts, rollouts_per_s
    stops: pl.DataFrame      # n_players, best_budget, stop_budget
    verdicts: list[str] = field(default_factory=list)
    records: list[Verdict] = field(default_factory=list)
    manifests: list[dict] = field(default_factory=list)  # each arm's run.json, in budget order


def read_players(run_dir: str | Path) -> pl.DataFrame:
    """game_id, n_players, seat, policy, win, search_rollouts (0 when the run lacks it)."""
    con = connect(run_dir)
    try:
        has = ROLLOUTS in {r[0] for r in con.execute("DESCRIBE players").fetchall()}
        rollouts = f"p.{ROLLOUTS}" if has else f"0 AS {ROLLOUTS}"
        return to_polars(con.execute(
            f"SELECT p.game_id, g.n_players, p.seat, p.policy, CAST(p.win AS DOUBLE) AS win, {rollouts} "
            "FROM players p JOIN games g USING (game_id) ORDER BY p.game_id, p.seat"))
    finally:
        con.close()


def candidate_games(players: pl.DataFrame, candidate: str) -> pl.DataFrame:
    """One row per game: w = the candidate's win shares, k = its seats (games without a
    candidate seat are left out)."""
    return (players.with_columns(mine=pl.col("policy") == candidate)
            .group_by(GAME_KEYS)
            .agg(w=pl.col("win").filter(pl.col("mine")).sum(), k=pl.col("mine").sum().cast(pl.Float64),
                 rollouts=pl.col(ROLLOUTS).sum())
            .filter(pl.col("k") > 0)
            .sort(GAME_KEYS))


def win_share(per_game: pl.DataFrame, n_players: int) -> dict:
    """The candidate's win share per seat at one player count with its clustered interval."""
    w, k = per_game["w"].to_numpy(), per_game["k"].to_numpy()
    se = clustered_ratio_se(w.sum(), k.sum(), (w * w).sum(), (w * k).sum(), (k * k).sum(), len(w))
    lo, hi = wilson_clustered(w.sum(), k.sum(), se)
    share = float(w.sum() / k.sum()) if k.sum() else float("nan")
    return {"games": len(w), "seats": int(k.sum()), "wins": float(w.sum()), "share": share,
            "lo": float(lo), "hi": float(hi), "fair": 1 / n_players, "ratio": share * n_players}


def budget_rows(budget: int, per_game: pl.DataFrame, seconds: float | None) -> list[dict]:
    """The share rows of one arm, a row per player count, with its speed."""
    rows = []
    total_games = per_game.height
    for (n,), part in sorted(per_game.group_by("n_players"), key=lambda x: x[0]):
        row = {"budget": budget, "n_players": int(n), **win_share(part, int(n))}
        row["rollouts"] = int(part["rollouts"].sum())
        rows.append(row)
    arm_rollouts = int(per_game["rollouts"].sum())
    for row in rows:  # the arm's time covers all its player counts: speed is per arm
        fast = seconds is not None and seconds > 0
        row["seconds"] = seconds
        row["games_per_s"] = total_games / seconds if fast else None
        row["rollouts_per_s"] = arm_rollouts / seconds if fast and arm_rollouts else None
    return rows


def paired_to_best(games: dict[int, pl.DataFrame], best: int) -> dict[int, tuple[float, float, float]]:
    """Per budget: (R_budget - R_best, lo, hi), paired game by game over the games both have."""
    out = {}
    ref = games[best].select(*GAME_KEYS, "w", "k")
    for budget, g in games.items():
        joined = g.select(*GAME_KEYS, "w", "k").join(ref, on=GAME_KEYS, suffix="_best")
        _, _, d, lo, hi, _, _ = paired_ratio_diff(joined["w_best"], joined["k_best"], joined["w"], joined["k"])
        out[budget] = (0.0, 0.0, 0.0) if budget == best else (d, lo, hi)
    return out


def analyse(arms: list[tuple[int, pl.DataFrame]], candidate: str, opponent: str,
            seconds: dict[int, float] | None = None) -> Strength:
    """arms: [(budget, players table)] in budget order (one seed). seconds: wall time per budget."""
    seconds = seconds or {}
    per_arm = {b: candidate_games(p, candidate) for b, p in arms}
    rows = [r for b, g in per_arm.items() for r in budget_rows(b, g, seconds.get(b))]
    share = pl.DataFrame(rows).sort("n_players", "budget")
    extra, stops = [], []
    for (n,), part in sorted(share.group_by("n_players"), key=lambda x: x[0]):
        best = int(part.sort("share", "budget", descending=[True, False])["budget"][0])
        diffs = paired_to_best({b: g.filter(pl.col("n_players") == n) for b, g in per_arm.items()}, best)
        not_below = {b: bool(diffs[b][2] >= 0 or np.isnan(diffs[b][2])) for b in diffs}
        stop = min(b for b in diffs if not_below[b])
        stops.append({"n_players": int(n), "best_budget": best, "stop_budget": stop})
        extra += [{"n_players": int(n), "budget": b, "diff_best": d, "diff_lo": lo, "diff_hi": hi,
                   "not_below_best": not_below[b]} for b, (d, lo, hi) in diffs.items()]
    share = share.join(pl.DataFrame(extra), on=["n_players", "budget"]).sort("n_players", "budget")
    s = Strength(candidate, opponent, share, pl.DataFrame(stops))
    s.verdicts = strength_lines(s)
    s.records = strength_records(s)
    return s


def run_strength(arms: list[tuple[int, str]], candidate: str, opponent: str,
                 seconds: dict[int, float] | None = None) -> Strength:
    """Analyse the arm folders [(budget, run folder)] of a `strength` command."""
    s = analyse([(b, read_players(d)) for b, d in arms], candidate, opponent, seconds)
    s.manifests = [load_manifest(Path(d)) for _, d in arms]
    return s


def strength_lines(s: Strength) -> list[str]:
    """Per player count: the share at each budget against fair, then where search stops improving."""
    lines = []
    for stop in s.stops.to_dicts():
        n = stop["n_players"]
        part = s.share.filter(pl.col("n_players") == n).to_dicts()
        cells = ", ".join(f"{r['budget']}: {100 * r['share']:.1f}% ({100 * r['lo']:.1f}-{100 * r['hi']:.1f}%, "
                          f"{r['ratio']:.2f}x fair)" for r in part)
        lines.append(f"{n}p, {s.candidate} vs {s.opponent}, win share per seat by budget (fair "
                     f"{100 / n:.1f}%): {cells}.")
        lines.append(f"{n}p: search stops improving at budget {stop['stop_budget']} (the smallest budget "
                     f"not significantly below the best, {stop['best_budget']}, paired by game).")
    return lines


def strength_records(s: Strength) -> list[Verdict]:
    """One record per (player count, budget): the share against fair, significant when the
    interval excludes the fair share."""
    return [Verdict(kind="search_strength", unit=f"{s.candidate} budget {r['budget']} vs {s.opponent}",
                    n_players=r["n_players"], estimate=r["share"], ci_low=r["lo"], ci_high=r["hi"],
                    n=r["games"], n_unit="games",
                    verdict=SIGNIFICANT if not r["lo"] <= r["fair"] <= r["hi"] else NOT_SIGNIFICANT,
                    metric="win share per seat", note=f"{r['ratio']:.2f}x the fair share")
            for r in s.share.to_dicts()]
