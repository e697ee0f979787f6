"""Per-game speed profile: where a game's time goes, from compile to Parquet.

For each game, at 4 players (Dwarfest, Brewin' USA, Homebrewers, Dragon Brew; `--game` picks):

1. compile: `brewbalance simulate GAME --games 1000 --players 4 --policy greedy` into a fresh
   numba cache, then again warm; compile = cold - warm (the game's own cache folder and
   sim/core's: nothing of the other games is compiled);
2. kernel-only, random and greedy bots: `GAME.simulate` in-process on all cores (pieces of
   at most a shard on a thread pool, small enough that no thread idles at the end) with the
   table building stubbed out, so the figure is rules + bots + the kernel's own buffers; the
   greedy rate is that of step 3's kernel-only segments;
3. end to end: `brewbalance simulate` (Parquet written, run.json, all cores, default shards),
   games/s net of the fixed start-up (a 1,000-game run subtracted), and peak RSS; then its
   ratio to kernel-only, measured in one process that alternates PAIRS kernel-only segments
   with PAIRS end-to-end segments of a quarter of the games each (the CLI's `simulate` called
   in-process, timed from the plan to the manifest: `runner.execute`), in the order ABBA...:
   the ratio of the summed times, with a 95% interval from the pairs' ratios. The machine's
   speed drifts by more within minutes than the writer costs (separate runs of the same tree
   read 77-101%); segments of a few seconds, alternated, see the same drift on both sides.
   The defaults are whole multiples of 2 shards, so the ratio measures the writing, not an
   idle thread on a last short shard;
4. the split of step 3's work (thread-seconds of an in-process run of the same command): the
   compiled kernel (`run_chunk`), table building (`tables`: the games and players rows copied
   into typed columns; `chunk_tables`: the event and rounds tables as views of a kernel call's
   pooled buffers), Parquet writing (`write_shard`);
5. `brewbalance report` on step 3's run (HTML, PDF and JSON): wall time and peak RSS, and the
   time to verdict (step 3's wall + the report's);
6. what bounds the game, in one core's microseconds per game against what the goal allows:
   the rules with random bots (step 2), what the greedy bot adds per decision it makes (the
   games table's `decisions` of step 3's run), the writer per row written (step 4's
   thread-seconds over the rows of step 3's tables) and the table building.

Every figure is printed with its command; ratios are taken between measurements of the same
run on the same machine, so the load of a shared machine moves them less than the raw
games/s. Usage:

    python bench/profile.py [--game ID ...] [--scale X] [--cache DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
# this tree's packages, not whatever `pip install -e` points at: a before/after comparison runs
# this script from two checkouts with one .venv
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
from bench import n_cores, out, run_cli  # noqa: E402  (bench.py's command runner and printer)

# games per measurement at --scale 1: about 5-15 s of kernel time each on 2 cores (a shorter
# run's ratio moves with the start-up it is net of and the machine's minute-to-minute speed).
# Step 3's segments are a quarter of it: two shards or more but for Dragon Brew (whose writing
# is 1% of its work), so that its two threads write at once at a segment's end, as in a large
# run (a one-shard run's last write is one thread's: Homebrewers, 25,000 games, 4% of it).
PAIRS = 20  # alternated kernel-only and end-to-end segments per game (step 3's ratio)
GAMES = {"dwarfest": 800_000, "brewin_usa": 200_000, "homebrewers": 200_000, "dragon_brew": 50_000}
SHARD = 25_000  # the local engine's default shard size
GOALS = {"dwarfest": 150_000, "brewin_usa": 50_000, "homebrewers": 50_000, "dragon_brew": 15_000}

# The in-process end-to-end run (step 4): the CLI's main() with timers around the three parts
# (the kernel's own calls, not the Python loop around them).
SPLIT_WRAPPER = r"""
import json, sys, threading, time
from brewbalance.cli import main
import sim.core.game as core_game
import sim.core.runfolder as rf
import sim.core.runner as runner
from sim.registry import get_game

spent = {"kernel": 0.0, "tables": 0.0, "write": 0.0}
lock = threading.Lock()

def timed(part, fn):
    def call(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            with lock:
                spent[part] += time.perf_counter() - t0
    return call

game = get_game(sys.argv[2])
game.tables = timed("tables", game.tables)
game.chunk_tables = timed("tables", game.chunk_tables)
game.run_chunk = timed("kernel", game.run_chunk)
if game.run_chunk_without_search is not None:  # what a greedy run plays on (GameBase.kernel_for)
    game.run_chunk_without_search = timed("kernel", game.run_chunk_without_search)
rf.write_shard = timed("write", rf.write_shard)
runner.rf.write_shard = rf.write_shard
sys.argv = ["brewbalance", *sys.argv[1:]]
try:
    main()
finally:
    print(json.dumps(spent), file=sys.stderr)
"""


def kernel_only(game_id: str, policy: str, n_games: int, jobs: int) -> float:
    """Games/s of GAME.simulate on `jobs` threads with the table building stubbed out."""
    from sim.core.config import prepare
    from sim.core.frames import POOL, Columns
    from sim.registry import get_game

    game = get_game(game_id)
    config = game.build(prepare(game_id, "base", [], []))
    real_tables, real_chunk_tables = game.tables, game.chunk_tables
    empty = Columns({"game_id": pl.Int64}, {"game_id": []})
    game.tables = lambda *args, **kwargs: {}
    def no_chunk_tables(labels, events, rounds, blocks, first, k):  # the kernel's buffers go back to the pool
        POOL.give(blocks)
        return empty, empty

    game.chunk_tables = no_chunk_tables
    try:
        game.simulate(config, 1, 0, 500, [4], [policy])  # load the compiled code, touch buffers
        piece = max(1, min(SHARD, n_games // (4 * jobs)))  # small enough that no thread idles at the end
        start = time.perf_counter()
        with ThreadPoolExecutor(jobs) as pool:
            list(pool.map(lambda first: game.simulate(config, 1, first, min(piece, n_games - first), [4], [policy]),
                          range(0, n_games, piece)))
        return n_games / (time.perf_counter() - start)
    finally:
        game.tables, game.chunk_tables = real_tables, real_chunk_tables


def interleaved(game_id: str, n_games: int, pairs: int, jobs: int, folder: Path) -> dict[str, list[float]]:
    """Seconds of `pairs` kernel-only segments (kernel_only) and `pairs` end-to-end segments
    (the CLI's simulate in-process, timed around runner.execute), n_games each, alternated
    ABBA... after one of each to warm up."""
    from brewbalance.cli import main as cli_main
    from sim.core import runner

    spent = []
    real_execute = runner.execute

    def timed_execute(*args, **kwargs):
        start = time.perf_counter()
        try:
            return real_execute(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    def end_to_end() -> float:
        run = folder / "run"
        shutil.rmtree(run, ignore_errors=True)
        sys.argv = ["brewbalance", *simulate_args(game_id, n_games, jobs, run)]
        try:
            cli_main()
        except SystemExit as stop:
            if stop.code:
                raise
        return spent[-1]

    def kernel() -> float:
        return n_games / kernel_only(game_id, "greedy", n_games, jobs)

    runner.execute = timed_execute
    kernel(), end_to_end()  # warm: compiled code loaded, the pool's blocks and the page cache in use
    times = {"kernel": [], "e2e": []}
    for i in range(pairs):
        for part in (("kernel", "e2e") if i % 2 == 0 else ("e2e", "kernel")):
            times[part].append(kernel() if part == "kernel" else end_to_end())
    shutil.rmtree(folder / "run", ignore_errors=True)
    return times


def ratio_with_interval(times: dict[str, list[float]]) -> tuple[float, float, float]:
    """End to end / kernel-only as the ratio of the summed times, and a 95% interval for it
    from the pairs' ratios (Student's t over the pairs: the pairs are the independent units)."""
    from scipy import stats

    pairs = [k / e for k, e in zip(times["kernel"], times["e2e"], strict=True)]
    half = stats.t.ppf(0.975, len(pairs) - 1) * stats.tstd(pairs) / len(pairs) ** 0.5
    ratio = sum(times["kernel"]) / sum(times["e2e"])
    return ratio, ratio - half, ratio + half


def interleaved_in_child(game_id: str, n_games: int, pairs: int, jobs: int, cache: Path, folder: Path) -> dict:
    env = {**os.environ, "BREWBALANCE_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, __file__, "--interleaved", game_id, str(n_games), str(pairs), str(jobs),
                           str(folder)], cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"profile: the interleaved runs failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def kernel_only_in_child(game_id: str, policy: str, n_games: int, jobs: int, cache: Path) -> float:
    """kernel_only in a fresh interpreter whose numba cache is the game's (sim reads the
    cache folder when it is imported, so one process cannot bench two caches)."""
    env = {**os.environ, "BREWBALANCE_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, __file__, "--kernel-only", game_id, policy, str(n_games), str(jobs)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"profile: kernel-only run failed:\n{proc.stderr}")
    return float(proc.stdout.strip().splitlines()[-1])


def simulate_args(game_id: str, n_games: int, jobs: int, run: Path) -> list[str]:
    return ["simulate", game_id, "--players", "4", "--policy", "greedy", "--games", str(n_games),
            "--jobs", str(jobs), "--out", str(run), "--quiet", "--force"]


def split_of_work(game_id: str, n_games: int, jobs: int, run: Path, cache: Path) -> dict[str, float]:
    """Thread-seconds in the kernel, the table building and the Parquet writer during one
    in-process `simulate` (bench/profile.py SPLIT_WRAPPER)."""
    env = {**os.environ, "BREWBALANCE_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-c", SPLIT_WRAPPER, *simulate_args(game_id, n_games, jobs, run)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"profile: the timed simulate failed:\n{proc.stderr}")
    return json.loads(proc.stderr.strip().splitlines()[-1])


def profile(game_id: str, scale: float, tmp: Path, warm_cache: Path | None = None) -> dict:
    jobs = n_cores()
    n = max(SHARD, int(GAMES[game_id] * scale))
    cache = warm_cache or tmp / f"cache_{game_id}"
    out(f"\n== {game_id}: 4 players, {jobs} cores, {n:,} games per measurement, "
        f"load average {os.getloadavg()[0]:.2f}")
    small = simulate_args(game_id, 1000, jobs, tmp / "run_1k")
    cold, _, cmd = run_cli(small, cache)
    warm, _, _ = run_cli(small, cache)
    if warm_cache:
        out(f"1. compile: not measured (--cache {warm_cache}: a warm start takes {warm:.1f} s)")
    else:
        out(f"1. compile: {cold - warm:6.1f} s  (cold {cold:.1f} s - warm {warm:.1f} s)   {cmd}")

    rates = {"random": kernel_only_in_child(game_id, "random", n, jobs, cache)}
    wall, rss, cmd = run_cli(simulate_args(game_id, n, jobs, tmp / "run"), cache, measure_rss=True)
    e2e = (n - 1000) / max(wall - warm, 1e-9)
    segment = n // 4
    times = interleaved_in_child(game_id, segment, PAIRS, jobs, cache, tmp / "interleaved")
    rates["greedy"] = segment * PAIRS / sum(times["kernel"])
    ratio, low, high = ratio_with_interval(times)
    for policy in ("random", "greedy"):
        out(f"2. kernel-only, {policy:6s} bots: {rates[policy]:>10,.0f} games/s   "
            f"(bench/profile.py kernel_only: {game_id}.simulate on {jobs} threads, tables stubbed"
            + ("; step 3's kernel-only segments)" if policy == "greedy" else ")"))
    out(f"3. end to end, greedy bots: {e2e:>10,.0f} games/s (wall {wall:.1f} s - start-up run {warm:.1f} s), "
        f"peak RSS {rss / 2**20:,.0f} MiB   {cmd}")
    out(f"   end to end / kernel-only: {ratio:.1%} (95% interval {low:.1%} to {high:.1%}), {PAIRS} kernel-only and "
        f"{PAIRS} end-to-end segments of {segment:,} games alternated in one process (bench/profile.py "
        f"interleaved); each pair: " + ", ".join(f"{k / e:.0%}" for k, e in zip(times["kernel"], times["e2e"], strict=True)))

    spent = split_of_work(game_id, n, jobs, tmp / "run_split", cache)
    total = sum(spent.values())
    shares = {part: s / total for part, s in spent.items()}
    out("4. split of the end-to-end work: " + ", ".join(f"{p} {s:.0%}" for p, s in shares.items())
        + f"  ({total:.1f} thread-s; bench/profile.py SPLIT_WRAPPER around the same simulate)")
    report, report_rss, cmd = run_cli(["report", str(tmp / "run"), "--format", "all", "--out", str(tmp / "report")],
                                      cache, measure_rss=True)
    out(f"5. report on step 3's run (DuckDB + HTML + PDF + JSON): {report:.1f} s wall, peak RSS "
        f"{report_rss / 2**20:,.0f} MiB; time to verdict {wall + report:.1f} s for {n:,} games   {cmd}")
    budget = bounds(game_id, tmp / "run", n, jobs, rates, spent)
    out(f"6. what bounds it, in thread-microseconds per game (one core's time; the goal of "
        f"{GOALS[game_id]:,} games/s on {jobs} cores allows {budget['goal_us']:.1f}): rules + random bots "
        f"{budget['random_us']:.1f}; the greedy bot's extra {budget['bot_us']:.1f} = "
        f"{budget['decisions']:.0f} decisions x {budget['per_decision_us']:.2f} us; writing "
        f"{budget['write_us']:.1f} = {budget['rows']:.0f} rows x {budget['per_row_ns']:.0f} ns; "
        f"tables {budget['tables_us']:.1f}   (step 2's rates, step 4's thread-seconds, step 3's tables)")
    shutil.rmtree(tmp / "run", ignore_errors=True)
    shutil.rmtree(tmp / "run_split", ignore_errors=True)
    return {"game": game_id, "compile": None if warm_cache else cold - warm, "random": rates["random"], "greedy": rates["greedy"],
            "e2e": e2e, "ratio": ratio, "ratio_low": low, "ratio_high": high, "rss": rss, "report": report, **budget,
            **{f"share_{p}": s for p, s in shares.items()}}


def bounds(game_id: str, run: Path, n_games: int, jobs: int, rates: dict, spent: dict) -> dict:
    """Where a game's thread-time goes against the time the goal allows (issue 16, item 5): the
    rules with random bots, what the greedy bot adds per decision it makes (the games table's
    `decisions`), and the writer per row written. All per game, in one core's microseconds:
    N games/s on `jobs` cores is jobs / N seconds of one core a game."""
    tables = {t: pl.scan_parquet(run / t / "*.parquet") for t in ("games", "players", "events", "rounds")
              if any((run / t).glob("*.parquet"))}
    rows = sum(lf.select(pl.len()).collect().item() for lf in tables.values()) / n_games
    decisions = tables["games"].select(pl.col("decisions").mean()).collect().item()
    per_game = {policy: jobs / rate * 1e6 for policy, rate in rates.items()}
    bot = per_game["greedy"] - per_game["random"]
    write = spent["write"] / n_games * 1e6
    return {"goal_us": jobs / GOALS[game_id] * 1e6, "random_us": per_game["random"], "bot_us": bot,
            "decisions": decisions, "per_decision_us": bot / max(decisions, 1), "rows": rows,
            "write_us": write, "per_row_ns": write / max(rows, 1) * 1e3, "tables_us": spent["tables"] / n_games * 1e6}


def table(rows: list[dict]) -> None:
    out("\nSummary (4 players; games/s on all cores; goal = the greedy end-to-end goal of issue 16)")
    out(f"  {'game':12s} {'compile':>8s} {'kernel random':>14s} {'kernel greedy':>14s} {'end to end':>11s} "
        f"{'e2e/kernel (95%)':>16s} {'write':>6s} {'tables':>6s} {'peak RSS':>9s} {'report':>7s} {'goal':>8s}")
    for r in rows:
        compiled = "-" if r["compile"] is None else f"{r['compile']:.1f}s"  # None: --cache
        out(f"  {r['game']:12s} {compiled:>8s} {r['random']:>14,.0f} {r['greedy']:>14,.0f} {r['e2e']:>11,.0f} "
            f"{r['ratio']:>5.0%} ({r['ratio_low']:.0%}-{r['ratio_high']:.0%}) {r['share_write']:>6.0%} {r['share_tables']:>6.0%} {r['rss'] / 2**20:>6,.0f}MiB "
            f"{r['report']:>6.1f}s {GOALS[r['game']]:>8,}")
    out("\nWhat bounds each game (one core's microseconds per game; step 6)")
    out(f"  {'game':12s} {'goal allows':>11s} {'rules+random':>12s} {'greedy bot':>10s} {'decisions':>9s} "
        f"{'us/decision':>11s} {'write':>7s} {'rows':>6s} {'ns/row':>6s} {'tables':>7s}")
    for r in rows:
        out(f"  {r['game']:12s} {r['goal_us']:>11.1f} {r['random_us']:>12.1f} {r['bot_us']:>10.1f} "
            f"{r['decisions']:>9.0f} {r['per_decision_us']:>11.2f} {r['write_us']:>7.1f} {r['rows']:>6.0f} "
            f"{r['per_row_ns']:>6.0f} {r['tables_us']:>7.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", action="append", choices=sorted(GAMES), help="profile only this game (repeatable)")
    ap.add_argument("--scale", type=float, default=1.0, help="games per measurement, times the default")
    ap.add_argument("--cache", type=Path, help="use this (warm) numba cache instead of a fresh one; no compile figure")
    ap.add_argument("--kernel-only", nargs=4, metavar=("GAME", "POLICY", "GAMES", "JOBS"), help=argparse.SUPPRESS)
    ap.add_argument("--interleaved", nargs=5, metavar=("GAME", "GAMES", "PAIRS", "JOBS", "FOLDER"), help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.interleaved:  # the child of interleaved_in_child
        game_id, n_games, pairs, jobs, folder = opts.interleaved
        print(json.dumps(interleaved(game_id, int(n_games), int(pairs), int(jobs), Path(folder))))
        return
    if opts.kernel_only:  # the child of kernel_only_in_child
        game_id, policy, n_games, jobs = opts.kernel_only
        print(kernel_only(game_id, policy, int(n_games), int(jobs)))
        return
    tmp = Path(tempfile.mkdtemp(prefix="brewprofile_"))
    try:
        out(f"brewbalance speed profile; python {sys.version.split()[0]}; PY = {sys.executable}")
        rows = [profile(g, opts.scale, tmp, opts.cache) for g in (opts.game or list(GAMES))]
        table(rows)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
