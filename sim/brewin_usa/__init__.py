"""Brewin' USA: bottle-cap auctions, beer launches and Brewfests, 2-5 players (rules in rules.py).

Public wrapper around the compiled kernel: builds the data and supplies the hooks with which
sim/core/game.py's GameBase plays shards into the tables of schema.py.
"""

from __future__ import annotations

from sim.core.config import GameData
from sim.core.game import CHUNK, GameBase

from . import constants as C
from . import schema
from .data import BrewinConfig, build_config
from .invariants import VIOLATIONS
from .kernel import run_chunk
from .state import make_rules, make_state


def events_bound(cfg: BrewinConfig) -> int:
    """Most event rows one game can write: per round, one batch per player, at most
    launches_per_round launches each and a Brewfest result per launch; capped by max_rounds."""
    rounds = int(cfg.params[C.P_MAX_ROUNDS]) + 2
    per_round = C.MAX_PLAYERS * (1 + 3 * int(cfg.params[C.P_LAUNCHES]))
    return rounds * per_round + 16


def rounds_capacity(cfg: BrewinConfig, n_games: int) -> int:
    """Rounds-buffer rows for one chunk: typical games end well before max_rounds, so room for
    a chunk of 20-round games plus one game of the longest kind (a fuller buffer makes
    run_chunk stop early and resume, never truncate)."""
    return min(CHUNK, max(n_games, 1)) * C.MAX_PLAYERS * 20 + C.MAX_PLAYERS * int(cfg.params[C.P_MAX_ROUNDS])


def card_names(config) -> list[str]:
    """Event `card` values: beer card ids, then "batch", then one id per ingredient kind
    (used for adjuncts: adjunct_berry, ...), in the codes the kernel logs."""
    return list(config.beer_ids) + ["batch"] + [f"adjunct_{k}" for k in C.KINDS]


class BrewinUSA(GameBase):
    id = "brewin_usa"
    title = "Brewin' USA"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)
    schema = schema
    constants = C
    violations = VIOLATIONS
    run_chunk = staticmethod(run_chunk)

    def build(self, data: GameData) -> BrewinConfig:
        return build_config(data)

    def kernel_inputs(self, config: BrewinConfig, options: dict):
        return make_rules(config), ()

    def new_state(self, config: BrewinConfig, n_games: int, trace_rows: int = 1):
        return make_state(len(config.ing_ids), min(CHUNK, max(n_games, 1)) * 40 + events_bound(config), trace_rows,
                          rounds_capacity=rounds_capacity(config, n_games))

    def per_game_bounds(self, config: BrewinConfig) -> tuple[int, int]:
        return events_bound(config), C.MAX_PLAYERS * int(config.params[C.P_MAX_ROUNDS])

    def labels(self, config: BrewinConfig) -> dict[str, list[str]]:
        return {"end_reason": C.END_REASONS, "faction": ["none"], "policy": config.policy_ids,
                "card": card_names(config), "kind": C.LOG_KINDS}

    def replay(self, config, seed, game_id, player_counts, policies) -> list[str]:
        from .replay import replay_game

        return replay_game(self, config, seed, game_id, player_counts, policies)

    def manifest_extras(self, config: BrewinConfig) -> dict:
        styles = {i: config.beer[k, C.BF_STYLE] for k, i in enumerate(config.beer_ids)}
        return {
            "estimates": config.estimates,
            "cards": [{"id": i, "name": n, "category": C.STYLES[styles[i]]}
                      for i, n in zip(config.beer_ids, config.beer_names, strict=True)]
                     + [{"id": "batch", "name": "Ingredient batch", "category": "batch"}]
                     + [{"id": f"adjunct_{k}", "name": f"{k.title()} adjunct", "category": "adjunct"}
                        for k in C.KINDS[C.BERRY:]],
            "value_kinds": ["play", "adjunct"],  # card value covers beers and adjuncts
            "cities": [{"id": i, "name": n, "region": C.REGIONS[config.city[k, C.CF_REGION]],
                        "prefers": C.STYLES[config.city[k, C.CF_PREF]]}
                       for k, (i, n) in enumerate(zip(config.city_ids, config.city_names, strict=True))],
        }


GAME = BrewinUSA()
