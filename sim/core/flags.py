"""numba's compiler flags hashed and compared without building every option's value.

While typing, numba looks up each overloaded operation (an array index, `min`, `+`...) in a
cache keyed by, among others, the compiler flags in force (a `Flags`, numba.core.targetconfig).
Its hash and equality build a dict of all of the flags' forty options through their property
getters, two or three times per lookup (4-9 µs each), and Dragon Brew's cold compile makes
about 135,000 lookups and 174,000 comparisons: about 2.5 CPU-seconds (docs/performance.md,
2026-12-07). Here, with the same results:

* the hash is that of the sorted option names (what numba's hash reduces to: it sorts the
  dict of values, so only its keys count), computed once per class;
* two configurations of the same class are compared on the options set in either (every other
  option is at its default in both), without building anything; configurations of two classes
  by numba's own comparison;
* `values()` reads the set values and the options' defaults directly, as the getters do.

This depends on numba's TargetConfig internals (`_values`, `options`, the Option's default);
`install` checks them on a sample and otherwise leaves numba as it is (sim.core.jit.FAST_FLAGS
says which). tests/test_flags.py checks each piece against numba's own.
"""

from __future__ import annotations

from functools import cache


@cache
def install() -> bool:
    """Patch numba's TargetConfig (once); False when its internals are not as expected."""
    try:
        from numba.core.compiler import Flags
        from numba.core.targetconfig import TargetConfig
    except ImportError:
        return False
    original_values, original_eq = TargetConfig.values, TargetConfig.__eq__
    if not _same_as_numba(Flags, original_values):
        return False

    @cache
    def class_hash(cls) -> int:
        return hash(tuple(sorted(cls.options)))

    def __hash__(self):
        return class_hash(type(self))

    def __eq__(self, other):
        if type(self) is type(other):
            return _same_values(self, other)
        return original_eq(self, other)

    TargetConfig.values = _values
    TargetConfig.__hash__ = __hash__
    TargetConfig.__eq__ = __eq__
    return True


def _values(self) -> dict:
    """TargetConfig.values: every option's value, its set value or else its default."""
    set_values = self._values
    return {name: set_values.get(name, option.default) for name, option in self.options.items()}


def _same_values(a, b) -> bool:
    """a.values() == b.values() for two configurations of one class: only an option set in
    either can differ (every other one is at its default in both)."""
    set_a, set_b = a._values, b._values
    if set_a == set_b:
        return True
    options = a.options
    for name in set_a.keys() | set_b.keys():
        default = options[name].default
        if not set_a.get(name, default) == set_b.get(name, default):
            return False
    return True


def _same_as_numba(flags_class, numba_values) -> bool:
    """Whether the direct reading gives numba's values, for default and for changed flags."""
    try:
        flags = flags_class()
        if _values(flags) != numba_values(flags):
            return False
        flags.nrt = not flags.nrt
        flags.no_cpython_wrapper = True
        return _values(flags) == numba_values(flags) and hash(flags) == hash(tuple(sorted(flags.options)))
    except (AttributeError, TypeError):
        return False
