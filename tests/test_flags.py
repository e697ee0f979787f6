"""sim/core/flags.py: numba's compiler flags hashed and compared without building every option's
value, with numba's results. That whole games compile to the same moves is
tests/test_signature.py's."""

import random

import pytest
from numba import njit
from numba.core.compiler import Flags
from numba.core.targetconfig import Option, TargetConfig

from sim.core import jit as J

pytestmark = pytest.mark.skipif(J.PLAIN_PYTHON, reason="nothing is compiled in plain-Python mode")


def numba_values(config) -> dict:
    """numba's own definition: every option through its property getter."""
    return {name: getattr(config, name) for name in config.options}


def shuffled_flags(rng: random.Random) -> Flags:
    flags = Flags()
    for name in rng.sample(sorted(Flags.options), 6):
        value = getattr(flags, name)
        if isinstance(value, bool):
            setattr(flags, name, rng.choice([value, not value]))  # sometimes set to its default
    return flags


def test_installed_and_values_are_numbas():
    assert J.FAST_FLAGS
    rng = random.Random(7)
    for _ in range(200):
        flags = shuffled_flags(rng)
        assert flags.values() == numba_values(flags)


def test_equality_and_hash_agree_with_numbas_definition():
    rng = random.Random(11)
    pairs = [(shuffled_flags(rng), shuffled_flags(rng)) for _ in range(300)]
    assert any(a == b for a, b in pairs) and any(a != b for a, b in pairs)
    for a, b in pairs:
        assert (a == b) == (numba_values(a) == numba_values(b))
        assert hash(a) == hash(tuple(sorted(numba_values(a))))
        if a == b:
            assert hash(a) == hash(b)


def test_a_value_set_to_its_default_equals_one_left_unset():
    explicit = Flags()
    explicit.nrt = Flags().nrt  # in _values, at the default
    assert explicit._values != Flags()._values
    assert explicit == Flags() and hash(explicit) == hash(Flags())
    changed = Flags()
    changed.nrt = not Flags().nrt
    assert changed != Flags()


def test_configs_of_different_classes_differ():
    class Other(TargetConfig):
        nrt = Option(type=bool, default=False, doc="as Flags' own")

    assert Other() != Flags() and Flags() != Other()
    assert Other().values() == {"nrt": False}


def test_compiles_under_different_flags_keep_their_own_results():
    @njit(fastmath=True)
    def fast(x):
        return min(x, 3.0) + max(x, 1.0)

    @njit(error_model="numpy")
    def numpy_errors(x):
        return min(x, 3.0) + max(x, 1.0) + 1.0 / x

    assert fast(2.0) == 4.0 and fast(5.0) == 8.0
    assert numpy_errors(2.0) == 4.5
    assert numpy_errors(0.0) == float("inf")  # numpy's error model: no ZeroDivisionError
