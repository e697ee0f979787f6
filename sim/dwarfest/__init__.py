"""Dwarfest: taverns and brawls, 2-6 players, five Evenings (rules in rules.py).

Public wrapper around the compiled kernel: builds the data, runs shards of games into
column arrays and hands them to the run writer as polars DataFrames.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.core.config import GameData
from sim.core.frames import enum_column
from sim.core.game import CHUNK, GameBase, Shard

from . import constants as C
from .data import DwarfestConfig, build_config
from .invariants import VIOLATIONS
from .kernel import run_chunk
from .state import make_rules, make_state

PLAYER_STATS = (  # players-table column for each ST_* statistic, in ST order
    "brawls_broken", "taverns_destroyed", "beers_served_table", "beers_served_bar", "beers_wasted",
    "dwarves_unserved", "customers_refused", "cards_played", "sips_used", "tables_lost",
    "bouncers_used",
)


def events_bound(cfg: DwarfestConfig) -> int:
    """Most event rows one game can write: per player and Evening at most a hand of plays,
    each possibly cancelled, plus Bouncers, a discard, and the cards lost to destruction."""
    hand = int(cfg.params[C.P_HAND])
    evenings = int(cfg.params[C.P_EVENINGS])
    return C.MAX_PLAYERS * evenings * (3 * hand + C.MAX_PLAYS + 2) + 61



class Dwarfest(GameBase):
    id = "dwarfest"
    title = "Dwarfest"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)

    def build(self, data: GameData) -> DwarfestConfig:
        return build_config(data)

    def factions(self, config: DwarfestConfig) -> list[str]:
        return ["none"]

    def simulate(self, config, seed, first_game, n_games, player_counts, policies, progress=None,
                 check=False) -> Shard:
        rules = make_rules(config)
        pols = self.policy_indices(config, policies)
        counts = np.array(player_counts, np.int64)
        bound = events_bound(config)
        evenings = int(config.params[C.P_EVENINGS])
        state = make_state(len(config.cards.ids), CHUNK * 40 + bound,
                           rounds_capacity=min(CHUNK, max(n_games, 1)) * C.MAX_PLAYERS * evenings)
        games = np.zeros((n_games, 8), np.int64)
        players = np.zeros((n_games * C.MAX_PLAYERS, 10 + C.N_ST), np.int64)
        wins = np.zeros(n_games * C.MAX_PLAYERS, np.float64)

        def run(done, todo, prow):  # one kernel call; play_chunks does the rest
            return run_chunk(state, rules, np.uint64(seed), first_game + done, todo, counts, pols,
                             games[done:], players[prow:], wins[prow:], bound, check)

        ev, rounds, prow = self.play_chunks(state, C, VIOLATIONS, seed, first_game, n_games, progress, run)
        frames = self.frames(config, games, players[:prow], wins[:prow], ev, policies)
        frames["rounds"] = rounds
        return Shard(frames)

    def frames(self, config, games, players, wins, events, policies) -> dict[str, pl.DataFrame]:
        """Column arrays -> DataFrames. String columns are Enums gathered from their codes,
        so no per-row string is ever built."""
        g = pl.DataFrame({
            "game_id": games[:, 0],
            "n_players": games[:, 1].astype(np.int8),
            "rounds": games[:, 2].astype(np.int16),
            "decisions": games[:, 3].astype(np.int32),
            "end_reason": enum_column(C.END_REASONS, games[:, 4]),
            "n_winners": games[:, 5].astype(np.int8),
            "brawls": games[:, 6].astype(np.int16),
            "taverns_destroyed": games[:, 7].astype(np.int16),
        })
        p_cols = {
            "game_id": players[:, 0],
            "seat": players[:, 1].astype(np.int8),
            "faction": enum_column(["none"], np.zeros(len(players), np.int64)),
            "policy": enum_column(config.policy_ids, players[:, 2]),
            "score": players[:, 3].astype(np.int32),
            "rank": players[:, 4].astype(np.int8),
            "win": wins,
            "nuggets": players[:, 3].astype(np.int32),
            "fame": players[:, 6].astype(np.int16),
            "tables": players[:, 7].astype(np.int16),
            "barrels": players[:, 8].astype(np.int16),
            "dancers": players[:, 9].astype(np.int16),
        }
        for k, name in enumerate(PLAYER_STATS):
            p_cols[name] = players[:, 10 + k].astype(np.int32)
        e = pl.DataFrame({
            "game_id": events[:, 0],
            "seat": events[:, 1].astype(np.int8),
            "round": events[:, 2].astype(np.int8),
            "card": enum_column(config.cards.ids, events[:, 3]),
            "kind": enum_column(C.LOG_KINDS, events[:, 4]),
            "amount": events[:, 5].astype(np.int32),
            "target": events[:, 6].astype(np.int8),
        })
        return {"games": g, "players": pl.DataFrame(p_cols), "events": e}

    def replay(self, config, seed, game_id, player_counts, policies) -> list[str]:
        from .replay import replay_game

        return replay_game(config, self.policy_indices(config, policies), seed, game_id, player_counts, policies)

    def manifest_extras(self, config: DwarfestConfig) -> dict:
        c = config.cards
        return {
            "estimates": config.estimates,
            "cards": [{"id": i, "name": n, "category": k} for i, n, k in zip(c.ids, c.names, c.categories, strict=False)],
        }


GAME = Dwarfest()
