"""What every game module provides to the runner, the CLI and replay.

A game is a module under sim/ with the same file set (constants, data, state, rules,
policies, kernel, replay) and an object `GAME` implementing this interface.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import polars as pl

from . import ahead, parquet, treatment
from .config import GameData
from .errors import (
    STATUS_FULL,
    STATUS_OVERFLOW,
    STATUS_VIOLATION,
    BrewError,
    UsageError,
    choices,
    raise_for_chunk,
)
from .frames import POOL, Columns, pooled_like, pooled_rows
from .rounds import ROUNDS
from .rows import restore_game_ids

CHUNK = 8192  # games per kernel call: bounds memory and sets progress granularity
# A kernel call's event buffer, and its rounds buffer, hold at most about this many bytes of
# rows (GameBase.buffer_rows). Each call's buffers come from the tables' memory pool and are
# held until their shard is written (play_chunks), so this bounds the memory of a call's rows
# as well as its cache footprint. Dwarfest with 2, 1 or 0.5 MiB cost more, not less (a kernel
# call costs about 1 ms beside its rows; docs/performance.md, 2026-12-07, measured when the
# rows were still copied out of one buffer a thread).
BUFFER_BYTES = 9 << 20


@dataclass
class Shard:
    """One shard's tables, ready to write: {"games", "players", "events", "rounds"} -> Columns
    (sim/core/frames.py)."""

    tables: dict[str, Columns]

    @property
    def frames(self) -> dict[str, pl.DataFrame]:
        """The tables as polars DataFrames (built on each call: the run's path never needs them)."""
        return {name: table.frame() for name, table in self.tables.items()}


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
    """What every game's wrapper does the same way: its variants come from variants.toml, its
    bots from policies.toml (`config.policy_ids`), and a shard is played by the game's compiled
    `run_chunk` (sim/core/driver.py) into the tables its `schema` module declares
    (sim/core/schema.py). A game supplies, besides build and manifest_extras (and factions,
    when it has any):

    * `schema`: its schema module (GAMES, PLAYERS, EVENTS tables);
    * `run_chunk`: its compiled entry point (a staticmethod);
    * with a search bot, `run_chunk_without_search`, the same entry point with the search bot's
      code left out, and `search_policies(config)`: a run none of whose bots searches plays on
      it, so it compiles only what it runs (the search bot's rollouts replay the whole game:
      leaving them out halves the cold compile of three of the four games);
    * optionally `compile_ahead(S, R, X)`: its big compiled functions with arguments of the
      types its kernel passes them, which a cold start compiles on two cores (sim/core/ahead.py);
    * `kernel_inputs(config, options) -> (R, X)`: the rules arrays and any further run inputs;
    * `new_state(config, n_games, trace_rows=1)`: the state buffers of one shard, its event and
      rounds buffers of `buffer_rows(config, n_games)` rows;
    * `per_game_bounds(config) -> (event rows, rounds rows)`: most rows one game can write;
    * `labels(config)`: the labels of the Enum columns of its tables, by column name.
    """

    id: str
    player_counts: tuple[int, ...]
    schema: Any
    run_chunk: Any
    run_chunk_without_search: Any = None  # None: the game has no search bot
    compile_ahead: Any = None  # (S, R, X) -> [(jit function, arguments)]: see sim/core/ahead.py

    def search_policies(self, config: Any) -> set[str]:
        """The ids of the bots that search (policy kind "search"), from the config's
        `policy_kind` codes into the game's constants.POLICY_KINDS (a game that keeps its bots
        otherwise says so itself)."""
        kinds = self.constants.POLICY_KINDS
        return {p for p, k in zip(config.policy_ids, config.policy_kind, strict=True) if kinds[k] == "search"}

    def kernel_for(self, config: Any, policies: list[str]):
        """The compiled entry point a run of these bots plays on: the one without the search
        bot's code when no bot of the run searches (the same games: tests/test_kernels.py)."""
        if self.run_chunk_without_search is None or set(policies) & self.search_policies(config):
            return self.run_chunk
        return self.run_chunk_without_search

    def check_player_counts(self, player_counts) -> None:
        for k in player_counts:
            if k not in self.player_counts:
                raise UsageError(f"{self.id} plays {self.player_counts[0]}-{self.player_counts[-1]} players, not {k}")

    def factions(self, config: Any) -> list[str]:
        """Games with races or characters list them; the others have the one faction "none"."""
        return ["none"]

    def check_options(self, config: Any, player_counts, options: dict | None) -> dict:
        """Games with factions check --factions/--lineup here (and call this for the rest);
        every game checks a treatment (sim/core/treatment.py) against `treatable`."""
        return treatment.check(self.treatable(config), dict(options or {}))

    def treatable(self, config: Any) -> dict[str, list[str]]:
        """What a treatment can target: {"inject": card ids, "remove": card ids, "power_off":
        faction ids}; a kind missing (or empty) is not available in this game."""
        return {}

    def treatment_notes(self) -> dict[str, str]:
        """What each treatment kind does in this game, in a designer's words (for the reports)."""
        return {}

    def simulate(self, config, seed, first_game, n_games, player_counts, policies, progress=None,
                 check=False, options=None) -> Shard:
        state, games, players, wins, run, blocks = self._kernel_run(config, seed, n_games, player_counts,
                                                                    policies, options, check)
        labels = self.labels(config)
        chunks = []  # (events, rounds) Columns of each kernel call: views of its pooled buffers
        prow = self.play_chunks(state, self.constants, self.violations, seed, first_game, n_games, progress,
                                lambda S, done, todo, prow: run(S, first_game + done, todo, done, prow),
                                lambda events, rounds, blocks, first, k: chunks.append(
                                    self.chunk_tables(labels, events, rounds, blocks, first, k)))
        tables = self.tables(labels, games, players[:prow], wins[:prow])
        POOL.give(blocks)  # the tables are copies of the games and players rows
        tables["events"] = Columns.concat([ev for ev, _ in chunks])
        tables["rounds"] = Columns.concat([rnd for _, rnd in chunks])
        return Shard(tables)

    def play_traced(self, config, seed: int, game_id: int, player_counts, policies, options=None,
                    trace_rows: int = 20000):
        """Play one game with its replay trace kept (for `replay`): returns the state after the
        game and the game's players rows (columns by `schema.PLAYERS.at`)."""
        state, _, players, _, run, _ = self._kernel_run(config, seed, 1, player_counts, policies, options, False,
                                                     trace_rows)
        done, rows, _, _ = run(state, game_id, 1, 0, 0)
        if done != 1:
            raise BrewError(f"replay of game {game_id} overflowed its buffers")
        return state, players[:rows]

    def _kernel_run(self, config, seed, n_games, player_counts, policies, options, check, trace_rows=1):
        """The state and output buffers for n_games, and `run(S, game_id, todo, at_game, at_row)`:
        one kernel call on state S (the state, or a copy of it with other event and rounds
        buffers) playing games game_id.. into the buffers from game row at_game and player row
        at_row, returning the kernel's (games played, player rows, event rows, status); and the
        pool's blocks the games and players rows lie in."""
        self.check_player_counts(player_counts)
        R, X = self.kernel_inputs(config, self.check_options(config, player_counts, options))
        pols = self.policy_indices(config, policies)
        counts = np.array(player_counts, np.int64)
        events_max, rounds_max = self.per_game_bounds(config)
        state = self.new_state(config, n_games, trace_rows)
        kernel = self.kernel_for(config, policies)
        most = max(player_counts)  # player rows: at most this many a game
        games, games_block = pooled_rows(n_games, self.schema.GAMES.width)
        players, players_block = pooled_rows(n_games * most, self.schema.PLAYERS.width)
        wins = np.zeros(n_games * most, np.float64)

        def arguments(S, game_id, todo, at_game, at_row):
            return (S, R, X, np.uint64(seed), game_id, todo, counts, pols, games[at_game:], players[at_row:],
                    wins[at_row:], events_max, rounds_max, check)

        ahead.compile_on_two_cores(kernel, arguments(state, 0, 1, 0, 0), self.compile_ahead,  # a cold start only
                                   parquet.compile_ahead)

        def run(S, game_id, todo, at_game, at_row):
            return kernel(*arguments(S, game_id, todo, at_game, at_row))

        return state, games, players, wins, run, (games_block, players_block)

    def tables(self, labels, games, players, wins) -> dict[str, Columns]:
        """Kernel rows -> the games and players tables, by the column names of the game's
        schema. String columns are Enums kept as their codes, so no per-row string is ever
        built."""
        return {"games": self.schema.GAMES.columns_of(games, labels),
                "players": self.schema.PLAYERS.columns_of(players, labels, given={"win": wins})}

    def chunk_tables(self, labels, events, rounds, blocks, first_game: int, n_games: int) -> tuple[Columns, Columns]:
        """One kernel call's event and rounds rows, of games first_game .. first_game +
        n_games - 1, in the pool's `blocks` (events', rounds') -> their tables, whose columns
        are views of the rows (Table.column_views): the blocks are the tables' until written."""
        tables = (self.schema.EVENTS.column_views(events, labels, blocks[0]),
                  ROUNDS.column_views(rounds, {}, blocks[1]))
        for table in tables:
            table.parts["game_id"][0] = restore_game_ids(table.parts["game_id"][0], first_game, n_games)
        return tables

    def buffer_rows(self, config: Any, n_games: int) -> tuple[int, int]:
        """Rows of one thread's event and rounds buffers (int32, rows.column_buffer): room for
        every game of a kernel call at its bound (`per_game_bounds`), or BUFFER_BYTES' worth of
        rows if that is less, plus one game at its bound. The driver ends a call early when
        less than a game's bound is left (driver.play_chunk) and the next call goes on, so a
        smaller buffer means more calls, never fewer rows."""
        games = min(CHUNK, max(n_games, 1))
        widths = (self.schema.EVENTS.width, ROUNDS.width)
        return tuple(min(games * bound, BUFFER_BYTES // (4 * width)) + bound
                     for bound, width in zip(self.per_game_bounds(config), widths, strict=True))

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

    def play_chunks(self, state, C, violations, seed: int, first_game: int, n_games: int, progress, run, keep):
        """Drive a numba game's kernel over one shard, CHUNK games per call.

        `run(S, done, todo, prow)` plays up to `todo` games from shard offset `done` on state S,
        writing player rows from `prow`, and returns the kernel's (games played, player rows,
        event rows, status). Each call writes its event and rounds rows into buffers of its own,
        from the pool (frames.pooled_like: the state's shapes, not its memory), so a call's rows
        become its tables without a copy: after the call, `keep(events, rounds, blocks, first,
        k)` gets its rows, the pool's blocks they lie in, and its games' ids (first .. first +
        k - 1); whoever keeps the rows gives the blocks back (Columns.release). A full event or
        rounds buffer
        (STATUS_FULL) just ends the call early; an overflow or an invariant violation raises.
        `C` is the game's constants module (G_VIOLATION, G_PHASE, G_ROUNDS, PHASES). Returns the
        player rows written."""
        done, prow = 0, 0
        while done < n_games:
            (ev, ev_block), (rnd, rnd_block) = pooled_like(state.ev), pooled_like(state.rnd)
            S = state._replace(ev=ev, rnd=rnd)
            k, rows, ev_rows, status = run(S, done, min(CHUNK, n_games - done), prow)
            # a full buffer that held no game cannot hold one: a bug, not a reason to loop
            stuck = status == STATUS_FULL and k == 0
            raise_for_chunk(self.id, seed, first_game + done + k, status == STATUS_OVERFLOW or stuck,
                            status == STATUS_VIOLATION, violations[state.g[C.G_VIOLATION]],
                            C.PHASES[state.g[C.G_PHASE]])
            keep(ev[:ev_rows], rnd[:state.g[C.G_ROUNDS]], (ev_block, rnd_block), first_game + done, k)
            done += k
            prow += rows
            if progress is not None:
                progress(k)
        return prow
