"""Dragon Brew: 19 brewing races, three years of spring drafting and brewer actions, fall
judging and winter reset, 2-4 players; variants base and corrupt_judge (rules in rules/).

Public wrapper around the compiled kernel: builds the data and supplies the hooks with which
sim/core/game.py's GameBase plays shards of games into the tables of schema.py. Options (from
the CLI): `factions` limits the race pool, `lineup` fixes one, `treatment` (sim/core/treatment.py)
injects or removes a Brewery card or switches a race's power off.
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
from .data import NEUTRAL_ID, DragonConfig, build_config
from .invariants import VIOLATIONS
from .kernel import RunInputs, compile_ahead, run_chunk, run_chunk_without_search
from .planner import make_bot_state
from .search import make_search
from .state import BC_COST, P_NEUTRAL, make_rules, make_state

EVENTS_PER_GAME = 1500  # bound on one game's event rows (4 players x 3 years; measured max is far lower)


class DragonBrew(GameBase):
    id = "dragon_brew"
    title = "Dragon Brew"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)
    schema = schema
    constants = C
    violations = VIOLATIONS
    run_chunk = staticmethod(run_chunk)
    run_chunk_without_search = staticmethod(run_chunk_without_search)
    compile_ahead = staticmethod(compile_ahead)

    def build(self, data: GameData) -> DragonConfig:
        return build_config(data)

    def search_policies(self, config: DragonConfig) -> set[str]:
        return {p["id"] for p in config.policies if p["kind"] == "search"}

    def factions(self, config: DragonConfig) -> list[str]:
        return list(config.race_ids)

    def treatable(self, config: DragonConfig) -> dict[str, list[str]]:
        """Brewery cards, and for inject also the neutral Brewery card (the blank reference of
        every injection), last: its row of Rules.bc follows the real cards (state.P_NEUTRAL)."""
        cards = [c["id"] for c in config.brewery]
        return {"inject": [*cards, NEUTRAL_ID], "remove": cards, "power_off": list(config.race_ids)}

    def treatment_notes(self) -> dict[str, str]:
        return {
            "inject": "the treated seat starts with one extra copy of the Brewery card already built in its "
                      "estate (an upgrade under its card), free and from outside the deck, as if drafted "
                      "and paid for before the game",
            "remove": "every copy of the Brewery card in the deck is a blank neutral card of the same cost "
                      "instead, in the same deck places, which does nothing and which the bots never want",
            "power_off": "the race's ability card is left out of its estate: no rule grants the power and no "
                         "bot plays it, while the race's starting brewers, gold, grains and recipes stay",
        }

    def check_options(self, config: DragonConfig, player_counts, options: dict | None) -> dict:
        options = super().check_options(config, player_counts, options)
        ids = config.race_ids
        for key in ("factions", "lineup"):
            for v in options.get(key) or ():
                if v not in ids:
                    raise UsageError(f"--{key}: unknown race '{v}'; choose from {choices(ids)}")
        if options.get("factions"):
            if len(set(options["factions"])) < max(player_counts):
                raise UsageError(f"--factions: {len(set(options['factions']))} races cannot seat "
                                 f"{max(player_counts)} players (races are distinct in a game)")
            options["factions"] = list(dict.fromkeys(options["factions"]))
        if options.get("lineup"):
            if len(options["lineup"]) != max(player_counts) or len(set(options["lineup"])) != len(options["lineup"]):
                raise UsageError(f"--lineup: give {max(player_counts)} distinct races, one per seat")
            if len(set(player_counts)) != 1:
                raise UsageError("--lineup needs a single player count (--players N)")
        return options

    def race_arrays(self, config: DragonConfig, options: dict) -> tuple[np.ndarray, np.ndarray, bool]:
        """(pool, lineup, rotate) for the kernel: race codes (an empty lineup draws races from the
        pool) and whether the lineup rotates across seats (sim/core/schedule.py)."""
        ids = config.race_ids
        pool = [ids.index(f) for f in options["factions"]] if options.get("factions") else list(range(len(ids)))
        lineup = [ids.index(f) for f in options["lineup"]] if options.get("lineup") else []
        return np.array(pool, np.int64), np.array(lineup, np.int64), lineup_rotates(options)

    def kernel_inputs(self, config: DragonConfig, options: dict):
        rules = make_rules(config)
        codes = treatment.codes(self.treatable(config), options)
        if codes[0] == treatment.T_REMOVE:  # the neutral card costs what the removed card cost
            rules.bc[rules.p[P_NEUTRAL], BC_COST] = rules.bc[codes[1], BC_COST]
        pool, lineup, rotate = self.race_arrays(config, options)
        return rules, RunInputs(pool, lineup, rotate, make_bot_state(config, rules), codes,
                                make_search(config, rules, EVENTS_PER_GAME))

    def new_state(self, config: DragonConfig, n_games: int, trace_rows: int = 1):
        events, rounds = self.buffer_rows(config, n_games)
        return make_state(events, rounds, trace_rows)

    def per_game_bounds(self, config: DragonConfig) -> tuple[int, int]:
        return EVENTS_PER_GAME, C.MAX_PLAYERS * int(config.params["years"])

    def labels(self, config: DragonConfig) -> dict[str, list[str]]:
        return {"end_reason": list(C.END_REASONS), "faction": list(config.race_ids), "policy": config.policy_ids,
                "card": config.card_ids(), "kind": list(C.LOG_KINDS)}

    def replay(self, config, seed, game_id, player_counts, policies, options=None) -> list[str]:
        from .replay import replay_game

        options = self.check_options(config, player_counts, options)
        return replay_game(self, config, seed, game_id, list(player_counts), policies, options)

    def manifest_extras(self, config: DragonConfig) -> dict:
        return {
            "estimates": config.estimates,
            "cards": [{"id": c["id"], "name": c["name"], "category": "brewery"} for c in config.brewery]
                     + [{"id": c["id"], "name": c["name"], "category": "event"} for c in config.events]
                     + [{"id": a, "name": config.abilities[a]["name"], "category": "ability"} for a in C.ABILITIES],
            "factions": [{"id": r["id"], "name": r["name"], "difficulty": r["difficulty"],
                          "min_players": r["min_players"], "max_players": r["max_players"],
                          "ability": r["ability"]} for r in config.races],
        }


GAME = DragonBrew()
