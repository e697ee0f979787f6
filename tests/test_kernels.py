"""Each game's two compiled entry points (sim/core/game.GameBase.kernel_for): a run with no
search bot plays on `run_chunk_without_search`, which leaves the search bot's code out of the
compile. It must play exactly the games `run_chunk` plays for those bots, and a run with a
search bot must never land on it."""

import pytest

from sim.core.config import prepare
from sim.registry import get_game

SEARCHING_GAMES = ["brewin_usa", "dragon_brew", "dwarfest", "homebrewers"]


def setup_of(game_id):
    game = get_game(game_id)
    config = game.build(prepare(game_id, "base", [], []))
    scripted = [p for p in game.policies(config) if p not in game.search_policies(config)]
    return game, config, scripted


@pytest.mark.parametrize("game_id", SEARCHING_GAMES)
def test_every_game_with_a_search_bot_names_it_and_keeps_other_bots(game_id):
    game, config, scripted = setup_of(game_id)
    assert game.search_policies(config) == {"search"}
    assert "greedy" in scripted and "random" in scripted


@pytest.mark.parametrize("game_id", SEARCHING_GAMES)
def test_a_run_plays_without_search_exactly_when_none_of_its_bots_searches(game_id):
    game, config, scripted = setup_of(game_id)
    assert game.kernel_for(config, scripted) is game.run_chunk_without_search
    assert game.kernel_for(config, ["greedy"]) is game.run_chunk_without_search
    assert game.kernel_for(config, ["greedy", "search"]) is game.run_chunk
    assert game.kernel_for(config, ["search"]) is game.run_chunk


def test_a_game_without_a_search_bot_has_one_kernel():
    from sim.examples.dice_race import GAME

    assert GAME.run_chunk_without_search is None
    assert GAME.kernel_for(None, ["random"]) is GAME.run_chunk


@pytest.mark.parametrize("game_id", SEARCHING_GAMES)
def test_the_kernel_without_search_plays_the_same_games(game_id, monkeypatch):
    """Every non-search bot at every player count, invariants checked: the tables of the two
    kernels are identical row for row."""
    game, config, scripted = setup_of(game_id)
    counts = list(game.player_counts)
    without = game.simulate(config, 31, 0, 12 * len(counts), counts, scripted, check=True)
    monkeypatch.setattr(game, "run_chunk_without_search", None)  # kernel_for falls back to run_chunk
    assert game.kernel_for(config, scripted) is game.run_chunk
    every = game.simulate(config, 31, 0, 12 * len(counts), counts, scripted, check=True)
    for table in ("games", "players", "events", "rounds"):
        assert without.frames[table].height > 0
        assert without.frames[table].equals(every.frames[table]), table
