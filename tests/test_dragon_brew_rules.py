"""Dragon Brew rules: the rulebook's worked examples as scenarios with forced chance."""

from __future__ import annotations

import pytest
from dragon_brew_state import C, brewery, flags, game, judge, recipe, take_from_decks

from sim.dragon_brew import rules
from sim.dragon_brew.invariants import check_game
from sim.dragon_brew.state import stream_seed


def ci(p, key):
    return [c.key for c in p.estate].index(key)


def beer(chars, vp=0, gold=0, barrel=0):
    return [barrel, [], list(chars), vp, gold, False]


def test_stream_seed_matches_the_numba_streams():
    from sim.core.rng import stream_seed as nb_seed

    for args in [(1, 0, 1, 0), (20261129, 12345, 101, 3), (2**63 - 1, 999, 3, 2)]:
        assert stream_seed(*args) == int(nb_seed(*args))


def test_halfling_starting_resources_and_extra_gold_by_turn_order():
    g = game(["halfling", "human", "dwarf", "orc"])
    h = g.players[0]
    assert (h.own_avail, h.inv[:3], h.gold) == (7, [1, 1, 1], 6)  # printed in the Starting Resources example
    assert [p.gold - g.cfg.races[p.race]["gold"] for p in g.players] == [0, 1, 1, 2]
    assert len(g.judges) == 5  # players + 1
    assert all(not g.cfg.judges[j]["corrupt"] for j in g.judges + g.jdeck)


def test_halfling_grain_fields_with_fertile_fields_then_a_wheat_field():
    g = game(["halfling", "dwarf"])
    p, bot = g.players[0], g.bots[0]
    p.inv = [0] * C.N_INGS
    bot.grain_script = [C.WHEAT] * 4 + [C.RYE] * 2
    rules.apply_move(g, p, bot, ("brewer", ci(p, "grain_fields"), 0), flags())
    assert sum(p.inv[:3]) == 6  # four from Grain Fields plus two from Fertile Fields
    assert ("ability" in [e[3] for e in g.log])
    wf = brewery(g.cfg, "wheat_field")
    take_from_decks(g, wf)
    p.card("grain_fields").upgrades.append(wf)
    bot.grain_script = [C.BARLEY] * 6
    rules.apply_move(g, p, bot, ("brewer", ci(p, "grain_fields"), 0), flags())  # infinite: again
    assert sum(p.inv[:3]) == 6 + 8 and p.inv[C.WHEAT] == 4 + 2
    check_game(g, "spring-turn")


def test_mash_house_x2_with_sasquatch_masher_makes_three_worts():
    g = game(["halfling", "dwarf"])
    p, bot = g.players[0], g.bots[0]
    sm = brewery(g.cfg, "sasquatch_masher")
    take_from_decks(g, sm)
    p.card("mash_house").upgrades.append(sm)
    assert rules.mash_mult(g, p) == 3
    p.inv = [3, 1, 2, 0, 0, 0, 0, 0, 0, 0]  # yellow wheat 3, blue rye 1, red barley 2
    bot.wort_script = [C.ORANGE, C.ORANGE, C.GREEN]
    rules.apply_move(g, p, bot, ("brewer", ci(p, "mash_house"), 0), flags())
    assert p.inv == [0, 0, 0, 1, 2, 0, 0, 0, 0, 0]


def test_three_way_tie_splits_talabrinas_two_points_one_each_with_ribbons():
    g = game(["human", "orc", "dwarf"])
    g.judges = [judge(g.cfg, "talabrina_hillier")]
    for p in g.players:
        p.beers = [beer((2, 2, 2))]
    rules.judge_all(g)
    assert [p.vp for p in g.players] == [1, 1, 1]
    assert [p.ribbons for p in g.players] == [1, 1, 1]


def test_sneaky_glowing_dunkel_wins_highest_color_once_per_year():
    g = game(["halfling", "orc"])
    cfg = g.cfg
    dunkel = recipe(cfg, "sneaky_glowing_dunkel")
    assert cfg.recipes[dunkel]["chars"] == (2, 1, 0)
    color_judges = [i for i, j in enumerate(cfg.judges) if j["primary"] == "color" and j["primary_dir"] == "high"
                    and not j["corrupt"] and j["vp"] == 2]
    g.judges = color_judges[:2]
    h, o = g.players
    h.beers = [rules.beer_of(g, dunkel, [])]
    o.beers = [beer((1, 0, 0))]
    rules.judge_all(g)
    assert h.vp == 2 and h.ribbons == 1 and h.beers[0][5]  # ribbon on the beer
    assert o.vp == 2  # the Dunkel may not win the second judge


def test_a_player_with_two_best_beers_wins_once_with_the_beer_best_on_the_secondary():
    g = game(["human", "orc"])
    J = next(i for i, j in enumerate(g.cfg.judges) if j["primary"] == "color" and j["primary_dir"] == "high"
             and j["secondary"] == "strength" and j["secondary_dir"] == "high")
    g.judges = [J]
    g.players[0].beers = [beer((5, 0, 0)), beer((5, 3, 0))]
    g.players[1].beers = [beer((4, 9, 9))]
    rules.judge_all(g)
    assert g.players[0].beers[1][5] and not g.players[0].beers[0][5]


def test_end_game_tie_goes_to_ribbons_then_gold():
    g = game(["human", "orc"])
    hu, orc = g.players
    hu.vp, hu.ribbons, hu.gold = 32, 6, 4
    orc.vp, orc.ribbons, orc.gold = 32, 8, 2
    rank, winners = rules.final_ranking(g)
    assert winners == [1] and rank == {0: 2, 1: 1}
    orc.ribbons = 6
    orc.gold = 4
    assert rules.final_ranking(g)[1] == [0, 1]  # full tie: shared


def test_turn_order_lowest_vp_first_ties_to_the_disk_on_top():
    g = game(["human", "orc", "dwarf"])
    rules.score(g, g.players[1], 2, "vp_quests")  # white reaches 2 first
    rules.score(g, g.players[0], 2, "vp_quests")  # red lands on top of white
    rules.score(g, g.players[2], 5, "vp_quests")
    rules.winter(g)
    assert g.order == [0, 1, 2]


def corrupt_game(races):
    g = game(races, variant="corrupt_judge")
    cor = [i for i, j in enumerate(g.cfg.judges) if j["corrupt"]]
    return g, cor


def test_corrupt_setup_removes_fourteen_and_adds_the_six_corrupt_judges():
    g, cor = corrupt_game(["human", "orc"])
    pool = g.jdeck + g.judges
    assert len(pool) == 36 - 14 + 6
    assert set(cor) <= set(pool)


def test_bribe_example_outbid_refunds_the_red_bribe():
    g, cor = corrupt_game(["human", "orc"])
    red, blue = g.players
    red.gold = blue.gold = 5
    g.judges[0] = cor[0]
    g.jdeck = [j for j in g.jdeck if j != cor[0]]
    rules.apply_move(g, red, g.bots[0], ("bribe", 0, 1), flags())
    assert ("bribe", 0, 2) in rules.legal_moves(g, blue, flags())
    rules.apply_move(g, blue, g.bots[1], ("bribe", 0, 2), flags())
    assert red.gold == 5 and red.bribe is None
    assert blue.gold == 3 and g.bribes[0] == (1, 2)


def test_bribe_breaks_a_primary_tie_and_is_spent_win_or_lose():
    g, cor = corrupt_game(["human", "orc"])
    a, b = g.players
    g.judges = [cor[0]]
    J = g.cfg.judges[cor[0]]
    a.gold = b.gold = 5
    rules.apply_move(g, b, g.bots[1], ("bribe", 0, 2), flags())
    chars = [1, 1, 1]
    a.beers, b.beers = [beer(chars)], [beer(chars)]
    rules.judge_all(g)
    assert b.vp == J["vp"] and a.vp == 0 and b.gold == 3 and b.bribe is None
    # without a bribe: split
    g.judges = [cor[1]]
    for p in g.players:
        p.beers = [beer(chars)]
    rules.judge_all(g)
    assert a.vp == 1 and b.vp == J["vp"] + 1


def test_ogre_ruled_wins_primary_ties_and_returns_a_bribe():
    g, cor = corrupt_game(["ogre", "human"])
    ogre, hu = g.players
    g.judges = [cor[0], cor[1]]
    hu.gold = 5
    rules.apply_move(g, hu, g.bots[1], ("bribe", 0, 3), flags())
    rules.apply_move(g, ogre, g.bots[0], ("ogre", ci(ogre, "ogre_ruled"), 0), flags())
    assert hu.gold == 5 and hu.bribe is None and g.ogre == {0: 0}
    assert not any(m[0] == "ogre" and m[2] == 0 for m in rules.legal_moves(g, ogre, flags()))
    ogre.beers, hu.beers = [beer((1, 1, 1))], [beer((1, 1, 1))]
    rules.judge_all(g)
    assert ogre.ribbons >= 1 and ogre.beers[0][5]


def test_ogre_needs_its_own_brewer_not_a_gnome():
    g = game(["ogre", "human"])
    ogre = g.players[0]
    ogre.own_avail, ogre.gnome_avail = 0, 1
    g.gnome_supply -= 1
    assert not any(m[0] == "ogre" for m in rules.legal_moves(g, ogre, flags()))


def test_shadow_judge_swaps_before_screens_lift_and_refunds_a_bribe():
    g, cor = corrupt_game(["dark_elf", "human"])
    de, hu = g.players
    assert len(g.shadow) == 3
    g.judges[0] = cor[0]
    g.jdeck = [j for j in g.jdeck if j != cor[0]]
    hu.gold = 4
    rules.apply_move(g, hu, g.bots[1], ("bribe", 0, 2), flags())

    class Swap:
        def shadow_swap(self, g, p):
            return (0, 0)

        def brew(self, g, p, n):
            return []

    g.bots[0] = Swap()
    g.bots[1] = Swap()
    hidden = g.shadow[0]
    rules.fall(g)
    assert g.judges[0] == hidden and g.shadow[0] == cor[0]
    assert hu.gold == 4 and hu.bribe is None


def test_dark_sacrifice_example_frees_four_brewers_and_the_wytch_leaves_in_winter():
    g = game(["chaos_wytch", "human"])
    w = g.players[0]
    gf = w.card("grain_fields")
    for cid in ("wheat_field", "barley_field"):
        t = brewery(g.cfg, cid)
        take_from_decks(g, t)
        gf.upgrades.append(t)
    gf.own = 4
    w.own_avail -= 4
    before = w.own_avail
    total = w.own_total
    rules.apply_move(g, w, g.bots[0], ("sacrifice", ci(w, "dark_sacrifice"), ci(w, "grain_fields")), flags())
    assert w.card("grain_fields") is None
    assert w.own_avail == before - 1 + 4
    assert g.box_brewery == 2
    check_game(g, "spring-turn")
    rules.winter(g)
    assert w.own_total == total - 1 and w.own_avail == total - 1


def test_horse_guests_use_the_halflings_upgraded_fields_without_locking_them():
    g = game(["centaur", "halfling"])
    c, h = g.players
    mm = brewery(g.cfg, "mana_mountain")
    take_from_decks(g, mm)
    rules.add_brewery_card(g, h, mm)
    h.card("mana_mountain").locked = True  # already used this year: guests may still use it
    c.inv = [0] * C.N_INGS
    g.bots[0].grain_script = [C.RYE] * 6
    moves = rules.legal_moves(g, c, flags())
    hg = ci(c, "horse_guests")
    assert ("guest", hg, 1, ci(h, "mana_mountain"), 0) in moves
    rules.apply_move(g, c, g.bots[0], ("guest", hg, 1, ci(h, "grain_fields"), 0), flags())
    assert c.inv[C.RYE] == 6  # four plus the Halfling's Fertile Fields
    assert c.card("horse_guests").own == 1 and not h.card("grain_fields").locked
    c2 = game(["centaur", "halfling"])
    assert not any(m[0] == "guest" and m[2] == 1 and c2.players[1].estate[m[3]].key == "dark_sacrifice"
                   for m in rules.legal_moves(c2, c2.players[0], flags()))


def test_servant_spell_buys_two_pixie_wings_for_four_gold_at_the_halflings_trader():
    g = game(["human", "halfling"])
    hu, h = g.players
    pg = brewery(g.cfg, "pack_gnome")
    take_from_decks(g, pg)
    h.card("magic_trader").upgrades.append(pg)
    ss = brewery(g.cfg, "servant_spell")
    take_from_decks(g, ss)
    rules.add_brewery_card(g, hu, ss)
    hu.gold = 4
    hu.inv = [0] * C.N_INGS
    hu.inv[C.DRAGON] = 1
    g.bots[0].magic_script = [C.PIXIE, C.PIXIE]
    mv = ("servant", ci(hu, "servant_spell"), 1, ci(h, "magic_trader"))
    assert mv in rules.legal_moves(g, hu, flags())
    rules.apply_move(g, hu, g.bots[0], mv, flags())
    assert hu.inv[C.PIXIE] == 2 and hu.gold == 0 and hu.inv[C.DRAGON] == 0
    assert hu.card("servant_spell").spell_used and not h.card("magic_trader").locked


def test_elf_book_of_twelve_is_cut_in_winter():
    g = game(["elf", "human"])
    e = g.players[0]
    while len(e.book) < 17:
        e.book.append(rules.draw_recipe(g, "spice"))
    rules.winter(g)
    assert len(e.book) == 12
    check_game(g, "winter")


def test_gnome_guild_hires_when_another_player_drafts_migrant_gnomes():
    g = game(["human", "free_gnomes"])
    hu, fg = g.players
    t = [c["id"] for c in g.cfg.events].index("migrant_gnomes")
    take_from_decks(g, t, "event")
    g.edeck.append(g.erow[0])
    g.erow[0] = t
    hu.gold, fg.gold = 4, 2
    rules.apply_move(g, hu, g.bots[0], ("draft", 1, 0), flags())
    assert hu.gnome_avail == 1 and fg.gnome_avail == 1 and fg.gold == 0
    assert g.gnome_supply == 8
    check_game(g, "spring-turn")


def test_spring_ends_with_no_brewer_on_any_race_card():
    g = game(["human", "orc", "dwarf", "goblin"])
    rules.spring(g)
    assert all(p.on_race_card() == 0 for p in g.players)
    check_game(g, "spring")


@pytest.mark.parametrize("variant", ["base", "corrupt_judge"])
def test_a_full_game_lasts_three_years(variant):
    g = game(["naga", "wizard", "vampire", "leprechaun"], variant=variant)
    rank, winners = rules.play(g, check_game)
    assert g.year == 3 and winners


def give(g, p, card_id):
    t = brewery(g.cfg, card_id)
    take_from_decks(g, t)
    rules.add_brewery_card(g, p, t)
    return ci(p, card_id) if p.card(card_id) else None


def test_a_player_without_brewers_may_still_draft_and_must_use_a_drafted_gnome():
    g = game(["human", "orc"])
    hu = g.players[0]
    hu.own_out, hu.own_avail = hu.own_avail, 0
    t = [c["id"] for c in g.cfg.events].index("migrant_gnomes")
    take_from_decks(g, t, "event")
    g.edeck.append(g.erow[0])
    g.erow[0] = t
    hu.gold = 4
    f = flags()
    assert ("end",) in rules.legal_moves(g, hu, f)
    assert ("draft", 1, 0) in rules.legal_moves(g, hu, f)
    rules.apply_move(g, hu, g.bots[0], ("draft", 1, 0), f)
    assert hu.gnome_avail == 1 and ("end",) not in rules.legal_moves(g, hu, f)


def test_human_farmers_market_four_wheat_two_rye_for_three_gold():
    g = game(["human", "orc"])
    hu = g.players[0]
    hu.inv, hu.gold = [0] * C.N_INGS, 3
    g.bots[0].grain_script = [C.WHEAT, C.WHEAT, C.WHEAT, C.WHEAT, C.RYE, C.RYE]
    for _ in range(3):
        rules.apply_move(g, hu, g.bots[0], ("free", ci(hu, "farmers_market")), flags())
    assert hu.gold == 0 and hu.inv[C.WHEAT] == 4 and hu.inv[C.RYE] == 2


def test_merfolk_sea_port_two_gold_and_two_red_grain_for_an_orange_wort():
    g = game(["merfolk", "orc"])
    m = g.players[0]
    m.inv, m.gold = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0], 2
    g.bots[0].need = [0] * C.N_INGS
    g.bots[0].need[C.ORANGE] = 1
    rules.apply_move(g, m, g.bots[0], ("free", ci(m, "sea_port")), flags())
    assert m.gold == 0 and m.inv == [0, 0, 0, 0, 1, 0, 0, 0, 0, 0]


def test_tavern_six_grains_for_two_gold_and_transmutation_six_grains_for_mana():
    g = game(["dwarf", "orc"])
    d = g.players[0]
    tv = give(g, d, "tavern")
    d.inv, d.gold = [4, 2, 0, 0, 0, 0, 0, 0, 0, 0], 0
    rules.apply_move(g, d, g.bots[0], ("free", tv), flags())
    rules.apply_move(g, d, g.bots[0], ("free", tv), flags())
    assert d.gold == 2 and sum(d.inv) == 0
    ts = give(g, d, "transmutation_spell")
    d.inv = [2, 2, 2, 0, 0, 0, 0, 0, 0, 0]
    assert ("spell", ts) in rules.legal_moves(g, d, flags())
    rules.apply_move(g, d, g.bots[0], ("spell", ts), flags())
    assert d.inv[C.MANA] == 1 and sum(d.inv[:3]) == 0 and d.estate[ts].spell_used
    assert ("spell", ts) not in rules.legal_moves(g, d, flags())


def test_dwarf_gold_mine_orc_borrower_and_goblin_black_market():
    g = game(["dwarf", "orc", "goblin"])
    d, o, gob = g.players
    gold = d.gold
    rules.apply_move(g, d, g.bots[0], ("brewer", ci(d, "gold_mine"), 0), flags())
    assert d.gold == gold + 5 and not d.card("gold_mine").locked
    o.inv = [0] * C.N_INGS
    gold = o.gold
    rules.apply_move(g, o, g.bots[1], ("brewer", ci(o, "borrower"), 0), flags())
    assert o.gold == gold + 2 and sum(o.inv[:3]) == 6
    gold, drafted = gob.gold, gob.stats["cards_drafted"]
    rules.apply_move(g, gob, g.bots[2], ("brewer", ci(gob, "black_market"), 0), flags())
    assert gob.gold == gold and gob.stats["cards_drafted"] == drafted + 1
    check_game(g, "spring-turn")


def test_wizard_spell_book_casts_another_players_spell_without_the_magic_ingredient():
    g = game(["wizard", "human"])
    w, hu = g.players
    rs = give(g, hu, "chaos_spell")
    w.inv = [0] * C.N_INGS
    mv = ("spellbook", ci(w, "spell_book"), 1, rs)
    assert mv in rules.legal_moves(g, w, flags())
    drafted = w.stats["cards_drafted"]
    rules.apply_move(g, w, g.bots[0], mv, flags())
    assert w.stats["cards_drafted"] == drafted + 2  # Chaos Spell: two free cards
    assert not hu.estate[rs].spell_used and w.card("spell_book").locked
    w.gnome_avail, w.own_avail = 1, 0
    g.gnome_supply -= 1
    w.card("spell_book").locked = False
    assert not any(m[0] == "spellbook" for m in rules.legal_moves(g, w, flags()))  # no gnomes


def test_vampire_drain_gnome_fairy_spinning_wheel_naga_mana_spell():
    g = game(["vampire", "fairy", "naga"])
    v, f, n = g.players
    v.gnome_avail, g.gnome_supply = 1, g.gnome_supply - 1
    v.inv = [0] * C.N_INGS
    rules.apply_move(g, v, g.bots[0], ("free", ci(v, "drain_gnome")), flags())
    assert v.inv[C.MANA] == 1 and v.gnome_avail == 0 and g.gnome_supply == 10
    f.inv, gold = [2, 2, 2, 0, 0, 0, 0, 0, 0, 0], f.gold
    rules.apply_move(g, f, g.bots[1], ("spell", ci(f, "spinning_wheel")), flags())
    assert f.gold == gold + 6 and sum(f.inv) == 0
    ts = give(g, n, "transmutation_spell")
    n.estate[ts].spell_used = True
    n.inv = [0] * C.N_INGS
    n.inv[C.MANA] = 1
    rules.apply_move(g, n, g.bots[2], ("brewer", ci(n, "mana_spell"), 0), flags())
    assert not n.estate[ts].spell_used and n.inv[C.MANA] == 0 and n.card("mana_spell").locked


def test_leprechaun_pot_o_gold_and_tree_men_sacred_grove_and_giant_stomper():
    g = game(["leprechaun", "tree_men", "giant"])
    lep, tm, gi = g.players
    cfg = g.cfg
    g.judges = []
    barrel = next(r for r in lep.book if cfg.recipes[r]["deck"] == "barrel")
    spice = next(r for r in lep.book if cfg.recipes[r]["deck"] == "spice")
    for p in g.players:
        p.inv = [0] * C.N_INGS
    for i in rules.beer_needs(g, barrel, [spice]):
        lep.inv[i] += 1

    class OneBeer:
        def __init__(self, beers):
            self.beers = beers

        def brew(self, g, p, n):
            return self.beers

        def shadow_swap(self, g, p):
            return None

    bots = g.bots
    g.bots = [OneBeer([(barrel, [spice])]), OneBeer([]), OneBeer([])]
    gold = lep.gold
    rules.fall(g)
    profit = cfg.recipes[barrel]["gold"] + cfg.recipes[spice]["gold"]
    assert lep.stats["beers_brewed"] == 1 and lep.gold == gold + profit + 1  # +1 gold per beer
    g.bots = bots
    g.bots[1].grain_script = [C.WHEAT] * 4
    g.bots[1].magic_script = [C.TOAD]
    rules.apply_move(g, tm, g.bots[1], ("brewer", ci(tm, "grain_fields"), 0), flags())
    assert tm.inv[C.WHEAT] == 4 and tm.inv[C.TOAD] == 1  # Sacred Grove: one magic ingredient
    assert rules.mash_mult(g, gi) == 3  # Mash Stomper: +2
