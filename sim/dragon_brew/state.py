"""Dragon Brew state and kernel inputs as NamedTuples of NumPy arrays (numba-friendly).

State fields (N = MAX_PLAYERS; the index names are in constants.py). Few arrays on purpose:
numba's compile time grows with the fields of a NamedTuple argument (measured: 0.2 s per
function with 20 arrays, 0.1 s with 12).
  g       int64[N_G]                    game counters (G_*), the turn flags of the player on turn
                                        (G_FLAGS + F_*), the turn order (G_ORDER + k) and the size
                                        of every pile (G_N_PILE + PILE_*)
  piles   int64[N_PILES + N_ROWS, PILE_W]  decks and discard piles (PILE_*: card types, recipe or
                                        judge indices; the top of a deck is its last used slot),
                                        then the face-up rows (ROW_*): the Brewery and Event draft
                                        rows, the barrel and spice offering, the shown judges, the
                                        Dark Elf's hidden judges, and per judge slot the bribe
                                        (seat, gold) and the Ogre's seat; -1 = empty
  pl      int64[N, N_PL]                per seat (PL_*), the players-table statistics (PL_STATS + k),
                                        ingredients (PL_INV + INGS index), recipe book (PL_BOOK + k,
                                        PL_N_BOOK long) and brewer quests (PL_QUESTS + k)
  est     int64[N, MAX_CARDS, N_CF]     estate cards (CF_*) with their Brewery upgrades (CF_UP + k),
                                        pl[PL_N_CARDS] of them in order
  beers   int64[N, MAX_BEERS, N_BF]     this year's presented beers (BF_*)
  rng     uint64[1 + N]                 streams: 0 decks, 1..N each seat's bot
  moves   int64[MAX_MOVES, MOVE_W]      the legal moves of the current decision (scratch)
  tmp     int64[24, 256]                scratch rows for choices inside actions
  ev      int32[cap, 6]                 event log rows: game, seat, year, card code, kind, amount
  rnd     int32[rcap, 4]                rounds rows: game, seat, year, VP after that year's fall
  trace   int64[tcap, TRACE_W]          replay trace rows (tcap = 1 when not tracing)
Kernels never allocate (sim/core/jit.py): every buffer is here.
LAYOUT names the cells for plain-Python readers (tests, replay, a debugger): view(S).game.n,
view(S).seat(0).<field> (sim.core.view); the kernels keep the integer constants. The bots' own memory (plans,
beer candidates) is policies.BotState.
"""

from collections import namedtuple

import numpy as np

from sim.core.rounds import ROUND_COLS
from sim.core.rows import column_buffer
from sim.core.view import Group, Layout, Part, StateView

from . import constants as C

State = namedtuple("State", "g piles pl est beers rng moves tmp ev rnd trace")
EV_COLS = 6
TRACE_W = 8  # seat, year, move kind, a, b, c, d, decision number

# Kernel inputs, few arrays on purpose (numba's compile time grows with the fields of a tuple).
#   p     int64[N_P]           params (P_*), incl. the events-table card-code offsets
#   race  int64[races, N_RF]   race numbers (RF_*)
#   ab    int64[19, N_AF]      ability numbers (AF_*), ABILITIES order
#   bc    int64[types + 1, N_BC] Brewery card types (BC_*), then the neutral card (row P_NEUTRAL)
#   evt   int64[types, N_EF]   Event card types (EF_*)
#   rc    int64[recipes, N_RC] recipes (RC_*), need list at RC_NEED..
#   jd    int64[judges, N_JF]  judges (JF_*)
#   pol_kind int64[P]  pol_w float64[P, N_W]  pol_y float64[P, N_Y]  bot weights and card yields
Rules = namedtuple("Rules", "p race ab bc evt rc jd pol_kind pol_w pol_y")

(P_YEARS, P_DRAFT_ROW, P_OFFERING_ROW, P_CLEAR_DRAFT_COST, P_CLEAR_DRAFT_N, P_CLEAR_OFFERING_COST, P_STUDY_DRAW,
 P_BASE_BEERS, P_EXTRA_GOLD, _, _, _, P_GNOME_LIMIT, P_JUDGES_EXTRA, P_CORRUPT, P_CORRUPT_REMOVED, P_TIE_MIN_VP,
 P_MAX_SPICES, P_WORT_PER_MASH, P_INFINITE, _, _, _, _, _, P_LC_EVENT, P_LC_ABILITY, P_LC_JUDGE, P_LC_RECIPE,
 P_LC_COMMON, P_LC_DRAFT_POOL, P_N_REGULAR_JUDGES, P_CHAR_UNIT, P_NEUTRAL, P_LC_NEUTRAL) = range(35)
N_P = 35
(RF_GOLD, RF_WHEAT, RF_RYE, RF_BARLEY, RF_BREWERS, RF_BARREL, RF_SPICE, RF_STUDY_MAX, RF_STORES, RF_TRADER_COST,
 RF_TRADER_MULT, RF_MASH_MULT, RF_GRAIN_YIELD, RF_ABILITY, RF_MIN_PLAYERS, RF_MAX_PLAYERS, RF_LACKS,
 RF_EXTRA_BEERS) = range(18)
N_RF = 18
AF_USE, AF_N, AF_GOLD, AF_OWN_ONLY = range(4)
N_AF = 4
BC_COUNT, BC_COST, BC_KIND, BC_INFINITE, BC_EFFECT, BC_AMOUNT, BC_TARGET, BC_ING, BC_SPELL_COST, BC_SPELL_N = range(10)
N_BC = 10
(EF_COUNT, EF_COST, EF_KIND, EF_BREWER, EF_PAY_KIND, EF_PAY_N, EF_GAIN_GOLD, EF_GAIN_VP, EF_GAIN_KIND, EF_GAIN_N,
 EF_GAIN_RECIPES) = range(11)
N_EF = 11
RC_SPICE, RC_C0, RC_C1, RC_C2, RC_VP, RC_GOLD, RC_NEED_N, RC_NEED = range(8)
JF_P, JF_PD, JF_S, JF_SD, JF_VP, JF_CORRUPT = range(6)
N_JF = 6
WEIGHTS = ("vp", "grain", "wort", "magic", "need_bonus", "judge_chase", "estate", "research", "gold_keep",
           "bribe_share", "min_gain", "finish", "reserve", "action", "slack", "brewer", "unfinished",
           "budget", "candidates", "near", "horizon", "eval_gold", "eval_card", "margin")
(W_VP, W_GRAIN, W_WORT, W_MAGIC, W_NEED_BONUS, W_JUDGE_CHASE, W_ESTATE, W_RESEARCH, W_GOLD_KEEP, W_BRIBE_SHARE,
 W_MIN_GAIN, W_FINISH, W_RESERVE, W_ACTION, W_SLACK, W_BREWER, W_UNFINISHED,
 W_BUDGET, W_CANDIDATES, W_NEAR, W_HORIZON, W_EVAL_GOLD, W_EVAL_CARD, W_MARGIN) = range(24)
Y_GAIN_ONCE = len(C.BREWERY_EFFECTS)  # pol_y columns: BREWERY_EFFECTS order, then gain_once
POL_RANDOM, POL_PLANNER, POL_SEARCH = 0, 1, 2  # a search seat plays greedy's weights between its searches
POL_KINDS = {"random": POL_RANDOM, "planner": POL_PLANNER, "search": POL_SEARCH}


def ing_code(name: str) -> int:
    """An ingredient name (0..9) or a class name (CL_*) as one code; -1 for none."""
    if not name:
        return -1
    return C.ING_INDEX[name] if name in C.ING_INDEX else C.CLASS_CODE[name]


def char_unit_permil(recipes) -> int:
    """Characteristic points of a recipe card played, per point written in recipes.toml (x1000):
    1000 with char_scale = 0. The planner's judge curves were set on the written scale and
    stretch by this factor (planner.pwin)."""
    played = sum(sum(r["chars"]) for r in recipes)
    written = sum(sum(r["chars_as_written"]) for r in recipes)
    return round(1000 * played / written)


def neutral_brewery_row() -> list[int]:
    """The neutral Brewery card (issue 14's `remove` treatment puts it where the removed card lay):
    none in the deck, a passive estate card (no brewer, no spell, no upgrade) with no effect. Its
    cost is the removed card's, set by the run (DragonBrew.kernel_inputs); the bots value it as
    worthless (planner.card_values.card_value)."""
    return [0, 0, C.K_PASSIVE, 0, -1, 0, -1, -1, -1, 0]


def make_rules(cfg) -> Rules:
    P = cfg.params
    p = np.zeros(N_P, np.int64)
    for k, name in ((P_YEARS, "years"), (P_DRAFT_ROW, "draft_row"), (P_OFFERING_ROW, "offering_row"),
                    (P_CLEAR_DRAFT_COST, "clear_draft_cost"), (P_CLEAR_DRAFT_N, "clear_draft_n"),
                    (P_CLEAR_OFFERING_COST, "clear_offering_cost"), (P_STUDY_DRAW, "study_draw"),
                    (P_BASE_BEERS, "base_beers"), (P_GNOME_LIMIT, "gnome_limit"), (P_JUDGES_EXTRA, "judges_extra"),
                    (P_CORRUPT_REMOVED, "corrupt_removed"), (P_TIE_MIN_VP, "tie_min_vp"),
                    (P_MAX_SPICES, "max_spices"), (P_WORT_PER_MASH, "wort_per_mash")):
        p[k] = P[name]
    p[P_EXTRA_GOLD:P_EXTRA_GOLD + 4] = (0, P["extra_gold_2nd"], P["extra_gold_3rd"], P["extra_gold_4th"])
    p[P_CORRUPT] = int(P["corrupt_judge"])
    for i, key in enumerate(C.COMMON):
        p[P_INFINITE + i] = int(P["infinite"].get(key, False))
    nb, ne = len(cfg.brewery), len(cfg.events)
    p[P_LC_EVENT] = nb
    p[P_LC_ABILITY] = nb + ne
    p[P_LC_JUDGE] = nb + ne + len(C.ABILITIES)
    p[P_LC_RECIPE] = p[P_LC_JUDGE] + len(cfg.judges)
    p[P_LC_COMMON] = p[P_LC_RECIPE] + len(cfg.recipes)
    p[P_LC_DRAFT_POOL] = p[P_LC_COMMON] + len(C.COMMON)
    p[P_LC_NEUTRAL] = p[P_LC_DRAFT_POOL] + 1
    assert p[P_LC_NEUTRAL] == len(cfg.card_ids()) - 1
    p[P_NEUTRAL] = nb  # the neutral Brewery card's row of bc, after the real cards
    p[P_N_REGULAR_JUDGES] = sum(1 for j in cfg.judges if not j["corrupt"])
    p[P_CHAR_UNIT] = char_unit_permil(cfg.recipes)

    ab_index = {a: i for i, a in enumerate(C.ABILITIES)}
    race = np.array([[r["gold"], r["wheat"], r["rye"], r["barley"], r["brewers"], r["barrel"], r["spice"],
                      r["study_max"], r["stores"], r["trader_cost"], r["trader_mult"], r["mash_mult"],
                      r["grain_yield"], ab_index[r["ability"]], r["min_players"], r["max_players"], r["lacks"],
                      r["extra_beers"]]
                     for r in cfg.races], np.int64)
    ab = np.zeros((len(C.ABILITIES), N_AF), np.int64)
    for i, a in enumerate(C.ABILITIES):
        A = cfg.abilities[a]
        ab[i] = (C.ABILITY_USES.index(A["use"]), A["n"], A["gold"], int(A["own_brewer_only"]))
    bc = np.array([[b["count"], b["cost"], C.KIND_CODE[b["kind"]], int(b["infinite"]),
                    C.BREWERY_EFFECTS.index(b["effect"]), b["amount"],
                    C.COMMON.index(b["target"]) if b["target"] else -1, ing_code(b["ingredient"]),
                    ing_code(b["spell_cost"]), b["spell_n"]] for b in cfg.brewery]
                  + [neutral_brewery_row()], np.int64)
    evt = np.array([[e["count"], e["cost"], C.EVENT_KINDS.index(e["kind"]), int(e["brewer"]), ing_code(e["pay_kind"]),
                     e["pay_n"], e["gain_gold"], e["gain_vp"], C.GAIN_KINDS.index(e["gain_kind"]), e["gain_n"],
                     e["gain_recipes"]] for e in cfg.events], np.int64)
    width = max(len(r["need_idx"]) for r in cfg.recipes)
    rc = np.full((len(cfg.recipes), RC_NEED + width), -1, np.int64)
    for i, r in enumerate(cfg.recipes):
        rc[i, :RC_NEED] = (int(r["deck"] == "spice"), *r["chars"], r["vp"], r["gold"], len(r["need_idx"]))
        rc[i, RC_NEED:RC_NEED + len(r["need_idx"])] = r["need_idx"]
    jd = np.array([[j["p"], j["pd"], j["s"], j["sd"], j["vp"], int(j["corrupt"])] for j in cfg.judges], np.int64)
    pol_kind = np.array([POL_KINDS[q["kind"]] for q in cfg.policies], np.int64)
    pol_w = np.array([[q[k] for k in WEIGHTS] for q in cfg.policies], np.float64)
    pol_y = np.array([[q["yields"][k] for k in (*C.BREWERY_EFFECTS, "gain_once")] for q in cfg.policies], np.float64)
    return Rules(p=p, race=race, ab=ab, bc=bc, evt=evt, rc=rc, jd=jd, pol_kind=pol_kind, pol_w=pol_w, pol_y=pol_y)


def make_state(event_capacity: int, rounds_capacity: int, trace_capacity: int = 1) -> State:
    n = C.MAX_PLAYERS
    return State(
        g=np.zeros(C.N_G, np.int64),
        piles=np.full((C.N_PILES + C.N_ROWS, C.PILE_W), -1, np.int64),
        pl=np.zeros((n, C.N_PL), np.int64),
        est=np.zeros((n, C.MAX_CARDS, C.N_CF), np.int64),
        beers=np.zeros((n, C.MAX_BEERS, C.N_BF), np.int64),
        rng=np.zeros(1 + n, np.uint64),
        moves=np.zeros((C.MAX_MOVES, C.MOVE_W), np.int64),
        tmp=np.zeros((24, 256), np.int64),
        ev=column_buffer(event_capacity, EV_COLS),
        rnd=column_buffer(rounds_capacity, ROUND_COLS),
        trace=np.zeros((max(trace_capacity, 1), TRACE_W), np.int64),
    )


# ----------------------------------------------------------------------------- queries
# Small read-only questions about a state, shared by the rules and the bots.

from sim.core.jit import jit, jit_inline  # noqa: E402


@jit_inline
def find_card(S, seat, key):
    """Index of the first estate card with this key, or -1."""
    for ci in range(S.pl[seat, C.PL_N_CARDS]):
        if S.est[seat, ci, C.CF_KEY] == key:
            return ci
    return -1


@jit
def n_upgrades(S, R, seat, ci, effect):
    """Sum of the amounts of the upgrades with this effect under estate card ci (0 for -1)."""
    if ci < 0:
        return 0
    tot = 0
    for u in range(S.est[seat, ci, C.CF_N_UP]):
        t = S.est[seat, ci, C.CF_UP + u]
        if R.bc[t, BC_EFFECT] == effect:
            tot += R.bc[t, BC_AMOUNT]
    return tot


@jit_inline
def race_num(S, R, seat, field):
    return R.race[S.pl[seat, C.PL_RACE], field]


@jit_inline
def has_ability(S, seat, ability):
    return S.pl[seat, C.PL_ABILITY] == ability


@jit_inline
def on_race_card(S, seat):
    return S.pl[seat, C.PL_OWN_AVAIL] + S.pl[seat, C.PL_GNOME_AVAIL]


@jit
def book_max(S, R, seat):
    return race_num(S, R, seat, RF_STUDY_MAX) + n_upgrades(S, R, seat, find_card(S, seat, C.STUDY), C.E_BOOK_MAX)


@jit
def stores_cap(S, R, seat):
    return race_num(S, R, seat, RF_STORES) + n_upgrades(S, R, seat, find_card(S, seat, C.WINTER_STORES), C.E_STORES)


@jit
def max_beers(S, R, seat):
    ci = find_card(S, seat, C.BREWERY)
    if ci < 0:
        return 0
    return (R.p[P_BASE_BEERS] + race_num(S, R, seat, RF_EXTRA_BEERS) + S.est[seat, ci, C.CF_OWN] + S.est[seat, ci, C.CF_GNOME]
            + n_upgrades(S, R, seat, ci, C.E_BEERS))


@jit
def trader_mult(S, R, owner):
    return race_num(S, R, owner, RF_TRADER_MULT) + n_upgrades(S, R, owner, find_card(S, owner, C.MAGIC_TRADER),
                                                              C.E_TRADER_MULT)


@jit
def mash_mult(S, R, owner):
    m = race_num(S, R, owner, RF_MASH_MULT) + n_upgrades(S, R, owner, find_card(S, owner, C.MASH_HOUSE), C.E_MASH_MULT)
    if has_ability(S, owner, C.AB_MASH_STOMPER):
        m += R.ab[C.AB_MASH_STOMPER, AF_N]
    return m


@jit
def study_draw(S, R, owner):
    return R.p[P_STUDY_DRAW] + n_upgrades(S, R, owner, find_card(S, owner, C.STUDY), C.E_STUDY_DRAW)


@jit_inline
def class_range(klass):
    """Ingredient range [lo, hi) of a class code (CL_*), or of one ingredient code."""
    if klass == C.CL_GRAIN:
        return 0, 3
    if klass == C.CL_WORT:
        return 3, 6
    if klass == C.CL_MAGIC:
        return 6, 9
    if klass == C.CL_ANY:
        return 0, 9
    return klass, klass + 1


@jit
def have(S, seat, klass, n):
    """Can seat pay n ingredients of a class or one ingredient (code), mana weed standing in?"""
    lo, hi = class_range(klass)
    tot = S.pl[seat, C.PL_INV + C.MANA]
    for i in range(lo, hi):
        if i != C.MANA:
            tot += S.pl[seat, C.PL_INV + i]
    return tot >= n


@jit
def recipe_needs_payable(R, inv, recipes, k):
    """Whether inv pays the needs of the first k recipes together (mana weed standing in)."""
    short = 0
    for i in range(C.N_INGS - 1):
        cnt = 0
        for a in range(k):
            r = recipes[a]
            for t in range(R.rc[r, RC_NEED_N]):
                if R.rc[r, RC_NEED + t] == i:
                    cnt += 1
        if inv[i] < cnt:
            short += cnt - inv[i]
    return short <= inv[C.MANA]


@jit
def pay_recipe_needs(R, inv, recipes, k):
    for a in range(k):
        r = recipes[a]
        for t in range(R.rc[r, RC_NEED_N]):
            i = R.rc[r, RC_NEED + t]
            if inv[i] > 0:
                inv[i] -= 1
            else:
                inv[C.MANA] -= 1


@jit_inline
def wort_grains(w):
    """The two grains a wort is mashed from (constants.WORT_OF)."""
    if w == C.GREEN:
        return C.WHEAT, C.RYE
    if w == C.ORANGE:
        return C.WHEAT, C.BARLEY
    return C.RYE, C.BARLEY


@jit_inline
def take_one(inv, i):
    """Pay one ingredient i from inv, mana weed standing in."""
    if inv[i] > 0:
        inv[i] -= 1
    else:
        inv[C.MANA] -= 1


@jit_inline
def not_borrowable(key):
    """Cards Horse Guests and the Servant Spell cannot use (by card key)."""
    return (key == C.BREWERY or key == C.KEY_ABILITY + C.AB_HORSE_GUESTS or key == C.KEY_ABILITY + C.AB_DARK_SACRIFICE
            or key == C.KEY_ABILITY + C.AB_OGRE_RULED or key == C.KEY_ABILITY + C.AB_SPELL_BOOK)


# ----------------------------------------------------------------------------- named access
# The names tests and replay read the state by (sim.core.view); the kernels keep the constants.

PILE_NAMES = ("brewery_deck", "brewery_discards", "event_deck", "event_discards", "barrel_deck", "spice_deck",
              "barrel_discards", "spice_discards", "judge_deck", "judge_box")  # PILE_* order
ROW_NAMES = ("brewery_row", "event_row", "barrel_offer", "spice_offer", "judges", "shadow_judges", "bribe_seat",
             "bribe_gold", "ogre")  # ROW_* order

LAYOUT = Layout(
    records={
        "game": Part("g", {
            "n": C.G_N, "year": C.G_YEAR, "phase": C.G_PHASE, "decisions": C.G_DECISIONS, "judged": C.G_JUDGED,
            "turns": C.G_TURNS, "stamp": C.G_STAMP, "box_brewery": C.G_BOX_BREWERY,
            "gnome_supply": C.G_GNOME_SUPPLY, "corrupt": C.G_CORRUPT, "game": C.G_GAME, "events": C.G_EV,
            "rounds": C.G_ROUNDS, "violation": C.G_VIOLATION, "overflow": C.G_OVERFLOW, "trace": C.G_TRACE,
            "n_judges": C.G_N_JUDGES, "n_shadow": C.G_N_SHADOW, "gnomes_ran_out": C.G_GNOMES_RAN_OUT,
            "treated_seat": C.G_TREATED_SEAT,
            "flags": Group(C.G_FLAGS, ("brewer", "cleared", "drafted", "free")),  # F_* order
            "order": slice(C.G_ORDER, C.G_ORDER + C.MAX_PLAYERS),
            "pile_size": Group(C.G_N_PILE, PILE_NAMES)}),
        "piles": Part("piles", {**{name: C.PILE_BDECK + k for k, name in enumerate(PILE_NAMES)},
                                **{name: C.ROW_BREWERY + k for k, name in enumerate(ROW_NAMES)}}),
    },
    tables={
        "seat": Part("pl", {
            "race": C.PL_RACE, "ability": C.PL_ABILITY, "policy": C.PL_POLICY, "gold": C.PL_GOLD, "vp": C.PL_VP,
            "ribbons": C.PL_RIBBONS, "stamp": C.PL_STAMP, "own_total": C.PL_OWN_TOTAL,
            "own_avail": C.PL_OWN_AVAIL, "gnome_avail": C.PL_GNOME_AVAIL, "housing": C.PL_HOUSING,
            "own_out": C.PL_OWN_OUT, "gnomes_out": C.PL_GNOMES_OUT, "sacrificed": C.PL_SACRIFICED,
            "bribe_slot": C.PL_BRIBE_SLOT, "bribe_gold": C.PL_BRIBE_GOLD, "n_cards": C.PL_N_CARDS,
            "n_book": C.PL_N_BOOK, "n_quests": C.PL_N_QUESTS, "n_beers": C.PL_N_BEERS, "rank": C.PL_RANK,
            "stats": Group(C.PL_STATS, C.PLAYER_STATS), "inv": Group(C.PL_INV, C.INGS),
            "book": slice(C.PL_BOOK, C.PL_BOOK + C.MAX_BOOK), "quests": slice(C.PL_QUESTS, C.PL_QUESTS + C.MAX_QUESTS),
        }),
        # estate(seat, card): one estate card with its upgrades
        "estate": Part("est", {
            "key": C.CF_KEY, "bc": C.CF_BC, "kind": C.CF_KIND, "infinite": C.CF_INFINITE, "locked": C.CF_LOCKED,
            "own": C.CF_OWN, "gnome": C.CF_GNOME, "spell_used": C.CF_SPELL_USED, "n_up": C.CF_N_UP,
            "up": slice(C.CF_UP, C.CF_UP + C.MAX_UP)}),
        # beer(seat, k): one of this year's presented beers
        "beer": Part("beers", {
            "barrel": C.BF_BARREL, "n_spices": C.BF_N_SPICES, "chars": Group(C.BF_C0, C.CHARS), "vp": C.BF_VP,
            "gold": C.BF_GOLD, "won": C.BF_WON, "spices": slice(C.BF_SPICE, C.N_BF)}),
    },
)


def view(state: State) -> StateView:
    """The state read and written by name (sim.core.view)."""
    return StateView(state, LAYOUT)
