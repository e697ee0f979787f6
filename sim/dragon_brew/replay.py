"""`brewbalance replay`: replay one Dragon Brew game from its seed into a readable log."""

from __future__ import annotations

from .kernel import play_one


def replay_game(cfg, seat_policies, seed, game_id, player_counts, options=None) -> list[str]:
    n = player_counts[game_id % len(player_counts)]
    g, rank, winners = play_one(cfg, seed, game_id, n, seat_policies, options, trace=True)
    lines = [f"Dragon Brew game {game_id} (seed {seed}), {n} players"] + list(g.trace)
    lines.append("Result: " + ", ".join(
        f"seat {p.seat} {cfg.races[p.race]['name']} {p.vp} VP {p.ribbons} ribbons {p.gold} gold (rank {rank[p.seat]})"
        for p in g.players))
    lines.append("Winner: " + ", ".join(f"seat {s}" for s in winners))
    return lines
