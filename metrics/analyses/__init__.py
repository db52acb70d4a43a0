"""Campaign analyses built on UIR, F_alpha and paired tests, and the report that renders them.

One module per analysis (see ``docs/measures.md`` for each definition):

* :mod:`~metrics.analyses.comparison` -- :func:`compare`, :func:`comparison_core` and the
  alpha / threshold step: every ordered pair's UIR, parametric UIR, F_alpha crossings, paired
  tests, per-metric verdicts and class; Delta F vs UIR (JAIR 2011 Fig. 5); weakest-metric
  improvement vs UIR (JAIR Fig. 7);
* :mod:`~metrics.analyses.report` -- :class:`CampaignComparison`, the report (renders only);
* :mod:`~metrics.analyses.pair_report` -- one ordered pair's row as a typed record;
* :mod:`~metrics.analyses.rankings` -- rankings at alpha, rank moves (JAIR Table 2), per test bed;
* :mod:`~metrics.analyses.pair_topics` -- the per-topic view of a pair and its difference view;
* :mod:`~metrics.analyses.threshold` -- the UIR-threshold curve (JAIR Fig. 10);
* :mod:`~metrics.analyses.testbeds` -- cross-test-bed prediction (JAIR §7);
* :mod:`~metrics.analyses.common` -- shared helpers and the :class:`Correlation` record.
"""

from metrics.analyses.common import THRESHOLDS, Correlation
from metrics.analyses.comparison import ComparisonCore, compare, comparison_at, comparison_core
from metrics.analyses.pair_report import MetricVerdict, PairReport, pair_report, verdict_sentence
from metrics.analyses.pair_topics import pair_topics, topic_differences
from metrics.analyses.rankings import TestbedRankings, rank_moves, ranking, testbed_rankings
from metrics.analyses.report import CampaignComparison
from metrics.analyses.testbeds import PREDICTORS, cross_testbed_prediction
from metrics.analyses.threshold import threshold_curve

__all__ = [
    "CampaignComparison",
    "ComparisonCore",
    "Correlation",
    "MetricVerdict",
    "PairReport",
    "TestbedRankings",
    "compare",
    "comparison_at",
    "comparison_core",
    "cross_testbed_prediction",
    "pair_report",
    "pair_topics",
    "topic_differences",
    "rank_moves",
    "verdict_sentence",
    "ranking",
    "testbed_rankings",
    "threshold_curve",
    "PREDICTORS",
    "THRESHOLDS",
]
