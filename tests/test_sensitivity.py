"""Estimate sensitivity: the statistics on synthetic paired data with a known truth, the
estimate list and its ranges, and the data checks of declared ranges."""

import numpy as np
import polars as pl
import pytest

from analysis import sensitivity as S
from analysis.paired import Units
from sim.core import config as cfg
from sim.core.errors import BrewError
from sim.core.estimates import DECLARED, default_range, game_estimates, select


def _units(rng, n_games: int, p_first: np.ndarray) -> Units:
    """3-player games of factions a, b, c on fixed seats; seat 0 wins game i when u_i < p,
    else seat 1 or 2 by a second shared draw (common random numbers across arms)."""
    u, v = p_first
    rows = []
    for i in range(n_games):
        winner = 0 if u[i] < v else (1 if rng[i] < 0.5 else 2)
        for seat, faction in enumerate("abc"):
            rows.append({"game_id": i, "n_players": 3, "seat": seat, "faction": faction,
                         "win": float(seat == winner)})
    players = pl.DataFrame(rows)
    return Units(players=players, games=players.select("game_id", "n_players").unique())


def _arms(seed: int, n: int, effect: float):
    g = np.random.default_rng(seed)
    u, split = g.random(n), g.random(n)
    return _units(split, n, (u, 1 / 3 - effect / 2)), _units(split, n, (u, 1 / 3 + effect / 2))


def test_null_estimates_rarely_make_a_verdict_rest_on_them():
    false_rests, verdicts = 0, 0
    for rep in range(40):
        effects = {f"e{k}": S.verdict_effects(*_arms(1000 * rep + k, 300, 0.0)) for k in range(4)}
        # a null here: low and high deal identical games (effect 0), plus independent noise arms
        g = np.random.default_rng(rep)
        effects["noise"] = S.verdict_effects(_units(g.random(300), 300, (g.random(300), 1 / 3)),
                                             _units(g.random(300), 300, (g.random(300), 1 / 3)))
        lab = S.labels(S.rank_effects(effects, 0.03))
        verdicts += lab.height
        false_rests += int((lab["label"] != S.ROBUST).sum())
    assert false_rests / verdicts <= 0.07


def test_planted_effect_is_found_with_its_sign_and_ranks_first():
    effects = {"planted": S.verdict_effects(*_arms(7, 600, 0.15)),
               "inert": S.verdict_effects(*_arms(8, 600, 0.0))}
    ranked = S.rank_effects(effects, 0.03)
    first = ranked.filter(pl.col("kind") == "first-player advantage")
    assert first["estimate"][0] == "planted" and first["diff"][0] > 0.1
    inert = first.filter(pl.col("estimate") == "inert")
    assert inert["lo"][0] <= 0 <= inert["hi"][0]
    a = S.labels(ranked).filter((pl.col("kind") == "faction win rate") & (pl.col("unit") == "a"))
    assert a["label"][0] == S.RESTS_ON + "planted"
    assert S.influence(ranked)["estimate"][0] == "planted"


def test_screen_passes_the_group_that_moves_a_verdict():
    moving, still = S.verdict_effects(*_arms(3, 600, 0.15)), S.verdict_effects(*_arms(4, 600, 0.0))
    assert S.screen({"cards": moving, "params": still}, 0.03) == ["cards"]


def test_default_range_is_25_percent_rounded_away_and_clamped():
    assert default_range(8, [0, 100]) == (6, 10)
    assert default_range(2, [0, 100]) == (1, 3)          # at least 1 either way
    assert default_range(0, [0, 100]) == (0, 1)          # clamped to the valid range
    assert default_range(0.5, [0.0, 1.0]) == (0.375, 0.625)


def test_dragon_brew_estimates_use_the_declared_shared_numbers():
    data = cfg.prepare("dragon_brew", "base", [], [])
    ests = {e.id: e for e in game_estimates(data, ["greedy"]).estimates}
    brewers = ests["races.*.brewers"]
    assert brewers.range_source == DECLARED
    assert not any(p.startswith("races.halfling.") for p in brewers.paths)  # printed: range_skip
    assert "races.halfling.brewers" not in ests and "races.*.difficulty" not in ests
    assert all(hi - b == 1 and b - lo == 1 for b, lo, hi in zip(brewers.base, brewers.low, brewers.high, strict=True))
    assert {e.id for e in select(list(ests.values()), "races.*.b*")} == {"races.*.brewers", "races.*.barrel"}


def _data_with(tmp_path, monkeypatch, game: str, file: str, old: str, new: str):
    import shutil

    root = tmp_path / "data"
    shutil.copytree(cfg.data_root() / "games" / game, root / "games" / game)
    path = root / "games" / game / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    monkeypatch.setenv("BREWBALANCE_DATA", str(root))


@pytest.mark.parametrize("new, message", [
    ("fame_max = [21, 30]", "does not hold its value 20"),
    ("fame_max = [16, 300]", "leaves its valid range"),
    ("fame_max = [16, 30]\nevenings = [4, 6]", "not a parameter listed in [estimates]"),
])
def test_bad_declared_range_is_one_line_naming_file_and_field(tmp_path, monkeypatch, new, message):
    _data_with(tmp_path, monkeypatch, "dwarfest", "params.toml", "fame_max = [16, 30]", new)
    with pytest.raises(BrewError, match=r"params\.toml.*" + message.replace("[", r"\[").replace("]", r"\]")) as err:
        cfg.load_game_data("dwarfest")
    assert "\n" not in str(err.value)


def test_entry_range_on_a_field_that_does_not_exist_is_refused(tmp_path, monkeypatch):
    _data_with(tmp_path, monkeypatch, "dragon_brew", "races.toml", "range = { stores = [6, 10] }",
               "range = { storage = [6, 10] }")
    with pytest.raises(BrewError, match=r"races\.toml: race 'halfling'.*'storage' is not a field"):
        cfg.load_game_data("dragon_brew")


def test_an_estimate_a_printed_example_pins_is_not_varied():
    """Dragon Brew's wort per mash is read off the Mash House example (two grains, one wort, on each
    of three actions): its declared range is the value itself, so sensitivity skips it by name
    instead of trying 0 wort per mash, which the example contradicts."""
    found = game_estimates(cfg.prepare("dragon_brew", "base", [], []))
    assert "params.wort_per_mash: its low and high equal its value" in found.skipped
    assert all("wort_per_mash" not in e.id for e in found.estimates)
