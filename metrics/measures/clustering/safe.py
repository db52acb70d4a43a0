"""The one safe division of the metric kernels."""

from __future__ import annotations

import numpy as np

__all__ = ["safe_div"]


def safe_div(num, den, empty: float) -> np.ndarray:
    """``num / den`` elementwise where ``den > 0``, and ``empty`` where it is not (an empty
    topic, cluster or class: the value the metric's definition gives that case)."""
    out = np.full(np.broadcast_shapes(np.shape(num), np.shape(den)), empty, dtype=np.float64)
    np.divide(num, den, out=out, where=np.asarray(den) > 0)
    return out
