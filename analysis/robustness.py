"""Robustness to bots: does a balance conclusion survive a change of bot strength or mix?

Each arm is the same game on the same seed with a different bot setting. Per arm and
player count, factions (or seats, in a symmetric game) get a win rate, a Wilson 95%
interval and a class against the fairness band: strong (interval above the band), weak
(below), fair (inside) or undecided. Between every two arms, Kendall's tau (tau-b,
scipy.stats.kendalltau) measures how much the ranking by win rate agrees. A conclusion
flips when a unit has a decided class under one bot and a different decided class under
another (strong under greedy but fair or weak under random, ...); undecided never counts.

Kendall's tau on k units has an exact two-sided p-value of at least 2 / k! (both orders
identical or reversed), 0.083 for 4 units: with fewer than 5 units it can never be
significant, and the verdict says so instead of reporting "not significant" as evidence.
A bootstrap of rank agreement or a faction x bot interaction test is not implemented.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np
import polars as pl
from scipy.stats import kendalltau

from analysis.metrics import fair_share
from analysis.runfolder import load_manifest
from analysis.stats import INSIDE, OUTSIDE, fairness_verdict
from analysis.sweep import players_table, unit_column, unit_rates

STRONG, WEAK, FAIR, UNDECIDED = "strong", "weak", "fair", "undecided"


@dataclass
class Robustness:
    kind: str                # 'faction' or 'seat'
    band: float
    rates: pl.DataFrame      # arm, n_players, unit, games, wins, rate, lo, hi, rank, verdict
    taus: pl.DataFrame       # n_players, arm_a, arm_b, units, tau, p_value, min_p
    flips: pl.DataFrame      # n_players, unit, arm_a, verdict_a, arm_b, verdict_b
    verdicts: list[str] = field(default_factory=list)
    manifests: list[dict] = field(default_factory=list)  # each arm's run.json, in arm order


def classify(rate_table: pl.DataFrame, band: float) -> pl.DataFrame:
    """Add rank (1 = highest rate within the player count) and verdict (strong, weak,
    fair, undecided) to a unit_rates table."""
    fair = fair_share(rate_table["n_players"].to_numpy())
    lo, hi = rate_table["lo"].to_numpy(), rate_table["hi"].to_numpy()
    side = fairness_verdict(lo, hi, fair, band)
    verdict = np.where(side == INSIDE, FAIR,
                       np.where(side == OUTSIDE, np.where(lo > fair, STRONG, WEAK), UNDECIDED))
    return rate_table.with_columns(verdict=pl.Series(verdict, dtype=pl.String)).with_columns(
        rank=pl.col("rate").rank("min", descending=True).over("n_players").cast(pl.Int64))


def taus(rates: pl.DataFrame, arms: list[str]) -> pl.DataFrame:
    """Kendall's tau-b between the rate rankings of every two arms, per player count,
    over the units both arms have."""
    rows = []
    for (n,), part in sorted(rates.group_by("n_players"), key=lambda x: x[0]):
        for a, b in combinations(arms, 2):
            joined = (part.filter(pl.col("arm") == a).select("unit", "rate")
                      .join(part.filter(pl.col("arm") == b).select("unit", "rate"), on="unit", suffix="_b"))
            if joined.height >= 2:
                res = kendalltau(joined["rate"].to_numpy(), joined["rate_b"].to_numpy())
                tau, p = float(res.statistic), float(res.pvalue)
            else:
                tau, p = np.nan, np.nan
            rows.append({"n_players": int(n), "arm_a": a, "arm_b": b, "units": joined.height,
                         "tau": tau, "p_value": p, "min_p": smallest_tau_p(joined.height)})
    return pl.DataFrame(rows, schema={"n_players": pl.Int64, "arm_a": pl.String, "arm_b": pl.String,
                                      "units": pl.Int64, "tau": pl.Float64, "p_value": pl.Float64,
                                      "min_p": pl.Float64})


def smallest_tau_p(units: int) -> float:
    """Smallest exact two-sided p-value Kendall's tau can reach on `units` untied units:
    2 / units! (only the identical and the reversed order are that extreme)."""
    return min(1.0, 2 / math.factorial(units)) if units >= 2 else float("nan")


def flips(rates: pl.DataFrame, arms: list[str]) -> pl.DataFrame:
    """Every (unit, pair of arms) where both verdicts are decided and they differ."""
    decided = rates.filter(pl.col("verdict") != UNDECIDED).select("arm", "n_players", "unit", "verdict")
    order = {a: i for i, a in enumerate(arms)}
    pairs = (decided.join(decided, on=["n_players", "unit"], suffix="_b")
             .filter(pl.col("verdict") != pl.col("verdict_b"))
             .filter(pl.col("arm").replace_strict(order, return_dtype=pl.Int64)
                     < pl.col("arm_b").replace_strict(order, return_dtype=pl.Int64)))
    return (pairs.select("n_players", "unit", arm_a="arm", verdict_a="verdict", arm_b="arm_b",
                         verdict_b="verdict_b")
            .sort("n_players", "unit", "arm_a", "arm_b"))


def run_robustness(arms: list[tuple[str, str]], band: float = 0.03) -> Robustness:
    """Analyse [(arm name, run folder), ...] that differ only in their bots."""
    tables = []
    kind = "seat"
    for name, run_dir in arms:
        players = players_table(run_dir)
        kind = unit_column(players)
        tables.append(classify(unit_rates(players, kind), band).with_columns(arm=pl.lit(name)))
    rates = pl.concat(tables).select("arm", "n_players", "unit", "games", "wins", "rate", "lo", "hi",
                                     "rank", "verdict")
    names = [a for a, _ in arms]
    r = Robustness(kind, band, rates, taus(rates, names), flips(rates, names),
                   manifests=[load_manifest(Path(d)) for _, d in arms])
    r.verdicts = robustness_lines(r)
    return r


def robustness_lines(r: Robustness) -> list[str]:
    """The warning on flipped conclusions first, then rank agreement."""
    lines = []
    if r.flips.height:
        lines.append(f"Warning: {r.flips.height} conclusion(s) flip with the bot: "
                     + "; ".join(f"{x['unit']} at {x['n_players']}p is {x['verdict_a']} under "
                                 f"{x['arm_a']} but {x['verdict_b']} under {x['arm_b']}"
                                 for x in r.flips.to_dicts()) + ".")
    else:
        lines.append(f"No {r.kind} conclusion flips with the bot (no {r.kind} is decided one way "
                     "under one bot and another way under another).")
    for t in r.taus.to_dicts():
        if np.isnan(t["tau"]):
            continue
        agree = "agree" if t["tau"] > 0.5 else "partly agree" if t["tau"] > 0 else "disagree"
        if t["min_p"] >= 0.05:
            noise = (f"; with {t['units']} {r.kind}s tau cannot be significant at 5% whatever the "
                     f"data (smallest possible p = {t['min_p']:.3f}): read the flips and the "
                     "intervals instead")
        else:
            noise = ("" if t["p_value"] < 0.05 else
                     "; not significant: with few or nearly equal rates the order is mostly noise")
        lines.append(f"{t['n_players']}p, {t['arm_a']} vs {t['arm_b']}: {r.kind} rankings {agree} "
                     f"(Kendall tau {t['tau']:+.2f} over {t['units']} {r.kind}s, p = {t['p_value']:.2g}{noise}).")
    return lines
