"""Brewin' USA: bottle-cap auctions, beer launches and Brewfests, 2-5 players (rules in rules.py).

Public wrapper around the compiled kernel: builds the data, runs shards of games into column
arrays and hands them to the run writer as polars DataFrames.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.core.config import GameData
from sim.core.errors import UsageError
from sim.core.frames import enum_column
from sim.core.game import CHUNK, GameBase, Shard

from . import constants as C
from .data import BrewinConfig, build_config
from .invariants import VIOLATIONS
from .kernel import N_GAME_COLS, N_PLAYER_COLS, run_chunk
from .state import make_rules, make_state

STAT_COLUMNS = C.PLAYER_STATS  # players-table columns filled from State.pl[VP_CITIES:]


def events_bound(cfg: BrewinConfig) -> int:
    """Most event rows one game can write: per round, one batch per player, at most
    launches_per_round launches each and a Brewfest result per launch; capped by max_rounds."""
    rounds = int(cfg.params[C.P_MAX_ROUNDS]) + 2
    per_round = C.MAX_PLAYERS * (1 + 3 * int(cfg.params[C.P_LAUNCHES]))
    return rounds * per_round + 16


def rounds_capacity(cfg: BrewinConfig, n_games: int) -> int:
    """Rounds-buffer rows for one chunk: typical games end well before max_rounds, so room for
    a chunk of 20-round games plus one game of the longest kind (a fuller buffer makes
    run_chunk stop early and resume, never truncate)."""
    return min(CHUNK, max(n_games, 1)) * C.MAX_PLAYERS * 20 + C.MAX_PLAYERS * int(cfg.params[C.P_MAX_ROUNDS])


def card_names(config) -> list[str]:
    """Event `card` values: beer card ids, then "batch", then one id per ingredient kind
    (used for adjuncts: adjunct_berry, ...), in the codes the kernel logs."""
    return list(config.beer_ids) + ["batch"] + [f"adjunct_{k}" for k in C.KINDS]



class BrewinUSA(GameBase):
    id = "brewin_usa"
    title = "Brewin' USA"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)

    def build(self, data: GameData) -> BrewinConfig:
        return build_config(data)

    def factions(self, config: BrewinConfig) -> list[str]:
        return ["none"]

    def simulate(self, config, seed, first_game, n_games, player_counts, policies, progress=None,
                 check=False) -> Shard:
        for k in player_counts:
            if k not in self.player_counts:
                raise UsageError(f"brewin_usa plays {self.player_counts[0]}-{self.player_counts[-1]} players, not {k}")
        rules = make_rules(config)
        pols = self.policy_indices(config, policies)
        counts = np.array(player_counts, np.int64)
        bound = events_bound(config)
        state = make_state(len(config.ing_ids), min(CHUNK, max(n_games, 1)) * 40 + bound,
                           rounds_capacity=rounds_capacity(config, n_games))
        games = np.zeros((n_games, N_GAME_COLS), np.int64)
        players = np.zeros((n_games * C.MAX_PLAYERS, N_PLAYER_COLS), np.int64)
        wins = np.zeros(n_games * C.MAX_PLAYERS, np.float64)

        def run(done, todo, prow):  # one kernel call; play_chunks does the rest
            return run_chunk(state, rules, np.uint64(seed), first_game + done, todo, counts, pols,
                             games[done:], players[prow:], wins[prow:], bound, check)

        ev, rounds, prow = self.play_chunks(state, C, VIOLATIONS, seed, first_game, n_games, progress, run)
        frames = self.frames(config, games, players[:prow], wins[:prow], ev)
        frames["rounds"] = rounds
        return Shard(frames)

    def frames(self, config, games, players, wins, events) -> dict[str, pl.DataFrame]:
        g = pl.DataFrame({
            "game_id": games[:, 0],
            "n_players": games[:, 1].astype(np.int8),
            "rounds": games[:, 2].astype(np.int16),
            "decisions": games[:, 3].astype(np.int32),
            "end_reason": enum_column(C.END_REASONS, games[:, 4]),
            "n_winners": games[:, 5].astype(np.int8),
            "brewfests": games[:, 6].astype(np.int16),
            "market_demand_left": games[:, 7].astype(np.int16),
            "caps_in_bag": games[:, 8].astype(np.int16),
        })
        p_cols = {
            "game_id": players[:, 0],
            "seat": players[:, 1].astype(np.int8),
            "faction": enum_column(["none"], np.zeros(len(players), np.int64)),
            "policy": enum_column(config.policy_ids, players[:, 2]),
            "score": players[:, 3].astype(np.int32),
            "rank": players[:, 4].astype(np.int8),
            "win": wins,
            "beers_launched": players[:, 5].astype(np.int8),
        }
        for k, name in enumerate(STAT_COLUMNS):
            if name == "score_check":
                continue
            p_cols[name] = players[:, 6 + k].astype(np.int32)
        e = pl.DataFrame({
            "game_id": events[:, 0],
            "seat": events[:, 1].astype(np.int8),
            "round": events[:, 2].astype(np.int8),
            "card": enum_column(card_names(config), events[:, 3]),
            "kind": enum_column(C.LOG_KINDS, events[:, 4]),
            "amount": events[:, 5].astype(np.int32),
            "target": events[:, 6].astype(np.int8),
        })
        return {"games": g, "players": pl.DataFrame(p_cols), "events": e}

    def replay(self, config, seed, game_id, player_counts, policies) -> list[str]:
        from .replay import replay_game

        return replay_game(config, self.policy_indices(config, policies), seed, game_id, player_counts)

    def manifest_extras(self, config: BrewinConfig) -> dict:
        styles = {i: config.beer[k, C.BF_STYLE] for k, i in enumerate(config.beer_ids)}
        return {
            "estimates": config.estimates,
            "cards": [{"id": i, "name": n, "category": C.STYLES[styles[i]]}
                      for i, n in zip(config.beer_ids, config.beer_names, strict=True)]
                     + [{"id": "batch", "name": "Ingredient batch", "category": "batch"}]
                     + [{"id": f"adjunct_{k}", "name": f"{k.title()} adjunct", "category": "adjunct"}
                        for k in C.KINDS[C.BERRY:]],
            "value_kinds": ["play", "adjunct"],  # card value covers beers and adjuncts
            "cities": [{"id": i, "name": n, "region": C.REGIONS[config.city[k, C.CF_REGION]],
                        "prefers": C.STYLES[config.city[k, C.CF_PREF]]}
                       for k, (i, n) in enumerate(zip(config.city_ids, config.city_names, strict=True))],
        }


GAME = BrewinUSA()
