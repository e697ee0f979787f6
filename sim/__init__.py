"""Simulation: game rules, numba kernels, scripted bots, and the run writer.

`sim` knows rules and policies only; it never imports `analysis` or `reports`.

Importing `sim` points numba's on-disk cache at a folder named by a hash of the sim
sources. numba checks a cached function against its own file only, so a kernel would
otherwise keep stale machine code for a helper changed in another module. The base folder
is BREWBALANCE_CACHE_DIR, else NUMBA_CACHE_DIR, else the user cache folder; it never needs
to be writable inside the installed package.

numba's LLVM optimisation level defaults to 1 here (NUMBA_OPT, unless the user sets it):
measured on the Dwarfest kernel, level 3 compiles 15% slower and runs no faster.
"""

import hashlib
import os
from pathlib import Path


def _numba_cache_dir() -> Path:
    src = Path(__file__).resolve().parent
    digest = hashlib.sha256(os.environ.get("NUMBA_OPT", "").encode())
    for path in sorted(src.rglob("*.py")):
        digest.update(path.relative_to(src).as_posix().encode())
        digest.update(path.read_bytes())
    base = os.environ.get("BREWBALANCE_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "brewbalance" / "numba"
    return Path(base) / digest.hexdigest()[:16]


def _configure_numba_cache() -> None:
    os.environ.setdefault("NUMBA_OPT", "1")  # read by numba when it is first imported
    import numba

    numba.config.CACHE_DIR = str(_numba_cache_dir())


_configure_numba_cache()
