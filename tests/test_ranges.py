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
