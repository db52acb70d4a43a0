"""Engines other than the in-memory one (the Dask engine for campaigns larger than memory)."""
