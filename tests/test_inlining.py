"""sim/core/inlining.py: numba's IR-level inlining, made cheaper without changing its result.
That whole games compile to the same moves is tests/test_signature.py's and
tests/test_plain_python.py's; these check the two changes themselves."""

import copy

import pytest
from numba import njit
from numba.core import ir
from numba.core.compiler import run_frontend

from sim.core import inlining
from sim.core import jit as J

pytestmark = pytest.mark.skipif(J.PLAIN_PYTHON, reason="nothing is compiled in plain-Python mode")


@njit(inline="always")
def _add_one(x):
    return x + 1


@njit
def _twice(x):
    return _add_one(x) + _add_one(x * 2)


def _branchy(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y + 1


def test_an_inlined_function_is_read_once_and_inlined_at_every_site():
    assert J.CHEAP_INLINING
    assert _twice(3) == _twice.py_func(3) == 11
    assert _add_one.py_func in inlining._untyped_ir  # built once, copied per site


def test_the_blocks_copied_for_one_inlining_share_one_copy_of_the_scope():
    blocks = list(run_frontend(_branchy).blocks.values())
    assert len(blocks) > 2 and len({id(b.scope) for b in blocks}) == 1
    # outside an inlining, numba's own deepcopy: every block copy gets its own equal scope
    alone = [copy.deepcopy(b) for b in blocks]
    assert len({id(b.scope) for b in alone}) == len(blocks)
    assert all(b.scope == blocks[0].scope and b.scope is not blocks[0].scope for b in alone)
    # during one inlining: one copy of the scope for all of them, as in the original
    with inlining.one_inlining():
        shared = [copy.deepcopy(b) for b in blocks]
    assert len({id(b.scope) for b in shared}) == 1 and shared[0].scope is not blocks[0].scope
    assert shared[0].scope == blocks[0].scope
    assert isinstance(shared[0].scope, ir.Scope)
    assert [str(s) for b in shared for s in b.body] == [str(s) for b in blocks for s in b.body]



def test_an_inlining_copies_each_block_once_and_shares_the_positions():
    """numba's inliner copies the callee's IR, then copies that copy again as an "original" its
    callers throw away: during one inlining a block copy it made is not copied again. Outside an
    inlining every copy is a copy. Source positions (ir.Loc) are never changed, so shared."""
    blocks = list(run_frontend(_branchy).blocks.values())
    with inlining.one_inlining():
        first = [copy.deepcopy(b) for b in blocks]
        second = [copy.deepcopy(b) for b in first]
    assert all(f is not b for f, b in zip(first, blocks, strict=True)) and all(s is f for s, f in zip(second, first, strict=True))
    assert [str(s) for b in first for s in b.body] == [str(s) for b in blocks for s in b.body]
    assert first[0].body[0].loc is blocks[0].body[0].loc
    again = [copy.deepcopy(b) for b in first]  # no inlining under way
    assert all(a is not f for a, f in zip(again, first, strict=True))
