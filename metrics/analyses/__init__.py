"""Campaign analyses built on UIR, F_alpha and paired tests.

One module per analysis (see ``docs/measures.md`` for each definition):

* :mod:`~metrics.analyses.campaign_comparison` -- :func:`compare`, :func:`comparison_core` and the
  alpha / threshold step :func:`comparison_at`: every ordered pair's UIR, parametric UIR, F_alpha
  crossings, paired tests, per-metric verdicts and class; Delta F vs UIR (JAIR 2011 Fig. 5);
  weakest-metric improvement vs UIR (JAIR Fig. 7); the result is a
  :class:`~metrics.reports.comparison_report.CampaignComparison`;
* :mod:`~metrics.analyses.comparison_record` -- :class:`ComparisonCore`, the record of the
  alpha-free part that a dashboard caches;
* :mod:`~metrics.analyses.rankings` -- rankings at alpha, rank moves (JAIR Table 2), per test bed;
* :mod:`~metrics.analyses.per_topic` -- the per-topic view of a pair and its difference view;
* :mod:`~metrics.analyses.threshold` -- the UIR-threshold curve (JAIR Fig. 10);
* :mod:`~metrics.analyses.cross_testbed` -- cross-test-bed prediction (JAIR §7);
* :mod:`~metrics.analyses.paper_tables` -- the papers' tables on demand;
* :mod:`~metrics.analyses.baselines` -- the baseline runs of the papers;
* :mod:`~metrics.analyses.token_type_ranks` -- token-level vs type-level rankings;
* :mod:`~metrics.analyses.metric_pair` -- a metric pair's words (precision-like / recall-like
  or first / second metric) and whether its metrics carry one signal;
* :mod:`~metrics.analyses.ranking_coverage` -- what the qrels judge and how deep and judged
  each run of a ranking campaign is;
* :mod:`~metrics.analyses.uncertainty` -- the bootstrap over topics of a comparison: intervals of
  UIR, parametric UIR and Delta F, simultaneous rank confidence sets (docs/uncertainty.md);
* :mod:`~metrics.analyses.aggregation` -- rankings under several aggregation rules, their Kendall
  tau, the pairs they flip and the Pareto front (docs/uncertainty.md);
* :mod:`~metrics.analyses.common` -- shared helpers and the :class:`Correlation` record.

The names below are exported lazily: a submodule is imported when one of its names is first
used, so that importing one analysis does not import them all.
"""

from typing import TYPE_CHECKING

from metrics.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from metrics.analyses.aggregation import AggregationRobustness, aggregation_robustness
    from metrics.analyses.campaign_comparison import compare, comparison_at, comparison_core
    from metrics.analyses.common import THRESHOLDS, Correlation
    from metrics.analyses.comparison_record import ComparisonCore
    from metrics.analyses.cross_testbed import PREDICTORS, cross_testbed_prediction
    from metrics.analyses.per_topic import pair_topics, topic_differences
    from metrics.analyses.rankings import TestbedRankings, rank_moves, ranking, testbed_rankings
    from metrics.analyses.threshold import threshold_curve
    from metrics.analyses.uncertainty import BootstrapResult, bootstrap_comparison, with_bootstrap

__all__ = [
    "PREDICTORS", "THRESHOLDS", "ComparisonCore", "Correlation", "TestbedRankings", "compare",
    "comparison_at", "comparison_core", "cross_testbed_prediction", "pair_topics", "rank_moves",
    "ranking", "testbed_rankings", "threshold_curve", "topic_differences",
    "AggregationRobustness", "aggregation_robustness", "BootstrapResult", "bootstrap_comparison",
    "with_bootstrap",
]
_WHERE = {
    **dict.fromkeys(["compare", "comparison_at", "comparison_core"],
                    "metrics.analyses.campaign_comparison"),
    "ComparisonCore": "metrics.analyses.comparison_record",
    **dict.fromkeys(["THRESHOLDS", "Correlation"], "metrics.analyses.common"),
    **dict.fromkeys(["PREDICTORS", "cross_testbed_prediction"], "metrics.analyses.cross_testbed"),
    **dict.fromkeys(["pair_topics", "topic_differences"], "metrics.analyses.per_topic"),
    **dict.fromkeys(["TestbedRankings", "rank_moves", "ranking", "testbed_rankings"],
                    "metrics.analyses.rankings"),
    "threshold_curve": "metrics.analyses.threshold",
    **dict.fromkeys(["AggregationRobustness", "aggregation_robustness"],
                    "metrics.analyses.aggregation"),
    **dict.fromkeys(["BootstrapResult", "bootstrap_comparison", "with_bootstrap"],
                    "metrics.analyses.uncertainty"),
}
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
