"""Dwarfest state and kernel inputs as NamedTuples of NumPy arrays (numba-friendly).

Shapes (T = card types, N = MAX_PLAYERS):
  g      int64[N_G]                game counters (constants G_*)
  pl     int64[N, N_PL]            resources per seat (TILL, FAME, BRAWL, ...)
  st     int64[N, N_ST]            statistics per seat (ST_*)
  hand   int64[N, T]               Tavern cards in hand, counted by type
  tav    int64[N, T]               Character/Object cards in play in each Tavern
  tdeck  int64[61]                 Tavern deck, card types, top = tdeck[g[G_TDECK] - 1]
  tdisc  int64[61]                 Tavern discard pile
  cdeck  int64[54]                 Customer deck, dwarves per card
  cdisc  int64[54]                 Customer discard pile
  drawn  int64[N, MAX_DRAWN]       Customer cards in front of each player this Evening
  ndrawn int64[N]
  pool   int64[54]                 refused Customer cards on the table
  buys   int64[N, 3]               hidden Restocking choice: tables, barrels, dancers
  plays  int64[N, MAX_PLAYS, 3]    hidden card activations: card, target seat, sips used
  nplays int64[N]
  order  int64[N]                  seats in turn order from the Dealer
  rng    uint64[1 + 2N]            streams: 0 decks, 1..N dice (Bar flicks), N+1..2N bots
  ev     int64[cap, 7]             event log rows: game, seat, round, card, kind, amount, target
  trace  int64[tcap, TRACE_WIDTH]  replay trace (tcap = 1 when not tracing)
Scratch buffers (kernels never allocate, see sim/core/jit.py):
  seats_pol int64[N] bot per seat; by_fame int64[N] Opening order; refuse int64[MAX_DRAWN],
  take int64[54], kept int64[MAX_DRAWN] Table Service choices; ranks int64[N], wins float64[N];
  ctx float64[16] a bot's Table Service context (policies.CX_*)
"""

from collections import namedtuple

import numpy as np

from . import constants as C
from .data import CUSTOMER_DECK_SIZE, TAVERN_DECK_SIZE, DwarfestConfig

State = namedtuple(
    "State",
    "g pl st hand tav tdeck tdisc cdeck cdisc drawn ndrawn pool buys plays nplays order rng ev trace "
    "seats_pol by_fame refuse take kept ranks wins ctx",
)

Rules = namedtuple(
    "Rules",
    "p fame_cards customers cost cat stackable count income fame brawl seats bar_skill "
    "bouncer harmful event amount pol_kind pol_w mean_dwarves",
)

EV_COLS = 7  # game, seat, round, card, kind, amount, target


def make_rules(cfg: DwarfestConfig) -> Rules:
    c = cfg.cards
    return Rules(
        p=cfg.params, fame_cards=cfg.fame_cards, customers=cfg.customer_dwarves,
        cost=c.cost, cat=c.cat, stackable=c.stackable, count=c.count, income=c.income,
        fame=c.fame, brawl=c.brawl, seats=c.seats, bar_skill=c.bar_skill, bouncer=c.bouncer,
        harmful=c.harmful, event=c.event, amount=c.amount, pol_kind=cfg.policy_kind,
        pol_w=cfg.policy_weights, mean_dwarves=float(cfg.customer_dwarves.mean()),
    )


def make_state(n_types: int, event_capacity: int, trace_capacity: int = 1) -> State:
    n = C.MAX_PLAYERS
    return State(
        g=np.zeros(C.N_G, np.int64),
        pl=np.zeros((n, C.N_PL), np.int64),
        st=np.zeros((n, C.N_ST), np.int64),
        hand=np.zeros((n, n_types), np.int64),
        tav=np.zeros((n, n_types), np.int64),
        tdeck=np.zeros(TAVERN_DECK_SIZE, np.int64),
        tdisc=np.zeros(TAVERN_DECK_SIZE, np.int64),
        cdeck=np.zeros(CUSTOMER_DECK_SIZE, np.int64),
        cdisc=np.zeros(CUSTOMER_DECK_SIZE, np.int64),
        drawn=np.zeros((n, C.MAX_DRAWN), np.int64),
        ndrawn=np.zeros(n, np.int64),
        pool=np.zeros(CUSTOMER_DECK_SIZE, np.int64),
        buys=np.zeros((n, 3), np.int64),
        plays=np.zeros((n, C.MAX_PLAYS, 3), np.int64),
        nplays=np.zeros(n, np.int64),
        order=np.zeros(n, np.int64),
        rng=np.zeros(1 + 2 * n, np.uint64),
        ev=np.zeros((max(event_capacity, 1), EV_COLS), np.int64),
        trace=np.zeros((max(trace_capacity, 1), C.TRACE_WIDTH), np.int64),
        seats_pol=np.zeros(n, np.int64),
        by_fame=np.zeros(n, np.int64),
        refuse=np.zeros(C.MAX_DRAWN, np.int64),
        take=np.zeros(CUSTOMER_DECK_SIZE, np.int64),
        kept=np.zeros(C.MAX_DRAWN, np.int64),
        ranks=np.zeros(n, np.int64),
        wins=np.zeros(n, np.float64),
        ctx=np.zeros(16, np.float64),
    )
