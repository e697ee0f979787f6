"""Brewin' USA's search bot (sim/brewin_usa/search.py, kernel.search_launch): it is greedy
without a budget, leaves the game's own randomness alone, is deterministic, finds a winning
launch greedy misses, counts its rollouts, and its scratch copy never touches the live game."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from brewin_usa_state import (
    bank,
    blank,
    city,
    demand,
    full_ingredient_deck,
    on_city,
    take_from_deck,
    to_hand,
)
from clihelp import in_process, table
from polars.testing import assert_frame_equal

from sim.brewin_usa import GAME
from sim.brewin_usa import constants as C
from sim.brewin_usa import kernel as K
from sim.brewin_usa import rules as ru
from sim.brewin_usa import search as se
from sim.brewin_usa.state import make_inputs, view
from sim.core.config import prepare
from sim.core.treatment import T_NONE

OUTCOME = ["score", "rank", "win"]


def play(policies, counts=(2, 4), games=24, seed=5, sets=(), check=False):
    cfg = GAME.build(prepare("brewin_usa", "base", list(sets), []))
    return GAME.simulate(cfg, seed, 0, games, list(counts), list(policies), check=check).frames


def test_without_budget_or_choice_search_is_greedy():
    greedy = play(["greedy", "greedy"])
    for sets in (["policies.search.budget=0"], ["policies.search.candidates=1"]):
        search = play(["search", "greedy"], sets=sets)
        assert_frame_equal(search["games"], greedy["games"])
        assert_frame_equal(search["events"], greedy["events"])
        assert_frame_equal(search["players"].select(OUTCOME), greedy["players"].select(OUTCOME))
        assert search["players"]["search_rollouts"].sum() == 0


def test_search_changes_play_but_not_the_deal():
    greedy = play(["greedy", "greedy"], games=40)
    search = play(["search", "greedy"], games=40, sets=["policies.search.budget=6"])
    assert not search["events"].equals(greedy["events"])  # it does play differently

    def deal(frames):  # offers the shuffle alone decided: the opening hands, round 1's batches
        ev = frames["events"]
        return ev.filter((pl.col("kind") == "offer") & (pl.col("amount") == 1))

    assert deal(search).height > 0
    assert_frame_equal(deal(search), deal(greedy))


def test_rollouts_are_counted_per_search_seat():
    budget = 6
    players = play(["search", "greedy", "search"], counts=(3,), games=18,
                   sets=[f"policies.search.budget={budget}"])["players"]
    by_bot = players.group_by("policy").agg(pl.col("search_rollouts").sum(), pl.len())
    rollouts = dict(zip(by_bot["policy"].cast(pl.Utf8), by_bot["search_rollouts"], strict=True))
    assert rollouts["greedy"] == 0 and rollouts["search"] > 0
    searching = players.filter(pl.col("policy") == "search")["search_rollouts"]
    assert (searching % budget == 0).all()  # every decision weighed spends the whole budget


def test_check_passes_with_search_seats():
    frames = play(["search", "greedy", "challenger", "random", "search"], counts=(2, 3, 4, 5), games=32,
                  sets=["policies.search.budget=4"], check=True)
    assert frames["games"].height == 32


def test_same_seed_same_games_whatever_the_jobs(tmp_path):
    args = ("simulate", "brewin_usa", "--quiet", "--games", "30", "--players", "2,4", "--policies",
            "search,greedy", "--set", "policies.search.budget=4", "--seed", "9", "--shard-size", "10")
    for name, jobs in (("a", "1"), ("b", "2"), ("c", "2")):
        proc = in_process(*args, "--jobs", jobs, "--out", str(tmp_path / name))
        assert proc.returncode == 0, proc.stderr
    for name in ("games", "players", "events"):
        a = table(tmp_path / "a", name)
        assert a.height > 0
        assert_frame_equal(a, table(tmp_path / "b", name))
        assert_frame_equal(a, table(tmp_path / "c", name))


# --- a hand-made position: the last launch of the game ------------------------------------------
# Two players, round 5 of a game ending after it; seat 1 (greedy) has launched and holds Seattle
# with a Golden Pils (quality 6) on 10 Market Demand, and leads on 15 caps. Seat 0 (search),
# last to launch, can brew a Dark Bock (quality 13, a lager) and claim Boston (20 Market Demand,
# prefers lagers: 40 VP) or challenge Seattle, a sure Brewfest win worth less. Greedy's city
# values rank the challenge first (it counts the city taken from the rival twice), and that
# loses the game; the claim wins it.

def last_launch(budget):
    cfg, R, S = blank(2, sets=[f"policies.search.budget={budget}"])
    X = make_inputs(np.array([T_NONE, -1], np.int64), len(cfg.ing_ids))
    pols = S.seats[C.ROW_POLICY]
    pols[0], pols[1] = cfg.policy_index("search"), cfg.policy_index("greedy")
    view(S).game.set(round=4, dealer=0, last_round=4, turn=1, turn_launch=0)
    full_ingredient_deck(cfg, S)
    seattle, boston = city(cfg, "seattle"), city(cfg, "boston")
    on_city(cfg, S, 1, "golden_pils", seattle)
    b = to_hand(cfg, S, 0, "dark_bock")
    take_from_deck(cfg, S, 0, "grain_3", "water_3", "hops_3", "yeast_3")
    demand(S, seattle, 10)
    demand(S, boston, 20)
    bank(S, 1, 15)
    return R, S, X, pols, b, boston


def finish(R, S, X, pols):
    """Play the position to the end, the search deciding where it may; the final scores."""
    while K.play_on(S, R, np.int64(2), pols, np.int64(0), False) == C.OUT_SEARCH:
        K.search_launch(S, R, X, np.int64(2), pols, np.int64(0))
    ru.final_score(S, R, np.int64(2))
    return S.pl[0, C.SCORE], S.pl[1, C.SCORE]


@pytest.mark.parametrize("budget, claims, wins", [(0, False, False), (16, True, True)])
def test_search_finds_the_winning_launch_greedy_misses(budget, claims, wins):
    R, S, X, pols, b, boston = last_launch(budget)
    own, rival = finish(R, S, X, pols)
    assert (S.beer[b, C.B_LOC] == C.LOC_CITY and S.beer[b, C.B_CITY] == boston) == claims
    assert (own > rival) == wins
    assert S.pl[0, C.ST_ROLLOUTS] == budget


def test_a_rollout_leaves_the_live_game_untouched():
    R, S, X, pols, b, boston = last_launch(16)
    before = {name: getattr(S, name).copy() for name in S._fields}
    T = X.scratch
    assert not any(np.shares_memory(getattr(S, f), getattr(T, f)) for f in S._fields)
    for target in (boston, -1):
        K.rollout(S, T, R, np.int64(2), np.int64(0), np.int64(0), np.int64(b), np.int64(target),
                  np.uint64(1234))
    for name, arr in before.items():
        assert np.array_equal(getattr(S, name), arr, equal_nan=arr.dtype.kind == "f"), name
    assert T.g[C.G_ROLLOUT] == 1 and T.g[C.G_ROUND] == 5 and S.g[C.G_ROUND] == 4  # T played it out


def test_the_search_draws_only_on_its_own_stream():
    R, S, X, pols, b, boston = last_launch(16)
    rng = S.rng.copy()
    K.play_on(S, R, np.int64(2), pols, np.int64(0), False)
    K.search_launch(S, R, X, np.int64(2), pols, np.int64(0))
    moved = np.nonzero(S.rng != rng)[0].tolist()
    assert moved == [se.search_stream(0)]
