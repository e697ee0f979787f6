"""Where a game's compiled kernel spends its time, function by function (Linux `perf`).

numba's machine code lives in anonymous memory, so a sampling profiler sees only addresses.
This script compiles GAME into a fresh numba cache (so each compiled function's object code is
at hand), reads the symbol table of the entry point's object (every callee is linked into it,
so the running code is all there), writes the `/tmp/perf-PID.map` that `perf` reads for
JIT code, and samples one thread playing N seeded games. Functions that LLVM inlined into
their caller are counted in the caller. Usage:

    python bench/kernel_profile.py GAME [--games N] [--players K] [--policy BOT] [--top N]

Prints the share of samples per compiled function ("self", its own code) and per module
(rules, policies, kernel...). Needs `perf` (linux-tools) and permission to use it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_NAME_PART = re.compile(r"(\d+)")


def numba_name(symbol: str) -> str:
    """numba's mangled symbol (_ZN + length-prefixed parts + ...) -> 'module.function'."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        m = _NAME_PART.match(symbol, i)
        n, i = int(m.group(1)), m.end()
        parts.append(symbol[i:i + n])
        i += n
    return ".".join(parts).removeprefix("sim.")


def text_symbols(obj: bytes) -> dict[str, tuple[int, int]]:
    """Function symbols of an ELF object: name -> (offset in .text, size), read with `nm`."""
    with tempfile.NamedTemporaryFile(suffix=".o") as fh:
        fh.write(obj)
        fh.flush()
        out = subprocess.run(["nm", "-S", "--defined-only", fh.name], capture_output=True, text=True,
                             check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "TtWw":  # linked-in callees are weak (linkonce_odr)
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
    return syms


def compiled_functions():
    """Every numba function compiled so far in the sim package (each has its own object code)."""
    from numba.core.registry import CPUDispatcher

    for module in [m for name, m in sys.modules.items() if name.startswith("sim.")]:
        for obj in vars(module).values():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == module.__name__:
                yield from obj.overloads.values()
                twin = getattr(obj, "python_twin", None)  # the entry point's code is its twin's
                if twin is not None:
                    yield from twin.overloads.values()


def write_perf_map() -> int:
    """The perf map of all compiled code (a caller's object holds its own copy of every callee
    it links in, and a call may land in any loaded copy); returns how many functions it lists."""
    from sim.core.link_only import is_link_only

    lines = []
    for cres in compiled_functions():
        library = cres.library
        if is_link_only(library):  # LLVM IR for its callers only: no machine code of its own
            continue
        syms = text_symbols(library._get_compiled_object())
        entry = cres.fndesc.llvm_func_name
        base = library.get_pointer_to_function(entry) - syms[entry][0]
        lines += [f"{base + off:x} {size:x} {numba_name(name)}" for name, (off, size) in syms.items()]
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    return len(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game", choices=["brewin_usa", "dragon_brew", "dwarfest", "homebrewers"])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--top", type=int, default=30)
    opts = ap.parse_args()
    if shutil.which("perf") is None:
        sys.exit("kernel_profile: needs `perf` (linux-tools) on PATH")
    cache = Path(tempfile.mkdtemp(prefix="brewkprof_"))
    os.environ["BREWBALANCE_CACHE_DIR"] = str(cache)  # fresh: the object code is kept in memory
    sys.path.insert(0, str(ROOT))
    try:
        profile(opts)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        Path(f"/tmp/perf-{os.getpid()}.map").unlink(missing_ok=True)


def profile(opts) -> None:
    from sim.core.config import prepare
    from sim.registry import get_game

    game = get_game(opts.game)
    game.compile_ahead = None  # one process compiles everything, so all object code is in this one
    config = game.build(prepare(opts.game, "base", [], []))
    pols = [opts.policy]
    t = time.perf_counter()
    game.simulate(config, 1, 0, 20, [opts.players], pols)  # compiles
    print(f"# compiled {opts.game} in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    n_syms = write_perf_map()
    data = Path(tempfile.mkdtemp(prefix="brewperf_")) / "perf.data"
    rec = subprocess.Popen(["perf", "record", "-q", "-F", "1999", "-p", str(os.getpid()), "-o", str(data)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # perf attaches
    t = time.perf_counter()
    game.simulate(config, 7, 0, opts.games, [opts.players], pols)
    wall = time.perf_counter() - t
    rec.send_signal(signal.SIGINT)
    rec.wait()
    report = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--no-children", "-q",
                             "--sort", "sym", "-g", "none", "--percent-limit", "0"],
                            capture_output=True, text=True).stdout
    shutil.rmtree(data.parent, ignore_errors=True)
    shares = Counter()
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.kj]\]\s+(.*\S)", line)
        if m:
            shares[m.group(2)] += float(m.group(1))
    print(f"{opts.game}: {opts.games:,} games, {opts.players} players, {opts.policy} bots, one thread: "
          f"{wall:.2f} s ({opts.games / wall:,.0f} games/s); {n_syms} compiled functions mapped")
    print("  share  function (self time; inlined callees count in their caller)")
    for name, pct in shares.most_common(opts.top):
        print(f"{pct:6.1f}%  {name}")
    by_module = Counter()
    for name, pct in shares.items():
        by_module[name.rsplit(".", 1)[0] if name.count(".") >= 2 else "(outside the kernel)"] += pct
    print("  share  module")
    for name, pct in by_module.most_common():
        print(f"{pct:6.1f}%  {name}")


if __name__ == "__main__":
    main()
