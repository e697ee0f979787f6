"""What every game module provides to the runner, the CLI and replay.

A game is a module under sim/ with the same file set (constants, data, state, rules,
policies, kernel, replay) and an object `GAME` implementing this interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import polars as pl

from .config import GameData
from .errors import STATUS_OVERFLOW, STATUS_VIOLATION, UsageError, choices, raise_for_chunk
from .rounds import rounds_frame

CHUNK = 8192  # games per kernel call: bounds memory and sets progress granularity


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
                 player_counts: list[int], policies: list[str], progress=None, check=False,
                 options: dict | None = None) -> Shard:
        """Play games first_game..first_game+n_games-1; `progress(k)` after each k games.
        With `check`, assert the game's invariants after every phase (InvariantViolation).
        `options` (optional; only games with factions take it, and only when given): e.g.
        {"factions": [...]} limits the faction pool, {"lineup": [...]} fixes the seats."""

    def replay(self, config: Any, seed: int, game_id: int, player_counts: list[int],
               policies: list[str], options: dict | None = None) -> list[str]:
        """A readable turn-by-turn log of one game."""

    def manifest_extras(self, config: Any) -> dict:
        """Estimates, card names and anything the analysis needs to know about the data."""


class GameBase:
    """What every game's wrapper does the same way: its variants come from variants.toml and
    its bots from policies.toml (`config.policy_ids`)."""

    id: str

    def policies(self, config: Any) -> list[str]:
        return list(config.policy_ids)

    def variants(self, data: GameData) -> list[str]:
        return list(data.tree.get("variants", {}).get("variant", {}))

    def policy_indices(self, config: Any, policies: list[str]) -> np.ndarray:
        """Bot names -> their codes in the data, with a clear error for an unknown name."""
        for p in policies:
            if p not in config.policy_ids:
                raise UsageError(f"unknown policy '{p}' for {self.id}; choose from {choices(config.policy_ids)}")
        return np.array([config.policy_ids.index(p) for p in policies], np.int64)

    def play_chunks(self, state, C, violations, seed: int, first_game: int, n_games: int, progress, run):
        """Drive a numba game's kernel over one shard, CHUNK games per call.

        `run(done, todo, prow)` plays up to `todo` games from shard offset `done`, writing player
        rows from `prow`, and returns the kernel's (games played, player rows, event rows, status).
        A full event or rounds buffer (STATUS_FULL) just ends the call early; an overflow or an
        invariant violation raises. `C` is the game's constants module (G_VIOLATION, G_PHASE,
        G_ROUNDS, PHASES). Returns (event rows, rounds frame, player rows written)."""
        events, rounds, done, prow = [], [], 0, 0
        while done < n_games:
            k, rows, ev_rows, status = run(done, min(CHUNK, n_games - done), prow)
            raise_for_chunk(self.id, seed, first_game + done + k, status == STATUS_OVERFLOW,
                            status == STATUS_VIOLATION, violations[state.g[C.G_VIOLATION]],
                            C.PHASES[state.g[C.G_PHASE]])
            events.append(state.ev[:ev_rows].copy())
            rounds.append(state.rnd[:state.g[C.G_ROUNDS]].copy())
            done += k
            prow += rows
            if progress is not None:
                progress(k)
        ev = np.concatenate(events) if events else np.zeros((0, 7), np.int64)
        rnd = np.concatenate(rounds) if rounds else np.zeros((0, 4), np.int64)
        return ev, rounds_frame(rnd), prow
