"""Homebrewers integer enums and array layouts, usable inside numba kernels.

State lives in plain int64 arrays (see state.py); their column indices are the constants
below (numba freezes module-level ints as compile-time constants).
"""

MAX_PLAYERS = 5
V_SWAP = 64  # S.vals from here on: player_trades' swap gains of one round, per (seat, give, get)
MIN_PLAYERS = 2
CHARLIE = 5  # row of Charlie (2-player dummy) in the per-seat tables
N_ROWS = 6  # seats 0..4 plus Charlie
MONTHS = 8
SUMMERFEST = 3  # month index (June) with mid-game scoring
OCTOBERFEST = 7  # month index (October) with end scoring
MONTH_NAMES = ("March", "April", "May", "June", "July", "August", "September", "October")
N_RECIPES = 4
RECIPES = ("ale", "porter", "stout", "ipa")  # garage order; IPA wraps round to Ale
N_KINDS = 3
FLAVOR_KINDS = ("dessert", "fruity", "savory")
MAX_Q = 12  # the gold-medal (lock) space
DECK = 54  # flavor cards
SPARE = DECK  # physical card slot of the card a treatment injects from outside the deck
CARD_SLOTS = DECK + 1  # physical cards the state tracks: the deck's 54 and the spare
ROW = 4  # face-up flavor cards
MAX_SLOTS = 6  # sanitization spots a garage may have (data bound)
N_EVENT_TILES = 8
N_TRACK_TILES = 12
N_JUDGE_TILES = 11
N_CHARLIE = 10
CHARLIE_DECK = 5

# --- die faces / actions ----------------------------------------------------------------------
SANITIZE, EVENT, GRAIN, FLAVOR, BREW = range(5)
N_ACTIONS = 5
ACTIONS = ("sanitize", "event", "grain", "flavor", "brew")

# --- effects: the closed keyword list used by events, track benefits and flavor bottoms ------
(E_NONE, E_MONEY, E_REP, E_GRAIN, E_SANITIZE, E_DRAW, E_QUALITY_LOWEST, E_BREW, E_SAN_GRAIN,
 E_COPY) = range(10)
EFFECTS = ("none", "money", "reputation", "grain", "sanitize", "draw_flavor", "quality_lowest", "brew",
           "sanitize_and_grain", "copy")
BASIC_EFFECTS = 6  # effects below this index are "basic" (allowed on quality-track spaces)
# flavor-card top benefits
T_MONEY, T_REP, T_QUALITY, T_ADJACENT, T_NONE = range(5)
TOPS = ("money", "reputation", "quality", "adjacent")  # T_NONE: only the neutral card
# The neutral card (issue 14's `remove` treatment puts it where the removed card was): a blank
# flavor card with no flavor kind (judges never count it), no top and no bottom benefit. Its row
# in Rules.cards follows the data's card types, so its card code is the number of types.
NO_KIND = N_KINDS  # the neutral card's flavor kind: none (S.fl has no column for it)
NEUTRAL_ID = "neutral"

# --- characters (faction codes: 0..6; STANDARD = 7 = no power, standard garage) -------------
CHARACTERS = ("ananya", "andrew", "colt", "evie", "gabriel", "katherine", "tony")
N_CHARACTERS = 7
STANDARD = 7
FACTIONS = CHARACTERS + ("standard",)
ANANYA, ANDREW, COLT, EVIE, GABRIEL, KATHERINE, TONY = range(7)

# --- columns of Rules.cards (one row per flavor card type) -----------------------------------
CF_KIND, CF_TOP, CF_BOTTOM, CF_COUNT = range(4)
# --- columns of Rules.events (one row per event tile; rows 8, 9 = Summerfest, Octoberfest) ----
EV_TOP, EV_TOP_N, EV_BOT, EV_BOT_N, EV_BOT2, EV_BOT2_N = range(6)
SUMMER_EVENT, OCTOBER_EVENT = 8, 9
# --- Rules.judges columns; judge kinds -------------------------------------------------------
JF_KIND, JF_FLAVOR, JF_MIN, JF_REP, JF_RECIPES = range(5)
(J_LOWEST, J_TOTAL, J_RECIPE_ALL_KINDS, J_EACH_KIND, J_RECIPE_KIND, J_TOTAL_KIND, J_RECIPE_TOTAL,
 J_SPREAD) = range(8)
JUDGE_KINDS = ("lowest_quality", "total_flavors", "recipe_all_kinds", "each_kind_total", "recipe_kind",
               "total_kind", "recipe_total", "recipes_with")
# --- Rules.chars: one row per faction (7 characters + standard): n slots, then slot levels ---
CH_SLOTS = 0
CH_LEVEL = 1  # CH_LEVEL .. CH_LEVEL + MAX_SLOTS - 1
# --- Rules.medals[group, fest, place]: group 0 = 2-3 players, 1 = 4, 2 = 5; fest 0 summer, 1 oct
N_PLACES = 4

# --- params (Rules.p) ------------------------------------------------------------------------
PARAM_NAMES = ("start_money", "start_trub", "start_flavor_cards", "start_grain", "change_cost", "forgo_money",
               "extra_action_cost", "power_cost", "event_bottom_cost", "refresh_cost", "lowest_judge_rep",
               "max_trades", "charlie_max_turns", "standard_tile", "use_characters",
               "face_sanitize", "face_event", "face_grain", "face_flavor", "face_brew")
(P_START_MONEY, P_START_TRUB, P_START_FLAVOR, P_START_GRAIN, P_CHANGE, P_FORGO, P_EXTRA, P_POWER,
 P_EVENT_BOTTOM, P_REFRESH, P_LOWEST_REP, P_MAX_TRADES, P_CHARLIE_TURNS, P_STANDARD_TILE,
 P_USE_CHARACTERS, P_FACE0) = range(16)
N_PARAMS = len(PARAM_NAMES)

# --- per-player values: columns of State.pl --------------------------------------------------
MONEY = 0
REP = 1
COVERED = 2  # sanitization spots covered by trub (always the leftmost ones)
GRAIN0 = 3  # GRAIN0..GRAIN0+3 grain tokens on each recipe
Q0 = 7  # Q0..Q0+3 quality level of each recipe
FACTION = 11
POWER_USED = 12  # this month
EXTRA_USED = 13  # this month
ST_POWERS = 14
ST_EXTRAS = 15
ST_TRADES = 16
ST_DRAWN = 17
ST_TOP = 18
ST_BOTTOM = 19
ST_BREWS = 20
ST_CHANGES = 21
ST_FORGONE = 22
SUMMER_REP = 23
MEDAL_REP = 24  # Octoberfest medals
JUDGE_REP = 25
GOLD = 26  # Octoberfest medal counts (ties count)
SILVER = 27
BRONZE = 28
HONORABLE = 29
OCT_Q0 = 30  # OCT_Q0..+3 quality at Octoberfest
EXTRA_DIE = 34  # Ananya's extra die this month: its face, or -1
POWER_OFF = 35  # 1 when a power_off treatment switched this seat's character power off
SEARCH_ROLLOUTS = 36  # rollouts this seat's search bot ran in the game (players.search_rollouts)
N_PL = 37
STEP_DONE, STEP_USE, STEP_CHANGE, STEP_FORGO, STEP_POWER, STEP_EXTRA, STEP_EXTRA_DIE = range(7)
# A step is choice * STEP_CHOICE + kind * 64 + a * 8 + b (kernel.resolve_step): STEP_EXTRA_DIE
# carries b = 1 to use Ananya's extra die, b = 0 to let it go; STEP_USE and STEP_EXTRA may carry
# the bot's choice + 1 (policies.need_of_use: Brew's recipe, Flavor's move), 0 to choose when acting
STEP_CHOICE = 512
PLAYER_STATS = ("powers_used", "extra_actions", "trades", "flavor_drawn", "flavor_top", "flavor_bottom", "brews",
                "dice_changed", "dice_forgone", "summerfest_rep", "medal_rep", "judge_rep", "gold", "silver",
                "bronze", "honorable", "q_ale", "q_porter", "q_stout", "q_ipa")

# --- game counters: State.g ------------------------------------------------------------------
G_N, G_MONTH, G_START, G_DECISIONS, G_EVENTS, G_TRACE, G_OVERFLOW, G_VIOLATION, G_PHASE, G_DECK_N, \
    G_DISC_N, G_CHARLIE_N, G_CHARLIE_POS, G_GAME, G_TRADES, G_CHARLIE_SKIPS = range(16)
G_LOCK0 = 16
# G_LOCK0..+3: seat (or CHARLIE) holding level 12 of each recipe, -1 if none
G_ROUNDS = 24  # rows written to the rounds buffer (kept across games, like G_EVENTS)
G_TREATED = 25  # seat given the injected card (issue 14 treatments), -1 when none
N_G = 26
PHASES = ("setup", "trade", "action", "summerfest", "octoberfest")
PH_SETUP, PH_TRADE, PH_ACTION, PH_SUMMER, PH_OCTOBER = range(5)

# --- flavor card locations: State.card[:, 0..2] = location, owner, recipe -----------------------
LOC_DECK, LOC_ROW, LOC_DISCARD, LOC_HAND, LOC_RECIPE, LOC_OUT = range(6)

# --- piles: State.pile rows --------------------------------------------------------------------
PILE_DECK, PILE_DISC, PILE_ROW = range(3)

# --- boards: State.board rows --------------------------------------------------------------------
# board[0:4, 0:13] = track benefit per recipe and level (effect * 8 + amount)
# board[4, 0:MONTHS] = event tile of each month (SUMMER_EVENT / OCTOBER_EVENT on fest months)
# board[5, 0:5] = judges in play (index into Rules.judges; 0 = the pre-printed lowest judge)
# board[6, 0:5] = Charlie's deck (Rules.charlie rows), board[7, 0:MAX_PLAYERS] = faction of each seat
B_EVENTS, B_JUDGES, B_CHARLIE, B_FACTION = 4, 5, 6, 7
N_JUDGES_IN_PLAY = 5

# --- State.gains: per seat, what one more flavor of each kind under each recipe adds to its
# judges (policies.judge_gains), kept with the flavor counts and judges it was worked out from
GAIN_KEY = N_RECIPES * N_KINDS + N_JUDGES_IN_PLAY  # columns 0..11 the counts (recipe * 3 + kind), then the judges
N_GAINS = GAIN_KEY + 2 * N_RECIPES * N_KINDS  # then per (recipe, kind): judge reputation, judge potential
# State.hands: per seat, the worth of each hand of three dice (faces x <= y <= z at 25x + 5y + z)
# to its plan in this trade phase (policies.dice_value), -inf until worked out
N_HANDS = N_ACTIONS ** 3

# --- policies ---------------------------------------------------------------------------------
# kind = search: the heuristic's choices everywhere except the steps of its action turns, which
# sim/homebrewers/search.py picks by Monte-Carlo rollouts (its weights also drive the rollouts)
POLICY_KINDS = ("random", "heuristic", "search")
KIND_RANDOM, KIND_HEURISTIC, KIND_SEARCH = range(3)
WEIGHT_NAMES = ("quality", "medal", "reputation", "money", "grain", "sanitize", "card", "judge", "top",
                "lowest", "progress", "trade_margin", "focus", "budget", "candidates", "horizon", "margin")
(W_QUALITY, W_MEDAL, W_REP, W_MONEY, W_GRAIN, W_SANITIZE, W_CARD, W_JUDGE, W_TOP, W_LOWEST, W_PROGRESS,
 W_TRADE_MARGIN, W_FOCUS, W_BUDGET, W_CANDIDATES, W_HORIZON, W_MARGIN) = range(17)
MAX_CANDIDATES = 16  # bound on the steps one search decision compares (buffer size)

# --- event log kinds --------------------------------------------------------------------------
LOG_KINDS = ("draw", "play_top", "play_bottom", "power", "trade", "extra_action", "brew", "medal", "judge",
             "offer")
LOG_DRAW, LOG_TOP, LOG_BOTTOM, LOG_POWER, LOG_TRADE, LOG_EXTRA, LOG_BREW, LOG_MEDAL, LOG_JUDGE, LOG_OFFER = range(10)
# offer rows' target: where the deal showed the card (0..3 a slot of the opening face-up row,
# OFFER_DECK dealt into the opening hand)
OFFER_DECK = 4

# event-log card codes after the flavor card types and the neutral card (offset = their number):
# characters 0..6 (powers), brews 7..10 (per recipe), then extra action, trade, medal, judge
SPECIAL_BREW, SPECIAL_EXTRA, SPECIAL_TRADE, SPECIAL_MEDAL, SPECIAL_JUDGE = 7, 11, 12, 13, 14
SPECIAL_CARDS = CHARACTERS + ("brew_ale", "brew_porter", "brew_stout", "brew_ipa", "extra_action", "trade", "medal",
                              "judge")

# --- replay trace codes -----------------------------------------------------------------------
TRACE_WIDTH = 8  # code, month, seat, a, b, c, d, e
(TR_SETUP, TR_MONTH, TR_ROLL, TR_TRADE, TR_REROLL, TR_CHARLIE, TR_DIE, TR_CHANGE, TR_FORGO, TR_SANITIZE,
 TR_GRAIN, TR_DRAW, TR_PLAY_TOP, TR_PLAY_BOTTOM, TR_EVENT, TR_BREW, TR_POWER, TR_EXTRA, TR_MEDAL, TR_JUDGE,
 TR_SCORE, TR_REFRESH, TR_GAIN, TR_INJECT) = range(24)

END_REASONS = ("octoberfest",)
