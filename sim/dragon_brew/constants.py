"""Dragon Brew enums and layout (see the rules/ package for the rules in prose)."""

MIN_PLAYERS, MAX_PLAYERS = 2, 4

# Ingredients: grains (cubes), worts (disks), magic (hexagons) and the wild mana weed.
INGS = ("wheat", "rye", "barley", "green_wort", "orange_wort", "purple_wort",
        "toadstool", "dragon_scale", "pixie_wing", "mana_weed")
WHEAT, RYE, BARLEY, GREEN, ORANGE, PURPLE, TOAD, DRAGON, PIXIE, MANA = range(10)
N_INGS = 10
GRAINS = (WHEAT, RYE, BARLEY)
WORTS = (GREEN, ORANGE, PURPLE)
MAGIC = (TOAD, DRAGON, PIXIE)
ING_INDEX = {n: i for i, n in enumerate(INGS)}
# Ingredient classes a cost may name: one ingredient, or any of a class.
CLASSES = {"grain": GRAINS, "wort": WORTS, "magic": MAGIC, "any": GRAINS + WORTS + MAGIC}
# Mash House: two grains make one wort (estimated pairs; the example shows red+yellow -> orange,
# blue+yellow -> green).
WORT_OF = {GREEN: (WHEAT, RYE), ORANGE: (WHEAT, BARLEY), PURPLE: (RYE, BARLEY)}

CHARS = ("color", "strength", "bitterness")
BRIBE = 3  # secondary characteristic "bribe" of corrupt judges
DIRS = ("high", "low")

# Common estate cards (every race) and their kinds.
COMMON = ("study", "brewery", "grain_fields", "magic_trader", "mash_house", "winter_stores")
ABILITY_USES = ("action_once", "action_infinite", "free", "spell", "upgrade", "judge", "trigger")
ABILITIES = ("horse_guests", "shadow_judge", "dark_sacrifice", "gold_mine", "arcane_library",
             "mash_stomper", "black_market", "fertile_fields", "farmers_market", "sea_port",
             "mana_spell", "ogre_ruled", "borrower", "drain_gnome", "spell_book", "spinning_wheel",
             "gnome_guild", "pot_o_gold", "sacred_grove")
BREWERY_KINDS = ("action", "upgrade", "housing", "free", "spell")
BREWERY_EFFECTS = ("book_max", "gnome_housing", "chaos", "gain", "grain_wheat", "grain_rye",
                   "grain_barley", "grain_any", "intelligence", "beers", "stores", "servant",
                   "trader_mult", "study_draw", "raise_gnome", "mash_mult", "tavern", "transmutation")
UPGRADE_TARGETS = ("study", "brewery", "grain_fields", "magic_trader", "mash_house", "winter_stores")
EVENT_KINDS = ("traders", "beer_festival", "migrant_gnomes", "quest", "recipe_scroll")
GAIN_KINDS = ("", "each_grain", "grain", "wort", "magic")

# Event-row kinds (events table).
LOG_KINDS = ("draft_brewery", "draft_event", "ability", "judge_won", "judge_split", "bribe",
             "beer", "clear_draft", "research", "sacrifice_card", "offer")
END_REASONS = ("year_limit",)
PHASES = ("setup", "spring", "fall", "winter", "end")

# Players-table columns beyond the common ones.
PLAYER_STATS = ("ribbons", "gold", "beers_brewed", "judges_won", "ability_uses", "cards_drafted",
                "estate_size", "vp_judges", "vp_profit", "vp_quests", "outside_recommended")

# ----------------------------------------------------------------------------- numba layout
# (state.py documents the arrays; every name below is an index into one of them)

MAX_CARDS = 40  # estate cards of one player (6 common + ability + drafted)
MAX_UP = 12  # upgrade cards under one estate card
MAX_BOOK = 102  # recipe cards in one book: every recipe of the game (30 barrel + 72 spice)
MAX_BEERS = 12  # beers brewed by one player in one year
MAX_QUESTS = 24  # brewer quests held by one player (one brewer each: 7 own + 10 gnomes at most)
MAX_MOVES = 512  # legal moves of one decision
MOVE_W = 5  # move row: kind, a, b, c, d
PILE_W = 128  # widest pile (recipes 102, brewery/event 68, judges 42)
MAX_ROW = 8  # widest face-up row (draft rows, recipe offering, judges, shadow judges)
MAX_CANDS = 8448  # planner beers from one book: 16 barrels x (32 + 496) spice choices

# Card kinds (estate card `kind`) and card keys: common cards 0..5 (COMMON order), race ability
# cards KEY_ABILITY + ability index, Brewery cards KEY_BREWERY + card type.
K_ACTION, K_UPGRADE, K_HOUSING, K_FREE, K_SPELL, K_PASSIVE, K_STORES = range(7)
KIND_CODE = {"action": K_ACTION, "upgrade": K_UPGRADE, "housing": K_HOUSING, "free": K_FREE, "spell": K_SPELL}
STUDY, BREWERY, GRAIN_FIELDS, MAGIC_TRADER, MASH_HOUSE, WINTER_STORES = range(6)
KEY_ABILITY = 6
KEY_BREWERY = KEY_ABILITY + len(ABILITIES)
(AB_HORSE_GUESTS, AB_SHADOW_JUDGE, AB_DARK_SACRIFICE, AB_GOLD_MINE, AB_ARCANE_LIBRARY, AB_MASH_STOMPER,
 AB_BLACK_MARKET, AB_FERTILE_FIELDS, AB_FARMERS_MARKET, AB_SEA_PORT, AB_MANA_SPELL, AB_OGRE_RULED, AB_BORROWER,
 AB_DRAIN_GNOME, AB_SPELL_BOOK, AB_SPINNING_WHEEL, AB_GNOME_GUILD, AB_POT_O_GOLD, AB_SACRED_GROVE) = range(19)
USE_ACTION_ONCE, USE_ACTION_INFINITE, USE_FREE, USE_SPELL, USE_UPGRADE, USE_JUDGE, USE_TRIGGER = range(7)
(E_BOOK_MAX, E_GNOME_HOUSING, E_CHAOS, E_GAIN, E_GRAIN_WHEAT, E_GRAIN_RYE, E_GRAIN_BARLEY, E_GRAIN_ANY,
 E_INTELLIGENCE, E_BEERS, E_STORES, E_SERVANT, E_TRADER_MULT, E_STUDY_DRAW, E_RAISE_GNOME, E_MASH_MULT,
 E_TAVERN, E_TRANSMUTATION) = range(18)
EV_TRADERS, EV_FESTIVAL, EV_MIGRANT, EV_QUEST, EV_SCROLL = range(5)
GK_NONE, GK_EACH_GRAIN, GK_GRAIN, GK_WORT, GK_MAGIC = range(5)
# Ingredient classes as codes 10..13 next to single ingredients 0..9 (costs and payments).
CL_GRAIN, CL_WORT, CL_MAGIC, CL_ANY = 10, 11, 12, 13
CLASS_CODE = {"grain": CL_GRAIN, "wort": CL_WORT, "magic": CL_MAGIC, "any": CL_ANY}

# Moves (row of the move buffer: kind, a, b, c, d), see rules/moves.py.
(M_END, M_CLEAR, M_DRAFT, M_BREWER, M_PASS, M_GUEST, M_SACRIFICE, M_OGRE, M_SPELLBOOK, M_SPELL, M_SERVANT,
 M_FREE, M_BRIBE, M_HOUSE) = range(14)
MOVE_NAMES = ("end", "clear_draft", "draft", "brewer", "pass", "guest", "sacrifice", "ogre", "spellbook", "spell",
              "servant", "free", "bribe", "house")
BREWER_MOVES = (M_BREWER, M_PASS, M_GUEST, M_SACRIFICE, M_OGRE, M_SPELLBOOK)

# Game counters g[G_*].
(G_N, G_YEAR, G_PHASE, G_DECISIONS, G_JUDGED, G_TURNS, G_STAMP, G_BOX_BREWERY, G_GNOME_SUPPLY, G_CORRUPT,
 G_GAME, G_EV, G_ROUNDS, G_VIOLATION, G_OVERFLOW, G_TRACE, G_N_JUDGES, G_N_SHADOW, G_GNOMES_RAN_OUT,
 G_TREATED_SEAT) = range(20)
G_FLAGS = 20  # the turn flags of the player on turn (F_*), 4 entries
G_ORDER = G_FLAGS + 4  # turn order (seats), MAX_PLAYERS entries
G_N_PILE = G_ORDER + MAX_PLAYERS  # how many cards each pile holds, N_PILES entries
# Piles piles[PILE_*, :] with their sizes n_pile[PILE_*]; the top of a deck is its last slot.
(PILE_BDECK, PILE_BDISC, PILE_EDECK, PILE_EDISC, PILE_RDECK_BARREL, PILE_RDECK_SPICE, PILE_RDISC_BARREL,
 PILE_RDISC_SPICE, PILE_JDECK, PILE_JBOX) = range(10)
N_PILES = 10
N_G = G_N_PILE + N_PILES
# Face-up rows piles[ROW_*, slot] after the piles (-1 = empty slot).
(ROW_BREWERY, ROW_EVENT, ROW_OFFER_BARREL, ROW_OFFER_SPICE, ROW_JUDGES, ROW_SHADOW, ROW_BRIBE_SEAT,
 ROW_BRIBE_GOLD, ROW_OGRE) = range(N_PILES, N_PILES + 9)
N_ROWS = 9
# Per-seat fields pl[seat, PL_*]; the players-table statistics follow at PL_STATS + k (PLAYER_STATS).
(PL_RACE, PL_ABILITY, PL_POLICY, PL_GOLD, PL_VP, PL_RIBBONS, PL_STAMP, PL_OWN_TOTAL, PL_OWN_AVAIL,
 PL_GNOME_AVAIL, PL_HOUSING, PL_OWN_OUT, PL_GNOMES_OUT, PL_SACRIFICED, PL_BRIBE_SLOT, PL_BRIBE_GOLD,
 PL_N_CARDS, PL_N_BOOK, PL_N_QUESTS, PL_N_BEERS, PL_RANK) = range(21)
PL_STATS = 21
(ST_RIBBONS, ST_GOLD, ST_BEERS_BREWED, ST_JUDGES_WON, ST_ABILITY_USES, ST_CARDS_DRAFTED, ST_ESTATE_SIZE,
 ST_VP_JUDGES, ST_VP_PROFIT, ST_VP_QUESTS, ST_OUTSIDE_RECOMMENDED) = range(11)
PL_INV = PL_STATS + len(PLAYER_STATS)  # ingredients (INGS order)
PL_BOOK = PL_INV + N_INGS  # recipe book (recipe indices), PL_N_BOOK long
PL_QUESTS = PL_BOOK + MAX_BOOK  # brewer quests held until winter (event types)
N_PL = PL_QUESTS + MAX_QUESTS
# Estate card fields est[seat, ci, CF_*]; its upgrades (brewery card types) at CF_UP .. CF_UP + CF_N_UP - 1.
CF_KEY, CF_BC, CF_KIND, CF_INFINITE, CF_LOCKED, CF_OWN, CF_GNOME, CF_SPELL_USED, CF_N_UP, CF_UP = range(10)
N_CF = CF_UP + MAX_UP
# Beer fields beers[seat, k, BF_*] (spices at BF_SPICE .. BF_SPICE + max_spices - 1, -1 padded).
BF_BARREL, BF_N_SPICES, BF_C0, BF_C1, BF_C2, BF_VP, BF_GOLD, BF_WON, BF_SPICE = range(9)
N_BF = BF_SPICE + 4
# Turn flags of the player on turn: g[G_FLAGS + F_*].
F_BREWER, F_CLEARED, F_DRAFTED, F_FREE = range(4)
