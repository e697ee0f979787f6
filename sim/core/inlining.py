"""numba's IR-level inlining (`jit_inline`, inline="always"), made cheaper without changing
what it produces.

Profiled on Homebrewers' cold compile (cProfile, docs/performance.md, 2026-12-06 afternoon),
a third of the time went to copying numba IR for inlining, for reasons this module removes:

* At every call site of an inlined function, numba runs the untyped compiler pipeline on the
  callee again (its bytecode to IR, with the callee's own inlined callees inlined again), then
  deep-copies the result before splicing it in. The untyped IR depends only on the function, so
  it is built once per function here (`InlineWorker.run_untyped_passes`, memoised) and only the
  copy is made per site (numba itself reuses the typed IR of inlined overloads the same way).
* That copy deep-copies the callee's blocks one at a time, and each block's variables refer to
  the function's scope, which holds every variable of the function: the whole scope was copied
  again for every block (the time grows with blocks x variables). Here the blocks copied for
  one inlining share one copy of the scope, as the blocks of the original share one scope.
* numba then copies that copy a second time, as an "unmutated original" it returns and both of
  its callers (numba's untyped and overload inliners) throw away: a block copy made during the
  inlining is not copied again. And a source position (`ir.Loc`, one per statement, which numba
  never changes once made) is shared, not copied. Together these halved the time Dragon Brew's
  cold compile spends inlining (bench/compile_profile.py: 5.1 s, then 2.6 s, 2026-12-07).

All depend on numba internals (numba.core.inline_closurecall.InlineWorker, numba.core.ir's Scope,
Block and Loc);
`install` checks they are there and otherwise leaves numba as it is (sim.core.jit.CHEAP_INLINING
says which). The games compile to the
same moves (tests/test_signature.py, tests/test_plain_python.py).
"""

from __future__ import annotations

import copy
from contextlib import contextmanager
from functools import cache

_untyped_ir: dict = {}  # inlined function -> its untyped IR (not in SSA form), never mutated


class _Inlining:
    """What one inlining under way has copied: id(scope) -> (scope, its copy), and id -> each
    block copy it made."""

    def __init__(self):
        self.scopes: dict = {}
        self.blocks: dict = {}


_inlinings: list[_Inlining] = []  # the inlinings under way, innermost last


@contextmanager
def one_inlining():
    """Around one inlining (numba's inline_ir): the copies it makes share a scope and are not
    copied again."""
    _inlinings.append(_Inlining())
    try:
        yield
    finally:
        _inlinings.pop()


def _plain_deepcopy(obj, memo):
    """What copy.deepcopy does for an object without a __deepcopy__ of its own."""
    dup = type(obj).__new__(type(obj))
    memo[id(obj)] = dup
    dup.__dict__.update(copy.deepcopy(obj.__dict__, memo))
    return dup


@cache
def install() -> bool:
    """Patch numba's inliner (once); False when its internals are not as expected."""
    try:
        from numba.core import ir
        from numba.core.inline_closurecall import InlineWorker
    except ImportError:
        return False
    if not (hasattr(InlineWorker, "inline_ir") and hasattr(InlineWorker, "run_untyped_passes")
            and all(hasattr(ir, c) and "__deepcopy__" not in vars(getattr(ir, c)) for c in ("Scope", "Block", "Loc"))):
        return False
    inline_ir = InlineWorker.inline_ir
    run_untyped_passes = InlineWorker.run_untyped_passes

    def scope_deepcopy(self, memo):
        shared = _inlinings[-1].scopes if _inlinings else None
        if shared is not None and id(self) in shared:
            dup = shared[id(self)][1]
        else:  # remembered for the inlining's other blocks
            dup = _plain_deepcopy(self, memo)
            if shared is not None:
                shared[id(self)] = (self, dup)
        memo[id(self)] = dup
        return dup

    def block_deepcopy(self, memo):
        fresh = _inlinings[-1].blocks if _inlinings else None
        if fresh is not None and id(self) in fresh:
            return self  # a copy this inlining made: only its discarded second copy asks again
        dup = _plain_deepcopy(self, memo)
        if fresh is not None:
            fresh[id(dup)] = dup
        return dup

    def loc_deepcopy(self, memo):
        return self  # never changed once made (numba makes a new Loc for a new position)

    def inline_ir_sharing_scopes(self, *args, **kwargs):
        with one_inlining():
            return inline_ir(self, *args, **kwargs)

    def untyped_ir_once(self, func, enable_ssa=False):
        # inline_function (enable_ssa False) hands the IR to inline_ir, which copies it before
        # it changes anything, so one IR serves every site; numba's overload inliner (SSA form)
        # types the IR it gets in place, so it gets a fresh one as before
        if enable_ssa:
            return run_untyped_passes(self, func, enable_ssa)
        if func not in _untyped_ir:
            _untyped_ir[func] = run_untyped_passes(self, func, enable_ssa)
        return _untyped_ir[func]

    ir.Scope.__deepcopy__ = scope_deepcopy
    ir.Block.__deepcopy__ = block_deepcopy
    ir.Loc.__deepcopy__ = loc_deepcopy
    InlineWorker.inline_ir = inline_ir_sharing_scopes
    InlineWorker.run_untyped_passes = untyped_ir_once
    return True
