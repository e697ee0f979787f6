"""Bad input to the CLI: the right exit code, one `error:` line, no traceback, no half run.

Every test runs `python -m brewbalance` in a subprocess (see clihelp.py), except the read-only
folder test as root, which runs the CLI in-process to make the OS refuse the writes."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest
from clihelp import (
    assert_nothing_written,
    cli,
    copy_data,
    error_line,
    in_process,
    simulate,
    snapshot,
)

SMALL = ("--games", "10", "--players", "2", "--seed", "1")


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A complete 60-game run, shared by tests that only read it."""
    base = tmp_path_factory.mktemp("small")
    simulate(base, "run", "--games", "60", "--players", "2,3", "--seed", "3", "--jobs", "1")
    return base / "run"


def sim_error(tmp_path, code, *args, data=None):
    """`simulate` with bad input: check the error contract, return the message."""
    out = tmp_path / "out"
    proc = cli("simulate", *args, "--out", out, "--quiet", cwd=tmp_path, data=data)
    msg = error_line(proc, code)
    assert_nothing_written(out)
    return msg


# --- bad command-line choices: exit 2 -------------------------------------------------------


def test_unknown_game(tmp_path):
    msg = sim_error(tmp_path, 2, "nogame", *SMALL)
    assert "nogame" in msg
    assert "dwarfest" in msg  # names the valid games


def test_unknown_variant(tmp_path):
    msg = sim_error(tmp_path, 2, "dwarfest", "--variant", "legendary", *SMALL)
    assert "legendary" in msg
    for v in ("base", "epic", "alcoholic", "alcoholic_epic"):
        assert v in msg


def test_unknown_policy(tmp_path):
    msg = sim_error(tmp_path, 2, "dwarfest", "--policy", "genius", *SMALL)
    assert "genius" in msg
    assert "random" in msg and "greedy" in msg


def test_unknown_policy_in_policies_list(tmp_path):
    msg = sim_error(tmp_path, 2, "dwarfest", "--policies", "random,greedy,genius", *SMALL)
    assert "'genius'" in msg
    assert "random" in msg and "greedy" in msg


def test_unknown_set_key(tmp_path):
    msg = sim_error(tmp_path, 2, "dwarfest", "--set", "dwarfest.brawl_limt=4", *SMALL)
    assert "brawl_limt" in msg
    assert "brawl_limit" in msg  # lists the real parameter names


def test_unknown_set_card(tmp_path):
    msg = sim_error(tmp_path, 2, "dwarfest", "--set", "dwarfest.tavern_cards.bounser.cost=3", *SMALL)
    assert "bounser" in msg
    assert "bouncer" in msg


def test_set_wrong_type(tmp_path):
    msg = sim_error(tmp_path, 2, "dwarfest", "--set", 'dwarfest.brawl_limit="x"', *SMALL)
    assert "brawl_limit" in msg
    assert "int" in msg and "'x'" in msg


def test_set_float_for_int_is_refused(tmp_path):
    msg = sim_error(tmp_path, 2, "dwarfest", "--set", "dwarfest.brawl_limit=4.5", *SMALL)
    assert "brawl_limit" in msg and "4.5" in msg


def test_set_without_equals(tmp_path):
    msg = sim_error(tmp_path, 2, "dwarfest", "--set", "dwarfest.brawl_limit", *SMALL)
    assert "KEY=VALUE" in msg


@pytest.mark.parametrize("players", ["1", "7", "2,7"])
def test_impossible_player_count(tmp_path, players):
    msg = sim_error(tmp_path, 2, "dwarfest", "--games", "10", "--players", players)
    assert "2, 3, 4, 5, 6" in msg  # the valid counts


@pytest.mark.parametrize("players", ["two"])
def test_player_count_not_a_number(tmp_path, players):
    msg = sim_error(tmp_path, 2, "dwarfest", "--games", "10", "--players", players)
    assert players in msg


@pytest.mark.parametrize("games", ["0"])
def test_games_must_be_positive(tmp_path, games):
    msg = sim_error(tmp_path, 2, "dwarfest", "--games", games, "--players", "2")
    assert "--games" in msg


def test_shard_size_must_be_positive(tmp_path):
    msg = sim_error(tmp_path, 2, "dwarfest", *SMALL, "--shard-size", "0")
    assert "--shard-size" in msg


def test_policy_and_policies_together(tmp_path):
    sim_error(tmp_path, 2, "dwarfest", *SMALL, "--policy", "greedy", "--policies", "random,greedy")


@pytest.mark.parametrize("args", [("--games", "abc"), ("--no-such-option",)], ids=["int", "option"])
def test_parser_usage_errors_are_one_line(tmp_path, args):
    """Errors of the option parser itself (typer's vendored click) follow the same contract."""
    msg = sim_error(tmp_path, 2, "dwarfest", "--players", "2", *args)
    assert args[0] in msg


# --- bad data files: exit 1, the message names the file --------------------------------------


def test_malformed_toml(tmp_path):
    data = copy_data(tmp_path / "data")
    params = data / "games" / "dwarfest" / "params.toml"
    params.write_text(params.read_text() + "\nbroken = = 5\n")
    msg = sim_error(tmp_path, 1, "dwarfest", *SMALL, data=data)
    assert "params.toml" in msg
    assert "malformed TOML" in msg


def test_malformed_toml_in_games_listing(tmp_path):
    data = copy_data(tmp_path / "data")
    (data / "games" / "dwarfest" / "tavern_cards.toml").write_text("[[card]\nid = 1\n")
    proc = cli("games", cwd=tmp_path, data=data)
    assert "tavern_cards.toml" in error_line(proc, 1)


def test_unknown_field_in_card(tmp_path):
    data = copy_data(tmp_path / "data")
    cards = data / "games" / "dwarfest" / "tavern_cards.toml"
    text = cards.read_text()
    assert 'id = "barmaid"' in text
    cards.write_text(text.replace('id = "barmaid"', 'id = "barmaid"\ncolour = "red"', 1))
    msg = sim_error(tmp_path, 1, "dwarfest", *SMALL, data=data)
    assert "tavern_cards.toml" in msg
    assert "barmaid" in msg
    assert "colour" in msg


def test_wrong_type_in_card(tmp_path):
    data = copy_data(tmp_path / "data")
    cards = data / "games" / "dwarfest" / "tavern_cards.toml"
    text = cards.read_text()
    cards.write_text(re.sub(r'(id = "barmaid"[^\[]*?)cost = 4', r'\1cost = "four"', text, count=1))
    assert 'cost = "four"' in cards.read_text()
    msg = sim_error(tmp_path, 1, "dwarfest", *SMALL, data=data)
    assert "tavern_cards.toml" in msg and "barmaid" in msg and "cost" in msg


def test_tavern_deck_must_hold_61_cards(tmp_path):
    data = copy_data(tmp_path / "data")
    cards = data / "games" / "dwarfest" / "tavern_cards.toml"
    text = cards.read_text()
    assert "count = 12" in text  # the Bouncers
    cards.write_text(text.replace("count = 12", "count = 13", 1))
    msg = sim_error(tmp_path, 1, "dwarfest", *SMALL, data=data)
    assert "tavern_cards.toml" in msg
    assert "62" in msg and "61" in msg


def test_missing_data_folder(tmp_path):
    msg = sim_error(tmp_path, 1, "dwarfest", *SMALL, data=tmp_path / "nowhere")
    assert "dwarfest" in msg


# --- the output folder ------------------------------------------------------------------------


def test_out_parent_is_a_file(tmp_path):
    (tmp_path / "afile").write_text("not a folder")
    out = tmp_path / "afile" / "run"
    proc = cli("simulate", "dwarfest", *SMALL, "--out", out, "--quiet", cwd=tmp_path)
    msg = error_line(proc, 1)
    assert "afile" in msg
    assert (tmp_path / "afile").read_text() == "not a folder"


def deny_writes_under(folder, monkeypatch):
    """Make the OS calls that create files or folders fail with EACCES inside `folder`, as the
    kernel does for a 0o500 folder. Needed as root, whom permission bits do not stop (CI runs
    as root, so without this the test would never bite there)."""
    import errno

    def denied(path):
        return Path(os.path.abspath(path)).is_relative_to(folder)

    def guard(real):
        def call(path, *args, **kwargs):
            if denied(path):
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real(path, *args, **kwargs)
        return call

    def guarded_open(path, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and denied(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    real_open = os.open
    monkeypatch.setattr(os, "mkdir", guard(os.mkdir))
    monkeypatch.setattr(os, "open", guarded_open)


def test_out_under_read_only_folder(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)  # 0o500
    try:
        out = locked / "run"
        if os.access(locked, os.W_OK):  # root: the bits do not bind, so the OS calls refuse
            deny_writes_under(locked, monkeypatch)
            proc = in_process("simulate", "dwarfest", *SMALL, "--out", out, "--quiet")
        else:
            proc = cli("simulate", "dwarfest", *SMALL, "--out", out, "--quiet", cwd=tmp_path)
        msg = error_line(proc, 1)
        assert "locked" in msg
        assert not out.exists()
        assert not list(locked.iterdir())
    finally:
        monkeypatch.undo()
        locked.chmod(0o700)


def test_out_holds_a_complete_run(tmp_path, small_run):
    before = snapshot(small_run)
    proc = cli("simulate", "dwarfest", *SMALL, "--out", small_run, "--quiet", cwd=tmp_path)
    msg = error_line(proc, 2)
    assert "complete run" in msg and "--force" in msg
    assert snapshot(small_run) == before


def test_out_holds_an_interrupted_run(tmp_path):
    simulate(tmp_path, "run", *SMALL, "--shard-size", "5", "--jobs", "1")
    (tmp_path / "run" / "run.json").unlink()
    before = snapshot(tmp_path / "run")
    proc = cli("simulate", "dwarfest", *SMALL, "--out", "run", "--quiet", cwd=tmp_path)
    assert "--resume" in error_line(proc, 2)
    assert snapshot(tmp_path / "run") == before


def test_out_not_empty(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    proc = cli("simulate", "dwarfest", *SMALL, "--out", out, "--quiet", cwd=tmp_path)
    assert "not empty" in error_line(proc, 2)
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


# --- report, replay, compare ------------------------------------------------------------------


def test_report_without_run_json(tmp_path):
    run = tmp_path / "notarun"
    run.mkdir()
    proc = cli("report", run, cwd=tmp_path)
    msg = error_line(proc, 1)
    assert "notarun" in msg and "run.json" in msg
    assert list(run.iterdir()) == []


def test_report_on_interrupted_run_hints_resume(tmp_path):
    simulate(tmp_path, "run", *SMALL, "--shard-size", "5", "--jobs", "1")
    (tmp_path / "run" / "run.json").unlink()
    msg = error_line(cli("report", "run", cwd=tmp_path), 1)
    assert "--resume" in msg


@pytest.mark.parametrize("game_id", ["60"])
def test_replay_game_id_out_of_range(tmp_path, small_run, game_id):
    msg = error_line(cli("replay", small_run, game_id, cwd=tmp_path), 2)
    assert game_id in msg and "0..59" in msg


def test_replay_last_game_works(tmp_path, small_run):
    proc = cli("replay", small_run, "59", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Dwarfest game 59")


def test_replay_without_run(tmp_path):
    msg = error_line(cli("replay", tmp_path / "gone", "0", cwd=tmp_path), 1)
    assert "gone" in msg


@pytest.mark.parametrize("order", ["missing_second", "missing_first"])
def test_compare_missing_run(tmp_path, small_run, order):
    missing = tmp_path / "nope"
    a, b = (small_run, missing) if order == "missing_second" else (missing, small_run)
    before = snapshot(small_run)
    msg = error_line(cli("compare", a, b, cwd=tmp_path), 1)
    assert "nope" in msg
    assert not missing.exists()
    assert snapshot(small_run) == before
