"""Dragon Brew game state: plain Python objects (this game's engine is pure Python, see
docs/games/dragon_brew.md "Engine"), and the counter-based random streams of sim.core.rng
re-implemented bit-for-bit in Python so that a game is a pure function of (seed, game_id).

Layout
------
Game: decks (lists of card-type indices, top = end of list), face-up rows (lists, -1 = empty
slot), the shown judges (list of judge indices, left to right), bribes and Ogre brewers per
judge slot, the migrant-gnome supply, the players in seat order (seat 0 = first player of year 1)
and the current turn order.
Player: race, gold, VP, ribbons, ingredients (list of 10 counts, constants.INGS order), recipe
book (recipe indices), brewers (own on the race card, gnomes on the race card, gnomes in Gnome
Housing, own brewers passed / on quests / on the Ogre's judges) and the estate (list of Card).
Card: one estate card (common card, race ability card or drafted Brewery card) with the brewers
on it this year, its lock or spell token, and the Brewery upgrade cards under it.
"""

from __future__ import annotations

from . import constants as C

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    z &= MASK
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def stream_seed(seed: int, game_id: int, stream: int, sub: int) -> int:
    """Same value as sim.core.rng.stream_seed (checked by a test)."""
    h = mix64(seed + GOLDEN)
    h = mix64(h ^ ((game_id * GOLDEN) & MASK))
    h = mix64(h ^ ((stream * M1) & MASK))
    return mix64(h ^ (((sub * M2) + GOLDEN) & MASK))


class Rng:
    """One SplitMix64 stream (sim.core.rng.next_u64 / randint semantics)."""

    __slots__ = ("s",)

    def __init__(self, state: int):
        self.s = state

    def next(self) -> int:
        self.s = (self.s + GOLDEN) & MASK
        return mix64(self.s)

    def randint(self, n: int) -> int:
        return ((self.next() >> 32) * n) >> 32

    def uniform(self) -> float:
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)

    def shuffle(self, arr: list) -> None:
        for k in range(len(arr) - 1, 0, -1):
            j = self.randint(k + 1)
            arr[k], arr[j] = arr[j], arr[k]

    def choice(self, seq):
        return seq[self.randint(len(seq))]


class Card:
    __slots__ = ("key", "bc", "kind", "infinite", "locked", "own", "gnome", "upgrades", "spell_used")

    def __init__(self, key: str, bc: int, kind: str, infinite: bool):
        self.key = key  # common card name, ability id, or brewery card id
        self.bc = bc  # brewery card type index, -1 for race cards
        self.kind = kind  # "action" | "upgrade" | "housing" | "free" | "spell" | "passive" | "stores"
        self.infinite = infinite
        self.locked = False
        self.own = 0  # own brewers on the card this year
        self.gnome = 0  # migrant gnomes on the card this year
        self.upgrades: list[int] = []  # brewery card type indices under this card
        self.spell_used = False


class Player:
    __slots__ = ("seat", "race", "ability", "policy", "gold", "vp", "ribbons", "stamp", "inv", "book",
                 "own_total", "own_avail", "gnome_avail", "housing", "own_out", "gnomes_out", "sacrificed",
                 "estate", "bribe", "quest_cards", "beers", "stats", "extra_gold_setup")

    def __init__(self, seat: int, race: int, ability: str, policy: int):
        self.seat = seat
        self.race = race
        self.ability = ability
        self.policy = policy
        self.gold = 0
        self.vp = 0
        self.ribbons = 0
        self.stamp = 0  # scoring-disk stacking: higher = on top
        self.inv = [0] * C.N_INGS
        self.book: list[int] = []
        self.own_total = 0  # own brewers in the game (Chaos Wytch sacrifices lower it)
        self.own_avail = 0  # own brewers on the race card
        self.gnome_avail = 0  # migrant gnomes on the race card
        self.housing = 0  # gnomes in Gnome Housing
        self.own_out = 0  # own brewers passed, on quests or on judges (back in winter)
        self.gnomes_out = 0  # gnomes passed into the supply this year are not counted; gnomes on cards
        self.sacrificed = 0  # Chaos Wytch brewers on Dark Sacrifice this year (leave the game in winter)
        self.estate: list[Card] = []
        self.bribe = None  # (judge slot, gold) or None
        self.quest_cards: list[int] = []  # brewer quests held until winter (event type indices)
        self.beers: list[list] = []  # this year's beers: [barrel, spices, chars, vp, gold, ribbon]
        self.stats = dict.fromkeys(C.PLAYER_STATS, 0)

    def card(self, key: str):
        for c in self.estate:
            if c.key == key:
                return c
        return None

    def on_race_card(self) -> int:
        return self.own_avail + self.gnome_avail


class Game:
    __slots__ = ("cfg", "n", "players", "order", "year", "game_id", "seed", "bdeck", "bdisc", "brow", "edeck",
                 "edisc", "erow", "rdeck", "rdisc", "roffer", "jdeck", "judges", "jbox", "shadow", "bribes",
                 "ogre", "gnome_supply", "rng", "pol_rng", "log", "trace", "decisions", "stamp", "box_brewery",
                 "corrupt", "policies", "judged", "phase", "turn_flags", "turns", "bots", "year_vp")

    def __init__(self, cfg, game_id: int, seed: int):
        self.cfg = cfg
        self.game_id = game_id
        self.seed = seed
        self.year = 1
        self.players: list[Player] = []
        self.order: list[int] = []
        self.bdeck: list[int] = []
        self.bdisc: list[int] = []
        self.brow: list[int] = []
        self.edeck: list[int] = []
        self.edisc: list[int] = []
        self.erow: list[int] = []
        self.rdeck = {"barrel": [], "spice": []}
        self.rdisc = {"barrel": [], "spice": []}
        self.roffer = {"barrel": [], "spice": []}
        self.jdeck: list[int] = []
        self.judges: list[int] = []
        self.jbox: list[int] = []  # used / removed judges
        self.shadow: list[int] = []  # Dark Elf's face-down judges
        self.bribes: dict[int, tuple[int, int]] = {}  # judge slot -> (seat, gold)
        self.ogre: dict[int, int] = {}  # judge slot -> Ogre seat
        self.gnome_supply = 0
        self.log: list[tuple] = []
        self.year_vp: list[list[int]] = []  # every seat's VP after each year's fall scoring
        self.trace = None  # list of lines when replaying
        self.decisions = 0
        self.stamp = 0
        self.box_brewery = 0  # Dark Sacrifice: brewery cards returned to the box
        self.judged = 0
        self.phase = 0
        self.turns = 0
