"""Build Dragon Brew games by hand for rule tests (chance is forced, not rolled)."""

from __future__ import annotations

from sim.core.config import prepare
from sim.dragon_brew import GAME
from sim.dragon_brew import constants as C
from sim.dragon_brew.policies import PlannerBot
from sim.dragon_brew.rules import new_game


def config(variant="base", sets=()):
    return GAME.build(prepare("dragon_brew", variant, list(sets), []))


class ScriptBot(PlannerBot):
    """A planner whose choices inside actions can be forced by setting attributes."""

    grain_script: list[int] | None = None
    magic_script: list[int] | None = None
    wort_script: list[int] | None = None

    def grains(self, g, p, n):
        if self.grain_script is not None:
            out, self.grain_script = self.grain_script[:n], self.grain_script[n:]
            return out
        return super().grains(g, p, n)

    def magic(self, g, p, n):
        if self.magic_script is not None:
            out, self.magic_script = self.magic_script[:n], self.magic_script[n:]
            return out
        return super().magic(g, p, n)

    def wort(self, g, p):
        if self.wort_script is not None:
            return self.wort_script.pop(0) if self.wort_script else -1
        return super().wort(g, p)

    def trader_count(self, g, p, mult, cost):
        return mult


def game(races, variant="base", sets=()):
    """A fresh game with these races (ids) in seats 0..n-1, scripted planner bots."""
    cfg = config(variant, sets)
    ids = cfg.race_ids
    greedy = cfg.policy_ids.index("greedy")
    g = new_game(cfg, 1, 0, [ids.index(r) for r in races], [greedy] * len(races))
    g.bots = [ScriptBot(cfg, cfg.policies[greedy], g.pol_rng[s]) for s in range(len(races))]
    for b in g.bots:
        b.plan, b.plan_value, b.extra = [], 0.0, 0.0
    return g


def brewery(cfg, card_id: str) -> int:
    return [c["id"] for c in cfg.brewery].index(card_id)


def event(cfg, card_id: str) -> int:
    return [c["id"] for c in cfg.events].index(card_id)


def recipe(cfg, rid: str) -> int:
    return [r["id"] for r in cfg.recipes].index(rid)


def judge(cfg, jid: str) -> int:
    return [j["id"] for j in cfg.judges].index(jid)


def take_from_decks(g, t: int, deck="brewery"):
    """Remove one copy of card type t from the draw pile (so conservation holds when a test
    places it somewhere by hand)."""
    pile = g.bdeck if deck == "brewery" else g.edeck
    pile.remove(t)


def flags():
    return {"brewer": False, "cleared": False, "drafted": False, "free": 0}


__all__ = ["C", "ScriptBot", "game", "brewery", "event", "recipe", "judge", "take_from_decks", "flags", "config"]
