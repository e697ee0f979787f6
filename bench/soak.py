"""Soak test: many games of all bots of every game (dwarfest, brewin_usa, homebrewers,
dragon_brew), variant and player count with the invariants asserted after every phase
(`check=True`). Prints games played and violations.

    .venv/bin/python bench/soak.py [--games-per-variant N] [--jobs J] [--game ID]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

from sim.core.config import prepare
from sim.core.errors import InvariantViolation
from sim.registry import games

BLOCK = 50_000


def soak_variant(game, variant: str, n_games: int, seed: int, jobs: int) -> tuple[int, list[str]]:
    config = game.build(prepare(game.id, variant, [], []))
    counts = list(game.player_counts)
    bots = list(game.policies(config))  # every bot, rotated across seats by the seat schedule

    def block(first: int) -> str | None:
        try:
            game.simulate(config, seed, first, min(BLOCK, n_games - first), counts, bots, check=True)
        except InvariantViolation as exc:
            return str(exc)
        return None

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        problems = [p for p in pool.map(block, range(0, n_games, BLOCK)) if p]
    return n_games, problems


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games-per-variant", type=int, default=2_500_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--game", action="append", help="soak only this game (repeatable)")
    ap.add_argument("--seed", type=int, default=777)
    args = ap.parse_args()
    total, violations, start = 0, [], time.perf_counter()
    for game in games().values():
        if args.game and game.id not in args.game:
            continue
        n_games = args.games_per_variant
        for variant in game.variants(prepare(game.id, "base", [], [])):
            t0 = time.perf_counter()
            n, problems = soak_variant(game, variant, n_games, args.seed, args.jobs)
            total += n
            violations += problems
            print(f"{game.id:12s} {variant:16s} {n:>12,} games of {len(game.policies(game.build(prepare(game.id, variant, [], []))))} bots, players "
                  f"{min(game.player_counts)}-{max(game.player_counts)}, {len(problems)} violations, "
                  f"{n / (time.perf_counter() - t0):,.0f} games/s", flush=True)
    print(f"total {total:,} games, {len(violations)} violations, {time.perf_counter() - start:.0f} s")
    for v in violations[:10]:
        print("  " + v)


if __name__ == "__main__":
    main()
