"""Simulation: game rules, numba kernels, scripted bots, and the run writer.

`sim` knows rules and policies only; it never imports `analysis` or `reports`.

numba's on-disk cache is kept in one folder per game, named by a hash of the sources that
game's compiled code can depend on (`compiled_sources`): the modules of the game and of
sim/core that define compiled functions, and every sim module those import, transitively.
numba checks a cached function against its own file only, so without the hash a kernel would
keep stale machine code for a helper changed in another module; with one folder per game,
editing Dwarfest does not recompile Dragon Brew, a change to compiled sim/core code
recompiles every game, as it must, and an edit to plain-Python plumbing that no compiled
module imports (the run writer, the runner, the Dask engine, a game's wrapper) recompiles
nothing. Shared sim/core functions get a folder of their own.
The base folder is BREWBALANCE_CACHE_DIR, else NUMBA_CACHE_DIR, else the user cache folder;
it never needs to be writable inside the installed package.

numba's LLVM optimisation level defaults to 1 here (NUMBA_OPT, unless the user sets it):
measured on the Dwarfest kernel, level 3 compiles 15% slower and runs no faster.
"""

import ast
import hashlib
import os
from functools import cache
from pathlib import Path

SOURCES = Path(__file__).resolve().parent
SHARED = "core"  # the package every game builds on


def _cache_base() -> Path:
    base = os.environ.get("BREWBALANCE_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "brewbalance" / "numba"
    return Path(base)


def sources_digest(root: Path) -> str:
    """sha256 (16 hex digits) of every .py file under `root`, with NUMBA_OPT, which changes the
    machine code (the whole code's fingerprint; a game's cache key is `compiled_sources`')."""
    return _digest(root, root.rglob("*.py"))


def _digest(root: Path, files) -> str:
    digest = hashlib.sha256(os.environ.get("NUMBA_OPT", "").encode())
    for path in sorted(files):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def _imports(path: Path, root: Path) -> tuple[frozenset[Path], bool]:
    """The sim files `path` imports (`from P import m` counts module P/m.py when there is one),
    and whether it imports the decorators `jit` or `jit_inline` (so defines compiled code; a
    module that only reads, say, jit.PLAIN_PYTHON does not)."""
    here = list(path.relative_to(root).parent.parts)  # the module's package, below sim/
    decorators = root / SHARED / "jit.py"
    found, compiles = set(), False
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules = [a.name.split(".")[1:] for a in node.names if a.name.split(".")[0] == "sim"]
        elif isinstance(node, ast.ImportFrom):
            dotted = (node.module or "").split(".") if node.module else []
            if node.level:
                package = here[:len(here) - node.level + 1] + dotted
            elif dotted[:1] == ["sim"]:
                package = dotted[1:]
            else:
                continue
            names = [package + [a.name] for a in node.names]
            # the package itself counts only when a name imported from it is not a module
            modules = names if all(_module_file(root, n) for n in names) else [package, *names]
            from_jit = decorators in [_module_file(root, m) for m in (package, *names)]
            compiles |= from_jit and any(a.name in ("jit", "jit_inline") for a in node.names)
        else:
            continue
        found |= {f for m in modules if (f := _module_file(root, m)) is not None}
    return frozenset(found), compiles


def _module_file(root: Path, parts: list[str]) -> Path | None:
    """The file of module sim.a.b (parts ['a', 'b']): a/b.py or a/b/__init__.py, if either exists."""
    target = root.joinpath(*parts)
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@cache
def compiled_sources(root: Path, packages: tuple[str, ...]) -> tuple[Path, ...]:
    """The files the compiled code of `packages` can read: their modules that import sim.core.jit's
    decorators, and every sim file those import, transitively (constants, layouts, helpers).
    The import graph is read once per process (jit.py asks for each module's folder)."""
    todo = [p for package in packages for p in sorted((root / package).rglob("*.py"))
            if _imports(p, root)[1]]
    seen = set(todo)
    while todo:
        for found in _imports(todo.pop(), root)[0] - seen:
            seen.add(found)
            todo.append(found)
    return tuple(sorted(seen))


def cache_dir_for(module: str, root: Path = SOURCES) -> Path:
    """The numba cache folder of the compiled functions defined in `module` (a dotted name
    such as 'sim.dwarfest.rules'): one per game, keyed by the sources that game's compiled code
    and the shared compiled code can read, plus one for the shared package itself."""
    parts = module.split(".")
    package = parts[1] if len(parts) > 2 else SHARED
    packages = tuple(sorted({SHARED, package}))
    return _cache_base() / f"{package}-{_digest(root, compiled_sources(root, packages))}"


def _numba_cache_dir() -> Path:
    """The fingerprint of all the sim sources as a folder name (the dask engine compares it
    between driver and workers); numba's global CACHE_DIR points here, but every compiled
    function is cached in its game's folder (cache_dir_for, set by sim.core.jit)."""
    return _cache_base() / sources_digest(SOURCES)


def _configure_numba_cache() -> None:
    os.environ.setdefault("NUMBA_OPT", "1")  # read by numba when it is first imported
    import numba

    numba.config.CACHE_DIR = str(_numba_cache_dir())


_configure_numba_cache()
