"""The bench scripts' own helpers (the benchmarks themselves run in `make bench`, not here)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from kernel_profile import numba_name  # noqa: E402


def test_numba_symbols_read_as_module_and_function():
    """kernel_profile names perf's samples from numba's mangled symbols: the length-prefixed
    parts up to the first ABI tag, without the package; anything else is left as it is."""
    mangled = "_ZN3sim11homebrewers8policies16fresh_roll_valueB2v9B38c8tJTIcFKzyF2ILShI4CrgQElQb6HczSBAA_3dE5TupleIxE"
    assert numba_name(mangled) == "homebrewers.policies.fresh_roll_value"
    assert numba_name("_ZN3sim4core3rng5mix64B2v3E") == "core.rng.mix64"
    assert numba_name("clear_page_erms") == "clear_page_erms"
