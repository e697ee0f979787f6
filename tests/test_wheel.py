"""The built wheel works on its own: installed into a fresh folder that is never written to,
run from another directory with a fresh HOME, it finds its game data (package data), writes
its numba cache into the user cache folder, and simulates and reports."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from clihelp import REPO

pytestmark = pytest.mark.wheel

# what the wheel needs to build; the rest (.venv, runs, caches) stays out of the copy
SKIP = shutil.ignore_patterns(".git", ".venv", "runs", "demo", "build", "dist", "*.egg-info",
                              "__pycache__", ".pytest_cache", ".ruff_cache", "tests")


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The wheel, built from a copy of the checkout and installed with --target (no deps:
    they come from the running environment)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(REPO, src, ignore=SKIP, symlinks=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", str(src), "--no-deps", "-w", str(tmp / "dist")], check=True)
    (wheel,) = (tmp / "dist").glob("brewbalance-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "brewbalance_data/games/dwarfest/params.toml" in names
    assert not [n for n in names if n.startswith(("data/", "tests/"))]
    site = tmp / "site"
    subprocess.run([*pip, "install", "--no-deps", "--target", str(site), str(wheel)], check=True)
    return site


def test_installed_wheel_simulates_and_reports(installed, tmp_path):
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("BREWBALANCE_CACHE_DIR", "NUMBA_CACHE_DIR", "BREWBALANCE_DATA", "XDG_CACHE_HOME")}
    env.update(HOME=str(home), PYTHONPATH=str(installed))
    before = files_under(installed)
    mode = {p: p.stat().st_mode for p in [installed, *installed.rglob("*")]}
    for p in mode:  # read-only install
        p.chmod(p.stat().st_mode & ~0o222)
    try:
        def brewbalance(*args):
            proc = subprocess.run([str(installed / "bin" / "brewbalance"), *args], cwd=work, env=env,
                                  capture_output=True, text=True, timeout=900)
            assert proc.returncode == 0, proc.stderr
            return proc

        where = subprocess.run([sys.executable, "-c", "import sim, brewbalance_data; "
                                "print(sim.__file__); print(brewbalance_data.ROOT)"],
                               cwd=work, env=env, capture_output=True, text=True, check=True).stdout
        assert all(line.startswith(str(installed)) for line in where.split()), where
        brewbalance("simulate", "dwarfest", "--games", "200", "--out", "run", "--quiet")
        brewbalance("report", "run", "--format", "html", "--out", "report")
    finally:
        for p, m in mode.items():
            p.chmod(m)
    assert (work / "run" / "run.json").is_file() and (work / "report.html").is_file()
    assert files_under(installed) == before  # nothing written into the install
    cache = home / ".cache" / "brewbalance" / "numba"
    assert list(cache.rglob("*.nbi")), f"no numba cache index under {cache}"
