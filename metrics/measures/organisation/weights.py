"""Document weights of an organisation: the first ``n`` positions carry a share ``W_n``.

Amigó, Gonzalo, Verdejo (SIGIR 2013, §3, "weighting"): the weight of position i is the
integral of c/x² between i - 1 + c and i + c, so that the whole ranking weighs 1 and the first
n positions weigh n / (n + c). Asking that share to be ``W_n`` gives

    c = n (1 - W_n) / W_n.

Documents on one priority level share the weight of the positions they occupy: a level holding
m occurrences after k earlier ones weighs ``c (1/(k + c) - 1/(k + m + c))``, split equally. The
unlimited tail after N prioritised occurrences weighs ``c / (N + c)``. Without a tail every
occurrence weighs ``1 / N`` (the parameters have no effect). See ``docs/organisation.md``, §3.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics.errors import UnanimityError
from metrics.measures.organisation._sorted import unique_int

__all__ = ["DEFAULT_N", "DEFAULT_W", "shift", "level_weights", "LevelWeights"]

#: The paper's ranking setting: the first 30 positions carry 80 % of the weight.
DEFAULT_N = 30
DEFAULT_W = 0.8


def shift(n: float, w: float) -> float:
    """The constant c = n (1 - W_n) / W_n of the weighting.

    Raises
    ------
    UnanimityError
        Unless n > 0 and 0 < w < 1.
    """
    if not (np.isfinite(n) and n > 0):
        raise UnanimityError(f"weighting: n must be a positive number, got {n}")
    if not (0 < w < 1):
        raise UnanimityError(f"weighting: w (the share W_n of the first n positions) must lie "
                             f"strictly between 0 and 1, got {w}")
    return float(n) * (1.0 - float(w)) / float(w)


@dataclass(frozen=True)
class LevelWeights:
    """Weights of one side (a run or the gold) of an organisation campaign.

    Attributes
    ----------
    occurrence : ndarray of float64, shape (n_occ,)
        Weight of every occurrence.
    level_total : ndarray of float64, shape (n_occ,)
        Weight of the whole level of each occurrence (its own level's share).
    tail : ndarray of float64, shape (n_topics,)
        Weight of the tail of each topic (0 without a tail).
    """

    occurrence: np.ndarray
    level_total: np.ndarray
    tail: np.ndarray


def level_weights(topic: np.ndarray, level: np.ndarray, n_topics: int, tail: bool,
                  n: float = DEFAULT_N, w: float = DEFAULT_W) -> LevelWeights:
    """Weights of occurrences given their topic and level (any order).

    Parameters
    ----------
    topic, level : ndarray of int, shape (n_occ,)
        Topic code and priority level (1 = highest) of each occurrence.
    n_topics : int
    tail : bool
        Whether an unlimited tail follows the levels.
    n, w : float
        The first ``n`` positions carry the share ``w`` of the weight (tail only).
    """
    topic = np.asarray(topic, dtype=np.int64)
    level = np.asarray(level, dtype=np.int64)
    per_topic = np.bincount(topic, minlength=n_topics).astype(np.float64)
    if topic.size == 0:
        return LevelWeights(np.zeros(0), np.zeros(0),
                            np.ones(n_topics) if tail else np.zeros(n_topics))
    key = topic * (int(level.max()) + 1) + level
    groups, inv, m = unique_int(key, return_inverse=True, return_counts=True)
    g_topic = groups // (int(level.max()) + 1)
    # occurrences of the same topic on earlier levels (groups are sorted by topic, then level)
    csum = np.cumsum(m) - m
    first = np.searchsorted(g_topic, g_topic, side="left")
    k = (csum - csum[first]).astype(np.float64)
    m = m.astype(np.float64)
    if tail:
        c = shift(n, w)
        g_weight = c * (1.0 / (k + c) - 1.0 / (k + m + c))
        tail_w = c / (per_topic + c)
    else:
        g_weight = m / per_topic[g_topic]
        tail_w = np.zeros(n_topics)
    return LevelWeights((g_weight / m)[inv], g_weight[inv], tail_w)
