"""Build Dragon Brew states by hand for rule tests on the numba engine (chance is forced, not
rolled): a game after `kernel.start_game`, then cards, judges, books and beers placed by hand,
always taken from where they lie so that the card-conservation invariants keep holding."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.config import prepare
from sim.dragon_brew import GAME, kernel, rules, search
from sim.dragon_brew import constants as C
from sim.dragon_brew import planner as pn
from sim.dragon_brew.invariants import VIOLATIONS, check_all
from sim.dragon_brew.state import P_LC_ABILITY, RC_SPICE, make_state, view

SPRING_TURN, SPRING, FALL, WINTER = 0, 1, 2, 3  # check phases (0: in the middle of a spring turn)


def config(variant="base", sets=()):
    return GAME.build(prepare("dragon_brew", variant, list(sets), []))


@dataclass(repr=False)
class Game:
    cfg: object
    R: object
    B: object
    S: object
    X: object  # the run inputs (kernel.RunInputs)

    @property
    def Z(self):
        """The search bots' scratch (sim.dragon_brew.search.Search)."""
        return self.X.search

    def __repr__(self) -> str:  # short, for assertion messages
        return "Game(" + ", ".join(self.cfg.race_ids[p.race] for p in view(self.S).seats(self.n)) + ")"

    @property
    def n(self) -> int:
        return view(self.S).game.n

    def ci(self, seat: int, name: str) -> int:
        """Estate index of seat's card named `name` (common card, ability or Brewery card id)."""
        return ci(self.S, seat, key(self.cfg, name))

    def seat(self, seat: int):
        """seat's fields by name (sim.core.view), e.g. G.seat(0).gold, G.seat(0).stats.ribbons."""
        return view(self.S).seat(seat)

    def card(self, seat: int, name: str):
        """seat's estate card `name` by field name, e.g. G.card(0, "study").locked."""
        return view(self.S).estate(seat, self.ci(seat, name))


def game(races, variant="base", sets=(), policy="random", seed=1, game_id=0, treatment=None) -> Game:
    """A fresh game (kernel.start_game) with these races (ids) in seats 0..n-1; `policy` is one
    bot id for every seat or a list of one per seat; `treatment` a plan's {"kind", "target"}."""
    cfg = config(variant, sets)
    n = len(races)
    R, X = GAME.kernel_inputs(cfg, GAME.check_options(cfg, [n], {"treatment": treatment} if treatment else {}))
    S = make_state(4000, 64, 1)
    pols = [policy] * len(races) if isinstance(policy, str) else list(policy)
    seat_pols = np.array([cfg.policy_ids.index(p) for p in pols], np.int64)
    ids = cfg.race_ids
    lineup = np.array([ids.index(r) for r in races], np.int64)
    pool = np.arange(len(ids), dtype=np.int64)
    # With one player count the seat schedule's position k is the game id, and with one bot
    # entry per seat seat s plays entry (s + k mod n + k div n mod n) mod n: roll the list by
    # that turn so seat s gets pols[s]; keep the lineup fixed (rotate=False): seat s gets races[s].
    counts = np.array([n], np.int64)
    turn = game_id % n + (game_id // n) % n
    kernel.start_game(S, R, np.uint64(seed), game_id, counts, np.roll(seat_pols, turn), pool, lineup, False,
                      X.treatment)
    search.start_game(X.search, np.uint64(seed), game_id)
    return Game(cfg, R, X.bots, S, X)


# ----------------------------------------------------------------------------- ids

def brewery(cfg, card_id: str) -> int:
    return [c["id"] for c in cfg.brewery].index(card_id)


def event(cfg, card_id: str) -> int:
    return [c["id"] for c in cfg.events].index(card_id)


def recipe(cfg, rid: str) -> int:
    return [r["id"] for r in cfg.recipes].index(rid)


def judge(cfg, jid: str) -> int:
    return [j["id"] for j in cfg.judges].index(jid)


def key(cfg, name: str) -> int:
    """Estate card key of a common card, a race ability or a Brewery card type."""
    if name in C.COMMON:
        return C.COMMON.index(name)
    if name in C.ABILITIES:
        return C.KEY_ABILITY + C.ABILITIES.index(name)
    return C.KEY_BREWERY + brewery(cfg, name)


def ci(S, seat: int, k: int) -> int:
    """Estate index of seat's first card with key k, or -1."""
    v = view(S)
    for i in range(v.seat(seat).n_cards):
        if v.estate(seat, i).key == k:
            return i
    return -1


def keys(G: Game, seat: int) -> list[int]:
    v = view(G.S)
    return [v.estate(seat, i).key for i in range(v.seat(seat).n_cards)]


# ----------------------------------------------------------------------------- piles

def pile(S, p: int) -> list[int]:
    """The cards of pile p (PILE_*), bottom first."""
    return [int(x) for x in S.piles[p, :view(S).game.pile_size[p]]]


def set_pile(S, p: int, cards: list[int]) -> None:
    S.piles[p, :len(cards)] = cards
    view(S).game.pile_size[p] = len(cards)


def take_from_pile(S, p: int, card: int) -> bool:
    cards = pile(S, p)
    if card not in cards:
        return False
    cards.remove(card)
    set_pile(S, p, cards)
    return True


def take_card(G: Game, t: int, deck="brewery") -> None:
    """Take one card of type t out of play (deck, discard or draft row; a row slot is refilled
    from the deck) so that a test can place it by hand."""
    S, piles = G.S, view(G.S).piles
    dk, disc, row = ((C.PILE_BDECK, C.PILE_BDISC, piles.brewery_row) if deck == "brewery"
                     else (C.PILE_EDECK, C.PILE_EDISC, piles.event_row))
    if take_from_pile(S, dk, t) or take_from_pile(S, disc, t):
        return
    slots = [i for i in range(C.MAX_ROW) if row[i] == t]
    assert slots, f"no {deck} card {t} left"
    row[slots[0]] = -1
    rules.refill_rows(S, G.R)


def put_under(G: Game, seat: int, target: str, card_id: str) -> int:
    """An upgrade card under seat's estate card `target`; returns the card type."""
    t = brewery(G.cfg, card_id)
    take_card(G, t)
    card = G.card(seat, target)
    card.up[card.n_up] = t
    card.n_up += 1
    return t


def give(G: Game, seat: int, card_id: str) -> int:
    """A Brewery card into seat's estate (as if drafted free); returns its estate index."""
    t = brewery(G.cfg, card_id)
    take_card(G, t)
    rules.add_brewery_card(G.S, G.R, seat, t)
    return ci(G.S, seat, C.KEY_BREWERY + t)


def offer_event(G: Game, card_id: str, slot=0) -> int:
    """Event card `card_id` face up at `slot` of the Event row; the card it replaces goes back
    on top of the Event deck."""
    t = event(G.cfg, card_id)
    take_card(G, t, "event")
    row = view(G.S).piles.event_row
    old = int(row[slot])
    if old >= 0:
        rules.push(G.S, C.PILE_EDECK, old)
    row[slot] = t
    return t


def set_judges(G: Game, judges: list[int]) -> None:
    """Show exactly these judges (slot order): the shown ones go back to the judge deck, the
    wanted ones come from the deck or the box."""
    S, v = G.S, view(G.S)
    for slot in range(v.game.n_judges):
        rules.push(S, C.PILE_JDECK, int(v.piles.judges[slot]))
    v.piles.judges = -1
    for slot, j in enumerate(judges):
        assert take_from_pile(S, C.PILE_JDECK, j) or take_from_pile(S, C.PILE_JBOX, j), j
        v.piles.judges[slot] = j
    v.game.n_judges = len(judges)


def set_book(G: Game, seat: int, recipes: list[int]) -> None:
    """seat's recipe book becomes exactly these recipes (taken from the decks, discards, the
    offering or another book); its old cards go to the discard piles."""
    S, R = G.S, G.R
    for r in book(G, seat):
        rules.push(S, C.PILE_RDISC_BARREL + R.rc[r, RC_SPICE], r)
    G.seat(seat).n_book = 0
    for r in recipes:
        if not any(take_from_pile(S, p, r) for p in (C.PILE_RDECK_BARREL, C.PILE_RDECK_SPICE,
                                                      C.PILE_RDISC_BARREL, C.PILE_RDISC_SPICE)):
            piles = view(S).piles
            offer = next((row for row in (piles.barrel_offer, piles.spice_offer) if r in row), None)
            if offer is not None:
                offer[list(offer).index(r)] = -1
                rules.refill_offer(S, R)
            else:
                q = next(q for q in range(G.n) if r in book(G, q))
                rest = [x for x in book(G, q) if x != r]
                G.seat(q).book[:len(rest)] = rest
                G.seat(q).n_book = len(rest)
        rules.add_to_book(S, seat, r)


def book(G: Game, seat: int) -> list[int]:
    p = G.seat(seat)
    return [int(x) for x in p.book[:p.n_book]]


# ----------------------------------------------------------------------------- beers

def set_beers(G: Game, seat: int, beers: list) -> None:
    """This year's presented beers of seat: each a (color, strength, bitterness) tuple, or a
    list of recipe indices (barrel first) whose characteristics, VP and gold add up."""
    S, cfg = G.S, G.cfg
    S.beers[seat] = -1
    for x, b in enumerate(beers):
        beer = view(S).beer(seat, x)
        beer.set(n_spices=0, vp=0, gold=0, won=0)
        if isinstance(b, tuple):
            beer.chars = b
            continue
        beer.set(barrel=b[0], n_spices=len(b) - 1)
        beer.spices[:len(b) - 1] = b[1:]
        beer.chars = np.sum([cfg.recipes[r]["chars"] for r in b], axis=0)
        beer.vp = sum(cfg.recipes[r]["vp"] for r in b)
        beer.gold = sum(cfg.recipes[r]["gold"] for r in b)
    G.seat(seat).n_beers = len(beers)


def won(G: Game, seat: int) -> list[bool]:
    return [bool(view(G.S).beer(seat, k).won) for k in range(G.seat(seat).n_beers)]


# ----------------------------------------------------------------------------- moves

def move(kind: int, a=0, b=0, c=0, d=0) -> np.ndarray:
    return np.array([kind, a, b, c, d], np.int64)


def legal(G: Game, seat: int) -> list[tuple]:
    """seat's legal moves under the current turn flags (view(S).game.flags), as tuples."""
    n = rules.legal_moves(G.S, G.R, seat)
    return [tuple(int(x) for x in G.S.moves[k]) for k in range(n)]


def apply(G: Game, seat: int, kind: int, a=0, b=0, c=0, d=0, fresh=True) -> None:
    """Play a move for seat; fresh: in a new turn (turn flags cleared first)."""
    if fresh:
        view(G.S).game.flags = 0
    rules.apply_move(G.S, G.R, G.B, seat, move(kind, a, b, c, d))


def events(G: Game, kind: int | None = None) -> list[tuple]:
    """Event-log rows (game, seat, year, card code, kind, amount), optionally of one kind."""
    rows = [tuple(int(x) for x in r) for r in G.S.ev[:view(G.S).game.events]]
    return [r for r in rows if kind is None or r[4] == kind]


def ability_code(G: Game, ability: str) -> int:
    """Events-table card code of a race ability."""
    return int(G.R.p[P_LC_ABILITY]) + C.ABILITIES.index(ability)


# ----------------------------------------------------------------------------- bots

def set_need(G: Game, seat: int, **need) -> None:
    """A planner seat's need vector (ingredient name -> count, the rest 0): the planner's grain,
    magic and wort choices follow it, so a test fixes the choices inside an action."""
    pn.reset(G.B, seat)
    G.B.mem[seat, pn.M_GID] = view(G.S).game.game  # the bot's memory belongs to this game
    for name, k in need.items():
        G.B.mem[seat, pn.M_NEED + C.ING_INDEX[name]] = k


def need(G: Game, seat: int) -> list[int]:
    return [int(x) for x in G.B.mem[seat, pn.M_NEED:pn.M_NEED + C.N_INGS]]


def copy_state(S):
    return type(S)(*[a.copy() for a in S])


def pin_stream(G: Game, seat: int, chooses, tries=5000) -> int:
    """Set seat's (random bot's) policy stream to the first state under which `chooses(S)`
    (run on a copy of the state) is true: the random bot's choice is then known."""
    for x in range(1, tries):
        S2 = copy_state(G.S)
        S2.rng[1 + seat] = np.uint64(x)
        if chooses(S2):
            G.S.rng[1 + seat] = np.uint64(x)
            return x
    raise AssertionError("no stream state makes that choice")


def check(S, R, phase: int) -> None:
    v = int(check_all(S, R, phase))
    assert v == 0, VIOLATIONS[v]


def ing(**counts) -> np.ndarray:
    """An inventory row (ingredient name -> count)."""
    inv = np.zeros(C.N_INGS, np.int64)
    for name, k in counts.items():
        inv[C.ING_INDEX[name]] = k
    return inv


__all__ = ["C", "Game", "game", "config", "brewery", "event", "recipe", "judge", "key", "ci", "keys", "pile",
           "take_card", "put_under", "give", "offer_event", "set_judges", "set_book", "book", "set_beers", "won",
           "move", "legal", "apply", "events", "ability_code", "set_need", "need", "copy_state", "pin_stream",
           "check", "ing", "SPRING_TURN", "SPRING", "FALL", "WINTER"]


def gold(G: Game, seat: int) -> int:
    return G.seat(seat).gold


def inv(G: Game, seat: int) -> list[int]:
    """seat's ingredients behind the screen, in constants order."""
    return list(G.seat(seat).inv)
