"""Plain-Python mode: BREWBALANCE_NO_JIT=1 runs every game uncompiled (so pdb and coverage
work on the rules) and must play exactly the games the compiled kernels play."""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.core.config import prepare
from sim.core.schedule import seat_table
from sim.core.signature import frame_digest, light_search
from sim.registry import games

ROOT = Path(__file__).resolve().parents[1]
DIGEST = """
import sys
sys.path.insert(0, {root!r})
from test_plain_python import digest
print(digest({gid!r}))
"""


def covering_games(counts, policies) -> int:
    """The fewest games in which the seat schedule plays, at every player count, every table
    pattern of the bots turned to every seat (sim/core/schedule.py): counts x bots x seats.
    Plain Python is slow (Dragon Brew: seconds a game), so the check plays no more than that."""
    return len(counts) * len(policies) * max(counts)


def digest(gid: str) -> str:
    """sha256 of every table of the covering games of `gid` (all player counts, all bots;
    search at a light budget)."""
    game = games()[gid]
    config = game.build(prepare(gid, "base", light_search(gid), []))
    counts, policies = list(game.player_counts), list(game.policies(config))
    shard = game.simulate(config, 5, 0, covering_games(counts, policies), counts, policies)
    h = hashlib.sha256()
    for table in sorted(shard.frames):
        frame_digest(shard.frames[table], h)
    return h.hexdigest()


@pytest.mark.parametrize("gid", sorted(games()))
def test_plain_python_plays_the_same_games_as_the_compiled_kernels(gid):
    env = {**os.environ, "BREWBALANCE_NO_JIT": "1"}
    proc = subprocess.run([sys.executable, "-c", DIGEST.format(root=str(ROOT / "tests"), gid=gid)],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == digest(gid)


@pytest.mark.parametrize("gid", sorted(games()))
def test_the_covering_games_seat_every_bot_in_every_seat_at_every_count(gid):
    game = games()[gid]
    counts = list(game.player_counts)
    n_policies = len(game.policies(game.build(prepare(gid, "base", light_search(gid), []))))
    n_games = covering_games(counts, range(n_policies))
    table = seat_table(n_games, counts, n_policies)
    seen = {(int(n), int(s), int(b)) for n, s, b, _ in table}
    assert seen == {(n, s, b) for n in counts for s in range(n) for b in range(n_policies)}
    # ...and at each count at least bots x seats games: positions 0 .. P*n-1, every table pattern
    # turned to every seat (seat_bots)
    for n in counts:
        assert (table[:, 0] == n).sum() // n >= n_policies * n


def test_plain_python_mode_really_skips_numba():
    code = "import sim.dwarfest.rules as r, sim.core.jit as j; print(j.PLAIN_PYTHON, hasattr(r.param, 'py_func'))"
    env = {**os.environ, "BREWBALANCE_NO_JIT": "1"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["True", "False"]
