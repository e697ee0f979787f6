"""numba's cache folders: one per game, keyed by the sources that game's machine code can
depend on, so an edit to one game recompiles that game only (and an edit to sim/core, every
game)."""

import importlib
import pkgutil
import shutil

import pytest

import sim
from sim.registry import games


@pytest.fixture
def sources(tmp_path):
    root = tmp_path / "sim"
    shutil.copytree(sim.SOURCES, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def folders(root):
    return {gid: sim.cache_dir_for(f"sim.{gid}.rules", root) for gid in games()}


def append_comment(path):
    path.write_text(path.read_text() + "\n# an edit\n")


def test_editing_one_game_changes_that_games_folder_only(sources):
    before = folders(sources)
    append_comment(sources / "dwarfest" / "rules.py")
    after = folders(sources)
    assert after["dwarfest"] != before["dwarfest"]
    assert {g: f for g, f in after.items() if g != "dwarfest"} == {g: f for g, f in before.items() if g != "dwarfest"}


@pytest.mark.parametrize("shared", ["core/rng.py", "registry.py"])
def test_editing_shared_code_changes_every_folder(sources, shared):
    before = folders(sources)
    core_before = sim.cache_dir_for("sim.core.rng", sources)
    append_comment(sources / shared)
    after = folders(sources)
    assert all(after[g] != before[g] for g in before)
    assert sim.cache_dir_for("sim.core.rng", sources) != core_before


def test_the_folders_are_distinct_and_named_by_package():
    named = {**folders(sim.SOURCES), "core": sim.cache_dir_for("sim.core.rng")}
    assert len(set(named.values())) == len(named)
    for package, folder in named.items():
        assert folder.name.startswith(f"{package}-")


@pytest.mark.parametrize("package", [*sorted(games()), "core"])
def test_every_compiled_function_is_cached_in_its_packages_folder(package):
    expected = str(sim.cache_dir_for(f"sim.{package}.x"))
    pkg = importlib.import_module(f"sim.{package}")
    seen = 0
    for info in pkgutil.iter_modules(pkg.__path__, f"sim.{package}."):
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if getattr(getattr(obj, "py_func", None), "__module__", None) == info.name:
                assert obj._cache._cache_path.startswith(expected + "/"), (info.name, obj.py_func.__name__)
                seen += 1
    assert seen > 0
