"""sim.core.jit: a compiled function is built without numba's Python-call wrappers (only compiled
code calls it in a run), and a call from Python goes to a twin compiled with them, cached apart."""

from pathlib import Path

import numpy as np
import pytest

from sim.core import jit as J
from sim.core.rng import shuffle, stream_seed
from sim.dwarfest import kernel as dwarfest_kernel

pytestmark = pytest.mark.skipif(J.PLAIN_PYTHON, reason="only compiled functions have wrappers")


def test_compiled_functions_are_built_without_the_python_call_wrappers():
    for fn in (stream_seed, shuffle, dwarfest_kernel.run_chunk):
        assert isinstance(fn, J.InternalDispatcher)
        assert fn.targetoptions["no_cpython_wrapper"] and fn.targetoptions["no_cfunc_wrapper"]


def test_a_python_call_goes_to_a_twin_with_the_wrapper_and_gives_the_compiled_result():
    got = stream_seed(7, 123, 2, 1)
    assert got == stream_seed.py_func(7, 123, 2, 1)  # the same arithmetic as plain Python
    twin = stream_seed.python_twin
    assert twin is not None and not twin.targetoptions.get("no_cpython_wrapper", False)
    assert stream_seed.python_callable() is twin  # made once


def test_a_twin_is_built_without_the_c_pointer_wrapper():
    """Only Python calls a twin: numba's C-pointer wrapper would be built, optimised and turned
    into machine code for nothing, at the serial end of a game's cold start."""
    stream_seed(7, 123, 2, 1)
    twin = stream_seed.python_twin
    assert twin.targetoptions["no_cfunc_wrapper"]
    (compiled,) = twin.overloads.values()
    assert "cfunc." not in compiled.library.get_llvm_str()
    assert compiled.library.get_pointer_to_function(compiled.fndesc.llvm_cpython_wrapper_name) != 0


def test_a_function_python_calls_is_built_without_the_c_pointer_wrapper():
    from sim.core import parquet

    for fn in (parquet._rank_table, parquet._hybrid_encode):  # jit_python: called once per column chunk
        assert fn.targetoptions["no_cfunc_wrapper"] and not fn.targetoptions.get("no_cpython_wrapper", False)


def test_a_twin_changes_its_arguments_in_place_as_the_function_does():
    arr, state = np.arange(10), np.array([5], np.uint64)
    expected, state_py = arr.copy(), state.copy()
    shuffle.py_func(expected, 10, state_py, 0)
    shuffle(arr, 10, state, 0)
    assert arr.tolist() == expected.tolist() and state.tolist() == state_py.tolist()


def test_the_twin_is_cached_apart_from_the_function():
    """numba's cache index keys an entry by signature and bytecode, not by the wrapper options:
    sharing a folder would load the form without the wrapper for a Python call (a crash)."""
    stream_seed(1, 2, 3, 4)
    own, twin = Path(stream_seed._cache._cache_path), Path(stream_seed.python_twin._cache._cache_path)
    assert twin.parent == own.parent / "python-calls" and twin.name == own.name


def test_an_internal_function_is_kept_link_only_and_its_twin_runs_machine_code():
    """sim/core/link_only.py: the library of a function only compiled code calls holds no
    machine code (its callers link in its IR; on disk it is bitcode); the twin Python calls is
    an ordinary library that runs. That the whole games, built from link-only callees, play as
    plain Python does is tests/test_plain_python.py's; that they play the moves they played
    before, tests/test_signature.py's."""
    from numba.core import types

    from sim.core import link_only

    assert J.LINK_ONLY
    sig = (types.int64, types.int64, types.int64, types.int64)
    stream_seed.compile(sig)  # as a caller's compile would (from the cache or anew)
    internal = stream_seed.overloads[sig].library
    assert link_only.is_link_only(internal)
    assert internal.serialize_using_object_code()[1] == "bitcode"
    assert internal.get_pointer_to_function(stream_seed.overloads[sig].fndesc.llvm_func_name) == 0
    stream_seed(7, 123, 2, 1)
    twin = stream_seed.python_twin.overloads[sig]
    assert not link_only.is_link_only(twin.library)
    assert twin.library.get_pointer_to_function(twin.fndesc.llvm_cpython_wrapper_name) != 0


@J.jit
def _polynomial_hash(a):
    total = 0
    for i in range(a.shape[0]):  # a trip count known only at run time; not vectorisable
        total = total * 37 + a[i]
    return total


def test_loops_are_not_unrolled_at_run_time():
    """sim/core/jit.py turns LLVM's runtime loop unrolling off: the loop keeps one multiply
    (unrolled, it had one per copied iteration). The result is the same."""
    a = np.arange(1, 10, dtype=np.int64)  # 37**9 fits in an int64
    assert _optimised_body(_polynomial_hash, a).count(" mul ") == 1


@J.jit
def _total(a):
    total = 0
    for i in range(a.shape[0]):  # vectorisable: LLVM adds several elements per instruction
        total += a[i]
    return total


@J.unvectorized
@J.jit
def _total_unvectorized(a):
    total = 0
    for i in range(a.shape[0]):
        total += a[i]
    return total


def _optimised_body(fn, *args) -> str:
    """The optimised LLVM IR of fn's own function, compiled here (cached code has no IR)."""
    from numba.core.caching import NullCache

    twin = fn.python_callable()
    twin._cache = NullCache()
    assert fn(*args) == fn.py_func(*args)
    ir = next(iter(twin.overloads.values())).library.get_llvm_str()
    return next(part for part in ir.split("\ndefine")[1:]
                if fn.__name__ in part.split("(")[0] and "cpython" not in part.split("(")[0])


def test_an_entry_point_marked_unvectorized_is_optimised_without_the_loop_vectoriser():
    """sim.core.jit.unvectorized (Dragon Brew's entry points): the same loop is vectorised in an
    unmarked function (vector types in its IR) and not in a marked one; the result is the same."""
    a = np.arange(1, 1000, dtype=np.int64)
    assert " x i64>" in _optimised_body(_total, a)
    assert " x i64>" not in _optimised_body(_total_unvectorized, a)
