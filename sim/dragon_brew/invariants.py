"""Dragon Brew invariants, checked after every phase when `check=True`:
no negative gold or ingredients or brewer counts; cards conserved (Brewery 68 incl. those
sacrificed to the box, Event 68, recipes 102, judges 42); migrant gnomes conserved (10);
each judge awards at most once (ribbons == judges won, one per beer); the year within bounds."""

from __future__ import annotations

from sim.core.errors import InvariantViolation

from . import constants as C


def check_game(g, phase: str):
    def fail(msg):
        raise InvariantViolation("dragon_brew", g.seed, g.game_id, msg, phase)

    cfg = g.cfg
    for p in g.players:
        if p.gold < 0:
            fail(f"seat {p.seat} has negative gold {p.gold}")
        if min(p.inv) < 0:
            fail(f"seat {p.seat} has a negative ingredient {p.inv}")
        for name in ("own_avail", "gnome_avail", "housing", "own_total", "own_out"):
            if getattr(p, name) < 0:
                fail(f"seat {p.seat} has negative {name}")
        if any(c.own < 0 or c.gnome < 0 for c in p.estate):
            fail(f"seat {p.seat} has a card with negative brewers")
        if p.ribbons != p.stats["judges_won"]:
            fail(f"seat {p.seat}: ribbons {p.ribbons} != judges won {p.stats['judges_won']}")
        if sum(1 for b in p.beers if b[5]) > len(g.judges):
            fail(f"seat {p.seat}: more ribboned beers than judges")
    # brewery cards
    n_b = len(g.bdeck) + len(g.bdisc) + sum(1 for t in g.brow if t >= 0) + g.box_brewery
    for p in g.players:
        for c in p.estate:
            n_b += (1 if c.bc >= 0 else 0) + len(c.upgrades)
    if n_b != sum(c["count"] for c in cfg.brewery):
        fail(f"brewery cards not conserved: {n_b}")
    n_e = len(g.edeck) + len(g.edisc) + sum(1 for t in g.erow if t >= 0) + sum(len(p.quest_cards) for p in g.players)
    if n_e != sum(c["count"] for c in cfg.events):
        fail(f"event cards not conserved: {n_e}")
    n_r = sum(len(g.rdeck[d]) + len(g.rdisc[d]) + sum(1 for r in g.roffer[d] if r >= 0) for d in ("barrel", "spice"))
    n_r += sum(len(p.book) for p in g.players)
    if n_r != len(cfg.recipes):
        fail(f"recipe cards not conserved: {n_r}")
    for p in g.players:
        if len(set(p.book)) != len(p.book):
            fail(f"seat {p.seat} holds a recipe twice")
    n_j = len(g.jdeck) + len(g.judges) + len(g.jbox) + len(g.shadow)
    if n_j != len(cfg.judges):
        fail(f"judges not conserved: {n_j}")
    gn = g.gnome_supply + sum(p.gnome_avail + p.housing + sum(c.gnome for c in p.estate) for p in g.players)
    if gn != cfg.params["gnome_limit"]:
        fail(f"migrant gnomes not conserved: {gn}")
    if g.gnome_supply < 0:
        fail("negative gnome supply")
    if not 1 <= g.year <= cfg.params["years"]:
        fail(f"year {g.year} out of bounds")
    if phase == "spring" and any(p.on_race_card() for p in g.players):
        fail("spring ended with brewers on a race card")
    for slot, (seat, amt) in g.bribes.items():
        if g.players[seat].bribe != (slot, amt):
            fail("bribe token and judge disagree")
    _ = C
