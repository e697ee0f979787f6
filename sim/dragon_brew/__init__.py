"""Dragon Brew: 19 brewing races, three years of spring drafting and brewer actions, fall
judging and winter reset, 2-4 players; variants base and corrupt_judge (rules in rules.py).

Public wrapper: builds the data, plays shards of games and hands them to the run writer as
polars DataFrames. Options (from the CLI): `factions` limits the race pool, `lineup` fixes one.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

import numpy as np
import polars as pl

from sim.core.config import GameData
from sim.core.errors import UsageError, choices
from sim.core.game import GameBase, Shard
from sim.core.rounds import rounds_frame

from . import constants as C
from .data import DragonConfig, build_config
from .invariants import check_game
from .kernel import run_games

PROC_CHUNK = 200  # games per task of the process pool
_POOL: ProcessPoolExecutor | None = None


def n_processes() -> int:
    """Worker processes for a shard. The engine is pure Python, so the runner's threads share
    one GIL; spawned processes give the cores back. BREWBALANCE_DB_PROCESSES sets the number;
    by default all cores when the program runs as `python -m brewbalance` or the `brewbalance`
    script (spawned workers re-import the main module, which is only safe for guarded entry
    points), else 1 (in-process)."""
    env = os.environ.get("BREWBALANCE_DB_PROCESSES")
    if env is not None:
        try:
            return max(1, int(env))
        except ValueError:
            return 1
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    entry = (spec is not None and (spec.name or "").startswith("brewbalance")) or \
        os.path.basename(getattr(main, "__file__", "") or "") == "brewbalance"
    return (os.cpu_count() or 1) if entry else 1


def _pool() -> ProcessPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(max_workers=n_processes(), mp_context=mp.get_context("spawn"))
    return _POOL


def _play_chunk(config, seed, first, n, counts, pols, options):
    return run_games(config, seed, first, n, counts, pols, options, None, None)


def enum_column(levels, values) -> pl.Series:
    levels = list(dict.fromkeys(levels))
    return pl.Series(values, dtype=pl.Enum(levels))


class DragonBrew(GameBase):
    id = "dragon_brew"
    title = "Dragon Brew"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)
    demo_games = 5000  # `make demo` size: this engine is pure Python (docs/games/dragon_brew.md)

    def build(self, data: GameData) -> DragonConfig:
        return build_config(data)

    def factions(self, config: DragonConfig) -> list[str]:
        return list(config.race_ids)

    def policy_indices(self, config: DragonConfig, policies: list[str]) -> list[int]:
        for p in policies:
            if p not in config.policy_ids:
                raise UsageError(f"unknown policy '{p}' for dragon_brew; choose from {choices(config.policy_ids)}")
        return [config.policy_ids.index(p) for p in policies]

    def check_options(self, config: DragonConfig, player_counts, options: dict | None) -> dict:
        options = dict(options or {})
        ids = config.race_ids
        for key in ("factions", "lineup"):
            vals = options.get(key)
            if vals:
                for v in vals:
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

    def simulate(self, config, seed, first_game, n_games, player_counts, policies, progress=None,
                 check=False, options=None) -> Shard:
        for k in player_counts:
            if k not in self.player_counts:
                raise UsageError(f"dragon_brew plays {self.player_counts[0]}-{self.player_counts[-1]} players, not {k}")
        options = self.check_options(config, player_counts, options)
        pols = self.policy_indices(config, policies)
        counts = list(player_counts)
        if check or n_processes() < 2 or n_games < 2 * PROC_CHUNK:
            games, players, events, rounds = run_games(config, int(seed), first_game, n_games, counts, pols,
                                                       options, check_game if check else None, progress)
        else:
            games, players, events, rounds = self.run_in_processes(config, int(seed), first_game, n_games, counts,
                                                                   pols, options, progress)
        frames = self.frames(config, games, players, events)
        frames["rounds"] = rounds_frame(np.array(rounds, np.int64))
        return Shard(frames)

    def run_in_processes(self, config, seed, first_game, n_games, counts, pols, options, progress):
        """The same games split into chunks played by worker processes; rows come back in game
        order, so the result is identical to the in-process run."""
        starts = list(range(first_game, first_game + n_games, PROC_CHUNK))
        pool = _pool()
        futs = {pool.submit(_play_chunk, config, seed, a, min(PROC_CHUNK, first_game + n_games - a), counts, pols,
                            options): a for a in starts}
        results, pending = {}, set(futs)
        try:
            while pending:
                done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for f in done:
                    results[futs[f]] = f.result()
                    if progress is not None:
                        progress(len(results[futs[f]][0]))
        except BaseException:
            for f in pending:
                f.cancel()
            raise
        games, players, events, rounds = [], [], [], []
        for a in starts:
            g_, p_, e_, r_ = results[a]
            games += g_
            players += p_
            events += e_
            rounds += r_
        return games, players, events, rounds

    def frames(self, config, games, players, events) -> dict[str, pl.DataFrame]:
        ga = np.array(games, np.int64).reshape(-1, 8)
        g = pl.DataFrame({
            "game_id": ga[:, 0],
            "n_players": ga[:, 1].astype(np.int8),
            "rounds": ga[:, 2].astype(np.int16),
            "decisions": ga[:, 3].astype(np.int32),
            "end_reason": enum_column(C.END_REASONS, [C.END_REASONS[int(x)] for x in ga[:, 4]]),
            "n_winners": ga[:, 5].astype(np.int8),
            "judges_awarded": ga[:, 6].astype(np.int16),
            "spring_turns": ga[:, 7].astype(np.int32),
        })
        ns = 7 + len(C.PLAYER_STATS)
        pa = np.array([r[:3] + r[3:6] + r[7:] for r in players], np.int64).reshape(-1, ns - 1)
        wins = np.array([r[6] for r in players], np.float64)
        p_cols = {
            "game_id": pa[:, 0],
            "seat": pa[:, 1].astype(np.int8),
            "faction": enum_column(config.race_ids, [config.race_ids[int(x)] for x in pa[:, 2]]),
            "policy": enum_column(config.policy_ids, [config.policy_ids[int(x)] for x in pa[:, 3]]),
            "score": pa[:, 4].astype(np.int32),
            "rank": pa[:, 5].astype(np.int8),
            "win": wins,
        }
        for k, name in enumerate(C.PLAYER_STATS):
            p_cols[name] = pa[:, 6 + k].astype(np.int32)
        card_ids = config.card_ids()
        e = pl.DataFrame({
            "game_id": pl.Series([r[0] for r in events], dtype=pl.Int64),
            "seat": pl.Series([r[1] for r in events], dtype=pl.Int8),
            "round": pl.Series([r[2] for r in events], dtype=pl.Int8),
            "card": enum_column(card_ids, [r[3] for r in events]),
            "kind": enum_column(C.LOG_KINDS, [r[4] for r in events]),
            "amount": pl.Series([r[5] for r in events], dtype=pl.Int32),
        })
        return {"games": g, "players": pl.DataFrame(p_cols), "events": e}

    def replay(self, config, seed, game_id, player_counts, policies, options=None) -> list[str]:
        from .replay import replay_game

        options = self.check_options(config, player_counts, options)
        return replay_game(config, self.policy_indices(config, policies), seed, game_id, list(player_counts), options)

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
