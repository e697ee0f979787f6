"""Compiling games ahead, in a second process, while this one works.

numba compiles on one core, and a game's cold compile takes from about 12 s to about 40 s. A
command that will need several games (`brewbalance demo`, the test suite) starts `Warmer`
first: a child process compiles the games it is given into the shared on-disk cache, one
after the other, while the parent compiles and plays the others. `wait_for(game)` blocks
until the child has compiled that game, so the two processes never compile the same game at
once; the cache then serves the parent.

    python -m sim.core.warm [--without-search] GAME [GAME ...]
        what the child runs: prints each id when done; --without-search compiles only the
        kernel a run without search bots plays on (what `brewbalance demo` needs)
"""

from __future__ import annotations

import subprocess
import sys


def warm(game_id: str, search: bool = True) -> None:
    """Compile `game_id`'s kernels by playing one game of the base data at its smallest table:
    the kernel without search with every other bot, then (with `search`) the one with every bot."""
    from sim.core.config import prepare
    from sim.registry import get_game

    game = get_game(game_id)
    config = game.build(prepare(game_id, "base", [], []))
    every = game.policies(config)
    scripted = every
    if game.run_chunk_without_search is not None:
        scripted = [p for p in every if p not in game.search_policies(config)]
    for policies in ([scripted, every] if search and scripted != every else [scripted]):
        game.simulate(config, 1, 0, 1, [game.player_counts[0]], policies)


class Warmer:
    """A child process compiling `game_ids` in order (nothing at all in plain-Python mode)."""

    def __init__(self, game_ids: list[str], search: bool = True):
        """search=False: compile only the kernels without search (a run of no search bot)."""
        from sim.core.jit import PLAIN_PYTHON

        self.pending = [] if PLAIN_PYTHON else list(game_ids)
        self.proc = None
        if self.pending:
            flag = [] if search else ["--without-search"]
            self.proc = subprocess.Popen([sys.executable, "-m", "sim.core.warm", *flag, *self.pending],
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


def main(args: list[str]) -> None:
    search = "--without-search" not in args
    for game_id in (a for a in args if a != "--without-search"):
        warm(game_id, search)
        print(game_id, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
