"""Helpers shared by the games' wrappers when they turn kernel arrays into DataFrames."""

import numpy as np
import polars as pl


def enum_column(names, codes: np.ndarray) -> pl.Series:
    """A dictionary-encoded string column (polars Enum) gathered from integer codes, so no
    per-row string is ever built."""
    levels = list(names)
    return pl.Series(levels, dtype=pl.Enum(levels)).gather(np.asarray(codes).astype(np.uint32))
