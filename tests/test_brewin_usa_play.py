"""Brewin' USA played whole: invariants under random play, bot strength, logging, golden replay,
and the kernel's record (ranking, output columns) and overflow guard."""

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from brewin_usa_state import blank, config

from sim.brewin_usa import GAME
from sim.brewin_usa import constants as C
from sim.brewin_usa import kernel as K
from sim.brewin_usa.replay import trace_lines
from sim.brewin_usa.schema import GAMES, PLAYERS
from sim.brewin_usa.state import make_inputs, make_rules, make_state
from sim.core.errors import STATUS_OVERFLOW
from sim.core.rows import output_rows
from sim.core.treatment import T_NONE

GOLDEN = Path(__file__).parent / "golden" / "brewin_usa_replay_seed7_game3.txt"
BOTS = ["random", "greedy", "challenger", "expander"]
NO_TREATMENT = make_inputs(np.array([T_NONE, -1], np.int64), len(config().ing_ids))  # run inputs X, untreated


@pytest.mark.parametrize("bot", BOTS)
def test_invariants_hold_after_every_phase(bot):
    """--check asserts caps conserved (banks + Market Demand + bag), cards conserved, colored
    caps matching beers on the table, city control consistent, nothing negative, after every
    phase; any violation raises. 2-5 players, mixed with random opponents."""
    cfg = config()
    shard = GAME.simulate(cfg, 11, 0, 200, [2, 3, 4, 5], [bot, "random"], check=True)
    games, players = shard.frames["games"], shard.frames["players"]
    assert games.height == 200
    assert players.height == sum(games["n_players"].to_list())
    assert (games["end_reason"].cast(pl.String) == "third_beer").mean() > 0.95
    for col in ("score", "vp_cities", "vp_regions", "vp_beers", "vp_bank", "beers_launched"):
        assert players[col].min() >= 0, col
    assert players["beers_launched"].max() <= 5
    total = players["vp_cities"] + players["vp_regions"] + players["vp_beers"] + players["vp_bank"]
    assert (total == players["score"]).all()


def test_all_bots_together_at_five_players():
    """Four bots at five seats, --check on: every game ends by a third beer after the extra
    round, each bot sits in every seat, and the score is the sum of its parts."""
    shard = GAME.simulate(config(), 12, 0, 100, [5], BOTS, check=True)
    games, players = shard.frames["games"], shard.frames["players"]
    assert games.height == 100 and players.height == 500
    assert (games["end_reason"].cast(pl.String) == "third_beer").all()
    most = players.group_by("game_id").agg(pl.col("beers_launched").max().alias("top"))
    assert (most["top"] >= 3).all() and players["beers_launched"].max() <= 5
    seats = players.group_by(["policy", "seat"]).len()
    assert seats.height == len(BOTS) * 5  # every bot in every seat
    total = players["vp_cities"] + players["vp_regions"] + players["vp_beers"] + players["vp_bank"]
    assert (total == players["score"]).all()
    wins = players.group_by("game_id").agg(pl.col("win").sum())
    assert np.allclose(wins["win"].to_numpy(), 1.0)


def test_winner_is_consistent_with_the_score():
    shard = GAME.simulate(config(), 5, 0, 500, [2, 3, 4, 5], ["greedy", "random"])
    p = shard.frames["players"]
    best = p.group_by("game_id").agg(pl.col("score").max().alias("best"))
    p = p.join(best, on="game_id")
    assert ((p["score"] == p["best"]) == (p["win"] > 0)).all()
    assert ((p["rank"] == 1) == (p["win"] > 0)).all()
    totals = p.group_by("game_id").agg(pl.col("win").sum())
    assert np.allclose(totals["win"].to_numpy(), 1.0)


def shares(pols, n, games, seed):
    shard = GAME.simulate(config(), seed, 0, games, [n], pols)
    share = shard.frames["players"].group_by("policy").agg(pl.col("win").sum() / games)
    return dict(zip(share["policy"].cast(pl.String), share["win"], strict=True))


def test_greedy_beats_random_by_a_wide_margin():
    """Two greedy and two random bots, seats rotated: a fair share would be 0.5."""
    share = shares(["greedy", "random"], 4, 1000, 3)
    assert share["greedy"] > 0.8, share


@pytest.mark.parametrize("style", ["challenger", "expander"])
def test_each_style_beats_random(style):
    share = shares([style, "random"], 4, 600, 4)
    assert share[style] > 0.7, share


def test_styles_play_differently():
    out = {}
    for style in ("challenger", "expander"):
        p = GAME.simulate(config(), 8, 0, 400, [4], [style]).frames["players"]
        out[style] = p["challenges"].mean()
    assert out["challenger"] > 1.5 * out["expander"], out


def test_every_launch_and_every_batch_is_an_event():
    shard = GAME.simulate(config(), 9, 0, 200, [2, 3, 4, 5], ["greedy", "random"])
    ev, p, g = shard.frames["events"], shard.frames["players"], shard.frames["games"]
    plays = ev.filter(pl.col("kind") == "play").group_by(["game_id", "seat"]).len()
    joined = p.join(plays, on=["game_id", "seat"], how="left").fill_null(0)
    assert (joined["beers_launched"] == joined["len"]).all()
    buys = ev.filter(pl.col("kind") == "buy")
    assert (buys["card"].cast(pl.String) == "batch").all()
    per_game = buys.group_by("game_id").len().join(g, on="game_id")
    assert (per_game["len"] == per_game["rounds"].cast(pl.Int64) * per_game["n_players"].cast(pl.Int64)).all()
    spent = buys.group_by(["game_id", "seat"]).agg(pl.col("amount").sum().alias("paid"))
    joined = p.join(spent, on=["game_id", "seat"], how="left").fill_null(0)
    assert (joined["paid"] <= joined["caps_spent"]).all()


def test_replay_matches_the_golden_log():
    """A fixed seed replays to a fixed log. If rules, data or RNG change on purpose, rewrite it
    with: python tests/regen_golden.py (and say so in the commit message)."""
    lines = GAME.replay(config(), 7, 3, [4], ["greedy", "random"])
    assert "\n".join(lines) + "\n" == GOLDEN.read_text()


def test_replay_credits_each_seat_with_its_own_market_demand():
    """Two losers of a Brewfest place their piles one after the other: two lines, each under the
    seat that placed it (the log once credited both to the last seat)."""
    cfg = config()
    denver, phoenix = cfg.city_ids.index("denver"), cfg.city_ids.index("phoenix")
    rows = np.zeros((4, 8), np.int64)
    rows[:, 0] = C.TR_DEMAND
    rows[:, 4] = 1
    rows[:, 2] = [0, 0, 1, 1]
    rows[:, 3] = [denver, denver, phoenix, -1]
    lines = trace_lines(rows, cfg, None)
    assert lines == ["  seat 0 places Market Demand: Denver +2",
                     "  seat 1 places Market Demand: Phoenix +1, the bag +1"]


def test_replay_agrees_with_the_simulated_result():
    cfg = config()
    shard = GAME.simulate(cfg, 7, 0, 10, [4], ["greedy", "random"])
    p = shard.frames["players"].filter(pl.col("game_id") == 3).sort("seat")
    last = GAME.replay(cfg, 7, 3, [4], ["greedy", "random"])[-1]
    for seat, score in enumerate(p["score"]):
        assert f"seat {seat} {score} VP" in last


def test_same_seed_same_games_and_streams_are_independent_of_the_chunking():
    cfg = config()
    a = GAME.simulate(cfg, 21, 0, 300, [3, 5], ["greedy", "random"]).frames
    b = GAME.simulate(cfg, 21, 100, 200, [3, 5], ["greedy", "random"]).frames
    assert a["players"].filter(pl.col("game_id") >= 100).equals(b["players"])
    assert a["events"].filter(pl.col("game_id") >= 100).equals(b["events"])
    c = GAME.simulate(cfg, 22, 0, 300, [3, 5], ["greedy", "random"]).frames
    assert not a["players"].equals(c["players"])


def test_changing_a_bot_does_not_reshuffle_the_decks():
    """Common random numbers: the first round's batches depend on the deck stream only."""
    cfg = config()
    a = GAME.replay(cfg, 30, 0, [3], ["greedy"])
    b = GAME.replay(cfg, 30, 0, [3], ["random"])
    def first(lines):
        return [x for x in lines if x.startswith("  batch")][:3]

    assert first(a) == first(b)


def test_every_adjunct_use_is_an_event_row_valued_with_the_cards():
    cfg = config()
    shard = GAME.simulate(cfg, 12, 0, 300, [3, 4], ["greedy", "random"])
    ev = shard.frames["events"].filter(pl.col("kind") == "adjunct")
    assert ev.height > 0
    assert ev["card"].cast(pl.String).str.starts_with("adjunct_").all()
    per_player = ev.group_by(["game_id", "seat"]).len()
    p = shard.frames["players"].join(per_player, on=["game_id", "seat"], how="left").fill_null(0)
    assert (p["adjunct_actions"] == p["len"]).all()
    assert "adjunct" in GAME.manifest_extras(cfg)["value_kinds"]


def recorded(scores, n=4, game_id=9):
    """kernel.record on a hand-built end of game: seat s has `scores[s]` VP and every other
    players-table value of State.pl distinct (25 * seat + column), so a value copied to the
    wrong column shows. Returns (games frame, players frame, winners column)."""
    cfg, R, S = blank(n)
    for s in range(n):
        S.pl[s] = 25 * s + np.arange(C.N_PL)  # below 127: beers_launched is an Int8 column
        S.pl[s, C.SCORE] = scores[s]
        S.seats[C.ROW_POLICY, s] = s % len(cfg.policy_ids)
    S.g[C.G_ROUND], S.g[C.G_END_REASON], S.g[C.G_FESTS], S.g[C.G_BAG] = 5, C.END_LIMIT, 7, 11
    S.city[:3, C.CT_DEMAND] = (2, 3, 4)
    games = output_rows(1, GAMES.width)
    players = output_rows(n, PLAYERS.width)
    wins = np.zeros(n, np.float64)
    K.record(S, R, NO_TREATMENT, game_id, n, games[0], players, wins)
    labels = GAME.labels(cfg)
    return GAMES.columns_of(games, labels).frame(), PLAYERS.columns_of(players, labels, given={"win": wins}).frame(), S


@pytest.mark.parametrize("scores, ranks, wins", [
    ((10, 12, 12, 3), [3, 1, 1, 4], [0, 0.5, 0.5, 0]),
    ((20, 12, 12, 3), [1, 2, 2, 4], [1, 0, 0, 0]),
    ((7, 7, 7, 7), [1, 1, 1, 1], [0.25] * 4),
], ids=["two-way-tie-for-first", "tie-below-the-winner", "everyone-level"])
def test_record_ranks_by_vp_alone_and_tied_winners_share_the_win(scores, ranks, wins):
    """The rulebook gives no tie-breaker: rank is 1 + the players with more VP, and the players
    level at the top split the win."""
    games, players, _ = recorded(scores)
    assert players["rank"].to_list() == ranks
    assert players["win"].to_list() == pytest.approx(wins)
    assert games["n_winners"].item() == ranks.count(1)


def test_record_copies_every_column_from_its_own_state_field():
    games, players, S = recorded((10, 12, 12, 3))
    sources = {"beers_launched": C.LAUNCHED, "score": C.SCORE,
               **{name: C.VP_CITIES + k for k, name in enumerate(C.PLAYER_STATS) if name != "score_check"}}
    for name, col in sources.items():
        assert players[name].to_list() == [S.pl[s, col] for s in range(4)], name
    assert players["seat"].to_list() == [0, 1, 2, 3]
    assert players["policy"].cast(pl.String).to_list() == [config().policy_ids[s % 4] for s in range(4)]
    assert games.drop("end_reason").row(0, named=True) == {
        "game_id": 9, "n_players": 4, "rounds": 5, "decisions": 0, "n_winners": 2,
        "brewfests": 7, "market_demand_left": 9, "caps_in_bag": 11, "treated_seat": -1}
    assert games["end_reason"].cast(pl.String).item() == "round_limit"


@pytest.mark.parametrize("ev_capacity, bound", [(10, 10), (100_000, 60)],
                         ids=["buffer-full-mid-game", "bound-below-some-games"])
def test_a_game_writing_past_its_event_room_stops_the_chunk_as_an_overflow(ev_capacity, bound):
    """Through the shared driver: the chunk stops before the game that overflowed, keeps only
    whole games before it, and writes nothing for it."""
    cfg = config()
    S = make_state(len(cfg.ing_ids), ev_capacity, rounds_capacity=100 * C.MAX_PLAYERS * 40)
    n_games = 100
    games = output_rows(n_games, GAMES.width)
    players = output_rows(n_games * 4, PLAYERS.width)
    wins = np.zeros(n_games * 4, np.float64)
    bots = np.array([cfg.policy_index("random")], np.int64)
    done, prow, ev_rows, status = K.run_chunk(S, make_rules(cfg), NO_TREATMENT, np.uint64(1), 0, n_games, np.array([4], np.int64),
                                              bots, games, players, wins, bound, C.MAX_PLAYERS * 40, False)
    assert status == STATUS_OVERFLOW and S.g[C.G_OVERFLOW] == 1
    assert prow == 4 * done and list(games[:done, GAMES.at.game_id]) == list(range(done))
    assert ev_rows <= min(ev_capacity, bound * done) and (S.ev[:ev_rows, 0] < done).all()
    assert not games[done:].any()
    if ev_capacity > 1000:
        assert done > 0  # the games within the bound before it were kept

