"""Cross-test-bed prediction (JAIR 2011 §7, Figs. 11-13): how well UIR, parametric UIR and
Delta F measured on one test bed predict the pairs whose F_alpha order holds on every bed.

The work is split like :func:`metrics.analyses.comparison_core`: :func:`beds_core` holds the
alpha-free part (per bed, the F_alpha curves and the UIR scores sorted once) and
:func:`beds_frame` the counts at one alpha.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.analyses.common import THRESHOLDS, dedupe, sub_cube, uir_metric_list
from metrics.comparison.curves import check_average, curves_from_arrays
from metrics.comparison.parametric import parametric_matrix
from metrics.comparison.uir import DEFAULT_TOL, check_tol, uir_matrix_cube
from metrics.model.score_table import ScoreCube, metric_directions, score_cube

__all__ = ["cross_testbed_prediction", "beds_core", "beds_frame", "BedsCore", "PREDICTORS"]

#: The predictors compared, in output order.
PREDICTORS: tuple[str, ...] = ("uir", "uir_param", "delta_f")


def _bed_cubes(cube: ScoreCube, testbeds: Mapping[str, str]) -> dict[str, ScoreCube]:
    beds: dict[str, list[int]] = {}
    for t, name in enumerate(cube.topics):
        bed = testbeds.get(name)
        if bed is not None:
            beds.setdefault(str(bed), []).append(t)
    if len(beds) < 2:
        raise ValueError(
            "cross-test-bed prediction needs at least two test beds covering the topics; "
            f"got {sorted(beds)}"
        )
    return {
        bed: ScoreCube(cube.systems, tuple(cube.topics[t] for t in idx), cube.metrics,
                       cube.values[:, idx])
        for bed, idx in sorted(beds.items())
    }


@dataclass(frozen=True, eq=False)
class BedsCore:
    """Alpha-free part of the cross-test-bed prediction: per bed, the F_alpha curves, and the UIR
    and parametric-UIR scores of the off-diagonal ordered pairs sorted once (``order``), so that
    counting the pairs with a score >= t among any subset of pairs is a cumulative sum."""

    beds: tuple[str, ...]
    off: np.ndarray  # (S, S) bool
    curves: dict  # bed -> Curves
    scores: dict  # (bed, predictor) -> (sorted values without NaN, order into the off-diagonal)


def _sorted_scores(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = np.flatnonzero(~np.isnan(values))
    order = ok[np.argsort(values[ok], kind="stable")]
    return values[order], order


def _counts_at_least(sorted_vals: np.ndarray, order: np.ndarray, mask: np.ndarray,
                     thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every t: #{values >= t} and #{values >= t with mask} (NaN values never count)."""
    pos = np.searchsorted(sorted_vals, thresholds, side="left")
    n_sel = sorted_vals.size - pos
    hits = mask[order].astype(np.int64)
    suffix = np.concatenate([np.cumsum(hits[::-1])[::-1], [0]])
    return n_sel, suffix[pos]


def _delta_f_counts(f: np.ndarray, truth: np.ndarray, thresholds: np.ndarray):
    """#{(a, b), a != b : F(a) - F(b) >= t} and the same among ``truth``, for every t.

    F(b) - F(a) is exactly -(F(a) - F(b)) in floating point, so the ordered pairs' differences
    are the unordered ones and their negatives: two binary searches on one sorted half. The
    truth pairs (at most one order of each pair) are sorted on their own."""
    iu, ju = np.triu_indices(f.size, k=1)
    with np.errstate(invalid="ignore"):
        up = f[iu] - f[ju]
    up = np.sort(up[~np.isnan(up)])
    n_sel = (up.size - np.searchsorted(up, thresholds, side="left")) + np.searchsorted(
        up, -thresholds, side="right")
    with np.errstate(invalid="ignore"):
        tv = np.sort((f[:, None] - f[None, :])[truth])
    n_ok = tv.size - np.searchsorted(tv, thresholds, side="left")
    return n_sel, n_ok


def beds_core(cube: ScoreCube, precision: str, recall: str, uir_metrics: Sequence[str],
               testbeds: Mapping[str, str], average: str, tol: float, directions,
               parametric: bool = True) -> BedsCore:
    beds = _bed_cubes(cube, testbeds)
    S = len(cube.systems)
    off = ~np.eye(S, dtype=bool)
    curves, scores = {}, {}
    for bed, bc in beds.items():
        pr = sub_cube(bc, [precision, recall]).values
        curves[bed] = curves_from_arrays(pr[:, :, 0], pr[:, :, 1], average)
        uc = sub_cube(bc, uir_metrics)
        uir_b = uir_matrix_cube(uc, tol, directions).uir
        scores[(bed, "uir")] = _sorted_scores(np.asarray(uir_b, dtype=np.float64)[off])
        if parametric:
            par_b = parametric_matrix(uc.oriented(metric_directions(uc.metrics, directions)), tol)
            scores[(bed, "uir_param")] = _sorted_scores(np.asarray(par_b, dtype=np.float64)[off])
    return BedsCore(tuple(beds), off, curves, scores)


def beds_frame(core: BedsCore, thresholds: np.ndarray, alpha: float) -> pd.DataFrame:
    """The alpha step of the cross-test-bed prediction (see :func:`cross_testbed_prediction`)."""
    off = core.off
    f_bed = {bed: core.curves[bed].values([alpha])[:, 0] for bed in core.beds}
    truth = off.copy()
    for f in f_bed.values():
        with np.errstate(invalid="ignore"):
            truth &= f[:, None] > f[None, :]
    n_true = int(truth.sum())
    truth_off = truth[off]
    th = np.asarray(thresholds, dtype=np.float64)
    parts = []
    for bed in core.beds:
        f = f_bed[bed]
        for pred in PREDICTORS:
            if pred == "delta_f":
                n_sel, n_ok = _delta_f_counts(f, truth, th)
            elif (bed, pred) not in core.scores:   # parametric UIR left out
                continue
            else:
                sv, order = core.scores[(bed, pred)]
                n_sel, n_ok = _counts_at_least(sv, order, truth_off, th)
            with np.errstate(invalid="ignore", divide="ignore"):
                prec = np.where(n_sel > 0, n_ok / np.maximum(n_sel, 1), np.nan)
            rec = n_ok / n_true if n_true else np.full(th.size, np.nan)
            parts.append(pd.DataFrame({
                "predictor": pred, "reference_bed": bed, "threshold": th,
                "n_predicted": n_sel.astype(np.int64), "n_true": n_true,
                "n_correct": n_ok.astype(np.int64), "precision": prec, "recall": rec,
            }))
    return pd.concat(parts, ignore_index=True)


def cross_testbed_prediction(
    table: pd.DataFrame,
    precision: str,
    recall: str,
    testbeds: Mapping[str, str],
    thresholds: Sequence[float] | None = None,
    alpha: float = 0.5,
    average: str = "macro",
    tol: float = DEFAULT_TOL,
    metrics: Sequence[str] | None = None,
    directions: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """Precision and recall of UIR, parametric UIR and Delta F as predictors of results that hold
    in every test bed (JAIR 2011 §7; ``docs/measures.md``, "Cross-test-bed prediction").

    For each reference bed c and threshold t the predicted robust pairs are the ordered pairs
    (a, b), a != b, with UIR_c(a, b) >= t (``uir``), UIR_param,c(a, b) >= t (``uir_param``) or
    F_c(a) - F_c(b) >= t (``delta_f``). The truth is {(a, b) : F_b'(a) > F_b'(b) for every bed b'}
    (every bed, the reference one included, as in the JAIR paper). precision = |S and truth| / |S|
    (NaN for an empty prediction), recall = |S and truth| / |truth|.

    Parameters
    ----------
    table : DataFrame
        Score table.
    precision, recall : str
        The metric pair of F_alpha (and, by default, of UIR).
    testbeds : mapping topic -> bed
        Topics not in the mapping are left out; at least two beds are needed.
    thresholds : sequence of float, optional
        Default 0, 0.01, ..., 1 (used for all three predictors).
    alpha, average : F_alpha of the beds.
    tol : UIR tolerance.
    metrics : sequence of str, optional
        UIR metrics (default ``[precision, recall]``).
    directions : mapping, optional

    Returns
    -------
    DataFrame
        ``predictor, reference_bed, threshold, n_predicted, n_true, n_correct, precision, recall``.
    """
    check_average(average)
    tol = check_tol(tol)
    uir_metrics = uir_metric_list(precision, recall, metrics)
    cube = score_cube(table, dedupe(uir_metrics + [precision, recall]))
    th = THRESHOLDS if thresholds is None else np.asarray(thresholds, dtype=np.float64)
    core = beds_core(cube, precision, recall, uir_metrics, testbeds, average, tol, directions)
    return beds_frame(core, th, float(alpha))
