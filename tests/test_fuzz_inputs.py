"""Fuzzed inputs (hypothesis): mutated data files and overrides either load or stop with one
clear BrewError naming the file; never another exception type."""

import copy
import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core import config as cfg
from sim.core.errors import BrewError, UsageError
from sim.registry import games

DATA = Path(__file__).resolve().parents[1] / "data" / "games"
GAMES = sorted(games())
JUNK = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                 st.text(max_size=8), st.booleans(), st.lists(st.integers(), max_size=3),
                 st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


def leaves(node, path=()):
    """Every (path, value) leaf of a TOML tree, descending into lists of tables."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, (*path, k))
    elif isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
        for i, v in enumerate(node):
            yield from leaves(v, (*path, i))
    else:
        yield path, node


def set_at(tree, path, value):
    for p in path[:-1]:
        tree = tree[p]
    tree[path[-1]] = value


def delete_at(tree, path):
    for p in path[:-1]:
        tree = tree[p]
    del tree[path[-1]]


def build_tree(game_id, tree):
    data = cfg.GameData(game=game_id, tree=tree, hashes={})
    return games()[game_id].build(data)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_data_loads_or_fails_with_a_clear_error(game_id, data):
    base = cfg.load_game_data(game_id).tree
    tree = copy.deepcopy(base)
    all_leaves = list(leaves(tree))
    path, _ = data.draw(st.sampled_from(all_leaves))
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "replace":
        set_at(tree, path, data.draw(JUNK))
    elif action == "delete":
        delete_at(tree, path)
    else:
        set_at(tree, (*path[:-1], data.draw(st.text(min_size=1, max_size=6))), data.draw(JUNK))
    try:
        build_tree(game_id, tree)
    except BrewError as exc:
        message = str(exc)
        assert "\n" not in message and message
        assert ".toml" in message  # names the file
    # anything else (KeyError, TypeError, IndexError...) fails the test


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=60, deadline=None)
@given(key=st.text(max_size=30), value=st.text(max_size=12))
def test_any_set_override_applies_or_fails_with_a_usage_error(game_id, key, value):
    data = cfg.load_game_data(game_id)
    try:
        cfg.apply_override(data, *cfg.parse_set(f"{key}={value}"))
    except BrewError as exc:
        assert "\n" not in str(exc) and str(exc)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=25, deadline=None)
@given(garbage=st.binary(max_size=200))
def test_garbage_toml_file_is_one_clear_error(game_id, garbage, tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    shutil.copytree(DATA / game_id, root / "games" / game_id)
    target = sorted((root / "games" / game_id).glob("*.toml"))[0]
    target.write_bytes(garbage)
    try:
        tomllib.loads(garbage.decode("utf-8", errors="strict"))
        return  # valid TOML by chance: covered by the mutation test
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        pass
    old = cfg.data_root
    cfg.data_root = lambda: root
    try:
        with pytest.raises(BrewError) as info:
            cfg.load_game_data(game_id)
    finally:
        cfg.data_root = old
    assert target.name in str(info.value)


def declared_ranges(game_id):
    """(--set key, lo, hi) for every numeric field with a declared range in [ranges]."""
    data = cfg.load_game_data(game_id)
    out = []
    for path, value in leaves(data.tree):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or path[0] == "variants":
            continue
        bounds = data.ranges.get(path[0], {})
        for part in [p for p in path[1:] if not isinstance(p, int)]:
            bounds = bounds.get(part, {}) if isinstance(bounds, dict) else {}
        if isinstance(bounds, list):
            entry = data.tree[path[0]][path[1]][path[2]] if isinstance(path[2], int) else None
            key = f"{path[0]}.{entry['id']}.{path[-1]}" if entry and "id" in entry else ".".join(map(str, path))
            if entry is not None and "id" not in entry:
                continue  # entries without an id cannot be addressed by --set
            out.append((key.replace("params.params.", "params."), type(value), *bounds))
    return out


DWARFEST_RANGES = declared_ranges("dwarfest")


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_every_value_is_checked_against_its_declared_range(data):
    key, typ, lo, hi = data.draw(st.sampled_from(DWARFEST_RANGES))
    value = data.draw(st.integers(-10**6, 10**6) if typ is int else
                      st.floats(-1e6, 1e6, allow_nan=False))
    text = f"{key}={value!r}" if typ is int else f"{key}={float(value)!r}"
    if lo <= value <= hi:
        cfg.prepare("dwarfest", "base", [text], [])
    else:
        with pytest.raises(UsageError, match=r"is outside its valid range"):
            cfg.prepare("dwarfest", "base", [text], [])
