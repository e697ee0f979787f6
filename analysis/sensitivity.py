"""Estimate sensitivity: which estimated numbers each verdict rests on.

Every estimate is run at its low and its high value (sim/core/estimates.py), each arm an
ordinary run on the same seed as the untreated arm, so game i of every arm deals the same
cards (common random numbers). A verdict is one faction's win rate, one seat's win rate or
the first-player advantage, at one player count. The effect of an estimate on a verdict is
(high arm) - (low arm), paired game by game with game-clustered intervals
(analysis.paired: a faction's per-seat win rate as a paired ratio, a seat's win as a
paired t over games). Within each verdict the estimates are ranked by |effect|.

Label of a verdict: "rests on: a, b, c" lists the estimates whose effect is significant
after Holm across the estimates of that verdict (family-wise 5%) AND at least half the
fairness band in size (a real move of a verdict judged against that band); without any,
the verdict is "robust to the estimates".

Grouped screening (many estimates): the members of one group (a data file) move low or high
together; a group passes the screen when any verdict moves by p < SCREEN_P unadjusted or
by at least half the band, and then each of its members is run one at a time. Effects of
opposite sign inside a group can cancel, so a group that fails the screen can still hide
an influential member; the report says which groups were screened out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from analysis.metrics import FIRST_SEAT, holm_family, significant
from analysis.paired import Units, faction_ratio_stats, faction_rows, paired_stats, seat_rows

ROBUST = "robust to the estimates"
RESTS_ON = "rests on: "
SCREEN_P = 0.05  # a group passes the screen below this unadjusted p (or at half the band)
SHOWN_PER_VERDICT = 5
VERDICT_KEYS = ["kind", "n_players", "unit"]
KINDS = ("faction win rate", "seat win rate", "first-player advantage")


def verdict_effects(low: Units, high: Units) -> pl.DataFrame:
    """(high - low) of every verdict: kind, n_players, unit, n, diff, lo, hi, p_value."""
    frames = []
    factions = set(low.players["faction"].unique().to_list())
    if factions - {"none"}:
        f = faction_ratio_stats(faction_rows(low.players), faction_rows(high.players))
        frames.append(f.select(pl.lit(KINDS[0]).alias("kind"), "n_players",
                               pl.col("faction").alias("unit"), "n", "diff", "lo", "hi", "p_value"))
    s = paired_stats(seat_rows(low.players), seat_rows(high.players), ["game_id", "n_players", "seat"],
                     ["n_players", "seat"], "win")
    seats = s.select(pl.lit(KINDS[1]).alias("kind"), "n_players", pl.col("seat").cast(pl.String).alias("unit"),
                     pl.col("n").cast(pl.Int64), "diff", "lo", "hi", "p_value")
    first = seats.filter(pl.col("unit") == str(FIRST_SEAT)).with_columns(
        kind=pl.lit(KINDS[2]), unit=pl.lit("first player"))
    return pl.concat([*frames, seats, first], how="vertical_relaxed")


def rank_effects(effects: dict[str, pl.DataFrame], band: float) -> pl.DataFrame:
    """All estimates' effects in one table, with Holm across the estimates of each verdict,
    the `influential` flag (significant after Holm and |diff| >= band/2) and the rank of
    the estimate within its verdict (1 = largest |effect|)."""
    rows = pl.concat([e.with_columns(estimate=pl.lit(name)) for name, e in effects.items()],
                     how="vertical_relaxed")
    out = []
    for _, g in rows.group_by(VERDICT_KEYS, maintain_order=True):
        p_adj = holm_family(g["p_value"].to_numpy())
        g = g.with_columns(p_holm=pl.Series(p_adj, dtype=pl.Float64), size=pl.col("diff").abs())
        g = g.with_columns(influential=pl.Series(significant(p_adj), dtype=pl.Boolean)
                           & (pl.col("size") >= band / 2))
        out.append(g.sort("size", descending=True, nulls_last=True).with_row_index("rank", offset=1))
    return pl.concat(out).sort("kind", "n_players", "unit", "rank")


def labels(ranked: pl.DataFrame) -> pl.DataFrame:
    """One row per verdict: its label and its top estimates (the tornado's rows)."""
    rows = []
    for key, g in ranked.group_by(VERDICT_KEYS, maintain_order=True):
        rests = g.filter(pl.col("influential"))["estimate"].to_list()
        rows.append({"kind": key[0], "n_players": key[1], "unit": key[2],
                     "label": RESTS_ON + ", ".join(rests) if rests else ROBUST,
                     "rests_on": rests, "top": g["estimate"].head(SHOWN_PER_VERDICT).to_list()})
    schema = {"kind": pl.String, "n_players": pl.Int64, "unit": pl.String, "label": pl.String,
              "rests_on": pl.List(pl.String), "top": pl.List(pl.String)}
    return pl.DataFrame(rows, schema=schema).sort("kind", "n_players", "unit")


def influence(ranked: pl.DataFrame) -> pl.DataFrame:
    """Overall ranking of the estimates: the largest |effect| over every verdict, how many
    verdicts rest on it, and its mean rank."""
    return (ranked.group_by("estimate")
            .agg(max_effect=pl.col("size").max(), verdicts_resting=pl.col("influential").sum(),
                 mean_rank=pl.col("rank").mean())
            .sort(["verdicts_resting", "max_effect"], descending=True, nulls_last=True)
            .with_row_index("rank", offset=1))


def screen(group_effects: dict[str, pl.DataFrame], band: float) -> list[str]:
    """The groups whose joint move shifts some verdict (p < SCREEN_P or |diff| >= band/2)."""
    passed = []
    for name, e in group_effects.items():
        p = e["p_value"].to_numpy().astype(float)
        size = np.abs(e["diff"].to_numpy().astype(float))
        if np.any(np.nan_to_num(p, nan=1.0) < SCREEN_P) or np.any(np.nan_to_num(size) >= band / 2):
            passed.append(name)
    return passed


@dataclass
class Sensitivity:
    """A sensitivity run: settings, the estimates and every verdict's ranking and label."""

    game: str
    variant: str
    band: float
    screen: str                         # "oat" or "grouped"
    n_games: int
    estimates: list[dict]               # id, group, paths, base/low/high in words, why, range_source
    ranked: pl.DataFrame                # one row per (verdict, estimate)
    labels: pl.DataFrame                # one row per verdict
    influence: pl.DataFrame             # one row per estimate
    screened_out: list[str] = field(default_factory=list)  # groups whose members were not run alone
    skipped: list[str] = field(default_factory=list)       # estimates left out, with why
    verdicts: list[str] = field(default_factory=list)      # the summary lines

    def label_of(self, kind: str, n_players: int, unit: str) -> str | None:
        hit = self.labels.filter((pl.col("kind") == kind) & (pl.col("n_players") == n_players)
                                 & (pl.col("unit") == str(unit)))
        return hit["label"][0] if hit.height else None


def analyse(game: str, variant: str, band: float, screen_mode: str, n_games: int, estimates: list[dict],
            effects: dict[str, pl.DataFrame], screened_out: list[str], skipped: list[str]) -> Sensitivity:
    """Rank, label and summarise the effects of the estimates run one at a time (and of the
    groups screened out, which stand in for their members)."""
    ranked = rank_effects(effects, band)
    lab = labels(ranked)
    inf = influence(ranked)
    lines = [f"{r['kind']}, {r['n_players']}p, {r['unit']}: {r['label']}" for r in lab.to_dicts()]
    return Sensitivity(game, variant, band, screen_mode, n_games, estimates, ranked, lab, inf,
                       screened_out, skipped, lines)


def read_marker(folder) -> dict:
    """OUT/sensitivity.json of a sensitivity run; BrewError if it is not one."""
    from analysis.runfolder import read_marker as read

    return read(folder, "sensitivity.json", "sensitivity", lambda d: d.get("kind") == "brewbalance sensitivity")


def attach_labels(result, marker: dict):
    """A RunAnalysis with each seat and faction verdict's label (column estimates_label) and the
    estimates' influence ranking; UsageError if the sensitivity run is of another game or variant."""
    from sim.core.errors import UsageError

    manifest = result.manifest
    for key in ("game", "variant"):
        if marker.get(key) != manifest.get(key):
            raise UsageError(f"--sensitivity: that run is of {key} {marker.get(key)!r}, this run of "
                             f"{manifest.get(key)!r}; give a sensitivity run of the same game and variant")
    lab = {(r["kind"], r["n_players"], str(r["unit"])): r["label"] for r in marker["labels"]}

    def labelled(table: pl.DataFrame, kind: str, unit: str) -> pl.DataFrame:
        if table.is_empty():
            return table
        keys = zip(table["n_players"].to_list(), table[unit].cast(pl.String).to_list(), strict=True)
        return table.with_columns(estimates_label=pl.Series(
            [lab.get((kind, n, u), "not in the sensitivity run") for n, u in keys], dtype=pl.String))

    result.seat_winrate = labelled(result.seat_winrate, KINDS[1], "seat")
    result.faction_winrate = labelled(result.faction_winrate, KINDS[0], "faction")
    result.estimate_influence = marker.get("influence", [])
    return result
