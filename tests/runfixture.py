"""Tiny hand-made run folders for analysis and report tests.

A fixture game is written as one compact tuple per game so the expected answers can be
worked out by hand in the tests. Parquet is written with polars in the column types of
the run-folder contract (int8 seats, int32 scores, ...).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import polars as pl

DWARFEST_PLAYER_EXTRAS = ("nuggets", "fame", "tables", "barrels", "dancers", "brawls_broken",
                          "taverns_destroyed", "beers_served", "beers_wasted",
                          "customers_refused", "cards_played", "sips_used")

GAME_SCHEMA = {"game_id": pl.Int64, "n_players": pl.Int8, "rounds": pl.Int16,
               "decisions": pl.Int32, "end_reason": pl.String, "n_winners": pl.Int8}
PLAYER_SCHEMA = {"game_id": pl.Int64, "seat": pl.Int8, "faction": pl.String,
                 "policy": pl.String, "score": pl.Int32, "rank": pl.Int8, "win": pl.Float64}
EVENT_SCHEMA = {"game_id": pl.Int64, "seat": pl.Int8, "round": pl.Int8, "card": pl.String,
                "kind": pl.String, "amount": pl.Int32}


def ranks_and_wins(scores: list[int]) -> tuple[list[int], list[float]]:
    """Competition ranks (ties share) and fractional wins (1/k for a k-way top tie)."""
    ranks = [1 + sum(s > mine for s in scores) for mine in scores]
    top = ranks.count(1)
    return ranks, [1.0 / top if r == 1 else 0.0 for r in ranks]


def build_tables(games: list[dict]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Games and players tables from game dicts.

    Each game dict: scores (list, one per seat), optional factions, rounds, decisions,
    end_reason, game_extras ({col: value}), player_extras ({col: [value per seat]}).
    """
    game_rows, player_rows = [], []
    for gid, g in enumerate(games):
        scores = g["scores"]
        ranks, wins = ranks_and_wins(scores)
        game_rows.append({"game_id": gid, "n_players": len(scores), "rounds": g.get("rounds", 5),
                          "decisions": g.get("decisions", 20),
                          "end_reason": g.get("end_reason", "rounds"),
                          "n_winners": ranks.count(1), **g.get("game_extras", {})})
        factions = g.get("factions", ["none"] * len(scores))
        for seat, score in enumerate(scores):
            extras = {k: v[seat] for k, v in g.get("player_extras", {}).items()}
            player_rows.append({"game_id": gid, "seat": seat, "faction": factions[seat],
                                "policy": g.get("policy", "greedy"), "score": score,
                                "rank": ranks[seat], "win": wins[seat], **extras})
    games_df = pl.DataFrame(game_rows).with_columns(
        [pl.col(c).cast(t) for c, t in GAME_SCHEMA.items()])
    players_df = pl.DataFrame(player_rows).with_columns(
        [pl.col(c).cast(t) for c, t in PLAYER_SCHEMA.items()])
    return games_df, players_df


def manifest(game: str = "dwarfest", n_games: int = 0, **overrides) -> dict:
    """A plausible run.json with every documented key."""
    base = {
        "game": game, "variant": "base", "overrides": [["dwarfest.brawl_limit", 5]],
        "policies": ["greedy"], "player_counts": [2, 3], "seed": 7, "n_games": n_games,
        "data_hashes": {"data/games/dwarfest/cards.toml": "ab" * 32},
        "versions": {"brewbalance": "0.1.0", "numba": "0.68.1"},
        "command": "brewbalance simulate dwarfest --games 4 --seed 7",
        "created": "2025-01-01T00:00:00+00:00",
        "shards": [{"id": 0, "first_game": 0, "n_games": n_games,
                    "rows": {"games": n_games, "players": 0, "events": 0}}],
        "estimates": [{"file": "data/games/dwarfest/cards.toml", "entry": "keg",
                       "why": "cost not printed; guessed from the example"}],
        "cards": [{"id": "bouncer", "name": "Bouncer", "category": "character"},
                  {"id": "keg", "name": "Keg", "category": "object"}],
    }
    base.update(overrides)
    return base


def write_run(root: Path, games: list[dict], events: list[tuple] | None = None,
              manifest_data: dict | None = None, parts: int = 1) -> Path:
    """Write a run folder under root and return it.

    events: tuples (game_id, seat, round, card, kind, amount). parts > 1 splits the
    games round-robin over several part files, like shards would.
    """
    root.mkdir(parents=True, exist_ok=True)
    games_df, players_df = build_tables(games)
    events_df = pl.DataFrame(events or [], schema=EVENT_SCHEMA, orient="row")
    for name, df in (("games", games_df), ("players", players_df), ("events", events_df)):
        folder = root / name
        folder.mkdir(exist_ok=True)
        for k in range(parts):
            chunk = df.filter(pl.col("game_id") % parts == k)
            chunk.write_parquet(folder / f"part-{k:05d}.parquet")
    data = manifest_data if manifest_data is not None else manifest(n_games=len(games))
    (root / "run.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    record_hashes(root)
    return root


def record_hashes(root: Path) -> None:
    """List every part file in run.json's shards with its sha256, as `simulate` does, so
    the CLI's verified read accepts the fixture run (brewbalance/verify.py)."""
    path = root / "run.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    shards = {s["id"]: s for s in data.get("shards") or []}
    for part in sorted(root.glob("*/part-*.parquet")):
        shard_id = int(part.stem.split("-")[1])
        shard = shards.setdefault(shard_id, {"id": shard_id, "first_game": 0, "n_games": 0})
        shard.setdefault("sha256", {})[part.parent.name] = hashlib.sha256(part.read_bytes()).hexdigest()
    data["shards"] = [shards[k] for k in sorted(shards)]
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def dwarfest_extras(**values) -> dict:
    """player_extras for a 2-player Dwarfest game: zeros except the given columns."""
    n = len(next(iter(values.values()))) if values else 2
    return {c: values.get(c, [0] * n) for c in DWARFEST_PLAYER_EXTRAS}


# The canonical tiny run used by most tests (hand-computed answers in the tests):
#   g0 2p: 10 vs 6    -> seat 0 wins, margin 4, 20 decisions
#   g1 2p: 8 vs 8     -> tie, 0.5 / 0.5, margin 0, 22 decisions
#   g2 2p: 9 vs 3     -> seat 0 wins, margin 6, 24 decisions, ended by 'collapse'
#   g3 3p: 5, 7, 5    -> seat 1 wins, margin 2, 30 decisions
TINY_GAMES = [
    {"scores": [10, 6], "decisions": 20,
     "player_extras": dwarfest_extras(brawls_broken=[1, 0], beers_served=[10, 8],
                                      beers_wasted=[0, 2], nuggets=[10, 6])},
    {"scores": [8, 8], "decisions": 22,
     "player_extras": dwarfest_extras(brawls_broken=[0, 2], taverns_destroyed=[0, 1],
                                      beers_served=[9, 9], beers_wasted=[1, 0],
                                      nuggets=[8, 8])},
    {"scores": [9, 3], "decisions": 24, "end_reason": "collapse",
     "player_extras": dwarfest_extras(brawls_broken=[0, 0], beers_served=[12, 4],
                                      beers_wasted=[0, 0], nuggets=[9, 3])},
    {"scores": [5, 7, 5], "decisions": 30,
     "player_extras": dwarfest_extras(brawls_broken=[1, 1, 1], taverns_destroyed=[1, 0, 0],
                                      beers_served=[5, 5, 5], beers_wasted=[3, 0, 0],
                                      nuggets=[5, 7, 5])},
]
TINY_GAME_EXTRAS = [{"brawls": 1, "taverns_destroyed": 0}, {"brawls": 2, "taverns_destroyed": 1},
                    {"brawls": 0, "taverns_destroyed": 0}, {"brawls": 3, "taverns_destroyed": 1}]
TINY_EVENTS = [
    (0, 0, 1, "bouncer", "play", 1),
    (0, 1, 2, "keg", "play", 1),
    (1, 1, 1, "bouncer", "play", 1),
    (2, 0, 1, "bouncer", "play", 1),
    (2, 0, 3, "bouncer", "play", 1),
    (2, 1, 2, "keg", "discard", 1),
    (3, 1, 4, "bouncer", "play", 1),
]


def tiny_run(root: Path, **manifest_overrides) -> Path:
    """The canonical tiny Dwarfest run (see TINY_GAMES)."""
    games = [dict(g, game_extras=e) for g, e in zip(TINY_GAMES, TINY_GAME_EXTRAS, strict=True)]
    return write_run(root, games, TINY_EVENTS, manifest(n_games=len(games), **manifest_overrides))


# A run with factions: four 2-player games and one 3-player game.
#   2p elves: 1 + 1 + 0.5 + 0 = 2.5 wins in 4 games, expected 2.0 -> ratio 1.25
#   2p orcs:  0 + 0 + 0.5 + 1 = 1.5 wins in 4 games, expected 2.0 -> ratio 0.75
FACTION_GAMES = [
    {"scores": [9, 1], "factions": ["elves", "orcs"]},
    {"scores": [2, 8], "factions": ["orcs", "elves"]},
    {"scores": [5, 5], "factions": ["elves", "orcs"]},
    {"scores": [7, 4], "factions": ["orcs", "elves"]},
    {"scores": [1, 2, 9], "factions": ["elves", "orcs", "dwarves"]},
]


def faction_run(root: Path) -> Path:
    """A run of a made-up game with factions (no extras registered for it)."""
    return write_run(root, FACTION_GAMES, [], manifest(game="made_up", n_games=5, cards=[],
                                                       estimates=[]))


ROUND_SCHEMA = {"game_id": pl.Int64, "seat": pl.Int16, "round": pl.Int16, "score": pl.Int32}

# TINY_GAMES played out over three rounds (score of each seat after rounds 1, 2, 3; the
# last equals the final score). Hand-computed answers in tests/test_rounds_analysis.py:
#   g0 2p  seat 0: 3, 5, 10  seat 1: 4, 5, 6   leaders: 1, tie, 0     -> 1 lead change
#   g1 2p  seat 0: 2, 6, 8   seat 1: 1, 7, 8   leaders: 0, 1, tie     -> 1 lead change
#   g2 2p  seat 0: 5, 6, 9   seat 1: 1, 2, 3   leaders: 0, 0, 0       -> 0
#   g3 3p  seat 0: 1, 4, 5   seat 1: 2, 2, 7   seat 2: 3, 3, 5  leaders: 2, 0, 1 -> 2
TINY_ROUNDS = [
    [[3, 5, 10], [4, 5, 6]],
    [[2, 6, 8], [1, 7, 8]],
    [[5, 6, 9], [1, 2, 3]],
    [[1, 4, 5], [2, 2, 7], [3, 3, 5]],
]


def write_rounds(root: Path, per_game: list[list[list[int]]]) -> Path:
    """rounds/part-00000.parquet from per game, per seat, the score after each round."""
    rows = [(gid, seat, r + 1, score) for gid, seats in enumerate(per_game)
            for seat, scores in enumerate(seats) for r, score in enumerate(scores)]
    folder = root / "rounds"
    folder.mkdir(parents=True, exist_ok=True)
    pl.DataFrame(rows, schema=ROUND_SCHEMA, orient="row").write_parquet(folder / "part-00000.parquet")
    if (root / "run.json").is_file():
        record_hashes(root)
    return root


def rounds_run(root: Path, per_game: list[list[list[int]]] | None = None) -> Path:
    """A run folder with a rounds table: games whose final scores are the last round's."""
    per_game = per_game if per_game is not None else TINY_ROUNDS
    games = [{"scores": [seat[-1] for seat in seats], "rounds": len(seats[0])} for seats in per_game]
    write_run(root, games, [], manifest(n_games=len(games)))
    return write_rounds(root, per_game)
