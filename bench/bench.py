"""brewbalance benchmark: Dwarfest, 4 players, greedy bots.

Measures, and prints with the exact command or code path behind every figure:

1. cold compile: `brewbalance simulate --games 1000` with a fresh numba cache, then warm;
2. kernel-only throughput: `sim.dwarfest.kernel.run_chunk` in-process, 1 and N threads;
3. end-to-end `brewbalance simulate` (Parquet included): games/s, share of kernel-only,
   Parquet bytes per game and peak memory (a 10x run with --full);
4. `brewbalance report` on that run;
5. (Dragon Brew's own figures: `--game dragon_brew`, steps 1, 3 and 4 with its targets.)
6. the Dask engine against local: the step-3 command with `--engine dask` (a LocalCluster of
   --jobs worker processes), wall and CPU seconds of the whole process tree, and the fixed
   start-up cost (the same pair on 1,000 games). With --full, step 3 also reports the 10x run's
   peak memory against the 1x run's and times `report` on the 10x run.

Usage: python bench/bench.py [--games N] [--quick] [--full] [--no-dask] [--game homebrewers]
With --game other than dwarfest, step 2 (kernel-only) is skipped and that game's targets apply.
Progress goes to stderr, results to stdout. See bench/README.md for the targets.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
GAME_ARGS = ["dwarfest", "--players", "4", "--policy", "greedy"]
GiB = 1 << 30
# per game: (cold compile s, end-to-end games/s on 2 cores)
TARGETS = {"dwarfest": (30, 500_000), "homebrewers": (60, 200_000), "dragon_brew": (60, 50_000)}

# Peak RSS of a command: GNU time if present, else a wrapper that runs the CLI in-process
# and prints its own ru_maxrss (KiB on Linux) as the last stderr line.
GNU_TIME = "/usr/bin/time"
RSS_WRAPPER = (
    "import resource, sys\n"
    "from brewbalance.cli import main\n"
    "sys.argv = ['brewbalance', *sys.argv[1:]]\n"
    "try:\n"
    "    main()\n"
    "finally:\n"
    "    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
)


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def out(msg: str = "") -> None:
    print(msg, flush=True)


def n_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def shown(cmd: list[str], cache: Path) -> str:
    """The command as a reader would type it (from the repo root)."""
    return f"BREWBALANCE_CACHE_DIR={cache} " + shlex.join(cmd)


def run_cli(args: list[str], cache: Path, measure_rss: bool = False, tree: Path = ROOT) -> tuple[float, int | None, str]:
    """Run `python -m brewbalance ARGS` with the given numba cache, from the checkout `tree`
    (this one unless another is compared); return (wall seconds, peak RSS in bytes or None,
    the command line shown to the reader)."""
    cmd = [PY, "-m", "brewbalance", *args]
    path = os.pathsep.join(p for p in (str(tree), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "BREWBALANCE_CACHE_DIR": str(cache), "PYTHONPATH": path}
    rss_file = None
    if measure_rss and os.path.exists(GNU_TIME):
        rss_file = tempfile.NamedTemporaryFile(suffix=".rss", delete=False)
        rss_file.close()
        full = [GNU_TIME, "-f", "%M", "-o", rss_file.name, *cmd]
        visible = [GNU_TIME, "-f", "%M", *cmd]
    elif measure_rss:
        full = visible = [PY, "-c", RSS_WRAPPER, *args]
    else:
        full = visible = cmd
    log(f"running: {shlex.join(visible)}")
    start = time.perf_counter()
    proc = subprocess.run(full, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"bench: command failed ({proc.returncode}): {shlex.join(full)}\n{proc.stderr}")
    rss = None
    if rss_file is not None:
        rss = int(Path(rss_file.name).read_text().split()[-1]) * 1024
        os.unlink(rss_file.name)
    elif measure_rss:
        rss = int(proc.stderr.strip().splitlines()[-1]) * 1024
    return wall, rss, shown(visible, cache)


def children_cpu() -> float:
    """CPU seconds (user + sys) of every finished child process and their waited-for
    descendants (a Dask LocalCluster's workers included)."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def simulate_args(n_games: int, jobs: int, run: Path) -> list[str]:
    return ["simulate", *GAME_ARGS, "--games", str(n_games), "--jobs", str(jobs),
            "--out", str(run), "--quiet", "--force"]


def parquet_bytes(run: Path) -> int:
    return sum(p.stat().st_size for p in run.rglob("*.parquet"))


# ---------------------------------------------------------------- kernel-only (in-process)

def kernel_setup():
    """Config, rules and policy arrays as Dwarfest.simulate builds them (import after the
    BREWBALANCE_CACHE_DIR is set, so the warm cache of step 1 is used)."""
    import numpy as np

    from sim.core.config import prepare
    from sim.dwarfest import GAME

    config = GAME.build(prepare("dwarfest", "base", [], []))
    pols = GAME.policy_indices(config, ["greedy"])
    return config, pols, np.array([4], np.int64)


def kernel_worker(config, pols, counts, first_game: int, n_games: int) -> int:
    """Play games first_game.. with the kernel Dwarfest.simulate plays greedy on (the one
    without search), reusing one chunk of output buffers and building no tables. Returns
    games played."""
    import numpy as np

    from sim.core.errors import STATUS_OVERFLOW, STATUS_VIOLATION
    from sim.core.game import CHUNK
    from sim.core.rows import output_rows
    from sim.dwarfest import GAME
    from sim.dwarfest import constants as C
    from sim.dwarfest.schema import GAMES, PLAYERS

    run_chunk = GAME.kernel_for(config, ["greedy"])
    rules, inputs = GAME.kernel_inputs(config, {})
    events_max, rounds_max = GAME.per_game_bounds(config)
    state = GAME.new_state(config, CHUNK)
    games = output_rows(CHUNK, GAMES.width)  # the layout GAME.simulate passes: one compiled kernel
    players = output_rows(CHUNK * C.MAX_PLAYERS, PLAYERS.width)
    wins = np.zeros(CHUNK * C.MAX_PLAYERS, np.float64)
    done = 0
    while done < n_games:
        k, _rows, _ev, status = run_chunk(state, rules, inputs, np.uint64(1), first_game + done,
                                          min(CHUNK, n_games - done), counts, pols,
                                          games, players, wins, events_max, rounds_max, False)
        if status in (STATUS_OVERFLOW, STATUS_VIOLATION):
            raise RuntimeError(f"kernel status {status} at game {first_game + done + k}")
        done += k
    return done


def kernel_throughput(n_games: int, threads: int) -> float:
    """Games/s of the greedy kernel over n_games split across `threads` threads (compile excluded)."""
    config, pols, counts = kernel_setup()
    kernel_worker(config, pols, counts, 0, 2000)  # warm-up: load/compile, touch buffers
    share = n_games // threads
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        done = sum(pool.map(lambda t: kernel_worker(config, pols, counts, t * share, share), range(threads)))
    return done / (time.perf_counter() - start)


# ---------------------------------------------------------------- main

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000, help="games for steps 2-4 (default 1,000,000)")
    ap.add_argument("--quick", action="store_true", help="smoke run: --games 100000")
    ap.add_argument("--full", action="store_true", help="also a 10x run for peak memory")
    ap.add_argument("--game", default="dwarfest", help="game to bench (dwarfest, homebrewers or dragon_brew)")
    ap.add_argument("--no-dask", dest="dask", action="store_false", help="skip step 6 (Dask engine)")
    opts = ap.parse_args()
    global GAME_ARGS
    GAME_ARGS = [opts.game, "--players", "4", "--policy", "greedy"]
    targets = TARGETS.get(opts.game, TARGETS["dwarfest"])
    n = 100_000 if opts.quick else opts.games
    jobs = n_cores()
    rows: list[tuple[str, str, str, bool | None]] = []  # (metric, value, target, ok)

    tmp = Path(tempfile.mkdtemp(prefix="brewbench_"))
    cache = tmp / "numba-cache"
    try:
        out(f"brewbalance benchmark: {opts.game}, 4 players, greedy bots; {jobs} cores; "
            f"python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.2f}; temp dir {tmp}")
        out("Commands run from the repository root; PY = " + PY)

        # 1. cold compile, then warm, same cache folder
        out("\n1. Compile time (simulate 1,000 games, fresh numba cache, then warm)")
        small = simulate_args(1000, jobs, tmp / "run_1k")
        log("cold run: compiling the kernels into a fresh cache (about a minute)")
        cold, _, cmd = run_cli(small, cache)
        warm, _, _ = run_cli(small, cache)
        out(f"   cold: {cold:6.1f} s wall   (includes numba compile)")
        out(f"   warm: {warm:6.1f} s wall   (same command, same cache)")
        out(f"   command: {cmd}")
        rows += [("cold simulate 1k games (compile)", f"{cold:.1f} s", f"< {targets[0]} s", cold < targets[0]),
                 ("warm simulate 1k games", f"{warm:.1f} s", "< 3 s", warm < 3)]

        # 2. kernel only, in-process, on the now-warm cache
        os.environ["BREWBALANCE_CACHE_DIR"] = str(cache)
        out(f"\n2. Kernel-only throughput ({n:,} games, run_chunk, no tables)")
        out("   code: bench/bench.py kernel_worker -> sim.dwarfest.kernel.run_chunk "
            "(CHUNK games per call, ThreadPoolExecutor, one state + buffers per thread)")
        kern = {}
        if opts.game != "dwarfest":
            out("   skipped: kernel-only is measured for dwarfest")
        for t in (sorted({1, 2, jobs}) if opts.game == "dwarfest" else []):
            log(f"kernel-only, {t} thread(s)")
            kern[t] = kernel_throughput(n, t)
            out(f"   {t} thread(s): {kern[t]:>12,.0f} games/s")
            rows.append((f"kernel-only, {t} thread(s)", f"{kern[t]:,.0f} games/s", "", None))

        # 3. end-to-end simulate with Parquet
        out(f"\n3. End-to-end simulate ({n:,} games, {jobs} jobs, Parquet written)")
        run = tmp / "run"
        wall, rss, cmd = run_cli(simulate_args(n, jobs, run), cache, measure_rss=True)
        rate = n / wall
        share = rate / kern[jobs] if kern else float("nan")
        per_game = parquet_bytes(run) / n
        versus = f"   = {share:.0%} of kernel-only ({jobs} threads)" if kern else ""
        out(f"   wall: {wall:.2f} s   {rate:,.0f} games/s{versus}")
        out(f"   Parquet: {per_game:.1f} bytes/game   peak RSS: {rss / 2**20:,.0f} MiB")
        out(f"   command: {cmd}")
        rows += [(f"simulate {n:,} games", f"{wall:.2f} s", "", None),
                 ("simulate throughput", f"{rate:,.0f} games/s", f">= {targets[1]:,} (2 cores)", rate >= targets[1]),
                 *([("simulate / kernel-only", f"{share:.0%}", ">= 85%", share >= 0.85)] if kern else []),
                 ("Parquet per game", f"{per_game:.1f} B", "", None),
                 (f"peak RSS, {n:,} games", f"{rss / 2**20:,.0f} MiB", "", None)]

        big = 10 * n
        if opts.full:
            log(f"10x run: {big:,} games for peak memory")
            shutil.rmtree(tmp / "run_big", ignore_errors=True)
            wall_big, rss_big, cmd = run_cli(simulate_args(big, jobs, tmp / "run_big"), cache, measure_rss=True)
            out(f"   {big:,} games: {wall_big:.1f} s, peak RSS {rss_big / 2**20:,.0f} MiB "
                f"({rss_big / rss:.2f}x the {n:,}-game run's)")
            out(f"   Parquet: {parquet_bytes(tmp / 'run_big') / big:.1f} bytes/game")
            out(f"   command: {cmd}")
            rep_big, _, cmd = run_cli(["report", str(tmp / "run_big"), "--out", str(tmp / "report_big")], cache)
            shutil.rmtree(tmp / "run_big", ignore_errors=True)
            out(f"   report on the {big:,}-game run (DuckDB queries + HTML + PDF): {rep_big:.1f} s wall")
            out(f"   command: {cmd}")
            rows += [(f"peak RSS, {big:,} games", f"{rss_big / 2**20:,.0f} MiB", "< 2 GiB", rss_big < 2 * GiB),
                     (f"peak RSS {big:,} / {n:,} games", f"{rss_big / rss:.2f}x", "< 1.25x (flat in N)",
                      rss_big < 1.25 * rss),
                     (f"report, {big:,} games", f"{rep_big:.1f} s", "", None)]
        else:
            out(f"   peak RSS of {big:,} games: run `python bench/bench.py --full"
                f"{'' if n == 1_000_000 else f' --games {n}'}`")

        # 4. report on the run of step 3
        out(f"\n4. Report ({n:,}-game run, HTML + PDF)")
        rep, _, cmd = run_cli(["report", str(run)], cache)
        out(f"   wall: {rep:.2f} s")
        out(f"   command: {cmd}")
        total = wall + rep
        rows += [("report", f"{rep:.2f} s", "", None),
                 (f"simulate + report, {n:,} games", f"{total:.1f} s",
                  "< 30 s (1M games)", total < 30 if n == 1_000_000 else None)]

        if opts.dask:
            rows += dask_overhead(n, jobs, tmp, cache)

        summary(rows)
        # one folder per source version of each part (core-HASH, dwarfest-HASH...): two of one
        # part mean its sources changed while the benchmark ran
        parts = [d.name.rsplit("-", 1)[0] for d in cache.iterdir() if d.is_dir()]
        if len(parts) != len(set(parts)):
            out("\nWARNING: the sim sources changed during the benchmark (several numba cache "
                "folders), so some figures include a recompile; run it again.")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def dask_overhead(n: int, jobs: int, tmp: Path, cache: Path) -> list[tuple]:
    """Step 6: the same simulate on both engines, local first, each measured as wall seconds
    and CPU seconds of the whole process tree (CPU is what the engine costs; wall also moves
    with the machine's load). Three pairs of figures:
    - start-up: both engines on one 1,000-game shard per job (cluster start, worker imports);
    - in all: both engines on n games at the default shard size;
    - per task: dask on n games in 5x smaller shards; the extra CPU over the extra tasks is
      the scheduling cost of one task, reported as a share of the default run's work."""
    from sim.core.runner import DEFAULT_SHARD

    out(f"\n6. Dask engine vs local ({jobs} jobs, same games and shard size; LocalCluster of {jobs} processes)")
    small = DEFAULT_SHARD // 5
    cases = [("startup", 1000 * jobs, 1000, "local"), ("startup", 1000 * jobs, 1000, "dask"),
             ("all", n, DEFAULT_SHARD, "local"), ("all", n, DEFAULT_SHARD, "dask"),
             ("tasks", n, small, "dask")]
    m = {}
    for what, games, shard, engine in cases:
        cpu0 = children_cpu()
        args = [*simulate_args(games, jobs, tmp / f"eng_{engine}"), "--engine", engine, "--shard-size", str(shard)]
        wall, _, cmd = run_cli(args, cache)
        m[what, engine] = (wall, children_cpu() - cpu0)
        shutil.rmtree(tmp / f"eng_{engine}", ignore_errors=True)
        out(f"   {games:>10,} games, shards of {shard:>6,}, {engine:>5}: {wall:7.1f} s wall "
            f"{m[what, engine][1]:7.1f} s CPU   {cmd}")
    startup = [m["startup", "dask"][i] - m["startup", "local"][i] for i in (0, 1)]
    total = [m["all", "dask"][i] / m["all", "local"][i] - 1 for i in (0, 1)]
    n_tasks = -(-n // DEFAULT_SHARD)
    per_task = (m["tasks", "dask"][1] - m["all", "dask"][1]) / (-(-n // small) - n_tasks)
    share = per_task * n_tasks / m["all", "local"][1]
    out(f"   start-up: {startup[0]:+.1f} s wall, {startup[1]:+.1f} s CPU; on {n:,} games in all: "
        f"{total[0]:+.1%} wall, {total[1]:+.1%} CPU")
    out(f"   scheduling: {per_task * 1000:.1f} ms CPU per task = {share:.2%} of the work at "
        f"{DEFAULT_SHARD:,} games per shard")
    return [("dask start-up (wall / CPU)", f"{startup[0]:+.1f} / {startup[1]:+.1f} s", "", None),
            (f"dask vs local, {n:,} games (wall / CPU)", f"{total[0]:+.0%} / {total[1]:+.0%}", "", None),
            ("dask scheduling cost per task", f"{per_task * 1000:.1f} ms", "", None),
            (f"  ... share of the work ({DEFAULT_SHARD:,}/shard)", f"{share:.2%}", "< 1%", share < 0.01)]


def summary(rows: list[tuple[str, str, str, bool | None]]) -> None:
    out("\nSummary")
    w = max(len(r[0]) for r in rows)
    out(f"  {'metric':<{w}}  {'value':>18}  {'target':<22}  ok")
    for metric, value, target, ok in rows:
        mark = "" if ok is None else ("yes" if ok else "NO")
        out(f"  {metric:<{w}}  {value:>18}  {target:<22}  {mark}")


if __name__ == "__main__":
    main()
