"""Homebrewers' search bot (policy kind `search`, sim/homebrewers/search.py and kernel.py's
rollout, search_step, search_turn): it falls back to greedy without budget or choice, never
touches the game's own random streams or live state, is deterministic, finds a winning step
greedy misses, counts its rollouts, and keeps every invariant.
"""

import numpy as np
import polars as pl
from homebrewers_state import blank, config

from sim.core.rng import next_u64
from sim.homebrewers import GAME, search
from sim.homebrewers import constants as C
from sim.homebrewers import kernel as K
from sim.homebrewers import policies as pol
from sim.homebrewers.search import make_search
from sim.homebrewers.state import RNG_SEARCH0, view

SEED = 7


def run(policies, n_games=12, counts=(2, 4), sets=(), first=0, check=False, seed=SEED):
    cfg = config(sets=list(sets))
    return GAME.simulate(cfg, seed, first, n_games, list(counts), policies, check=check).frames


def sorted_frame(frames, name):
    df = frames[name]
    keys = [k for k in ("game_id", "seat") if k in df.columns]
    return df.sort(keys, maintain_order=True)


def play_columns(frames):
    """The players table without the columns that name the bot (they differ by construction)."""
    return sorted_frame(frames, "players").drop("policy", "search_rollouts")


def test_without_budget_or_choice_search_plays_exactly_as_greedy():
    greedy = run(["greedy", "greedy"])
    for sets in (["policies.search.budget=0"], ["policies.search.budget=1"], ["policies.search.candidates=1"]):
        searched = run(["search", "greedy"], sets=sets)
        assert play_columns(searched).equals(play_columns(greedy)), sets
        assert sorted_frame(searched, "events").equals(sorted_frame(greedy, "events")), sets
        assert searched["players"]["search_rollouts"].sum() == 0


def test_search_changes_play_but_not_the_deal():
    greedy = run(["greedy", "greedy"], sets=["policies.search.budget=4"])
    searched = run(["search", "greedy"], sets=["policies.search.budget=4"])
    assert not play_columns(searched).equals(play_columns(greedy))

    def dealt(frames):  # offers fixed by the shuffle alone: opening hands and opening row
        ev = sorted_frame(frames, "events")
        return ev.filter((pl.col("kind") == "offer") & (pl.col("amount") == 1))

    assert dealt(searched).equals(dealt(greedy))
    assert searched["players"].select("faction").equals(greedy["players"].select("faction"))


def test_same_seed_same_games_and_shards_do_not_matter():
    pols = ["search", "greedy"]
    sets = ["policies.search.budget=4"]
    whole = run(pols, n_games=8, sets=sets)
    again = run(pols, n_games=8, sets=sets)
    halves = [run(pols, n_games=4, sets=sets, first=f) for f in (0, 4)]
    for name in ("games", "players", "events"):
        assert sorted_frame(whole, name).equals(sorted_frame(again, name))
        joined = pl.concat([h[name] for h in halves])
        assert sorted_frame(whole, name).equals(joined.sort([k for k in ("game_id", "seat") if k in joined.columns],
                                                            maintain_order=True))


def test_search_rollouts_count_budget_per_searched_step():
    frames = run(["search", "greedy"], sets=["policies.search.budget=4"])
    players = frames["players"]
    searched = players.filter(pl.col("policy") == "search")["search_rollouts"]
    assert (searched > 0).all() and (searched % 4 == 0).all()
    assert players.filter(pl.col("policy") == "greedy")["search_rollouts"].sum() == 0


def test_check_passes_with_search_seats():
    frames = run(["search", "greedy", "random"], n_games=24, counts=(2, 3, 4, 5),
                 sets=["policies.search.budget=3"], check=True)
    assert frames["games"].height == 24


def last_turn_of_october():
    """3 players, October, seat 0 to act last (k = 2) with no dice left and $3: seats 0 and 1 are
    level on reputation and nothing else scores (every quality 0, no flavor cards). The month's
    event (here Summerfest's: +1 reputation on top, a brew at the bottom that is worth nothing
    without grain), bought as the $3 extra action, gives +1 reputation: a win instead of a shared
    one. Greedy prices the extra action above that and ends its turn."""
    _, R, S, pols = blank(3, variant="standard", policy="search")  # budget 16, policies.toml's default
    v = view(S)
    v.game.month = C.OCTOBERFEST
    v.game.start = C.OCTOBERFEST % 3
    v.board.events[C.OCTOBERFEST] = C.SUMMER_EVENT
    v.seat(0).money = 3
    v.seat(0).rep = 10
    v.seat(1).rep = 10
    v.seat(2).rep = 4
    S.tmp[K.POLS_AT:K.POLS_AT + C.MAX_PLAYERS] = pols
    return R, S, pols, make_search(2000)


def test_search_finds_the_winning_extra_action_greedy_declines():
    R, S, pols, Q = last_turn_of_october()
    assert pol.next_step(S, R, 0, pols[0]) == C.STEP_DONE * 64
    step = K.search_step(S, R, Q, 3, pols, 0, C.OCTOBERFEST, 2)
    assert step == C.STEP_EXTRA * 64 + C.EVENT * 8
    assert view(S).seat(0).extra_used == 0  # search_step only chooses; nothing was played
    K.search_turn(S, R, Q, 3, pols, 0, C.OCTOBERFEST, 2)
    assert view(S).seat(0).rep == 11


def march_position(horizon=C.MONTHS):
    """last_turn_of_october's table moved to April, rollouts playing `horizon` more months
    (default: to the end of the game, seven more months of trading and turns)."""
    R, S, pols, Q = last_turn_of_october()
    view(S).game.month = 1
    view(S).game.start = 1
    R.pol_w[pols[0], C.W_HORIZON] = horizon
    return R, S, pols, Q


EXTRA_EVENT = C.STEP_EXTRA * 64 + C.EVENT * 8


def test_a_rollout_leaves_the_live_state_untouched():
    R, S, pols, Q = march_position()
    before = {f: getattr(S, f).copy() for f in S._fields}
    K.rollout(S, R, Q, 3, 0, 1, 2, EXTRA_EVENT, 12345)
    assert Q.T.g[C.G_MONTH] == C.OCTOBERFEST  # the scratch game was played to its end
    for f in S._fields:
        assert np.array_equal(getattr(S, f), before[f]), f


def test_a_rollout_stops_at_its_horizon():
    R, S, pols, Q = march_position(horizon=2)
    K.rollout(S, R, Q, 3, 0, 1, 2, EXTRA_EVENT, 12345)
    assert Q.T.g[C.G_MONTH] == 3


def test_one_world_replays_the_same_rollout_and_another_world_differs():
    R, S, pols, Q = march_position()
    final = []
    for world in (1, 1, 2, 3):
        K.rollout(S, R, Q, 3, 0, 1, 2, EXTRA_EVENT, world)
        final.append((Q.T.pl[:3, C.REP].tolist(), Q.T.pile[C.PILE_DECK, :8].tolist()))
    assert final[0] == final[1]
    assert final[2] != final[0] or final[3] != final[0]


def test_a_decision_draws_one_world_per_sweep_from_its_own_search_stream():
    """Budget 16 over 4 candidates: four sweeps, so seat 0's search stream moves four words."""
    R, S, pols, Q = march_position()
    mirror = S.rng.copy()
    before = {f: getattr(S, f).copy() for f in S._fields}
    nc = search.candidates(S, R, Q, 0, pols[0], pol.next_step(S, R, 0, pols[0]), 4)
    assert nc == 4
    K.search_step(S, R, Q, 3, pols, 0, 1, 2)
    for _ in range(4):
        next_u64(mirror, RNG_SEARCH0)
    assert np.array_equal(S.rng, mirror)
    assert S.pl[0, C.SEARCH_ROLLOUTS] == 16
    S.pl[0, C.SEARCH_ROLLOUTS] = 0
    for f in S._fields:
        if f not in ("rng", "gains"):  # gains: the bots' judge cache, filled as greedy values the candidates
            assert np.array_equal(getattr(S, f), before[f]), f
