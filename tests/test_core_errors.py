"""The shared error helpers every game wrapper uses."""

import pytest

from sim.core.errors import BrewError, InvariantViolation, raise_for_chunk


def test_a_clean_chunk_raises_nothing():
    raise_for_chunk("dwarfest", 1, 5, False, False, "ok", "setup")


def test_overflow_is_reported_as_a_bug_with_game_and_seed():
    with pytest.raises(BrewError, match=r"dwarfest: a kernel buffer overflowed in game 5 \(seed 1\)"):
        raise_for_chunk("dwarfest", 1, 5, True, False, "ok", "setup")


def test_violation_names_the_game_rule_and_phase():
    with pytest.raises(InvariantViolation) as info:
        raise_for_chunk("homebrewers", 9, 42, False, True, "negative money", "action phase")
    assert (info.value.game_id, info.value.rule, info.value.phase) == (42, "negative money", "action phase")
    assert "replay" in str(info.value) and "\n" not in str(info.value)


def test_messages_are_one_line():
    assert str(BrewError("a\nb")) == "a\\nb"
