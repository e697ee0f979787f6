"""The games brewbalance knows. Add a game here once its module exists."""

from sim.core.errors import UsageError, choices


def games() -> dict:
    from sim.brewin_usa import GAME as brewin_usa
    from sim.dragon_brew import GAME as dragon_brew
    from sim.dwarfest import GAME as dwarfest
    from sim.homebrewers import GAME as homebrewers

    return {g.id: g for g in (dwarfest, brewin_usa, homebrewers, dragon_brew)}


def get_game(game_id: str):
    known = games()
    if game_id not in known:
        raise UsageError(f"unknown game '{game_id}'; choose from {choices(sorted(known))}")
    return known[game_id]
