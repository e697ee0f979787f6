"""--set and --override change the game data of a run, and the manifest records them
(DESIGN.md §9)."""

from __future__ import annotations

import polars as pl
import pytest
from clihelp import cli, error_line, manifest, part_hashes, reference_run, simulate, table
from polars.testing import assert_frame_equal

ARGS = ("--games", "800", "--players", "2,3,4", "--policies", "random,greedy", "--seed", "31",
        "--jobs", "2")
OVERRIDE_FILE = """\
[params]
brawl_limit = 4

[tavern_cards.bouncer]
cost = 20
"""


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return reference_run(tmp_path_factory, *ARGS)


@pytest.fixture(scope="module")
def epic(tmp_path_factory):
    return reference_run(tmp_path_factory, *ARGS, "--variant", "epic")


def bouncer_plays(run) -> pl.DataFrame:
    events = table(run, "events")
    return events.filter((pl.col("card") == "bouncer") & (pl.col("kind") == "play"))


def test_set_brawl_limit_equals_epic(tmp_path, base, epic):
    simulate(tmp_path, "set4", *ARGS, "--set", "dwarfest.brawl_limit=4")
    run = tmp_path / "set4"
    assert_frame_equal(table(run, "players"), table(epic, "players"))
    assert_frame_equal(table(run, "games"), table(epic, "games"))
    assert part_hashes(run) == part_hashes(epic)
    # ...and it is a real change from the base game
    assert not table(run, "players").equals(table(base, "players"))

    m_set, m_epic, m_base = manifest(run), manifest(epic), manifest(base)
    assert m_set["variant"] == "base"
    assert m_set["overrides"] == [["dwarfest.brawl_limit", 4]]
    assert m_epic["variant"] == "epic"
    assert m_epic["overrides"] == []
    assert m_base["variant"] == "base" and m_base["overrides"] == []
    assert m_set["data_hashes"] == m_epic["data_hashes"] == m_base["data_hashes"]


def test_brawl_limit_shows_in_replay(tmp_path, epic, base):
    """The replay of a recorded override run uses the override (a Brawl is above 4, not 5)."""
    brawly = table(epic, "games").filter(pl.col("brawls") > 0)["game_id"].to_list()
    assert brawly, "some epic game has a Brawl"
    proc = cli("replay", epic, brawly[0], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "above the limit of 4" in proc.stdout
    assert "above the limit of 5" not in proc.stdout
    base_brawly = table(base, "games").filter(pl.col("brawls") > 0)["game_id"].to_list()
    text = cli("replay", base, base_brawly[0], cwd=tmp_path).stdout
    assert "above the limit of 5" in text


def test_set_on_top_of_variant(tmp_path, base):
    """A user --set applies after the variant and is the only override recorded."""
    simulate(tmp_path, "e5", *ARGS, "--variant", "epic", "--set", "dwarfest.brawl_limit=5")
    m = manifest(tmp_path / "e5")
    assert m["variant"] == "epic"
    assert m["overrides"] == [["dwarfest.brawl_limit", 5]]
    assert part_hashes(tmp_path / "e5") == part_hashes(base)


def test_override_file_applies_params_and_cards(tmp_path, base):
    path = tmp_path / "change.toml"
    path.write_text(OVERRIDE_FILE)
    simulate(tmp_path, "file", *ARGS, "--override", path)
    run = tmp_path / "file"
    overrides = {k.removeprefix("dwarfest."): v for k, v in manifest(run)["overrides"]}
    assert overrides == {"params.brawl_limit": 4, "tavern_cards.bouncer.cost": 20}

    # the same as giving both with --set
    simulate(tmp_path, "sets", *ARGS, "--set", "dwarfest.brawl_limit=4",
             "--set", "dwarfest.tavern_cards.bouncer.cost=20")
    assert part_hashes(run) == part_hashes(tmp_path / "sets")
    assert not table(run, "players").equals(table(base, "players"))

    plays = bouncer_plays(run)
    assert plays["amount"].unique().to_list() == [20]  # every Bouncer played cost 20


def test_card_cost_override_changes_results(tmp_path, base):
    simulate(tmp_path, "dear", *ARGS, "--set", "dwarfest.tavern_cards.bouncer.cost=20")
    run = tmp_path / "dear"
    assert manifest(run)["overrides"] == [["dwarfest.tavern_cards.bouncer.cost", 20]]
    base_plays, dear_plays = bouncer_plays(base), bouncer_plays(run)
    assert base_plays.height > 1000
    assert base_plays["amount"].unique().to_list() == [2]
    # at 20 Nuggets a Bouncer is a luxury: almost never played, and only at that price
    assert dear_plays.height < base_plays.height / 20
    assert dear_plays.filter(pl.col("amount") != 20).height == 0
    sacrifices = lambda run: table(run, "players")["bouncers_used"].sum()  # noqa: E731
    assert sacrifices(run) < sacrifices(base) / 10
    assert not table(run, "players").equals(table(base, "players"))


def test_card_count_override_removes_a_card(tmp_path):
    """No Bouncers in the deck (12 more Barmaids keep it at 61 cards): no Bouncer event."""
    simulate(tmp_path, "none", *ARGS, "--set", "dwarfest.tavern_cards.bouncer.count=0",
             "--set", "dwarfest.tavern_cards.barmaid.count=16")
    events = table(tmp_path / "none", "events")
    assert events.filter(pl.col("card") == "bouncer").height == 0
    assert table(tmp_path / "none", "players")["bouncers_used"].sum() == 0


def test_override_file_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[tavern_cards.bouncer]\ncolour = 3\n")
    msg = error_line(cli("simulate", "dwarfest", *ARGS, "--override", bad, "--out", "o",
                         "--quiet", cwd=tmp_path), 2)
    assert "colour" in msg
    broken = tmp_path / "broken.toml"
    broken.write_text("[params\n")
    msg = error_line(cli("simulate", "dwarfest", *ARGS, "--override", broken, "--out", "o",
                         "--quiet", cwd=tmp_path), 1)
    assert "broken.toml" in msg
    missing = tmp_path / "missing.toml"
    msg = error_line(cli("simulate", "dwarfest", *ARGS, "--override", missing, "--out", "o",
                         "--quiet", cwd=tmp_path), 1)
    assert "missing.toml" in msg
    assert not (tmp_path / "o").exists()


def test_override_that_breaks_validation(tmp_path):
    """An override is validated like the data files: a deck of 62 cards is refused."""
    msg = error_line(cli("simulate", "dwarfest", *ARGS, "--set",
                         "dwarfest.tavern_cards.bouncer.count=13", "--out", "o", "--quiet",
                         cwd=tmp_path), 1)
    assert "tavern_cards.toml" in msg and "62" in msg
    assert not (tmp_path / "o").exists()
