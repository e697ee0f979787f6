"""Suite-wide set-up: compile the games in a second process while the first tests run.

The suite runs in one process, so during a game's cold compile (one to four minutes, on one
core) the second core of a small machine would sit idle. `Warmer` (sim/core/warm.py) compiles
the games there into the same on-disk cache the tests then load from."""

import pytest

from sim.core.warm import Warmer

# The games after the first, in the order the suite first needs them: test files run
# alphabetically, and the first to play a game (test_arms_resume, Dwarfest) compiles it here
# while the child compiles Brewin' USA, then Dragon Brew, then Homebrewers.
WARM_ORDER = ["brewin_usa", "dragon_brew", "homebrewers"]
_warmer = None


def pytest_sessionstart(session):
    """Only for the whole suite (`pytest` with no paths, as `make test` runs it): a run of a few
    test files compiles just the games those need, in this process."""
    global _warmer
    if session.config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        _warmer = Warmer(WARM_ORDER)


def pytest_runtest_setup(item):
    """A test named after the game the child is compiling waits for it rather than compile the
    same game at the same time (a game a test reaches another way is compiled here, as before)."""
    if _warmer is not None and _warmer.compiling is not None and _warmer.compiling in item.nodeid:
        _warmer.wait_for(_warmer.compiling)


def pytest_sessionfinish(session, exitstatus):
    if _warmer is not None:
        _warmer.stop()
