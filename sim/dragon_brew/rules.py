"""Dragon Brew rules (paraphrased; the rulebook is the authority).

A game is three years of Spring (turns clockwise until every brewer is assigned or passed), Fall
(brew behind screens, present, judge left to right, collect profit) and Winter (reset, refresh,
new turn order: lowest VP first, ties to the disk on top of the stack).

Spring turn of one player, in any order: at most one clearing of the draft (1 gold, any five
cards), at most one draft (pay the cost, refill), any number of spells (each once a year) and
free actions, and exactly one brewer action if a brewer stands on the race card (assign it to an
action card, or pass it). Gnomes in Gnome Housing are never mandatory. A player without brewers
still takes turns (to draft) while others have brewers. The phase ends when no race card holds a
brewer; the last placer finishes the turn.

Moves (tuples; policies choose among `legal_moves`):
  ("end",) ("clear_draft",) ("draft", row, slot) ("brewer", ci, src) ("pass", src)
  ("guest", ci, seat, oci, src) ("sacrifice", ci, tci) ("ogre", ci, slot) ("spellbook", ci, seat, sci)
  ("spell", ci) ("servant", ci, seat, oci) ("free", ci) ("bribe", slot, gold) ("house",)
where ci indexes the player's estate, oci/sci another player's estate, src 0 = race card,
1 = Gnome Housing, row 0 = Brewery row, 1 = Event row.
"""

from __future__ import annotations

from . import constants as C
from .state import Card, Game, Player, Rng, stream_seed

ACTION_COMMON = ("study", "brewery", "grain_fields", "magic_trader", "mash_house")
ABILITY_ACTIONS = ("horse_guests", "dark_sacrifice", "gold_mine", "black_market", "mana_spell", "ogre_ruled",
                   "borrower", "spell_book")
NOT_BORROWABLE = ("horse_guests", "dark_sacrifice", "ogre_ruled", "spell_book", "brewery")
FREE_ABILITIES = ("farmers_market", "sea_port", "drain_gnome")
MAX_FREE_MOVES = 12  # bound on free actions/spells per turn (the rules set none; bots never need more)


# ----------------------------------------------------------------------------- logging

def log(g: Game, p, kind: str, card: str, amount: int = 1):
    g.log.append((p.seat if p is not None else -1, g.year, card, kind, amount))
    if kind == "ability" and p is not None:
        p.stats["ability_uses"] += 1


def say(g: Game, text: str):
    if g.trace is not None:
        g.trace.append(text)


def race_name(g, p):
    return g.cfg.races[p.race]["name"]


# ----------------------------------------------------------------------------- decks

def draw(g: Game, deck: list, disc: list) -> int:
    if not deck:
        if not disc:
            return -1
        deck.extend(disc)
        disc.clear()
        g.rng.shuffle(deck)
    return deck.pop()


def draw_brewery(g):
    return draw(g, g.bdeck, g.bdisc)


def draw_event(g):
    return draw(g, g.edeck, g.edisc)


def draw_recipe(g, deck: str) -> int:
    return draw(g, g.rdeck[deck], g.rdisc[deck])


def refill_rows(g: Game):
    for i in range(len(g.brow)):
        if g.brow[i] < 0:
            g.brow[i] = draw_brewery(g)
    for i in range(len(g.erow)):
        if g.erow[i] < 0:
            g.erow[i] = draw_event(g)


def refill_offer(g: Game):
    for deck in ("barrel", "spice"):
        row = g.roffer[deck]
        for i in range(len(row)):
            if row[i] < 0:
                row[i] = draw_recipe(g, deck)


# ----------------------------------------------------------------------------- setup

def common_card(g, key: str) -> Card:
    inf = g.cfg.params["infinite"].get(key, False)
    kind = "stores" if key == "winter_stores" else "action"
    return Card(key, -1, kind, inf)


def ability_card(g, ability: str) -> Card:
    use = g.cfg.abilities[ability]["use"]
    kind = {"action_once": "action", "action_infinite": "action", "free": "free", "spell": "spell"}.get(use, "passive")
    return Card(ability, -1, kind, use == "action_infinite")


def new_game(cfg, seed: int, game_id: int, races: list[int], policies: list[int]) -> Game:
    """Set up a game: races[s] and policies[s] for seat s (seat 0 is the first player)."""
    g = Game(cfg, game_id, seed)
    P = cfg.params
    n = len(races)
    g.n = n
    g.corrupt = bool(P["corrupt_judge"])
    g.rng = Rng(stream_seed(seed, game_id, 1, 0))  # STREAM_DECKS
    g.pol_rng = [Rng(stream_seed(seed, game_id, 3, s)) for s in range(n)]  # STREAM_POLICY per seat
    g.policies = policies
    g.gnome_supply = P["gnome_limit"]
    # decks
    g.bdeck = [i for i, c in enumerate(cfg.brewery) for _ in range(c["count"])]
    g.edeck = [i for i, c in enumerate(cfg.events) for _ in range(c["count"])]
    for deck in ("barrel", "spice"):
        g.rdeck[deck] = [i for i, r in enumerate(cfg.recipes) if r["deck"] == deck]
        g.rng.shuffle(g.rdeck[deck])
    g.rng.shuffle(g.bdeck)
    g.rng.shuffle(g.edeck)
    regular = [i for i, j in enumerate(cfg.judges) if not j["corrupt"]]
    g.rng.shuffle(regular)
    if g.corrupt:
        g.jbox.extend(regular[:P["corrupt_removed"]])
        regular = regular[P["corrupt_removed"]:] + [i for i, j in enumerate(cfg.judges) if j["corrupt"]]
        g.rng.shuffle(regular)
    else:
        g.jbox.extend(i for i, j in enumerate(cfg.judges) if j["corrupt"])
    g.jdeck = regular
    # players
    for s in range(n):
        r = cfg.races[races[s]]
        p = Player(s, races[s], r["ability"], policies[s])
        p.gold = r["gold"]
        p.inv[C.WHEAT], p.inv[C.RYE], p.inv[C.BARLEY] = r["wheat"], r["rye"], r["barley"]
        p.own_total = p.own_avail = r["brewers"]
        p.estate = [common_card(g, k) for k in C.COMMON] + [ability_card(g, r["ability"])]
        p.stats["outside_recommended"] = int(not (r["min_players"] <= n <= r["max_players"]))
        g.players.append(p)
    # starting recipe books (dealt in seat order)
    for p in g.players:
        r = cfg.races[p.race]
        p.book = [draw_recipe(g, "barrel") for _ in range(r["barrel"])] + \
                 [draw_recipe(g, "spice") for _ in range(r["spice"])]
    g.roffer = {d: [draw_recipe(g, d) for _ in range(P["offering_row"])] for d in ("barrel", "spice")}
    g.brow = [draw_brewery(g) for _ in range(P["draft_row"])]
    g.erow = [draw_event(g) for _ in range(P["draft_row"])]
    # Dark Elf: three hidden judges drawn after the shuffle
    for p in g.players:
        if p.ability == "shadow_judge":
            g.shadow = [g.jdeck.pop() for _ in range(cfg.abilities["shadow_judge"]["n"])]
    deal_judges(g)
    # first player is seat 0; disks stacked so seat 0 is on top; extra gold 0/1/1/2
    extra = (0, P["extra_gold_2nd"], P["extra_gold_3rd"], P["extra_gold_4th"])
    for s in range(n - 1, -1, -1):
        g.stamp += 1
        g.players[s].stamp = g.stamp
        g.players[s].gold += extra[s]
    g.order = list(range(n))
    say(g, f"Setup: {n} players; judges: " + ", ".join(judge_text(g, j) for j in g.judges))
    for p in g.players:
        say(g, f"  seat {p.seat} {race_name(g, p)} ({cfg.policies[p.policy]['id']}): {p.gold} gold, "
               f"{p.own_avail} brewers, book {len(p.book)}")
    return g


def deal_judges(g: Game):
    g.judges = []
    for _ in range(g.n + g.cfg.params["judges_extra"]):
        if g.jdeck:
            g.judges.append(g.jdeck.pop())
    g.bribes = {}
    g.ogre = {}


def judge_text(g, j) -> str:
    J = g.cfg.judges[j]
    sec = "bribe" if J["corrupt"] else f"{J['secondary_dir']} {J['secondary']}"
    return f"{J['name']} ({J['primary_dir']} {J['primary']}, then {sec}; {J['vp']} VP)"


# ----------------------------------------------------------------------------- ingredients

def have(p: Player, klass, n: int) -> bool:
    """Can p pay n ingredients of a class (or one ingredient id), mana weed standing in?"""
    if isinstance(klass, int):
        return p.inv[klass] + p.inv[C.MANA] >= n
    return sum(p.inv[i] for i in C.CLASSES[klass]) + p.inv[C.MANA] >= n


def pay(g, p: Player, bot, klass, n: int):
    """Spend n ingredients of the class; the bot picks which, mana weed only when short."""
    if isinstance(klass, int):
        use = min(p.inv[klass], n)
        p.inv[klass] -= use
        p.inv[C.MANA] -= n - use
        return
    picks = bot.spend(g, p, C.CLASSES[klass], n)
    for i in picks:
        p.inv[i] -= 1
    p.inv[C.MANA] -= n - len(picks)


def can_pay_needs(inv: list, needs: list) -> bool:
    short = 0
    cnt = {}
    for i in needs:
        cnt[i] = cnt.get(i, 0) + 1
    for i, k in cnt.items():
        if inv[i] < k:
            short += k - inv[i]
    return short <= inv[C.MANA]


def pay_needs(p: Player, needs: list):
    for i in needs:
        if p.inv[i] > 0:
            p.inv[i] -= 1
        else:
            p.inv[C.MANA] -= 1


def gain(g, p, i: int, k: int = 1):
    p.inv[i] += k


# ----------------------------------------------------------------------------- derived card values

def n_upgrades(card, g, effect: str) -> int:
    if card is None:  # sacrificed by a Chaos Wytch
        return 0
    return sum(g.cfg.brewery[u]["amount"] for u in card.upgrades if g.cfg.brewery[u]["effect"] == effect)


def book_max(g, p) -> int:
    return g.cfg.races[p.race]["study_max"] + n_upgrades(p.card("study"), g, "book_max")


def stores_cap(g, p) -> int:
    c = p.card("winter_stores")
    return g.cfg.races[p.race]["stores"] + (n_upgrades(c, g, "stores") if c else 0)


def max_beers(g, p) -> int:
    c = p.card("brewery")
    if c is None:
        return 0
    return g.cfg.params["base_beers"] + c.own + c.gnome + n_upgrades(c, g, "beers") + p.stats.get("_guest_beers", 0)


def study_max_of(g, p):
    return g.cfg.races[p.race]["study_max"]


def trader_mult(g, owner) -> int:
    return g.cfg.races[owner.race]["trader_mult"] + n_upgrades(owner.card("magic_trader"), g, "trader_mult")


def mash_mult(g, owner) -> int:
    m = g.cfg.races[owner.race]["mash_mult"] + n_upgrades(owner.card("mash_house"), g, "mash_mult")
    if owner.ability == "mash_stomper":
        m += g.cfg.abilities["mash_stomper"]["n"]
    return m


def study_draw(g, owner) -> int:
    return g.cfg.params["study_draw"] + n_upgrades(owner.card("study"), g, "study_draw")


# ----------------------------------------------------------------------------- legal moves

def usable_action(g, p: Player, owner: Player, card: Card, via: str) -> bool:
    """Can p perform card's action now (resources, targets)? Locks are checked by the caller."""
    k = card.key
    if card.kind != "action":
        return False
    if via != "brewer" and k in NOT_BORROWABLE:
        return False
    if k == "magic_trader":
        return p.gold >= g.cfg.races[owner.race]["trader_cost"]
    if k == "mash_house":
        return sum(p.inv[i] for i in C.GRAINS) + p.inv[C.MANA] >= 2
    if k == "mana_spell":
        return p.inv[C.MANA] >= 1 and any(c.kind == "spell" and c.spell_used for c in p.estate)
    if k == "black_market":
        return any(draftable(g, p, r, s, free=True) for r in (0, 1) for s in range(len(g.brow)))
    if k == "brewery" and owner is not p:
        return False
    return True


def draftable(g, p: Player, row: int, slot: int, free: bool = False, brewer_ok: bool = True) -> bool:
    if row == 0:
        t = g.brow[slot]
        if t < 0:
            return False
        return free or p.gold >= g.cfg.brewery[t]["cost"]
    t = g.erow[slot]
    if t < 0:
        return False
    e = g.cfg.events[t]
    if not free and p.gold < e["cost"]:
        return False
    if e["kind"] == "migrant_gnomes" and g.gnome_supply < 1:
        return False
    if e["kind"] == "beer_festival" and not have(p, e["pay_kind"], e["pay_n"]):
        return False
    if e["brewer"] and not free and p.on_race_card() < 1:
        return False
    if e["kind"] == "recipe_scroll" and not (g.rdeck["barrel"] or g.rdisc["barrel"] or g.rdeck["spice"] or g.rdisc["spice"]):
        return False
    return True


def spell_castable(g, p: Player, card: Card, free_cost: bool = False) -> bool:
    if card.kind != "spell" or card.spell_used and not free_cost:
        return False
    k = card.key
    if k == "spinning_wheel":
        return have(p, "grain", g.cfg.abilities["spinning_wheel"]["n"])
    b = g.cfg.brewery[card.bc]
    sc = b["spell_cost"]
    if (not free_cost or not is_magic_cost(sc)) and not have(p, C.ING_INDEX.get(sc, sc), b["spell_n"]):
        return False
    e = b["effect"]
    if e == "raise_gnome":
        return any(c.gnome > 0 for c in p.estate)
    if e == "servant":
        return any(servant_targets(g, p))
    return True


def is_magic_cost(sc: str) -> bool:
    """The Wizard's Spell Book waives a spell's magic ingredient (toadstool, dragon scale, pixie
    wing); grain or wort costs are still paid."""
    return sc in ("magic", "toadstool", "dragon_scale", "pixie_wing")


def servant_targets(g, p):
    for q in g.players:
        for oci, c in enumerate(q.estate):
            if c.kind == "action" and c.key not in NOT_BORROWABLE and usable_action(g, p, q, c, "servant"):
                yield q.seat, oci


def legal_moves(g: Game, p: Player, flags: dict) -> list[tuple]:
    moves = []
    on_card = p.on_race_card()
    if flags["brewer"] or on_card == 0:
        moves.append(("end",))
    if not flags["cleared"] and p.gold >= g.cfg.params["clear_draft_cost"]:
        moves.append(("clear_draft",))
    if not flags["drafted"]:
        for row, r in ((0, g.brow), (1, g.erow)):
            for s in range(len(r)):
                if draftable(g, p, row, s):
                    moves.append(("draft", row, s))
    if flags["free"] < MAX_FREE_MOVES:
        for ci, c in enumerate(p.estate):
            if c.kind == "spell" and spell_castable(g, p, c):
                if c.key == "servant_spell":
                    for seat, oci in servant_targets(g, p):
                        moves.append(("servant", ci, seat, oci))
                else:
                    moves.append(("spell", ci))
            elif c.kind == "free" and free_usable(g, p, c):
                moves.append(("free", ci))
        if g.corrupt and p.bribe is None and p.gold >= 1:
            for slot, j in enumerate(g.judges):
                if g.cfg.judges[j]["corrupt"] and slot not in g.ogre:
                    cur = g.bribes.get(slot, (None, 0))[1]
                    if p.gold >= cur + 1:
                        moves.append(("bribe", slot, cur + 1))
        if p.gnome_avail > 0 and p.card("gnome_housing") is not None:
            moves.append(("house",))
    if not flags["brewer"]:
        srcs = []
        if on_card > 0:
            srcs.append(0)
        if p.housing > 0:
            srcs.append(1)
        for src in srcs:
            own_ok = src == 0 and p.own_avail > 0
            for ci, c in enumerate(p.estate):
                if c.kind != "action" or (c.locked and not c.infinite):
                    continue
                if g.cfg.abilities.get(c.key, {}).get("own_brewer_only") and not own_ok:
                    continue
                if c.key == "horse_guests":
                    for q in g.players:
                        if q is p:
                            continue
                        for oci, oc in enumerate(q.estate):
                            if usable_action(g, p, q, oc, "guest"):
                                moves.append(("guest", ci, q.seat, oci, src))
                elif c.key == "dark_sacrifice":
                    for tci, tc in enumerate(p.estate):
                        if tc.kind == "action" and tc.key != "dark_sacrifice":
                            moves.append(("sacrifice", ci, tci))
                elif c.key == "ogre_ruled":
                    for slot in range(len(g.judges)):
                        if slot not in g.ogre:
                            moves.append(("ogre", ci, slot))
                elif c.key == "spell_book":
                    for q in g.players:
                        for sci, sc in enumerate(q.estate):
                            if sc.kind == "spell" and sc.key != "spinning_wheel" and spell_castable(g, p, sc, True) \
                                    and sc.key != "servant_spell":
                                moves.append(("spellbook", ci, q.seat, sci))
                elif usable_action(g, p, p, c, "brewer"):
                    moves.append(("brewer", ci, src))
            if src == 0:
                moves.append(("pass", 0))
    return moves


def free_usable(g, p, c: Card) -> bool:
    A = g.cfg.abilities
    if c.key == "tavern":
        return have(p, "grain", g.cfg.brewery[c.bc]["amount"])
    if c.key == "farmers_market":
        return p.gold >= A["farmers_market"]["gold"]
    if c.key == "sea_port":
        return p.gold >= A["sea_port"]["gold"] and have(p, "grain", A["sea_port"]["n"])
    if c.key == "drain_gnome":
        return p.gnome_avail > 0 or p.housing > 0
    return False


# ----------------------------------------------------------------------------- applying moves

def take_brewer(g, p: Player, src: int, own_only: bool = False) -> str:
    """Take a brewer for an assignment: from Gnome Housing, or the race card (gnomes first)."""
    if src == 1:
        p.housing -= 1
        return "gnome"
    if p.gnome_avail > 0 and not own_only:
        p.gnome_avail -= 1
        return "gnome"
    p.own_avail -= 1
    return "own"


def place(card: Card, who: str, p: Player):
    if who == "gnome":
        card.gnome += 1
        p.gnomes_out += 1
    else:
        card.own += 1
    if not card.infinite:
        card.locked = True


def apply_move(g: Game, p: Player, bot, mv: tuple, flags: dict):
    g.decisions += 1
    k = mv[0]
    if k == "end":
        return
    if k == "clear_draft":
        p.gold -= g.cfg.params["clear_draft_cost"]
        clear_draft(g, p, bot)
        flags["cleared"] = True
        log(g, p, "clear_draft", "draft_pool", 1)
        return
    if k == "draft":
        do_draft(g, p, bot, mv[1], mv[2], free=False)
        flags["drafted"] = True
        return
    if k in ("spell", "servant"):
        flags["free"] += 1
        cast_spell(g, p, bot, p.estate[mv[1]], pay_cost=True, target=mv[2:] if k == "servant" else None)
        return
    if k == "free":
        flags["free"] += 1
        free_action(g, p, bot, p.estate[mv[1]])
        return
    if k == "bribe":
        flags["free"] += 1
        slot, amount = mv[1], mv[2]
        if slot in g.bribes:
            seat, old = g.bribes[slot]
            q = g.players[seat]
            q.gold += old
            q.bribe = None
            say(g, f"    seat {seat}'s bribe of {old} is outbid and refunded")
        p.gold -= amount
        g.bribes[slot] = (p.seat, amount)
        p.bribe = (slot, amount)
        log(g, p, "bribe", g.cfg.judges[g.judges[slot]]["id"], amount)
        say(g, f"  seat {p.seat} bribes {g.cfg.judges[g.judges[slot]]['name']} with {amount} gold")
        return
    if k == "house":
        flags["free"] += 1
        p.gnome_avail -= 1
        p.housing += 1
        return
    # brewer actions
    flags["brewer"] = True
    if k == "pass":
        who = take_brewer(g, p, mv[1])
        if who == "gnome":
            g.gnome_supply += 1
        else:
            p.own_out += 1
        say(g, f"  seat {p.seat} passes a brewer")
        return
    card = p.estate[mv[1]]
    own_only = bool(g.cfg.abilities.get(card.key, {}).get("own_brewer_only"))
    src = mv[-1] if k in ("brewer", "guest") else 0
    who = take_brewer(g, p, src, own_only)
    place(card, who, p)
    if k == "brewer":
        perform(g, p, p, card, bot, "brewer")
    elif k == "guest":
        q = g.players[mv[2]]
        oc = q.estate[mv[3]]
        log(g, p, "ability", "horse_guests", 1)
        say(g, f"  seat {p.seat} Horse Guests: uses seat {q.seat}'s {oc.key}")
        perform(g, p, q, oc, bot, "guest")
    elif k == "sacrifice":
        dark_sacrifice(g, p, mv[2])
    elif k == "ogre":
        slot = mv[2]
        g.ogre[slot] = p.seat
        p.own_out += 1  # the brewer stands on the judge
        card.own -= 1
        if slot in g.bribes:  # Ogre-Ruled: the bribe goes back to its owner
            seat, amt = g.bribes.pop(slot)
            g.players[seat].gold += amt
            g.players[seat].bribe = None
        log(g, p, "ability", "ogre_ruled", 1)
        say(g, f"  seat {p.seat} Ogre-Rules {g.cfg.judges[g.judges[slot]]['name']}")
    elif k == "spellbook":
        q = g.players[mv[2]]
        sc = q.estate[mv[3]]
        log(g, p, "ability", "spell_book", 1)
        say(g, f"  seat {p.seat} Spell Book: casts seat {q.seat}'s {sc.key} for free")
        cast_spell(g, p, bot, sc, pay_cost=False, target=None, mark=False)


def dark_sacrifice(g, p: Player, tci: int):
    target = p.estate[tci]
    freed_own, freed_gnome = target.own, target.gnome
    p.own_avail += freed_own
    p.gnome_avail += freed_gnome
    p.gnomes_out -= freed_gnome
    p.sacrificed += 1
    g.box_brewery += len(target.upgrades) + (1 if target.bc >= 0 else 0)
    del p.estate[tci]
    log(g, p, "ability", "dark_sacrifice", freed_own + freed_gnome)
    log(g, p, "sacrifice_card", target.key if target.bc < 0 else g.cfg.brewery[target.bc]["id"], 1)
    say(g, f"  seat {p.seat} Dark Sacrifice: {target.key} to the box, {freed_own + freed_gnome} brewers freed")


def perform(g: Game, p: Player, owner: Player, card: Card, bot, via: str):
    """The action of `card` (in owner's estate, with owner's upgrades) performed for p."""
    k = card.key
    A = g.cfg.abilities
    R = g.cfg.races[owner.race]
    if k == "grain_fields":
        got = bot.grains(g, p, R["grain_yield"])
        for u in card.upgrades:
            b = g.cfg.brewery[u]
            if b["effect"] == "grain_any":
                got += bot.grains(g, p, b["amount"])
            elif b["effect"].startswith("grain_"):
                got += [C.ING_INDEX[b["effect"][6:]]] * b["amount"]
        if owner.ability == "fertile_fields":
            got += bot.grains(g, p, A["fertile_fields"]["n"])
            if owner is p:
                log(g, p, "ability", "fertile_fields", A["fertile_fields"]["n"])
        for i in got:
            p.inv[i] += 1
        if owner.ability == "sacred_grove":
            for i in bot.magic(g, p, A["sacred_grove"]["n"]):
                p.inv[i] += 1
            if owner is p:
                log(g, p, "ability", "sacred_grove", A["sacred_grove"]["n"])
        say(g, f"  seat {p.seat} Grain Fields: +{len(got)} grain")
    elif k == "study":
        if owner.ability == "arcane_library":
            p.gold += A["arcane_library"]["gold"]
            if owner is p:
                log(g, p, "ability", "arcane_library", A["arcane_library"]["gold"])
        research(g, p, bot, study_draw(g, owner))
    elif k == "brewery":
        say(g, f"  seat {p.seat} Brewery: up to {max_beers(g, p)} beers")
    elif k == "magic_trader":
        cost = R["trader_cost"]
        n = bot.trader_count(g, p, trader_mult(g, owner), cost)
        n = min(n, p.gold // cost)
        for i in bot.magic(g, p, n):
            p.gold -= cost
            p.inv[i] += 1
        say(g, f"  seat {p.seat} Magic Trader: {n} magic for {n * cost} gold")
    elif k == "mash_house":
        mult = mash_mult(g, owner)
        made = 0
        for _ in range(mult):
            w = bot.wort(g, p)
            if w < 0:
                break
            a, b = C.WORT_OF[w]
            if not can_pay_needs(p.inv, [a, b]):
                break
            pay_needs(p, [a, b])
            p.inv[w] += g.cfg.params["wort_per_mash"]
            made += 1
        if owner.ability == "mash_stomper" and owner is p and made:
            log(g, p, "ability", "mash_stomper", made)
        say(g, f"  seat {p.seat} Mash House: {made} wort")
    elif card.bc >= 0:  # brewery action card: gain an ingredient
        b = g.cfg.brewery[card.bc]
        p.inv[C.ING_INDEX[b["ingredient"]]] += b["amount"]
        say(g, f"  seat {p.seat} {b['name']}: +{b['amount']} {b['ingredient']}")
    elif k == "gold_mine":
        p.gold += A["gold_mine"]["gold"]
        log(g, p, "ability", "gold_mine", A["gold_mine"]["gold"])
        say(g, f"  seat {p.seat} Gold Mine: +{A['gold_mine']['gold']} gold")
    elif k == "borrower":
        p.gold += A["borrower"]["gold"]
        for i in bot.grains(g, p, A["borrower"]["n"]):
            p.inv[i] += 1
        log(g, p, "ability", "borrower", A["borrower"]["gold"])
        say(g, f"  seat {p.seat} Orc Borrower: +{A['borrower']['gold']} gold, +{A['borrower']['n']} grain")
    elif k == "black_market":
        if bot.black_market_clear(g, p) and p.gold >= g.cfg.params["clear_draft_cost"]:
            p.gold -= g.cfg.params["clear_draft_cost"]
            clear_draft(g, p, bot)
            log(g, p, "clear_draft", "draft_pool", 1)
        opts = [(r, s) for r in (0, 1) for s in range(len(g.brow)) if draftable(g, p, r, s, free=True)]
        if opts:
            row, slot = bot.pick_free_card(g, p, opts)
            log(g, p, "ability", "black_market", 1)
            say(g, f"  seat {p.seat} Black Market:")
            do_draft(g, p, bot, row, slot, free=True)
    elif k == "mana_spell":
        p.inv[C.MANA] -= 1
        reset = 0
        for c in p.estate:
            if c.kind == "spell" and c.spell_used:
                c.spell_used = False
                reset += 1
        log(g, p, "ability", "mana_spell", reset)
        say(g, f"  seat {p.seat} Mana Spell: {reset} spells ready again")


def research(g, p: Player, bot, n: int):
    """Brewer's Study: optionally clear five of the offering (1 gold), then take n recipes from the
    offering or the decks, then refill the offering."""
    P = g.cfg.params
    if p.gold >= P["clear_offering_cost"] and bot.clear_offer(g, p):
        p.gold -= P["clear_offering_cost"]
        picks = bot.offer_discards(g, p)
        for deck, pos in picks:
            g.rdisc[deck].append(g.roffer[deck][pos])
            g.roffer[deck][pos] = -1
        refill_offer(g)
    for _ in range(n):
        src = bot.pick_recipe(g, p)  # ("offer", deck, pos) | ("deck", deck)
        if src[0] == "offer" and g.roffer[src[1]][src[2]] >= 0:
            p.book.append(g.roffer[src[1]][src[2]])
            g.roffer[src[1]][src[2]] = -1
        else:
            r = draw_recipe(g, src[1])
            if r >= 0:
                p.book.append(r)
    refill_offer(g)
    log(g, p, "research", "study", n)
    say(g, f"  seat {p.seat} Brewer's Study: +{n} recipes (book {len(p.book)})")


def clear_draft(g, p, bot):
    slots = bot.clear_picks(g, p)  # list of (row, slot), five cards
    for row, slot in slots:
        if row == 0 and g.brow[slot] >= 0:
            g.bdisc.append(g.brow[slot])
            g.brow[slot] = -1
        elif row == 1 and g.erow[slot] >= 0:
            g.edisc.append(g.erow[slot])
            g.erow[slot] = -1
    refill_rows(g)
    say(g, f"  seat {p.seat} clears the draft")


def do_draft(g: Game, p: Player, bot, row: int, slot: int, free: bool, refill: bool = True):
    cfg = g.cfg
    if row == 0:
        t = g.brow[slot]
        g.brow[slot] = -1
        b = cfg.brewery[t]
        if not free:
            p.gold -= b["cost"]
        add_brewery_card(g, p, t)
        log(g, p, "draft_brewery", b["id"], 0 if free else b["cost"])
        p.stats["cards_drafted"] += 1
        say(g, f"  seat {p.seat} drafts {b['name']} ({'free' if free else str(b['cost']) + ' gold'})")
    else:
        t = g.erow[slot]
        g.erow[slot] = -1
        e = cfg.events[t]
        if not free:
            p.gold -= e["cost"]
        log(g, p, "draft_event", e["id"], 0 if free else e["cost"])
        p.stats["cards_drafted"] += 1
        say(g, f"  seat {p.seat} drafts {e['name']} ({'free' if free else str(e['cost']) + ' gold'})")
        resolve_event(g, p, bot, t, free)
    if refill:
        refill_rows(g)


def add_brewery_card(g, p: Player, t: int):
    b = g.cfg.brewery[t]
    if b["kind"] == "upgrade":
        target = p.card(b["target"])
        if target is None:  # the target was sacrificed: the upgrade has nothing to go under
            g.box_brewery += 1
            return
        target.upgrades.append(t)
        return
    card = Card(b["id"], t, b["kind"], bool(b["infinite"]))
    p.estate.append(card)
    if b["kind"] == "housing" and g.gnome_supply > 0:
        g.gnome_supply -= 1
        p.housing += b["amount"]


def resolve_event(g: Game, p: Player, bot, t: int, free: bool):
    e = g.cfg.events[t]
    kind = e["kind"]
    if kind == "beer_festival":
        pay(g, p, bot, e["pay_kind"], e["pay_n"])
    if kind == "migrant_gnomes":
        g.gnome_supply -= 1
        p.gnome_avail += 1
        g.edisc.append(t)
        for q in g.players:  # Gnome Guild: the Free Gnomes may hire one too
            if q is not p and q.ability == "gnome_guild" and g.gnome_supply > 0 \
                    and q.gold >= g.cfg.abilities["gnome_guild"]["gold"] and bot_of(g, q).guild_hire(g, q):
                q.gold -= g.cfg.abilities["gnome_guild"]["gold"]
                g.gnome_supply -= 1
                q.gnome_avail += 1
                log(g, q, "ability", "gnome_guild", 1)
                say(g, f"  seat {q.seat} Gnome Guild: hires a gnome")
        return
    if kind == "quest" and e["brewer"] and not free:
        who = take_brewer(g, p, 0)
        if who == "gnome":
            g.gnome_supply += 1
        else:
            p.own_out += 1
        p.quest_cards.append(t)
    else:
        g.edisc.append(t)
    if kind == "recipe_scroll":
        for _ in range(e["gain_recipes"]):
            r = draw_recipe(g, bot.scroll_deck(g, p))
            if r >= 0:
                p.book.append(r)
    p.gold += e["gain_gold"]
    if e["gain_vp"]:
        score(g, p, e["gain_vp"], "vp_quests")
    gk, gn = e["gain_kind"], e["gain_n"]
    if gk == "each_grain":
        for i in C.GRAINS:
            p.inv[i] += gn
    elif gk == "grain":
        for i in bot.grains(g, p, gn):
            p.inv[i] += 1
    elif gk == "magic":
        for i in bot.magic(g, p, gn):
            p.inv[i] += 1
    elif gk == "wort":
        for _ in range(gn):
            p.inv[bot.wort_any(g, p)] += 1


def bot_of(g, p):
    return g.bots[p.seat]


def cast_spell(g, p: Player, bot, card: Card, pay_cost: bool, target=None, mark: bool = True):
    """Cast a spell card (p's own, or another player's through the Wizard's Spell Book, which
    neither pays the magic ingredient nor marks the card)."""
    if mark:
        card.spell_used = True
    if card.key == "spinning_wheel":
        A = g.cfg.abilities["spinning_wheel"]
        pay(g, p, bot, "grain", A["n"])
        p.gold += A["gold"]
        log(g, p, "ability", "spinning_wheel", A["gold"])
        say(g, f"  seat {p.seat} Spinning Wheel: {A['n']} grain -> {A['gold']} gold")
        return
    b = g.cfg.brewery[card.bc]
    sc = b["spell_cost"]
    if pay_cost or not is_magic_cost(sc):
        pay(g, p, bot, C.ING_INDEX.get(sc, sc), b["spell_n"])
    e = b["effect"]
    say(g, f"  seat {p.seat} casts {b['name']}")
    if e == "transmutation":
        p.inv[C.MANA] += 1
    elif e == "chaos":
        for row, slot in bot.clear_picks(g, p):
            if row == 0 and g.brow[slot] >= 0:
                g.bdisc.append(g.brow[slot])
                g.brow[slot] = -1
            elif row == 1 and g.erow[slot] >= 0:
                g.edisc.append(g.erow[slot])
                g.erow[slot] = -1
        new = [(0, s) for s in range(len(g.brow)) if g.brow[s] < 0] + [(1, s) for s in range(len(g.erow)) if g.erow[s] < 0]
        refill_rows(g)
        for _ in range(b["amount"]):
            opts = [(r, s) for r, s in new if draftable(g, p, r, s, free=True)]
            if not opts:
                break
            r, s = bot.pick_free_card(g, p, opts)
            new.remove((r, s))
            do_draft(g, p, bot, r, s, free=True, refill=False)
        refill_rows(g)
    elif e == "intelligence":
        for deck in ("barrel", "spice"):
            for pos in range(len(g.roffer[deck])):
                if g.roffer[deck][pos] >= 0:
                    g.rdisc[deck].append(g.roffer[deck][pos])
                g.roffer[deck][pos] = -1
        refill_offer(g)
        for _ in range(b["amount"]):
            src = bot.pick_recipe(g, p, offer_only=True)
            if src[0] == "offer" and g.roffer[src[1]][src[2]] >= 0:
                p.book.append(g.roffer[src[1]][src[2]])
                g.roffer[src[1]][src[2]] = -1
        refill_offer(g)
    elif e == "servant":
        if target is None:
            opts = list(servant_targets(g, p))
            if not opts:
                return
            target = bot.pick_servant(g, p, opts)
        q = g.players[target[0]]
        if usable_action(g, p, q, q.estate[target[1]], "servant"):  # paying the spell may have used the last mana
            perform(g, p, q, q.estate[target[1]], bot, "servant")
    elif e == "raise_gnome":
        moved = 0
        for c in sorted(p.estate, key=lambda c: -c.gnome):
            while c.gnome > 0 and moved < b["amount"]:
                c.gnome -= 1
                p.gnomes_out -= 1
                p.gnome_avail += 1
                moved += 1


def free_action(g, p: Player, bot, card: Card):
    A = g.cfg.abilities
    k = card.key
    if k == "tavern":
        pay(g, p, bot, "grain", g.cfg.brewery[card.bc]["amount"])
        p.gold += 1
    elif k == "farmers_market":
        p.gold -= A["farmers_market"]["gold"]
        for i in bot.grains(g, p, A["farmers_market"]["n"]):
            p.inv[i] += 1
        log(g, p, "ability", "farmers_market", A["farmers_market"]["n"])
    elif k == "sea_port":
        p.gold -= A["sea_port"]["gold"]
        pay(g, p, bot, "grain", A["sea_port"]["n"])
        p.inv[bot.wort_any(g, p)] += 1
        log(g, p, "ability", "sea_port", 1)
    elif k == "drain_gnome":
        if p.gnome_avail > 0:
            p.gnome_avail -= 1
        else:
            p.housing -= 1
        g.gnome_supply += 1
        p.inv[C.MANA] += A["drain_gnome"]["n"]
        log(g, p, "ability", "drain_gnome", 1)
    say(g, f"  seat {p.seat} free action {k}")


# ----------------------------------------------------------------------------- scoring

def score(g, p: Player, vp: int, source: str):
    if vp <= 0:
        return
    p.vp += vp
    p.stats[source] += vp
    g.stamp += 1
    p.stamp = g.stamp  # disk goes on top of any disk on the same space


# ----------------------------------------------------------------------------- spring

def spring(g: Game):
    g.phase = 1
    say(g, f"Year {g.year} spring; turn order seats {g.order}")
    guard = 0
    while any(q.on_race_card() > 0 for q in g.players):
        for s in g.order:
            p = g.players[s]
            if not any(q.on_race_card() > 0 for q in g.players) and p.housing == 0:
                break
            take_turn(g, p)
            g.turns += 1
            guard += 1
            if guard > 2000:
                raise RuntimeError("spring did not end")
            if not any(q.on_race_card() > 0 for q in g.players):
                break


def take_turn(g: Game, p: Player):
    bot = g.bots[p.seat]
    flags = {"brewer": False, "cleared": False, "drafted": False, "free": 0}
    bot.start_turn(g, p)
    while True:
        moves = legal_moves(g, p, flags)
        mv = bot.choose(g, p, moves, flags)
        apply_move(g, p, bot, mv, flags)
        if mv[0] == "end":
            return


# ----------------------------------------------------------------------------- fall

def beer_of(g, barrel: int, spices: list[int]):
    R = g.cfg.recipes
    cards = [barrel] + list(spices)
    chars = [sum(R[c]["chars"][k] for c in cards) for k in range(3)]
    return [barrel, list(spices), chars, sum(R[c]["vp"] for c in cards), sum(R[c]["gold"] for c in cards), False]


def beer_needs(g, barrel, spices) -> list[int]:
    R = g.cfg.recipes
    out = list(R[barrel]["need_idx"])
    for s in spices:
        out += R[s]["need_idx"]
    return out


def fall(g: Game):
    g.phase = 2
    for p in g.players:
        beers = g.bots[p.seat].brew(g, p, max_beers(g, p))
        p.beers = []
        used = set()
        for barrel, spices in beers[: max_beers(g, p)]:
            cards = [barrel] + list(spices)
            ok = (g.cfg.recipes[barrel]["deck"] == "barrel" and spices
                  and all(g.cfg.recipes[s]["deck"] == "spice" for s in spices)
                  and all(c in p.book for c in cards) and not used.intersection(cards)
                  and len(set(cards)) == len(cards))
            needs = beer_needs(g, barrel, spices)
            if not ok or not can_pay_needs(p.inv, needs):  # misbrew: disqualified, cards stay in the book
                say(g, f"  seat {p.seat} misbrews")
                continue
            pay_needs(p, needs)
            used.update(cards)
            p.beers.append(beer_of(g, barrel, spices))
        p.stats["beers_brewed"] += len(p.beers)
        for b in p.beers:
            log(g, p, "beer", g.cfg.recipes[b[0]]["id"], sum(b[2]))
    # Dark Elf Shadow Judge: after brewing, before screens lift
    for p in g.players:
        if p.ability == "shadow_judge" and g.shadow:
            sw = g.bots[p.seat].shadow_swap(g, p)
            if sw is not None:
                slot, h = sw
                if slot not in g.ogre:
                    old = g.judges[slot]
                    g.judges[slot] = g.shadow[h]
                    g.shadow[h] = old
                    if slot in g.bribes:
                        seat, amt = g.bribes.pop(slot)
                        g.players[seat].gold += amt
                        g.players[seat].bribe = None
                    log(g, p, "ability", "shadow_judge", 1)
                    say(g, f"  seat {p.seat} Shadow Judge: {g.cfg.judges[old]['name']} -> "
                           f"{g.cfg.judges[g.judges[slot]]['name']}")
    for p in g.players:
        say(g, f"  seat {p.seat} presents {len(p.beers)} beers (left: {p.inv}, {p.gold} gold, book {len(p.book)}): " + "; ".join(
            f"{g.cfg.recipes[b[0]]['name']} C{b[2][0]} S{b[2][1]} B{b[2][2]}" for b in p.beers))
    judge_all(g)
    # profits in turn order
    for s in g.order:
        p = g.players[s]
        vp = sum(b[3] for b in p.beers)
        gold = sum(b[4] for b in p.beers)
        if p.ability == "pot_o_gold" and p.beers:
            gold += g.cfg.abilities["pot_o_gold"]["gold"] * len(p.beers)
            log(g, p, "ability", "pot_o_gold", len(p.beers))
        p.gold += gold
        score(g, p, vp, "vp_profit")
        say(g, f"  seat {p.seat} profit: {vp} VP, {gold} gold")


def judge_all(g: Game):
    cfg = g.cfg
    order_pos = {s: i for i, s in enumerate(g.order)}
    for slot, j in enumerate(g.judges):
        J = cfg.judges[j]
        entries = [(p, b) for p in g.players for b in p.beers if not b[5]]
        bribe = g.bribes.pop(slot, None)
        ogre_seat = g.ogre.pop(slot, None)
        winners = []
        if entries:
            pv = [J["pd"] * b[2][J["p"]] for _, b in entries]
            best = max(pv)
            tied = [e for e, v in zip(entries, pv, strict=True) if v == best]
            seats = {p.seat for p, _ in tied}
            if ogre_seat is not None and ogre_seat in seats:
                winners = [best_of(g, J, [e for e in tied if e[0].seat == ogre_seat])]
            elif J["corrupt"]:
                if bribe is not None and bribe[0] in seats:
                    winners = [best_of(g, J, [e for e in tied if e[0].seat == bribe[0]])]
                elif len(seats) == 1:
                    winners = [best_of(g, J, tied)]
                else:
                    winners = [best_of(g, J, [e for e in tied if e[0].seat == s]) for s in sorted(seats, key=order_pos.get)]
            else:
                sv = [J["sd"] * b[2][J["s"]] for _, b in tied]
                best2 = max(sv)
                tied2 = [e for e, v in zip(tied, sv, strict=True) if v == best2]
                seats2 = sorted({p.seat for p, _ in tied2}, key=order_pos.get)
                winners = [[e for e in tied2 if e[0].seat == s][0] for s in seats2]
        if bribe is not None:  # a bribe is spent, win or lose
            g.players[bribe[0]].bribe = None
        if ogre_seat is not None:
            pass  # the Ogre brewer returns to the race card after judging (counted back in winter)
        if not winners:
            say(g, f"  judge {J['name']}: no beer left")
            continue
        share = J["vp"] if len(winners) == 1 else max(J["vp"] // len(winners), cfg.params["tie_min_vp"])
        for p, b in winners:
            b[5] = True
            p.ribbons += 1
            p.stats["judges_won"] += 1
            score(g, p, share, "vp_judges")
            log(g, p, "judge_won" if len(winners) == 1 else "judge_split", J["id"], share)
        g.judged += 1
        say(g, f"  judge {J['name']}: " + ", ".join(
            f"seat {p.seat} {cfg.recipes[b[0]]['name']} +{share} VP" for p, b in winners))


def best_of(g, J, entries):
    """Among one player's tied beers the player picks; bots give the prize to the beer that is
    best on the secondary characteristic (or the first one)."""
    if J["s"] == C.BRIBE:
        return entries[0]
    return max(entries, key=lambda e: J["sd"] * e[1][2][J["s"]])


# ----------------------------------------------------------------------------- winter

def winter(g: Game):
    g.phase = 3
    for p in g.players:
        bot = g.bots[p.seat]
        for c in p.estate:
            g.gnome_supply += c.gnome
            c.gnome = 0
            c.own = 0
            c.locked = False
            c.spell_used = False
        p.gnomes_out = 0
        g.gnome_supply += p.gnome_avail
        p.gnome_avail = 0
        p.own_total -= p.sacrificed  # Chaos Wytch brewers on Dark Sacrifice leave the game
        p.sacrificed = 0
        p.own_avail = p.own_total
        p.own_out = 0
        for t in p.quest_cards:
            g.edisc.append(t)
        p.quest_cards = []
        p.stats.pop("_guest_beers", None)
        # ingredients back except the winter stores
        keep = bot.winter_keep(g, p, stores_cap(g, p))
        p.inv = keep
        # recipe book cut to its maximum
        m = book_max(g, p)
        if len(p.book) > m:
            kept = bot.book_keep(g, p, m)
            for r in p.book:
                if r not in kept:
                    g.rdisc[g.cfg.recipes[r]["deck"]].append(r)
            p.book = kept
        p.beers = []
    # refresh the drafting pool, the recipe offering and the judges
    for i in range(len(g.brow)):
        if g.brow[i] >= 0:
            g.bdisc.append(g.brow[i])
        g.brow[i] = -1
        if g.erow[i] >= 0:
            g.edisc.append(g.erow[i])
        g.erow[i] = -1
    refill_rows(g)
    for deck in ("barrel", "spice"):
        for i in range(len(g.roffer[deck])):
            if g.roffer[deck][i] >= 0:
                g.rdisc[deck].append(g.roffer[deck][i])
            g.roffer[deck][i] = -1
    refill_offer(g)
    g.jbox.extend(g.judges)
    deal_judges(g)
    # turn order: lowest VP first; ties: the disk on top of the stack goes first
    g.order = sorted(range(g.n), key=lambda s: (g.players[s].vp, -g.players[s].stamp))
    say(g, "Winter: judges " + ", ".join(judge_text(g, j) for j in g.judges))


def final_ranking(g: Game):
    """Rank by VP, then ribbons, then gold; full ties share the rank (and the win)."""
    key = {p.seat: (p.vp, p.ribbons, p.gold) for p in g.players}
    rank = {s: 1 + sum(1 for t in key if key[t] > key[s]) for s in key}
    winners = [s for s in key if rank[s] == 1]
    return rank, winners


def play(g: Game, check=None):
    years = g.cfg.params["years"]
    while True:
        spring(g)
        if check:
            check(g, "spring")
        fall(g)
        g.year_vp.append([p.vp for p in g.players])
        if check:
            check(g, "fall")
        if g.year >= years:
            break
        g.year += 1
        winter(g)
        if check:
            check(g, "winter")
    g.phase = 4
    return final_ranking(g)
