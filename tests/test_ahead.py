"""A cold compile on two cores (sim/core/ahead.py): a function the other process claimed is waited
for, never compiled twice; a dead process is not waited on; each game's list names the
signatures its kernel really compiles; and a cold start shares the list between both processes."""

import gc
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sim.core import ahead
from sim.core.jit import PLAIN_PYTHON
from sim.registry import get_game

GAMES = [g for g in ("brewin_usa", "dragon_brew", "dwarfest", "homebrewers") if get_game(g).compile_ahead is not None]


class Function:
    """Stands for a jit dispatcher: the hook looks only at its identity."""


@pytest.fixture
def plan(tmp_path):
    """A plan of one function whose other process is alive until the test says otherwise."""
    state = {"alive": True}
    function = Function()
    p = ahead.Plan(str(tmp_path), [(function, ("int64",))], lambda: state["alive"])
    ahead._plan = p
    yield p, function, state
    ahead._plan = None


def test_a_function_the_other_process_claimed_is_compiled_only_once_it_is_done(plan, tmp_path):
    p, function, _ = plan
    (tmp_path / "0.claim").touch()  # the other process claimed it first
    threading.Timer(0.2, lambda: (tmp_path / "0.done").touch()).start()
    with ahead.compiling(function, ("int64",)):
        assert p.done(0)  # this compile only loads the other's result from the cache
    assert 0 not in p.mine


def test_a_function_nobody_claimed_is_claimed_and_marked_done_after_its_compile(plan):
    p, function, _ = plan
    with ahead.compiling(function, ("int64",)):
        assert 0 in p.mine and not p.done(0)
    assert p.done(0)


def test_a_failed_compile_is_marked_done_so_the_other_process_does_not_wait_for_ever(plan):
    p, function, _ = plan
    with pytest.raises(ValueError), ahead.compiling(function, ("int64",)):
        raise ValueError("a typing error")
    assert p.done(0)


def test_a_dead_process_is_not_waited_on(plan, tmp_path):
    p, function, state = plan
    (tmp_path / "0.claim").touch()
    state["alive"] = False  # it died holding its claim: this process compiles the function itself
    with ahead.compiling(function, ("int64",)):
        assert not p.done(0)


def test_another_signature_of_a_listed_function_is_compiled_as_usual(plan):
    p, function, _ = plan
    with ahead.compiling(function, ("float64",)):
        assert 0 not in p.mine


class Compiled:
    """Stands for a listed dispatcher: records its compiles, or fails like a mistaken signature."""

    def __init__(self, fails=False):
        self.fails, self.compiled = fails, []

    def compile(self, sig):
        if self.fails:
            raise TypeError("Signature mismatch: 4 argument types given, but function takes 5 arguments")
        self.compiled.append(sig)


def test_a_listed_function_that_fails_to_compile_does_not_stop_the_others(tmp_path):
    wrong, right = Compiled(fails=True), Compiled()
    items = [(wrong, ("int64",)), (right, ("int64",))]
    ahead.Plan(str(tmp_path), items, lambda: True).compile_unclaimed(items)
    assert right.compiled == [("int64",)]


def test_a_function_the_other_process_claimed_is_left_to_it(tmp_path):
    first, second = Compiled(), Compiled()
    items = [(first, ("int64",)), (second, ("int64",))]
    (tmp_path / "0.claim").touch()
    ahead.Plan(str(tmp_path), items, lambda: True).compile_unclaimed(items)
    assert first.compiled == [] and second.compiled == [("int64",)]


def test_few_collections_raises_the_young_threshold_and_restores_python_s_own():
    before = gc.get_threshold()
    with ahead.few_collections():
        assert gc.get_threshold() == (ahead.COMPILE_GC_THRESHOLD, *before[1:])
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), ahead.few_collections():
        raise RuntimeError("a failed compile")
    assert gc.get_threshold() == before


def test_few_collections_collects_less_often_while_objects_pile_up():
    def young_collections():
        counted = []

        def note(phase, info):
            if phase == "start" and info["generation"] == 0:
                counted.append(1)
        gc.callbacks.append(note)
        try:
            kept = [[i] for i in range(100_000)]  # 100,000 objects that live on, as a compile's do
        finally:
            gc.callbacks.remove(note)
        del kept
        return len(counted)

    plain = young_collections()
    with ahead.few_collections():
        fewer = young_collections()
    assert fewer * 10 < plain


SCRIPT = """
import sys
import numba
from sim.core.config import prepare
from sim.registry import get_game
game_id = sys.argv[1]
game = get_game(game_id)
config = game.build(prepare(game_id, "base", [], []))
game.simulate(config, 7, 0, 20, [4], ["greedy"])
R, X = game.kernel_inputs(config, game.check_options(config, [4], None))
for d, args in game.compile_ahead(game.new_state(config, 1), R, X):
    sig = tuple(map(numba.typeof, args))
    cached = {key[0] for key in d._cache._cache_file._load_index()}  # compiled by either process
    print(d.py_func.__qualname__, d._cache_hits[sig], d._cache_misses[sig], cached == {sig})
"""


@pytest.mark.skipif(PLAIN_PYTHON, reason="nothing is compiled in plain-Python mode")
@pytest.mark.parametrize("game_id", GAMES)
def test_a_cold_start_shares_the_list_between_the_two_processes(game_id, tmp_path):
    """A greedy run into an empty cache: no listed function is compiled in this process and also
    loaded from the cache (compiled by the child), and each process compiled some (a function
    whose callers were all loaded is not even loaded). The listed signature is the only one
    either process compiled of the function (numba's on-disk index of it): one the kernel did
    not ask for would have been compiled for nothing, and the one it asked for compiled again."""
    env = {**os.environ, "BREWBALANCE_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, game_id], capture_output=True, text=True, timeout=900,
                          env=env, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    assert rows and all(only == "True" for *_, only in rows), done.stdout
    counts = [(int(hits), int(misses)) for _, hits, misses, _ in rows]
    assert all(hits + misses <= 1 for hits, misses in counts), done.stdout
    assert any(hits for hits, _ in counts) and any(misses for _, misses in counts), done.stdout
