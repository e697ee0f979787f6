"""Cold compile of one game in two source trees, alternated in pairs.

The same tree's cold compile reads up to 1.5x apart within an hour on a shared machine, so a
change to the compile is judged on pairs run back to back, the order swapped each pair. Each
measurement is `brewbalance simulate GAME --games 1000 --players 4 --policy greedy --jobs 2`
into a fresh numba cache, minus the same run warm (as step 1 of bench/profile.py), with the
CPU seconds of the run and its compile child. Usage (OTHER: a checkout, e.g. a `git worktree`
of the commit before):

    python bench/compile_pairs.py GAME OTHER [--pairs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed_run(tree: Path, game: str, cache: Path, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds (this run and the processes it waited for) of one simulate."""
    env = {**os.environ, "BREWBALANCE_CACHE_DIR": str(cache), "PYTHONPATH": str(tree)}
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "brewbalance", "simulate", game, "--players", "4", "--policy",
                           "greedy", "--games", "1000", "--jobs", "2", "--out", str(out), "--quiet", "--force"],
                          cwd=tree, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"compile_pairs: the run in {tree} failed:\n{proc.stderr}")
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compile_seconds(tree: Path, game: str) -> tuple[float, float]:
    """Cold minus warm: wall and CPU seconds of the compile."""
    scratch = Path(tempfile.mkdtemp(prefix="compile_pairs_"))
    try:
        cold = timed_run(tree, game, scratch / "cache", scratch / "run")
        warm = timed_run(tree, game, scratch / "cache", scratch / "run")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return cold[0] - warm[0], cold[1] - warm[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", choices=["brewin_usa", "dragon_brew", "dwarfest", "homebrewers"])
    ap.add_argument("other", type=Path, help="the other source tree (a checkout of another commit)")
    ap.add_argument("--pairs", type=int, default=3)
    opts = ap.parse_args()
    if not (opts.other / "sim" / "__init__.py").is_file():
        sys.exit(f"compile_pairs: {opts.other} is not a brewbalance checkout (no sim/__init__.py)")
    trees = {"this": ROOT, "other": opts.other.resolve()}
    seconds: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    for pair in range(opts.pairs):
        for name in (["other", "this"] if pair % 2 == 0 else ["this", "other"]):
            wall, cpu = compile_seconds(trees[name], opts.game)
            seconds[name].append((wall, cpu))
            print(f"pair {pair + 1} {name:5s} compile {wall:5.1f} s, CPU {cpu:5.1f} s", flush=True)
    walls = [this[0] - other[0] for this, other in zip(seconds["this"], seconds["other"], strict=True)]
    print(f"{opts.game}: this tree - the other, compile wall: mean {statistics.mean(walls):+.2f} s "
          f"over {len(walls)} pairs (each: {', '.join(f'{d:+.1f}' for d in walls)})")


if __name__ == "__main__":
    main()
