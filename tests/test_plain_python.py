"""Plain-Python mode: BREWBALANCE_NO_JIT=1 runs every game uncompiled (so pdb and coverage
work on the rules) and must play exactly the games the compiled kernels play."""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.core.config import prepare
from sim.core.signature import frame_digest, light_search
from sim.registry import games

ROOT = Path(__file__).resolve().parents[1]
N_GAMES = 200  # every player count and every bot (search at a light budget), rotated by the seat schedule
DIGEST = """
import sys
sys.path.insert(0, {root!r})
from test_plain_python import digest
print(digest({gid!r}))
"""


def digest(gid: str) -> str:
    """sha256 of every table of N_GAMES games of `gid` (all player counts, all bots)."""
    game = games()[gid]
    config = game.build(prepare(gid, "base", light_search(gid), []))
    shard = game.simulate(config, 5, 0, N_GAMES, list(game.player_counts), list(game.policies(config)))
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


def test_plain_python_mode_really_skips_numba():
    code = "import sim.dwarfest.rules as r, sim.core.jit as j; print(j.PLAIN_PYTHON, hasattr(r.param, 'py_func'))"
    env = {**os.environ, "BREWBALANCE_NO_JIT": "1"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert proc.stdout.split() == ["True", "False"]
