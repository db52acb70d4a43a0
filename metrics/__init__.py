"""Unanimity: clustering evaluation and the robustness of system comparisons (UIR).

Data flows one way: files -> :mod:`metrics.io` -> :class:`~metrics.model.campaign.Campaign` ->
score tables (:mod:`metrics.measures`) -> comparisons (:mod:`metrics.comparison`) and analyses
(:mod:`metrics.analyses`, :mod:`metrics.meta`) -> reports (:mod:`metrics.reports`) -> dashboard /
CLI.

The front door (``docs/api.md``): ``from metrics import load, evaluate, compare, uir, ...``.
Every name is imported lazily, on first use, so that ``import metrics`` (and
``unanimity --help``) stays fast.
"""

from typing import TYPE_CHECKING

from metrics.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from metrics.analyses.campaign_comparison import compare, comparison_at, comparison_core
    from metrics.analyses.paper_tables import paper_tables
    from metrics.comparison.combine import f_alpha
    from metrics.comparison.parametric import parametric_uir
    from metrics.comparison.profiles import PROFILES
    from metrics.comparison.reference import improved_systems, reference_systems
    from metrics.comparison.tie_ranking import TieRanking, ranking_from_comparison, tie_ranking
    from metrics.comparison.uir import UIRMatrix, UIRResult, uir, uir_matrix
    from metrics.engines.evaluation import evaluate
    from metrics.errors import CampaignAlignmentError, CampaignFormatError, UnanimityError
    from metrics.io.load import load, load_files
    from metrics.measures.registry import available_metrics, parse_metric
    from metrics.measures.scoring import score_clusterings
    from metrics.meta.meta_evaluation import MetaEvaluation, meta_evaluate
    from metrics.model.campaign import Campaign, Membership
    from metrics.reports.bundle import Bundle, open_bundle, write_comparison_bundle
    from metrics.reports.comparison_report import CampaignComparison
    from metrics.reports.pair_report import PairReport
    from metrics.reports.reported_checks import ReportedCheck, check_reported, read_reported

__version__ = "0.1.0"

_WHERE = {
    # campaigns
    "load": "metrics.io.load", "load_files": "metrics.io.load",
    "Campaign": "metrics.model.campaign", "Membership": "metrics.model.campaign",
    # measures
    "evaluate": "metrics.engines.evaluation",
    "score_clusterings": "metrics.measures.scoring",
    "available_metrics": "metrics.measures.registry", "parse_metric": "metrics.measures.registry",
    # comparison
    "f_alpha": "metrics.comparison.combine",
    "uir": "metrics.comparison.uir", "uir_matrix": "metrics.comparison.uir",
    "UIRResult": "metrics.comparison.uir", "UIRMatrix": "metrics.comparison.uir",
    "parametric_uir": "metrics.comparison.parametric",
    "improved_systems": "metrics.comparison.reference",
    "reference_systems": "metrics.comparison.reference",
    "tie_ranking": "metrics.comparison.tie_ranking",
    "ranking_from_comparison": "metrics.comparison.tie_ranking",
    "TieRanking": "metrics.comparison.tie_ranking",
    "PROFILES": "metrics.comparison.profiles",
    # analyses
    "compare": "metrics.analyses.campaign_comparison",
    "comparison_core": "metrics.analyses.campaign_comparison",
    "comparison_at": "metrics.analyses.campaign_comparison",
    "paper_tables": "metrics.analyses.paper_tables",
    "meta_evaluate": "metrics.meta.meta_evaluation",
    "MetaEvaluation": "metrics.meta.meta_evaluation",
    # reports
    "CampaignComparison": "metrics.reports.comparison_report",
    "PairReport": "metrics.reports.pair_report",
    "open_bundle": "metrics.reports.bundle", "write_comparison_bundle": "metrics.reports.bundle",
    "Bundle": "metrics.reports.bundle",
    "check_reported": "metrics.reports.reported_checks",
    "read_reported": "metrics.reports.reported_checks",
    "ReportedCheck": "metrics.reports.reported_checks",
    # errors
    "UnanimityError": "metrics.errors", "CampaignFormatError": "metrics.errors",
    "CampaignAlignmentError": "metrics.errors",
}

__all__ = [
    "load", "load_files", "Campaign", "Membership",
    "evaluate", "score_clusterings", "available_metrics", "parse_metric",
    "f_alpha", "uir", "uir_matrix", "UIRResult", "UIRMatrix", "parametric_uir",
    "improved_systems", "reference_systems", "tie_ranking", "ranking_from_comparison",
    "TieRanking", "PROFILES",
    "compare", "comparison_core", "comparison_at", "paper_tables", "meta_evaluate",
    "MetaEvaluation",
    "CampaignComparison", "PairReport", "open_bundle", "write_comparison_bundle", "Bundle",
    "check_reported", "read_reported", "ReportedCheck",
    "UnanimityError", "CampaignFormatError", "CampaignAlignmentError",
]
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)
