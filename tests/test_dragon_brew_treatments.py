"""Dragon Brew's treatment hooks and offer events (issue 14): inject, remove and power_off at
setup (sim/core/treatment.py), the games table's treated_seat, the opening offers, bad targets,
and --check under every treatment kind."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from dragon_brew_state import C, brewery, config, game, key, keys, pile
from dragon_brew_state import view as state_view

from sim.core.errors import UsageError
from sim.dragon_brew import GAME
from sim.dragon_brew.state import P_LC_EVENT, P_NEUTRAL

RACES = ["dwarf", "elf", "orc"]
DEAL_PILES = (C.PILE_BDECK, C.PILE_EDECK, C.PILE_RDECK_BARREL, C.PILE_RDECK_SPICE, C.PILE_JDECK)


def inject(card):
    return {"kind": "inject", "target": card}


def dealt_cards(G) -> dict:
    """Every dealt pile and face-up row of a set-up game, and each seat's book (the deal)."""
    v = state_view(G.S)
    deal = {p: pile(G.S, p) for p in DEAL_PILES}
    deal.update({name: list(getattr(v.piles, name)) for name in ("brewery_row", "event_row", "barrel_offer",
                                                                 "spice_offer", "judges")})
    deal["books"] = [list(v.seat(s).book[:v.seat(s).n_book]) for s in range(G.n)]
    return deal


@pytest.mark.parametrize("card", ["dragons_den", "gnome_housing", "wheat_field"])
@pytest.mark.parametrize("game_id", [0, 4, 7])
def test_inject_builds_the_card_for_the_treated_seat_and_leaves_the_deal_alone(card, game_id):
    plain = game(RACES, game_id=game_id, seed=5)
    treated = game(RACES, game_id=game_id, seed=5, treatment=inject(card))
    seat = state_view(treated.S).game.treated_seat
    assert seat == (game_id // len(RACES)) % len(RACES)  # treated_seat(k, n, P) with k = game id, P = n
    assert state_view(plain.S).game.treated_seat == -1
    t = brewery(treated.cfg, card)
    if card == "wheat_field":  # an upgrade goes under the Grain Fields
        assert keys(treated, seat) == keys(plain, seat)
        assert list(treated.card(seat, "grain_fields").up[:1]) == [t]
        assert plain.card(seat, "grain_fields").n_up == 0
    else:
        assert keys(treated, seat) == keys(plain, seat) + [key(treated.cfg, card)]
    if card == "gnome_housing":  # built as drafted: its gnome comes from the supply
        assert treated.seat(seat).housing == plain.seat(seat).housing + 1
    assert dealt_cards(treated) == dealt_cards(plain)
    assert np.array_equal(treated.S.rng, plain.S.rng)  # no random stream moved
    for s in range(len(RACES)):
        if s != seat:
            assert keys(treated, s) == keys(plain, s)
            assert treated.seat(s).gold == plain.seat(s).gold


def test_treated_seat_rotates_so_each_seat_is_treated_equally_often():
    cfg = config()
    pols = ["greedy", "random"]
    for n in (2, 3, 4):
        shard = GAME.simulate(cfg, 3, 0, len(pols) * n, [n], pols, options={"treatment": inject("tavern")})
        seats = shard.frames["games"]["treated_seat"].to_list()
        assert sorted(seats) == sorted(list(range(n)) * len(pols)), (n, seats)
    plain = GAME.simulate(cfg, 3, 0, 6, [3], pols)
    assert (plain.frames["games"]["treated_seat"] == -1).all()


@pytest.mark.parametrize("card", ["chaos_spell", "mana_mountain"])
def test_remove_puts_the_neutral_card_in_every_place_of_the_removed_one(card):
    for game_id in (0, 5):
        plain = game(RACES, game_id=game_id, seed=9)
        treated = game(RACES, game_id=game_id, seed=9, treatment={"kind": "remove", "target": card})
        t, neutral = brewery(plain.cfg, card), int(treated.R.p[P_NEUTRAL])
        before, after = dealt_cards(plain), dealt_cards(treated)
        for where in (C.PILE_BDECK, "brewery_row"):
            assert t not in after[where]
            assert after[where] == [neutral if x == t else x for x in before[where]]
        count = sum(x == t for w in (C.PILE_BDECK, "brewery_row") for x in before[w])
        assert count == plain.cfg.brewery[t]["count"]
        assert sum(x == neutral for w in (C.PILE_BDECK, "brewery_row") for x in after[w]) == count
        assert treated.R.bc[neutral, 1] == plain.R.bc[t, 1]  # BC_COST: the neutral card costs the same
        for where in set(before) - {C.PILE_BDECK, "brewery_row"}:
            assert after[where] == before[where], where


def test_power_off_leaves_the_ability_card_out_and_keeps_the_starting_numbers():
    plain = game(RACES, seed=2)
    off = game(RACES, seed=2, treatment={"kind": "power_off", "target": "dwarf"})
    assert off.seat(0).ability == -1 and plain.seat(0).ability == C.AB_GOLD_MINE
    assert key(off.cfg, "gold_mine") in keys(plain, 0) and key(off.cfg, "gold_mine") not in keys(off, 0)
    for field in ("gold", "own_total", "own_avail", "n_book"):
        assert getattr(off.seat(0), field) == getattr(plain.seat(0), field), field
    assert keys(off, 1) == keys(plain, 1) and off.seat(1).ability == plain.seat(1).ability


@pytest.mark.parametrize("race", ["dwarf", "halfling", "goblin"])
def test_power_off_is_never_used_while_the_untreated_run_uses_it(race):
    cfg = config()
    options = {"lineup": [race, "elf"]}
    runs = {kind: GAME.simulate(cfg, 13, 0, 200, [2], ["greedy", "random"],
                                options={**options, **({"treatment": {"kind": "power_off", "target": race}}
                                                       if kind else {})})
            for kind in ("", "power_off")}

    def uses(shard):
        players = shard.frames["players"].filter(pl.col("faction").cast(pl.String) == race)
        ev = shard.frames["events"]
        ability = cfg.races[cfg.race_ids.index(race)]["ability"]
        return players["ability_uses"].sum(), ev.filter(pl.col("card").cast(pl.String) == ability).height

    assert min(uses(runs[""])) > 50
    assert uses(runs["power_off"]) == (0, 0)


@pytest.mark.parametrize("seed,game_id", [(1, 0), (4, 3), (8, 6)])
def test_opening_offers_are_the_dealt_draft_rows(seed, game_id):
    G = game(RACES, seed=seed, game_id=game_id)
    v = state_view(G.S)
    rows = G.S.ev[:v.game.events]
    offers = rows[rows[:, 4] == C.LOG_KINDS.index("offer")]
    shown = [int(t) for t in v.piles.brewery_row if t >= 0] + [int(G.R.p[P_LC_EVENT] + t)
                                                                for t in v.piles.event_row if t >= 0]
    assert [int(c) for c in offers[:, 3]] == shown
    assert set(offers[:, 1]) == {0} and set(offers[:, 2]) == {1} and set(offers[:, 5]) == {1}


def test_offer_rows_name_the_cards_of_the_opening_rows_in_a_run():
    cfg = config()
    shard = GAME.simulate(cfg, 7, 0, 12, [2, 3, 4], ["greedy"])
    offers = shard.frames["events"].filter(pl.col("kind") == "offer")
    per_game = offers.group_by("game_id").len()
    assert per_game.height == 12 and (per_game["len"] == 2 * cfg.params["draft_row"]).all()
    assert (offers["amount"] == 1).all() and (offers["seat"] == 0).all()


@pytest.mark.parametrize("treatment,message", [
    ({"kind": "inject", "target": "dragons_dn"}, "inject 'dragons_dn': unknown; choose from"),
    ({"kind": "remove", "target": "halfling"}, "remove 'halfling': unknown; choose from"),
    ({"kind": "power_off", "target": "tavern"}, "power_off 'tavern': unknown; choose from"),
    ({"kind": "swap", "target": "tavern"}, "treatment 'swap': this game can be treated by"),
])
def test_a_bad_treatment_is_a_one_line_usage_error_naming_the_choices(treatment, message):
    with pytest.raises(UsageError) as err:
        GAME.check_options(config(), [4], {"treatment": treatment})
    text = str(err.value)
    assert message in text and "\n" not in text
    if treatment["kind"] == "power_off":
        assert "halfling" in text
    elif treatment["kind"] != "swap":
        assert "dragons_den" in text


@pytest.mark.parametrize("treatment", [inject("gnome_housing"), inject("brewers_tower"),
                                       {"kind": "remove", "target": "chaos_spell"},
                                       {"kind": "power_off", "target": "chaos_wytch"}])
def test_check_passes_under_every_treatment_kind(treatment):
    cfg = config()
    shard = GAME.simulate(cfg, 21, 0, 240, [2, 3, 4], ["greedy", "random", "builder"], check=True,
                          options={"treatment": treatment})
    assert shard.frames["games"].height == 240
    if treatment["kind"] == "remove":  # the greedy bots never want the neutral card
        drafts = shard.frames["events"].filter((pl.col("kind") == "draft_brewery")
                                               & (pl.col("card").cast(pl.String) == "neutral"))
        players = shard.frames["players"].select("game_id", "seat", "policy")
        bots = drafts.join(players, on=["game_id", "seat"])["policy"].cast(pl.String)
        assert set(bots) <= {"random"} and bots.len() > 0
