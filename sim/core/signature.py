"""Bench signature: one hash per game of the outcomes of a fixed set of seeded games.

Any change to rules, data, bots or RNG changes the hash, so the committed signature
(tests/golden/signatures.json) makes such changes visible in review; update it on purpose
with `brewbalance bench --signature --write` and say so in the commit message.
"""

from __future__ import annotations

import hashlib

import polars as pl

from .config import prepare

SIGNATURE_SEED = 424242
SIGNATURE_GAMES = 300  # per variant


def frame_digest(df: pl.DataFrame, digest) -> None:
    for name in df.columns:
        digest.update(name.encode())
        digest.update(df[name].to_physical().to_numpy().tobytes())


def light_search(game_id: str) -> list[str]:
    """`--set` values that make a game's search bot cheap (2 rollouts, 2 candidates) for the
    checks that play every bot: the signature, plain-Python equality, the pinned rounds. The
    search code still runs (and is pinned); only its budget shrinks. [] without a search bot."""
    policies = prepare(game_id, "base", [], []).tree.get("policies", {}).get("policy", [])
    search = next((p for p in policies if p.get("id") == "search"), None)
    if search is None:
        return []
    return [f"policies.search.{knob}=2" for knob in ("budget", "candidates") if knob in search]


def game_signature(game) -> str:
    """Hash of every variant of `game`, all player counts, every bot rotated across seats (the
    search bot at a light budget, `light_search`)."""
    digest = hashlib.sha256()
    base = prepare(game.id, "base", [], [])
    light = light_search(game.id)
    for variant in game.variants(base):
        data = prepare(game.id, variant, light, [])
        config = game.build(data)
        shard = game.simulate(config, SIGNATURE_SEED, 0, SIGNATURE_GAMES, list(game.player_counts),
                              game.policies(config), check=True)
        digest.update(variant.encode())
        for table in ("games", "players", "events"):
            frame_digest(shard.frames[table], digest)
    return digest.hexdigest()[:16]


def signatures() -> dict[str, str]:
    from sim.registry import games

    return {gid: game_signature(game) for gid, game in sorted(games().items())}
