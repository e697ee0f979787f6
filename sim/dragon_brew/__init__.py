"""Dragon Brew: 19 brewing races, three years of spring drafting and brewer actions, fall
judging and winter reset, 2-4 players; variants base and corrupt_judge (rules in rules.py).

Public wrapper around the compiled kernel: builds the data, plays shards of games into column
arrays and hands them to the run writer as polars DataFrames. Options (from the CLI):
`factions` limits the race pool, `lineup` fixes one.
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
from .data import DragonConfig, build_config
from .invariants import VIOLATIONS
from .kernel import N_GAME_COLS, N_PLAYER_COLS, run_chunk
from .planner import make_bot_state
from .state import make_rules, make_state

EVENTS_PER_GAME = 1500  # bound on one game's event rows (4 players x 3 years; measured max is far lower)


class DragonBrew(GameBase):
    id = "dragon_brew"
    title = "Dragon Brew"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)

    def build(self, data: GameData) -> DragonConfig:
        return build_config(data)

    def factions(self, config: DragonConfig) -> list[str]:
        return list(config.race_ids)

    def check_options(self, config: DragonConfig, player_counts, options: dict | None) -> dict:
        options = dict(options or {})
        ids = config.race_ids
        for key in ("factions", "lineup"):
            for v in options.get(key) or ():
                if v not in ids:
                    raise UsageError(f"--{key}: unknown race '{v}'; choose from {choices(ids)}")
        if options.get("factions"):
            if len(set(options["factions"])) < max(player_counts):
                raise UsageError(f"--factions: {len(set(options['factions']))} races cannot seat "
                                 f"{max(player_counts)} players (races are distinct in a game)")
            options["factions"] = list(dict.fromkeys(options["factions"]))
        if options.get("lineup"):
            if len(options["lineup"]) != max(player_counts) or len(set(options["lineup"])) != len(options["lineup"]):
                raise UsageError(f"--lineup: give {max(player_counts)} distinct races, one per seat")
            if len(set(player_counts)) != 1:
                raise UsageError("--lineup needs a single player count (--players N)")
        return options

    def race_arrays(self, config: DragonConfig, options: dict) -> tuple[np.ndarray, np.ndarray, bool]:
        """(pool, lineup, rotate) for the kernel: race codes (an empty lineup draws races from the
        pool) and whether the lineup rotates across seats (sim/core/schedule.py)."""
        ids = config.race_ids
        pool = [ids.index(f) for f in options["factions"]] if options.get("factions") else list(range(len(ids)))
        lineup = [ids.index(f) for f in options["lineup"]] if options.get("lineup") else []
        return np.array(pool, np.int64), np.array(lineup, np.int64), lineup_rotates(options)

    def simulate(self, config, seed, first_game, n_games, player_counts, policies, progress=None,
                 check=False, options=None) -> Shard:
        for k in player_counts:
            if k not in self.player_counts:
                raise UsageError(f"dragon_brew plays {self.player_counts[0]}-{self.player_counts[-1]} players, not {k}")
        options = self.check_options(config, player_counts, options)
        pool, lineup, rotate = self.race_arrays(config, options)
        rules = make_rules(config)
        bots = make_bot_state(config, rules)
        pols = self.policy_indices(config, policies)
        counts = np.array(player_counts, np.int64)
        years = int(config.params["years"])
        state = make_state(CHUNK * 120 + EVENTS_PER_GAME, min(CHUNK, max(n_games, 1)) * C.MAX_PLAYERS * years)
        games = np.zeros((n_games, N_GAME_COLS), np.int64)
        players = np.zeros((n_games * C.MAX_PLAYERS, N_PLAYER_COLS), np.int64)
        wins = np.zeros(n_games * C.MAX_PLAYERS, np.float64)

        def run(done, todo, prow):  # one kernel call; play_chunks does the rest
            return run_chunk(state, rules, bots, np.uint64(seed), first_game + done, todo, counts, pols, pool, lineup,
                             rotate, games[done:], players[prow:], wins[prow:], EVENTS_PER_GAME, check)

        ev, rounds, prow = self.play_chunks(state, C, VIOLATIONS, seed, first_game, n_games, progress, run)
        frames = self.frames(config, games, players[:prow], wins[:prow], ev)
        frames["rounds"] = rounds
        return Shard(frames)

    def frames(self, config, games, players, wins, events) -> dict[str, pl.DataFrame]:
        """Column arrays -> DataFrames; string columns are Enums gathered from their codes."""
        g = pl.DataFrame({
            "game_id": games[:, 0],
            "n_players": games[:, 1].astype(np.int8),
            "rounds": games[:, 2].astype(np.int16),
            "decisions": games[:, 3].astype(np.int32),
            "end_reason": enum_column(C.END_REASONS, games[:, 4]),
            "n_winners": games[:, 5].astype(np.int8),
            "judges_awarded": games[:, 6].astype(np.int16),
            "spring_turns": games[:, 7].astype(np.int32),
        })
        p_cols = {
            "game_id": players[:, 0],
            "seat": players[:, 1].astype(np.int8),
            "faction": enum_column(config.race_ids, players[:, 2]),
            "policy": enum_column(config.policy_ids, players[:, 3]),
            "score": players[:, 4].astype(np.int32),
            "rank": players[:, 5].astype(np.int8),
            "win": wins,
        }
        for k, name in enumerate(C.PLAYER_STATS):
            p_cols[name] = players[:, 6 + k].astype(np.int32)
        e = pl.DataFrame({
            "game_id": events[:, 0],
            "seat": events[:, 1].astype(np.int8),
            "round": events[:, 2].astype(np.int8),
            "card": enum_column(config.card_ids(), events[:, 3]),
            "kind": enum_column(C.LOG_KINDS, events[:, 4]),
            "amount": events[:, 5].astype(np.int32),
        })
        return {"games": g, "players": pl.DataFrame(p_cols), "events": e}

    def replay(self, config, seed, game_id, player_counts, policies, options=None) -> list[str]:
        from .replay import replay_game

        options = self.check_options(config, player_counts, options)
        return replay_game(self, config, seed, game_id, list(player_counts), policies, options)

    def manifest_extras(self, config: DragonConfig) -> dict:
        return {
            "estimates": config.estimates,
            "cards": [{"id": c["id"], "name": c["name"], "category": "brewery"} for c in config.brewery]
                     + [{"id": c["id"], "name": c["name"], "category": "event"} for c in config.events]
                     + [{"id": a, "name": config.abilities[a]["name"], "category": "ability"} for a in C.ABILITIES],
            "factions": [{"id": r["id"], "name": r["name"], "difficulty": r["difficulty"],
                          "min_players": r["min_players"], "max_players": r["max_players"],
                          "ability": r["ability"]} for r in config.races],
        }


GAME = DragonBrew()
