"""The campaign comparison: :func:`comparison_core` (the alpha-free pairwise work, computed once),
:func:`comparison_at` (the cheap alpha / threshold step) and :func:`compare` (both); the core's
record, :class:`~metrics.analyses.comparison_record.ComparisonCore`, has a module of its own.

The analyses follow Amigó, Gonzalo, Artiles and Verdejo (2011), "Combining evaluation metrics
via the unanimous improvement ratio and its application to clustering tasks", JAIR 42 (§6-§7),
and the WePS paper "The unanimous improvement ratio" (Amigó, Artiles, Gonzalo). Choices the
papers leave open are listed in ``docs/measures.md``, "The comparison report":

* All pair analyses use **ordered** pairs (a, b), a != b, except Delta F vs UIR, which takes each
  unordered pair once, oriented so that Delta F = F(a) - F(b) >= 0 (a is the system with the
  higher campaign F_alpha; exact ties keep system order) -- the triangle of JAIR Fig. 5.
* The "F decreases although UIR > 0" series and Delta F use the campaign F at ``alpha`` of
  :func:`compare` and its ``average``.
* "Improves on every metric" (weakest-metric analysis, JAIR Fig. 7) means the mean oriented
  per-topic difference is > 0 for every UIR metric.
* Pair classes and per-metric verdicts come from the corrected p-values at ``level`` = 0.05
  (:mod:`metrics.comparison.significance`); with ``test="none"`` they are left empty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from metrics.analyses.common import (
    THRESHOLDS,
    check_alpha,
    dedupe,
    means,
    pearson,
    ranks,
    sub_cube,
    uir_metric_list,
)
from metrics.analyses.comparison_record import ComparisonCore
from metrics.analyses.cross_testbed import beds_core, beds_frame
from metrics.analyses.threshold import (
    class_arrays,
    threshold_base,
    threshold_curve,
    threshold_frame,
)
from metrics.comparison.alpha import all_pairs_alpha
from metrics.comparison.curves import check_average, curves_from_arrays
from metrics.comparison.parametric import pair_columns, parametric_all_pairs
from metrics.comparison.profiles import DEFAULT_PROFILE, get_profile, profile_of
from metrics.comparison.reference import reference_systems
from metrics.comparison.significance import (
    CORRECTIONS,
    DEFAULT_LEVEL,
    PAIR_CLASSES,
    TESTS,
    VERDICTS,
    classes_of,
    pair_tests_cube,
    verdict_codes,
)
from metrics.comparison.uir import (
    DEFAULT_THRESHOLD,
    DEFAULT_TOL,
    check_tol,
    uir_matrix_cube,
)
from metrics.compute_budget import require_pairs
from metrics.model.score_table import (
    metric_directions,
    names_at,
    score_cube,
    validate_score_table,
)
from metrics.reports.comparison_report import CampaignComparison

__all__ = ["ComparisonCore", "comparison_core", "comparison_at", "compare"]


def comparison_core(
    table: pd.DataFrame,
    precision: str,
    recall: str,
    test: str | None = None,
    correction: str | None = None,
    average: str = "macro",
    tol: float = DEFAULT_TOL,
    seed: int = 0,
    testbeds: Mapping[str, str] | None = None,
    metrics: Sequence[str] | None = None,
    directions: Mapping[str, int] | None = None,
    level: float = DEFAULT_LEVEL,
    n_resamples: int = 10_000,
    profile: str = DEFAULT_PROFILE,
    parametric: bool = True,
) -> ComparisonCore:
    """The alpha- and threshold-independent part of :func:`compare` (see :class:`ComparisonCore`).

    Parameters are those of :func:`compare` without ``alpha`` and ``threshold``.
    """
    prof = get_profile(profile)
    test = prof.test if test is None else test
    correction = prof.correction if correction is None else correction
    check_average(average)
    tol = check_tol(tol)
    if test not in TESTS + ("none",):
        raise ValueError(f"test must be one of {', '.join(TESTS + ('none',))}, got {test!r}")
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, got {correction!r}")
    if precision == recall:
        raise ValueError("precision and recall must be two different metrics")
    uir_metrics = uir_metric_list(precision, recall, metrics)
    table = validate_score_table(table)
    cube = score_cube(table, dedupe(uir_metrics + [precision, recall]))
    S = len(cube.systems)
    if S < 2:
        raise ValueError(f"compare needs at least two systems, got {S}")
    require_pairs(S, len(uir_metrics))  # every ordered pair, refused over the compute budget
    ucube = sub_cube(cube, uir_metrics)
    dirs = metric_directions(ucube.metrics, directions)
    X = ucube.oriented(dirs)

    # parametric UIR (first: a campaign too large for it is refused before any work), UIR
    param = parametric_all_pairs(X, tol) if parametric else None
    umat = uir_matrix_cube(ucube, tol, directions)

    # F_alpha curves, beats-for-all-alpha, crossings (all pairs at once)
    pr = sub_cube(cube, [precision, recall]).values
    curves = curves_from_arrays(pr[:, :, 0], pr[:, :, 1], average)
    allp = all_pairs_alpha(curves, average)
    beats = allp.beats
    pair_id = np.full((S, S), -1, dtype=np.int64)
    pair_id[allp.iu, allp.ju] = np.arange(allp.iu.size)
    pair_id[allp.ju, allp.iu] = np.arange(allp.iu.size)

    # pairs frame
    pairs = umat.to_dataframe()
    ia, ib = umat.pair_indices()  # umat's systems are the cube's
    pairs = pairs.assign(**(param_cols := pair_columns(param, ia, ib, len(uir_metrics))))
    pairs["beats_all_alpha"] = beats[ia, ib]
    # (a, b) and (b, a) share their (read-only) list of crossing points
    pairs["crossings"] = allp.crossings[pair_id[ia, ib]]

    tests = None
    if test != "none":
        tests = pair_tests_cube(ucube, directions, test, correction, seed, n_resamples, tol=tol)
        verdict = verdict_codes(tests, level=level)
        tests["verdict"] = names_at(VERDICTS, verdict)
        # the tests' rows are (a, b, metric) with the ordered pairs (a, b) in the order of the
        # pairs frame (both row-major in system order) and the metrics in uir_metrics' order:
        # each pair's M rows follow one another, a reshape joins them
        M = len(uir_metrics)
        by_pair = verdict.reshape(-1, M)
        n_up = (by_pair == 0).sum(axis=1)
        n_down = (by_pair == 1).sum(axis=1)
        pairs["pair_class"] = names_at(PAIR_CLASSES, classes_of(n_up, n_down))
        pairs["n_improved"] = n_up
        pairs["n_worsened"] = n_down
        p_adj = tests["pvalue_corrected"].to_numpy().reshape(-1, M)
        p_raw = tests["pvalue"].to_numpy().reshape(-1, M)
        sign = tests["direction"].to_numpy().reshape(-1, M)
        for mi, m in enumerate(uir_metrics):
            pairs[f"p_{m}"] = p_adj[:, mi]
            pairs[f"p_raw_{m}"] = p_raw[:, mi]
            pairs[f"direction_{m}"] = sign[:, mi]
            pairs[f"verdict_{m}"] = names_at(VERDICTS, by_pair[:, mi])
    else:
        pairs["pair_class"] = None
        pairs["n_improved"] = np.nan
        pairs["n_worsened"] = np.nan
        for m in uir_metrics:
            pairs[f"p_{m}"] = np.nan
            pairs[f"p_raw_{m}"] = np.nan
            pairs[f"direction_{m}"] = 0
            pairs[f"verdict_{m}"] = None
    # mean oriented per-topic difference over the topics both systems have
    mean_x = means(X)
    valid = ~np.isnan(X).any(axis=2)
    complete = valid.all(axis=1)
    mdelta = mean_x[ia] - mean_x[ib]
    for k in np.flatnonzero(~(complete[ia] & complete[ib])):
        i, j = ia[k], ib[k]
        both = valid[i] & valid[j]
        mdelta[k] = (X[i, both] - X[j, both]).mean(axis=0) if both.any() else np.nan
    for mi, name in enumerate(uir_metrics):
        pairs[f"delta_{name}"] = mdelta[:, mi]

    # weakest-metric improvement vs UIR
    improve_all = np.all(mdelta > 0, axis=1)
    wk = pairs.loc[improve_all, ["system_a", "system_b", "uir"]].copy()
    sub = mdelta[improve_all]
    wk.insert(2, "weakest_metric", np.asarray(uir_metrics, dtype=object)[np.argmin(sub, axis=1)]
              if len(sub) else [])
    wk.insert(3, "weakest_delta", sub.min(axis=1) if len(sub) else np.zeros(0))
    wk = wk.reset_index(drop=True)
    weakest = pearson(wk["weakest_delta"].to_numpy(), wk["uir"].to_numpy(), wk)

    beds = None
    if testbeds:
        beds = beds_core(cube, precision, recall, uir_metrics, testbeds, average, tol, directions,
                         parametric)

    col_order = ["system_a", "system_b", "uir", "n_a_better", "n_b_better", "n_tied", "n_biased",
                 "n_topics", *param_cols, "beats_all_alpha", "crossings",
                 "pair_class", "n_improved", "n_worsened"]
    for m in uir_metrics:
        col_order += [f"p_{m}", f"p_raw_{m}", f"delta_{m}", f"direction_{m}", f"verdict_{m}"]
    pairs = pairs[col_order]

    cls_arr, has_cls = class_arrays(pairs)
    curve_base = threshold_base(pairs["uir"].to_numpy(dtype=np.float64), cls_arr, has_cls,
                                 pairs["beats_all_alpha"].to_numpy(dtype=bool), THRESHOLDS)

    parameters = {
        "precision": precision, "recall": recall, "metrics": list(uir_metrics),
        "directions": dict(zip(uir_metrics, dirs, strict=True)),
        "test": test, "correction": correction, "average": average, "tol": tol, "seed": seed,
        "level": level, "n_resamples": n_resamples, "parametric": parametric, "n_systems": S,
        "n_topics": len(cube.topics),
        "testbeds": sorted(set(map(str, testbeds.values()))) if testbeds else None,
        "profile": prof.name,
    }
    return ComparisonCore(parameters, tuple(cube.systems), tuple(uir_metrics), curves, pairs,
                          ia, ib, umat, tests, means(pr), weakest, beds, curve_base)


def comparison_at(core: ComparisonCore, alpha: float = 0.5,
                  threshold: float = DEFAULT_THRESHOLD) -> CampaignComparison:
    """The cheap alpha / threshold step on a :class:`ComparisonCore`: campaign F, Delta F, ranks,
    reference and improved systems, the threshold curve, Delta F vs UIR and the alpha-dependent
    cross-test-bed counts. The core is not modified."""
    alpha = check_alpha(alpha)
    threshold = float(threshold)
    names = np.asarray(core.systems, dtype=object)
    S = names.size
    ia, ib = core.ia, core.ib
    f = core.curves.values([alpha])[:, 0]

    # shallow copies: with pandas' copy-on-write nothing done to them reaches the core's frames,
    # and the 159,600-row frames of 400 systems are not copied at every alpha / threshold
    pairs = core.pairs.copy(deep=False)
    at = pairs.columns.get_loc("beats_all_alpha")
    pairs.insert(at, "delta_f", f[ia] - f[ib])
    pairs.insert(at, "f_b", f[ib])
    pairs.insert(at, "f_a", f[ia])

    # systems frame: reference and improved systems under the profile's rule
    strict = profile_of(core.parameters).strict_improved
    refs = reference_systems(core.uir, threshold, strict)
    prm = core.pr_means
    systems = pd.DataFrame({
        "system": list(core.systems),
        "f_alpha": f,
        "precision": prm[:, 0],
        "recall": prm[:, 1],
        "rank": ranks(f),
        "reference_system": refs["reference_system"].to_numpy(),
        "reference_uir": refs["reference_uir"].to_numpy(),
        "improved_systems": refs["improved_systems"].to_numpy(),
    })
    systems["n_improved"] = [len(v) for v in systems["improved_systems"]]

    if core.curve_base is not None:
        u = pairs["uir"].to_numpy(dtype=np.float64)
        dfv = pairs["delta_f"].to_numpy(dtype=np.float64)
        with np.errstate(invalid="ignore"):
            curve = threshold_frame(core.curve_base, (u > 0) & (dfv < 0))
    else:
        curve = threshold_curve(pairs)

    # Delta F vs UIR: unordered pairs oriented with Delta F >= 0
    iu, ju = np.triu_indices(S, k=1)
    flip = (f[ju] > f[iu])
    a_idx = np.where(flip, ju, iu)
    b_idx = np.where(flip, iu, ju)
    dpts = pd.DataFrame({"system_a": names_at(names, a_idx), "system_b": names_at(names, b_idx),
                         "delta_f": f[a_idx] - f[b_idx], "uir": core.uir.uir[a_idx, b_idx]})
    delta_f_vs_uir = pearson(dpts["delta_f"].to_numpy(), dpts["uir"].to_numpy(), dpts)

    cross_tb = beds_frame(core.beds, THRESHOLDS, alpha) if core.beds is not None else None

    p = core.parameters
    parameters = {
        "precision": p["precision"], "recall": p["recall"], "metrics": list(p["metrics"]),
        "directions": dict(p["directions"]), "alpha": alpha, "threshold": threshold,
    }
    parameters.update({k: v for k, v in p.items() if k not in parameters})
    parameters["testbeds"] = list(p["testbeds"]) if p["testbeds"] is not None else None
    wk = core.weakest_metric.copy()
    tests = core.tests.copy(deep=False) if core.tests is not None else None
    return CampaignComparison(parameters, pairs, systems, curve, core.uir, tests, delta_f_vs_uir,
                              wk, cross_tb, tuple(core.uir_metrics))


def compare(
    table: pd.DataFrame,
    precision: str,
    recall: str,
    alpha: float = 0.5,
    threshold: float = DEFAULT_THRESHOLD,
    test: str | None = None,
    correction: str | None = None,
    average: str = "macro",
    tol: float = DEFAULT_TOL,
    seed: int = 0,
    testbeds: Mapping[str, str] | None = None,
    metrics: Sequence[str] | None = None,
    directions: Mapping[str, int] | None = None,
    level: float = DEFAULT_LEVEL,
    n_resamples: int = 10_000,
    profile: str = DEFAULT_PROFILE,
    parametric: bool = True,
) -> CampaignComparison:
    """Compare every pair of systems of a campaign (JAIR 2011 §4-§7; ``docs/measures.md``,
    "The comparison report").

    ``comparison_at(comparison_core(table, ...), alpha, threshold)``: a caller that varies
    ``alpha`` or ``threshold`` (the dashboard) keeps the core and calls :func:`comparison_at`.

    Parameters
    ----------
    table : DataFrame
        Score table ``system, topic, metric, value``.
    precision, recall : str
        The metric pair combined by F_alpha.
    alpha : float, default 0.5
        Weight of F_alpha for ranks, Delta F and the threshold curve.
    threshold : float, default 0.25
        UIR threshold of reference and improved systems (WePS paper §5) and of the LaTeX pairs
        table.
    test : {"wilcoxon", "t", "sign", "randomization", "none"}, optional
        Default: the profile's (``wilcoxon``).
    correction : {"holm", "bonferroni", "bh", "none"}, optional
        Default: the profile's (``holm``; ``none`` under ``jair2011``).
    average : {"macro", "micro"}, default "macro"
    tol : float, default 1e-9
        Tolerance of UIR and of the paired tests: differences within ``tol`` are ties.
    seed : int, default 0
        Seed of the randomisation test.
    testbeds : mapping topic -> bed, optional
        When given (at least two beds), :func:`cross_testbed_prediction` is added.
    metrics : sequence of str, optional
        Metrics of UIR and of the tests (default ``[precision, recall]``; at least two).
    directions : mapping metric -> +1 / -1, optional
    level : float, default 0.05
        Significance level of the pair classes.
    n_resamples : int, default 10000
        Randomisation test resamples.
    profile : {"default", "jair2011"}, default "default"
        The conventions of :mod:`metrics.comparison.profiles`: the default test and correction,
        and the rule of improved and reference systems (``UIR > threshold`` under jair2011,
        else ``>=``), which the systems table, the pairs' verdicts and the tie ranking follow.
    parametric : bool, default True
        False: ``uir_param`` NaN, no parametric predictor (docs/measures.md, "Parametric UIR").

    Returns
    -------
    CampaignComparison
    """
    check_average(average)
    alpha = check_alpha(alpha)
    core = comparison_core(table, precision, recall, test=test, correction=correction,
                           average=average, tol=tol, seed=seed, testbeds=testbeds,
                           metrics=metrics, directions=directions, level=level,
                           n_resamples=n_resamples, profile=profile, parametric=parametric)
    return comparison_at(core, alpha, threshold)

