"""Homebrewers' treatments and offers (issue 14): inject, remove and power_off at setup, the
neutral card, the treated seat's rotation, offer events, and bad treatment options.

Setups are read by name (sim/homebrewers/state.view) after `kernel.setup_game`, the part of
every game before its first month; whole games come from GAME.simulate.
"""

import numpy as np
import polars as pl
import pytest
from homebrewers_state import blank, config

from sim.core.errors import UsageError
from sim.core.treatment import treated_seat
from sim.homebrewers import GAME
from sim.homebrewers import constants as C
from sim.homebrewers import invariants as inv
from sim.homebrewers import kernel as K
from sim.homebrewers import policies as pol
from sim.homebrewers import rules as ru
from sim.homebrewers.state import make_state, view

SEED = 7
BOTS = ["greedy", "random"]


def treat(kind, target):
    return {"treatment": {"kind": kind, "target": target}}


def set_up(cfg, game_id, n=4, options=None):
    """(rules, state) of game game_id (n players, greedy bots) after its setup."""
    R, X = GAME.kernel_inputs(cfg, GAME.check_options(cfg, [n], options))
    S = make_state(2000)
    pols = np.full(C.MAX_PLAYERS, cfg.policy_index("greedy"), np.int64)
    K.setup_game(S, R, X, n, pols, np.uint64(SEED), game_id, game_id, 1)
    return R, S


def hand(S, seat):
    return {c for c in range(C.CARD_SLOTS) if view(S).card(c).loc == C.LOC_HAND and view(S).card(c).owner == seat}


def deck(S):
    return list(view(S).pile.deck[:view(S).game.deck_n])


def offers(S):
    rows = S.ev[:view(S).game.events]
    return rows[rows[:, 4] == C.LOG_OFFER]


# --- inject ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", range(6))
def test_inject_gives_the_treated_seat_one_extra_copy_and_deals_everything_else_alike(game_id):
    cfg = config()
    _, plain = set_up(cfg, game_id)
    R, treated = set_up(cfg, game_id, options=treat("inject", "chocolate"))
    t = treated_seat(game_id, 4, 1)
    assert view(treated).game.treated == t and view(plain).game.treated == -1
    assert R.phys[C.SPARE] == cfg.card_ids.index("chocolate")
    assert hand(treated, t) == hand(plain, t) | {C.SPARE}
    for s in range(4):
        if s != t:
            assert hand(treated, s) == hand(plain, s)
    assert deck(treated) == deck(plain)
    assert list(view(treated).pile.row[:C.ROW]) == list(view(plain).pile.row[:C.ROW])
    assert inv.check_cards(treated, 4) == inv.OK  # 55 cards in play, the spare among them


def test_without_inject_the_spare_card_stays_out_of_play():
    _, S = set_up(config(), 0)
    assert view(S).card(C.SPARE).loc == C.LOC_OUT and C.SPARE not in hand(S, 0)
    assert inv.check_cards(S, 4) == inv.OK


def test_a_lost_deck_card_breaks_card_conservation():
    _, S = set_up(config(), 0, options=treat("inject", "honey"))
    c = deck(S)[-1]
    view(S).card(c).loc = C.LOC_OUT  # only the spare may be out of play
    assert inv.check_cards(S, 4) == inv.CARDS


@pytest.mark.parametrize("n", [2, 3, 5])
def test_treated_seat_rotates_so_each_seat_is_treated_equally_often(n):
    games = GAME.simulate(config(), SEED, 0, 2 * n * 10, [n], BOTS, options=treat("inject", "maple")).frames["games"]
    counts = games["treated_seat"].value_counts().sort("treated_seat")
    assert counts["treated_seat"].to_list() == list(range(n))
    assert counts["count"].to_list() == [20] * n


# --- remove and the neutral card -----------------------------------------------------------------------

@pytest.mark.parametrize("game_id", range(4))
def test_remove_puts_the_neutral_card_in_every_place_of_the_card_and_keeps_the_deal(game_id):
    cfg = config()
    choc, neutral = cfg.card_ids.index("chocolate"), len(cfg.card_ids)
    R0, plain = set_up(cfg, game_id)
    R, treated = set_up(cfg, game_id, options=treat("remove", "chocolate"))
    assert choc not in R.phys
    assert list(np.flatnonzero(R.phys[:C.DECK] == neutral)) == list(np.flatnonzero(cfg.phys == choc))
    assert (R.phys[:C.DECK] == neutral).sum() == cfg.cards[choc, C.CF_COUNT]
    unchanged = R.phys[:C.DECK] != neutral
    assert (R.phys[:C.DECK][unchanged] == R0.phys[:C.DECK][unchanged]).all()
    assert deck(treated) == deck(plain)  # the same physical cards in the same order
    for s in range(4):
        assert hand(treated, s) == hand(plain, s)


def test_a_removed_card_never_appears_and_the_neutral_card_is_offered_in_its_place():
    ev = GAME.simulate(config(), SEED, 0, 200, [2, 3, 4, 5], BOTS, options=treat("remove", "raspberry")).frames["events"]
    card = pl.col("card").cast(pl.String)
    assert ev.filter(card == "raspberry").height == 0
    assert ev.filter((pl.col("kind") == "offer") & (card == C.NEUTRAL_ID)).height > 0


def test_the_neutral_card_under_a_recipe_changes_nothing_in_a_brew_or_at_the_judges():
    cfg, _, plain, pols = blank(4)
    R, _ = GAME.kernel_inputs(cfg, GAME.check_options(cfg, [4], treat("remove", "chocolate")))
    _, _, with_blank, _ = blank(4)
    blank_card = int(np.flatnonzero(R.phys == len(cfg.card_ids))[0])
    view(with_blank).card(blank_card).set(loc=C.LOC_RECIPE, owner=0, recipe=0)
    for S in (plain, with_blank):
        view(S).seat(0).grain.ale = 1
        view(S).seat(0).money = 5
        K.brew(S, R, 0, pols, 0, False)
    assert (plain.pl == with_blank.pl).all() and (plain.fl == with_blank.fl).all()
    assert ru.judges_total(with_blank, R, 0, False) == ru.judges_total(plain, R, 0, False)
    assert inv.check_flavors(with_blank, R, 4) == inv.OK
    assert pol.top_value(with_blank, R, 0, pols[0], C.T_NONE) == 0.0


# --- power_off -----------------------------------------------------------------------------------------

def power_use(frames, character):
    """(player rows holding the character, their powers_used total, its power events)."""
    holders = frames["players"].filter(pl.col("faction") == character)
    powers = frames["events"].filter((pl.col("kind") == "power") & (pl.col("card") == character))
    return holders.height, holders["powers_used"].sum(), powers.height


@pytest.fixture(scope="module")
def untreated():
    return GAME.simulate(config(), SEED, 0, 300, [2, 3, 4, 5], BOTS).frames


@pytest.mark.parametrize("character", C.CHARACTERS)
def test_power_off_means_the_power_is_never_used_while_untreated_it_is(character, untreated):
    treated = GAME.simulate(config(), SEED, 0, 300, [2, 3, 4, 5], BOTS, options=treat("power_off", character)).frames
    plain, off = power_use(untreated, character), power_use(treated, character)
    assert off[0] == plain[0] > 0  # the same seats hold the character
    assert off[1:] == (0, 0)
    assert plain[1] > 0 and plain[2] > 0


def test_power_off_keeps_the_characters_garage():
    _, S = set_up(config(), 3, options=treat("power_off", "tony"))
    _, plain = set_up(config(), 3)
    assert (S.pl[:, C.FACTION] == plain.pl[:, C.FACTION]).all()
    for s in range(4):
        assert view(S).seat(s).power_off == (view(S).seat(s).faction == C.TONY)
        assert view(S).seat(s).covered == view(plain).seat(s).covered


# --- offers -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id,n", [(0, 2), (1, 3), (2, 4), (3, 5)])
def test_opening_offers_are_the_opening_hand_and_row_and_the_only_amount_one_offers(game_id, n):
    R, S = set_up(config(), game_id, n)
    rows = offers(S)
    assert (rows[:, 5] == 1).all() and (rows[:, 2] == 1).all()  # amount 1, month 1
    for s in range(n):
        mine = rows[rows[:, 1] == s]
        dealt = sorted(R.phys[c] for c in hand(S, s))
        assert sorted(mine[mine[:, 6] == C.OFFER_DECK, 3]) == dealt and len(dealt) == 2
        row = mine[mine[:, 6] < C.ROW]
        assert [(t, R.phys[view(S).pile.row[t]]) for t in range(C.ROW)] == [(t, c) for t, c in row[:, [6, 3]]]


def test_only_the_deal_is_offered_though_cards_are_drawn_later():
    # Later rows, draws and Evie's cards depend on play, so they are not logged (no analysis
    # reads them): a seat's offers are its opening hand and the opening row, amount 1.
    f = GAME.simulate(config(), SEED, 0, 120, [2, 3, 4, 5], BOTS).frames
    ev, games = f["events"], f["games"]
    offer = ev.filter(pl.col("kind") == "offer")
    per_game = offer.group_by("game_id").len().join(games.select("game_id", "n_players"), on="game_id")
    assert (per_game["len"] == per_game["n_players"] * (2 + C.ROW)).all() and (offer["amount"] == 1).all()
    assert ev.filter(pl.col("kind") == "draw").height > 0


# --- options and invariants ----------------------------------------------------------------------------

@pytest.mark.parametrize("variant,options,named", [
    ("characters", treat("inject", "unicorn"), "chocolate"),
    ("characters", treat("power_off", "charlie"), "tony"),
    ("characters", treat("steal", "chocolate"), "power_off"),
    ("standard", treat("power_off", "tony"), "inject, remove"),
])
def test_a_bad_treatment_is_a_one_line_usage_error_naming_the_choices(variant, options, named):
    with pytest.raises(UsageError) as err:
        GAME.simulate(config(variant), SEED, 0, 10, [4], BOTS, options=options)
    assert named in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("options", [treat("inject", "vanilla"), treat("remove", "maple"),
                                     treat("power_off", "katherine")])
def test_invariants_hold_under_every_treatment_kind(options):
    shard = GAME.simulate(config(), 3, 0, 200, [2, 3, 4, 5], BOTS, check=True, options=options)
    assert shard.frames["games"].height == 200


def test_treatable_lists_the_flavor_cards_and_in_the_characters_variant_the_characters():
    cfg = config()
    assert GAME.treatable(cfg) == {"inject": [*cfg.card_ids, C.NEUTRAL_ID], "remove": cfg.card_ids,
                                   "power_off": list(C.CHARACTERS)}
    assert "power_off" not in GAME.treatable(config("standard"))
    assert set(GAME.treatment_notes()) == {"inject", "remove", "power_off"}


@pytest.mark.parametrize("options", [treat("inject", "caramel"), treat("power_off", "evie")])
def test_a_treated_run_is_the_same_for_the_same_seed_and_differs_from_the_untreated_one(options):
    cfg = config()
    a = GAME.simulate(cfg, 5, 0, 60, [3, 4], BOTS, options=options).frames
    b = GAME.simulate(cfg, 5, 0, 60, [3, 4], BOTS, options=options).frames
    plain = GAME.simulate(cfg, 5, 0, 60, [3, 4], BOTS).frames
    for table in ("games", "players", "events"):
        assert a[table].equals(b[table])
    assert not a["players"].equals(plain["players"])
