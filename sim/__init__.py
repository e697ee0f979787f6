"""Simulation: game rules, numba kernels, scripted bots, and the run writer.

`sim` knows rules and policies only; it never imports `analysis` or `reports`.

numba's on-disk cache is kept in one folder per game, named by a hash of the sources that
game's compiled code can depend on: sim/core, the files directly in sim/, and the game's own
package. numba checks a cached function against its own file only, so without the hash a
kernel would keep stale machine code for a helper changed in another module; with one
folder per game, editing Dwarfest does not recompile Dragon Brew (a change to sim/core still
recompiles every game, as it must). Shared sim/core functions get a folder of their own.
The base folder is BREWBALANCE_CACHE_DIR, else NUMBA_CACHE_DIR, else the user cache folder;
it never needs to be writable inside the installed package.

numba's LLVM optimisation level defaults to 1 here (NUMBA_OPT, unless the user sets it):
measured on the Dwarfest kernel, level 3 compiles 15% slower and runs no faster.
"""

import hashlib
import os
from pathlib import Path

SOURCES = Path(__file__).resolve().parent
SHARED = "core"  # the package every game builds on


def _cache_base() -> Path:
    base = os.environ.get("BREWBALANCE_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "brewbalance" / "numba"
    return Path(base)


def sources_digest(root: Path, packages: list[str] | None) -> str:
    """sha256 (16 hex digits) of the .py files of `root`'s top level and of the named packages
    under it (None: every package), with NUMBA_OPT, which changes the machine code."""
    digest = hashlib.sha256(os.environ.get("NUMBA_OPT", "").encode())
    files = sorted(root.glob("*.py"))
    for package in sorted(p.name for p in root.iterdir() if p.is_dir() and p.name != "__pycache__"):
        if packages is None or package in packages:
            files += sorted((root / package).rglob("*.py"))
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir_for(module: str, root: Path = SOURCES) -> Path:
    """The numba cache folder of the compiled functions defined in `module` (a dotted name
    such as 'sim.dwarfest.rules'): one per game, keyed by that game's sources and the shared
    ones, plus one for the shared package itself."""
    parts = module.split(".")
    package = parts[1] if len(parts) > 2 else SHARED
    packages = sorted({SHARED, package})
    return _cache_base() / f"{package}-{sources_digest(root, packages)}"


def _numba_cache_dir() -> Path:
    """The fingerprint of all the sim sources as a folder name (the dask engine compares it
    between driver and workers); numba's global CACHE_DIR points here, but every compiled
    function is cached in its game's folder (cache_dir_for, set by sim.core.jit)."""
    return _cache_base() / sources_digest(SOURCES, None)


def _configure_numba_cache() -> None:
    os.environ.setdefault("NUMBA_OPT", "1")  # read by numba when it is first imported
    import numba

    numba.config.CACHE_DIR = str(_numba_cache_dir())


_configure_numba_cache()
