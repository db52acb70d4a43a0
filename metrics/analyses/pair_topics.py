"""The per-topic view of one pair of systems: both systems' scores, the raw differences and the
unanimous winner of every topic (JAIR 2011 §3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from metrics.scores import metric_directions, score_cube
from metrics.uir import DEFAULT_TOL, check_tol

__all__ = ["pair_topics"]


def pair_topics(
    table: pd.DataFrame,
    a: str,
    b: str,
    metrics: Sequence[str],
    tol: float = DEFAULT_TOL,
    directions: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """Per-topic scores of two systems, for the per-topic view of a pair (``docs/measures.md``,
    "Per-topic view").

    Returns
    -------
    DataFrame
        One row per topic: ``topic``, ``<metric>_a`` and ``<metric>_b`` for each metric,
        ``delta_<metric>`` = raw x(a) - x(b), and ``winner``: ``"a"`` (a >=_forall b and not the
        reverse), ``"b"``, ``"tied"`` (both), ``"biased"`` (neither) or ``"missing"`` (a score is
        absent), with the UIR definitions of :mod:`metrics.uir`.
    """
    metrics = [str(m) for m in metrics]
    tol = check_tol(tol)
    cube = score_cube(table, metrics, systems=[a] if a == b else [a, b])
    X = cube.oriented(metric_directions(cube.metrics, directions))
    ia, ib = cube.system_index(a), cube.system_index(b)
    xa, xb = X[ia], X[ib]
    valid = ~(np.isnan(xa).any(axis=1) | np.isnan(xb).any(axis=1))
    with np.errstate(invalid="ignore"):
        ge_ab = np.all(xa + tol >= xb, axis=1) & valid
        ge_ba = np.all(xb + tol >= xa, axis=1) & valid
    winner = np.select([~valid, ge_ab & ge_ba, ge_ab, ge_ba], ["missing", "tied", "a", "b"], "biased")
    out = pd.DataFrame({"topic": list(cube.topics)})
    for m, name in enumerate(cube.metrics):
        out[f"{name}_a"] = cube.values[ia, :, m]
        out[f"{name}_b"] = cube.values[ib, :, m]
    for m, name in enumerate(cube.metrics):
        out[f"delta_{name}"] = cube.values[ia, :, m] - cube.values[ib, :, m]
    out["winner"] = winner
    return out
