"""Suite-wide set-up: compile the games in a second process while the first tests run.

The suite runs in one process, so during a game's cold compile (one to four minutes, on one
core) the second core of a small machine would sit idle. `Warmer` (sim/core/warm.py) compiles
the games there into the same on-disk cache the tests then load from."""

from pathlib import Path

import pytest

from sim.core.warm import Warmer

EXAMPLE = Path(__file__).resolve().parents[1] / "sim" / "examples"

# Dwarfest, which the first test files play, is compiled here; meanwhile the child compiles the
# other games in the order their own test files come (test files run alphabetically).
WARM_ORDER = ["brewin_usa", "dragon_brew", "homebrewers"]
_warmer = None


def pytest_sessionstart(session):
    """Only for the whole suite (`pytest` with no paths, as `make test` runs it): a run of a few
    test files compiles just the games those need, in this process."""
    global _warmer
    if session.config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        _warmer = Warmer(WARM_ORDER)


def pytest_runtest_setup(item):
    """A test of a game's own files (test_<game>_*.py) waits for that game if the child is
    compiling it, rather than compile the same game at the same time. Only those files: a test
    that merely names a game (a SQL file's id, say) must not sit idle while the child works."""
    game = _warmer.compiling if _warmer is not None else None
    if game is not None and item.path.name.startswith(f"test_{game}_"):
        _warmer.wait_for(game)


def pytest_sessionfinish(session, exitstatus):
    if _warmer is not None:
        _warmer.stop()


@pytest.fixture
def toy(monkeypatch):
    """Dice Race (the toy game of docs/adding_a_game.md) registered as a fifth game, its data
    folder as the data root; returns its built config."""
    import sim.registry as registry
    from sim.core.config import prepare
    from sim.examples.dice_race import GAME

    monkeypatch.setenv("BREWBALANCE_DATA", str(EXAMPLE / "data"))
    monkeypatch.setitem(registry._PACKAGES, GAME.id, "sim.examples.dice_race")
    return GAME.build(prepare(GAME.id, "base", [], []))
