"""Dragon Brew: the rulebook's worked examples that tests/test_dragon_brew_rules.py does not cover,
each set up as printed and played through the engine's own phase and move functions. The expected
values are the rulebook's numbers (line numbers: ../shared/rules/dragon_brew.txt)."""

from __future__ import annotations

from dragon_brew_state import (
    FALL,
    SPRING_TURN,
    C,
    ability_code,
    apply,
    check,
    events,
    game,
    gold,
    ing,
    inv,
    judge,
    legal,
    offer_event,
    pile,
    recipe,
    set_beers,
    set_book,
    set_judges,
    set_need,
    take_card,
    won,
)

from sim.dragon_brew import rules
from sim.dragon_brew.rules import LOG_ABILITY, LOG_DRAFT_BREWERY, LOG_DRAFT_EVENT
from sim.dragon_brew.state import P_DRAFT_ROW, P_LC_EVENT, view


def face_up(G, row):
    return [int(x) for x in G.S.piles[row, :G.R.p[P_DRAFT_ROW]]]


def offer_brewery(G, card_id, slot=0):
    """Brewery card `card_id` face up at `slot` of the Brewery row (the card there goes back on top
    of the Brewery deck)."""
    t = [c["id"] for c in G.cfg.brewery].index(card_id)
    take_card(G, t)
    old = int(view(G.S).piles.brewery_row[slot])
    if old >= 0:
        rules.push(G.S, C.PILE_BDECK, old)
    view(G.S).piles.brewery_row[slot] = t
    return t


def test_first_player_example_stacks_the_disks_counter_clockwise_first_player_on_top():
    # L125-127: blue drank last and starts; from the player to blue's right, counter-clockwise,
    # yellow and then red stack their disks, blue's goes on top: blue 1st, red 2nd, yellow last.
    blue, red, yellow = 0, 1, 2  # seats clockwise from the first player
    G = game(["human", "orc", "dwarf"])
    assert [int(x) for x in view(G.S).game.order[:3]] == [blue, red, yellow]
    stamp = {s: G.seat(s).stamp for s in (blue, red, yellow)}
    assert stamp[yellow] < stamp[red] < stamp[blue]  # a later stamp lies higher in the stack


def test_clearing_the_draft_example_one_gold_five_new_cards_and_she_may_still_draft():
    # L169-173: the Halfling pays a gold, five cards of the pool are replaced, and she may draft.
    G = game(["halfling", "orc"])
    view(G.S).game.flags = 0
    before = gold(G, 0)
    discards = len(pile(G.S, C.PILE_BDISC)) + len(pile(G.S, C.PILE_EDISC))
    assert (C.M_CLEAR, 0, 0, 0, 0) in legal(G, 0)
    apply(G, 0, C.M_CLEAR, fresh=False)
    assert gold(G, 0) == before - 1
    assert len(pile(G.S, C.PILE_BDISC)) + len(pile(G.S, C.PILE_EDISC)) == discards + 5
    assert all(t >= 0 for row in (C.ROW_BREWERY, C.ROW_EVENT) for t in face_up(G, row))  # refilled
    moves = legal(G, 0)
    assert any(m[0] == C.M_DRAFT for m in moves)  # she now has the option to draft
    assert (C.M_CLEAR, 0, 0, 0, 0) not in moves  # once per turn
    check(G.S, G.R, SPRING_TURN)


def test_mana_mountain_drafting_example_three_gold_into_the_estate_usable_at_once():
    # L193-195: the Halfling drafts Mana Mountain for three gold; it joins her estate at once.
    G = game(["halfling", "orc"])
    t = offer_brewery(G, "mana_mountain")
    G.seat(0).gold = 5
    apply(G, 0, C.M_DRAFT, 0, 0)
    assert gold(G, 0) == 5 - 3
    assert events(G, LOG_DRAFT_BREWERY)[-1][1:] == (0, 1, t, LOG_DRAFT_BREWERY, 3)
    mm = G.ci(0, "mana_mountain")
    assert mm >= 0 and view(G.S).piles.brewery_row[0] >= 0  # in her estate; the row slot refilled
    view(G.S).game.flags = 0
    assert (C.M_BREWER, mm, 0, 0, 0) in legal(G, 0)  # available for use immediately
    apply(G, 0, C.M_BREWER, mm, 0)
    assert inv(G, 0)[C.MANA] == 1
    check(G.S, G.R, SPRING_TURN)


def test_traders_event_example_one_gold_for_one_grain_of_each_type():
    # L273: spend one gold, collect three grain, one of each type.
    G = game(["halfling", "orc"])
    t = offer_event(G, "traders_grain")
    G.seat(0).gold = 3
    G.seat(0).inv = 0
    apply(G, 0, C.M_DRAFT, 1, 0)
    assert gold(G, 0) == 2 and inv(G, 0)[:3] == [1, 1, 1] and sum(inv(G, 0)) == 3
    assert events(G, LOG_DRAFT_EVENT)[-1][1:] == (0, 1, int(G.R.p[P_LC_EVENT]) + t, LOG_DRAFT_EVENT, 1)
    check(G.S, G.R, SPRING_TURN)


def test_beer_festival_event_example_any_magic_ingredient_for_six_gold():
    # L274: discard any magic ingredient, collect six gold.
    G = game(["halfling", "orc"])
    offer_event(G, "festival_magic")
    G.seat(0).gold = 0
    G.seat(0).inv = ing(toadstool=1)
    assert (C.M_DRAFT, 1, 0, 0, 0) in legal(G, 0)
    apply(G, 0, C.M_DRAFT, 1, 0)
    assert gold(G, 0) == 6 and sum(inv(G, 0)) == 0
    G.seat(0).inv = ing(wheat=3)  # grain is not a magic ingredient
    offer_event(G, "festival_magic")
    view(G.S).game.flags = 0
    assert (C.M_DRAFT, 1, 0, 0, 0) not in legal(G, 0)
    check(G.S, G.R, SPRING_TURN)


def test_profit_collection_example_three_beers_pay_seven_gold_and_four_vp():
    # L386: the Halfling's three beers earn her seven gold and four VP. Six estimated recipe cards
    # whose printed profits add up to that, brewed by the bot and paid in the Fall phase itself.
    # max_spices bounds the bot's beer search (the rules set none): at 1 it brews barrel + spice
    # pairs, three beers, instead of putting two spices in one beer and leaving a barrel over.
    G = game(["halfling", "orc"], policy="greedy", sets=("max_spices=1",))
    cards = ["dunkel", "misty_stout", "misty_tripel", "glowing", "troll_bock", "pale_ale"]
    set_book(G, 0, [recipe(G.cfg, r) for r in cards])
    set_book(G, 1, [])
    G.seat(0).inv = ing(barley=5, rye=2, wheat=1, orange_wort=2)
    set_judges(G, [])  # no judge: the VP are the beers' profit alone
    G.seat(0).gold = G.seat(0).vp = 0
    rules.fall(G.S, G.R, G.B)
    assert G.seat(0).n_beers == 3
    assert (gold(G, 0), G.seat(0).vp) == (7, 4)
    check(G.S, G.R, FALL)


def test_horse_guests_example_the_centaur_takes_the_goblins_black_market_action():
    # L458: the Centaur puts his brewer on Horse Guests and takes the Goblin's Black Market action:
    # a card drafted for nothing; the Goblin's card is not used up.
    G = game(["centaur", "goblin"], policy="greedy")
    hg, bm = G.ci(0, "horse_guests"), G.ci(1, "black_market")
    offer_brewery(G, "mana_mountain")
    G.seat(0).gold = 0  # nothing to pay with: only a free draft can bring a card
    view(G.S).game.flags = 0
    guest = next(m for m in legal(G, 0) if m[:4] == (C.M_GUEST, hg, 1, bm))
    set_need(G, 0, mana_weed=1)
    before = len(events(G, LOG_DRAFT_BREWERY)) + len(events(G, LOG_DRAFT_EVENT))
    apply(G, 0, *guest, fresh=False)
    drafts = (events(G, LOG_DRAFT_BREWERY) + events(G, LOG_DRAFT_EVENT))[before:]
    assert len(drafts) == 1 and drafts[0][1] == 0 and drafts[0][5] == 0  # the Centaur's, free
    assert G.seat(0).stats.cards_drafted == 1
    assert G.card(0, "horse_guests").own == 1  # the brewer stands on Horse Guests
    assert G.card(1, "black_market").own == 0 and not G.card(1, "black_market").locked
    hg_code = ability_code(G, "horse_guests")
    assert any(e[1] == 0 and e[3] == hg_code for e in events(G, LOG_ABILITY))
    check(G.S, G.R, SPRING_TURN)


def test_ogre_ruled_example_the_ogre_wins_a_bitterness_tie_on_tombo():
    # L560: the Ogre's brewer on Tombo (primary bitterness) wins a tie on bitterness; the
    # secondary characteristic is ignored; the meeple leaves Tombo once he has awarded his points.
    G = game(["ogre", "human"])
    tombo = judge(G.cfg, "tombo")
    assert G.cfg.judges[tombo]["primary"] == "bitterness"
    set_judges(G, [tombo])
    og = G.ci(0, "ogre_ruled")
    view(G.S).game.flags = 0
    assert (C.M_OGRE, og, 0, 0, 0) in legal(G, 0)
    apply(G, 0, C.M_OGRE, og, 0, fresh=False)
    assert view(G.S).piles.ogre[0] == 0
    # Tied on bitterness; the Human's beer is better on Tombo's secondary (low strength).
    set_beers(G, 0, [(1, 3, 1)])
    set_beers(G, 1, [(1, 0, 1)])
    rules.judge_all(G.S, G.R)
    assert won(G, 0) == [True] and won(G, 1) == [False]
    assert (G.seat(0).vp, G.seat(1).vp) == (G.cfg.judges[tombo]["vp"], 0)
    assert view(G.S).piles.ogre[0] == -1  # the brewer is off the judge after the award


def test_tree_men_have_seven_cards_the_magic_trader_missing():
    # L606: the Tree Men alone have 7 cards (the others 8: race card, ability, six common cards,
    # L234). The estate here is the cards beside the race card: 6 for the Tree Men, 7 for the rest.
    G = game(["tree_men", "human"])
    assert (G.seat(0).n_cards, G.seat(1).n_cards) == (6, 7)
    assert G.ci(0, "magic_trader") == -1 and G.ci(0, "sacred_grove") >= 0
    assert not any(m[0] == C.M_BREWER and view(G.S).estate(0, m[1]).key == C.MAGIC_TRADER for m in legal(G, 0))
    W = game(["tree_men", "human"], sets=("races.tree_men.lacks=0",))  # the other reading
    assert W.seat(0).n_cards == 7 and W.ci(0, "magic_trader") >= 0


def test_printed_beer_scale_one_point_a_card_and_the_written_scale_as_a_switch():
    # L358, L392: Sneaky Glowing Dunkel is three cards with three points (colour 2, strength 1).
    new, old = game(["human", "orc"]).cfg, game(["human", "orc"], sets=("char_scale=0",)).cfg
    assert all(sum(r["chars"]) == 1 for r in new.recipes)
    assert all(r["chars"] == (r["color"], r["strength"], r["bitterness"]) for r in old.recipes)
    beer = ("dunkel", "sneaky", "glowing")
    assert [sum(r["chars"][k] for r in new.recipes if r["id"] in beer) for k in range(3)] == [2, 1, 0]
