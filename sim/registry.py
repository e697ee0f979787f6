"""The games brewbalance knows. Add a game here once its module exists.

Each game's package is imported only when that game is asked for: a package defines hundreds
of compiled functions, and importing all four cost every command that plays or replays one
game about 0.5 s (python -X importtime) for the three games it does not touch.
"""

import importlib

from sim.core.errors import UsageError, choices

# game id -> the package that defines its GAME, in the order games are listed and demoed
_PACKAGES = {"dwarfest": "sim.dwarfest", "brewin_usa": "sim.brewin_usa",
             "homebrewers": "sim.homebrewers", "dragon_brew": "sim.dragon_brew"}


def game_ids() -> list[str]:
    """Every game id, without importing any game."""
    return list(_PACKAGES)


def games() -> dict:
    """Every game, by id (imports all four)."""
    return {gid: _load(gid) for gid in _PACKAGES}


def get_game(game_id: str):
    if game_id not in _PACKAGES:
        raise UsageError(f"unknown game '{game_id}'; choose from {choices(sorted(_PACKAGES))}")
    return _load(game_id)


def _load(game_id: str):
    return importlib.import_module(_PACKAGES[game_id]).GAME
