"""Two graded ranking measures from their definitions: ERR and Sakai's Q-measure.

Both score one ranking of one topic from the relevance grades of the ranked documents (in rank
order, unjudged = 0) and, for the Q-measure, the grades of every judged document of the topic.
They are used by the formal-constraint checker (``docs/meta-evaluation.md`` §3), where the
paper's Table 6 discusses both; ``ir_measures`` has no provider for them on this installation.

ERR (expected reciprocal rank; Chapelle, Metzler, Zhang, Grinspan, CIKM 2009)
    A user scans down the ranking and stops at rank r with probability
    R_r = (2^g_r - 1) / 2^g_max (g_max the highest grade of the topic):

        ERR = sum_r (1 / r) R_r prod_{i < r} (1 - R_i)

Q-measure (Sakai, "New performance metrics based on multigrade relevance", NTCIR-4 2004;
Sakai & Kando 2008)
    With the gain of a document its grade, cg(r) the cumulative gain of the ranking at r,
    cig(r) that of the ideal ranking (every judged grade, highest first; constant past its end),
    count(r) the relevant documents in the first r, R the relevant documents of the topic and
    the persistence parameter beta (1 by default), the blended ratio
    BR(r) = (cg(r) + beta count(r)) / (cig(r) + beta r) and

        Q = (1 / R) sum_r isrel(r) BR(r)

    With binary grades BR(r) = (1 + beta) count(r) / (min(r, R) + beta r), the precision
    count(r) / r while r <= R: Q equals AP when every relevant document is ranked within the
    first R, and above R it discounts a late relevant document less than AP does.

Both are vectorised over the ranking (cumulative sums and products); an empty ranking or a
topic without relevant documents scores 0.
"""

from __future__ import annotations

import numpy as np

__all__ = ["err", "q_measure", "DEFAULT_Q_BETA"]

#: Sakai's default persistence parameter of the Q-measure.
DEFAULT_Q_BETA: float = 1.0


def err(grades_in_order: np.ndarray, max_grade: float) -> float:
    """ERR of one ranking (module docstring): ``grades_in_order[r - 1]`` is the grade of the
    document at rank r; ``max_grade`` the highest grade of the topic (0: the topic has no
    relevant document and ERR is 0)."""
    g = np.asarray(grades_in_order, dtype=np.float64)
    if g.size == 0 or max_grade <= 0:
        return 0.0
    stop = (np.exp2(np.clip(g, 0, None)) - 1.0) / np.exp2(float(max_grade))
    reach = np.concatenate(([1.0], np.cumprod(1.0 - stop)[:-1]))
    return float(np.sum(stop * reach / np.arange(1, g.size + 1)))


def q_measure(grades_in_order: np.ndarray, judged_grades: np.ndarray,
              beta: float = DEFAULT_Q_BETA) -> float:
    """Sakai's Q-measure of one ranking (module docstring): ``grades_in_order`` the grades of
    the ranked documents, ``judged_grades`` the grades of every judged document of the topic."""
    g = np.clip(np.asarray(grades_in_order, dtype=np.float64), 0, None)
    judged = np.clip(np.asarray(judged_grades, dtype=np.float64), 0, None)
    n_rel = int(np.count_nonzero(judged > 0))
    if g.size == 0 or n_rel == 0:
        return 0.0
    ideal = np.sort(judged[judged > 0])[::-1]
    ideal = np.concatenate((ideal, np.zeros(max(g.size - ideal.size, 0))))[: g.size]
    rel = g > 0
    ranks = np.arange(1, g.size + 1)
    blended = (np.cumsum(g) + beta * np.cumsum(rel)) / (np.cumsum(ideal) + beta * ranks)
    return float(np.sum(blended[rel]) / n_rel)
