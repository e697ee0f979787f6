"""The one decorator for simulation kernels.

`jit` = numba's njit with an on-disk cache, the GIL released, and NRT reference counting
switched off. Kernels pass their state around as NamedTuples of arrays; with reference
counting on, every call and every field access increments and decrements each array's
count atomically (measured here: about 60 ns per call of a one-line helper, two thirds of
the whole game's run time). Kernels therefore never allocate: every buffer is made in
Python and passed in, and these functions only read and write it.

A `jit` function is compiled without numba's two call wrappers (the one Python calls through,
which unboxes every array of every argument tuple, and the C-pointer one): in a run, Python
calls only a game's entry point, and each wrapper was compiled, optimised, turned into machine
code and linked into every caller again for nothing. A call from Python (the entry point, a
test, a REPL) goes to a twin compiled with the wrappers on that first call (`InternalDispatcher`).
Its library is link-only (sim/core/link_only.py): kept as IR for its callers, with no machine
code of its own; the twin optimises and emits the whole linked program once. numba's IR-level
inlining is made cheaper without changing its result (sim/core/inlining.py), so are the
compiler flags' comparisons (sim/core/flags.py), the typing of a built-in call or an operator
is worked out once per argument types (sim/core/resolution.py), and a cold start shares a
game's listed functions with a second process (sim/core/ahead.py).
"""

import os
import threading
import warnings
from contextlib import contextmanager
from functools import cache

import llvmlite.binding as llvm
import numba
from numba import njit
from numba.core import types
from numba.core.registry import CPUDispatcher

import sim

from . import ahead, flags, inlining, link_only, resolution

# Plain-Python mode (BREWBALANCE_NO_JIT=1, or numba's own NUMBA_DISABLE_JIT=1): the kernels run
# uncompiled, with the same results, so a rule can be stepped through in pdb or measured
# by coverage (tests/test_plain_python.py proves the equality). Read once, at import.
PLAIN_PYTHON = os.environ.get("BREWBALANCE_NO_JIT", "") not in ("", "0") or bool(numba.config.DISABLE_JIT)
if PLAIN_PYTHON:  # the RNG's uint64 arithmetic wraps on purpose, as it does compiled
    warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning)

# For the functions Python calls (a twin, below; jit_python): numba's C-pointer wrapper, which
# only a C caller would use, would be compiled, optimised and turned into machine code for
# nothing, a twin's at the serial end of a cold start.
_njit = njit(cache=True, nogil=True, _nrt=False, no_cfunc_wrapper=True)
_njit_inline = njit(cache=True, nogil=True, _nrt=False, inline="always")
# Without the call wrappers (module docstring). Cold compile and 20 games, CPU seconds, two pairs
# against the tree before (docs/performance.md, 2026-12-06): Dwarfest 26.4 / 26.3 -> 18.9 / 18.3,
# Brewin' USA 32.2 / 30.5 -> 29.0 / 27.1, Homebrewers 51.3 / 53.7 -> 49.3 / 49.5, Dragon Brew
# 95.3 / 95.5 -> 76.1 / 83.9; the same machine code, so the same kernel speed.
_njit_internal = njit(cache=True, nogil=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
# How numba builds the code, not what it computes; each False when numba's internals are not
# those the patch expects (the compile is then slower) or nothing is compiled.
LINK_ONLY = not PLAIN_PYTHON and link_only.install()
CHEAP_INLINING = not PLAIN_PYTHON and inlining.install()
FAST_FLAGS = not PLAIN_PYTHON and flags.install()
CACHED_RESOLUTION = not PLAIN_PYTHON and resolution.install()
# LLVM's runtime loop unrolling is off: a loop whose trip count is known only when it runs was
# copied in blocks of several iterations plus a remainder loop, which made Dragon Brew's whole
# program 85,589 lines of optimised LLVM IR instead of 60,202, and the optimisation and machine
# code of that program are the part of a cold start no second core can share. Loops with a
# constant trip count are still unrolled whole; the kernels play as fast (docs/performance.md,
# 2026-12-07). LLVM options are the process's: set at import, before anything compiles.
if not PLAIN_PYTHON:
    llvm.set_option("", "-unroll-runtime=0")


@cache
def _folder_of(module: str, sub: str = ""):
    return sim.cache_dir_for(module) / sub  # hashing the sources once per module, not per function


@contextmanager
def _cached_in_its_games_folder(fn, sub: str = ""):
    """numba picks a function's cache folder from config.CACHE_DIR when it is decorated: point
    it at the folder of the game that defines fn for that moment (see sim/__init__). `sub`: a
    sub-folder, for a second compiled form of the same function (numba's cache index does not
    tell the two apart)."""
    shared = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(_folder_of(fn.__module__, sub))
    try:
        yield
    finally:
        numba.config.CACHE_DIR = shared


class InternalDispatcher(CPUDispatcher):
    """A compiled function that compiled code calls, built without the Python-call wrapper. A
    call from Python (a test, a REPL, a script) would jump to a wrapper that does not exist, so
    it goes to a twin compiled with the wrapper, on its first such call (cached apart)."""

    _twin_lock = threading.Lock()

    def compile(self, sig):
        # ahead: the other process of a cold compile on two cores may be compiling it
        with ahead.compiling(self, sig), link_only.compiling_internal(self.py_func.__qualname__):
            return super().compile(sig)

    def __call__(self, *args, **kwargs):
        return self.python_callable()(*args, **kwargs)

    @property
    def python_twin(self):
        """The twin Python calls go to, or None before the first such call."""
        return self.__dict__.get("_twin")

    def python_callable(self):
        if self.python_twin is None:
            with self._twin_lock:
                if self.python_twin is None:
                    twin = _by_type(_compiled(self.py_func, _njit, "python-calls"))
                    if getattr(self, "loops_unvectorized", False):
                        twin.__class__ = UnvectorizedTwin
                    self.__dict__["_twin"] = twin
        return self.python_twin


class UnvectorizedTwin(CPUDispatcher):
    """The twin of an entry point marked `unvectorized`: its program is optimised without
    LLVM's loop vectoriser (sim/core/link_only.py)."""

    def compile(self, sig):
        with link_only.compiling_unvectorized(self.py_func.__qualname__):
            return super().compile(sig)


def unvectorized(entry):
    """Mark a game's entry point (a `jit` function Python calls) to have its whole program
    optimised without LLVM's loop vectoriser, a choice measured per game: on Dragon Brew it
    shrank the optimised program from 59,015 to 44,209 lines of LLVM IR and the serial end of a
    cold start by about 1.2 s, with kernels as fast or faster; Brewin' USA's greedy kernel was
    4.5% slower without it (docs/performance.md, 2026-12-07). Apply before the first call."""
    if not PLAIN_PYTHON:
        entry.loops_unvectorized = True
    return entry


def _compiled(fn, decorator, sub=""):
    with _cached_in_its_games_folder(fn, sub):
        return decorator(fn)


def _by_type(dispatcher):
    """Compile `dispatcher` once per argument type, not once per constant value (see jit)."""
    typed_by_literal = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed_by_literal(tuple(types.unliteral(a) for a in args),
                                {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def jit(fn):
    """A function compiled code calls. Compiled once per argument *type*, not once per constant
    value: a jitted caller that passes a constant (an event kind, True/False) would otherwise make
    numba compile a separate copy of fn for each literal value (measured on Dragon Brew: 255
    compilations of 190 functions; `log` alone 11 times), which dominated the cold compile."""
    if PLAIN_PYTHON:
        return fn
    dispatcher = _by_type(_compiled(fn, _njit_internal))
    dispatcher.__class__ = InternalDispatcher  # the same object, but a Python call goes to the twin
    return dispatcher


# Which functions are inlined (numba IR level) and which are compiled on their own decides the
# cold compile (bench/compile_profile.py measures it per function). These choices were measured
# before link-only libraries and cheaper inlining (2026-12-06 afternoon) changed the costs; they
# have not been measured again since:
# * One-line helpers are inlined: numba's fixed cost per compiled function was about half a
#   second (about 0.15 s since).
# * So are the single-caller levels between a game's entry point and its phases (`play`, the
#   search bot's rollout wrappers...): each level compiled on its own re-optimised the whole
#   game below it (Dwarfest: play, run_chunk and play_game each spent 8-10 s on it; link-only
#   libraries no longer do that).
# * A helper of many statements called from several places is compiled on its own: inlined,
#   numba types it again at every call site, and typing a big function costs more than
#   linking it (Brewin' USA: 7 such helpers un-inlined cut its cold compile by a fifth).
#   A hot caller can inline the cheap part and call it only for the real work: Homebrewers'
#   four choices that compare brew_value over the recipes inline only their random-bot test
#   and share one compiled best_recipe (brew_value and move_value had been typed four times).
# * So is a small helper called from dozens of places that inlines a chain of others (the
#   replay trace's row writing, sim/core/rows.put_trace8): numba copies every inlined
#   function's IR at each call site (bench/compile_profile.py lists that cost).
# * What the entry point's own function holds is compiled at the serial end of a cold start,
#   after everything it calls (sim/core/ahead.py), yet moving a phase out of it does not help:
#   Dragon Brew's spring and winter compiled on their own and listed cut its twin's IR from
#   14,700 to 8,600 lines and its CPU by about 1.2 s, but the listed functions before it then
#   ran as much longer (the shared list is bound by its work), and 20 alternated pairs of cold
#   starts read the same within 1 s (docs/performance.md, 2026-12-07 evening; not kept).
# Measured, not guessed: inlining a big single-caller body can cost more in typing than it
# saves in LLVM (Homebrewers' play_game did), so each game keeps what its profile favoured.
# What is compiled at all matters more: a run with no search bot plays on the game's
# run_chunk_without_search (sim/core/game.GameBase.kernel_for), which leaves out the search
# bot, whose rollouts replay the whole game.
def jit_python(fn):
    """A compiled function Python calls (numba's wrappers on): the run folder's Parquet encoder
    (sim/core/parquet.py), called once per column chunk, not from a kernel."""
    if PLAIN_PYTHON:
        return fn
    return _by_type(_compiled(fn, _njit))


def jit_inline(fn):
    if PLAIN_PYTHON:
        return fn
    return _compiled(fn, _njit_inline)
