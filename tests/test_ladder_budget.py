"""`search:N` in a bot list: sugar for `--set policies.search.budget=N`, one budget per run,
refused in one line on a game without a search bot or with a budget that is not a whole
number of at least 1."""

from __future__ import annotations

import pytest
from clihelp import error_line, in_process

from brewbalance import options
from sim.core import config as cfg
from sim.core.errors import UsageError

WITH_SEARCH = ["random", "greedy", "search"]


@pytest.fixture
def game_with_search(monkeypatch):
    """Pretend the shipped data has a search bot (the kernels land on their own branches)."""
    monkeypatch.setattr(options, "shipped_policy_ids", lambda game_id: WITH_SEARCH)


def test_budget_becomes_the_set_of_the_contract(game_with_search):
    names, sets = options.split_budgets("dwarfest", ["search:64", "greedy"])
    assert names == ["search", "greedy"]
    assert sets == ["policies.search.budget=64"]


def test_same_budget_twice_is_one_budget(game_with_search):
    assert options.split_budgets("dwarfest", ["search:8", "search:8"]) == (["search", "search"],
                                                                          ["policies.search.budget=8"])


def test_plain_names_pass_unchanged():
    assert options.split_budgets("dwarfest", ["greedy", "random"]) == (["greedy", "random"], [])


@pytest.mark.parametrize("names, needle", [
    (["search:4", "search:8"], "one search budget per run, got 4, 8; compare budgets as arms"),
    (["search:0"], "at least 1"), (["search:-2"], "at least 1"), (["search:2.5"], "whole number"),
    (["search:"], "whole number"), (["greedy:4"], "only the search bot takes a budget"),
])
def test_bad_budgets_are_refused(game_with_search, names, needle):
    with pytest.raises(UsageError, match=needle):
        options.split_budgets("dwarfest", names)


def test_budget_set_is_an_ordinary_override():
    """The sugar is the --set: the prepared data records it like any override (the manifest's
    `overrides`), on the search bot Dwarfest ships."""
    names, sets = options.split_budgets("dwarfest", ["search:64", "greedy"])
    data = cfg.prepare("dwarfest", "base", sets, [])
    assert names == ["search", "greedy"]
    assert data.overrides == [("policies.search.budget", 64)]


def test_a_game_without_a_search_bot_refuses_a_budget(monkeypatch):
    """Every shipped game has a search bot now; a game without one names the bots it has."""
    monkeypatch.setattr(options, "shipped_policy_ids", lambda game: ["random", "greedy", "builder"])
    with pytest.raises(UsageError, match="dragon_brew has no search bot to take a budget; choose from "
                                         "random, greedy, builder"):
        options.split_budgets("dragon_brew", ["search:64", "greedy"])


@pytest.mark.parametrize("args, needle", [
    (("simulate", "dwarfest", "--policy", "search:x"), "whole number"),
    (("experiment", "dwarfest", "--arm", "a:", "--arm", "b:policies=search:4,search:8"), "one search budget"),
    (("robustness", "dwarfest", "--policies", "greedy,greedy:3"), "only the search bot"),
])
def test_cli_refuses_in_one_line(tmp_path, args, needle):
    proc = in_process(*args, "--games", "4", "--out", tmp_path / "out")
    assert needle in error_line(proc, 2)
    assert not (tmp_path / "out").exists()
