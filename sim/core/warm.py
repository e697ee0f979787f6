"""Compiling games ahead, in a second process, while this one works.

numba compiles on one core, and a game's cold compile takes from one to four minutes. A
command that will need several games (`brewbalance demo`, the test suite) starts `Warmer`
first: a child process compiles the games it is given into the shared on-disk cache, one
after the other, while the parent compiles and plays the others. `wait_for(game)` blocks
until the child has compiled that game, so the two processes never compile the same game at
once; the cache then serves the parent.

    python -m sim.core.warm GAME [GAME ...]    # what the child runs: prints each id when done
"""

from __future__ import annotations

import subprocess
import sys


def warm(game_id: str) -> None:
    """Compile every bot of `game_id` at its smallest table: play one game of the base data."""
    from sim.core.config import prepare
    from sim.registry import get_game

    game = get_game(game_id)
    config = game.build(prepare(game_id, "base", [], []))
    game.simulate(config, 1, 0, 1, [game.player_counts[0]], game.policies(config))


class Warmer:
    """A child process compiling `game_ids` in order (nothing at all in plain-Python mode)."""

    def __init__(self, game_ids: list[str]):
        from sim.core.jit import PLAIN_PYTHON

        self.pending = [] if PLAIN_PYTHON else list(game_ids)
        self.proc = None
        if self.pending:
            self.proc = subprocess.Popen([sys.executable, "-m", "sim.core.warm", *self.pending],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    @property
    def compiling(self) -> str | None:
        """The game the child is compiling now (it goes through them in order), or None."""
        return self.pending[0] if self.pending and self.proc is not None else None

    def wait_for(self, game_id: str) -> None:
        """Return once the child has compiled `game_id` (at once if it was not given one, or
        if the child stopped: the caller then compiles it itself)."""
        while game_id in self.pending and self.proc is not None:
            line = self.proc.stdout.readline()
            if not line:  # the child ended early; whatever it did not compile, the caller will
                self.pending.clear()
                break
            self.pending = [g for g in self.pending if g != line.strip()]

    def stop(self) -> None:
        self.pending = []  # whatever the child had left, nobody waits for it any more
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self.proc is not None:
            self.proc.wait()
            self.proc.stdout.close()


def main(game_ids: list[str]) -> None:
    for game_id in game_ids:
        warm(game_id)
        print(game_id, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
