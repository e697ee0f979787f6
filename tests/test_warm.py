"""Compiling games ahead in a child process (sim/core/warm.py): the parent waits for exactly the
games it handed over, and a child that fails never blocks it."""

import subprocess
import sys
from pathlib import Path

from sim.core.warm import Warmer


def test_waiting_for_a_game_the_child_compiles_returns_once_it_is_done():
    warmer = Warmer(["dwarfest"])
    try:
        warmer.wait_for("dwarfest")
        assert warmer.pending == []
        assert warmer.proc.wait(timeout=60) == 0  # it printed the game, then ended normally
    finally:
        warmer.stop()


def test_the_game_being_compiled_is_the_first_not_yet_done():
    warmer = Warmer(["dwarfest", "brewin_usa"])
    try:
        assert warmer.compiling == "dwarfest"
        warmer.wait_for("dwarfest")
        assert warmer.compiling == "brewin_usa"
        warmer.stop()
        warmer.wait_for("brewin_usa")  # the child is gone: nothing is being compiled any more
        assert warmer.compiling is None
    finally:
        warmer.stop()


def test_a_game_not_handed_over_is_not_waited_for():
    warmer = Warmer(["dwarfest"])
    try:
        warmer.wait_for("brewin_usa")
        assert warmer.pending == ["dwarfest"]  # nothing read from the child: no wait
    finally:
        warmer.stop()


def test_a_child_that_fails_does_not_block_the_parent():
    warmer = Warmer(["no_such_game", "dwarfest"])
    try:
        warmer.wait_for("dwarfest")  # the child stopped at the unknown game: the parent compiles
        assert warmer.pending == []
        assert warmer.proc.wait(timeout=60) != 0
    finally:
        warmer.stop()


def test_warming_without_search_compiles_only_the_kernel_without_search():
    """What `brewbalance demo` hands the child (greedy bots only): the search bot's kernel, about
    half of a game's cold compile, is left for a run that needs it."""
    script = ("from sim.core.warm import warm; import sim.dwarfest.kernel as K; warm('dwarfest', search=False); "
              "print(*(len(k.python_callable().signatures) for k in (K.run_chunk, K.run_chunk_without_search)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "1"]
