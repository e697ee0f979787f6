"""Dragon Brew bots.

`random` (kind random): uniform over the legal moves of every decision, and uniform choices
inside actions (which grain, which recipe, which beers among the brewable ones).

`greedy` and `builder` (kind planner, weights in data/games/dragon_brew/policies.toml): at the
start of each turn the planner picks the beers it will brew from its recipe book (one barrel +
1..max_spices spices each, at most its Brewery capacity) by profit plus the estimated chance to win
one of this year's judges, minus the brewer actions the ingredients it lacks take (`action` gold
each), keeping only beers whose actions fit the brewers left plus `slack`; the ingredients those
beers still need form its need vector. Every legal move is then valued in gold-equivalents (an
ingredient is worth its base value plus `need_bonus` while the plan needs it, a VP is worth `vp`
gold, an estate card its per-year `yields` x years left x `estate`; a wort mashed or a magic
ingredient bought for the plan finishes a beer and is worth `finish` x `need_bonus`; with the last
brewer an ingredient action that completes no planned beer keeps `unfinished` of its value) and
the best is played. Race abilities are valued like any other move, so each race uses its power
whenever it pays.
"""

from __future__ import annotations

from math import comb

import numpy as np

from sim.core.jit import jit

from . import constants as C
from .rules import NOT_BORROWABLE, beer_needs, can_pay_needs, mash_mult, max_beers, trader_mult

BASE_CLASS = {i: "grain" for i in C.GRAINS} | {i: "wort" for i in C.WORTS} | {i: "magic" for i in C.MAGIC}
NO_BUDGET = 1e9  # action budget of a selection that only brews what is held


def pwin(J, chars) -> float:
    """Rough chance that a beer with these characteristics wins judge J."""
    v = chars[J["p"]]
    if J["pd"] > 0:
        return min(max((v - 3) / 4.0, 0.0), 0.9)
    return min(max((2.5 - v) / 3.0, 0.0), 0.85)


class RandomBot:
    kind = "random"

    def __init__(self, cfg, pol, rng):
        self.cfg, self.w, self.rng = cfg, pol, rng

    def start_turn(self, g, p):
        pass

    def choose(self, g, p, moves, flags):
        return moves[self.rng.randint(len(moves))]

    def grains(self, g, p, n):
        return [C.GRAINS[self.rng.randint(3)] for _ in range(n)]

    def magic(self, g, p, n):
        return [C.MAGIC[self.rng.randint(3)] for _ in range(n)]

    def wort(self, g, p):
        opts = [w for w, (a, b) in C.WORT_OF.items() if can_pay_needs(p.inv, [a, b])]
        return opts[self.rng.randint(len(opts))] if opts else -1

    def wort_any(self, g, p):
        return C.WORTS[self.rng.randint(3)]

    def spend(self, g, p, klass, n):
        out, inv = [], list(p.inv)
        for _ in range(n):
            opts = [i for i in klass if inv[i] > 0]
            if not opts:
                break
            i = opts[self.rng.randint(len(opts))]
            inv[i] -= 1
            out.append(i)
        return out

    def trader_count(self, g, p, mult, cost):
        return self.rng.randint(mult + 1)

    def black_market_clear(self, g, p):
        return self.rng.randint(2) == 0

    def pick_free_card(self, g, p, opts):
        return opts[self.rng.randint(len(opts))]

    def clear_offer(self, g, p):
        return self.rng.randint(2) == 0

    def offer_discards(self, g, p):
        allpos = [(d, i) for d in ("barrel", "spice") for i in range(len(g.roffer[d]))]
        self.rng.shuffle(allpos)
        return allpos[:5]

    def pick_recipe(self, g, p, offer_only=False):
        opts = [("offer", d, i) for d in ("barrel", "spice") for i in range(len(g.roffer[d])) if g.roffer[d][i] >= 0]
        if not offer_only:
            opts += [("deck", "barrel"), ("deck", "spice")]
        return opts[self.rng.randint(len(opts))] if opts else ("deck", "spice")

    def clear_picks(self, g, p):
        allpos = [(0, i) for i in range(len(g.brow))] + [(1, i) for i in range(len(g.erow))]
        self.rng.shuffle(allpos)
        return allpos[:g.cfg.params["clear_draft_n"]]

    def guild_hire(self, g, p):
        return self.rng.randint(2) == 0

    def scroll_deck(self, g, p):
        return ("barrel", "spice")[self.rng.randint(2)]

    def pick_servant(self, g, p, opts):
        return opts[self.rng.randint(len(opts))]

    def brew(self, g, p, maxn):
        inv = list(p.inv)
        book = list(p.book)
        self.rng.shuffle(book)
        barrels = [r for r in book if g.cfg.recipes[r]["deck"] == "barrel"]
        spices = [r for r in book if g.cfg.recipes[r]["deck"] == "spice"]
        beers = []
        for b in barrels:
            if len(beers) >= maxn:
                break
            for s in spices:
                needs = beer_needs(g, b, [s])
                if can_pay_needs(inv, needs):
                    _take(inv, needs)
                    spices.remove(s)
                    beers.append((b, [s]))
                    break
        return beers

    def shadow_swap(self, g, p):
        if self.rng.randint(2) == 0 or not g.shadow:
            return None
        return self.rng.randint(len(g.judges)), self.rng.randint(len(g.shadow))

    def winter_keep(self, g, p, cap):
        units = [i for i in range(C.N_INGS) for _ in range(p.inv[i])]
        self.rng.shuffle(units)
        keep = [0] * C.N_INGS
        for i in units[:cap]:
            keep[i] += 1
        return keep

    def book_keep(self, g, p, m):
        book = list(p.book)
        self.rng.shuffle(book)
        return book[:m]


def _take(inv, needs):
    for i in needs:
        if inv[i] > 0:
            inv[i] -= 1
        else:
            inv[C.MANA] -= 1


class PlannerBot(RandomBot):
    kind = "planner"

    def __init__(self, cfg, pol, rng):
        super().__init__(cfg, pol, rng)
        self.plan = []
        self.extra = 0.0
        self.need = [0] * C.N_INGS
        self.mana_extra = 0.0
        self.y = pol["yields"]
        self._ckey = None
        self._cands = None
        self._jkey = None

    # ------------------------------------------------------------------ planning
    def candidates(self, g, p):
        """Every beer the book allows (one barrel + 1..max_spices spices, in book order) as the
        arrays of `build_beers`; rebuilt when the book changes."""
        key = tuple(p.book)
        if key != self._ckey:
            self._ckey = key
            self._cands = beer_arrays(g.cfg, p.book)
        return self._cands

    def beer(self, g, cands, ci):
        """Candidate ci as the plan holds it: (barrel, spices, chars, vp, gold, needs)."""
        cards, chars, vp, gold, nsp = cands[:5]
        spices = tuple(int(x) for x in cards[ci, 1:1 + nsp[ci]])
        return (int(cards[ci, 0]), spices, [int(x) for x in chars[ci]], int(vp[ci]), int(gold[ci]),
                beer_needs(g, int(cards[ci, 0]), spices))

    def acquire(self, g, p):
        """Brewer actions it takes this player to get one more of each ingredient, by class: a
        Grain Fields visit yields its grains (upgrades and race power included), a Mash House
        visit mash_mult worts (from two grains each), a Magic Trader visit trader_mult magic
        ingredients. The plan is budgeted in these actions, so it only holds beers the brewers
        left this year can gather."""
        fields = p.card("grain_fields")
        n = g.cfg.races[p.race]["grain_yield"]
        if fields is not None:
            n = sum(1 for i in self.field_items(g, p, fields) if i in C.GRAINS)
        grain = 1.0 / max(1, n)
        per = {"grain": grain, "wort": 1.0 / max(1, mash_mult(g, p)) + 2 * grain,
               "magic": 1.0 / max(1, trader_mult(g, p))}
        return np.array([per[BASE_CLASS[i]] if i in BASE_CLASS else 0.0 for i in range(C.N_INGS)], np.float64)

    def select(self, g, p, maxn, feasible_only, inv=None, budget=NO_BUDGET):
        """Greedy choice of up to maxn disjoint beers by value (profit + best unclaimed judge
        x win chance - `action` x the brewer actions what it lacks takes), within `budget`
        brewer actions, in the compiled `select_beers`."""
        cands = self.candidates(g, p)
        cards, chars, vp, gold, nsp, cnt_ing, cnt_k, cnt_n = cands
        jkey = (self._ckey, tuple(g.judges))
        if jkey != self._jkey:
            self._jkey = jkey
            J = [g.cfg.judges[j] for j in g.judges]
            jw = np.array([j["vp"] * self.w["vp"] for j in J], np.float64)
            self._jv = (np.empty((len(vp), len(J)), np.float64), np.empty(len(vp), np.float64))
            judge_values(chars, np.array([j["p"] for j in J], np.int64), np.array([j["pd"] for j in J], np.int64),
                         jw, *self._jv)
        jvs, jv0 = self._jv
        nc = len(vp)
        out_ci = np.empty(maxn, np.int64)
        out_v = np.empty(maxn, np.float64)
        k = select_beers(cards, vp, gold, nsp, cnt_ing, cnt_k, cnt_n, jvs, jv0,
                         np.array(p.inv if inv is None else inv, np.int64), maxn, feasible_only,
                         float(self.w["vp"]), float(self.w["judge_chase"]), self.acquire(g, p),
                         float(self.w["action"]), float(budget),
                         np.empty(nc, np.float64), np.empty(nc, np.bool_), np.empty(jvs.shape[1], np.bool_),
                         np.zeros(len(g.cfg.recipes), np.bool_), out_ci, out_v)
        return [(self.beer(g, cands, out_ci[i]), float(out_v[i])) for i in range(k)]

    def start_turn(self, g, p):
        mb = max_beers(g, p)
        chosen = self.select(g, p, mb + 1, False, budget=self.budget(g, p))
        self.plan = [c for c, _ in chosen[:mb]]
        self.extra = chosen[mb][1] if len(chosen) > mb else 0.0
        self.plan_value = sum(v for _, v in chosen[:mb])
        self.refresh_need(g, p)

    def budget(self, g, p) -> float:
        """Brewer actions the plan may take: the brewers left plus `slack` (drafts, events and
        free actions also bring ingredients)."""
        return p.on_race_card() + self.w["slack"]

    def refresh_need(self, g, p):
        """What the plan still lacks: worts it lacks become grain needs (two grains each);
        mana weed covers the rest."""
        req = [0] * C.N_INGS
        for c in self.plan:
            for i in c[5]:
                req[i] += 1
        need = [max(req[i] - p.inv[i], 0) for i in range(C.N_INGS)]
        for wt in C.WORTS:
            if need[wt]:
                for gr in C.WORT_OF[wt]:
                    req[gr] += need[wt]
        for gr in C.GRAINS:
            need[gr] = max(req[gr] - p.inv[gr], 0)
        spare = p.inv[C.MANA]
        for i in C.MAGIC + C.WORTS + C.GRAINS:  # mana weed covers what is short
            d = min(need[i], spare)
            need[i] -= d
            spare -= d
        self.need = need
        self.mana_extra = self.mana_spell_bonus(g, p)

    def mana_spell_bonus(self, g, p) -> float:
        """Extra worth of a first mana weed to a Naga that owns a spell worth casting twice: the
        weed is the fuel of the Mana Spell (cast the spell, discard the weed, cast it again), so
        the Naga fetches it (Mana Mountain, Transmutation) before or after the first cast."""
        if p.ability != "mana_spell" or p.inv[C.MANA] > 0:
            return 0.0
        ms = p.card("mana_spell")
        useful = [c for c in p.estate if self.useful_spell(g, c)]
        if ms is None or ms.locked or not useful:
            return 0.0
        return max(self.w["need_bonus"], max(max(4.0, self.recast_value(g, p, c)) for c in useful))

    # ------------------------------------------------------------------ values
    def ing_value(self, need, i):
        if i == C.MANA:
            return 1.2 + max(self.w["need_bonus"] if sum(need) > 0 else 0.0, self.mana_extra)
        base = self.w[BASE_CLASS[i]]
        if need[i] > 0:
            need[i] -= 1
            return base + self.w["need_bonus"]
        return base

    def gain_value(self, items):
        need = list(self.need)
        return sum(self.ing_value(need, i) for i in items)

    def best_of_class(self, klass, n, need=None):
        need = list(self.need if need is None else need)
        out = []
        for _ in range(n):
            i = max(klass, key=lambda x: need[x])
            if need[i] > 0:
                need[i] -= 1
            out.append(i)
        return out

    def lose_value(self, p, klass, n):
        """Value lost by paying n of a class (surplus first)."""
        picks = self.spend(None, p, klass, n)
        need = [0] * C.N_INGS
        tot = 0.0
        inv = list(p.inv)
        for i in picks:
            surplus = inv[i] - self.req(i)
            tot += self.w[BASE_CLASS[i]] + (0 if surplus > 0 else self.w["need_bonus"])
            inv[i] -= 1
        tot += (n - len(picks)) * (1.2 + self.w["need_bonus"])
        del need
        return tot

    def req(self, i):
        return sum(c[5].count(i) for c in self.plan)

    def yl(self, g):
        return g.cfg.params["years"] - g.year + 1

    def card_value(self, g, p, row, t):
        w = self.w
        if row == 0:
            b = g.cfg.brewery[t]
            e = b["effect"]
            y = self.y["gain_once"] if (e == "gain" and not b["infinite"]) else self.y[e]
            if e == "gain":
                y += 0.5 * self.gain_value([C.ING_INDEX[b["ingredient"]]])
            if b["kind"] == "spell" and p.ability in ("mana_spell", "spell_book"):
                y += 2.0  # the race power needs spells in play
            if p.ability == "mana_spell" and b["ingredient"] == "mana_weed":
                y += 2.0  # ... and the Naga's needs mana weed
            if b["kind"] == "upgrade" and p.card(b["target"]) is None:
                return -9.0
            if e == "gnome_housing" and p.ability == "drain_gnome":
                y += 1.5
            yl = self.yl(g)
            return w["estate"] * y * yl - (0.3 if yl == 1 else 0.0)
        e = g.cfg.events[t]
        k = e["kind"]
        v = e["gain_gold"] + e["gain_vp"] * w["vp"]
        gk, gn = e["gain_kind"], e["gain_n"]
        if gk == "each_grain":
            v += self.gain_value(list(C.GRAINS) * gn)
        elif gk == "grain":
            v += self.gain_value(self.best_of_class(C.GRAINS, gn))
        elif gk == "magic":
            v += self.gain_value(self.best_of_class(C.MAGIC, gn))
        elif gk == "wort":
            v += self.gain_value(self.best_of_class(C.WORTS, gn))
        if k == "beer_festival":
            v -= self.lose_value(p, C.CLASSES[e["pay_kind"]], e["pay_n"])
        if k == "migrant_gnomes":
            # one more brewer action this year, worth more early in the spring
            left = p.on_race_card()
            v += (4.5 if left >= 2 else 3.0) + (2.0 if p.ability == "drain_gnome" else 0.0)
        if k == "recipe_scroll":
            v += w["research"] * 0.5 * self.research_gap(g, p)
        if e["brewer"]:
            v -= 2.0
        return v

    def research_gap(self, g, p):
        gap = max(0, max_beers(g, p) - len(self.plan))
        if self.plan_value < 4.0 * max(1, len(self.plan)):
            gap += 1
        return gap

    def action_value(self, g, p, q, card):
        """Gold-equivalent value of p performing q's action card now."""
        w, A, k = self.w, g.cfg.abilities, card.key
        R = g.cfg.races[q.race]
        if k == "grain_fields":
            return self.gain_value(self.field_items(g, q, card))
        if k == "study":
            v = w["research"] * self.research_gap(g, p) + 0.3
            if q.ability == "arcane_library":
                v += A["arcane_library"]["gold"]
            return v
        if k == "brewery":
            return 0.8 * self.extra
        if k == "magic_trader":
            cost = R["trader_cost"]
            n = min(trader_mult(g, q), p.gold // cost, sum(self.need[i] for i in C.MAGIC))
            # a bought magic ingredient is usually the last one a planned beer lacks
            return n * (w["magic"] + w["need_bonus"] * w["finish"] - cost) if n else -1.0
        if k == "mash_house":
            inv, v = list(p.inv), 0.0
            need = list(self.need)
            for _ in range(mash_mult(g, q)):
                opts = [wt for wt in C.WORTS if need[wt] > 0 and can_pay_needs(inv, list(C.WORT_OF[wt]))]
                if not opts:
                    break
                wt = opts[0]
                _take(inv, list(C.WORT_OF[wt]))
                need[wt] -= 1
                # the grains were gathered for this wort: mashing finishes what they started
                v += w["wort"] + w["need_bonus"] * w["finish"] - 2 * w["grain"]
            return v if v > 0 else -1.0
        if card.bc >= 0:
            b = g.cfg.brewery[card.bc]
            return self.gain_value([C.ING_INDEX[b["ingredient"]]] * b["amount"])
        if k == "gold_mine":
            # gold the plan lacks to buy its magic ingredients is worth `reserve` more per coin
            gold = A["gold_mine"]["gold"]
            return gold + w["reserve"] * min(gold, self.trader_short(g, p))
        if k == "borrower":
            return A["borrower"]["gold"] + self.gain_value(self.best_of_class(C.GRAINS, A["borrower"]["n"]))
        if k == "black_market":
            vals = [self.card_value(g, p, r, (g.brow if r == 0 else g.erow)[s]) for r in (0, 1)
                    for s in range(len(g.brow)) if (g.brow if r == 0 else g.erow)[s] >= 0]
            return max(vals) + (g.cfg.events[0]["cost"] * 0) if vals else -1.0
        if k == "mana_spell":
            return self.mana_spell_value(g, p)
        return 0.0

    def field_items(self, g, q, card):
        """What q's Grain Fields yield (chosen by the plan's needs)."""
        A = g.cfg.abilities
        items = self.best_of_class(C.GRAINS, g.cfg.races[q.race]["grain_yield"])
        for u in card.upgrades:
            b = g.cfg.brewery[u]
            if b["effect"] == "grain_any":
                items += self.best_of_class(C.GRAINS, b["amount"])
            elif b["effect"].startswith("grain_"):
                items += [C.ING_INDEX[b["effect"][6:]]] * b["amount"]
        if q.ability == "fertile_fields":
            items += self.best_of_class(C.GRAINS, A["fertile_fields"]["n"])
        if q.ability == "sacred_grove":
            items += self.best_of_class(C.MAGIC, A["sacred_grove"]["n"])
        return items

    def payable(self, inv) -> int:
        """How many planned beers inv pays for, in plan order."""
        inv, n = list(inv), 0
        for c in self.plan:
            if can_pay_needs(inv, c[5]):
                _take(inv, c[5])
                n += 1
        return n

    def completes(self, g, p, card) -> bool:
        """Whether p's own ingredient action on card lets it brew one more planned beer. A Study
        never does (no brewer is left to gather for new recipes); cards that give no ingredients
        count as completing: they are valued on their own terms."""
        k, inv = card.key, list(p.inv)
        if k == "study":
            return False
        if k == "grain_fields":
            got = self.field_items(g, p, card)
        elif k == "magic_trader":
            got = self.best_of_class(C.MAGIC, trader_mult(g, p))
        elif k == "mash_house":
            got = []
            for _ in range(mash_mult(g, p)):
                opts = [wt for wt in C.WORTS if self.need[wt] > got.count(wt) and can_pay_needs(inv, list(C.WORT_OF[wt]))]
                if not opts:
                    break
                _take(inv, list(C.WORT_OF[opts[0]]))
                got.append(opts[0])
        elif card.bc >= 0 and g.cfg.brewery[card.bc]["effect"] == "gain":
            b = g.cfg.brewery[card.bc]
            got = [C.ING_INDEX[b["ingredient"]]] * b["amount"]
        else:
            return True
        before = self.payable(p.inv)
        for i in got:
            inv[i] += 1
        return self.payable(inv) > before

    def mana_spell_value(self, g, p):
        """Worth of the Naga's Mana Spell: the spells it makes ready to cast again. Re-casting a
        Transmutation only turns the weed just spent back into grain-for-weed, so it adds little;
        the power pays through the other spells. It is once a year while Grain Fields can wait,
        so with its last brewers the Naga takes it now."""
        used = [c for c in p.estate if c.kind == "spell" and c.spell_used]
        useful = [c for c in used if self.useful_spell(g, c)]
        if not useful:
            return 0.5 * len(used)
        v = sum(max(4.0, self.recast_value(g, p, c)) for c in useful) + 1.0
        left = p.on_race_card()
        if left <= 2:
            v += 4.0 if left == 2 else 8.0
        return v

    def recast_value(self, g, p, card):
        """What casting a spent spell again is worth; a Servant Spell is worth the best action
        card it could borrow (approximated by the Naga's own)."""
        if card.bc >= 0 and g.cfg.brewery[card.bc]["effect"] == "servant":
            acts = [self.action_value(g, p, p, c) for c in p.estate
                    if c.kind == "action" and c.key not in NOT_BORROWABLE and c.key != "mana_spell"]
            return max(acts, default=0.0)
        return self.spell_value(g, p, card)

    @staticmethod
    def useful_spell(g, c) -> bool:
        """A spell worth re-casting with the Mana Spell (any but Transmutation)."""
        return c.kind == "spell" and (c.bc < 0 or g.cfg.brewery[c.bc]["effect"] != "transmutation")

    def spell_value(self, g, p, card, free=False):
        w = self.w
        if card.key == "spinning_wheel":
            A = g.cfg.abilities["spinning_wheel"]
            return A["gold"] - self.lose_value(p, C.GRAINS, A["n"])
        b = g.cfg.brewery[card.bc]
        e = b["effect"]
        sc = b["spell_cost"]
        cost = 0.0
        if not (free and sc in ("magic", "toadstool", "dragon_scale", "pixie_wing")):
            klass = C.CLASSES.get(sc, (C.ING_INDEX.get(sc, C.MANA),))
            cost = self.lose_value(p, klass, b["spell_n"])
        if e == "chaos":
            v = 2 * max(1.5, 0.5 * self.y["chaos"] * self.yl(g))
        elif e == "intelligence":
            v = w["research"] * self.research_gap(g, p) + 0.5
        elif e == "raise_gnome":
            v = 1.5 * min(b["amount"], sum(c.gnome for c in p.estate))
        elif e == "transmutation":
            v = 1.2 + max(w["need_bonus"] if sum(self.need) > 0 else 0.0, self.mana_extra)
        else:
            v = 0.0
        if p.ability == "mana_spell":
            v += 1.0  # a cast spell can be made ready again by the Naga's Mana Spell
        return v - cost

    def move_value(self, g, p, mv):
        k, w = mv[0], self.w
        if k == "end":
            return 0.0
        if k == "pass":
            return -0.5
        if k == "clear_draft":
            return -1.0
        if k == "draft":
            row, slot = mv[1], mv[2]
            t = g.brow[slot] if row == 0 else g.erow[slot]
            cost = (g.cfg.brewery[t]["cost"] if row == 0 else g.cfg.events[t]["cost"])
            if p.gold - cost < w["gold_keep"]:
                return -9.0
            short = self.trader_short(g, p, cost)
            guild_short = max(0, self.guild_reserve(g, p) - (p.gold - cost))
            return self.card_value(g, p, row, t) - cost - w["min_gain"] - w["reserve"] * short - 1.5 * guild_short
        if k == "spell":
            return self.spell_value(g, p, p.estate[mv[1]]) - w["min_gain"]
        if k == "servant":
            q = g.players[mv[2]]
            b = g.cfg.brewery[p.estate[mv[1]].bc]
            cost = self.lose_value(p, (C.ING_INDEX[b["spell_cost"]],), b["spell_n"])
            return self.action_value(g, p, q, q.estate[mv[3]]) - cost - w["min_gain"]
        if k == "free":
            return self.free_value(g, p, p.estate[mv[1]]) - w["min_gain"]
        if k == "bribe":
            J = g.cfg.judges[g.judges[mv[1]]]
            best = max((pwin(J, c[2]) for c in self.plan), default=0.0)
            return w["bribe_share"] * J["vp"] * w["vp"] * (0.3 + best) - mv[2]
        if k == "house":
            return 0.1 if g.year < g.cfg.params["years"] else -1.0
        if k == "brewer":
            card = p.estate[mv[1]]
            v = self.action_value(g, p, p, card)
            if p.on_race_card() == 1 and v > 0 and not self.completes(g, p, card):
                # the last brewer: ingredients that finish no planned beer wait a year in the
                # stores at best, so a race power or a sure small gain is worth more
                v *= w["unfinished"]
            return v
        if k == "guest":
            q = g.players[mv[2]]
            return self.action_value(g, p, q, q.estate[mv[3]]) + 0.2
        if k == "sacrifice":
            tc = p.estate[mv[2]]
            freed = tc.own + tc.gnome
            if freed < 1 or tc.key in ("brewery", "study"):
                return -9.0
            yl = g.cfg.params["years"] - g.year
            return freed * w["brewer"] - (1 + len(tc.upgrades)) * yl * 2.0 - 1.5
        if k == "ogre":
            J = g.cfg.judges[g.judges[mv[2]]]
            best = max((pwin(J, c[2]) for c in self.plan), default=0.0)
            return J["vp"] * w["vp"] * (0.15 + 0.6 * best) + (0.5 if mv[2] in g.bribes else 0.0)
        if k == "spellbook":
            q = g.players[mv[2]]
            return self.spell_value(g, p, q.estate[mv[3]], free=True) + 0.2
        return 0.0

    def trader_short(self, g, p, spend=0) -> int:
        """Gold missing (after spending `spend`) to buy the plan's magic ingredients at the Magic
        Trader."""
        need = g.cfg.races[p.race]["trader_cost"] * sum(self.need[i] for i in C.MAGIC)
        return max(0, need - (p.gold - spend))

    def free_value(self, g, p, card):
        A, w = g.cfg.abilities, self.w
        k = card.key
        if k == "tavern":
            return 1.0 - self.lose_value(p, C.GRAINS, g.cfg.brewery[card.bc]["amount"])
        if k == "farmers_market":
            return self.gain_value(self.best_of_class(C.GRAINS, A["farmers_market"]["n"])) - A["farmers_market"]["gold"]
        if k == "sea_port":
            wts = [i for i in C.WORTS if self.need[i] > 0]
            if not wts:
                return -1.0
            return self.gain_value([wts[0]]) - A["sea_port"]["gold"] - self.lose_value(p, C.GRAINS, A["sea_port"]["n"])
        if k == "drain_gnome":
            brewer = 0.0 if p.gnome_avail == 0 else 1.5
            return 1.2 + (w["need_bonus"] if sum(self.need) > 0 else 0.5) - brewer
        return -1.0

    def choose(self, g, p, moves, flags):
        self.refresh_need(g, p)
        best, bv = None, -1e9
        for mv in moves:
            v = self.move_value(g, p, mv)
            if mv[0] in ("brewer", "guest", "sacrifice", "ogre", "spellbook", "pass"):
                pass
            elif mv[0] != "end" and v <= 0:
                continue
            if v > bv:
                best, bv = mv, v
        if best is None:
            return moves[0]
        return best

    # ------------------------------------------------------------------ choices inside actions
    def grains(self, g, p, n):
        out = self.best_of_class(C.GRAINS, n)
        for i in out:
            if self.need[i] > 0:
                self.need[i] -= 1
        return out

    def magic(self, g, p, n):
        out = self.best_of_class(C.MAGIC, n)
        for i in out:
            if self.need[i] > 0:
                self.need[i] -= 1
        return out

    def wort(self, g, p):
        for wt in C.WORTS:
            if self.need[wt] > 0 and can_pay_needs(p.inv, list(C.WORT_OF[wt])):
                self.need[wt] -= 1
                return wt
        return -1

    def wort_any(self, g, p):
        return max(C.WORTS, key=lambda x: self.need[x])

    def spend(self, g, p, klass, n):
        inv, out = list(p.inv), []
        for _ in range(n):
            opts = [i for i in klass if inv[i] > 0]
            if not opts:
                break
            i = max(opts, key=lambda x: inv[x] - self.req(x))
            inv[i] -= 1
            out.append(i)
        return out

    def trader_count(self, g, p, mult, cost):
        n = min(mult, sum(self.need[i] for i in C.MAGIC))
        return max(0, min(n, (p.gold - self.guild_reserve(g, p)) // cost))

    @staticmethod
    def guild_reserve(g, p) -> int:
        """Gold the Free Gnomes keep while a Migrant Gnomes card lies in the Event row and gnomes
        are left: when another player drafts it, the Gnome Guild hires one for that much."""
        if p.ability != "gnome_guild" or g.gnome_supply < 2:
            return 0
        if not any(t >= 0 and g.cfg.events[t]["kind"] == "migrant_gnomes" for t in g.erow):
            return 0
        return g.cfg.abilities["gnome_guild"]["gold"]

    def black_market_clear(self, g, p):
        return False

    def pick_free_card(self, g, p, opts):
        return max(opts, key=lambda o: self.card_value(g, p, o[0], (g.brow if o[0] == 0 else g.erow)[o[1]])
                   + (g.cfg.brewery[g.brow[o[1]]]["cost"] if o[0] == 0 else g.cfg.events[g.erow[o[1]]]["cost"]))

    def clear_offer(self, g, p):
        return False

    def recipe_score(self, g, r):
        R = g.cfg.recipes[r]
        js = [g.cfg.judges[j] for j in g.judges]
        jv = max((J["vp"] * (R["chars"][J["p"]] if J["pd"] > 0 else 2 - R["chars"][J["p"]]) for J in js), default=0)
        return R["vp"] * self.w["vp"] + R["gold"] + 0.4 * jv - 0.3 * len(R["need_idx"])

    def pick_recipe(self, g, p, offer_only=False):
        R = g.cfg.recipes
        nb = sum(1 for r in p.book if R[r]["deck"] == "barrel")
        ns = len(p.book) - nb
        want = "barrel" if nb * 2 < ns else None
        opts = [("offer", d, i) for d in ("barrel", "spice") for i in range(len(g.roffer[d])) if g.roffer[d][i] >= 0
                and (want is None or d == want)]
        if not opts:
            opts = [("offer", d, i) for d in ("barrel", "spice") for i in range(len(g.roffer[d])) if g.roffer[d][i] >= 0]
        if not opts:
            return ("deck", want or "spice")
        return max(opts, key=lambda o: self.recipe_score(g, g.roffer[o[1]][o[2]]))

    def clear_picks(self, g, p):
        allpos = [(0, i) for i in range(len(g.brow)) if g.brow[i] >= 0] + [(1, i) for i in range(len(g.erow)) if g.erow[i] >= 0]
        allpos.sort(key=lambda o: self.card_value(g, p, o[0], (g.brow if o[0] == 0 else g.erow)[o[1]]))
        return allpos[:g.cfg.params["clear_draft_n"]]

    def guild_hire(self, g, p):
        return p.gold >= 2 + self.w["gold_keep"]

    def scroll_deck(self, g, p):
        R = g.cfg.recipes
        nb = sum(1 for r in p.book if R[r]["deck"] == "barrel")
        return "barrel" if nb * 2 < len(p.book) - nb else "spice"

    def pick_servant(self, g, p, opts):
        return max(opts, key=lambda o: self.action_value(g, p, g.players[o[0]], g.players[o[0]].estate[o[1]]))

    def brew(self, g, p, maxn):
        chosen = self.select(g, p, maxn, True)
        return [(c[0], list(c[1])) for c, _ in chosen]

    def shadow_swap(self, g, p):
        beers = p.beers
        if not beers:
            return None
        best, bv = None, 0.25
        for slot, j in enumerate(g.judges):
            if slot in g.ogre:
                continue
            J = g.cfg.judges[j]
            old = max(pwin(J, b[2]) for b in beers) * J["vp"]
            for h, sj in enumerate(g.shadow):
                S = g.cfg.judges[sj]
                v = max(pwin(S, b[2]) for b in beers) * S["vp"] - old
                if v > bv:
                    best, bv = (slot, h), v
        return best

    def winter_keep(self, g, p, cap):
        order = [C.MANA] + list(C.MAGIC) + list(C.WORTS) + list(C.GRAINS)
        keep, room = [0] * C.N_INGS, cap
        for i in order:
            k = min(p.inv[i], room)
            keep[i] = k
            room -= k
        return keep

    def book_keep(self, g, p, m):
        R = g.cfg.recipes
        sc = sorted(p.book, key=lambda r: -(R[r]["vp"] * 2 + R[r]["gold"] + max(R[r]["chars"]) * 0.7))
        barrels = [r for r in sc if R[r]["deck"] == "barrel"]
        keep = barrels[:max(2, m // 3)]
        for r in sc:
            if len(keep) >= m:
                break
            if r not in keep:
                keep.append(r)
        return keep[:m]


def beer_arrays(cfg, book):
    """The beers a recipe book allows, built by `build_beers` into fresh arrays: cards (barrel,
    spices, -1 padded), characteristics, vp, gold, number of spices, and the need counts by
    ingredient in first-need order (barrel first)."""
    chars, vp, gold, need, need_n, barrel = cfg.planner_recipes
    m = cfg.params["max_spices"]
    barrels = np.array([r for r in book if barrel[r]], np.int64)
    spices = np.array([r for r in book if not barrel[r]], np.int64)
    nc = len(barrels) * sum(comb(len(spices), k) for k in range(1, m + 1))
    width = need.shape[1] * (1 + m)
    out = (np.full((nc, 1 + m), -1, np.int64), np.zeros((nc, 3), np.int64), np.zeros(nc, np.int64),
           np.zeros(nc, np.int64), np.zeros(nc, np.int64), np.zeros((nc, width), np.int64),
           np.zeros((nc, width), np.int64), np.zeros(nc, np.int64))
    build_beers(barrels, spices, m, chars, vp, gold, need, need_n, np.empty(m, np.int64), *out)
    return out


@jit
def add_recipe(ci, r, chars, vp, gold, need, need_n, cchars, cvp, cgold, cnt_ing, cnt_k, cnt_n):
    for x in range(3):
        cchars[ci, x] += chars[r, x]
    cvp[ci] += vp[r]
    cgold[ci] += gold[r]
    for t in range(need_n[r]):
        i = need[r, t]
        j = 0
        while j < cnt_n[ci] and cnt_ing[ci, j] != i:
            j += 1
        if j == cnt_n[ci]:
            cnt_ing[ci, j] = i
            cnt_n[ci] += 1
        cnt_k[ci, j] += 1


@jit
def build_beers(barrels, spices, max_spices, chars, vp, gold, need, need_n, idx,
                cards, cchars, cvp, cgold, nsp, cnt_ing, cnt_k, cnt_n):
    """Fill one row per beer: each barrel with every combination of 1..max_spices spices, in
    itertools.combinations order (the planner breaks value ties by this order)."""
    ns = spices.shape[0]
    ci = 0
    for b in barrels:
        for k in range(1, min(max_spices, ns) + 1):
            for j in range(k):
                idx[j] = j
            while True:
                cards[ci, 0] = b
                nsp[ci] = k
                add_recipe(ci, b, chars, vp, gold, need, need_n, cchars, cvp, cgold, cnt_ing, cnt_k, cnt_n)
                for j in range(k):
                    cards[ci, 1 + j] = spices[idx[j]]
                    add_recipe(ci, spices[idx[j]], chars, vp, gold, need, need_n, cchars, cvp, cgold,
                               cnt_ing, cnt_k, cnt_n)
                ci += 1
                j = k - 1  # next combination in lexicographic order
                while j >= 0 and idx[j] == ns - k + j:
                    j -= 1
                if j < 0:
                    break
                idx[j] += 1
                for t in range(j + 1, k):
                    idx[t] = idx[t - 1] + 1
    return ci


@jit
def judge_values(cchars, jp, jpd, jw, jvs, jv0):
    """Per beer: its value at each shown judge (VP x weight x `pwin`), and the best positive
    one (what it chases while no judge is claimed)."""
    for ci in range(cchars.shape[0]):
        best = 0.0
        for k in range(jp.shape[0]):
            v = cchars[ci, jp[k]]
            if jpd[k] > 0:
                x = (v - 3) / 4.0
                x = 0.0 if 0.0 > x else x
                x = 0.9 if x > 0.9 else x
            else:
                x = (2.5 - v) / 3.0
                x = 0.0 if 0.0 > x else x
                x = 0.85 if x > 0.85 else x
            jvs[ci, k] = jw[k] * x
            if jvs[ci, k] > best:
                best = jvs[ci, k]
        jv0[ci] = best


@jit
def lack_cost_nb(inv, cnt_ing, cnt_k, n, acquire):
    """Brewer actions (by `acquire`) to get what one candidate lacks, mana weed covering first."""
    cost = 0.0
    mana = inv[C.MANA] if inv[C.MANA] > 0 else 0
    for j in range(n):
        i, k = cnt_ing[j], cnt_k[j]
        short = k - inv[i] if inv[i] > 0 else k
        if short <= 0:
            continue
        if mana >= short:
            mana -= short
            continue
        short -= mana
        mana = 0
        for _ in range(short):
            cost += acquire[i]
    return cost


@jit
def can_pay_nb(inv, cnt_ing, cnt_k, n):
    short = 0
    for j in range(n):
        if inv[cnt_ing[j]] < cnt_k[j]:
            short += cnt_k[j] - inv[cnt_ing[j]]
    return short <= inv[C.MANA]


@jit
def take_soft_nb(inv, cnt_ing, cnt_k, n):
    for j in range(n):
        i = cnt_ing[j]
        for _ in range(cnt_k[j]):
            if inv[i] > 0:
                inv[i] -= 1
            elif inv[C.MANA] > 0:
                inv[C.MANA] -= 1


@jit
def any_used(row, used):
    for j in range(row.shape[0]):
        if row[j] >= 0 and used[row[j]]:
            return True
    return False


@jit
def beer_value(ci, vp, gold, nsp, jvs, jv0, claimed, any_claimed, wvp, wj):
    if any_claimed:
        jv = 0.0
        for k in range(jvs.shape[1]):
            if jvs[ci, k] > jv and not claimed[k]:
                jv = jvs[ci, k]
    else:
        jv = jv0[ci]
    return vp[ci] * wvp + gold[ci] + wj * jv - 0.05 * nsp[ci]


@jit
def select_beers(cards, vp, gold, nsp, cnt_ing, cnt_k, cnt_n, jvs, jv0, inv, maxn, feasible_only, wvp, wj,
                 acquire, waction, budget, stale, active, claimed, used, out_ci, out_v):
    """Lazy greedy selection of up to maxn disjoint beers: take the beer with the highest stale
    value (ties: lowest index), re-value it; keep it if it still beats every other stale value,
    else put it back with its new value. A beer's value only falls as ingredients and judges are
    taken, so this picks what a full re-evaluation would. A beer whose lacking ingredients take
    more brewer actions (acquire) than the budget has left is skipped. inv is a scratch copy.
    Returns the number chosen; out_ci/out_v hold their indices and values."""
    nc = cards.shape[0]
    claimed[:] = False
    any_claimed = False
    for ci in range(nc):
        active[ci] = not feasible_only or can_pay_nb(inv, cnt_ing[ci], cnt_k[ci], cnt_n[ci])
        if active[ci]:
            v = beer_value(ci, vp, gold, nsp, jvs, jv0, claimed, False, wvp, wj)
            if not feasible_only:
                v -= waction * lack_cost_nb(inv, cnt_ing[ci], cnt_k[ci], cnt_n[ci], acquire)
            stale[ci] = v
    chosen = 0
    while chosen < maxn:
        ci = -1
        for j in range(nc):
            if active[j] and (ci < 0 or stale[j] > stale[ci]):
                ci = j
        if ci < 0:
            break
        active[ci] = False
        if any_used(cards[ci], used):
            continue
        if feasible_only and not can_pay_nb(inv, cnt_ing[ci], cnt_k[ci], cnt_n[ci]):
            continue
        v = beer_value(ci, vp, gold, nsp, jvs, jv0, claimed, any_claimed, wvp, wj)
        acts = 0.0
        if not feasible_only:
            acts = lack_cost_nb(inv, cnt_ing[ci], cnt_k[ci], cnt_n[ci], acquire)
            if acts > budget:
                continue
            v -= waction * acts
        top = -1
        for j in range(nc):
            if active[j] and (top < 0 or stale[j] > stale[top]):
                top = j
        if top >= 0 and v < stale[top]:
            stale[ci] = v
            active[ci] = True
            continue
        if v <= 0 and not feasible_only:
            break
        out_ci[chosen] = ci
        out_v[chosen] = v
        chosen += 1
        budget -= acts
        for j in range(cards.shape[1]):
            if cards[ci, j] >= 0:
                used[cards[ci, j]] = True
        jv, jbest = 0.0, -1
        for k in range(jvs.shape[1]):
            if jvs[ci, k] > jv and not claimed[k]:
                jv, jbest = jvs[ci, k], k
        if jbest >= 0:
            claimed[jbest] = True
            any_claimed = True
        take_soft_nb(inv, cnt_ing[ci], cnt_k[ci], cnt_n[ci])
    return chosen


def make_bot(cfg, pol_index, rng):
    pol = cfg.policies[pol_index]
    return (RandomBot if pol["kind"] == "random" else PlannerBot)(cfg, pol, rng)


__all__ = ["RandomBot", "PlannerBot", "make_bot", "pwin", "NOT_BORROWABLE"]
