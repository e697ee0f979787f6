"""Copying a live game into a search bot's scratch state, inside a kernel.

Every game's search bot rolls a decision out on a scratch copy of the game, made once in Python
before the run and refreshed from the live state before each rollout. The refresh goes cell by
cell: a slice assignment would need numba's runtime, which the kernels run without
(sim/core/jit.py)."""

from .jit import jit_inline


@jit_inline
def copy_into(dst, src):
    """dst[...] = src, for two C-contiguous arrays of one shape and any number of dimensions."""
    flat_dst, flat_src = dst.reshape(-1), src.reshape(-1)
    for i in range(flat_src.shape[0]):
        flat_dst[i] = flat_src[i]
