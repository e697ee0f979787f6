"""Dragon Brew rules on the numba engine: the rulebook's worked examples as scenarios with forced
chance. Choices a bot makes inside an action are either irrelevant to the assertion (totals), or
fixed through the planner's need vector (set_need), or the random bot's stream is pinned."""

from __future__ import annotations

import numpy as np
import pytest
from dragon_brew_state import (
    FALL,
    SPRING,
    SPRING_TURN,
    WINTER,
    C,
    ability_code,
    apply,
    book,
    check,
    events,
    game,
    give,
    gold,
    ing,
    inv,
    judge,
    keys,
    legal,
    offer_event,
    pile,
    pin_stream,
    put_under,
    recipe,
    set_beers,
    set_book,
    set_judges,
    set_need,
    won,
)

from sim.core.rows import output_rows
from sim.dragon_brew import kernel, rules
from sim.dragon_brew import policies as pol
from sim.dragon_brew.rules import (
    LOG_ABILITY,
    LOG_DRAFT_BREWERY,
    LOG_DRAFT_EVENT,
    LOG_JUDGE_WON,
    LOG_SACRIFICE_CARD,
)
from sim.dragon_brew.schema import GAMES, PLAYERS
from sim.dragon_brew.state import (
    EF_BREWER,
    EF_GAIN_GOLD,
    JF_CORRUPT,
    P_LC_COMMON,
    P_LC_EVENT,
    P_LC_JUDGE,
    mash_mult,
    view,
)


def vp(G, seat):
    return G.seat(seat).vp


def recorded(G):
    """kernel.record of G's game as it stands: (players rows, win shares, games row)."""
    game_row = output_rows(1, GAMES.width)[0]
    rows = output_rows(G.n, PLAYERS.width)
    wins = np.zeros(G.n, np.float64)
    kernel.record(G.S, G.R, G.X, 0, G.n, game_row, rows, wins)
    return rows, wins, game_row


def test_halfling_starting_resources_and_extra_gold_by_turn_order():
    G = game(["halfling", "human", "dwarf", "orc"])
    assert (G.seat(0).own_avail, inv(G, 0)[:3], gold(G, 0)) == (7, [1, 1, 1], 6)  # the Starting Resources example
    assert [gold(G, s) - G.cfg.races[G.seat(s).race]["gold"] for s in range(4)] == [0, 1, 1, 2]
    assert view(G.S).game.n_judges == 5  # players + 1
    in_play = list(view(G.S).piles.judges[:5]) + pile(G.S, C.PILE_JDECK)
    assert not any(G.R.jd[j, JF_CORRUPT] for j in in_play)
    assert sorted(pile(G.S, C.PILE_JBOX)) == [i for i, j in enumerate(G.cfg.judges) if j["corrupt"]]
    check(G.S, G.R, SPRING_TURN)


def test_halfling_grain_fields_with_fertile_fields_then_a_wheat_field():
    G = game(["halfling", "dwarf"], policy="greedy")
    gf = G.ci(0, "grain_fields")
    G.seat(0).inv = 0
    set_need(G, 0, wheat=4, rye=2)
    apply(G, 0, C.M_BREWER, gf, 0)
    assert inv(G, 0)[:3] == [4, 2, 0]  # four from Grain Fields (chosen by need) plus two from Fertile Fields
    assert events(G, LOG_ABILITY)[-1][1:] == (0, 1, ability_code(G, "fertile_fields"), LOG_ABILITY, 2)
    put_under(G, 0, "grain_fields", "wheat_field")
    view(G.S).game.flags = 0  # the next turn
    assert (C.M_BREWER, gf, 0, 0, 0) in legal(G, 0)  # infinite: again
    set_need(G, 0, barley=6)
    apply(G, 0, C.M_BREWER, gf, 0)
    assert inv(G, 0)[:3] == [4 + 2, 2, 6] and sum(inv(G, 0)[:3]) == 6 + 8
    check(G.S, G.R, SPRING_TURN)


def test_mash_house_x2_with_sasquatch_masher_makes_three_worts():
    G = game(["halfling", "dwarf"], policy="greedy")
    put_under(G, 0, "mash_house", "sasquatch_masher")
    assert mash_mult(G.S, G.R, 0) == 3
    G.seat(0).inv = ing(wheat=3, rye=1, barley=2)  # yellow wheat 3, blue rye 1, red barley 2
    set_need(G, 0, green_wort=1, orange_wort=2)
    apply(G, 0, C.M_BREWER, G.ci(0, "mash_house"), 0)
    assert inv(G, 0) == list(ing(green_wort=1, orange_wort=2))
    check(G.S, G.R, SPRING_TURN)


def test_three_way_tie_splits_talabrinas_two_points_one_each_with_ribbons():
    G = game(["human", "orc", "dwarf"])
    set_judges(G, [judge(G.cfg, "talabrina_hillier")])
    for s in range(3):
        set_beers(G, s, [(2, 2, 2)])
    rules.judge_all(G.S, G.R)
    assert [vp(G, s) for s in range(3)] == [1, 1, 1]
    assert [G.seat(s).ribbons for s in range(3)] == [1, 1, 1]
    check(G.S, G.R, FALL)


def test_sneaky_glowing_dunkel_wins_highest_color_once_per_year():
    G = game(["halfling", "orc"])
    cfg = G.cfg
    # The printed beer is three cards (L358, L392): the Dunkel barrel with the Sneaky and Glowing spices.
    dunkel = [recipe(cfg, r) for r in ("dunkel", "sneaky", "glowing")]
    assert tuple(sum(cfg.recipes[r]["chars"][k] for r in dunkel) for k in range(3)) == (2, 1, 0)
    color_judges = [i for i, j in enumerate(cfg.judges) if j["primary"] == "color" and j["primary_dir"] == "high"
                    and not j["corrupt"] and j["vp"] == 2]
    set_judges(G, color_judges[:2])
    set_beers(G, 0, [dunkel])
    set_beers(G, 1, [(1, 0, 0)])
    rules.judge_all(G.S, G.R)
    assert vp(G, 0) == 2 and G.seat(0).ribbons == 1 and won(G, 0) == [True]  # ribbon on the beer
    assert vp(G, 1) == 2  # the Dunkel may not win the second judge


def test_a_player_with_two_best_beers_wins_once_with_the_beer_best_on_the_secondary():
    G = game(["human", "orc"])
    J = next(i for i, j in enumerate(G.cfg.judges) if j["primary"] == "color" and j["primary_dir"] == "high"
             and j["secondary"] == "strength" and j["secondary_dir"] == "high")
    set_judges(G, [J])
    set_beers(G, 0, [(5, 0, 0), (5, 3, 0)])
    set_beers(G, 1, [(4, 9, 9)])
    rules.judge_all(G.S, G.R)
    assert won(G, 0) == [False, True] and won(G, 1) == [False]


def test_end_game_tie_goes_to_ribbons_then_gold():
    G = game(["human", "orc"])
    for s, (v, rib, g) in enumerate([(32, 6, 4), (32, 8, 2)]):
        G.seat(s).set(vp=v, ribbons=rib, gold=g)
    rows, wins, game_row = recorded(G)
    assert game_row[GAMES.at.n_winners] == 1
    assert list(rows[:, PLAYERS.at.rank]) == [2, 1] and list(wins) == [0.0, 1.0]
    assert list(rows[:, PLAYERS.at.ribbons]) == [6, 8] and list(rows[:, PLAYERS.at.gold]) == [4, 2]
    G.seat(1).set(ribbons=6, gold=4)
    rows, wins, game_row = recorded(G)
    assert game_row[GAMES.at.n_winners] == 2  # full tie: shared
    assert list(rows[:, PLAYERS.at.rank]) == [1, 1] and list(wins) == [0.5, 0.5]


def test_turn_order_lowest_vp_starts_then_play_goes_clockwise():
    """L155-159: the lowest player on VP starts and play goes on clockwise; red and white tied
    for last with 2 VP, red's disk on top: red starts. The others keep their seat order."""
    G = game(["human", "orc", "dwarf", "elf"])
    red, white = 2, 1
    rules.score(G.S, 0, 5, C.ST_VP_QUESTS)
    rules.score(G.S, white, 2, C.ST_VP_QUESTS)  # white reaches 2 first
    rules.score(G.S, red, 2, C.ST_VP_QUESTS)  # red lands on top of white
    rules.score(G.S, 3, 3, C.ST_VP_QUESTS)
    rules.winter(G.S, G.R, G.B)
    assert list(view(G.S).game.order[:4]) == [2, 3, 0, 1]  # a sort by VP would give 2, 1, 3, 0
    view(G.S).column("seat", "vp", 4)[:] = 0
    rules.score(G.S, red, 2, C.ST_VP_QUESTS)
    rules.score(G.S, white, 2, C.ST_VP_QUESTS)  # now white lands on top of red
    rules.score(G.S, 0, 4, C.ST_VP_QUESTS)
    rules.score(G.S, 3, 4, C.ST_VP_QUESTS)
    rules.winter(G.S, G.R, G.B)
    assert list(view(G.S).game.order[:4]) == [1, 2, 3, 0]


def corrupt_game(races, policy="random"):
    G = game(races, variant="corrupt_judge", policy=policy)
    cor = [i for i, j in enumerate(G.cfg.judges) if j["corrupt"]]
    return G, cor


def test_corrupt_setup_removes_fourteen_and_adds_the_six_corrupt_judges():
    G, cor = corrupt_game(["human", "orc"])
    pool = pile(G.S, C.PILE_JDECK) + list(view(G.S).piles.judges[:view(G.S).game.n_judges])
    assert len(pool) == 30 - 14 + 6 and len(pile(G.S, C.PILE_JBOX)) == 14
    assert set(cor) <= set(pool)
    assert not any(G.R.jd[j, JF_CORRUPT] for j in pile(G.S, C.PILE_JBOX))
    check(G.S, G.R, SPRING_TURN)


def test_the_judge_box_holds_36_cards_with_the_six_corrupt_ones():
    """L93: 36 judge cards; L123: the base game removes the Bribe judges from that deck."""
    G = game(["human", "orc"])
    assert len(G.cfg.judges) == 36 and sum(j["corrupt"] for j in G.cfg.judges) == 6
    deck = pile(G.S, C.PILE_JDECK) + [int(j) for j in view(G.S).piles.judges[:view(G.S).game.n_judges]]
    assert len(deck) == 30 and not any(G.R.jd[j, JF_CORRUPT] for j in deck)


def test_a_bribe_may_be_any_amount_that_tops_the_standing_one():
    """L766: one or more gold; an outbid must be higher, by any amount."""
    G, cor = corrupt_game(["human", "orc"])
    view(G.S).column("seat", "gold", 2)[:] = 5
    set_judges(G, [cor[0]] + [int(j) for j in view(G.S).piles.judges[1:3]])
    view(G.S).game.flags = 0
    assert (C.M_BRIBE, 0, 1, 5, 0) in legal(G, 0)  # 1 .. all five gold
    apply(G, 0, C.M_BRIBE, 0, 1, 1)
    view(G.S).game.flags = 0
    assert (C.M_BRIBE, 0, 2, 5, 0) in legal(G, 1)
    apply(G, 1, C.M_BRIBE, 0, 4, 4)  # outbid by three
    assert gold(G, 0) == 5 and gold(G, 1) == 1 and view(G.S).piles.bribe_gold[0] == 4
    amounts = set()
    for x in range(1, 60):  # the random bot picks any amount in the range
        G.S.rng[1 + 0] = x
        amounts.add(int(pol.bribe_amount(G.S, G.R, G.B, 0, 0, 2, 5)))
    assert amounts == {2, 3, 4, 5}
    check(G.S, G.R, SPRING_TURN)


def test_bribe_example_outbid_refunds_the_red_bribe():
    G, cor = corrupt_game(["human", "orc"])
    view(G.S).column("seat", "gold", 2)[:] = 5
    set_judges(G, [cor[0]] + [int(j) for j in view(G.S).piles.judges[1:3]])
    apply(G, 0, C.M_BRIBE, 0, 1, 1)
    view(G.S).game.flags = 0
    bribes = [m for m in legal(G, 1) if m[0] == C.M_BRIBE and m[1] == 0]
    assert bribes == [(C.M_BRIBE, 0, 2, 5, 0)]  # the blue bribe must top the red one
    apply(G, 1, C.M_BRIBE, 0, 2, 2)
    assert gold(G, 0) == 5 and G.seat(0).bribe_slot == -1
    assert gold(G, 1) == 3 and (view(G.S).piles.bribe_seat[0], view(G.S).piles.bribe_gold[0]) == (1, 2)
    check(G.S, G.R, SPRING_TURN)


def test_bribe_breaks_a_primary_tie_and_is_spent_win_or_lose():
    G, cor = corrupt_game(["human", "orc"])
    set_judges(G, [cor[0]])
    J = G.cfg.judges[cor[0]]
    view(G.S).column("seat", "gold", 2)[:] = 5
    apply(G, 1, C.M_BRIBE, 0, 2, 2)
    for s in range(2):
        set_beers(G, s, [(1, 1, 1)])
    rules.judge_all(G.S, G.R)
    assert vp(G, 1) == J["vp"] and vp(G, 0) == 0 and gold(G, 1) == 3 and G.seat(1).bribe_slot == -1
    check(G.S, G.R, FALL)
    # without a bribe: split
    set_judges(G, [cor[1]])
    for s in range(2):
        set_beers(G, s, [(1, 1, 1)])
    rules.judge_all(G.S, G.R)
    assert vp(G, 0) == 1 and vp(G, 1) == J["vp"] + 1


def test_ogre_ruled_wins_primary_ties_and_returns_a_bribe():
    G, cor = corrupt_game(["ogre", "human"])
    set_judges(G, [cor[0], cor[1]])
    G.seat(1).gold = 5
    apply(G, 1, C.M_BRIBE, 0, 3, 3)
    og = G.ci(0, "ogre_ruled")
    apply(G, 0, C.M_OGRE, og, 0)
    assert gold(G, 1) == 5 and G.seat(1).bribe_slot == -1 and view(G.S).piles.ogre[0] == 0
    view(G.S).game.flags = 0
    ogre_moves = [m for m in legal(G, 0) if m[0] == C.M_OGRE]
    assert ogre_moves and not any(m[2] == 0 for m in ogre_moves)
    for s in range(2):
        set_beers(G, s, [(1, 1, 1)])
    rules.judge_all(G.S, G.R)
    assert won(G, 0) == [True] and vp(G, 0) == G.cfg.judges[cor[0]]["vp"]
    assert events(G, LOG_JUDGE_WON)[0][1:4] == (0, 1, int(G.R.p[P_LC_JUDGE]) + cor[0])


def test_ogre_needs_its_own_brewer_not_a_gnome():
    G = game(["ogre", "human"])
    G.seat(0).own_avail, G.seat(0).gnome_avail = 0, 1
    view(G.S).game.gnome_supply -= 1
    moves = legal(G, 0)
    assert any(m[0] == C.M_BREWER for m in moves)  # the gnome may work elsewhere
    assert not any(m[0] == C.M_OGRE for m in moves)
    check(G.S, G.R, SPRING_TURN)


def test_shadow_judge_swaps_before_screens_lift_and_refunds_a_bribe():
    G, cor = corrupt_game(["dark_elf", "orc"])  # the Orc has no free action card for the fall window
    S, R, B = G.S, G.R, G.B
    assert view(S).game.n_shadow == 3
    set_judges(G, [cor[0]] + [int(j) for j in view(S).piles.judges[1:3]])
    view(S).seat(1).gold = 4
    apply(G, 1, C.M_BRIBE, 0, 2, 2)

    def swaps_first_judge_for_first_hidden(S2):  # what fall asks the Dark Elf, after brewing
        for s in range(2):
            rules.brew_beers(S2, R, B, s)
        return pol.shadow_swap(S2, R, B, 0) == 0 * C.MAX_ROW + 0

    pin_stream(G, 0, swaps_first_judge_for_first_hidden)
    hidden = int(view(S).piles.shadow_judges[0])
    rules.fall(S, R, B)
    assert view(S).piles.judges[0] == hidden and view(S).piles.shadow_judges[0] == cor[0]
    assert gold(G, 1) == 4 and G.seat(1).bribe_slot == -1
    assert events(G, LOG_ABILITY)[-1][1:4] == (0, 1, ability_code(G, "shadow_judge"))
    check(S, R, FALL)


def test_dark_sacrifice_example_frees_four_brewers_and_the_wytch_leaves_in_winter():
    G = game(["chaos_wytch", "human"])
    S = G.S
    for cid in ("wheat_field", "barley_field"):
        put_under(G, 0, "grain_fields", cid)
    gf = G.ci(0, "grain_fields")
    view(S).estate(0, gf).own = 4
    view(S).seat(0).own_avail -= 4
    before, total, cards = G.seat(0).own_avail, G.seat(0).own_total, G.seat(0).n_cards
    apply(G, 0, C.M_SACRIFICE, G.ci(0, "dark_sacrifice"), gf)
    assert C.GRAIN_FIELDS not in keys(G, 0) and G.seat(0).n_cards == cards - 1
    assert G.seat(0).own_avail == before - 1 + 4
    assert view(S).game.box_brewery == 2
    assert events(G, LOG_SACRIFICE_CARD)[-1][1:4] == (0, 1, int(G.R.p[P_LC_COMMON]) + C.GRAIN_FIELDS)
    check(S, G.R, SPRING_TURN)
    rules.winter(S, G.R, G.B)
    assert G.seat(0).own_total == total - 1 and G.seat(0).own_avail == total - 1


def test_horse_guests_use_the_halflings_upgraded_fields_without_locking_them():
    G = game(["centaur", "halfling"], policy="greedy")
    S = G.S
    mm = give(G, 1, "mana_mountain")
    view(S).estate(1, mm).locked = 1  # already used this year: guests may still use it
    view(S).seat(0).inv = 0
    hg = G.ci(0, "horse_guests")
    moves = legal(G, 0)
    assert (C.M_GUEST, hg, 1, mm, 0) in moves
    assert not any(m[0] == C.M_GUEST and m[3] == G.ci(1, "brewery") for m in moves)  # not another's Brewery
    set_need(G, 0, rye=6)
    apply(G, 0, C.M_GUEST, hg, 1, G.ci(1, "grain_fields"), 0)
    assert inv(G, 0)[C.RYE] == 6  # four plus the Halfling's Fertile Fields
    assert G.card(0, "horse_guests").own == 1 and G.card(0, "horse_guests").locked
    assert not G.card(1, "grain_fields").locked
    check(S, G.R, SPRING_TURN)
    W = game(["centaur", "chaos_wytch"])
    no = {W.ci(1, "dark_sacrifice"), W.ci(1, "brewery")}
    guests = [m for m in legal(W, 0) if m[0] == C.M_GUEST]
    assert guests and not any(m[2] == 1 and m[3] in no for m in guests)


def test_servant_spell_buys_two_pixie_wings_for_four_gold_at_the_halflings_trader():
    G = game(["human", "halfling"], policy="greedy")
    S = G.S
    put_under(G, 1, "magic_trader", "pack_gnome")
    ss = give(G, 0, "servant_spell")
    view(S).seat(0).gold = 4
    view(S).seat(0).inv = ing(dragon_scale=1)
    mv = (C.M_SERVANT, ss, 1, G.ci(1, "magic_trader"), 0)
    assert mv in legal(G, 0)
    set_need(G, 0, pixie_wing=2)
    apply(G, 0, *mv)
    assert inv(G, 0) == list(ing(pixie_wing=2)) and gold(G, 0) == 0
    assert view(S).estate(0, ss).spell_used and not G.card(1, "magic_trader").locked
    view(S).seat(0).inv.dragon_scale, view(S).seat(0).gold = 1, 4
    assert mv not in legal(G, 0)  # once a year
    check(S, G.R, SPRING_TURN)


def test_elf_book_of_twelve_is_cut_in_winter():
    G = game(["elf", "human"])
    while G.seat(0).n_book < 17:
        rules.add_to_book(G.S, 0, rules.draw_recipe(G.S, 1))
    rules.winter(G.S, G.R, G.B)
    assert G.seat(0).n_book == 12 and len(set(book(G, 0))) == 12
    check(G.S, G.R, WINTER)


def test_gnome_guild_hires_when_another_player_drafts_migrant_gnomes():
    G = game(["human", "free_gnomes"], policy="greedy")
    offer_event(G, "migrant_gnomes")
    view(G.S).column("seat", "gold", 2)[:] = 4, 2
    apply(G, 0, C.M_DRAFT, 1, 0)
    assert G.seat(0).gnome_avail == 1 and G.seat(1).gnome_avail == 1 and gold(G, 1) == 0
    assert view(G.S).game.gnome_supply == 8
    assert events(G, LOG_ABILITY)[-1][1:4] == (1, 1, ability_code(G, "gnome_guild"))
    check(G.S, G.R, SPRING_TURN)


def test_gnome_guild_cannot_hire_without_the_fee():
    G = game(["human", "free_gnomes"], policy="greedy")
    offer_event(G, "migrant_gnomes")
    view(G.S).column("seat", "gold", 2)[:] = 4, 1
    apply(G, 0, C.M_DRAFT, 1, 0)
    assert G.seat(1).gnome_avail == 0 and gold(G, 1) == 1 and view(G.S).game.gnome_supply == 9


def test_spring_ends_with_no_brewer_on_any_race_card():
    G = game(["human", "orc", "dwarf", "goblin"])
    rules.spring(G.S, G.R, G.B, G.Z, rules.bot_choice)
    assert not view(G.S).game.overflow
    assert all(G.seat(s).own_avail + G.seat(s).gnome_avail == 0 for s in range(4))
    check(G.S, G.R, SPRING)


@pytest.mark.parametrize("variant", ["base", "corrupt_judge"])
def test_a_full_game_lasts_three_years(variant):
    G = game(["naga", "wizard", "vampire", "leprechaun"], variant=variant, policy=["greedy", "random"] * 2)
    kernel.play_game(G.S, G.R, G.B, G.Z, True, rules.bot_choice)  # no search bot
    assert view(G.S).game.violation == 0 and view(G.S).game.overflow == 0
    assert view(G.S).game.year == 3 and view(G.S).game.phase == 4
    rows, wins, game_row = recorded(G)
    assert game_row[GAMES.at.n_winners] >= 1 and game_row[GAMES.at.rounds] == 3
    assert sorted(rows[:, PLAYERS.at.rank])[0] == 1 and wins.sum() == pytest.approx(1.0)


def test_a_player_without_brewers_may_still_draft_and_must_use_a_drafted_gnome():
    G = game(["human", "orc"])
    G.seat(0).own_out, G.seat(0).own_avail = G.seat(0).own_avail, 0
    offer_event(G, "migrant_gnomes")
    G.seat(0).gold = 4
    view(G.S).game.flags = 0
    moves = legal(G, 0)
    assert (C.M_END, 0, 0, 0, 0) in moves and (C.M_DRAFT, 1, 0, 0, 0) in moves
    assert not any(m[0] in C.BREWER_MOVES for m in moves)
    apply(G, 0, C.M_DRAFT, 1, 0, fresh=False)
    moves = legal(G, 0)
    assert G.seat(0).gnome_avail == 1 and (C.M_END, 0, 0, 0, 0) not in moves
    assert any(m[0] == C.M_BREWER for m in moves) and not any(m[0] == C.M_DRAFT for m in moves)


def test_human_farmers_market_four_wheat_two_rye_for_three_gold():
    G = game(["human", "orc"], policy="greedy")
    G.seat(0).inv = 0
    G.seat(0).gold = 3
    fm = G.ci(0, "farmers_market")
    set_need(G, 0, wheat=4, rye=2)
    for _ in range(3):
        apply(G, 0, C.M_FREE, fm)
    assert gold(G, 0) == 0 and inv(G, 0)[:3] == [4, 2, 0]
    assert (C.M_FREE, fm, 0, 0, 0) not in legal(G, 0)  # no gold left


def test_merfolk_sea_port_two_gold_and_two_red_grain_for_an_orange_wort():
    G = game(["merfolk", "orc"], policy="greedy")
    G.seat(0).inv = ing(barley=2)
    G.seat(0).gold = 2
    set_need(G, 0, orange_wort=1)
    apply(G, 0, C.M_FREE, G.ci(0, "sea_port"))
    assert gold(G, 0) == 0 and inv(G, 0) == list(ing(orange_wort=1))


def test_tavern_six_grains_for_two_gold_and_transmutation_six_grains_for_mana():
    G = game(["dwarf", "orc"])
    S = G.S
    tv = give(G, 0, "tavern")
    view(S).seat(0).inv = ing(wheat=4, rye=2)
    view(S).seat(0).gold = 0
    apply(G, 0, C.M_FREE, tv)
    apply(G, 0, C.M_FREE, tv)
    assert gold(G, 0) == 2 and sum(inv(G, 0)) == 0
    ts = give(G, 0, "transmutation_spell")
    view(S).seat(0).inv = ing(wheat=2, rye=2, barley=2)
    assert (C.M_SPELL, ts, 0, 0, 0) in legal(G, 0)
    apply(G, 0, C.M_SPELL, ts)
    assert inv(G, 0) == list(ing(mana_weed=1)) and view(S).estate(0, ts).spell_used
    view(S).seat(0).inv = ing(wheat=6)
    assert (C.M_SPELL, ts, 0, 0, 0) not in legal(G, 0)  # once a year
    check(S, G.R, SPRING_TURN)


def test_dwarf_gold_mine_orc_borrower_and_goblin_black_market():
    G = game(["dwarf", "orc", "goblin"], policy="greedy")
    S = G.S
    g0 = gold(G, 0)
    apply(G, 0, C.M_BREWER, G.ci(0, "gold_mine"), 0)
    assert gold(G, 0) == g0 + 5 and not G.card(0, "gold_mine").locked
    view(S).seat(1).inv = 0
    g1 = gold(G, 1)
    apply(G, 1, C.M_BREWER, G.ci(1, "borrower"), 0)
    assert gold(G, 1) == g1 + 2 and sum(inv(G, 1)[:3]) == 6
    g2, drafted = gold(G, 2), G.seat(2).stats.cards_drafted
    apply(G, 2, C.M_BREWER, G.ci(2, "black_market"), 0)
    assert G.seat(2).stats.cards_drafted == drafted + 1
    draft = [e for e in events(G) if e[4] in (LOG_DRAFT_BREWERY, LOG_DRAFT_EVENT)][-1]
    assert draft[1] == 2 and draft[5] == 0  # drafted for free
    gain = G.R.evt[draft[3] - int(G.R.p[P_LC_EVENT]), EF_GAIN_GOLD] if draft[4] == LOG_DRAFT_EVENT else 0
    assert gold(G, 2) == g2 + gain
    check(S, G.R, SPRING_TURN)


def test_wizard_spell_book_casts_another_players_spell_without_the_magic_ingredient():
    G = game(["wizard", "human"])
    S = G.S
    rs = give(G, 1, "chaos_spell")
    view(S).seat(0).inv = 0
    sb = G.ci(0, "spell_book")
    mv = (C.M_SPELLBOOK, sb, 1, rs, 0)
    assert mv in legal(G, 0)
    drafted = G.seat(0).stats.cards_drafted
    apply(G, 0, *mv)
    assert G.seat(0).stats.cards_drafted == drafted + 2  # Chaos Spell: two free cards
    assert not view(S).estate(1, rs).spell_used and view(S).estate(0, sb).locked
    check(S, G.R, SPRING_TURN)
    view(S).seat(0).gnome_avail, view(S).seat(0).own_avail = 1, 0
    view(S).game.gnome_supply -= 1
    view(S).estate(0, sb).locked = 0
    view(S).game.flags = 0
    assert not any(m[0] == C.M_SPELLBOOK for m in legal(G, 0))  # no gnomes


def test_vampire_drain_gnome_fairy_spinning_wheel_naga_mana_spell():
    G = game(["vampire", "fairy", "naga"])
    S = G.S
    view(S).seat(0).gnome_avail = 1
    view(S).game.gnome_supply -= 1
    view(S).seat(0).inv = 0
    apply(G, 0, C.M_FREE, G.ci(0, "drain_gnome"))
    assert inv(G, 0)[C.MANA] == 1 and G.seat(0).gnome_avail == 0 and view(S).game.gnome_supply == 10
    view(S).seat(1).inv = ing(wheat=2, rye=2, barley=2)
    g1 = gold(G, 1)
    apply(G, 1, C.M_SPELL, G.ci(1, "spinning_wheel"))
    assert gold(G, 1) == g1 + 6 and sum(inv(G, 1)) == 0
    ts = give(G, 2, "transmutation_spell")
    view(S).estate(2, ts).spell_used = 1
    view(S).seat(2).inv = ing(mana_weed=1)
    ms = G.ci(2, "mana_spell")
    apply(G, 2, C.M_BREWER, ms, 0)
    assert not view(S).estate(2, ts).spell_used and inv(G, 2)[C.MANA] == 0 and view(S).estate(2, ms).locked
    check(S, G.R, SPRING_TURN)


def test_leprechaun_pot_o_gold_and_tree_men_sacred_grove_and_giant_stomper():
    G = game(["leprechaun", "tree_men", "giant"], policy="greedy")
    S, R, cfg = G.S, G.R, G.cfg
    set_judges(G, [])
    barrel = next(r for r in book(G, 0) if cfg.recipes[r]["deck"] == "barrel")
    spice = next(r for r in book(G, 0) if cfg.recipes[r]["deck"] == "spice")
    set_book(G, 0, [barrel, spice])  # one beer the Leprechaun can brew
    set_book(G, 1, [])
    set_book(G, 2, [])
    for p in view(S).seats(3):
        p.inv = 0
    for i in cfg.recipes[barrel]["need_idx"] + cfg.recipes[spice]["need_idx"]:
        view(S).seat(0).inv[i] += 1
    g0 = gold(G, 0)
    rules.fall(S, R, G.B)
    profit = cfg.recipes[barrel]["gold"] + cfg.recipes[spice]["gold"]
    assert G.seat(0).stats.beers_brewed == 1 and gold(G, 0) == g0 + profit + 1  # +1 gold per beer
    assert sum(inv(G, 0)) == 0
    check(S, R, FALL)
    set_need(G, 1, wheat=4, toadstool=1)
    apply(G, 1, C.M_BREWER, G.ci(1, "grain_fields"), 0)
    assert inv(G, 1) == list(ing(wheat=4, toadstool=1))  # Sacred Grove: one magic ingredient
    assert cfg.races[G.seat(2).race]["mash_mult"] == 2 and mash_mult(S, R, 2) == 4  # Mash Stomper: +2


def test_wizard_spell_book_casts_the_servant_spell_and_the_spinning_wheel():
    """L572: any spell card, the player's own or another's; the Servant Spell's dragon scale is
    waived, the Spinning Wheel's grains are not a magic ingredient and are paid."""
    G = game(["wizard", "fairy", "halfling"])
    S = G.S
    ss = give(G, 2, "servant_spell")
    sw = G.ci(1, "spinning_wheel")
    sb = G.ci(0, "spell_book")
    view(S).seat(0).inv = ing(wheat=3, rye=3)
    view(S).seat(0).gold = 0
    moves = legal(G, 0)
    assert (C.M_SPELLBOOK, sb, 1, sw, 0) in moves and (C.M_SPELLBOOK, sb, 2, ss, 0) in moves
    apply(G, 0, C.M_SPELLBOOK, sb, 1, sw)
    assert gold(G, 0) == 6 and sum(inv(G, 0)) == 0 and not view(S).estate(1, sw).spell_used
    check(S, G.R, SPRING_TURN)
    view(S).estate(0, sb).locked = 0  # as in a new year
    view(S).seat(0).inv = 0

    def borrows_the_halflings_grain_fields(S2):
        rules.apply_move(S2, G.R, G.B, 0, np.array([C.M_SPELLBOOK, sb, 2, ss, 0], np.int64))
        return sum(view(S2).seat(0).inv) == 6

    pin_stream(G, 0, borrows_the_halflings_grain_fields)
    apply(G, 0, C.M_SPELLBOOK, sb, 2, ss)
    assert sum(inv(G, 0)[:3]) == 6 and inv(G, 0)[C.DRAGON] == 0  # 4 + Fertile Fields 2, no scale paid
    assert not view(S).estate(2, ss).spell_used and not G.card(2, "grain_fields").locked
    check(S, G.R, SPRING_TURN)


def test_free_actions_stay_open_in_fall_and_winter_but_nothing_else():
    """L253: after spring no spell, brewer or draft action, but free actions are allowed."""
    G = game(["human", "orc"])
    S = G.S
    view(S).column("seat", "own_avail", 2)[:] = 0  # spring is over
    view(S).seat(0).gold = 3
    fm = G.ci(0, "farmers_market")
    view(S).game.flags = 0
    assert [tuple(int(x) for x in S.moves[k]) for k in range(rules.window_moves(S, G.R, 0))] == [
        (C.M_END, 0, 0, 0, 0), (C.M_FREE, fm, 0, 0, 0)]

    def window_spends(gold_left):
        def chooses(S2):
            rules.free_window(S2, G.R, G.B)
            return view(S2).seat(0).gold == gold_left
        return chooses

    def market_uses():
        return len([e for e in events(G, LOG_ABILITY) if e[3] == ability_code(G, "farmers_market")])

    pin_stream(G, 0, window_spends(2))  # the random bot buys grain once
    rules.fall(S, G.R, G.B)  # the window comes before brewing
    assert market_uses() == 1
    view(S).seat(0).gold = 1
    pin_stream(G, 0, window_spends(0))
    rules.winter(S, G.R, G.B)  # and again in winter, before the stores cut
    assert market_uses() == 2 and gold(G, 0) == 0
    check(S, G.R, WINTER)


def test_no_migrant_gnomes_for_the_rest_of_the_season_once_the_box_ran_out():
    """L228: when the purple meeples run out, no more migrant gnomes can be drafted that season,
    even after a gnome comes back (here one passed)."""
    G = game(["human", "orc"])
    S = G.S
    view(S).game.gnome_supply = 1
    view(S).column("seat", "gold", 2)[:] = 10
    offer_event(G, "migrant_gnomes", 0)
    apply(G, 0, C.M_DRAFT, 1, 0)
    assert view(S).game.gnome_supply == 0 and G.seat(0).gnome_avail == 1
    apply(G, 0, C.M_PASS, 0, fresh=False)  # the gnome goes back to the box
    assert view(S).game.gnome_supply == 1
    offer_event(G, "migrant_gnomes", 1)
    assert not rules.draftable(S, G.R, 1, 1, 1, False)
    assert not any(m[0] == C.M_DRAFT and m[1:3] == (1, 1) for m in legal(G, 1))
    view(S).game.gnomes_ran_out = 0  # a new season (spring clears the mark while meeples are left)
    assert rules.draftable(S, G.R, 1, 1, 1, False)


def test_a_quest_that_costs_a_brewer_needs_one_even_when_drafted_free():
    """L276: player brewers used to draft a quest sit on the quest card until winter; a free
    draft (Black Market) waives the gold, not the brewer."""
    G = game(["goblin", "human"])
    S = G.S
    t = offer_event(G, "quest_treasure", 0)
    assert G.R.evt[t, EF_BREWER]
    view(S).seat(0).own_avail, view(S).seat(0).gnome_avail = 0, 0
    assert not rules.draftable(S, G.R, 0, 1, 0, True)
    view(S).seat(0).own_avail = 2
    assert rules.draftable(S, G.R, 0, 1, 0, True)
    rules.do_draft(S, G.R, G.B, 0, 1, 0, True, True)
    assert G.seat(0).n_quests == 1 and G.seat(0).own_avail == 1 and G.seat(0).own_out == 1
    check(S, G.R, SPRING_TURN)
