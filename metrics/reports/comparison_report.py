"""The report of a campaign comparison: :class:`CampaignComparison` holds what
:func:`metrics.analyses.compare` computed, once, and only renders it (``to_dataframe``,
``to_dict``, ``to_latex``, ``write``; ``pair`` picks one ordered pair's row)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from metrics.analyses.common import Correlation
from metrics.comparison.profiles import profile_of
from metrics.comparison.reference import robust_pairs
from metrics.comparison.tie_ranking import ranking_from_comparison
from metrics.comparison.uir import UIRMatrix
from metrics.reports.comparison_latex import comparison_latex
from metrics.reports.latex import LATEX_TOP
from metrics.reports.pair_report import PairReport, pair_report
from metrics.reports.table_output import write_table

__all__ = ["CampaignComparison"]


def _jsonable(v):
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, np.ndarray):
        return [_jsonable(x) for x in v.tolist()]
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return None if math.isnan(f) or math.isinf(f) else f
    if v is None or isinstance(v, (str, int)):
        return v
    if v is pd.NA or v is pd.NaT:
        return None
    return str(v)


def _records(df: pd.DataFrame | None) -> list[dict] | None:
    if df is None:
        return None
    return [_jsonable(r) for r in df.to_dict(orient="records")]



@dataclass(frozen=True, eq=False)
class CampaignComparison:
    """Everything :func:`compare` computed, once; the methods only render.

    Attributes
    ----------
    parameters : dict
        The arguments of :func:`compare`.
    pairs : DataFrame
        One row per ordered pair (the columns of ``pairs.csv``): ``system_a, system_b, uir,
        n_a_better, n_b_better, n_tied, n_biased, n_topics, uir_param, f_a, f_b, delta_f,
        beats_all_alpha, crossings`` (list of alphas), ``pair_class``, ``n_improved,
        n_worsened`` and, per metric, ``p_<metric>`` (corrected p-value), ``p_raw_<metric>`` and
        ``delta_<metric>`` (mean oriented difference), ``direction_<metric>`` (+1 / -1 / 0, the
        sign of the test's location statistic turned by the metric's direction) and
        ``verdict_<metric>`` (:data:`metrics.comparison.significance.VERDICTS`; None without a
        test).
    systems : DataFrame
        ``system, f_alpha, precision, recall, rank, reference_system, reference_uir,
        improved_systems`` (list), ``n_improved``.
    threshold_curve : DataFrame
        See :func:`threshold_curve`.
    uir : UIRMatrix
    tests : DataFrame or None
        :func:`metrics.comparison.significance.pair_tests` output (None with ``test="none"``).
    delta_f_vs_uir : Correlation
        ``pearson_r``, ``pvalue``, ``n`` and ``points`` (DataFrame ``system_a, system_b,
        delta_f, uir``).
    weakest_metric : Correlation
        ``pearson_r``, ``pvalue``, ``n`` and ``points`` (DataFrame ``system_a, system_b,
        weakest_metric, weakest_delta, uir``).
    cross_testbed : DataFrame or None
        :func:`cross_testbed_prediction` output when test beds were given.
    """

    parameters: dict
    pairs: pd.DataFrame
    systems: pd.DataFrame
    threshold_curve: pd.DataFrame
    uir: UIRMatrix
    tests: pd.DataFrame | None
    delta_f_vs_uir: Correlation
    weakest_metric: Correlation
    cross_testbed: pd.DataFrame | None = None
    uir_metrics: tuple[str, ...] = field(default=())

    def robust_pairs(self) -> pd.DataFrame:
        """The ordered pairs (a, b) where a improves b under the comparison's profile (UIR >=
        threshold, or > under jair2011: :func:`metrics.comparison.reference.improves`), by UIR
        then Delta F, descending."""
        p = self.parameters
        return robust_pairs(self.pairs, float(p["threshold"]), profile_of(p).strict_improved)

    def pair(self, a: str, b: str) -> PairReport:
        """Everything the report says about the ordered pair (a, b), as one typed record
        (:func:`metrics.reports.pair_report.pair_report`)."""
        return pair_report(self, a, b)

    # -- rendering -----------------------------------------------------------------------------

    def to_dataframe(self) -> pd.DataFrame:
        """The pairs table (a copy)."""
        return self.pairs.copy()

    def to_dict(self) -> dict:
        """JSON-serialisable dict of every result (NaN as None)."""
        def corr(c: Correlation) -> dict:
            return {"pearson_r": _jsonable(c.pearson_r), "pvalue": _jsonable(c.pvalue),
                    "n": int(c.n), "points": _records(c.points)}

        return {
            "parameters": _jsonable(self.parameters),
            "systems": _records(self.systems),
            "pairs": _records(self.pairs),
            "threshold_curve": _records(self.threshold_curve),
            "delta_f_vs_uir": corr(self.delta_f_vs_uir),
            "weakest_metric": corr(self.weakest_metric),
            "tests": _records(self.tests),
            "cross_testbed": _records(self.cross_testbed),
        }

    def csv_tables(self) -> dict[str, pd.DataFrame]:
        """The tables :meth:`write` writes, by file stem: ``pairs``, ``systems``,
        ``threshold_curve``, ``tests`` (with a test), ``delta_f_vs_uir``, ``weakest_metric``,
        ``cross_testbed`` (with test beds)."""
        tables = {"pairs": self.pairs, "systems": self.systems,
                  "threshold_curve": self.threshold_curve, "tests": self.tests,
                  "delta_f_vs_uir": self.delta_f_vs_uir.points,
                  "weakest_metric": self.weakest_metric.points,
                  "cross_testbed": self.cross_testbed}
        return {k: v for k, v in tables.items() if v is not None}

    def summary(self) -> dict:
        """The contents of ``summary.json``: parameters, sizes and the two correlations (Pearson
        r and its two-sided p-value)."""
        return {
            "parameters": _jsonable(self.parameters),
            "n_systems": len(self.systems),
            "n_pairs": len(self.pairs),
            "delta_f_vs_uir_pearson_r": _jsonable(self.delta_f_vs_uir.pearson_r),
            "weakest_metric_pearson_r": _jsonable(self.weakest_metric.pearson_r),
            "delta_f_vs_uir_pvalue": _jsonable(self.delta_f_vs_uir.pvalue),
            "weakest_metric_pvalue": _jsonable(self.weakest_metric.pvalue),
        }

    def ranking(self):
        """The ranking with tie groups of this comparison
        (:func:`metrics.comparison.tie_ranking.ranking_from_comparison`)."""
        return ranking_from_comparison(self)

    def to_latex(self, max_pairs: int | None = 40, level: float = 0.05,
                 top: int | None = LATEX_TOP, ranking: bool = True,
                 files: tuple[str, str] = ("systems.csv", "ranking.csv")) -> str:
        """:func:`metrics.reports.comparison_latex.comparison_latex` of this comparison."""
        return comparison_latex(self, max_pairs, level, top, ranking, files)

    def write(self, out_dir, latex: bool = False) -> list[Path]:
        """Write :meth:`csv_tables` as CSV through the output policy
        (:mod:`metrics.reports.table_output`: formulas neutralised, lists ``;``-separated),
        ``summary.json`` and, with ``latex=True``, ``report.tex``. Returns the paths written.
        (``unanimity compare --out`` writes the bundle instead: :mod:`metrics.reports.bundle`.)"""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        for name, df in self.csv_tables().items():
            path = out / f"{name}.csv"
            write_table(df, path)
            written.append(path)
        path = out / "summary.json"
        path.write_text(json.dumps(self.summary(), indent=2) + "\n", encoding="utf-8")
        written.append(path)
        if latex:
            path = out / "report.tex"
            path.write_text(self.to_latex(), encoding="utf-8")
            written.append(path)
        return written
