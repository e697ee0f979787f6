"""Dwarfest's treatment hooks (issue 14) and offer events: inject, remove, the balanced treated
seat, the neutral card, and the opening-hand offers that make randomised-availability card value
possible. Dwarfest has no factions, so power_off is refused."""

import numpy as np
import polars as pl
import pytest
from dwarfest_state import card, config

from sim.core.errors import UsageError
from sim.dwarfest import GAME
from sim.dwarfest import constants as C
from sim.dwarfest import invariants as inv
from sim.dwarfest import kernel as K
from sim.dwarfest.data import NEUTRAL
from sim.dwarfest.state import make_state, view

BOTS = ["greedy", "random", "cautious"]


def treat(kind, target):
    return {"treatment": {"kind": kind, "target": target}}


def set_up(cfg, options, n=4, seed=11, game_id=3, treated=-1):
    """A state after the kernel's setup (shuffle, treatment, deal) of one game."""
    R, X = GAME.kernel_inputs(cfg, GAME.check_options(cfg, [n], options))
    S = make_state(len(cfg.cards.ids), 1000)
    view(S).game.n = n
    K.seed_streams(S, np.uint64(seed), game_id)
    K.setup(S, R, X, n, game_id, treated)
    return R, S


def deck(S):
    return view(S).piles.tavern_deck[:view(S).game.tavern_deck].copy()


def opening_offers(events):
    return events.filter((pl.col("kind") == "offer") & (pl.col("amount") == 1))


# --- inject -------------------------------------------------------------------------------

def test_inject_puts_one_extra_copy_in_the_treated_seat_hand_and_leaves_the_deal_alone():
    cfg = config()
    _, plain = set_up(cfg, {})
    R, treated = set_up(cfg, treat("inject", "brewmaster"), treated=2)
    bm = card(cfg, "brewmaster")
    for seat in range(4):
        extra = np.zeros(len(cfg.cards.ids), np.int64)
        extra[bm] = seat == 2
        assert (view(treated).seat(seat).hand == view(plain).seat(seat).hand + extra).all()
    assert (deck(treated) == deck(plain)).all()  # every later draw is the untreated game's
    assert (treated.rng == plain.rng).all()  # no random number was used for the copy
    assert (view(treated).game.injected, view(treated).game.treated) == (1, 2)
    assert inv.check_state(treated, R, 4) == inv.OK  # six cards and 62 in play are allowed


def test_the_injected_copy_is_the_only_excess_the_invariants_allow():
    cfg = config()
    R, S = set_up(cfg, treat("inject", "bouncer"), treated=1)
    view(S).seat(0).hand[card(cfg, "bouncer")] += 1  # a sixth card for an untreated seat
    view(S).game.tavern_deck -= 1
    assert inv.check_state(S, R, 4) == inv.HAND_SIZE
    R, S = set_up(cfg, treat("inject", "bouncer"), treated=1)
    view(S).game.injected = 0  # the copy no longer accounted for
    assert inv.check_state(S, R, 4) != inv.OK


def test_inject_runs_deal_the_same_opening_hands_apart_from_the_treated_copy():
    cfg = config()
    plain = GAME.simulate(cfg, 5, 0, 60, [2, 4], BOTS).frames
    treated = GAME.simulate(cfg, 5, 0, 60, [2, 4], BOTS, options=treat("inject", "skald")).frames
    assert opening_offers(treated["events"]).equals(opening_offers(plain["events"]))
    assert (plain["games"]["treated_seat"] == -1).all()
    got = treated["games"].select("game_id", "n_players", "treated_seat")
    assert ((got["treated_seat"] >= 0) & (got["treated_seat"] < got["n_players"])).all()


@pytest.mark.parametrize("counts", [[4], [2, 3]])
def test_the_treated_seat_rotates_so_each_seat_meets_each_bot_equally_often(counts):
    cfg = config()
    per_count = len(BOTS) * 2 * 3 * 4  # a whole number of P*n cycles at n = 2, 3, 4
    f = GAME.simulate(cfg, 9, 0, per_count * len(counts), counts, BOTS, options=treat("inject", "barmaid")).frames
    seats = f["games"].group_by("n_players", "treated_seat").len()
    for n, group in seats.group_by("n_players"):
        assert sorted(group["treated_seat"]) == list(range(n[0]))
        assert group["len"].n_unique() == 1  # each seat treated equally often
    bots = (f["games"].join(f["players"], left_on=["game_id", "treated_seat"], right_on=["game_id", "seat"])
            .group_by("n_players", "treated_seat", "policy").len())
    assert bots.height == sum(n * len(BOTS) for n in counts)  # every (seat, bot) pair occurs...
    for _, group in bots.group_by("n_players"):
        assert group["len"].n_unique() == 1  # ...equally often


# --- remove -------------------------------------------------------------------------------

def test_remove_puts_the_neutral_card_in_every_place_of_the_removed_one():
    cfg = config()
    _, plain = set_up(cfg, {})
    R, removed = set_up(cfg, treat("remove", "bouncer"))
    b, blank = card(cfg, "bouncer"), card(cfg, NEUTRAL)
    was = deck(plain) == b
    assert was.any()
    assert (deck(removed)[was] == blank).all() and (deck(removed)[~was] == deck(plain)[~was]).all()
    for seat in range(4):
        before, after = view(plain).seat(seat).hand, view(removed).seat(seat).hand
        assert after[b] == 0 and after[blank] == before[b]
        assert (np.delete(after, [b, blank]) == np.delete(before, [b, blank])).all()
    copies = (deck(removed) == blank).sum() + sum(view(removed).seat(s).hand[blank] for s in range(4))
    assert copies == cfg.cards.count[b] == 12  # same count
    assert R.card[blank, C.CF_COST] == R.card[b, C.CF_COST]  # same price, no effect
    assert not R.card[blank, [C.CF_INCOME, C.CF_FAME, C.CF_BRAWL, C.CF_SEATS, C.CF_BOUNCER, C.CF_EVENT]].any()
    assert inv.check_state(removed, R, 4) == inv.OK


def test_a_removed_card_never_appears_in_a_run_and_the_neutral_card_does():
    cfg = config()
    ev = GAME.simulate(cfg, 3, 0, 100, [3, 5], BOTS, options=treat("remove", "golden_tap")).frames["events"]
    assert ev.filter(pl.col("card") == "golden_tap").height == 0
    assert ev.filter(pl.col("card") == NEUTRAL).height > 0
    plain = GAME.simulate(cfg, 3, 0, 100, [3, 5], BOTS).frames["events"]
    assert plain.filter(pl.col("card") == NEUTRAL).height == 0


# --- what can be treated, and bad input ---------------------------------------------------------

def test_any_tavern_card_can_be_treated_the_neutral_one_only_injected_and_there_is_no_power_off():
    cfg = config()
    t = GAME.treatable(cfg)
    assert set(t) == {"inject", "remove"}
    assert t["remove"] == cfg.cards.ids[:-1] and NEUTRAL not in t["remove"]
    assert t["inject"] == cfg.cards.ids  # the neutral card last: index = its type in the kernel
    assert set(GAME.treatment_notes()) == set(t)


@pytest.mark.parametrize("options, named", [
    (treat("inject", "keg"), "bouncer"),
    (treat("remove", NEUTRAL), "brewmaster"),
    (treat("power_off", "dwarves"), "inject, remove"),
])
def test_a_bad_treatment_is_a_one_line_usage_error_naming_the_choices(options, named):
    with pytest.raises(UsageError) as err:
        GAME.simulate(config(), 1, 0, 10, [4], ["greedy"], options=options)
    assert named in str(err.value) and "\n" not in str(err.value)


# --- offers -------------------------------------------------------------------------------------

def test_the_opening_offers_are_the_dealt_hands():
    cfg = config()
    seed, counts = 21, [3, 6]
    ev = opening_offers(GAME.simulate(cfg, seed, 0, 6, counts, BOTS).frames["events"])
    assert (ev["round"] == 1).all() and (ev["seat"] == ev["target"]).all()
    for game_id in range(6):
        n = counts[game_id % 2]
        _, S = set_up(cfg, {}, n=n, seed=seed, game_id=game_id)
        for seat in range(n):
            got = ev.filter((pl.col("game_id") == game_id) & (pl.col("seat") == seat))["card"].to_list()
            dealt = [cfg.cards.ids[t] for t, k in enumerate(view(S).seat(seat).hand) for _ in range(k)]
            assert sorted(got) == sorted(dealt) and len(got) == 5


@pytest.mark.parametrize("options", [{}, treat("inject", "not_today")])
def test_only_the_opening_hands_are_offers_though_later_draws_refill_the_hands(options):
    # A later draw depends on what was played and discarded before, so it is not logged (no
    # analysis reads it): each seat's offers are its opening hand, amount 1. The hands were
    # refilled all the same: more cards left them (played or discarded) than were offered.
    cfg = config()
    hand = int(cfg.params[C.P_HAND])
    for game_id in range(4):
        S, _ = GAME.play_traced(cfg, 13, game_id, [4], BOTS, options)
        rows = S.ev[:view(S).game.events]
        offers = rows[rows[:, 4] == C.LOG_OFFER]
        assert (offers[:, 5] == C.OFFER_DEALT).all()
        assert np.bincount(offers[:, 1], minlength=4).tolist() == [hand] * 4
        assert np.isin(rows[:, 4], [C.LOG_PLAY, C.LOG_DISCARD]).sum() > len(offers)


# --- invariants under every treatment -----------------------------------------------------------

@pytest.mark.parametrize("options", [{}, treat("inject", "brewmaster"), treat("inject", "not_today"),
                                     treat("remove", "bouncer"), treat("remove", "rowdy_crowd")],
                         ids=["none", "inject-character", "inject-event", "remove-character", "remove-event"])
def test_simulate_check_passes_under_each_treatment(options):
    f = GAME.simulate(config(), 7, 0, 250, [2, 3, 4, 5, 6], ["greedy", "random", "expansionist"],
                      check=True, options=options).frames
    assert f["games"].height == 250
