"""Where a game's cold compile goes: numba's compile time per function, into a fresh cache.

Plays 20 games of GAME (4 players, greedy bots) with a fresh, empty numba cache and records
numba's own "numba:compile" events (numba.core.event). A function's compile includes the
compiles of the callees it meets first, so each function's *own* time is its event's time
minus its callees' events; "LLVM" is the part of it spent holding numba's LLVM lock
(its function passes, linking, and for the entry point's twin the optimisation and machine code
of the whole game: the other functions' libraries are link-only, sim/core/link_only.py). Prints
the total, the number of compiled functions and the slowest ones; then the functions inlined at
numba IR level (`jit_inline`) by what inlining them cost: numba copies an inlined function's IR
at every call site (built once per function, sim/core/inlining.py), a cost that grows with the
size of the function (part of its callers' "own" time above). The game compiles in this process
alone: a run's cold start shares the game's listed functions with a second process
(sim/core/ahead.py), whose compiles this process would not see. Usage:

    python bench/compile_profile.py GAME [--top N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", choices=["brewin_usa", "dragon_brew", "dwarfest", "homebrewers"])
    ap.add_argument("--top", type=int, default=15, help="how many of the slowest functions to list")
    opts = ap.parse_args()
    cache = Path(tempfile.mkdtemp(prefix="brewcompile_"))
    os.environ["BREWBALANCE_CACHE_DIR"] = str(cache)  # read when sim is imported
    sys.path.insert(0, str(ROOT))
    try:
        profile(opts.game, opts.top)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def profile(game_id: str, top: int) -> None:
    from numba.core import event
    from numba.core.inline_closurecall import InlineWorker

    from sim.core.config import prepare
    from sim.registry import get_game

    own: dict[str, float] = {}
    llvm: dict[str, float] = {}
    stack: list[list] = []  # [name, start, callees' time, llvm time] of the compiles under way

    class Compiles(event.Listener):
        def on_start(self, ev):
            if ev.kind == "numba:compile":
                fn = ev.data["dispatcher"].py_func
                stack.append([f"{fn.__module__.removeprefix('sim.')}.{fn.__name__}", time.perf_counter(), 0.0, 0.0])
            elif ev.kind == "numba:llvm_lock" and stack:
                stack[-1].append(time.perf_counter())

        def on_end(self, ev):
            if ev.kind == "numba:compile":
                name, start, inner, in_llvm = stack.pop()[:4]
                spent = time.perf_counter() - start
                own[name] = own.get(name, 0.0) + spent - inner
                llvm[name] = llvm.get(name, 0.0) + in_llvm
                if stack:
                    stack[-1][2] += spent
            elif ev.kind == "numba:llvm_lock" and stack and len(stack[-1]) > 4:
                stack[-1][3] += time.perf_counter() - stack[-1].pop()

    inlined: dict[str, list] = {}  # name -> [calls, own seconds]
    inlining: list[list] = []  # [start, nested inlines' time] of the inlines under way
    original = InlineWorker.inline_function

    def timed_inline(self, caller_ir, block, i, function, arg_typs=None):
        inlining.append([time.perf_counter(), 0.0])
        try:
            return original(self, caller_ir, block, i, function, arg_typs)
        finally:
            start, nested = inlining.pop()
            spent = time.perf_counter() - start
            entry = inlined.setdefault(f"{function.__module__.removeprefix('sim.')}.{function.__name__}", [0, 0.0])
            entry[0] += 1
            entry[1] += spent - nested
            if inlining:
                inlining[-1][1] += spent

    InlineWorker.inline_function = timed_inline
    game = get_game(game_id)
    game.compile_ahead = None  # one process, so every function's compile is seen (sim/core/ahead.py)
    config = game.build(prepare(game_id, "base", [], []))
    listener = Compiles()
    start = time.perf_counter()
    with event.install_listener("numba:compile", listener), event.install_listener("numba:llvm_lock", listener):
        game.simulate(config, 1, 0, 20, [4], ["greedy"])
    total = time.perf_counter() - start
    print(f"{game_id}: cold compile and 20 games {total:.1f} s; {len(own)} compiled functions, "
          f"{sum(own.values()):.1f} s in their compiles, {sum(llvm.values()):.1f} s of it in LLVM")
    print(f"  {'own s':>6s} {'LLVM s':>6s}  function")
    for name in sorted(own, key=own.get, reverse=True)[:top]:
        print(f"  {own[name]:6.2f} {llvm[name]:6.2f}  {name}")
    print(f"inlined at numba IR level: {sum(c for c, _ in inlined.values())} call sites of {len(inlined)} "
          f"functions, {sum(t for _, t in inlined.values()):.1f} s")
    print(f"  {'s':>6s} {'sites':>6s}  function")
    for name in sorted(inlined, key=lambda n: inlined[n][1], reverse=True)[:top]:
        print(f"  {inlined[name][1]:6.2f} {inlined[name][0]:6d}  {name}")


if __name__ == "__main__":
    main()
