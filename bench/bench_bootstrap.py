"""Bootstrap over topics and robustness to the aggregation rule (docs/uncertainty.md).

* ``bootstrap_400x60x2000``: :func:`metrics.analyses.uncertainty.bootstrap_comparison` on the
  comparison of 400 systems x 60 topics (two metrics, parametric UIR left out): 2,000 paired
  resamples, intervals of UIR and Delta F for the 79,800 unordered pairs and the simultaneous rank
  confidence sets (studentized max-t stepdown); ratio = 10 s target / measured seconds (>= 1
  meets the target).
* ``aggregation_400x60``: :func:`metrics.analyses.aggregation.aggregation_robustness` on the same
  comparison (seven rules, exact F_alpha range over alpha, Kendall tau, flipped pairs, Pareto
  front); ratio = 2 s target / measured seconds.

``--quick`` (bench/run.py): 100 systems, 500 resamples; one round.
"""

from __future__ import annotations

from bench_compare import random_table
from timing import best_of, quick, sized

from metrics.analyses import compare
from metrics.analyses.aggregation import aggregation_robustness
from metrics.analyses.uncertainty import bootstrap_comparison

#: Seconds allowed for the full bootstrap and for the aggregation analysis at 400 systems.
TARGET_BOOTSTRAP, TARGET_AGGREGATION = 10.0, 2.0


def run() -> list[tuple[str, float, str]]:
    S, N = sized(400, 100), sized(2000, 500)
    repeat = 1 if quick() else 2
    table = random_table(S, 60)
    result = compare(table, "precision", "recall", test="none", parametric=False)
    secs = best_of(lambda: bootstrap_comparison(table, result, N, seed=0), repeat=repeat)
    boot = bootstrap_comparison(table, result, N, seed=0)
    agg_secs = best_of(lambda: aggregation_robustness(table, result), repeat=repeat)
    agg = aggregation_robustness(table, result)
    widths = boot.ranks.high - boot.ranks.low
    return [
        (f"bootstrap_{S}x60x{N}", TARGET_BOOTSTRAP / secs,
         f"{secs:.2f} s (target <= {TARGET_BOOTSTRAP:g} s): {S * (S - 1) // 2:,} pairs' UIR and "
         f"Delta F intervals, rank sets in {boot.ranks.steps} stepdown steps, mean rank-set "
         f"width {widths.mean():.1f}"),
        (f"aggregation_{S}x60", TARGET_AGGREGATION / agg_secs,
         f"{agg_secs:.2f} s (target <= {TARGET_AGGREGATION:g} s): 7 rules, {len(agg.flips):,} "
         f"flipped pairs, {int(agg.ranks['pareto_means'].sum())} Pareto-optimal systems"),
    ]


if __name__ == "__main__":  # pragma: no cover
    for name, ratio, detail in run():
        print(f"RATIO {name} {ratio:.2f}    # {detail}")
