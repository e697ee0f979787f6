"""Valid ranges in the data schema ([ranges] tables of data/games/<game>/*.toml, checked by
sim/core/config.py): --set, --override files and the shipped files are all checked."""

from __future__ import annotations

import pytest
from clihelp import copy_data, error_line, in_process

from sim.core import config as cfg
from sim.core.errors import BrewError, UsageError


@pytest.mark.parametrize("value", [-3, 0, 101, 100000])
def test_set_out_of_range_names_key_value_and_range(value):
    with pytest.raises(UsageError) as err:
        cfg.prepare("dwarfest", "base", [f"dwarfest.brawl_limit={value}"], [])
    msg = str(err.value)
    assert "brawl_limit" in msg and f"= {value}" in msg and "1..100" in msg


@pytest.mark.parametrize("value", [1, 5, 100])
def test_set_in_range_is_accepted(value):
    data = cfg.prepare("dwarfest", "base", [f"brawl_limit={value}"], [])
    assert data.tree["params"]["params"]["brawl_limit"] == value


def test_card_field_out_of_range():
    with pytest.raises(UsageError, match=r"bouncer\.cost' = -1 is outside its valid range 0\.\.20"):
        cfg.prepare("dwarfest", "base", ["dwarfest.tavern_cards.bouncer.cost=-1"], [])


def test_override_file_out_of_range(tmp_path):
    path = tmp_path / "o.toml"
    path.write_text("[params]\nevenings = 0\n")
    with pytest.raises(UsageError, match=r"evenings' = 0 is outside its valid range 1\.\.50"):
        cfg.prepare("dwarfest", "base", [], [path])


def test_cli_set_out_of_range_is_one_line(tmp_path):
    msg = error_line(in_process("simulate", "dwarfest", "--games", "10", "--set", "brawl_limit=-3",
                                "--out", tmp_path / "o", "--quiet"), 2)
    assert "-3" in msg and "1..100" in msg
    assert not (tmp_path / "o").exists()


def test_shipped_value_out_of_range(tmp_path, monkeypatch):
    data = copy_data(tmp_path / "data")
    params = data / "games" / "dwarfest" / "params.toml"
    params.write_text(params.read_text().replace("hand_size = 5 ", "hand_size = -1 "))
    monkeypatch.setenv("BREWBALANCE_DATA", str(data))
    with pytest.raises(BrewError, match=r"params\.toml: .*hand_size = -1 is outside its valid range 0\.\.20"):
        cfg.prepare("dwarfest", "base", [], [])


def test_every_numeric_field_needs_a_range(tmp_path, monkeypatch):
    data = copy_data(tmp_path / "data")
    params = data / "games" / "dwarfest" / "params.toml"
    params.write_text(params.read_text().replace("evenings = [1, 50]\n", ""))
    monkeypatch.setenv("BREWBALANCE_DATA", str(data))
    with pytest.raises(BrewError, match=r"no valid range declared for 'params\.evenings'"):
        cfg.prepare("dwarfest", "base", [], [])


GAMES = ("dwarfest", "brewin_usa", "homebrewers", "dragon_brew")
# One parameter of each game with its declared range, and a card field (file.entry.field).
PARAM = {"dwarfest": ("brawl_limit", 1, 100), "brewin_usa": ("beer_hand", 1, 8),
         "homebrewers": ("start_flavor_cards", 0, 4), "dragon_brew": ("draft_row", 1, 8)}
CARD = {"dwarfest": ("tavern_cards.bouncer.count", 0, 61), "brewin_usa": ("ingredient_cards.grain_1.quality", 1, 9),
        "homebrewers": ("judges.seven_flavors.min", 0, 20), "dragon_brew": ("abilities.shadow_judge.n", 0, 8)}


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_file_is_covered_and_inside_its_ranges(game):
    """Every numeric field of every shipped data file has a range holding its value, in
    every variant (prepare raises otherwise)."""
    from sim.registry import get_game

    g = get_game(game)
    for variant in g.variants(cfg.prepare(game, "base", [], [])):
        g.build(cfg.prepare(game, variant, [], []))


@pytest.mark.parametrize("game", GAMES)
def test_a_numeric_field_without_a_range_is_refused(game, tmp_path, monkeypatch):
    data = copy_data(tmp_path / "data")
    params = data / "games" / game / "params.toml"
    key = PARAM[game][0]
    text = params.read_text()
    start = text.rindex(f"\n{key} = [")
    params.write_text(text[:start] + text[text.index("\n", start + 1):])
    monkeypatch.setenv("BREWBALANCE_DATA", str(data))
    with pytest.raises(BrewError, match=rf"{game}/params\.toml: no valid range declared for 'params\.{key}'"):
        cfg.prepare(game, "base", [], [])


def test_a_file_without_ranges_gets_none_for_a_new_number(tmp_path, monkeypatch):
    data = copy_data(tmp_path / "data")
    cities = data / "games" / "brewin_usa" / "cities.toml"
    cities.write_text(cities.read_text().replace('prefers = "ipa"\n', 'prefers = "ipa"\npopulation = 5\n', 1))
    monkeypatch.setenv("BREWBALANCE_DATA", str(data))
    with pytest.raises(BrewError, match=r"brewin_usa/cities\.toml: no valid range declared for 'city\.population'"):
        cfg.prepare("brewin_usa", "base", [], [])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("which", ["param", "card"])
@pytest.mark.parametrize("side", ["below", "above"])
def test_cli_set_outside_a_declared_range_exits_2_naming_key_value_range(game, which, side, tmp_path):
    key, lo, hi = (PARAM if which == "param" else CARD)[game]
    value = lo - 1 if side == "below" else hi + 1
    msg = error_line(in_process("simulate", game, "--games", "2", "--set", f"{key}={value}",
                                "--out", tmp_path / "o", "--quiet"), 2)
    assert key.split(".")[-1] in msg and f"= {value} " in msg and f"{lo}..{hi}" in msg
    assert not (tmp_path / "o").exists()


def test_kernel_bounds_are_ranges():
    """Values a kernel buffer cannot hold are refused: a Dragon Brew row has 8 slots, a
    Homebrewers space amount is packed in 3 bits beside its effect."""
    with pytest.raises(UsageError, match=r"offering_row' = 9 is outside its valid range 1\.\.8"):
        cfg.prepare("dragon_brew", "base", ["offering_row=9"], [])
    with pytest.raises(UsageError, match=r"lock_amount' = 8 is outside its valid range 0\.\.7"):
        cfg.prepare("homebrewers", "characters", ["quality_tiles.board.lock_amount=8"], [])


def test_homebrewers_data_refuses_an_amount_that_would_change_the_effect():
    """The data.py check behind the range (for trees built without prepare)."""
    from sim.registry import get_game

    data = cfg.prepare("homebrewers", "characters", [], [])
    data.tree["quality_tiles"]["board"]["lock_amount"] = 8  # 8 // 8 would read as the next effect
    with pytest.raises(BrewError, match=r"lock.* = 8 is outside 0\.\.7"):
        get_game("homebrewers").build(data)
