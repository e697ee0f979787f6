"""Brewin' USA state and kernel inputs as NamedTuples of NumPy arrays (numba-friendly).

State fields (N = MAX_PLAYERS, T = ingredient card types; column names in constants.py):
  g        int64[N_G]              game counters (G_*), pile sizes, the caps in the bag
  pl       int64[N, N_PL]          per seat: bank, colored caps, beers launched, auction flags,
                                   final VP parts and statistics
  hand     int64[N, T]             ingredient cards in hand, counted by type
  piles    int64[4, 116]           rows PILE_*: ingredient deck and discards (types), beer deck and
                                   discards (physical beer cards); the top of a deck is its last slot
  beer     int64[37, 5]            per physical beer card: location (LOC_*), owner, city, challenge order,
                                   beer type this game; slot 36 holds a treatment's injected copy
  city     int64[12, 4]            per city tile: in play, Market Demand, controlling beer, brewfest pending
  batch    int64[N, N_BT]          this round's ingredient batches: cards, size, face-down card, buyer, price
  fest     int64[N, N_F]           brewfest scratch per seat: taking part, beer, committed cards, score
  seats    int64[4, N]             rows ROW_*: turn order from the left of the dealer, bot per seat, rank, scratch
  scratch  int64[3 + N, SCRATCH]   rows SC_*: a launch's recipe fit, a hand's profile, a decision's tallies,
                                   then per seat its hand as the auction values it (policies.held_value)
  rng      uint64[1 + 3N]          streams: 0 decks and tiles, 1..N unused (no dice), N+1..2N bots,
                                   2N+1..3N the search bots' (sim.core.rng.STREAM_SEARCH)
  ev       int32[cap, 7]           event rows: game, seat, round, card, kind, amount, target
  rnd      int32[rcap, 4]          rounds rows: game, seat, round (1-based), VP if the game ended then
  trace    int64[tcap, TRACE_WIDTH] replay trace (tcap = 1 when not tracing)
  vals     float64[64]             a bot's scores of its options (scratch)
  auction  float64[N, N + 1]       a greedy seat's values this auction: [seat, b] of batch b, [seat, N]
                                   of its hand alone; NaN = not worked out yet (policies.known_*)
Kernels never allocate (see sim/core/jit.py): every buffer is here.
LAYOUT names the cells for plain-Python readers (tests, replay, a debugger): view(S).game.n,
view(S).seat(0).<field> (sim.core.view); the kernels keep the integer constants.
"""

from collections import namedtuple

import numpy as np

from sim.core.rounds import ROUND_COLS
from sim.core.rows import column_buffer
from sim.core.view import Group, Layout, Part, StateView

from . import constants as C
from .data import BrewinConfig

State = namedtuple("State", "g pl hand piles beer city batch fest seats scratch rng ev trace vals rnd auction")
EV_COLS = 7

# Kernel inputs, few fields on purpose (numba's compile time grows with the tuple's size):
#   p float64[params]  ing int64[T, 3]  kq int64[N_KINDS, MAX_Q+1]  beer int64[B, N_BF]
#   beer has the neutral card as its last row (neutral_beer)
#   phys int64[36]  city int64[12, 2]  pol_kind int64[P]  pol_w float64[P, W]
Rules = namedtuple("Rules", "p ing kq beer phys city pol_kind pol_w")


# A run's inputs beyond the rules (the kernel's X):
#   codes    int64[2]   the treatment (sim/core/treatment.py codes: kind, target beer type)
#   scratch  State      a search bot's copy of the live game, one per thread (kernel.search_launch)
#   cand     float64[MAX_CANDIDATES, 5]  the search's launch options: beer, city, value sum,
#                       rollouts, greedy's score (search.launch_candidates)
Inputs = namedtuple("Inputs", "codes scratch cand")


def make_inputs(codes: np.ndarray, n_types: int) -> Inputs:
    """Run inputs with a search scratch state that logs nothing (one-row buffers)."""
    return Inputs(codes=codes, scratch=make_state(n_types, 1, 1, 1), cand=np.zeros((C.MAX_CANDIDATES, 5)))


def neutral_beer() -> np.ndarray:
    """The neutral card's row of Rules.beer (rules.neutral_type): a blank beer card, quality 0,
    style 0 (never read: it never reaches a city), a recipe beyond any ingredient's quality, no
    adjunct, no copy in the data's deck."""
    row = np.zeros(C.N_BF, np.int64)
    row[C.BF_REQ:C.BF_REQ + 4] = C.MAX_Q + 1
    row[C.BF_ADJ] = C.ADJ_NONE
    return row


def make_rules(cfg: BrewinConfig) -> Rules:
    return Rules(p=cfg.params, ing=cfg.ing, kq=cfg.ing_kq, beer=np.vstack([cfg.beer, neutral_beer()]),
                 phys=cfg.beer_phys, city=cfg.city, pol_kind=cfg.policy_kind, pol_w=cfg.policy_weights)


def beer_slots() -> np.ndarray:
    """State.beer: every slot out of the game until setup (rules.setup_decks) deals the deck."""
    beer = np.zeros((C.BEER_SLOTS, C.N_B), np.int64)
    beer[:, C.B_LOC] = C.LOC_OUT
    beer[:, C.B_OWNER] = -1
    beer[:, C.B_CITY] = -1
    return beer


def make_state(n_types: int, event_capacity: int, trace_capacity: int = 1,
               rounds_capacity: int | None = None) -> State:
    """Buffers for one thread. rounds_capacity defaults to event_capacity rows (a full
    buffer makes run_chunk stop early and resume, never truncate)."""
    n = C.MAX_PLAYERS
    g = np.zeros(C.N_G, np.int64)
    g[C.G_TREATED] = -1  # no injected card until a treated game says so (kernel.play_game)
    return State(
        g=g,
        pl=np.zeros((n, C.N_PL), np.int64),
        hand=np.zeros((n, n_types), np.int64),
        piles=np.zeros((4, C.INGREDIENT_DECK), np.int64),
        beer=beer_slots(),
        city=np.zeros((C.N_CITIES, 4), np.int64),
        batch=np.zeros((n, C.N_BT), np.int64),
        fest=np.zeros((n, C.N_F), np.int64),
        seats=np.zeros((4, n), np.int64),
        scratch=np.zeros((C.SCRATCH_ROWS, C.SCRATCH), np.int64),
        rng=np.zeros(1 + 3 * n, np.uint64),
        ev=column_buffer(event_capacity, EV_COLS),
        trace=np.zeros((max(trace_capacity, 1), C.TRACE_WIDTH), np.int64),
        vals=np.zeros(64, np.float64),
        rnd=column_buffer(rounds_capacity or event_capacity, ROUND_COLS),
        auction=np.full((n, n + 1), np.nan),
    )


# ----------------------------------------------------------------------------- named access
# The names tests and replay read the state by (sim.core.view); the kernels keep the constants.

LAYOUT = Layout(
    records={
        "game": Part("g", {
            "n": C.G_N, "round": C.G_ROUND, "dealer": C.G_DEALER, "ingredient_deck": C.G_IDECK,
            "ingredient_discards": C.G_IDISC, "beer_deck": C.G_BDECK, "beer_discards": C.G_BDISC, "bag": C.G_BAG,
            "decisions": C.G_DECISIONS, "events": C.G_EVENTS, "trace": C.G_TRACE, "overflow": C.G_OVERFLOW,
            "violation": C.G_VIOLATION, "phase": C.G_PHASE, "last_round": C.G_LAST_ROUND,
            "end_reason": C.G_END_REASON, "seq": C.G_SEQ, "buy_slot": C.G_BUY_SLOT, "fests": C.G_FESTS,
            "total_caps": C.G_TOTAL_CAPS, "pot": C.G_POT, "rounds": C.G_ROUNDS, "treated": C.G_TREATED,
            "rollout": C.G_ROLLOUT, "turn": C.G_TURN, "turn_launch": C.G_TURN_LAUNCH}),
        "piles": Part("piles", {
            "ingredient_deck": C.PILE_IDECK, "ingredient_discards": C.PILE_IDISC, "beer_deck": C.PILE_BDECK,
            "beer_discards": C.PILE_BDISC}),
        "seating": Part("seats", {"order": C.ROW_ORDER, "policy": C.ROW_POLICY, "rank": C.ROW_RANK,
                                  "tmp": C.ROW_TMP}),
    },
    tables={
        "seat": Part("pl", {
            "bank": C.BANK, "colored": C.COLORED, "launched": C.LAUNCHED, "has_batch": C.HAS_BATCH,
            "passed": C.PASSED, "vp_cities": C.VP_CITIES, "vp_regions": C.VP_REGIONS, "vp_beers": C.VP_BEERS,
            "vp_bank": C.VP_BANK, "score": C.SCORE, "fests_won": C.ST_FESTS_WON, "fests_lost": C.ST_FESTS_LOST,
            "caps_spent": C.ST_CAPS_SPENT, "challenges": C.ST_CHALLENGES, "claims": C.ST_CLAIMS,
            "relaunches": C.ST_RELAUNCHES, "income": C.ST_INCOME, "adjuncts": C.ST_ADJUNCTS,
            "quality_bought": C.ST_QUALITY_BOUGHT, "batch_cards": C.ST_BATCH_CARDS, "cities": C.ST_CITIES,
            "rollouts": C.ST_ROLLOUTS,
        }, parts={
            "hand": Part("hand"),  # ingredient cards in hand, by card type
            "fest": Part("fest", {"taking_part": C.F_IN, "beer": C.F_BEER, "n_cards": C.F_NC,
                                  "score": C.F_SCORE, "cards": slice(C.F_C, C.F_C + C.MAX_COMMIT)}),
        }),
        "beer": Part("beer", {"loc": C.B_LOC, "owner": C.B_OWNER, "city": C.B_CITY, "seq": C.B_SEQ,
                              "type": C.B_TYPE}),
        "city": Part("city", {"active": C.CT_ACTIVE, "demand": C.CT_DEMAND, "beer": C.CT_BEER, "fest": C.CT_FEST}),
        "batch": Part("batch", {"cards": slice(0, C.MAX_BATCH), "n": C.BT_N, "hidden": C.BT_HIDDEN,
                                "owner": C.BT_OWNER, "price": C.BT_PRICE}),
    },
)

# The card and city tables of the rules, by name (rules_view(R)).
RULES_LAYOUT = Layout(
    records={},
    tables={
        "ingredient": Part("ing", {"kind": C.IF_KIND, "quality": C.IF_Q, "count": C.IF_COUNT}),
        "beer": Part("beer", {"style": C.BF_STYLE, "quality": C.BF_QUALITY,
                              "requires": Group(C.BF_REQ, C.KINDS[:4]), "adjunct": C.BF_ADJ, "count": C.BF_COUNT}),
        "city": Part("city", {"region": C.CF_REGION, "preference": C.CF_PREF}),
    },
)


def view(state: State) -> StateView:
    """The state read and written by name (sim.core.view)."""
    return StateView(state, LAYOUT)


def rules_view(rules: Rules) -> StateView:
    """The rules' card and city tables read by name."""
    return StateView(rules, RULES_LAYOUT)
