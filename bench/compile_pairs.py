"""Cold compile of one game in two source trees, alternated in pairs.

The same tree's cold compile reads up to 1.5x apart within an hour on a shared machine, so a
change to the compile is judged on pairs run back to back, the order swapped each pair. Each
measurement is step 1 of bench/profile.py (`brewbalance simulate GAME --games 1000 --players 4
--policy greedy` on all cores, into a fresh numba cache, minus the same run warm), with the CPU
seconds of the run and its compile child. Usage (OTHER: a checkout, e.g. a `git worktree` of
the commit before):

    python bench/compile_pairs.py GAME OTHER [--pairs N]
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
from bench import children_cpu, n_cores, run_cli  # noqa: E402  (bench.py's command runner)


def _profile_module():
    """bench/profile.py, loaded by path: `import profile` would find the standard library's."""
    spec = importlib.util.spec_from_file_location("bench_profile", ROOT / "bench" / "profile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


simulate_args = _profile_module().simulate_args  # the run of profile.py's step 1


def compile_seconds(tree: Path, game: str) -> tuple[float, float]:
    """Cold minus warm: wall and CPU seconds of the compile, run from checkout `tree`."""
    scratch = Path(tempfile.mkdtemp(prefix="compile_pairs_"))
    try:
        args = simulate_args(game, 1000, n_cores(), scratch / "run")
        runs = []
        for _ in ("cold", "warm"):
            cpu = children_cpu()
            wall, _, _ = run_cli(args, scratch / "cache", tree=tree)
            runs.append((wall, children_cpu() - cpu))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    (cold_wall, cold_cpu), (warm_wall, warm_cpu) = runs
    return cold_wall - warm_wall, cold_cpu - warm_cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", choices=["brewin_usa", "dragon_brew", "dwarfest", "homebrewers"])
    ap.add_argument("other", type=Path, help="the other source tree (a checkout of another commit)")
    ap.add_argument("--pairs", type=int, default=3)
    opts = ap.parse_args()
    if not (opts.other / "sim" / "__init__.py").is_file():
        sys.exit(f"compile_pairs: {opts.other} is not a brewbalance checkout (no sim/__init__.py)")
    trees = {"this": ROOT, "other": opts.other.resolve()}
    walls: dict[str, list[float]] = {name: [] for name in trees}
    for pair in range(opts.pairs):
        for name in (["other", "this"] if pair % 2 == 0 else ["this", "other"]):
            wall, cpu = compile_seconds(trees[name], opts.game)
            walls[name].append(wall)
            print(f"pair {pair + 1} {name:5s} compile {wall:5.1f} s, CPU {cpu:5.1f} s", flush=True)
    diffs = [this - other for this, other in zip(walls["this"], walls["other"], strict=True)]
    print(f"{opts.game}: this tree - the other, compile wall: mean {statistics.mean(diffs):+.2f} s "
          f"over {len(diffs)} pairs (each: {', '.join(f'{d:+.1f}' for d in diffs)})")


if __name__ == "__main__":
    main()
