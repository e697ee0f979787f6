"""sim/core/resolution.py: numba's typing of built-in calls and operators, remembered per
function, argument types, context, target and flags, gives numba's own answers. That the games
compile to the same moves is tests/test_signature.py's."""

import operator

import numpy as np
import pytest
from numba import njit, types
from numba.core import errors
from numba.core.targetconfig import ConfigStack

from sim.core import jit as J
from sim.core import resolution

pytestmark = pytest.mark.skipif(J.PLAIN_PYTHON, reason="nothing is compiled in plain-Python mode")


def _operators(a, x, k):
    total = 0
    for i in range(a.shape[0]):
        if a[i] > k and a[i] != 3:
            total += a[i] * 2 - k
    return total + min(k, 5) + x * 1.5 + len(a)


def _numba_answer(function, context, args, kws, flags):
    """numba's own resolution, with the flags it was made under in force."""
    if flags is None:
        return resolution.numba_resolve(function, context, args, kws)
    with ConfigStack().enter(flags.copy()):
        return resolution.numba_resolve(function, context, args, kws)


def test_installed_and_kept_answers_are_numbas():
    assert J.CACHED_RESOLUTION
    fn = njit(_operators)
    a = np.arange(10, dtype=np.int64)
    assert fn(a, 2.0, 4) == _operators(a, 2.0, 4)
    assert len(resolution._resolved) > 10
    for (function, context, _, args, kws, flags), (signature, impl_key) in list(resolution._resolved.items()):
        again = _numba_answer(function, context, args, dict(kws), flags)
        assert again == signature
        assert function._impl_keys[again.args] == impl_key


def test_a_call_site_seen_before_is_not_resolved_again():
    first, second = njit(_operators), njit(_operators)
    a = np.arange(10, dtype=np.int64)
    first(a, 2.0, 4)
    kept = len(resolution._resolved)
    calls = []
    resolve = resolution._resolved.get

    class Counting(dict):
        def get(self, key, default=None):
            calls.append(key)
            return resolve(key, default)

    counting = Counting(resolution._resolved)
    resolution._resolved, before = counting, resolution._resolved
    try:
        assert second(a, 2.0, 4) == first(a, 2.0, 4)
    finally:
        resolution._resolved = before
    assert calls and len(counting) == kept  # every resolution found, none added


def test_answers_under_other_flags_are_kept_apart():
    plain, fast = njit(lambda x, y: x + y), njit(fastmath=True)(lambda x, y: x + y)
    assert plain(1.5, 2.0) == fast(1.5, 2.0) == 3.5
    adds = [key for key in resolution._resolved
            if key[0].typing_key is operator.add and key[3] == (types.float64, types.float64)]
    assert len({frozenset(key[5].fastmath.flags) for key in adds if key[5] is not None}) == 2


def test_a_failed_resolution_is_not_kept_and_fails_again():
    @njit
    def bad(x):
        return x + "a"

    for _ in range(2):
        with pytest.raises(errors.TypingError):
            bad(1)
    assert not any(key[0].typing_key is operator.add and types.unicode_type in key[3]
                   for key in resolution._resolved)
