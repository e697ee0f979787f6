"""Dwarfest state and kernel inputs as NamedTuples of NumPy arrays (numba-friendly).

State fields (T = card types, N = MAX_PLAYERS; column and row names are in constants.py):
  g      int64[N_G]                 game counters (G_*), including the pile sizes
  pl     int64[N, N_PL]             per seat: resources (TILL, FAME, BRAWL, ...), the number of
                                    Customer cards drawn, the hidden Restocking choice
  st     int64[N, N_ST]             statistics per seat (ST_*)
  hand   int64[N, T]                Tavern cards in hand, counted by type
  tav    int64[N, T]                Character/Object cards in play in each Tavern
  piles  int64[5, 61]               rows PILE_*: Tavern deck and discards (card types), Customer
                                    deck, discards and refused pool (dwarves per card); the top of
                                    a deck is its last used slot
  drawn  int64[N, MAX_DRAWN]        Customer cards in front of each player this Evening
  plays  int64[N, MAX_PLAYS, 3]     hidden card activations: card, target seat, sips used
  seats  int64[4, N]                rows ROW_*: turn order from the Dealer, bot per seat, Opening
                                    order, rank
  picks  int64[3, 64]               rows PICK_*: a bot's Table Service choice (scratch)
  rng    uint64[1 + 3N]             streams: 0 decks, 1..N dice (Bar flicks), N+1..2N bots,
                                    2N+1..3N search bots (STREAM_SEARCH; never read by rollouts)
  ev     int32[cap, 7]              event log rows: game, seat, round, card, kind, amount, target
  rnd    int32[rcap, 4]             rounds rows: game, seat, Evening (1-based), Nuggets at its end
  trace  int64[tcap, TRACE_WIDTH]   replay trace (tcap = 1 when not tracing)
  ctx    float64[16]                a bot's Table Service context (policies.CX_*)
Kernels never allocate (see sim/core/jit.py): every buffer is here.
LAYOUT names the cells for plain-Python readers (tests, replay, a debugger): view(S).game.n,
view(S).seat(0).<field> (sim.core.view); the kernels keep the integer constants.
"""

from collections import namedtuple

import numpy as np

from sim.core.rounds import ROUND_COLS
from sim.core.rows import column_buffer
from sim.core.view import Layout, Part, StateView

from . import constants as C
from .data import CUSTOMER_DECK_SIZE, TAVERN_DECK_SIZE, DwarfestConfig

State = namedtuple("State", "g pl st hand tav piles drawn plays seats picks rng ev trace ctx rnd")

EV_COLS = 7  # game, seat, round, card, kind, amount, target


# Kernel inputs. Few fields on purpose: numba's compile time grows with the number of
# arrays in a NamedTuple argument (measured: 0.35 s vs 0.04 s per function).
#   p float64[len(PARAM_NAMES)]  fame_cards int64[fame_max+1]  customers int64[54]
#   card int64[T, len(CARD_FIELDS)]  bar_skill float64[T]  pol_kind int64[P]
#   pol_w float64[P, len(WEIGHT_NAMES)]  mean_dwarves float
Rules = namedtuple("Rules", "p fame_cards customers card bar_skill pol_kind pol_w mean_dwarves")


def make_rules(cfg: DwarfestConfig, removed: int = -1) -> Rules:
    """The kernel's rules arrays. With `removed` (a card type, remove treatment) the neutral card,
    the last type, takes that card's cost, category and stacking, so a bot that would have paid
    for the removed card faces the same price and the same Tavern limit for the blank one."""
    c = cfg.cards
    card = np.stack([getattr(c, name) for name in C.CARD_FIELDS], axis=1).astype(np.int64)
    if removed >= 0:
        for field in (C.CF_COST, C.CF_CAT, C.CF_STACKABLE):
            card[-1, field] = card[removed, field]
    return Rules(
        p=cfg.params, fame_cards=cfg.fame_cards, customers=cfg.customer_dwarves, card=card,
        bar_skill=c.bar_skill, pol_kind=cfg.policy_kind, pol_w=cfg.policy_weights,
        mean_dwarves=float(cfg.customer_dwarves.mean()),
    )


# A search bot's buffers (search.py), made once per thread and passed in with the run inputs:
#   scratch  State       the copy a rollout plays on (events buffer: one game's bound)
#   cands    int64[MAX_CANDIDATES, 4]   candidate moves (Restocking: Tables, Barrels, Dancers,
#                                       cards kept 1/0; Table Service: Customer cards refused)
#   value    float64[MAX_CANDIDATES]    summed rollout scores per candidate
#   order    int64[MAX_DRAWN]           greedy's refusal order of the Customer cards
#   sizes    int64[MAX_PLAYERS]         rivals' hand sizes while their hands are redealt
#   bots     int64[MAX_PLAYERS]         the bot of every seat inside a rollout
Search = namedtuple("Search", "scratch cands value order sizes bots")
# Kernel run inputs beyond the rules: the treatment codes (sim.core.treatment) and the search buffers.
Inputs = namedtuple("Inputs", "codes search")


def make_search(n_types: int, event_capacity: int) -> Search:
    n = C.MAX_PLAYERS
    return Search(
        scratch=make_state(n_types, event_capacity, 1, 1),
        cands=np.zeros((C.MAX_CANDIDATES, 4), np.int64), value=np.zeros(C.MAX_CANDIDATES, np.float64),
        order=np.zeros(C.MAX_DRAWN, np.int64), sizes=np.zeros(n, np.int64), bots=np.zeros(n, np.int64),
    )


def make_state(n_types: int, event_capacity: int, trace_capacity: int = 1,
               rounds_capacity: int | None = None) -> State:
    """Buffers for one thread. rounds_capacity defaults to event_capacity rows (a full
    buffer makes run_chunk stop early and resume, never truncate)."""
    n = C.MAX_PLAYERS
    return State(
        g=np.zeros(C.N_G, np.int64),
        pl=np.zeros((n, C.N_PL), np.int64),
        st=np.zeros((n, C.N_ST), np.int64),
        hand=np.zeros((n, n_types), np.int64),
        tav=np.zeros((n, n_types), np.int64),
        piles=np.zeros((5, max(TAVERN_DECK_SIZE, CUSTOMER_DECK_SIZE)), np.int64),
        drawn=np.zeros((n, C.MAX_DRAWN), np.int64),
        plays=np.zeros((n, C.MAX_PLAYS, 3), np.int64),
        seats=np.zeros((4, n), np.int64),
        picks=np.zeros((3, 64), np.int64),
        rng=np.zeros(1 + 3 * n, np.uint64),
        ev=column_buffer(event_capacity, EV_COLS),
        trace=np.zeros((max(trace_capacity, 1), C.TRACE_WIDTH), np.int64),
        ctx=np.zeros(16, np.float64),
        rnd=column_buffer(rounds_capacity or event_capacity, ROUND_COLS),
    )


# ----------------------------------------------------------------------------- named access
# The names tests and replay read the state by (sim.core.view); the kernels keep the constants.

LAYOUT = Layout(
    records={
        "game": Part("g", {
            "n": C.G_N, "evening": C.G_EVENING, "dealer": C.G_DEALER, "tavern_deck": C.G_TDECK,
            "tavern_discards": C.G_TDISC, "customer_deck": C.G_CDECK, "customer_discards": C.G_CDISC,
            "pool": C.G_POOL, "decisions": C.G_DECISIONS, "events": C.G_EVENTS, "trace": C.G_TRACE,
            "overflow": C.G_OVERFLOW, "violation": C.G_VIOLATION, "phase": C.G_PHASE, "rounds": C.G_ROUNDS,
            "injected": C.G_INJECTED, "treated": C.G_TREATED}),
        "piles": Part("piles", {
            "tavern_deck": C.PILE_TDECK, "tavern_discards": C.PILE_TDISC, "customer_deck": C.PILE_CDECK,
            "customer_discards": C.PILE_CDISC, "pool": C.PILE_POOL}),
        "seating": Part("seats", {
            "order": C.ROW_ORDER, "policy": C.ROW_POLICY, "by_fame": C.ROW_BY_FAME, "rank": C.ROW_RANK}),
    },
    tables={
        "seat": Part("pl", {
            "till": C.TILL, "evening": C.EVENING, "fame": C.FAME, "brawl": C.BRAWL, "tables": C.TABLES,
            "barrels": C.BARRELS, "dancers": C.DANCERS, "sips": C.SIPS, "dwarves": C.DWARVES,
            "n_drawn": C.N_DRAWN, "buy_tables": C.BUY_TABLES, "buy_barrels": C.BUY_BARRELS,
            "buy_dancers": C.BUY_DANCERS, "n_plays": C.N_PLAYS, "search_rollouts": C.SEARCH_ROLLOUTS,
        }, parts={
            "stats": Part("st", {
                "brawls": C.ST_BRAWLS, "destroyed": C.ST_DESTROYED, "served_table": C.ST_SERVED_TABLE,
                "served_bar": C.ST_SERVED_BAR, "wasted": C.ST_WASTED, "unserved": C.ST_UNSERVED,
                "refused": C.ST_REFUSED, "cards_played": C.ST_CARDS_PLAYED, "sips_used": C.ST_SIPS_USED,
                "tables_lost": C.ST_TABLES_LOST, "bouncers_used": C.ST_BOUNCERS_USED}),
            "hand": Part("hand"),  # Tavern cards in hand, by card type
            "tavern": Part("tav"),  # Character/Object cards in play, by card type
            "drawn": Part("drawn"),  # Customer cards in front of the player (dwarves per card)
        }),
    },
)


def view(state: State) -> StateView:
    """The state read and written by name (sim.core.view)."""
    return StateView(state, LAYOUT)
