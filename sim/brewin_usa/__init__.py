"""Brewin' USA: bottle-cap auctions, beer launches and Brewfests, 2-5 players (rules in rules.py).

Public wrapper around the compiled kernel: builds the data and supplies the hooks with which
sim/core/game.py's GameBase plays shards into the tables of schema.py.
"""

from __future__ import annotations

from sim.core import treatment
from sim.core.config import GameData
from sim.core.game import GameBase

from . import constants as C
from . import schema
from .data import BrewinConfig, build_config
from .invariants import VIOLATIONS
from .kernel import compile_ahead, run_chunk, run_chunk_without_search
from .state import make_inputs, make_rules, make_state


def events_bound(cfg: BrewinConfig) -> int:
    """Most event rows one game can write: per round, one batch per player, at most
    launches_per_round launches each with a Brewfest result and its beer draws (offers), and
    every face-up card of every batch offered to every seat; the opening deal and redraws once;
    capped by max_rounds."""
    rounds = int(cfg.params[C.P_MAX_ROUNDS]) + 2
    launches = int(cfg.params[C.P_LAUNCHES])
    per_round = C.MAX_PLAYERS * (1 + launches * (3 + int(cfg.params[C.P_BEERS_DRAWN]))
                                 + C.MAX_BATCH * C.MAX_PLAYERS)
    opening = C.MAX_PLAYERS * (int(cfg.params[C.P_BEER_HAND]) + int(cfg.params[C.P_REDRAW_MAX]))
    return rounds * per_round + opening + 16


NEUTRAL = "neutral"  # the blank beer card a `remove` treatment puts in a card's place (state.neutral_beer)


def card_names(config) -> list[str]:
    """Event `card` values: beer card ids, then "batch", then one id per ingredient kind
    (used for adjuncts: adjunct_berry, ...), then the neutral card of a `remove` treatment, in
    the codes the kernel logs (rules.beer_code, batch_code, adjunct_code)."""
    return list(config.beer_ids) + ["batch"] + [f"adjunct_{k}" for k in C.KINDS] + [NEUTRAL]


class BrewinUSA(GameBase):
    id = "brewin_usa"
    title = "Brewin' USA"
    player_counts = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))
    default_players = (4,)
    schema = schema
    constants = C
    violations = VIOLATIONS
    run_chunk = staticmethod(run_chunk)
    run_chunk_without_search = staticmethod(run_chunk_without_search)
    compile_ahead = staticmethod(compile_ahead)

    def build(self, data: GameData) -> BrewinConfig:
        return build_config(data)

    def kernel_inputs(self, config: BrewinConfig, options: dict):
        return make_rules(config), make_inputs(treatment.codes(self.treatable(config), options), len(config.ing_ids))

    def treatable(self, config: BrewinConfig) -> dict[str, list[str]]:
        """Beer cards (the ids of the events' play rows): the dealt beer hand is the nearest thing
        this game has to a starting deck. Removal only of beers with copies in the deck. The
        neutral beer can be injected (the blank reference of every injection), last: its type
        follows the real beers (rules.neutral_type)."""
        in_deck = [i for i, k in zip(config.beer_ids, config.beer[:, C.BF_COUNT], strict=True) if k > 0]
        return {"inject": [*config.beer_ids, NEUTRAL], "remove": in_deck}

    def treatment_notes(self) -> dict[str, str]:
        return {
            "inject": "The treated seat starts with one extra copy of the beer card beside its three dealt "
                      "beers (a fourth card until its first draw-and-discard); every deal stays as untreated.",
            "remove": "The beer card's copies in the beer deck are blank beer cards (\"neutral\": quality 0, "
                      "a recipe no hand can meet), in the same places, so every other card is dealt as before.",
        }

    def new_state(self, config: BrewinConfig, n_games: int, trace_rows: int = 1):
        events, rounds = self.buffer_rows(config, n_games)
        return make_state(len(config.ing_ids), events, trace_rows, rounds_capacity=rounds)

    def per_game_bounds(self, config: BrewinConfig) -> tuple[int, int]:
        return events_bound(config), C.MAX_PLAYERS * int(config.params[C.P_MAX_ROUNDS])

    def labels(self, config: BrewinConfig) -> dict[str, list[str]]:
        return {"end_reason": C.END_REASONS, "faction": ["none"], "policy": config.policy_ids,
                "card": card_names(config), "kind": C.LOG_KINDS}

    def replay(self, config, seed, game_id, player_counts, policies, options=None) -> list[str]:
        from .replay import replay_game

        return replay_game(self, config, seed, game_id, player_counts, policies, options)

    def manifest_extras(self, config: BrewinConfig) -> dict:
        styles = {i: config.beer[k, C.BF_STYLE] for k, i in enumerate(config.beer_ids)}
        return {
            "estimates": config.estimates,
            "cards": [{"id": i, "name": n, "category": C.STYLES[styles[i]]}
                      for i, n in zip(config.beer_ids, config.beer_names, strict=True)]
                     + [{"id": "batch", "name": "Ingredient batch", "category": "batch"}]
                     + [{"id": NEUTRAL, "name": "Blank beer card (remove treatment)", "category": "neutral"}]
                     + [{"id": f"adjunct_{k}", "name": f"{k.title()} adjunct", "category": "adjunct"}
                        for k in C.KINDS[C.BERRY:]],
            "value_kinds": ["play", "adjunct"],  # card value covers beers and adjuncts
            "cities": [{"id": i, "name": n, "region": C.REGIONS[config.city[k, C.CF_REGION]],
                        "prefers": C.STYLES[config.city[k, C.CF_PREF]]}
                       for k, (i, n) in enumerate(zip(config.city_ids, config.city_names, strict=True))],
        }


GAME = BrewinUSA()
