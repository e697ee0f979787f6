"""Dragon Brew's search bot (sim/dragon_brew/search.py): greedy's choice without a budget, the
game's own streams untouched, determinism, a winning move greedy misses, the rollout counts,
--check with search seats, and rollouts that leave the live game as it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from dragon_brew_state import C, offer_event, view
from dragon_brew_state import config as make_config
from dragon_brew_state import game as make_game

from sim.dragon_brew import GAME, rules, search
from sim.dragon_brew import policies as pol

ROOT = Path(__file__).resolve().parents[1]


def run(policies, n=6, players=2, sets=(), seed=11, check=False):
    cfg = make_config(sets=list(sets))
    return GAME.simulate(cfg, seed, 0, n, [players], list(policies), check=check).frames


def same_play(a, b):
    """The games, players (bot labels and search_rollouts aside) and events of two runs agree."""
    keep = ["game_id", "seat", "faction", "score", "rank", "win", "ribbons", "gold", "beers_brewed"]
    assert a["games"].equals(b["games"])
    assert a["players"].select(keep).equals(b["players"].select(keep))
    assert a["events"].equals(b["events"])


@pytest.mark.parametrize("sets", [["policies.search.budget=0"], ["policies.search.candidates=1",
                                                                    "policies.search.near=0"]])
def test_no_budget_or_one_candidate_plays_greedys_moves(sets):
    same_play(run(["search", "greedy"], sets=sets), run(["greedy", "greedy"]))


def test_search_leaves_the_deal_and_the_other_streams_alone():
    searched, greedy = run(["search", "greedy"], sets=["policies.search.budget=4"]), run(["greedy", "greedy"])
    offers = pl.col("kind") == "offer"  # the opening rows, dealt before any decision
    assert searched["events"].filter(offers).equals(greedy["events"].filter(offers))
    assert searched["players"]["faction"].equals(greedy["players"]["faction"])
    assert not searched["players"]["score"].equals(greedy["players"]["score"])  # the search did play


def test_same_seed_same_games():
    sets = ["policies.search.budget=3"]
    a, b = run(["search", "greedy"], sets=sets), run(["search", "greedy"], sets=sets)
    assert a["players"].equals(b["players"]) and a["events"].equals(b["events"])


def test_jobs_do_not_change_the_games(tmp_path):
    frames = []
    for jobs in (1, 2):
        out = tmp_path / f"j{jobs}"
        subprocess.run([sys.executable, "-m", "brewbalance", "simulate", "dragon_brew", "--policies", "search,greedy",
                        "--players", "2", "--games", "6", "--seed", "5", "--jobs", str(jobs), "--set",
                        "policies.search.budget=2", "--out", str(out)], check=True, cwd=ROOT, capture_output=True)
        frames.append(pl.read_parquet(out / "players").sort("game_id", "seat"))
    assert frames[0].equals(frames[1])


def test_rollouts_are_counted_for_search_seats_only():
    p = run(["search", "greedy"], n=4, sets=["policies.search.budget=5"])["players"]
    by = {k: g["search_rollouts"].to_list() for (k,), g in p.group_by("policy")}
    assert all(r == 0 for r in by["greedy"])
    assert all(r > 0 for r in by["search"])
    assert p.schema["search_rollouts"] == pl.Int64


def test_check_passes_with_search_seats():
    run(["search", "greedy", "search", "random"], n=24, players=4, sets=["policies.search.budget=2"], check=True)


def last_turn_position(sets=()):
    """Year 3, seat 0 (search) has used its brewer this turn and holds 3 gold, one VP behind
    seat 1 (broke); neither has recipes or ingredients, so no beer changes the VP. Drafting the
    Bounty quest in the Event row (2 VP for 3 gold) wins; with vp = 1.6 the seat's greedy values
    it below ending the turn."""
    G = make_game(["human", "orc"], policy=["search", "greedy"], sets=("policies.search.vp=1.6", *sets))
    v = view(G.S)
    v.game.year = 3
    for s in range(2):
        v.seat(s).n_book = 0
        v.seat(s).own_avail = 1
        v.seat(s).gnome_avail = 0
        G.S.pl[s, C.PL_INV:C.PL_INV + C.N_INGS] = 0
    v.column("seat", "vp", 2)[:] = 10, 11
    v.column("seat", "gold", 2)[:] = 3, 0
    offer_event(G, "quest_bounty")
    pol.start_turn(G.S, G.R, G.B, 0)
    v.game.flags = 0
    v.game.flags[C.F_BREWER] = 1
    return G, rules.legal_moves(G.S, G.R, 0)


def test_search_finds_the_winning_draft_greedy_misses():
    G, n = last_turn_position(("policies.search.budget=8",))
    greedy = pol.choose(G.S, G.R, G.B, 0, n)
    assert G.S.moves[greedy, 0] == C.M_END
    k = search.choose(G.S, G.R, G.B, G.Z, 0, n)
    assert list(G.S.moves[k, :3]) == [C.M_DRAFT, 1, 0]
    assert G.Z.rollouts[0] == 8


def test_a_rollout_leaves_the_live_game_as_it_was():
    G, n = last_turn_position(("policies.search.budget=8",))
    search.rank_candidates(G.S, G.R, G.B, G.Z, 0, n)  # greedy's own valuation updates its memory
    before = [a.copy() for a in (*G.S, *G.B)]
    search.choose(G.S, G.R, G.B, G.Z, 0, n)
    after = (*G.S, *G.B)
    assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))
