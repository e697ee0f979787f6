"""The one rule that sizes every game's event and rounds buffers (sim/core/game.py
GameBase.buffer_rows): room for a kernel call's games at their bound, at most about
BUFFER_BYTES, plus one game at its bound. A buffer that fills ends the kernel call early and
the next call goes on, so the size may change how many calls a shard takes, never its rows."""

import numba
import numpy as np
import pytest

import sim.core.game as core_game
from sim.core import frames
from sim.core.config import prepare
from sim.core.frames import pooled_rows
from sim.core.rounds import ROUNDS
from sim.core.rows import output_rows
from sim.registry import get_game

GAMES = ["brewin_usa", "dragon_brew", "dwarfest", "homebrewers"]


def setup_of(game_id, request):
    if game_id == "dice_race":  # the toy game of docs/adding_a_game.md (conftest.py's `toy`)
        from sim.examples.dice_race import GAME

        return GAME, request.getfixturevalue("toy")
    game = get_game(game_id)
    return game, game.build(prepare(game_id, "base", [], []))


def counting_calls(game, monkeypatch) -> list[int]:
    """Count the kernel calls of the runs that follow (greedy and random bots play on
    run_chunk_without_search)."""
    calls = []
    kernel = game.run_chunk_without_search

    def counted(*args):
        calls.append(1)
        return kernel(*args)

    monkeypatch.setattr(game, "run_chunk_without_search", counted)
    return calls


@pytest.mark.parametrize("game_id", [*GAMES, "dice_race"])
def test_a_buffer_holds_one_game_at_its_bound_and_at_most_the_budget_more(game_id, request):
    game, config = setup_of(game_id, request)
    widths = (game.schema.EVENTS.width, ROUNDS.width)
    for n_games in (1, 10, 25_000):
        for rows, bound, width in zip(game.buffer_rows(config, n_games), game.per_game_bounds(config), widths,
                                      strict=True):
            assert rows >= 2 * bound if n_games > 1 else rows == 2 * bound
            assert (rows - bound) * width * 4 <= core_game.BUFFER_BYTES
            assert rows - bound <= min(n_games, core_game.CHUNK) * bound
    events, _ = game.buffer_rows(config, 25_000)
    state = game.new_state(config, 25_000)
    assert state.ev.shape == (events, game.schema.EVENTS.width)  # the game's state uses the rule


@pytest.mark.parametrize("game_id", GAMES)
def test_a_buffer_of_one_game_plays_a_call_a_game_and_the_same_rows(game_id, monkeypatch, request):
    game, config = setup_of(game_id, request)
    counts, n_games = list(game.player_counts)[:2], 12
    calls = counting_calls(game, monkeypatch)
    every = game.simulate(config, 5, 100, n_games, counts, ["greedy", "random"]).frames
    assert len(calls) == 1  # all twelve games in one call
    monkeypatch.setattr(core_game, "BUFFER_BYTES", 1)  # room for one game at its bound
    calls.clear()
    one_by_one = game.simulate(config, 5, 100, n_games, counts, ["greedy", "random"]).frames
    assert len(calls) == n_games
    for table in ("games", "players", "events", "rounds"):
        assert every[table].height > 0
        assert one_by_one[table].equals(every[table]), table


def test_a_buffer_too_small_for_one_game_raises_instead_of_looping(monkeypatch, request):
    from sim.core.errors import BrewError

    game, config = setup_of("dwarfest", request)
    events, rounds = game.per_game_bounds(config)
    monkeypatch.setattr(game, "buffer_rows", lambda config, n_games: (events - 1, rounds))
    with pytest.raises(BrewError, match="buffer overflowed in game 7 "):
        game.simulate(config, 5, 7, 3, [4], ["random"])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_kernel_call_writes_into_pooled_memory_its_tables_then_view(game_id, monkeypatch, request):
    """Each kernel call gets event and rounds buffers from the pool (frames.pooled_like), and
    the call's event and rounds tables are views of them, not copies. Pool memory holds
    whatever the last table left there, so the same games with every pooled block full of
    garbage must give the same tables: a kernel reads only the rows it has written."""
    game, config = setup_of(game_id, request)
    counts = list(game.player_counts)[:2]
    clean = frames.BlockPool()
    monkeypatch.setattr(frames, "POOL", clean)
    expected = game.simulate(config, 7, 40, 12, counts, ["greedy", "random"]).frames

    dirty = frames.BlockPool()
    dirty.give([np.full(size << 20, 0x5A, np.uint8) for size in (1, 4, 16, 64)])
    monkeypatch.setattr(frames, "POOL", dirty)
    shard = game.simulate(config, 7, 40, 12, counts, ["greedy", "random"])
    events = shard.tables["events"]
    assert all(np.shares_memory(events.parts[c][0], events.blocks[0]) for c in events.columns)
    state = game.new_state(config, 12)
    for buffer in (state.ev, state.rnd):  # numba types a pooled buffer as the state's: one compile
        assert numba.typeof(frames.pooled_like(buffer)[0]) == numba.typeof(buffer)
    for name, frame in shard.frames.items():
        assert frame.equals(expected[name]), name


def test_every_slice_of_the_output_rows_is_one_numba_type():
    """rows.output_rows: the games and players rows a kernel call gets are slices from some row
    on; numba must type them alike, or it compiles the whole kernel once per layout."""
    rows = output_rows(50, 7)
    assert rows.flags.f_contiguous is False and rows.strides[0] == rows.itemsize  # columns contiguous
    assert len({numba.typeof(rows[at:]) for at in (0, 1, 49)}) == 1
    assert numba.typeof(rows[0:]).layout == "A"
    assert numba.typeof(output_rows(1, 7)) == numba.typeof(rows)  # record_to_compile's sample


def test_pooled_output_rows_are_zeroed_and_of_the_same_numba_type(monkeypatch):
    """frames.pooled_rows: rows from a block that held garbage are zero, column-major, and the
    numba type of rows.output_rows (so the kernel does not compile again)."""
    monkeypatch.setattr(frames, "POOL", frames.BlockPool())
    garbage = np.full(frames.MIB, 0x5A, np.uint8)
    frames.POOL.give([garbage])
    rows, block = pooled_rows(50, 7)
    assert block is garbage and rows.shape == (50, 7) and not rows.any()
    assert rows[:, 3].flags.c_contiguous  # a column is contiguous: column-major
    assert numba.typeof(rows) == numba.typeof(output_rows(50, 7))
    assert numba.typeof(rows[10:]) == numba.typeof(rows)
