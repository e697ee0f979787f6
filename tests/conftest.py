"""Suite-wide set-up: compile the games in a second process while the first tests run.

The suite runs in one process, so during a game's cold compile (one to four minutes, on one
core) the second core of a small machine would sit idle. `Warmer` (sim/core/warm.py) compiles
the games there, the slowest first, into the same on-disk cache the tests then load from."""

from sim.core.warm import Warmer

WARM_ORDER = ["dragon_brew", "homebrewers", "brewin_usa", "dwarfest"]  # slowest compile first (bench/profile.py)
_warmer = None


def pytest_sessionstart(session):
    global _warmer
    _warmer = Warmer(WARM_ORDER)


def pytest_sessionfinish(session, exitstatus):
    if _warmer is not None:
        _warmer.stop()
