"""Dwarfest played whole: invariants under random play, bot strength, golden replay."""

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from dwarfest_state import blank, card, config, give

from sim.core.errors import STATUS_OK, STATUS_OVERFLOW, BrewError
from sim.core.rows import output_rows
from sim.dwarfest import GAME, events_bound
from sim.dwarfest import constants as C
from sim.dwarfest import kernel as K
from sim.dwarfest.schema import GAMES, PLAYERS
from sim.dwarfest.state import make_rules, make_state

GOLDEN = Path(__file__).parent / "golden" / "dwarfest_replay_seed7_game3.txt"
VARIANTS = ["base", "epic", "alcoholic", "alcoholic_epic"]
BOTS = ["random", "greedy", "cautious", "expansionist"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("bot", BOTS)
def test_invariants_hold_after_every_phase(variant, bot):
    """--check asserts resources >= 0, maxima, card conservation, hand size and stacking
    after every phase; any violation raises. 2-6 players, mixed with random opponents."""
    cfg = config(variant)
    shard = GAME.simulate(cfg, 11, 0, 600, [2, 3, 4, 5, 6], [bot, "random"], check=True)
    games, players = shard.frames["games"], shard.frames["players"]
    assert games.height == 600
    assert (games["rounds"] == 5).all()  # the game ends after five Evenings
    assert players.height == sum(games["n_players"].to_list())
    for col in ("score", "fame", "tables", "barrels", "dancers", "sips_used"):
        assert players[col].min() >= 0, col
    assert players["tables"].max() <= 10 and players["barrels"].max() <= 10
    assert players["dancers"].max() <= 3
    if variant.startswith("alcoholic"):
        assert players["sips_used"].min() >= 1  # the opening toast
    else:
        assert players["sips_used"].max() == 0


def test_a_sip_budget_is_never_overspent():
    cfg = config("alcoholic_epic", ["sip_budget=1"])
    players = GAME.simulate(cfg, 12, 0, 400, [2, 4, 6], ["greedy", "random"], check=True).frames["players"]
    assert players["sips_used"].max() == 15  # the whole-table drinks use budgets up


def test_no_destroyed_tavern_scores_the_restart_nuggets_after_the_last_evening():
    """With nothing but the last Evening, every destroyed Tavern ends on 0 Nuggets."""
    cfg = config("epic", ["evenings=1"])
    p = GAME.simulate(cfg, 13, 0, 600, [4], ["random"]).frames["players"]
    destroyed = p.filter(pl.col("taverns_destroyed") > 0)
    assert destroyed.height > 20
    assert (destroyed["score"] == 0).all()


def test_winner_is_consistent_with_nuggets():
    shard = GAME.simulate(config(), 5, 0, 2000, [2, 3, 4, 5, 6], ["greedy"])
    p = shard.frames["players"]
    best = p.group_by("game_id").agg(pl.col("score").max().alias("best"), pl.len().alias("n"))
    p = p.join(best, on="game_id")
    assert ((p["score"] == p["best"]) == (p["win"] > 0)).all()
    assert ((p["rank"] == 1) == (p["win"] > 0)).all()
    winners = p.filter(pl.col("win") > 0).group_by("game_id").agg(pl.len().alias("k"), pl.col("win").first())
    assert np.allclose(winners["win"].to_numpy(), 1.0 / winners["k"].to_numpy())
    totals = p.group_by("game_id").agg(pl.col("win").sum())
    assert np.allclose(totals["win"].to_numpy(), 1.0)


def test_greedy_beats_random_by_a_wide_margin():
    """Two greedy and two random bots, seats rotated: greedy must take nearly every win."""
    shard = GAME.simulate(config(), 3, 0, 4000, [4], ["greedy", "random"])
    share = shard.frames["players"].group_by("policy").agg(pl.col("win").sum() / 4000)
    share = dict(zip(share["policy"].cast(pl.String), share["win"], strict=False))
    assert share["greedy"] > 0.9, share  # a fair share would be 0.5


@pytest.mark.parametrize("style", ["cautious", "expansionist"])
def test_each_style_beats_random(style):
    shard = GAME.simulate(config(), 4, 0, 2000, [4], [style, "random"])
    share = shard.frames["players"].group_by("policy").agg(pl.col("win").sum() / 2000)
    share = dict(zip(share["policy"].cast(pl.String), share["win"], strict=False))
    assert share[style] > 0.8, share


def test_styles_play_differently():
    out = {}
    for style in ("cautious", "expansionist"):
        p = GAME.simulate(config(), 8, 0, 2000, [4], [style]).frames["players"]
        out[style] = p.select(pl.col("bouncers_used").mean(), pl.col("customers_refused").mean(),
                              pl.col("brawls_broken").mean())
    assert out["cautious"]["brawls_broken"][0] < out["expansionist"]["brawls_broken"][0]


def test_every_tavern_card_play_is_logged_as_an_event():
    shard = GAME.simulate(config(), 9, 0, 500, [4], ["greedy"])
    plays = shard.frames["events"].filter(pl.col("kind") == "play").group_by(["game_id", "seat"]).len()
    p = shard.frames["players"].join(plays, on=["game_id", "seat"], how="left").fill_null(0)
    assert (p["cards_played"] == p["len"]).all()


def test_a_cancel_cancels_an_event_and_a_cancel_can_be_cancelled():
    cfg, R, S = blank(2)
    rowdy, cancel = card(cfg, "rowdy_crowd"), card(cfg, "not_today")
    give(S, 0, till=10, brawl=1)
    give(S, 1, till=10, brawl=4)
    S.hand[0, rowdy] = 1
    S.hand[1, cancel] = 1
    greedy = cfg.policy_index("greedy")
    seats = np.array([greedy, greedy, 0, 0, 0, 0], np.int64)
    K.play_event(S, R, 2, seats, 0, rowdy, 1, 0)
    assert S.pl[1, C.BRAWL] == 4  # cancelled: 4 + 3 would have started a Brawl
    assert S.hand[1, cancel] == 0 and S.pl[1, C.TILL] == 9
    assert S.g[C.G_TDISC] == 2  # both cards discarded
    # Now seat 0 holds a cancel too and cancels the cancel: Rowdy Crowd goes through.
    S.hand[0, rowdy] = 1
    S.hand[0, cancel] = 1
    S.hand[1, cancel] = 1
    K.play_event(S, R, 2, seats, 0, rowdy, 1, 0)
    assert S.pl[1, C.BRAWL] == 7
    assert S.g[C.G_TDISC] == 5


def test_replay_matches_the_golden_log():
    """A fixed seed replays to a fixed log. If rules, data or RNG change on purpose, rewrite
    it with: python -m tests.regen_golden (and say so in the commit message)."""
    lines = GAME.replay(config(), 7, 3, [4], ["greedy", "random"])
    assert "\n".join(lines) + "\n" == GOLDEN.read_text()


def test_replay_agrees_with_the_simulated_result():
    cfg = config()
    shard = GAME.simulate(cfg, 7, 0, 10, [4], ["greedy", "random"])
    p = shard.frames["players"].filter(pl.col("game_id") == 3).sort("seat")
    last = GAME.replay(cfg, 7, 3, [4], ["greedy", "random"])[-1]
    for seat, score in enumerate(p["score"]):
        assert f"seat {seat} {score} Nuggets" in last


def test_same_seed_same_games_and_streams_are_independent_of_the_chunking():
    cfg = config()
    a = GAME.simulate(cfg, 21, 0, 300, [3, 5], ["greedy"]).frames
    b = GAME.simulate(cfg, 21, 100, 200, [3, 5], ["greedy"]).frames
    tail = a["players"].filter(pl.col("game_id") >= 100)
    assert tail.equals(b["players"])
    c = GAME.simulate(cfg, 22, 0, 300, [3, 5], ["greedy"]).frames
    assert not a["players"].equals(c["players"])


def overflowing_chunk(cfg, ev_capacity, bound, n_games=200):
    """run_chunk on 6-player random games with an event buffer of `ev_capacity` rows and a
    per-game bound of `bound` rows, below what some games write."""
    R = make_rules(cfg)
    S = make_state(len(cfg.cards.ids), ev_capacity, rounds_capacity=n_games * 30)
    games = output_rows(n_games, GAMES.width)
    players = output_rows(n_games * 6, PLAYERS.width)
    wins = np.zeros(n_games * 6, np.float64)
    bots = np.array([cfg.policy_index("random")], np.int64)
    out = K.run_chunk(S, R, GAME.kernel_inputs(cfg, {})[1], np.uint64(1), 0, n_games, np.array([6], np.int64), bots, games, players, wins,
                      bound, 30, False)
    return out, S, games, players


@pytest.mark.parametrize("ev_capacity, bound", [(40, 1), (40, 40), (100_000, 150)],
                         ids=["bound-below-every-game", "buffer-full-mid-game", "bound-below-some-games"])
def test_overflow_guard_stops_before_the_overflowing_game_and_raises(ev_capacity, bound):
    cfg = config()
    (done, prow, ev_rows, status), S, games, players = overflowing_chunk(cfg, ev_capacity, bound)
    assert status == STATUS_OVERFLOW
    assert S.g[C.G_OVERFLOW] == 1
    assert done >= 0 and prow == 6 * done  # only whole games are reported
    assert list(games[:done, 0]) == list(range(done))
    assert ev_rows <= min(ev_capacity, bound * done) and (S.ev[:ev_rows, 0] < done).all()  # no row of the broken game
    assert not games[done:].any()  # nothing written for the game that overflowed
    if ev_capacity > 1000:
        assert done > 0  # earlier games within the bound were kept


def test_simulate_raises_on_an_overflow_instead_of_returning_truncated_rows(monkeypatch):
    import sim.dwarfest as game_module

    monkeypatch.setattr(game_module, "events_bound", lambda cfg: 1)  # every game writes more
    with pytest.raises(BrewError, match="buffer overflowed"):
        GAME.simulate(config(), 1, 0, 200, [6], ["random"])


def test_the_real_event_bound_never_overflows_a_buffer_that_just_fits_it():
    cfg = config()
    bound = events_bound(cfg)
    R = make_rules(cfg)
    S = make_state(len(cfg.cards.ids), bound, rounds_capacity=60)
    games = output_rows(1, GAMES.width)
    players = output_rows(6, PLAYERS.width)
    wins = np.zeros(6, np.float64)
    bots = np.array([cfg.policy_index("random")], np.int64)
    for g in range(200):
        done, _, _, status = K.run_chunk(S, R, GAME.kernel_inputs(cfg, {})[1], np.uint64(3), g, 1, np.array([6], np.int64), bots, games,
                                         players, wins, bound, 30, False)
        assert (done, status) == (1, STATUS_OK)
