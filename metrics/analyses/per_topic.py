"""The per-topic view of one pair of systems: both systems' scores, the raw differences and the
unanimous winner of every topic (JAIR 2011 §3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from metrics.comparison.uir import DEFAULT_TOL, check_tol
from metrics.model.score_table import metric_directions, score_cube

__all__ = ["pair_topics", "topic_differences", "WINNER_ORDER"]


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
        absent), with the UIR definitions of :mod:`metrics.comparison.uir`.
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
    winner = np.select([~valid, ge_ab & ge_ba, ge_ab, ge_ba], ["missing", "tied", "a", "b"],
                       "biased")
    out = pd.DataFrame({"topic": list(cube.topics)})
    for m, name in enumerate(cube.metrics):
        out[f"{name}_a"] = cube.values[ia, :, m]
        out[f"{name}_b"] = cube.values[ib, :, m]
    for m, name in enumerate(cube.metrics):
        out[f"delta_{name}"] = cube.values[ia, :, m] - cube.values[ib, :, m]
    out["winner"] = winner
    return out


#: Order of the winner classes in the per-topic difference view: A's unanimous wins first, B's
#: last, so that the two outer blocks read as the two counts of UIR.
WINNER_ORDER = ("a", "tied", "biased", "b")


def topic_differences(
    topics: pd.DataFrame,
    metrics: Sequence[str],
    directions: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """The per-topic differences of a pair in the order of the difference view
    (``docs/measures.md``, "Per-topic view"; the dashboard draws it when topics are many).

    Parameters
    ----------
    topics : DataFrame
        The output of :func:`pair_topics` for the same ``metrics``.
    metrics : sequence of str
    directions : mapping metric -> +1 / -1, optional
        As for :func:`pair_topics` (default: the registry's).

    Returns
    -------
    DataFrame
        One row per topic with every score present (``winner != "missing"``): ``topic``,
        ``winner``, ``oriented_<metric>`` = d_m * (x_m(a) - x_m(b)) with d_m = +1 for a
        higher-is-better metric and -1 otherwise (> 0: a is better on m), ``mean_oriented`` =
        their mean, and ``position`` = 0, 1, ... in display order: winner class in
        :data:`WINNER_ORDER` (a >=_forall b, tied, biased, b >=_forall a), then
        ``mean_oriented`` from largest to smallest (to 12 decimals), then topic name. Sorted by
        ``position``.
    """
    metrics = [str(m) for m in metrics]
    signs = np.asarray(metric_directions(metrics, directions), dtype=np.float64)
    keep = topics["winner"].to_numpy() != "missing"
    df = topics.loc[keep]
    raw = np.column_stack([df[f"delta_{m}"].to_numpy(dtype=np.float64) for m in metrics]) \
        if metrics else np.zeros((len(df), 0))
    oriented = raw * signs
    mean = oriented.mean(axis=1) if metrics else np.zeros(len(df))
    cls = pd.Categorical(df["winner"], categories=list(WINNER_ORDER)).codes
    names = df["topic"].astype(str).to_numpy()
    # rounded so that equal means computed in a different order tie (then by name)
    order = np.lexsort((names, -np.round(mean, 12), cls))
    out = pd.DataFrame({"topic": names[order], "winner": df["winner"].to_numpy()[order]})
    for k, m in enumerate(metrics):
        out[f"oriented_{m}"] = oriented[order, k]
    out["mean_oriented"] = mean[order]
    out["position"] = np.arange(len(out))
    return out
