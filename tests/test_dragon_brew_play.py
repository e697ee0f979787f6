"""Dragon Brew played whole: invariants under random play over every player count, variant,
bot and race; bot strength; race-ability use; logging; golden replay; determinism; CLI options."""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from clihelp import cli, error_line, part_hashes
from dragon_brew_state import (
    C,
    config,
    game,
    give,
    ing,
    legal,
    need,
    offer_event,
    recipe,
    set_book,
    set_need,
)

from sim.dragon_brew import GAME
from sim.dragon_brew import planner as pn
from sim.dragon_brew.planner.memory import CD_CNTN, CD_ING, CD_K
from sim.dragon_brew.state import W_UNFINISHED

GOLDEN = Path(__file__).parent / "golden" / "dragon_brew_replay_seed7_game3.txt"
BOTS = ["random", "greedy", "builder"]
# The Naga's Mana Spell pays only with a spent spell other than Transmutation, a mana weed (6 of
# 68 Brewery cards make it) and a brewer at once; the greedy Naga used it in 23% of games on the
# run below (27% in 2,000 games; the test below shows it is never wasted): at its last brewer it
# holds a weed in 14% of years and then casts it 10 times in 11: see the known gaps in
# docs/games/dragon_brew.md. Every other race must use its power in most games (the Free Gnomes:
# 71% at 4 players, bounded by how often others draft Migrant Gnomes).
CONDITIONAL = {"naga": 0.2}


@pytest.mark.parametrize("variant", ["base", "corrupt_judge"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_hold_after_every_phase(variant, n):
    """check=True asserts after every phase: no negative gold/ingredients/brewers, Brewery,
    Event, recipe and judge cards conserved, 10 migrant gnomes conserved, ribbons == judges won,
    bribe tokens consistent, no brewer left on a race card after spring, year in bounds."""
    cfg = config(variant)
    shard = GAME.simulate(cfg, 11, 0, 40, [n], BOTS, check=True)
    games, players = shard.frames["games"], shard.frames["players"]
    assert games.height == 40 and (games["rounds"] == 3).all()
    assert players.height == 40 * n
    for col in ("score", "gold", "ribbons", "beers_brewed", "judges_won"):
        assert players[col].min() >= 0, col
    assert (players["vp_judges"] + players["vp_profit"] + players["vp_quests"] == players["score"]).all()
    assert (players["ribbons"] == players["judges_won"]).all()
    # every judge awards at most once (a split awards each tied player)
    judged = shard.frames["events"].filter(pl.col("kind") == "judge_won").group_by("game_id", "round", "card").len()
    assert judged.is_empty() or judged["len"].max() == 1
    assert games["judges_awarded"].max() <= 3 * (n + 1)


@pytest.mark.parametrize("variant", ["base", "corrupt_judge"])
def test_every_race_in_every_bot_passes_the_invariants(variant):
    cfg = config(variant)
    ids = cfg.race_ids
    for k in range(0, len(ids), 4):
        lineup = [ids[(k + j) % len(ids)] for j in range(4)]
        shard = GAME.simulate(cfg, 5, 0, 6, [4], BOTS, check=True, options={"lineup": lineup})
        got = shard.frames["players"].sort("game_id", "seat")["faction"].cast(pl.String).to_list()[:4]
        assert got == lineup


def test_default_race_draw_is_distinct_and_covers_every_race_and_seat():
    shard = GAME.simulate(config(), 1, 0, 200, [4], ["random"])
    p = shard.frames["players"]
    assert (p.group_by("game_id").agg(pl.col("faction").n_unique())["faction"] == 4).all()
    assert p["faction"].n_unique() == 19
    assert p.group_by("faction").agg(pl.col("seat").n_unique())["seat"].min() == 4


def test_winner_is_consistent_with_score_ribbons_and_gold():
    shard = GAME.simulate(config(), 5, 0, 150, [2, 3, 4], ["greedy", "random"])
    p = shard.frames["players"]
    for _, grp in p.group_by("game_id"):
        key = list(zip(grp["score"], grp["ribbons"], grp["gold"], strict=True))
        best = max(key)
        wins = grp["win"].to_list()
        assert abs(sum(wins) - 1.0) < 1e-9
        for k, w in zip(key, wins, strict=True):
            assert (w > 0) == (k == best)


def test_greedy_beats_random_by_a_wide_margin():
    shard = GAME.simulate(config(), 3, 0, 200, [2], ["greedy", "random"])
    p = shard.frames["players"]
    share = p.filter(pl.col("policy") == "greedy")["win"].sum() / 200
    assert share > 0.85, share
    sc = p.group_by("policy").agg(pl.col("score").mean())
    assert dict(zip(sc["policy"], sc["score"], strict=True))["greedy"] > 2 * dict(
        zip(sc["policy"], sc["score"], strict=True))["random"]


def test_builder_beats_random_and_plays_differently_from_greedy():
    shard = GAME.simulate(config(), 4, 0, 120, [2], ["builder", "random"])
    p = shard.frames["players"]
    assert p.filter(pl.col("policy") == "builder")["win"].sum() / 120 > 0.65
    a = GAME.simulate(config(), 4, 0, 60, [3], ["builder"]).frames["players"]
    b = GAME.simulate(config(), 4, 0, 60, [3], ["greedy"]).frames["players"]
    assert a["judges_won"].mean() < b["judges_won"].mean()


def test_every_race_uses_its_ability_in_most_games():
    shard = GAME.simulate(config(), 3, 0, 300, [4], ["greedy"])
    p, e = shard.frames["players"], shard.frames["events"]
    used = e.filter(pl.col("kind") == "ability").select("game_id", "seat").unique().with_columns(used=pl.lit(1))
    p = p.join(used, on=["game_id", "seat"], how="left").with_columns(pl.col("used").fill_null(0))
    rates = dict(p.group_by("faction").agg(pl.col("used").mean()).iter_rows())
    assert len(rates) == 19
    for race, rate in rates.items():
        assert rate >= CONDITIONAL.get(race, 0.5), (race, rate)


def test_corrupt_judge_variant_bribes_and_only_then():
    base = GAME.simulate(config(), 2, 0, 60, [4], ["greedy"]).frames["events"]
    cor = GAME.simulate(config("corrupt_judge"), 2, 0, 60, [4], ["greedy"]).frames["events"]
    assert base.filter(pl.col("kind") == "bribe").is_empty()
    assert cor.filter(pl.col("kind") == "bribe").height > 0


def test_every_draft_and_judge_is_an_event():
    shard = GAME.simulate(config(), 6, 0, 30, [3], ["greedy", "random"])
    e, p = shard.frames["events"], shard.frames["players"]
    drafts = e.filter(pl.col("kind").is_in(["draft_brewery", "draft_event"])).group_by("game_id", "seat").len()
    joined = p.join(drafts, on=["game_id", "seat"], how="left").with_columns(pl.col("len").fill_null(0))
    assert (joined["len"] == joined["cards_drafted"]).all()
    won = e.filter(pl.col("kind").is_in(["judge_won", "judge_split"])).group_by("game_id", "seat").len()
    joined = p.join(won, on=["game_id", "seat"], how="left").with_columns(pl.col("len").fill_null(0))
    assert (joined["len"] == joined["judges_won"]).all()


def test_replay_matches_the_golden_log():
    """A fixed seed replays to a fixed log. If rules, data or RNG change on purpose, rewrite it
    with: python tests/regen_golden.py (and say so in the commit message)."""
    lines = GAME.replay(config(), 7, 3, [4], ["greedy", "random"])
    assert "\n".join(lines) + "\n" == GOLDEN.read_text()


def test_replay_agrees_with_the_simulated_result():
    cfg = config()
    shard = GAME.simulate(cfg, 7, 0, 5, [4], ["greedy", "random"])
    p = shard.frames["players"].filter(pl.col("game_id") == 3).sort("seat")
    result = GAME.replay(cfg, 7, 3, [4], ["greedy", "random"])[-2]
    assert result.startswith("Result: ")
    shown = {int(m[1]): int(m[2]) for m in re.finditer(r"seat (\d+) [^,]*? (\d+) VP", result)}
    assert shown == dict(enumerate(p["score"].to_list()))  # each seat with its own score


def test_same_seed_same_games_and_independent_of_the_sharding():
    cfg = config()
    a = GAME.simulate(cfg, 21, 0, 30, [3, 4], ["greedy", "random"]).frames
    b = GAME.simulate(cfg, 21, 10, 20, [3, 4], ["greedy", "random"]).frames
    assert a["players"].filter(pl.col("game_id") >= 10).equals(b["players"])
    assert a["events"].filter(pl.col("game_id") >= 10).equals(b["events"])
    c = GAME.simulate(cfg, 22, 0, 30, [3, 4], ["greedy", "random"]).frames
    assert not a["players"].equals(c["players"])


def test_changing_a_bot_does_not_change_races_or_the_first_judges():
    cfg = config()
    a = GAME.replay(cfg, 30, 0, [3], ["greedy"])
    b = GAME.replay(cfg, 30, 0, [3], ["random"])
    assert a[2] == b[2]  # the year-1 judges
    assert [x.split("[")[0] for x in a[1].split(",")] == [x.split("[")[0] for x in b[1].split(",")]


def test_cli_factions_and_lineup(tmp_path):
    out = tmp_path / "run"
    proc = cli("simulate", "dragon_brew", "--games", "8", "--players", "2", "--factions", "dwarf,elf,orc",
               "--out", out, "--quiet", "--jobs", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["options"] == {"factions": ["dwarf", "elf", "orc"]}
    p = pl.read_parquet(out / "players")
    assert set(p["faction"].cast(pl.String)) <= {"dwarf", "elf", "orc"}
    rep = cli("replay", out, "3", cwd=tmp_path)
    assert rep.returncode == 0 and ("Dwarves" in rep.stdout or "Elves" in rep.stdout or "Orcs" in rep.stdout)
    out2 = tmp_path / "run2"
    proc = cli("simulate", "dragon_brew", "--games", "4", "--players", "3", "--lineup", "ogre,naga,giant",
               "--out", out2, "--quiet", "--jobs", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    p = pl.read_parquet(out2 / "players").sort("game_id", "seat")
    assert p["faction"].cast(pl.String).to_list()[:3] == ["ogre", "naga", "giant"]


@pytest.mark.parametrize("args,needle", [
    (("dragon_brew", "--factions", "dwarf,elff"), "unknown faction 'elff'"),
    (("dragon_brew", "--factions", "dwarf"), "cannot seat"),
    (("dragon_brew", "--lineup", "dwarf,dwarf"), "distinct"),
    (("dwarfest", "--factions", "dwarf,elf"), "no factions"),
])
def test_cli_faction_option_errors(tmp_path, args, needle):
    proc = cli("simulate", *args, "--games", "4", "--players", "2", "--out", tmp_path / "x", "--quiet",
               cwd=tmp_path)
    assert needle in error_line(proc, 2)


def test_jobs_and_shards_do_not_change_a_byte(tmp_path):
    """tests/test_determinism.py checks this for dwarfest; Dragon Brew's kernel (planner memory,
    scratch rows) must be just as independent of the threads and shards it runs in."""
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}"
        proc = cli("simulate", "dragon_brew", "--games", "48", "--players", "2,3,4", "--policies", "greedy,random",
                   "--seed", "5", "--shard-size", "12", "--jobs", jobs, "--out", out, "--quiet", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        runs[jobs] = part_hashes(out)
    assert len(runs["1"]) == 4 * 4  # 4 shards x 4 tables
    assert runs["1"] == runs["2"]


def used(G, seat, name):
    """seat has spent its spell card `name` this year."""
    G.S.est[seat, G.ci(seat, name), C.CF_SPELL_USED] = 1


def choice(G, seat):
    """The planner's move among seat's legal moves, as a tuple."""
    n = len(legal(G, seat))
    return tuple(int(x) for x in G.S.moves[pn.choose(G.S, G.R, G.B, seat, n)])


def test_the_value_view_holds_the_state_rules_and_memory_arrays_themselves():
    """The valuations' compiled calls take value_view's tuples (only the arrays they read, so
    fewer words pushed a call): each field must be S's, R's or B's own array of that name, not a
    copy, or the planner's scratch and need writes would be lost."""
    from sim.dragon_brew.planner.memory import value_view

    G = game(["naga", "human"], policy="greedy")
    parts = getattr(value_view, "py_func", value_view)(G.S, G.R, G.B)
    for part, whole in zip(parts, (G.S, G.R, G.B), strict=True):
        for name in part._fields:
            assert getattr(part, name) is getattr(whole, name), name


def test_naga_mana_spell_only_when_it_makes_a_useful_spell_ready_again():
    """Re-readying a Transmutation with the weed it just made gains nothing, so the greedy Naga
    sends its brewer elsewhere; with a spent Chaos Spell and its last two brewers (the Mana Spell
    is once a year, the Study can wait, no grain pair to mash now that every Mash House is x2) the
    Mana Spell is its best move."""
    G = game(["naga", "human"], policy="greedy")
    S = G.S
    G.seat(0).set(own_avail=2, own_out=G.seat(0).own_total - 2)
    give(G, 0, "transmutation_spell")
    used(G, 0, "transmutation_spell")
    S.pl[0, C.PL_INV:C.PL_INV + C.N_INGS] = ing(wheat=6, mana_weed=1)  # six grains to transmute, no pair to mash
    S.g[C.G_FLAGS:C.G_FLAGS + 4] = 0
    pn.start_turn(S, G.R, G.B, 0)
    ms = (C.M_BREWER, G.ci(0, "mana_spell"), 0, 0, 0)
    assert ms in legal(G, 0) and choice(G, 0) != ms
    give(G, 0, "chaos_spell")
    used(G, 0, "chaos_spell")
    assert choice(G, 0) == ms


def test_naga_values_its_first_mana_weed_once_it_owns_a_spell_worth_casting_twice():
    G = game(["naga", "human"], policy="greedy")
    S, R, B = G.S, G.R, G.B
    S.pl[0, C.PL_INV:C.PL_INV + C.N_INGS] = 0
    set_need(G, 0)  # no plan
    weed = np.array([C.MANA], np.int64)
    pn.refresh_need(S, R, B, 0)
    plain = pn.gain_value(S, R, B, 0, weed, 1)
    give(G, 0, "chaos_spell")
    used(G, 0, "chaos_spell")
    pn.refresh_need(S, R, B, 0)
    assert pn.gain_value(S, R, B, 0, weed, 1) > plain + 2.0
    S.pl[0, C.PL_INV + C.MANA] = 1  # one weed is enough for the once-a-year Mana Spell
    pn.refresh_need(S, R, B, 0)
    assert B.fv[0, pn.FV_MANA_EXTRA] == 0.0


def test_free_gnomes_keep_the_guild_fee_while_migrant_gnomes_are_on_offer():
    G = game(["free_gnomes", "human"], policy="greedy")
    S, R, B = G.S, G.R, G.B
    offer_event(G, "migrant_gnomes")
    S.pl[0, C.PL_GOLD] = 3
    assert pn.guild_reserve(S, R, 0) == 2
    set_need(G, 0, toadstool=3)
    assert pn.trader_count(S, R, B, 0, 3, 2) == 0  # 3 gold - 2 kept buys no magic at 2 gold
    S.pl[0, C.PL_GOLD] = 6
    assert pn.trader_count(S, R, B, 0, 3, 2) == 2
    S.g[C.G_GNOME_SUPPLY] = 1  # the drafter would take the last gnome: nothing left to hire
    assert pn.guild_reserve(S, R, 0) == 0
    assert pn.trader_count(S, R, B, 0, 3, 2) == 3


def test_rounds_table_holds_every_seats_vp_after_each_year():
    shard = GAME.simulate(config(), 9, 0, 12, [2, 3, 4], ["greedy", "random"])
    r, p = shard.frames["rounds"], shard.frames["players"]
    assert r.schema == {"game_id": pl.Int64, "seat": pl.Int16, "round": pl.Int16, "score": pl.Int32}
    assert r.height == 3 * p.height
    assert r.group_by("game_id", "seat").agg(pl.col("round").sort())["round"].to_list() == [[1, 2, 3]] * p.height
    last = r.filter(pl.col("round") == 3).join(p, on=["game_id", "seat"])
    assert (last["score"] == last["score_right"]).all()
    # VP only ever grows, and year 3 adds at least the fall profits of that year
    steps = r.sort("game_id", "seat", "round").with_columns(d=pl.col("score").diff().over("game_id", "seat"))
    assert steps["d"].drop_nulls().min() >= 0
    # the replay of a game shows the same VP after each year
    g3 = GAME.replay(config(), 9, 3, [2, 3, 4], ["greedy", "random"])
    r3 = r.filter(pl.col("game_id") == 3).sort("round", "seat")
    want = [f"VP after year {y}: " + ", ".join(f"seat {s} {v}" for s, v in zip(grp["seat"], grp["score"], strict=True))
            for (y,), grp in r3.group_by("round", maintain_order=True)]
    assert [line for line in g3 if line.startswith("VP after year")] == want


def test_greedy_brews_well_over_four_beers_a_game():
    """The greedy planner budgets its beers in brewer actions and finishes them (Mash House,
    Magic Trader): 4.76 beers a player-game on this run (the planner before: 3.77)."""
    p = GAME.simulate(config(), 3, 0, 60, [4], ["greedy"]).frames["players"]
    assert p["beers_brewed"].mean() > 4.4


def _wort_plan(G, seat, inv, brewers):
    """seat's book holds one beer, the Dunkel barrel (barley, orange wort) + Pale Ale (wheat);
    an orange wort is mashed from wheat and barley. Returns the planner's value of each brewer
    move by card key."""
    S = G.S
    set_book(G, seat, [recipe(G.cfg, "dunkel"), recipe(G.cfg, "pale_ale")])
    S.pl[seat, C.PL_INV:C.PL_INV + C.N_INGS] = inv
    G.seat(seat).set(own_avail=brewers, own_out=G.seat(seat).own_total - brewers)
    S.g[C.G_FLAGS:C.G_FLAGS + 4] = 0
    pn.start_turn(S, G.R, G.B, seat)
    assert G.B.mem[seat, pn.M_NPLAN] == 1
    moves = legal(G, seat)
    return {int(S.est[seat, m[1], C.CF_KEY]): pn.move_value(S, G.R, G.B, seat, k)
            for k, m in enumerate(moves) if m[0] == C.M_BREWER}


def test_planner_mashes_the_wort_its_beer_lacks_before_more_grain():
    """Holding the wheat and barley for the orange wort and the Pale Ale's wheat but lacking the
    Dunkel's own barley, the Mash House (the wort finishes the barrel) is worth more than a Grain
    Fields visit for one barley (the planner before valued them 2.6 and 3.3 and kept harvesting)."""
    G = game(["human", "dwarf"], policy="greedy")
    vals = _wort_plan(G, 0, ing(wheat=2, barley=1), 4)
    assert need(G, 0)[C.ORANGE] == 1 and need(G, 0)[C.BARLEY] == 1 and need(G, 0)[C.WHEAT] == 0
    assert vals[C.MASH_HOUSE] > vals[C.GRAIN_FIELDS]


def test_last_brewer_does_not_make_a_wort_that_finishes_no_beer():
    """With one brewer left, mashing the orange wort completes the beer only if the other
    ingredients are held; otherwise it keeps `unfinished` of its value."""
    G = game(["human", "dwarf"], policy="greedy")
    full = _wort_plan(G, 0, ing(wheat=2, barley=2), 1)[C.MASH_HOUSE]
    short = _wort_plan(G, 0, ing(wheat=2, barley=1), 1)[C.MASH_HOUSE]
    unfinished = G.R.pol_w[G.seat(0).policy, W_UNFINISHED]
    assert 0 < unfinished < 1
    assert full > 0 and short == pytest.approx(full * unfinished)


def range_edges(cfg_params_ranges):
    """(key, value) for both ends of every integer [ranges.params] entry of the data."""
    return [(k, v) for k, (lo, hi) in cfg_params_ranges.items() for v in sorted({lo, hi})]


PARAM_RANGES = tomllib.loads((Path(__file__).parent.parent / "data/games/dragon_brew/params.toml").read_text())[
    "ranges"]["params"]


@pytest.mark.parametrize("key,value", range_edges(PARAM_RANGES))
def test_every_param_at_the_edge_of_its_range_plays_without_overflow(key, value):
    """Every value the data declares valid must play (a max_spices of 3 used to overflow the
    planner's beer buffer): a few 4-player games of each bot at each end of each range."""
    cfg = config(sets=[f"{key}={value}"])
    shard = GAME.simulate(cfg, 20261129, 52, 8, [4], ["greedy", "builder", "random"], check=True)  # the failing sweep
    assert shard.frames["games"].height == 8


def test_the_planner_searches_fewer_spices_when_a_book_would_overflow_its_buffer():
    assert pn.spice_limit(8, 20, 2) == 2
    assert pn.spice_limit(8, 20, 3) == 2  # 8 x (20 + 190 + 1140) = 10800 beers > MAX_CANDS
    assert pn.spice_limit(5, 20, 3) == 3  # 5 x 1350 = 6750 fits
    assert pn.spice_limit(30, 72, 4) == 1  # the whole deck in one book still fits with one spice
    assert 30 * 72 <= C.MAX_CANDS


@pytest.mark.parametrize("max_spices", [1, 3])
def test_each_beer_built_from_its_part_built_row_is_the_row_of_all_its_recipes(max_spices):
    """build_beers adds only a beer's last spice to the row kept for its barrel and first spices:
    every row must be the one adding the barrel and each spice in turn to an empty row gives
    (fails when a kept row is reused after the spices under it changed)."""
    from sim.dragon_brew.planner.beers import add_recipe, build_beers
    from sim.dragon_brew.planner.memory import CD_CARD, CD_NSP, CW, MAX_SP
    from sim.dragon_brew.state import RC_SPICE

    G = game(["human", "dwarf"], sets=[f"params.max_spices={max_spices}"])
    R = G.R
    barrels = [r for r in range(R.rc.shape[0]) if R.rc[r, RC_SPICE] == 0]
    spices = [r for r in range(R.rc.shape[0]) if R.rc[r, RC_SPICE] != 0]
    rng = np.random.default_rng(5)
    book = list(rng.choice(barrels, 3, replace=False)) + list(rng.choice(spices, 6, replace=False))
    rng.shuffle(book)
    set_book(G, 0, [int(r) for r in book])
    book_spices = [int(r) for r in book if R.rc[r, RC_SPICE] != 0]
    beers = [[int(b)] + list(c) for b in book if R.rc[b, RC_SPICE] == 0
             for k in range(1, max_spices + 1) for c in itertools.combinations(book_spices, k)]
    assert build_beers(G.S, R, G.B, 0) == len(beers)
    want = np.zeros((1, CW), np.int64)
    for ci, cards in enumerate(beers):
        row = G.B.cand[0, ci]
        want[0] = 0
        want[0, CD_CARD:CD_CARD + 1 + MAX_SP] = -1
        want[0, CD_CARD:CD_CARD + len(cards)] = cards
        want[0, CD_NSP] = len(cards) - 1
        for r in cards:
            add_recipe(R.rc, want, 0, r)
        assert (row == want[0]).all(), f"beer {ci} {cards}"


def two_pass_first_live(stale, active, live):
    """The lazy-greedy step as select did it in two passes before first_live: the first live
    beer in stale order, then the dead beers ahead of it dropped and the best stale value of
    the active beers behind it."""
    ci = -1
    for j in range(len(stale)):
        if active[j] and (ci < 0 or stale[j] > stale[ci]) and live[j]:
            ci = j
    if ci < 0:
        return ci, -np.inf
    active[ci] = 0.0
    top = -1
    for j in range(len(stale)):
        if not active[j]:
            continue
        if stale[j] > stale[ci] or (stale[j] == stale[ci] and j < ci):
            active[j] = 0.0
            continue
        if top < 0 or stale[j] > stale[top]:
            top = j
    return ci, (stale[top] if top >= 0 else -np.inf)


def test_the_beer_search_step_in_one_pass_matches_the_two_pass_step():
    """first_live (one pass) picks the same beer, drops the same dead beers and reports the same
    runner-up value as the two passes it replaced, on random beers with many ties, dead beers
    ahead of and behind the first live one, and none live at all."""
    from sim.dragon_brew.planner.beers import first_live

    rng = np.random.default_rng(11)
    epoch = 3.0
    for case in range(3000):
        n = int(rng.integers(1, 40))
        stale = rng.integers(-3, 4, n).astype(np.float64)  # few values: many ties
        active = (rng.random(n) < 0.8).astype(np.float64)
        live = rng.random(n) < (0.1 if case % 10 == 0 else 0.6)
        dead = np.where(live, epoch, -1.0)  # is_dead reads its cache: epoch = alive, -1 = dead
        want_active = active.copy()
        want = two_pass_first_live(stale, want_active, live)
        found = np.zeros(n, np.int64)
        listed = np.arange(n)  # every beer, the inactive ones too (at -inf): a superset
        lval = np.where(active != 0, stale, -np.inf)
        was_active = np.flatnonzero(active)
        pos, top_v, n_kept = first_live(np.zeros((n, 16), np.int64), lval, listed, n, dead, found, epoch,
                                        np.zeros(1, np.int64), np.zeros(C.N_INGS, np.int64), True,
                                        np.zeros(C.N_INGS), 0.0)
        assert ((listed[pos] if pos >= 0 else -1), top_v) == want, f"case {case}"
        assert (listed[:n_kept] == was_active).all(), f"case {case}: the pass kept other beers"
        still = lval[:n_kept] != -np.inf
        assert (still == (want_active[was_active] != 0)).all(), f"case {case}: active beers differ"
        assert (lval[:n_kept][still] == stale[was_active][still]).all(), f"case {case}: stale values moved"


def lack_cost_with_branches(cand, ci, inv, acquire):
    """lack_cost as it was written before its branches became min and max (the reference)."""
    cost = 0.0
    mana = inv[C.MANA] if inv[C.MANA] > 0 else 0
    for j in range(cand[ci, CD_CNTN]):
        i, k = cand[ci, CD_ING + j], cand[ci, CD_K + j]
        short = k - inv[i] if inv[i] > 0 else k
        if short <= 0:
            continue
        if mana >= short:
            mana -= short
            continue
        short -= mana
        mana = 0
        for _ in range(short):
            cost += acquire[i]
    return cost


def test_lack_cost_without_branches_matches_the_branching_one_bit_for_bit():
    """The compiled lack_cost (min and max, the first two additions by a select) gives the very
    bits of the branching form for every beer of random books, against random inventories (with
    and without mana weed) and acquire costs (each sum's bits depend on its order)."""
    from sim.dragon_brew.planner.beers import build_beers, lack_cost
    from sim.dragon_brew.state import RC_SPICE

    G = game(["human", "dwarf"], sets=["params.max_spices=3"])
    R = G.R
    barrels = [r for r in range(R.rc.shape[0]) if R.rc[r, RC_SPICE] == 0]
    spices = [r for r in range(R.rc.shape[0]) if R.rc[r, RC_SPICE] != 0]
    rng = np.random.default_rng(17)
    for case in range(300):
        if case % 30 == 0:
            book = list(rng.choice(barrels, 2, replace=False)) + list(rng.choice(spices, 5, replace=False))
            set_book(G, 0, [int(r) for r in book])
            n = build_beers(G.S, R, G.B, 0)
        cand = G.B.cand[0]
        inv = rng.integers(0, 4, C.N_INGS) * (rng.random(C.N_INGS) < 0.6)
        inv[C.MANA] = rng.integers(0, 4) if case % 3 else 0
        acquire = 1.0 / rng.integers(1, 8, C.N_INGS) + rng.random(C.N_INGS) * (case % 2)
        for ci in range(n):
            got, want = lack_cost(cand, ci, inv, acquire), lack_cost_with_branches(cand, ci, inv, acquire)
            assert np.float64(got).tobytes() == np.float64(want).tobytes(), f"case {case} beer {ci}: {got} != {want}"
