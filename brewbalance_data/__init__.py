"""The game data (data/games/<game>/*.toml) as an importable package, so a wheel carries it.

In the repository `games` is a symbolic link to ../data/games (the data stays where
designers edit it); building a wheel copies the files it points to. `sim.core.config`
reads the data from here unless BREWBALANCE_DATA names another data root.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent
