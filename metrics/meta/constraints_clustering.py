"""Formal constraints of clustering metrics (docs/measures.md §8; Amigó et al. 2009, Moreno & Dias
2015).

Each constraint is a pair of toy clusterings of the same gold where one (``better``) is better
than the other (``worse``) by construction. A metric *agrees* with the constraint when it
scores ``better`` strictly better than ``worse`` (higher, or lower for lower-is-better
metrics such as ``vi``); a tie is a failure (the metric cannot see the difference).

In the pictures below each letter is an item of that gold class; brackets are system clusters.

cluster_homogeneity
    Splitting a cluster that mixes two classes into one cluster per class is better.
    worse  [AAABB] [CCC] [DDD]         better [AAA] [BB] [CCC] [DDD]
cluster_completeness
    Merging two clusters that hold only items of one class is better. Class A has a bigger
    cluster elsewhere, so that "best match" metrics (inverse purity, clustering F) cannot see
    the merge, as in Amigó et al.'s counterexamples.
    worse  [AAA] [A] [A] [BBB] [CCC]   better [AAA] [AA] [BBB] [CCC]
rag_bag
    Adding a misplaced item to a clean cluster is worse than adding it to a "rag bag" cluster
    that already mixes classes (B, C, D, F, E are singleton classes).
    worse  [AAAAE] [BCDF]              better [AAAA] [BCDFE]
size_vs_quantity
    A small error in a big cluster is better than many small errors in small clusters: from a
    cluster of n+1 = 5 items of A and four 2-item clusters of B, C, D, E, removing one item
    from the big cluster is better than splitting all four small clusters.
    worse  [AAAAA] [B][B] [C][C] [D][D] [E][E]     better [AAAA][A] [BB] [CC] [DD] [EE]
unbalanced_classes (Moreno & Dias 2015, after Amigó et al. 2013)
    An error on an item of the biggest class costs less than one on an item of a small class.
    Gold: A×10, B×3, C×3; ``worse`` puts one B item in A's cluster, ``better`` one A item in
    B's cluster.
    worse  [AAAAAAAAAA B] [BB] [CCC]   better [AAAAAAAAA] [A BBB] [CCC]

Besides single metrics, :func:`check_constraints` reports F_α combinations of metric pairs
(``F0.5(bcubed_precision,bcubed_recall)``), since the constraints are usually stated for a
pair's combination: Amigó et al. show that BCubed F satisfies the first four, Moreno & Dias
that only F_0.9 of BCubed precision and adapted recall (k = 3) also satisfies the fifth.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from metrics.comparison.combine import f_alpha
from metrics.measures.registry import available_metrics, direction, parse_metrics
from metrics.measures.scoring import score_clusterings

__all__ = ["CONSTRAINTS", "DEFAULT_COMBINATIONS", "check_constraints", "constraint_examples"]

CONSTRAINTS: tuple[str, ...] = ("cluster_homogeneity", "cluster_completeness", "rag_bag",
                                "size_vs_quantity", "unbalanced_classes")

#: (precision-like, recall-like, alpha) pairs whose F_α is checked too.
DEFAULT_COMBINATIONS: tuple[tuple[str, str, float], ...] = (
    ("bcubed_precision", "bcubed_recall", 0.5),
    ("bcubed_precision", "bcubed_adapted_recall", 0.9),
    ("reliability", "sensitivity", 0.5),
    ("purity", "inverse_purity", 0.5),
    ("pair_precision", "pair_recall", 0.5),
    ("homogeneity", "completeness", 0.5),
)


def _clusters(spec: str) -> list[str]:
    """``"[AAB] [C]"`` -> ["AAB", "C"]."""
    return [c.strip("[]") for c in spec.split()]


def _example(worse: str, better: str) -> tuple[list[str], list[int], list[int]]:
    """Gold classes and the cluster ids of both partitions, items matched by order of class.

    Items of one class are numbered in their order of appearance in ``worse``; in ``better``
    the k-th occurrence of a class letter is the same item as in ``worse``.
    """
    def items(spec):
        seen: dict[str, int] = {}
        out = []
        for ci, cl in enumerate(_clusters(spec)):
            for letter in cl:
                k = seen.get(letter, 0)
                seen[letter] = k + 1
                out.append(((letter, k), ci))
        return out

    w, b = items(worse), items(better)
    keys = [k for k, _ in w]
    if sorted(keys) != sorted(k for k, _ in b):
        raise ValueError("the two partitions must hold the same items")
    b_map = dict(b)
    gold = [letter for letter, _ in keys]
    return gold, [c for _, c in w], [b_map[k] for k in keys]


_EXAMPLES: dict[str, tuple[str, str]] = {
    "cluster_homogeneity": ("[AAABB] [CCC] [DDD]", "[AAA] [BB] [CCC] [DDD]"),
    "cluster_completeness": ("[AAA] [A] [A] [BBB] [CCC]", "[AAA] [AA] [BBB] [CCC]"),
    "rag_bag": ("[AAAAE] [BCDF]", "[AAAA] [BCDFE]"),
    "size_vs_quantity": ("[AAAAA] [B] [B] [C] [C] [D] [D] [E] [E]",
                         "[AAAA] [A] [BB] [CC] [DD] [EE]"),
    "unbalanced_classes": ("[AAAAAAAAAAB] [BB] [CCC]", "[AAAAAAAAA] [ABBB] [CCC]"),
}


def constraint_examples() -> dict[str, tuple[list[str], list[int], list[int]]]:
    """Per constraint: (gold class of each item, worse cluster ids, better cluster ids)."""
    return {name: _example(*_EXAMPLES[name]) for name in CONSTRAINTS}


def check_constraints(
    metrics: str | Sequence[str] | None = None,
    combinations: Sequence[tuple[str, str, float]] | None = DEFAULT_COMBINATIONS,
    tol: float = 1e-12,
) -> pd.DataFrame:
    """Score each metric on each constraint's toy pair and say whether it agrees.

    Parameters
    ----------
    metrics : str or sequence of str, optional
        Metrics to check (default: every registered metric).
    combinations : sequence of (metric, metric, alpha), optional
        Pairs whose F_α = 1 / (α/P + (1-α)/R) is checked too, as metric
        ``F{alpha}({p},{r})``; ``None`` or empty for none.
    tol : float
        A difference within ``tol`` is a tie (the metric does not agree).

    Returns
    -------
    DataFrame with columns ``metric, constraint, better, worse, agrees``: the scores of the
    better and the worse partition and whether ``direction × (better - worse) > tol``.
    """

    specs = parse_metrics(list(metrics)) if metrics is not None else parse_metrics(
        [m.name for m in available_metrics()])
    combos = list(combinations or [])
    needed = list(specs)
    for p, r, _ in combos:
        for spec in parse_metrics([p, r]):
            if spec not in needed:
                needed.append(spec)
    rows = []
    for name in CONSTRAINTS:
        gold, worse, better = constraint_examples()[name]
        s_w = score_clusterings(gold, worse, needed)
        s_b = score_clusterings(gold, better, needed)
        for spec in specs:
            key = str(spec)
            rows.append((key, name, s_b[key], s_w[key],
                         bool(direction(key) * (s_b[key] - s_w[key]) > tol)))
        for p, r, alpha in combos:
            kp, kr = (str(s) for s in parse_metrics([p, r]))
            fb = f_alpha(s_b[kp], s_b[kr], alpha)
            fw = f_alpha(s_w[kp], s_w[kr], alpha)
            rows.append((f"F{alpha:g}({kp},{kr})", name, fb, fw, bool(fb - fw > tol)))
    out = pd.DataFrame(rows, columns=["metric", "constraint", "better", "worse", "agrees"])
    out["better"] = out["better"].astype(np.float64)
    out["worse"] = out["worse"].astype(np.float64)
    return out
