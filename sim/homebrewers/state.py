"""Homebrewers state and kernel inputs as NamedTuples of NumPy arrays (numba-friendly).

State fields (column names in constants.py):
  g      int64[N_G]            game counters (G_*): player count, month, start player, locks, piles
  pl     int64[6, N_PL]        per seat (row 5 = Charlie): money, reputation, covered spots, grain and
                               quality per recipe, faction, this month's power/extra flags, statistics
  card   int64[55, 3]          per physical flavor card: location (LOC_*), owner, recipe; card 54
                               (C.SPARE) is the one a treatment injects, LOC_OUT when none
  pile   int64[3, 55]          rows PILE_*: deck (top = last), discards, the face-up row
  board  int64[8, 13]          track benefits per recipe and level, month events, judges, Charlie's deck,
                               faction of each seat (rows B_*)
  dice   int64[6, 5]           dice per seat (row 5 = Charlie), counted by action face
  fl     int64[6, 4, 3]        flavor cards under each recipe, counted by flavor kind
  rng    uint64[18]            streams: 0 decks, 1..6 dice (seats, Charlie), 7..11 bots, 12 factions,
                               13..17 each seat's search bot (STREAM_SEARCH)
  ev     int32[cap, 7]         event rows: game, seat, month, card, kind, amount, target
  rnd    int32[rcap, 4]        rounds rows: game, seat, month (1-based), reputation at its end
  trace  int64[tcap, 8]        replay trace (tcap = 1 when not tracing)
  tmp    int64[64]             scratch for multi-value returns
  vals   float64[64 + 125]     a bot's scores of its options (scratch); from V_SWAP on, per seat
                               and pair of faces, the swap gains of one round of open trading
  gains  float64[5, N_GAINS]   per seat, the judge reputation and potential one more flavor of each
                               kind under each recipe would add, with the flavors and judges they
                               were worked out from (a bots' cache, policies.judge_gains)
  hands  float64[5, N_HANDS]   per seat, the worth of each hand of three dice to its plan in this
                               trade phase (a bots' cache, policies.dice_value)
Kernels never allocate (see sim/core/jit.py): every buffer is here.
LAYOUT names the cells for plain-Python readers (tests, replay, a debugger): view(S).game.n,
view(S).seat(0).<field> (sim.core.view); the kernels keep the integer constants.
"""

from collections import namedtuple

import numpy as np

from sim.core.rounds import ROUND_COLS
from sim.core.rows import column_buffer
from sim.core.treatment import T_INJECT, T_NONE, T_REMOVE
from sim.core.view import Group, Layout, Part, StateView

from . import constants as C
from .data import HomebrewersConfig

State = namedtuple("State", "g pl card pile board dice fl rng ev trace tmp vals rnd gains hands")
EV_COLS = 7
N_RNG = 18
RNG_DECK, RNG_DICE0, RNG_POL0, RNG_FACTION, RNG_SEARCH0 = 0, 1, 7, 12, 13

# Kernel inputs (few fields on purpose: numba's compile time grows with the tuple's size):
#   p int64[params]  cards int64[T + 1, 5] (kind, top, bottom, count, bottom amount; row T the
#   neutral card)  phys int64[55] (card type of each physical card, the spare's last)
#   events int64[10, 6]  tiles int64[12, 4]  board int64[13]  judges int64[12, 5]
#   chars int64[8, 7]  charlie int64[10, 4]  medals int64[3, 2, 4]  pol_kind int64[P]  pol_w float64[P, W]
Rules = namedtuple("Rules", "p cards phys events tiles board judges chars charlie medals pol_kind pol_w")


NO_TREATMENT = np.array([T_NONE, -1], np.int64)


def make_rules(cfg: HomebrewersConfig, treatment: np.ndarray = NO_TREATMENT) -> Rules:
    """The kernel's rules arrays; `treatment` is sim/core/treatment.codes (kind, target index)."""
    cards = np.concatenate([cfg.cards, cfg.bottom_n[:, None]], axis=1).astype(np.int64)
    neutral = np.array([[C.NO_KIND, C.T_NONE, C.E_NONE, 0, 0]], np.int64)
    return Rules(p=cfg.params, cards=np.concatenate([cards, neutral]), phys=treated_phys(cfg, treatment),
                 events=cfg.events, tiles=cfg.tiles, board=cfg.board,
                 judges=cfg.judges, chars=cfg.chars, charlie=cfg.charlie, medals=cfg.medals,
                 pol_kind=cfg.policy_kind, pol_w=cfg.policy_weights)


def treated_phys(cfg: HomebrewersConfig, treatment: np.ndarray) -> np.ndarray:
    """Card type of each physical card, the spare (C.SPARE) last. `remove` puts the neutral card
    in every place its target held (same count, same deck positions, so the rest of the deal is
    unchanged); under `inject` the spare is a copy of the target (else it never enters play)."""
    kind, target = int(treatment[0]), int(treatment[1])
    phys = cfg.phys.copy()
    if kind == T_REMOVE:
        phys[phys == target] = len(cfg.card_ids)  # the neutral card's row in Rules.cards
    spare = target if kind == T_INJECT else len(cfg.card_ids)
    return np.append(phys, spare).astype(np.int64)


def make_state(event_capacity: int, trace_capacity: int = 1, rounds_capacity: int | None = None) -> State:
    """Buffers for one thread. rounds_capacity defaults to event_capacity rows (a full
    buffer makes run_chunk stop early and resume, never truncate)."""
    return State(
        g=np.zeros(C.N_G, np.int64),
        pl=np.zeros((C.N_ROWS, C.N_PL), np.int64),
        card=np.full((C.CARD_SLOTS, 3), C.LOC_OUT, np.int64),  # setup_board deals the deck's 54
        pile=np.zeros((3, C.CARD_SLOTS), np.int64),
        board=np.zeros((8, C.MAX_Q + 1), np.int64),
        dice=np.zeros((C.N_ROWS, C.N_ACTIONS), np.int64),
        fl=np.zeros((C.N_ROWS, C.N_RECIPES, C.N_KINDS), np.int64),
        rng=np.zeros(N_RNG, np.uint64),
        ev=column_buffer(event_capacity, EV_COLS),
        trace=np.zeros((max(trace_capacity, 1), C.TRACE_WIDTH), np.int64),
        tmp=np.zeros(64, np.int64),
        vals=np.zeros(C.V_SWAP + C.MAX_PLAYERS * C.N_ACTIONS * C.N_ACTIONS, np.float64),
        rnd=column_buffer(rounds_capacity or event_capacity, ROUND_COLS),
        gains=np.full((C.MAX_PLAYERS, C.N_GAINS), -1.0),  # a key no flavor count or judge matches
        hands=np.full((C.MAX_PLAYERS, C.N_HANDS), -np.inf),
    )


# ----------------------------------------------------------------------------- named access
# The names tests and replay read the state by (sim.core.view); the kernels keep the constants.

LAYOUT = Layout(
    records={
        "game": Part("g", {
            "n": C.G_N, "month": C.G_MONTH, "start": C.G_START, "decisions": C.G_DECISIONS, "events": C.G_EVENTS,
            "trace": C.G_TRACE, "overflow": C.G_OVERFLOW, "violation": C.G_VIOLATION, "phase": C.G_PHASE,
            "deck_n": C.G_DECK_N, "discards_n": C.G_DISC_N, "charlie_n": C.G_CHARLIE_N,
            "charlie_pos": C.G_CHARLIE_POS, "game": C.G_GAME, "trades": C.G_TRADES,
            "charlie_skips": C.G_CHARLIE_SKIPS, "lock": Group(C.G_LOCK0, C.RECIPES), "rounds": C.G_ROUNDS,
            "treated": C.G_TREATED}),
        "pile": Part("pile", {"deck": C.PILE_DECK, "discards": C.PILE_DISC, "row": C.PILE_ROW}),
        "board": Part("board", {
            "tracks": slice(0, C.N_RECIPES), "events": C.B_EVENTS, "judges": C.B_JUDGES,
            "charlie": C.B_CHARLIE, "faction": C.B_FACTION}),
    },
    tables={
        "seat": Part("pl", {
            "money": C.MONEY, "rep": C.REP, "covered": C.COVERED, "grain": Group(C.GRAIN0, C.RECIPES),
            "quality": Group(C.Q0, C.RECIPES), "faction": C.FACTION, "power_used": C.POWER_USED,
            "extra_used": C.EXTRA_USED, "stats": Group(C.ST_POWERS, C.PLAYER_STATS), "extra_die": C.EXTRA_DIE,
            "power_off": C.POWER_OFF,
        }, parts={
            "dice": Part("dice", {a: k for k, a in enumerate(C.ACTIONS)}),  # dice showing each action face
            "flavors": Part("fl"),  # flavor cards under each recipe, counted by kind
        }),
        "card": Part("card", {"loc": 0, "owner": 1, "recipe": 2}),  # one physical flavor card
    },
)


def view(state: State) -> StateView:
    """The state read and written by name (sim.core.view)."""
    return StateView(state, LAYOUT)
