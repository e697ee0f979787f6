"""Brewin' USA treatments and offers (issue 14): inject and remove leave every other draw as in
the untreated game, the treated seat rotates evenly, the neutral card is worth nothing, offers
logged at setup are the real opening hands and first batches, bad targets are refused, and the
invariants hold under every kind."""

import numpy as np
import polars as pl
import pytest
from brewin_usa_state import blank, config, hand, to_hand

from sim.brewin_usa import GAME, NEUTRAL
from sim.brewin_usa import constants as C
from sim.brewin_usa import kernel as K
from sim.brewin_usa import policies as pol
from sim.brewin_usa import rules as ru
from sim.brewin_usa.state import make_rules, make_state, view
from sim.core.errors import UsageError

TARGET = "golden_pils"


def x_of(cfg, kind=None, target=TARGET):
    options = {"treatment": {"kind": kind, "target": target}} if kind else {}
    return GAME.kernel_inputs(cfg, options)[1]


def set_up(cfg, X, n, seed, game_id, treated=-1):
    """A game's state right after setup (K.setup: deal, treatment, redraws) with bots that
    never redraw, so only the treatment can make it differ from the untreated setup."""
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 1000)
    pols = np.full(C.MAX_PLAYERS, cfg.policy_ids.index("greedy"), np.int64)
    S.g[:] = 0
    S.g[C.G_N], S.g[C.G_TREATED] = n, treated
    K.seed_streams(S, np.uint64(seed), game_id)
    K.setup(S, R, X, n, pols, game_id, treated)
    return R, S


NO_REDRAW = ["policies.greedy.redraw_req_sum=36"]  # no beer in the data needs more


def in_hand(S, seat):
    return {b for b in range(C.BEER_SLOTS) if view(S).beer(b).loc == C.LOC_HAND and view(S).beer(b).owner == seat}


@pytest.mark.parametrize("seed,n,seat", [(1, 2, 1), (5, 4, 0), (9, 5, 3)])
def test_inject_gives_the_treated_seat_one_extra_copy_and_changes_no_other_card(seed, n, seat):
    cfg = config(NO_REDRAW)
    _, plain = set_up(cfg, x_of(cfg), n, seed, 3)
    R, treated = set_up(cfg, x_of(cfg, "inject"), n, seed, 3, seat)
    extra = view(treated).beer(C.INJECT_SLOT)
    assert (extra.loc, extra.owner, extra.type) == (C.LOC_HAND, seat, cfg.beer_ids.index(TARGET))
    assert in_hand(treated, seat) == in_hand(plain, seat) | {C.INJECT_SLOT}
    assert view(plain).beer(C.INJECT_SLOT).loc == C.LOC_OUT
    # every card of the deck where it was, every pile and hand and random stream the same
    assert np.array_equal(treated.beer[:C.BEER_DECK], plain.beer[:C.BEER_DECK])
    for name in ("piles", "hand", "rng", "city"):
        assert np.array_equal(getattr(treated, name), getattr(plain, name)), name
    assert ru.beers_in_hand(treated, seat) == 4


def test_remove_puts_the_neutral_card_in_every_place_of_the_card_and_nowhere_else():
    # two copies of the target (one fewer of another beer, so the deck stays 36)
    cfg = config(["beer_cards.golden_pils.count=2", "beer_cards.lakeshore_lager.count=0"])
    R, target = make_rules(cfg), cfg.beer_ids.index(TARGET)

    def deal(remove):  # K.setup's steps before the redraws (a bot would swap a blank card away)
        S = make_state(len(cfg.ing_ids), 1000)
        K.seed_streams(S, np.uint64(2), 0)
        ru.setup_decks(S, R, 4)
        if remove:
            ru.remove_beer_type(S, R, target)
        ru.setup_players(S, R, 4, 0)
        return S

    plain, removed = deal(False), deal(True)
    neutral = ru.neutral_type(R)
    before, after = plain.beer[:C.BEER_DECK, C.B_TYPE], removed.beer[:C.BEER_DECK, C.B_TYPE]
    assert (before == target).sum() == 2
    assert np.array_equal(after == neutral, before == target)  # the same places, the same count
    assert not (after == target).any()
    keep = before != target
    assert np.array_equal(after[keep], before[keep])
    cols = [C.B_LOC, C.B_OWNER, C.B_CITY]
    assert np.array_equal(removed.beer[:, cols], plain.beer[:, cols])  # dealt exactly as before
    assert np.array_equal(removed.piles, plain.piles)


def test_remove_target_list_is_the_beers_in_the_deck():
    cfg = config(["beer_cards.golden_pils.count=2", "beer_cards.lakeshore_lager.count=0"])
    assert "lakeshore_lager" not in GAME.treatable(cfg)["remove"]
    assert "lakeshore_lager" in GAME.treatable(cfg)["inject"]


def test_the_neutral_card_is_never_launched_and_worth_nothing_to_a_bot():
    cfg, R, S = blank(2)
    p = cfg.policy_ids.index("greedy")
    for card in ("grain_5", "water_5", "hops_5", "yeast_5", "organic_3", "organic_3"):
        hand(cfg, S, 0, card)
    to_hand(cfg, S, 0, "harbor_helles")
    worth = pol.held_value(S, R, 0, p)
    b = to_hand(cfg, S, 0, TARGET)
    view(S).beer(b).type = ru.neutral_type(R)
    ru.hand_profile(R, view(S).seat(0).hand, S.scratch[C.SC_PROFILE])
    assert not pol.can_launch_new(S, R, 0, b, S.scratch[C.SC_PROFILE])
    assert pol.held_value(S, R, 0, p) == worth
    k = ru.seat_beers(S.beer, 0, ru.IN_HAND, S.vals)
    assert S.vals[pol.discard_choice(S, R, 0, p, k)] == b  # the first card to go
    assert pol.wants_redraw(S, R, 0, p, b)


def test_removed_card_never_appears_and_the_neutral_card_is_dealt_but_never_played():
    cfg = config()
    opts = {"treatment": {"kind": "remove", "target": TARGET}}
    events = GAME.simulate(cfg, 4, 0, 300, [2, 3, 4, 5], ["greedy", "random"], check=True, options=opts).frames["events"]
    cards = events["card"].cast(pl.Utf8)
    assert (cards == TARGET).sum() == 0
    neutral = events.filter(cards == NEUTRAL)
    assert len(neutral) > 0 and set(neutral["kind"].cast(pl.Utf8)) == {"offer"}


@pytest.mark.parametrize("counts,bots", [([3], ["greedy", "random"]), ([2, 4], ["greedy", "challenger", "random"])])
def test_treated_seat_rotates_so_each_seat_meets_each_bot_equally_often(counts, bots):
    cfg = config()
    cycle = sum(len(bots) * n for n in counts)  # P x n positions of every count
    shard = GAME.simulate(cfg, 3, 0, 2 * cycle * len(counts), counts, bots,
                          options={"treatment": {"kind": "inject", "target": TARGET}})
    games, players = shard.frames["games"], shard.frames["players"]
    treated = games.join(players, left_on=["game_id", "treated_seat"], right_on=["game_id", "seat"])
    for n in counts:
        t = treated.filter(pl.col("n_players") == n)
        per_seat = t.group_by("treated_seat").len()["len"]
        assert len(per_seat) == n and per_seat.n_unique() == 1
        per_bot = t.group_by("treated_seat", "policy").len()["len"]
        assert len(per_bot) == n * len(bots) and per_bot.n_unique() == 1


def test_untreated_runs_have_no_treated_seat():
    games = GAME.simulate(config(), 3, 0, 40, [2, 5], ["greedy"]).frames["games"]
    assert games["treated_seat"].to_list() == [-1] * 40


def opening(cfg, seed, game_id, n):
    """The beers each seat is dealt and the face-up adjuncts of the first round's batches, from
    the rules functions themselves (the redraws touch neither the deal nor the ingredient deck)."""
    R, S = make_rules(cfg), make_state(len(cfg.ing_ids), 1000)
    S.g[C.G_N] = n
    K.seed_streams(S, np.uint64(seed), game_id)
    ru.setup_decks(S, R, n)
    ru.setup_players(S, R, n, game_id)
    dealt = {s: sorted(cfg.beer_ids[view(S).beer(b).type] for b in in_hand(S, s)) for s in range(n)}
    batches = []
    for b in range(n):
        ru.build_batch(S, R, b)
        row = view(S).batch(b)
        batches += [(b, "adjunct_" + C.KINDS[R.ing[t, C.IF_KIND]]) for i, t in enumerate(row.cards[:row.n])
                    if i != row.hidden and R.ing[t, C.IF_KIND] >= C.BERRY]
    return dealt, sorted(batches)


def test_fixed_offers_are_the_opening_hands_and_the_first_batches():
    cfg = config()
    counts = [2, 3, 4, 5]
    events = GAME.simulate(cfg, 7, 0, 8, counts, ["random", "greedy"]).frames["events"]
    fixed = events.filter((pl.col("kind") == "offer") & (pl.col("amount") == 1))
    assert set(fixed["round"]) == {0}
    for g in range(8):
        n = counts[g % 4]
        dealt, batches = opening(cfg, 7, g, n)
        mine = fixed.filter(pl.col("game_id") == g).with_columns(pl.col("card").cast(pl.Utf8))
        for s in range(n):
            seat = mine.filter(pl.col("seat") == s)
            assert sorted(seat.filter(pl.col("target") == -1)["card"]) == dealt[s]
            assert sorted(seat.filter(pl.col("target") >= 0).select("target", "card").rows()) == batches


def test_only_the_deal_is_offered_though_beers_are_drawn_and_batches_laid_out_later():
    # Later draws and batches depend on play, so they are not logged (no analysis reads them).
    events = GAME.simulate(config(), 7, 0, 40, [4], ["greedy"]).frames["events"]
    offers = events.filter(pl.col("kind") == "offer")
    assert (offers["amount"] == 1).all() and (offers["round"] == 0).all()
    # the games went on: beers launched (each followed by draws) and batches bought after round 0
    later = events.filter(pl.col("round") >= 1)
    assert later.filter(pl.col("kind") == "play").height > 0 and later.filter(pl.col("kind") == "buy").height > 0


@pytest.mark.parametrize("treat,named", [
    ({"kind": "inject", "target": "no_such_beer"}, "golden_pils"),
    ({"kind": "remove", "target": "batch"}, "golden_pils"),
    ({"kind": "power_off", "target": "none"}, "inject, remove"),
])
def test_a_bad_treatment_is_one_line_naming_the_choices(treat, named):
    with pytest.raises(UsageError) as err:
        GAME.check_options(config(), [4], {"treatment": treat})
    assert "\n" not in str(err.value) and named in str(err.value)


def test_no_power_off_without_factions():
    assert set(GAME.treatable(config())) == {"inject", "remove"}
    assert set(GAME.treatment_notes()) == {"inject", "remove"}


@pytest.mark.parametrize("kind", [None, "inject", "remove"])
def test_invariants_hold_under_every_treatment(kind):
    """What `simulate --check` runs: any violation raises."""
    opts = {"treatment": {"kind": kind, "target": "dark_bock" if kind else None}} if kind else None
    games = GAME.simulate(config(), 21, 0, 300, [2, 3, 4, 5], ["greedy", "random"], check=True,
                          options=opts).frames["games"]
    assert len(games) == 300
    assert (games["treated_seat"] >= 0).all() == (kind == "inject")
