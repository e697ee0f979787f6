"""Dragon Brew enums and layout (see rules.py for the rules in prose)."""

MIN_PLAYERS, MAX_PLAYERS = 2, 4
STREAM_FACTIONS = 101  # race draw and seat order: own stream, so decks and bots are undisturbed

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
             "beer", "clear_draft", "research", "sacrifice_card")
END_REASONS = ("year_limit",)
PHASES = ("setup", "spring", "fall", "winter", "end")

# Players-table columns beyond the common ones.
PLAYER_STATS = ("ribbons", "gold", "beers_brewed", "judges_won", "ability_uses", "cards_drafted",
                "estate_size", "vp_judges", "vp_profit", "vp_quests", "outside_recommended")
