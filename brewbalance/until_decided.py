"""`simulate --until-decided`: grow a run shard by shard until the sequential test of
`analysis.sequential` decides every faction (or seat) inside or outside the fairness band.

The run folder stays an ordinary, resumable run: each look adds one shard to the plan
(shard boundaries depend only on the shard size, so earlier shards never change),
`runner.execute` completes it and rewrites run.json for the games done so far. The
procedure's settings live in the plan under `until_decided`, so `--resume` carries on
with the same looks; its outcome is added to run.json when it stops. Because game i is a
pure function of (data, seed, i), the decision at every look is reproducible: on resume
the looks already passed are recomputed from the data, not trusted from memory.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.paired import load_units
from analysis.sequential import (
    BONFERRONI,
    DEFAULT_INDIFFERENCE,
    GSPRT,
    RULES,
    Plan,
    all_decided,
    look_tables,
    run_sequence,
    summary_lines,
)
from brewbalance.options import check_alpha, check_band
from sim.core import runfolder as rf
from sim.core import runner
from sim.core.errors import UsageError

DEFAULT_BATCH = 5_000  # games per look when --shard-size is left at the runner's default


def count_hypotheses(units: list[str], player_counts: list[int], options: dict) -> int:
    """Hypotheses tested: one per (player count, faction) when the game has factions (the
    pool or lineup of `options` if given), else one per (player count, seat)."""
    if len(units) == 1:  # symmetric ('none', or one shared faction such as 'standard')
        return sum(player_counts)
    chosen = options.get("lineup") or options.get("factions") or units
    return len(set(chosen)) * len(player_counts)


def settings(band: float, alpha: float, max_games: int, shard_size: int, hypotheses: int,
             rule: str = GSPRT, indifference: float = DEFAULT_INDIFFERENCE) -> dict:
    """Checked settings of the procedure, as stored in the plan."""
    check_band(band)
    check_alpha(alpha)
    if rule not in RULES:
        raise UsageError(f"--rule must be one of {', '.join(RULES)}, got {rule!r}")
    if rule == GSPRT and not 0 < indifference < band:
        raise UsageError(f"--indifference must be between 0 and --band ({band}), e.g. 0.005 = "
                         f"0.5 pp, got {indifference}")
    batch = DEFAULT_BATCH if shard_size == runner.DEFAULT_SHARD else shard_size
    if batch < 1:
        raise UsageError(f"--shard-size must be at least 1, got {batch}")
    if max_games < batch:
        raise UsageError(f"--max-games ({max_games:,}) must be at least one look of "
                         f"--shard-size games ({batch:,})")
    return {"band": band, "alpha": alpha, "max_games": max_games, "batch": batch,
            "hypotheses": hypotheses, "rule": rule, "indifference": indifference}


def seq_plan(plan: dict) -> Plan:
    s = plan["until_decided"]
    # Plans written before the GSPRT existed carry no rule: they ran (and resume) Bonferroni.
    return Plan(band=s["band"], alpha=s["alpha"], batch=s["batch"], max_games=s["max_games"],
                hypotheses=s["hypotheses"], rule=s.get("rule", BONFERRONI),
                indifference=s.get("indifference", DEFAULT_INDIFFERENCE))


def start_plan(plan: dict, seq: dict) -> dict:
    """The run plan of the first look: one batch of games."""
    plan = dict(plan, until_decided=dict(seq))
    return resized(plan, min(seq["batch"], seq["max_games"]))


def resized(plan: dict, n_games: int) -> dict:
    """The plan grown to n_games (shards appended; existing shards unchanged)."""
    return dict(plan, n_games=n_games, shards=runner.plan_shards(n_games, plan["until_decided"]["batch"]))


def evaluate(out: Path, p: Plan, n_games: int) -> tuple[pl.DataFrame, int]:
    """Replay the procedure over every look up to n_games; returns the decision table and
    the number of looks taken (it may have stopped before n_games on an earlier look)."""
    players = (load_units(out).players.select("game_id", "n_players", "seat", "faction", "win")
               .filter(pl.col("game_id") < n_games))
    return run_sequence(look_tables(players, p.batch), p)


def run(g, conf, plan: dict, out: Path, jobs: int | None, quiet: bool, say, check: bool = False) -> list[str]:
    """Add looks until decided or at the cap; returns the summary lines (also in run.json)."""
    p = seq_plan(plan)
    while True:
        runner.execute(g, conf, plan, out, jobs or runner.default_jobs(), quiet=quiet, check=check)
        decided, looks = evaluate(out, p, plan["n_games"])
        stopped = all_decided(decided)
        if stopped or plan["n_games"] >= p.max_games:
            break
        plan = resized(plan, min(plan["n_games"] + p.batch, p.max_games))
        say(f"look {looks}: {int((decided['verdict'] == 'undecided').sum())} undecided; "
            f"continuing to {plan['n_games']:,} games")
    lines = summary_lines(decided, p, plan["n_games"], stopped)
    outcome = {"decided": stopped, "games": plan["n_games"], "looks": looks, "summary": lines,
               "rule": p.rule,
               "verdicts": decided.select("n_players", "kind", "unit", "wins", "games", "rate",
                                          "lo", "hi", "verdict").to_dicts()}
    plan["until_decided"] = dict(plan["until_decided"], outcome=outcome)
    rf.atomic_write_text(out / rf.PLAN, runner._json(plan))
    rf.write_manifest(out, plan, rf.read_manifest(out)["shards"])
    return lines
