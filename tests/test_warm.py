"""Compiling games ahead in a child process (sim/core/warm.py): the parent waits for exactly the
games it handed over, and a child that fails never blocks it."""

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
