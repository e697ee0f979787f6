"""Homebrewers: dice trading, brewing and judged festivals, 2-5 players (rules in rules.py).

Public wrapper around the compiled kernel: builds the data and the kernel's inputs (rules, the
character pool and lineup); sim/core/game.py runs the shards into the tables of schema.py.
"""

from __future__ import annotations

import numpy as np

from sim.core import treatment
from sim.core.config import GameData
from sim.core.errors import UsageError, choices
from sim.core.game import GameBase
from sim.core.schedule import lineup_rotates

from . import constants as C
from . import schema
from .data import HomebrewersConfig, build_config
from .invariants import VIOLATIONS
from .kernel import RunInputs, compile_ahead, run_chunk, run_chunk_without_search
from .search import make_search
from .state import make_rules, make_state

EVENTS_PER_GAME = 1800  # bound on event rows one game writes (8 months x 5 players x ~30, and offers)


def faction_arrays(config: HomebrewersConfig, options: dict | None):
    """(pool, lineup, rotate) for the kernel from options {'factions': [...], 'lineup': [...],
    'seats': 'fixed'}; lineup [-1] draws from the pool."""
    options = options or {}
    pool = list(range(C.N_CHARACTERS))
    lineup = [-1]
    if options.get("factions"):
        names = list(options["factions"])
        for f in names:
            if f not in C.CHARACTERS:
                raise UsageError(f"unknown character '{f}'; choose from {choices(C.CHARACTERS)}")
        pool = [C.CHARACTERS.index(f) for f in dict.fromkeys(names)]
    if options.get("lineup"):
        names = list(options["lineup"])
        for f in names:
            if f not in C.CHARACTERS:
                raise UsageError(f"unknown character '{f}'; choose from {choices(C.CHARACTERS)}")
        lineup = [C.CHARACTERS.index(f) for f in names]
    return np.array(pool, np.int64), np.array(lineup, np.int64), lineup_rotates(options)


class Homebrewers(GameBase):
    id = "homebrewers"
    title = "Homebrewers"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)
    schema = schema
    constants = C
    violations = VIOLATIONS
    run_chunk = staticmethod(run_chunk)
    run_chunk_without_search = staticmethod(run_chunk_without_search)
    compile_ahead = staticmethod(compile_ahead)

    def build(self, data: GameData) -> HomebrewersConfig:
        return build_config(data)

    def factions(self, config: HomebrewersConfig) -> list[str]:
        return ["standard"] if config.standard else list(C.CHARACTERS)

    def check_options(self, config, player_counts, options: dict | None) -> dict:
        """--factions/--lineup name known characters, a pool seats every player, and a treatment
        names what this game can treat."""
        pool, lineup, _ = faction_arrays(config, options)
        if lineup[0] < 0 and len(pool) < max(player_counts):
            raise UsageError(f"--factions lists {len(pool)} characters, fewer than {max(player_counts)} players")
        return super().check_options(config, player_counts, options)

    def kernel_inputs(self, config: HomebrewersConfig, options: dict):
        codes = treatment.codes(self.treatable(config), options)
        return make_rules(config, codes), RunInputs(*faction_arrays(config, options), codes,
                                                    make_search(EVENTS_PER_GAME))

    def treatable(self, config: HomebrewersConfig) -> dict[str, list[str]]:
        """Flavor cards stand in for the other games' purchasable cards (they are the game's only
        deck, dealt and drawn into hands); character powers can be switched off in the
        characters variant. The neutral card can be injected (the blank reference of every
        injection), last: its row of Rules.cards follows the flavor cards (state.make_rules)."""
        kinds = {"inject": [*config.card_ids, C.NEUTRAL_ID], "remove": list(config.card_ids)}
        if not config.standard:
            kinds["power_off"] = list(C.CHARACTERS)
        return kinds

    def treatment_notes(self) -> dict[str, str]:
        return {
            "inject": "The treated seat starts with one extra copy of the flavor card in hand (dealt from outside "
                      "the deck, so every other card is dealt as in the untreated game).",
            "remove": "Every copy of the flavor card is replaced, in the same deck positions, by a neutral blank "
                      "card with no flavor, no top and no bottom benefit.",
            "power_off": "The character's power is switched off for whoever plays it (never granted, never used); "
                         "its garage stays.",
        }

    def new_state(self, config: HomebrewersConfig, n_games: int, trace_rows: int = 1):
        events, rounds = self.buffer_rows(config, n_games)
        return make_state(events, trace_rows, rounds_capacity=rounds)

    def per_game_bounds(self, config: HomebrewersConfig) -> tuple[int, int]:
        return EVENTS_PER_GAME, C.MAX_PLAYERS * C.MONTHS

    def card_names(self, config) -> list[str]:
        """Event card codes: the flavor card types, the neutral card, then the special codes."""
        return list(config.card_ids) + [C.NEUTRAL_ID] + list(C.SPECIAL_CARDS)

    def labels(self, config: HomebrewersConfig) -> dict[str, list[str]]:
        return {"end_reason": C.END_REASONS, "faction": C.FACTIONS, "policy": config.policy_ids,
                "card": self.card_names(config), "kind": C.LOG_KINDS}

    def replay(self, config, seed, game_id, player_counts, policies, options=None) -> list[str]:
        from .replay import replay_game

        self.check_player_counts(player_counts)
        return replay_game(self, config, seed, game_id, player_counts, policies, options)

    def manifest_extras(self, config: HomebrewersConfig) -> dict:
        kinds = {i: C.FLAVOR_KINDS[config.cards[k, 0]] for k, i in enumerate(config.card_ids)}
        return {
            "estimates": config.estimates,
            "cards": [{"id": i, "name": n, "category": kinds[i]}
                      for i, n in zip(config.card_ids, config.card_names, strict=True)]
                     + [{"id": x, "name": x.replace("_", " "), "category": "action"} for x in C.SPECIAL_CARDS],
            "characters": [{"id": i, "name": n} for i, n in zip(C.FACTIONS, config.char_names, strict=True)],
        }


GAME = Homebrewers()
