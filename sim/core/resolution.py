"""numba's typing of a call to a built-in function or an operator, remembered.

While typing a function, numba resolves each operator and built-in call (`a + b`, `x == y`,
`min`, `len`...) by trying the function's typing templates one after the other
(`BaseFunction.get_call_type`, numba.core.types.functions), the NumPy ones searching ufunc
loops on the way, and it keeps nothing from one call site to the next: the 4,000 int64 additions
in Dragon Brew's code were each resolved from scratch. The answer depends on the function (its
templates), the argument types (literal values included), the typing context and its target,
and the compiler flags in force; here it is kept under all of those, with the implementation
key numba records beside it, and handed back at the next call site with the same key (the key
recorded again, as numba does at each resolution). A failed resolution is not kept: numba
raises its error again. Measured on Dragon Brew's cold compile in one process: 22,719 of 23,635
resolutions were repeats, and the compile took 32.1 s instead of 41.6 (docs/performance.md,
2026-12-07).

This depends on numba's internals (`BaseFunction.get_call_type` and its `_impl_keys`,
`ConfigStack.top_or_none`, the flags' `copy`); `install` checks they are there and otherwise
leaves numba as it is (sim.core.jit.CACHED_RESOLUTION says which). tests/test_resolution.py
checks the kept answers against numba's own; tests/test_signature.py that the games compile to
the same moves.
"""

from __future__ import annotations

from functools import cache

_resolved: dict = {}  # (function type, context, target, args, kws, flags) -> (signature, impl key)
numba_resolve = None  # numba's own BaseFunction.get_call_type, once installed


@cache
def install() -> bool:
    """Patch numba's BaseFunction.get_call_type (once); False when its internals differ."""
    try:
        from numba.core.target_extension import get_local_target
        from numba.core.targetconfig import ConfigStack, TargetConfig
        from numba.core.types.functions import BaseFunction
    except ImportError:
        return False
    if not all(hasattr(owner, name) for owner, name in
               [(BaseFunction, "get_call_type"), (ConfigStack, "top_or_none"), (TargetConfig, "copy")]):
        return False
    global numba_resolve
    resolve = numba_resolve = BaseFunction.get_call_type

    def get_call_type_remembered(self, context, args, kws):
        flags = ConfigStack.top_or_none()
        try:
            key = (self, context, get_local_target(context), tuple(args), tuple(sorted(kws.items())), flags)
            known = _resolved.get(key)
        except TypeError:  # an argument type that cannot be hashed: numba's own way, every time
            return resolve(self, context, args, kws)
        if known is not None:
            signature, impl_key = known
            self._impl_keys[signature.args] = impl_key
            return signature
        signature = resolve(self, context, args, kws)
        if signature is not None:
            # a copy of the flags: the key must not change if the compile's own flags do later
            kept = key[:-1] + (None if flags is None else flags.copy(),)
            _resolved[kept] = (signature, self._impl_keys[signature.args])
        return signature

    BaseFunction.get_call_type = get_call_type_remembered
    return True
