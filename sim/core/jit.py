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
