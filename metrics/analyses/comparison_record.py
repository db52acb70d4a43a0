"""The record of the alpha-free part of the campaign comparison,
:func:`metrics.analyses.campaign_comparison.comparison_core`'s result."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.analyses.common import Correlation
from metrics.analyses.cross_testbed import BedsCore
from metrics.analyses.threshold import CurveBase
from metrics.comparison.curves import Curves
from metrics.comparison.uir import UIRMatrix

__all__ = ["ComparisonCore"]


@dataclass(frozen=True, eq=False)
class ComparisonCore:
    """The alpha- and threshold-independent part of :func:`compare`, computed once.

    Everything here is what takes time on a large campaign: the UIR matrix, the parametric UIR,
    the paired tests and pair classes, "beats for every alpha" and the crossing points of every
    pair (vectorised, :func:`metrics.comparison.combine.all_pairs_alpha`), the per-metric mean
    differences,
    the weakest-metric analysis, the per-system precision / recall means and the alpha-free part
    of the cross-test-bed prediction. :func:`comparison_at` adds the cheap part
    that depends on ``alpha`` (campaign F, Delta F, ranks, the "F_alpha(a) < F_alpha(b) although
    UIR > 0" series, the Delta F predictor) and on ``threshold`` (reference and improved
    systems). ``compare(...)`` is exactly ``comparison_at(comparison_core(...),
    alpha, threshold)``; a dashboard caches the core and redoes only ``comparison_at`` when alpha or
    the threshold moves. Treat it as read-only.

    Attributes
    ----------
    parameters : dict
        The alpha-free arguments (``precision, recall, metrics, directions, test, correction,
        average, tol, seed, level, n_resamples, parametric, n_systems, n_topics, testbeds``).
    systems : tuple of str
    uir_metrics : tuple of str
    curves : campaign F_alpha curves of the systems (alpha -> F in :func:`comparison_at`).
    pairs : DataFrame
        The ordered pairs with every alpha-free column of :attr:`CampaignComparison.pairs`
        (``f_a, f_b, delta_f`` are added by :func:`comparison_at`).
    ia, ib : ndarray
        System indices of ``pairs``' rows.
    uir : UIRMatrix
    tests : DataFrame or None
    pr_means : ndarray, shape (S, 2)
        Topic means of precision and recall.
    weakest_metric : Correlation
    beds : alpha-free cross-test-bed data, or None without test beds.
    curve_base : the alpha-free part of the UIR-threshold curve (UIR sorted once).
    """

    parameters: dict
    systems: tuple[str, ...]
    uir_metrics: tuple[str, ...]
    curves: Curves
    pairs: pd.DataFrame
    ia: np.ndarray
    ib: np.ndarray
    uir: UIRMatrix
    tests: pd.DataFrame | None
    pr_means: np.ndarray
    weakest_metric: Correlation
    beds: BedsCore | None = None
    curve_base: CurveBase | None = None
