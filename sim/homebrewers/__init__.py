"""Homebrewers: dice trading, brewing and judged festivals, 2-5 players (rules in rules.py).

Public wrapper around the compiled kernel: builds the data, runs shards of games into column
arrays and hands them to the run writer as polars DataFrames.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.core.config import GameData
from sim.core.errors import UsageError, choices
from sim.core.frames import enum_column
from sim.core.game import CHUNK, GameBase, Shard
from sim.core.schedule import lineup_rotates

from . import constants as C
from .data import HomebrewersConfig, build_config
from .invariants import VIOLATIONS
from .kernel import N_GAME_COLS, N_PLAYER_COLS, run_chunk
from .state import make_rules, make_state

EVENTS_PER_GAME = 1200  # bound on event rows one game writes (8 months x 5 players x ~30)



def faction_arrays(config: HomebrewersConfig, options: dict | None):
    """(pool, lineup, rotate) for the kernel from options {'factions': [...], 'lineup': [...],
    'seats': 'fixed'}; lineup [-1] draws from the pool."""
    options = options or {}
    pool = list(range(C.N_CHARACTERS))
    lineup = [-1]
    if options.get("factions"):
        names = list(options["factions"])
        for f in names:
            if f not in C.CHARACTERS:
                raise UsageError(f"unknown character '{f}'; choose from {choices(C.CHARACTERS)}")
        pool = [C.CHARACTERS.index(f) for f in dict.fromkeys(names)]
    if options.get("lineup"):
        names = list(options["lineup"])
        for f in names:
            if f not in C.CHARACTERS:
                raise UsageError(f"unknown character '{f}'; choose from {choices(C.CHARACTERS)}")
        lineup = [C.CHARACTERS.index(f) for f in names]
    return np.array(pool, np.int64), np.array(lineup, np.int64), lineup_rotates(options)


class Homebrewers(GameBase):
    id = "homebrewers"
    title = "Homebrewers"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)

    def build(self, data: GameData) -> HomebrewersConfig:
        return build_config(data)

    def factions(self, config: HomebrewersConfig) -> list[str]:
        return ["standard"] if config.standard else list(C.CHARACTERS)

    def check_counts(self, player_counts, options):
        for k in player_counts:
            if k not in self.player_counts:
                raise UsageError(f"homebrewers plays {self.player_counts[0]}-{self.player_counts[-1]} players, not {k}")
        pool, lineup, _ = faction_arrays(None, options)
        if lineup[0] < 0 and len(pool) < max(player_counts):
            raise UsageError(f"--factions lists {len(pool)} characters, fewer than {max(player_counts)} players")

    def simulate(self, config, seed, first_game, n_games, player_counts, policies, progress=None,
                 check=False, options=None) -> Shard:
        self.check_counts(player_counts, options)
        pool, lineup, rotate = faction_arrays(config, options)
        rules = make_rules(config)
        pols = self.policy_indices(config, policies)
        counts = np.array(player_counts, np.int64)
        state = make_state(min(CHUNK, max(n_games, 1)) * 160 + EVENTS_PER_GAME,  # a full chunk stops early and resumes
                           rounds_capacity=min(CHUNK, max(n_games, 1)) * C.MAX_PLAYERS * C.MONTHS)
        games = np.zeros((n_games, N_GAME_COLS), np.int64)
        players = np.zeros((n_games * C.MAX_PLAYERS, N_PLAYER_COLS), np.int64)
        wins = np.zeros(n_games * C.MAX_PLAYERS, np.float64)

        def run(done, todo, prow):  # one kernel call; play_chunks does the rest
            return run_chunk(state, rules, np.uint64(seed), first_game + done, todo, counts, pols,
                             games[done:], players[prow:], wins[prow:], EVENTS_PER_GAME, check, pool, lineup,
                             rotate)

        ev, rounds, prow = self.play_chunks(state, C, VIOLATIONS, seed, first_game, n_games, progress, run)
        frames = self.frames(config, games, players[:prow], wins[:prow], ev)
        frames["rounds"] = rounds
        return Shard(frames)

    def card_names(self, config) -> list[str]:
        return list(config.card_ids) + list(C.SPECIAL_CARDS)

    def frames(self, config, games, players, wins, events) -> dict[str, pl.DataFrame]:
        g = pl.DataFrame({
            "game_id": games[:, 0],
            "n_players": games[:, 1].astype(np.int8),
            "rounds": games[:, 2].astype(np.int16),
            "decisions": games[:, 3].astype(np.int32),
            "end_reason": enum_column(C.END_REASONS, games[:, 4]),
            "n_winners": games[:, 5].astype(np.int8),
            "trades": games[:, 6].astype(np.int16),
        })
        p_cols = {
            "game_id": players[:, 0],
            "seat": players[:, 1].astype(np.int8),
            "faction": enum_column(C.FACTIONS, players[:, 5]),
            "policy": enum_column(config.policy_ids, players[:, 2]),
            "score": players[:, 3].astype(np.int32),
            "rank": players[:, 4].astype(np.int8),
            "win": wins,
            "money": players[:, 6].astype(np.int16),
            "reputation": players[:, 7].astype(np.int32),
        }
        for k, name in enumerate(C.PLAYER_STATS):
            p_cols[name] = players[:, 8 + k].astype(np.int16)
        e = pl.DataFrame({
            "game_id": events[:, 0],
            "seat": events[:, 1].astype(np.int8),
            "round": events[:, 2].astype(np.int8),
            "card": enum_column(self.card_names(config), events[:, 3]),
            "kind": enum_column(C.LOG_KINDS, events[:, 4]),
            "amount": events[:, 5].astype(np.int32),
            "target": events[:, 6].astype(np.int8),
        })
        return {"games": g, "players": pl.DataFrame(p_cols), "events": e}

    def replay(self, config, seed, game_id, player_counts, policies, options=None) -> list[str]:
        from .replay import replay_game

        self.check_counts(player_counts, options)
        pool, lineup, rotate = faction_arrays(config, options)
        return replay_game(config, self.policy_indices(config, policies), seed, game_id, player_counts, pool, lineup,
                           rotate)

    def manifest_extras(self, config: HomebrewersConfig) -> dict:
        kinds = {i: C.FLAVOR_KINDS[config.cards[k, 0]] for k, i in enumerate(config.card_ids)}
        return {
            "estimates": config.estimates,
            "cards": [{"id": i, "name": n, "category": kinds[i]}
                      for i, n in zip(config.card_ids, config.card_names, strict=True)]
                     + [{"id": x, "name": x.replace("_", " "), "category": "action"} for x in C.SPECIAL_CARDS],
            "characters": [{"id": i, "name": n} for i, n in zip(C.FACTIONS, config.char_names, strict=True)],
        }


GAME = Homebrewers()
