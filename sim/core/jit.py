"""The one decorator for simulation kernels.

`jit` = numba's njit with an on-disk cache, the GIL released, and NRT reference counting
switched off. Kernels pass their state around as NamedTuples of arrays; with reference
counting on, every call and every field access increments and decrements each array's
count atomically (measured here: about 60 ns per call of a one-line helper, two thirds of
the whole game's run time). Kernels therefore never allocate: every buffer is made in
Python and passed in, and these functions only read and write it.
"""

from numba import njit

jit = njit(cache=True, nogil=True, _nrt=False)

# One-line helpers are inlined into their callers at numba IR level instead of being
# compiled on their own: numba's fixed cost per compiled function (about half a second,
# measured) dominates the cold compile otherwise.
jit_inline = njit(cache=True, nogil=True, _nrt=False, inline="always")
