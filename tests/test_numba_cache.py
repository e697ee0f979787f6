"""numba's cache folders: one per game, keyed by the sources that game's machine code can
depend on, so an edit to one game recompiles that game only, an edit to compiled sim/core
code every game, and an edit to plain-Python plumbing none."""

import importlib
import pkgutil
import shutil
from pathlib import Path

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


@pytest.mark.parametrize("shared", ["core/rng.py", "core/jit.py", "__init__.py"])
def test_editing_shared_code_changes_every_folder(sources, shared):
    before = folders(sources)
    core_before = sim.cache_dir_for("sim.core.rng", sources)
    append_comment(sources / shared)
    after = folders(sources)
    assert all(after[g] != before[g] for g in before)
    assert sim.cache_dir_for("sim.core.rng", sources) != core_before


@pytest.mark.parametrize("plumbing", ["core/runfolder.py", "core/runner.py", "core/dask_engine.py", "core/warm.py", "registry.py",
                                      "dwarfest/replay.py"])
def test_editing_plain_python_plumbing_recompiles_nothing(sources, plumbing):
    before = {**folders(sources), "core": sim.cache_dir_for("sim.core.rng", sources)}
    append_comment(sources / plumbing)
    assert {**folders(sources), "core": sim.cache_dir_for("sim.core.rng", sources)} == before


def test_every_module_with_compiled_code_is_in_its_games_sources():
    """The folder's key must cover every file that defines a compiled function (and, through
    the import closure, what those read)."""
    for package in [*sorted(games()), "core"]:
        keyed = set(sim.compiled_sources(sim.SOURCES, tuple(sorted({"core", package}))))
        pkg = importlib.import_module(f"sim.{package}")
        for info in pkgutil.walk_packages(pkg.__path__, f"sim.{package}."):
            module = importlib.import_module(info.name)
            if any(getattr(getattr(o, "py_func", None), "__module__", None) == info.name for o in vars(module).values()):
                assert Path(module.__file__).resolve() in keyed, info.name


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
