"""Dwarfest integer enums and array layouts, usable inside numba kernels.

State lives in plain int64 arrays (see state.py). Their column indices are the constants
below; numba freezes module-level ints as compile-time constants.
"""

MAX_PLAYERS = 6
MIN_PLAYERS = 2

# --- per-player resources: columns of State.pl ---------------------------------------------
TILL = 0  # cashed Nuggets, spendable
EVENING = 1  # Nuggets earned this Evening, cashed at Cash-in
FAME = 2
BRAWL = 3
TABLES = 4
BARRELS = 5
DANCERS = 6
SIPS = 7  # ALCOHOLIC: sips left (UNLIMITED_SIPS when no budget is set)
DWARVES = 8  # dwarves accepted into the Tavern this Evening
N_DRAWN = 9  # Customer cards in front of the player (State.drawn[seat, :N_DRAWN])
BUY_TABLES = 10  # the hidden Restocking choice ...
BUY_BARRELS = 11
BUY_DANCERS = 12
N_PLAYS = 13  # ... and the cards committed (State.plays[seat, :N_PLAYS])
SEARCH_ROLLOUTS = 14  # rollouts this seat's search bot ran in the game (players.search_rollouts)
N_PL = 15

# --- per-player statistics: columns of State.st (logged to the players table) -------------
ST_BRAWLS = 0  # Brawls that broke out
ST_DESTROYED = 1  # Taverns totally destroyed
ST_SERVED_TABLE = 2
ST_SERVED_BAR = 3
ST_WASTED = 4
ST_UNSERVED = 5
ST_REFUSED = 6  # Customer cards refused
ST_CARDS_PLAYED = 7
ST_SIPS_USED = 8
ST_TABLES_LOST = 9
ST_BOUNCERS_USED = 10
N_ST = 11

# --- rows of State.piles: the decks and discard piles, their sizes in State.g ------------------
PILE_TDECK, PILE_TDISC, PILE_CDECK, PILE_CDISC, PILE_POOL = range(5)

# --- rows of State.seats: per-seat scratch -------------------------------------------------
ROW_ORDER, ROW_POLICY, ROW_BY_FAME, ROW_RANK = range(4)

# --- rows of State.picks: a bot's Table Service choice -------------------------------------
PICK_REFUSE, PICK_TAKE, PICK_KEPT = range(3)

# --- game-level counters: State.g -----------------------------------------------------------
G_N = 0  # players
G_EVENING = 1
G_DEALER = 2
G_TDECK = 3  # Tavern cards left in the deck
G_TDISC = 4  # Tavern cards in the discard pile
G_CDECK = 5
G_CDISC = 6
G_POOL = 7  # refused Customer cards lying on the table
G_DECISIONS = 8
G_EVENTS = 9  # rows written to the event buffer
G_TRACE = 10  # rows written to the trace buffer
G_OVERFLOW = 11  # set when a buffer would overflow
G_VIOLATION = 12  # invariant broken (invariants.VIOLATIONS code), with --check
G_PHASE = 13  # phase after which it was found (PHASES)
G_ROUNDS = 14  # rows written to the rounds buffer (kept across games, like G_EVENTS)
G_INJECTED = 15  # Tavern cards put into play from outside the deck (inject treatment: 0 or 1)
G_TREATED = 16  # the seat they went to (meaningful only when G_INJECTED > 0)
N_G = 17

PHASES = ("setup", "restocking", "opening", "opening events", "table service", "brawl events",
          "brawls", "cash-in")

# --- card categories and event kinds (data.py maps the TOML strings to these) -------------
CAT_CHARACTER = 0
CAT_OBJECT = 1
CAT_EVENT = 2
CATEGORIES = ("character", "object", "event")

EV_NONE = 0
EV_CANCEL = 1
EV_STEAL_DANCER = 2
EV_BRAWL_UP = 3
EV_BRAWL_DOWN = 4
EV_EXTRA_CUSTOMERS = 5
EV_SPOIL_BARRELS = 6
EV_FAME_UP = 7
EVENT_KINDS = (
    "none", "cancel", "steal_dancer", "brawl_up", "brawl_down",
    "extra_customers", "spoil_barrels", "fame_up",
)
# Events aimed at a rival (the others help the player who plays them).
HARMFUL_EVENTS = (EV_STEAL_DANCER, EV_BRAWL_UP, EV_SPOIL_BARRELS)

# Moments at which bots consider Event cards. Events may be played at any moment except
# Cash-in; these three are the moments where an Event's effect can differ.
WIN_RESTOCK = 0  # after the Restocking reveal, before the Opening draws
WIN_OPENING = 1  # after the Opening draws, before Table Service
WIN_BRAWL = 2  # after Table Service, before the Brawls

# --- event log (events table `kind`) -----------------------------------------------------
LOG_PLAY = 0  # a Tavern card was played (amount = Nuggets paid)
LOG_CANCELLED = 1  # an Event card was cancelled by another
LOG_SACRIFICE = 2  # a Bouncer was sacrificed in a Brawl
LOG_DISCARD = 3  # a card discarded from hand at Cash-in
LOG_LOST = 4  # a card in play lost to a destroyed Tavern
LOG_OFFER = 5  # a card dealt into an opening hand (amount 1: fixed by the shuffle alone); later draws are not logged
LOG_KINDS = ("play", "cancelled", "sacrifice", "discard", "lost", "offer")
OFFER_DEALT = 1  # amount of an offer: fixed by the shuffle alone (the other games' offers say the same)

# --- card fields: columns of Rules.card (one row per Tavern card type) ---------------------
CARD_FIELDS = ("cost", "cat", "stackable", "count", "income", "fame", "brawl", "seats", "bouncer",
               "harmful", "event", "amount")
(CF_COST, CF_CAT, CF_STACKABLE, CF_COUNT, CF_INCOME, CF_FAME, CF_BRAWL, CF_SEATS, CF_BOUNCER,
 CF_HARMFUL, CF_EVENT, CF_AMOUNT) = range(len(CARD_FIELDS))

# --- parameters: index into the float64 vector built from params.toml ---------------------
PARAM_NAMES = (
    "evenings", "starting_nuggets", "starting_tables", "starting_barrels", "start_fame",
    "start_brawl", "hand_size", "table_cost", "seats_per_table", "max_tables", "barrel_cost",
    "beers_per_barrel", "max_barrels", "dancer_cost", "dancer_fame", "max_dancers",
    "brawl_limit", "refuse_fame", "refuse_brawl", "wasted_brawl", "unserved_brawl",
    "bar_barrels_max", "bouncer_relief", "fame_max", "alcoholic", "sips_per_player",
    "brawl_sips_max", "everyone_drinks_on_waste", "restart_nuggets", "restart_tables",
    "restart_barrels", "sip_budget", "service_order", "nugget_supply",
)
(
    P_EVENINGS, P_START_NUGGETS, P_START_TABLES, P_START_BARRELS, P_START_FAME,
    P_START_BRAWL, P_HAND, P_TABLE_COST, P_SEATS, P_MAX_TABLES, P_BARREL_COST,
    P_BEERS, P_MAX_BARRELS, P_DANCER_COST, P_DANCER_FAME, P_MAX_DANCERS,
    P_BRAWL_LIMIT, P_REFUSE_FAME, P_REFUSE_BRAWL, P_WASTED_BRAWL, P_UNSERVED_BRAWL,
    P_BAR_BARRELS, P_BOUNCER, P_FAME_MAX, P_ALCOHOLIC, P_SIPS,
    P_BRAWL_SIPS, P_DRINK_ON_WASTE, P_RESTART_NUGGETS, P_RESTART_TABLES,
    P_RESTART_BARRELS, P_SIP_BUDGET, P_SERVICE_ORDER, P_NUGGET_SUPPLY,
) = range(len(PARAM_NAMES))

# service_order: who decides first in Table Service
SERVICE_FROM_DEALER = 0  # the Dealer, then clockwise
SERVICE_BY_FAME = 1  # the Opening's order: most Fame first

# The rulebook sets no sip limit (ALCOHOLIC); without a budget (sip_budget = 0) each player
# starts with this many, more than any five Evenings can use.
UNLIMITED_SIPS = 1_000_000

# --- policy weights: columns of the policy matrix built from policies.toml ----------------
# kind = search plays the heuristic branch of every decision (policies.py tests only for
# KIND_RANDOM) and improves its Restocking and Table Service choices by rollouts (search.py).
POLICY_KINDS = ("random", "heuristic", "search")
KIND_RANDOM = 0
KIND_HEURISTIC = 1
KIND_SEARCH = 2
WEIGHT_NAMES = (
    "bar_skill", "brawl_margin", "seat_cover", "dancer_min_evenings", "card_value_ratio",
    "event_reserve", "bouncer_excess", "bar_barrel", "brawl_risk",
    "budget", "candidates", "margin_weight",
)
(
    W_BAR_SKILL, W_BRAWL_MARGIN, W_SEAT_COVER, W_DANCER_MIN, W_CARD_RATIO,
    W_EVENT_RESERVE, W_BOUNCER_EXCESS, W_BAR_BARREL, W_BRAWL_RISK,
    W_BUDGET, W_CANDIDATES, W_MARGIN_WEIGHT,
) = range(len(WEIGHT_NAMES))

# --- search bot (search.py) ---------------------------------------------------------------------
MAX_CANDIDATES = 8  # most candidate moves one decision weighs
STAGE_REVEAL = 0  # a rollout resumes at the Restocking reveal (every hidden choice made)
STAGE_SERVICE = 1  # ... or inside Table Service, at the next seat of the service order

# --- buffers ------------------------------------------------------------------------------
MAX_DRAWN = 24  # Customer cards one player may hold in an Evening
MAX_PLAYS = 8  # cards one player may commit in one Restocking

# --- trace codes for `brewbalance replay` (see replay.py for their text) -------------------
TR_EVENING = 0
TR_BUY = 1
TR_PLAY = 2
TR_EVENT = 3
TR_CANCEL = 4
TR_DRAW = 5
TR_REFUSE = 6
TR_TAKE = 7
TR_SERVE = 8
TR_BRAWL = 9
TR_SACRIFICE = 10
TR_SIPS = 11
TR_LOSS = 12
TR_DESTROYED = 13
TR_CASHIN = 14
TR_END = 15
TR_LOST_NUGGETS = 16
TRACE_WIDTH = 8  # code, evening, seat, a, b, c, d, e
END_REASONS = ("evenings_complete",)
