"""Dwarfest: taverns and brawls, 2-6 players, five Evenings (rules in rules.py).

Public wrapper around the compiled kernel: builds the data, runs shards of games into
column arrays and hands them to the run writer as polars DataFrames.
"""

from __future__ import annotations

from sim.core import treatment
from sim.core.config import GameData
from sim.core.game import GameBase

from . import constants as C
from . import schema
from .data import NEUTRAL, DwarfestConfig, build_config
from .invariants import VIOLATIONS
from .kernel import compile_ahead, run_chunk, run_chunk_without_search
from .state import Inputs, make_rules, make_search, make_state


def events_bound(cfg: DwarfestConfig) -> int:
    """Most event rows one game can write: per player and Evening at most a hand of plays,
    each possibly cancelled, plus Bouncers, a discard and the cards lost to destruction (a
    hand's worth more, as margin); and the opening hands' offers."""
    hand = int(cfg.params[C.P_HAND])
    evenings = int(cfg.params[C.P_EVENINGS])
    return C.MAX_PLAYERS * evenings * (4 * hand + C.MAX_PLAYS + 2) + C.MAX_PLAYERS * hand + 62


class Dwarfest(GameBase):
    id = "dwarfest"
    title = "Dwarfest"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)
    schema = schema
    constants = C
    violations = VIOLATIONS
    run_chunk = staticmethod(run_chunk)
    run_chunk_without_search = staticmethod(run_chunk_without_search)
    compile_ahead = staticmethod(compile_ahead)

    def build(self, data: GameData) -> DwarfestConfig:
        return build_config(data)

    def kernel_inputs(self, config: DwarfestConfig, options: dict):
        """Rules arrays, and X = the treatment codes (kind, card type) with the search bot's
        buffers (made here, once per kernel caller, i.e. per thread). Under remove the neutral
        card takes the removed card's price (state.make_rules)."""
        codes = treatment.codes(self.treatable(config), options)
        removed = int(codes[1]) if codes[0] == treatment.T_REMOVE else -1
        return make_rules(config, removed), Inputs(codes, make_search(len(config.cards.ids), events_bound(config)))

    def treatable(self, config: DwarfestConfig) -> dict[str, list[str]]:
        """Any Tavern card can be injected or removed; the neutral card can be injected too (the
        blank reference of every injection: the value of having one more card in hand), never
        removed. Dwarfest has no factions, so no power_off. Index in these lists = the card's
        type in the kernel (the neutral card is the last type)."""
        cards = [c for c in config.cards.ids if c != NEUTRAL]
        return {"inject": [*cards, NEUTRAL], "remove": cards}

    def treatment_notes(self) -> dict[str, str]:
        return {
            "inject": "The treated seat starts with one extra copy of the Tavern card in its opening hand "
                      "(six cards instead of five), taken from outside the deck so the deal is unchanged.",
            "remove": "Every copy of the Tavern card in the deck is a blank card instead (same cost, "
                      "category and place in the deck, no effect), so every other card is dealt as before.",
        }

    def new_state(self, config: DwarfestConfig, n_games: int, trace_rows: int = 1):
        events, rounds = self.buffer_rows(config, n_games)
        return make_state(len(config.cards.ids), events, trace_rows, rounds_capacity=rounds)

    def per_game_bounds(self, config: DwarfestConfig) -> tuple[int, int]:
        return events_bound(config), C.MAX_PLAYERS * int(config.params[C.P_EVENINGS])

    def labels(self, config: DwarfestConfig) -> dict[str, list[str]]:
        return {"end_reason": C.END_REASONS, "faction": ["none"], "policy": config.policy_ids,
                "card": config.cards.ids, "kind": C.LOG_KINDS}

    def replay(self, config, seed, game_id, player_counts, policies) -> list[str]:
        from .replay import replay_game

        return replay_game(self, config, seed, game_id, player_counts, policies)

    def manifest_extras(self, config: DwarfestConfig) -> dict:
        c = config.cards
        return {
            "estimates": config.estimates,
            "cards": [{"id": i, "name": n, "category": k} for i, n, k in zip(c.ids, c.names, c.categories, strict=False)],
        }


GAME = Dwarfest()
