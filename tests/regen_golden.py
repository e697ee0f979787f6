"""Rewrite the golden replay after a deliberate change of rules, data or RNG:
    .venv/bin/python tests/regen_golden.py
"""

from pathlib import Path

from sim.core.config import prepare
from sim.dwarfest import GAME

if __name__ == "__main__":
    lines = GAME.replay(GAME.build(prepare("dwarfest", "base", [], [])), 7, 3, [4], ["greedy", "random"])
    path = Path(__file__).parent / "golden" / "dwarfest_replay_seed7_game3.txt"
    path.write_text("\n".join(lines) + "\n")
    print(f"wrote {path}")
