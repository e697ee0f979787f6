"""One thread's kernel speed, for comparing two trees in alternated pairs.

Plays N seeded 4-player games of GAME with one bot in-process (`GAME.simulate`, DataFrames
included), REPS times after 10 games of warm-up, and prints the best rate in games per
thread-CPU second. Thread CPU time leaves out the time the thread waited for a core, so a
busy neighbour on a shared machine moves it less than wall time; run the old and the new tree
in turn (each from its own checkout with its own BREWBALANCE_CACHE_DIR) and compare pair by
pair. Usage:

    python bench/thread_rate.py GAME POLICY N REPS     e.g. dragon_brew greedy 1500 5
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree, not the installed one


def main() -> None:
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    from sim.core.config import prepare
    from sim.core.errors import BrewError
    from sim.registry import get_game

    game_id, policy, n, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    try:
        game = get_game(game_id)
        config = game.build(prepare(game_id, "base", [], []))
        game.simulate(config, 1, 0, 10, [4], [policy])  # load or compile the kernel
    except BrewError as exc:  # an unknown game or bot: one line, not a traceback
        sys.exit(f"thread_rate: {exc}")
    best = 0.0
    for _ in range(reps):
        start = time.thread_time()
        game.simulate(config, 1, 0, n, [4], [policy])
        best = max(best, n / (time.thread_time() - start))
    print(f"{game_id} {policy}: {best:,.0f} games per thread-CPU second")


if __name__ == "__main__":
    main()
