"""Ranking with tie groups (docs/rankings.md).

* ``tie_ranking_400_systems``: :func:`metrics.comparison.tie_ranking.ranking_from_comparison` on the
  comparison of 400 systems x 60 topics (79,800 unordered pairs, Wilcoxon x 2 metrics): direct
  relation, cycles, closure, tie groups, rank intervals and the Hasse diagram, after the
  comparison; ratio = 1 s target / measured seconds (>= 1 meets the target).

``--quick`` (bench/run.py): 100 systems.
"""

from __future__ import annotations

from bench_compare import random_table
from timing import best_of, sized

from metrics.analyses import compare
from metrics.comparison.tie_ranking import ranking_from_comparison


def run() -> list[tuple[str, float, str]]:
    S = sized(400, 100)
    result = compare(random_table(S, 60), "precision", "recall", test="wilcoxon")
    secs = best_of(lambda: ranking_from_comparison(result), repeat=3)
    r = ranking_from_comparison(result)
    return [(f"tie_ranking_{S}_systems", 1.0 / secs,
             f"{secs:.3f} s (target <= 1 s) after compare on {S} systems x 60 topics; "
             f"{int(r.group.max())} groups, {int(r.direct.sum())} robust improvements, "
             f"{len(r.hasse)} Hasse edges, {len(r.cycles)} merged cycle(s)")]


if __name__ == "__main__":  # pragma: no cover
    for name, ratio, detail in run():
        print(f"RATIO {name} {ratio:.2f}    # {detail}")
