"""Game-agnostic engine parts shared by every game: RNG streams, data loading and
overrides, shard planning, the run folder writer and the local parallel runner."""
