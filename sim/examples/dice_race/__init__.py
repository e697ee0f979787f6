"""Dice Race: the toy fifth game of docs/adding_a_game.md (rules in rules.py). Not registered
with the CLI; tests/test_adding_a_game.py registers it to play it end to end."""

from __future__ import annotations

from sim.core.config import GameData
from sim.core.game import GameBase

from . import rules, schema
from .data import DiceRaceConfig, build_config


class DiceRace(GameBase):
    id = "dice_race"
    title = "Dice Race"
    player_counts = tuple(range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1))
    default_players = (2,)
    schema = schema
    constants = rules
    violations = rules.VIOLATIONS
    run_chunk = staticmethod(rules.run_chunk)

    def build(self, data: GameData) -> DiceRaceConfig:
        return build_config(data)

    def kernel_inputs(self, config: DiceRaceConfig, options: dict):
        return rules.Rules(config.params, config.policy_kind, config.policy_hold), ()

    def per_game_bounds(self, config: DiceRaceConfig) -> tuple[int, int]:
        turns = rules.MAX_PLAYERS * int(config.params[rules.P_ROUNDS])
        return turns, turns  # one event row and one rounds row per turn

    def new_state(self, config: DiceRaceConfig, n_games: int, trace_rows: int = 1):
        events, rounds = self.buffer_rows(config, n_games)
        return rules.make_state(events, rounds, trace_rows)

    def labels(self, config: DiceRaceConfig) -> dict[str, list[str]]:
        return {"end_reason": ["rounds played"], "faction": ["none"], "policy": config.policy_ids,
                "card": list(rules.CARDS), "kind": list(rules.LOG_KINDS)}

    def replay(self, config, seed, game_id, player_counts, policies) -> list[str]:
        state, players = self.play_traced(config, seed, game_id, player_counts, policies)
        lines = [f"Dice Race game {game_id} (seed {seed})"]
        for code, rnd, seat, a, b, *_ in state.trace[:state.g[rules.G_TRACE]].tolist():
            lines.append(f"  round {rnd + 1} seat {seat} " + (f"rolls {a} (turn {b})" if code == rules.TR_ROLL
                                                              else f"banks {a} (score {b})"))
        return lines + [f"Result: seat {s} {row[schema.PLAYERS.at.score]}" for s, row in enumerate(players)]

    def manifest_extras(self, config: DiceRaceConfig) -> dict:
        return {"estimates": config.estimates, "cards": [{"id": "turn", "name": "Turn", "category": "turn"}]}


GAME = DiceRace()
