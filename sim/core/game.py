"""What every game module provides to the runner, the CLI and replay.

A game is a module under sim/ with the same file set (constants, data, state, rules,
policies, kernel, replay) and an object `GAME` implementing this interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import polars as pl

from .config import GameData


@dataclass
class Shard:
    """One shard's tables, ready to write: {"games": df, "players": df, "events": df}."""

    frames: dict[str, pl.DataFrame]


class Game(Protocol):
    id: str
    title: str
    player_counts: tuple[int, ...]  # legal player counts
    default_players: tuple[int, ...]  # what `simulate` plays when --players is not given

    def build(self, data: GameData) -> Any:
        """Validate the data tree and compile it into kernel inputs (raises BrewError)."""

    def policies(self, config: Any) -> list[str]: ...

    def factions(self, config: Any) -> list[str]: ...

    def variants(self, data: GameData) -> list[str]: ...

    def simulate(self, config: Any, seed: int, first_game: int, n_games: int,
                 player_counts: list[int], policies: list[str], progress=None, check=False) -> Shard:
        """Play games first_game..first_game+n_games-1; `progress(k)` after each k games.
        With `check`, assert the game's invariants after every phase (InvariantViolation).
        Games with factions may also take `options: dict | None = None` ({"factions": [...] to limit
        the pool, "lineup": [...] to fix the seats}); the runner passes it only when it is set."""

    def replay(self, config: Any, seed: int, game_id: int, player_counts: list[int],
               policies: list[str]) -> list[str]:
        """A readable turn-by-turn log of one game."""

    def manifest_extras(self, config: Any) -> dict:
        """Estimates, card names and anything the analysis needs to know about the data."""
