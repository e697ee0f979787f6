"""Dice Race data: the TOML files of data/games/dice_race/ -> validated NumPy arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.config import GameData
from sim.core.errors import BrewError, choices
from sim.core.validate import check_entry, check_range, check_unique_ids

PARAMS = ("rounds", "bust_face")  # R.p order (rules.P_*)
POLICY_KINDS = ("random", "threshold")  # policies.py codes


@dataclass
class DiceRaceConfig:
    params: np.ndarray  # int64[len(PARAMS)]
    policy_ids: list[str]
    policy_kind: np.ndarray  # int64[n_policies]
    policy_hold: np.ndarray  # int64[n_policies]: the threshold bot's hold_at
    estimates: list[dict]


def build_config(data: GameData) -> DiceRaceConfig:
    node = data.tree["params"]["params"]
    params = np.array([int(node[k]) for k in PARAMS], np.int64)
    check_range(int(node["bust_face"]), 1, 6, "params.toml", "bust_face")
    where = "policies.toml"
    pols = [check_entry(p, f"{where}: policy {p.get('id', i)!r}", {"id": str, "kind": str, "hold_at": int}, {})
            for i, p in enumerate(data.tree["policies"]["policy"])]
    check_unique_ids(pols, where)
    for p in pols:
        if p["kind"] not in POLICY_KINDS:
            raise BrewError(f"{where}: policy '{p['id']}': kind '{p['kind']}' is not one of {choices(POLICY_KINDS)}")
    return DiceRaceConfig(
        params=params,
        policy_ids=[p["id"] for p in pols],
        policy_kind=np.array([POLICY_KINDS.index(p["kind"]) for p in pols], np.int64),
        policy_hold=np.array([p["hold_at"] for p in pols], np.int64),
        estimates=[{"file": where, "entry": p["id"], "why": p["estimate"]} for p in pols if "estimate" in p],
    )
