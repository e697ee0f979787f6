"""Brewin' USA integer enums and array layouts, usable inside numba kernels.

State lives in plain int64 arrays (see state.py); their column indices are the constants
below (numba freezes module-level ints as compile-time constants).
"""

MAX_PLAYERS = 5
MIN_PLAYERS = 2
N_CITIES = 12
N_REGIONS = 4
MAX_Q = 9  # highest ingredient quality the data may use
MAX_BATCH = 6  # hard array bound; the rule's limit is the parameter batch_max
MAX_COMMIT = 4  # hard array bound; the rule's limit is the parameter brewfest_cards
MAX_BEER_HAND = 8  # hard array bound; the rule's limit is the parameter beer_hand
INGREDIENT_DECK = 116
BEER_DECK = 36
INJECT_SLOT = BEER_DECK  # the physical beer slot of a treatment's injected copy (outside the deck)
BEER_SLOTS = BEER_DECK + 1

# --- ingredient kinds (data strings -> codes). Core kinds first, in recipe-slot order ------
GRAIN, WATER, HOPS, YEAST, ORGANIC, BERRY, CITRUS, PUMPKIN, COFFEE = range(9)
KINDS = ("grain", "water", "hops", "yeast", "organic", "berry", "citrus", "pumpkin", "coffee")
N_KINDS = 9
ADJ_NONE = -1  # a beer without a required adjunct / a launch without an adjunct

# --- beer styles and regions ------------------------------------------------------------------
STYLES = ("pilsner_lager", "pale_ale", "ipa", "stout_porter", "wheat", "sour")
REGIONS = ("pacific", "mountain", "central", "atlantic")

# --- columns of Rules.ing (one row per ingredient card type) --------------------------------
IF_KIND, IF_Q, IF_COUNT = range(3)
# --- columns of Rules.beer (one row per beer card type) --------------------------------------
BF_STYLE, BF_QUALITY, BF_REQ, BF_ADJ, BF_COUNT = 0, 1, 2, 6, 7  # BF_REQ..BF_REQ+3: grain..yeast
N_BF = 8
# --- columns of Rules.city (one row per city tile) ---------------------------------------------
CF_REGION, CF_PREF = range(2)

# --- per-player values: columns of State.pl ------------------------------------------------------
BANK = 0  # uncolored caps in the bank
COLORED = 1  # colored caps not yet on a beer
LAUNCHED = 2  # distinct beer cards launched so far (relaunches not counted)
HAS_BATCH = 3  # bought a batch this round
PASSED = 4  # passed on the batch up for bid
VP_CITIES = 5
VP_REGIONS = 6
VP_BEERS = 7
VP_BANK = 8
SCORE = 9
ST_FESTS_WON = 10
ST_FESTS_LOST = 11
ST_CAPS_SPENT = 12  # auction bids, bought qualities and relaunches
ST_CHALLENGES = 13
ST_CLAIMS = 14
ST_RELAUNCHES = 15
ST_INCOME = 16
ST_ADJUNCTS = 17  # adjunct actions performed
ST_QUALITY_BOUGHT = 18
ST_BATCH_CARDS = 19  # ingredient cards won in auctions
ST_CITIES = 20  # cities controlled at the end
ST_ROLLOUTS = 21  # rollouts a search seat ran this game (kernel.search_launch)
N_PL = 22
# players-table columns for the statistics above, from VP_CITIES on
PLAYER_STATS = ("vp_cities", "vp_regions", "vp_beers", "vp_bank", "score_check", "brewfests_won",
                "brewfests_lost", "caps_spent", "challenges", "claims", "relaunches", "income",
                "adjunct_actions", "qualities_bought", "batch_cards", "cities_controlled")

# --- beers: columns of State.beer (one row per physical beer card) ------------------------------
# B_CITY: city held or challenged; B_SEQ: challenge order; B_TYPE: its beer type this game (a
# removed card's copies are the neutral card, rules.neutral_type)
B_LOC, B_OWNER, B_CITY, B_SEQ, B_TYPE = range(5)
N_B = 5
# LOC_OUT: not in this game (the inject slot of an untreated game)
LOC_DECK, LOC_DISC, LOC_HAND, LOC_CITY, LOC_SKUNKED, LOC_FEST, LOC_OUT = range(7)

# --- cities: columns of State.city ------------------------------------------------------------------
CT_ACTIVE, CT_DEMAND, CT_BEER, CT_FEST = range(4)  # CT_BEER: physical beer controlling it or -1

# --- batches: columns of State.batch (one row per batch of this round) ---------------------------
BT_N = MAX_BATCH  # cards in the batch (columns 0..BT_N-1 hold ingredient types)
BT_HIDDEN = MAX_BATCH + 1  # index of the face-down card or -1
BT_OWNER = MAX_BATCH + 2  # seat that bought it or -1
BT_PRICE = MAX_BATCH + 3
N_BT = MAX_BATCH + 4

# --- brewfest scratch: columns of State.fest (one row per seat) ----------------------------------
F_IN, F_BEER, F_NC, F_SCORE = 0, 1, 2, 3
F_C = 4  # F_C .. F_C+MAX_COMMIT-1: committed ingredient types, -1 once discarded
N_F = F_C + MAX_COMMIT

# --- piles: rows of State.piles, sizes in State.g --------------------------------------------------
PILE_IDECK, PILE_IDISC, PILE_BDECK, PILE_BDISC = range(4)

# --- rows of State.seats ---------------------------------------------------------------------------
ROW_ORDER, ROW_POLICY, ROW_RANK, ROW_TMP = range(4)

# --- rows of State.scratch (width SCRATCH) ---------------------------------------------------------
SC_USE, SC_PROFILE, SC_TMP = range(3)  # SC_USE: a launch's fit; SC_PROFILE: rules.hand_profile
SC_SEAT = 3  # SC_SEAT + seat: the seat's hand as its auction valuations read it (policies.held_value)
SCRATCH_ROWS = SC_SEAT + MAX_PLAYERS
SCRATCH = 64

# --- game counters: State.g -------------------------------------------------------------------------
G_N = 0
G_ROUND = 1
G_DEALER = 2
G_IDECK = 3
G_IDISC = 4
G_BDECK = 5
G_BDISC = 6
G_BAG = 7  # uncolored caps in the bag
G_DECISIONS = 8
G_EVENTS = 9
G_TRACE = 10
G_OVERFLOW = 11
G_VIOLATION = 12
G_PHASE = 13
G_LAST_ROUND = 14  # the round after which the game ends (-1 until triggered)
G_END_REASON = 15
G_SEQ = 16  # challenge counter
G_BUY_SLOT = 17  # scratch: slot whose quality the last match bought (-1 none)
G_FESTS = 18  # brewfests resolved
G_TOTAL_CAPS = 19  # uncolored caps in the game (conservation)
G_POT = 20  # caps paid into this round's auction
G_ROUNDS = 21  # rows written to the rounds buffer (kept across games, like G_EVENTS)
G_TREATED = 22  # seat given the injected beer card, -1 when the run injects nothing
G_ROLLOUT = 23  # 1 in a search bot's scratch copy of a game (no logging, no nested search)
G_TURN = 24  # resume point of the launch phase: the turn, counted from the left of the dealer (-1: the round is still to start)
G_TURN_LAUNCH = 25  # launches already made in that turn
N_G = 26

PHASES = ("setup", "auction", "launch", "brewfests", "income")
END_REASONS = ("third_beer", "round_limit")
END_THIRD, END_LIMIT = 0, 1

# --- event log (events table `kind`) ----------------------------------------------------------------
LOG_PLAY = 0  # a beer card launched (card = beer, amount = caps paid, target = city)
LOG_BUY = 1  # an ingredient batch bought (card = batch, amount = price, target = cards)
LOG_RELAUNCH = 2  # a skunked beer relaunched (amount = caps paid)
LOG_FEST_WIN = 3  # brewfest won with this beer (target = city)
LOG_SKUNKED = 4  # beer skunked in a brewfest (target = city)
LOG_ADJUNCT = 5  # an adjunct used in a launch, its action taken (card = adjunct_<kind>, target = city)
# a card the shuffle alone showed a seat, before any decision (docs/games/brewin_usa.md, Treatments
# and offers): a beer card of the opening deal (target -1) or a face-up adjunct in a batch of the
# first round (target = batch); amount 1. Later draws and batches depend on play: not logged
LOG_OFFER = 6
LOG_KINDS = ("play", "buy", "relaunch", "brewfest_win", "skunked", "adjunct", "offer")

# --- parameters: index into the float64 vector built from params.toml -------------------------------
PARAM_NAMES = (
    "start_caps", "colored_caps", "total_uncolored", "beer_hand", "start_organic",
    "start_organic_quality", "redraw_max", "small_game_max_players", "cities_removed_small",
    "batch_max", "min_opening_bid", "launches_per_round", "quality_cost", "relaunch_cost",
    "beers_drawn", "brewfest_cards", "end_beers", "extra_rounds", "income_per_city",
    "style_multiplier", "coffee_caps", "pumpkin_cards", "max_rounds", "quality_purchase",
)
(
    P_START_CAPS, P_COLORED, P_TOTAL_CAPS, P_BEER_HAND, P_START_ORGANIC,
    P_START_ORGANIC_Q, P_REDRAW_MAX, P_SMALL_MAX, P_CITIES_REMOVED,
    P_BATCH_MAX, P_MIN_OPEN, P_LAUNCHES, P_QUALITY_COST, P_RELAUNCH_COST,
    P_BEERS_DRAWN, P_FEST_CARDS, P_END_BEERS, P_EXTRA_ROUNDS, P_INCOME,
    P_STYLE_MULT, P_COFFEE, P_PUMPKIN, P_MAX_ROUNDS, P_QUALITY_PURCHASE,
) = range(len(PARAM_NAMES))
# readings of the 3-cap purchase (params.toml quality_purchase): one quality point on a card one
# short; a held card of the slot raised to the printed quality; a whole core ingredient bought
BUY_POINT, BUY_RAISE, BUY_INGREDIENT = range(3)

# --- policy weights: columns of the policy matrix built from policies.toml ---------------------------
POLICY_KINDS = ("random", "heuristic", "search")
KIND_RANDOM, KIND_HEURISTIC, KIND_SEARCH = 0, 1, 2
WEIGHT_NAMES = (
    "bid_share", "bank_reserve", "card_value", "fest_card_value", "challenge_bonus",
    "win_margin", "relaunch_min_gain", "leave_on_match", "adjunct_keep", "redraw_req_sum",
    "region_value", "income_rounds", "demand_spread", "budget", "candidates", "score_margin",
)
(
    W_BID_SHARE, W_RESERVE, W_CARD, W_FEST_CARD, W_CHALLENGE, W_MARGIN, W_RELAUNCH,
    W_LEAVE, W_ADJ_KEEP, W_REDRAW, W_REGION, W_INCOME, W_SPREAD, W_BUDGET, W_CANDIDATES, W_SCORE_MARGIN,
) = range(len(WEIGHT_NAMES))
MAX_CANDIDATES = 16  # most launch options a search weighs (rows of the search's candidate table)

# --- what play_on returns (kernel.py) ----------------------------------------------------------------
OUT_DONE, OUT_SEARCH, OUT_ABORTED = range(3)

# --- trace codes for `brewbalance replay` ------------------------------------------------------------
TR_ROUND, TR_BATCH, TR_BUY, TR_DEMAND, TR_LAUNCH, TR_RELAUNCH, TR_ADJUNCT, TR_FEST, TR_FEST_SCORE, \
    TR_FEST_END, TR_INCOME, TR_TRIGGER, TR_SCORE, TR_SETUP, TR_PILE = range(15)
TRACE_WIDTH = 8  # code, round, seat, a, b, c, d, e
