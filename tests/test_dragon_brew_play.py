"""Dragon Brew played whole: invariants under random play over every player count, variant,
bot and race; bot strength; race-ability use; logging; golden replay; determinism; CLI options."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from clihelp import cli, error_line
from dragon_brew_state import C, brewery, config, flags, game, recipe, take_from_decks

from sim.dragon_brew import GAME, rules
from sim.dragon_brew.policies import PlannerBot

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
    for seat, score in enumerate(p["score"]):
        assert f"seat {seat} " in result and f" {score} VP" in result


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


def test_worker_processes_give_the_same_games(monkeypatch):
    cfg = config()
    monkeypatch.setenv("BREWBALANCE_DB_PROCESSES", "1")
    a = GAME.simulate(cfg, 8, 0, 420, [2], ["random"]).frames
    monkeypatch.setenv("BREWBALANCE_DB_PROCESSES", "2")
    b = GAME.simulate(cfg, 8, 0, 420, [2], ["random"]).frames
    for k in ("games", "players", "events", "rounds"):
        assert a[k].equals(b[k]), k


def _give(g, p, card_id):
    t = brewery(g.cfg, card_id)
    take_from_decks(g, t)
    rules.add_brewery_card(g, p, t)
    return [c.key for c in p.estate].index(card_id)


def test_naga_mana_spell_only_when_it_makes_a_useful_spell_ready_again():
    """Re-readying a Transmutation with the weed it just made gains nothing, so the greedy Naga
    sends its brewer elsewhere; with a spent Chaos Spell and its last two brewers (the Mana Spell
    is once a year, the Study can wait) the Mana Spell is its best move."""
    g = game(["naga", "human"])
    n, bot = g.players[0], g.bots[0]
    n.own_avail, n.own_out = 2, n.own_total - 2
    ts = _give(g, n, "transmutation_spell")
    n.estate[ts].spell_used = True
    n.inv = [2, 2, 2, 0, 0, 0, 0, 0, 0, 1]
    bot.start_turn(g, n)
    moves = rules.legal_moves(g, n, flags())
    ms = [m for m in moves if m[0] == "brewer" and n.estate[m[1]].key == "mana_spell"]
    assert ms and bot.choose(g, n, moves, flags()) not in ms
    cs = _give(g, n, "chaos_spell")
    n.estate[cs].spell_used = True
    moves = rules.legal_moves(g, n, flags())
    assert bot.choose(g, n, moves, flags()) in ms


def test_naga_values_its_first_mana_weed_once_it_owns_a_spell_worth_casting_twice():
    g = game(["naga", "human"])
    n, bot = g.players[0], g.bots[0]
    n.inv = [0] * C.N_INGS
    bot.refresh_need(g, n)
    plain = bot.gain_value([C.MANA])
    cs = _give(g, n, "chaos_spell")
    n.estate[cs].spell_used = True
    bot.refresh_need(g, n)
    assert bot.gain_value([C.MANA]) > plain + 2.0
    n.inv[C.MANA] = 1  # one weed is enough for the once-a-year Mana Spell
    bot.refresh_need(g, n)
    assert bot.mana_extra == 0.0


def test_free_gnomes_keep_the_guild_fee_while_migrant_gnomes_are_on_offer():
    g = game(["free_gnomes", "human"])
    fg, bot = g.players[0], g.bots[0]
    t = [c["id"] for c in g.cfg.events].index("migrant_gnomes")
    take_from_decks(g, t, "event")
    g.edeck.append(g.erow[0])
    g.erow[0] = t
    fg.gold = 3
    assert bot.guild_reserve(g, fg) == 2
    bot.need = [0] * C.N_INGS
    bot.need[C.TOAD] = 3
    assert PlannerBot.trader_count(bot, g, fg, 3, 2) == 0  # 3 gold - 2 kept buys no magic at 2 gold
    fg.gold = 6
    assert PlannerBot.trader_count(bot, g, fg, 3, 2) == 2
    g.gnome_supply = 1  # the drafter would take the last gnome: nothing left to hire
    assert bot.guild_reserve(g, fg) == 0


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
    g3 = GAME.replay(config(), 9, 3, [2, 3, 4], ["greedy", "random"])
    assert any("profit" in line for line in g3)


def test_greedy_brews_well_over_four_beers_a_game():
    """The greedy planner budgets its beers in brewer actions and finishes them (Mash House,
    Magic Trader): 4.76 beers a player-game on this run (the planner before: 3.77)."""
    p = GAME.simulate(config(), 3, 0, 60, [4], ["greedy"]).frames["players"]
    assert p["beers_brewed"].mean() > 4.4


def _wort_plan(g, p, bot, inv, brewers):
    """p's book holds one beer, Sneaky Glowing Dunkel (barley, orange wort) + Pale Ale (wheat);
    an orange wort is mashed from wheat and barley."""
    p.book = [recipe(g.cfg, "sneaky_glowing_dunkel"), recipe(g.cfg, "pale_ale")]
    p.inv = list(inv)
    p.own_avail, p.own_out = brewers, p.own_total - brewers
    bot.start_turn(g, p)
    assert len(bot.plan) == 1
    moves = rules.legal_moves(g, p, flags())
    return {p.estate[m[1]].key: bot.move_value(g, p, m) for m in moves if m[0] == "brewer"}


def test_planner_mashes_the_wort_its_beer_lacks_before_more_grain():
    """Holding the wheat and barley for the orange wort and the Pale Ale's wheat but lacking the
    Dunkel's own barley, the Mash House (the wort finishes the barrel) is worth more than a Grain
    Fields visit for one barley (the planner before valued them 2.6 and 3.3 and kept harvesting)."""
    g = game(["human", "dwarf"])
    h, bot = g.players[0], g.bots[0]
    inv = [2, 0, 1] + [0] * (C.N_INGS - 3)  # wheat, rye, barley
    vals = _wort_plan(g, h, bot, inv, 4)
    assert bot.need[C.ORANGE] == 1 and bot.need[C.BARLEY] == 1 and bot.need[C.WHEAT] == 0
    assert vals["mash_house"] > vals["grain_fields"]


def test_last_brewer_does_not_make_a_wort_that_finishes_no_beer():
    """With one brewer left, mashing the orange wort completes the beer only if the other
    ingredients are held; otherwise it keeps `unfinished` of its value."""
    g = game(["human", "dwarf"])
    h, bot = g.players[0], g.bots[0]
    full = _wort_plan(g, h, bot, [2, 0, 2] + [0] * (C.N_INGS - 3), 1)["mash_house"]
    short = _wort_plan(g, h, bot, [2, 0, 1] + [0] * (C.N_INGS - 3), 1)["mash_house"]
    assert full > 0 and short == pytest.approx(full * bot.w["unfinished"])
