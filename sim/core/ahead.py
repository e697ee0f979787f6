"""A game's cold compile on two cores.

numba compiles on one core: Dragon Brew's cold start took about 40 s while the other core sat
idle. A game lists, in `compile_ahead(S, R, X)`, the big functions of its call tree in the
order its kernel reaches them, callees before their callers, each with arguments of the types
the kernel passes it; the run folder's Parquet encoder comes last. On a cold start (the entry
point in neither this process nor the on-disk numba cache), `compile_on_two_cores` starts a
child process, and both go down the list: each compiles the next function nobody has claimed
(an exclusive file in a shared folder) into the shared on-disk cache. A process that reaches
a function the other one claimed, as a callee of its own, waits for the other's "done" file
and loads it from the cache. Once through the list, this process compiles the entry point,
which loads what the child compiled.

So the list splits itself between the two by what each function costs on this machine, and only
the small unlisted helpers both processes reach are compiled twice. The machine code is the
same either way: only which process compiles a function changes (tests/test_ahead.py). A child
that fails or is killed costs time, not results: its claims are waited on only while it lives.

    python -m sim.core.ahead FOLDER    what the child runs: the list [(module, qualname,
                                       signature)] is pickled in FOLDER/plan
"""

from __future__ import annotations

import gc
import importlib
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager

from numba import typeof

POLL = 0.02  # s between looks at the other process's "done" files
# Objects allocated between two young collections while compiling (few_collections); Python's
# default is 700.
COMPILE_GC_THRESHOLD = 20_000

_lock = threading.Lock()
_plan: Plan | None = None  # the list being compiled on two cores, while it is


class Plan:
    """The listed functions of one cold compile, their claims and "done" files in `folder`, and
    the other process (`alive()`: False once it is gone, so nobody waits on it for ever)."""

    def __init__(self, folder: str, items, alive):
        self.folder = folder
        self.index = {(id(d), sig): i for i, (d, sig) in enumerate(items)}
        self.alive = alive
        self.mine: set[int] = set()  # what this process claimed

    def compile_unclaimed(self, items) -> None:
        """Go through the list, compiling each function the other process has not claimed (one
        that fails to compile, for a signature the kernel does not use say, is passed over)."""
        for i, (dispatcher, sig) in enumerate(items):
            if i in self.mine or self.claim(i):
                try:
                    dispatcher.compile(sig)
                except Exception:  # a mistake in the list costs time, never the run; a real
                    continue  # error in the code is reported by the entry point's own compile

    def claim(self, i: int) -> bool:
        """Whether this process is the first to claim function i."""
        try:
            os.close(os.open(self._file(i, "claim"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            self.mine.add(i)
            return True
        except FileExistsError:
            return False

    def done(self, i: int) -> bool:
        return os.path.exists(self._file(i, "done"))

    def mark_done(self, i: int) -> None:
        open(self._file(i, "done"), "w").close()

    def wait_for(self, i: int) -> None:
        """Until the other process has compiled function i (into the cache), or is gone."""
        while not self.done(i) and self.alive():
            time.sleep(POLL)

    def _file(self, i: int, kind: str) -> str:
        return os.path.join(self.folder, f"{i}.{kind}")


@contextmanager
def compiling(dispatcher, sig):
    """Around jit's compile of `dispatcher` for `sig`: a listed function the other process
    claimed is waited for (the compile then loads it from the cache); one this process claims
    is marked done once compiled and cached."""
    plan = _plan
    i = None if plan is None else plan.index.get((id(dispatcher), tuple(sig)))
    if i is None or plan.done(i):
        yield
        return
    if i not in plan.mine and not plan.claim(i):
        plan.wait_for(i)
        yield
        return
    try:
        yield
    finally:
        plan.mark_done(i)  # even on an error: the other process then meets it for itself


def compile_on_two_cores(entry, args, compile_ahead, after=tuple) -> None:
    """Compile `entry` (a jit dispatcher) for Python arguments `args` (S, R, X first), on two
    cores if it would be compiled cold; nothing when there is nothing to do (plain Python, no
    list, compiled already in this process or in the on-disk cache). `after()`: (function,
    arguments) listed after the game's own (the run folder's Parquet encoder); like the game's
    list, only made on a cold start."""
    global _plan
    if compile_ahead is None or not hasattr(entry, "python_callable"):  # no list, or plain Python
        return
    with _lock:  # a second thread waits here, then finds the entry compiled
        twin = entry.python_callable()
        if _cached(twin):
            return
        items = [(d, _types(a)) for d, a in (*compile_ahead(*args[:3]), *after())]
        folder = tempfile.mkdtemp(prefix="brewbalance_compile_")
        child = None
        try:
            with open(os.path.join(folder, "plan"), "wb") as f:
                pickle.dump([(d.py_func.__module__, d.py_func.__qualname__, sig) for d, sig in items], f)
            child = subprocess.Popen([sys.executable, "-m", "sim.core.ahead", folder],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _plan = Plan(folder, items, lambda: child.poll() is None)  # a dead child's claims are not waited on
            with few_collections():
                _plan.compile_unclaimed(items)
                twin.compile(_types(args))  # waits for the child's functions as it reaches them
        finally:
            _plan = None
            if child is not None:
                if sys.exc_info()[0] is not None:
                    child.kill()
                child.wait()
            shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def few_collections():
    """Python's cyclic garbage collector less often while numba compiles. numba makes millions
    of objects that live until the compile ends, and with the default thresholds a full
    collection walked all of them about 20 times a cold start: Dragon Brew's, 1,000 games,
    spent 3.6 s (this process) and 3.4 s (the child) in full collections, 4.2 and 3.9 s in all
    collections; with COMPILE_GC_THRESHOLD 1.1 and 1.2 s (gc.callbacks, 2026-12-06). The
    thresholds are Python's own again afterwards."""
    before = gc.get_threshold()
    gc.set_threshold(COMPILE_GC_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _types(args) -> tuple:
    return tuple(typeof(a) for a in args)


def _cached(twin) -> bool:
    """Whether an entry point's Python-callable twin is compiled in this process or has a
    compiled form in the on-disk cache (then nothing below it is compiled again)."""
    return bool(twin.overloads) or bool(twin._cache._cache_file._load_index())


def main(folder: str) -> None:
    global _plan
    with open(os.path.join(folder, "plan"), "rb") as f:
        wire = pickle.load(f)
    items = [(getattr(importlib.import_module(module), qualname), sig) for module, qualname, sig in wire]
    parent = os.getppid()
    _plan = Plan(folder, items, lambda: os.getppid() == parent)
    with few_collections():
        _plan.compile_unclaimed(items)


if __name__ == "__main__":  # the plan must be set in sim.core.ahead, the module jit's hook reads
    importlib.import_module("sim.core.ahead").main(sys.argv[1])
