"""Rewrite the golden replay after a deliberate change of rules, data or RNG:
    .venv/bin/python tests/regen_golden.py [GAME ...]
"""

import sys
from pathlib import Path

from sim.core.config import prepare
from sim.registry import games

if __name__ == "__main__":
    only = set(sys.argv[1:])  # e.g. `python tests/regen_golden.py homebrewers`: one game only
    for game in games().values():
        if only and game.id not in only:
            continue
        lines = game.replay(game.build(prepare(game.id, "base", [], [])), 7, 3, [4], ["greedy", "random"])
        path = Path(__file__).parent / "golden" / f"{game.id}_replay_seed7_game3.txt"
        path.write_text("\n".join(lines) + "\n")
        print(f"wrote {path}")
