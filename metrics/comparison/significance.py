"""Paired significance tests over topics, multiple-comparison correction and pair classes
(docs/measures.md §6).

Every test is paired over topics: for systems a and b and one metric, the sample is the
per-topic difference d_t = x_t(a) - x_t(b). Topics where either score is missing are dropped.
All randomness goes through ``np.random.default_rng(seed)``; global random state is never used.

The tests themselves are in :mod:`metrics.comparison.paired` (re-exported here: :func:`paired_test`,
:func:`bootstrap_ci`); this module runs them on every pair of a campaign, corrects the p-values
and turns them into verdicts and pair classes.

Direction of an effect
----------------------
Each row of :func:`pair_tests` also carries ``direction``, the sign of the test's own location
statistic (Wilcoxon: R+ - R-; sign: n+ - n-; t and randomisation: the mean), turned into
"improvement" (+1) / "worsening" (-1) by the metric's direction, and ``delta``, the mean
oriented difference. A pair is improved significantly on a metric when its p-value
(corrected by default) is below ``level`` (0.05) and ``direction`` is +1.

Correction (a choice the papers leave open)
------------------------------------
Holm or Benjamini-Hochberg across all the pairs of the campaign, **per metric** by default
(``family="metric"``; ``family="all"`` pools the metrics). (a, b) and (b, a) are the same
two-sided test, so each unordered pair counts once in the family and both orders get its
corrected p-value. NaN p-values are left out of the family and stay NaN.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from metrics.comparison.paired import (
    DEFAULT_RESAMPLES,
    TESTS,
    ConfidenceInterval,
    TestResult,
    bootstrap_ci,
    check_test,
    paired_test,
    run_tests,
)
from metrics.comparison.profiles import CORRECTIONS, DEFAULT_CORRECTION, DEFAULT_TEST
from metrics.comparison.uir import DEFAULT_TOL, check_tol
from metrics.model.score_table import metric_directions, names_at, score_cube

__all__ = [
    "TestResult",
    "ConfidenceInterval",
    "TESTS",
    "CORRECTIONS",
    "PAIR_CLASSES",
    "paired_test",
    "bootstrap_ci",
    "correct_pvalues",
    "pair_tests",
    "pair_tests_cube",
    "pair_classes",
    "classes_of",
    "metric_verdicts",
    "verdict_codes",
    "VERDICTS",
]

PAIR_CLASSES: tuple[str, ...] = ("concordant", "opposite", "none", "worsening")
#: Verdict of one metric of one ordered pair (:func:`metric_verdicts`).
VERDICTS: tuple[str, ...] = ("improves", "worsens", "no significant difference")
DEFAULT_LEVEL = 0.05


def correct_pvalues(p, method: str = "holm") -> np.ndarray:
    """Adjust a family of p-values for multiple comparisons.

    Parameters
    ----------
    p : array_like
        p-values; NaN entries are left out of the family and returned as NaN.
    method : {"holm", "bonferroni", "bh", "none"}
        ``holm``: Holm's step-down, adj_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)).
        ``bonferroni``: min(1, m p) (m the p-values in the family).
        ``bh``: Benjamini-Hochberg (:func:`scipy.stats.false_discovery_control`).

    Returns
    -------
    ndarray
        Adjusted p-values, same shape as ``p``.
    """
    if method not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, got {method!r}")
    arr = np.asarray(p, dtype=np.float64)
    out = arr.copy()
    ok = ~np.isnan(arr)
    vals = arr[ok]
    if method == "none" or vals.size == 0:
        return out
    if np.any((vals < 0) | (vals > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    if method == "holm":
        m = vals.size
        order = np.argsort(vals, kind="stable")
        adj = np.minimum(1.0, (m - np.arange(m)) * vals[order])
        adj = np.maximum.accumulate(adj)
        res = np.empty(m)
        res[order] = adj
    elif method == "bonferroni":
        res = np.minimum(1.0, vals.size * vals)
    else:
        res = stats.false_discovery_control(vals, method="bh")
    out[ok] = res
    return out


def pair_tests(
    table: pd.DataFrame,
    metrics: Sequence[str],
    test: str = DEFAULT_TEST,
    correction: str = DEFAULT_CORRECTION,
    seed=0,
    n_resamples: int = DEFAULT_RESAMPLES,
    systems: Sequence[str] | None = None,
    directions: Mapping[str, int] | None = None,
    family: str = "metric",
    tol: float = DEFAULT_TOL,
) -> pd.DataFrame:
    """Paired test of every ordered pair of systems on every metric, vectorised over pairs.

    Parameters
    ----------
    table : DataFrame
        Score table.
    metrics : sequence of str
    test : {"wilcoxon", "t", "sign", "randomization"}, default "wilcoxon"
    correction : {"holm", "bh", "none"}, default "holm"
    seed : int, default 0
        Seed of the randomisation test (one sign matrix shared by all pairs).
    n_resamples : int, default 10000
    systems : sequence of str, optional
    directions : mapping metric -> +1 / -1, optional
    family : {"metric", "all"}, default "metric"
        Correction family: the unordered pairs of one metric, or of all metrics together.
    tol : float, default 1e-9
        Per-topic differences with |d| <= ``tol`` are ties (exact zeros), as in UIR.

    Returns
    -------
    DataFrame
        One row per (ordered pair, metric): ``system_a, system_b, metric, delta`` (mean oriented
        difference a - b), ``direction`` (+1 improvement, -1 worsening, 0), ``statistic``,
        ``pvalue``, ``pvalue_corrected``, ``n`` (topics used). Rows are ordered by system_a,
        system_b (system order), then metric.
    """
    check_test(test)
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, got {correction!r}")
    if family not in ("metric", "all"):
        raise ValueError(f"family must be 'metric' or 'all', got {family!r}")
    metrics = [str(m) for m in metrics]
    cube = score_cube(table, metrics, systems=systems)
    return pair_tests_cube(cube, directions, test, correction, seed, n_resamples, family, tol)


#: pairs x topics per chunk of :func:`pair_tests_cube` (arrays of 256 KB, kept in the cache)
_PAIR_CELLS = 1 << 15
#: ... for the randomisation test, whose sign vectors are drawn once per chunk
_RANDOMIZATION_CELLS = 2_000_000


def pair_tests_cube(cube, directions: Mapping[str, int] | None = None, test: str = DEFAULT_TEST,
                    correction: str = DEFAULT_CORRECTION, seed=0,
                    n_resamples: int = DEFAULT_RESAMPLES, family: str = "metric",
                    tol: float = DEFAULT_TOL) -> pd.DataFrame:
    """:func:`pair_tests` on a ready :class:`~metrics.model.score_table.ScoreCube`."""
    check_test(test)
    tol = check_tol(tol)
    dirs = np.asarray(metric_directions(cube.metrics, directions), dtype=np.float64)
    S, T, M = cube.values.shape
    iu, ju = np.triu_indices(S, k=1)
    n_up = iu.size
    stat = np.full((n_up, M), np.nan)
    pval = np.full((n_up, M), np.nan)
    loc = np.full((n_up, M), np.nan)
    delta = np.full((n_up, M), np.nan)
    n_used = np.zeros((n_up, M), dtype=np.int64)
    rng = np.random.default_rng(seed)
    # pairs per chunk: arrays of 256 KB (kept in the cache); the randomisation test draws its
    # sign vectors once per chunk, so its chunks keep the size its p-values were drawn with
    cells = _RANDOMIZATION_CELLS if test == "randomization" else _PAIR_CELLS
    step = max(1, cells // max(1, T))
    for m in range(M):
        X = cube.values[:, :, m]
        for r0 in range(0, n_up, step):
            sl = slice(r0, min(n_up, r0 + step))
            d = X[iu[sl]] - X[ju[sl]]
            s, p, lc, nu = run_tests(d, test, rng, int(n_resamples), tol)
            stat[sl, m], pval[sl, m], loc[sl, m], n_used[sl, m] = s, p, lc, nu
            with np.errstate(invalid="ignore"):
                delta[sl, m] = np.nanmean(d, axis=1) if d.size else np.nan
    if family == "metric":
        padj = (np.column_stack([correct_pvalues(pval[:, m], correction) for m in range(M)])
                if M else pval)
    else:
        padj = correct_pvalues(pval.ravel(), correction).reshape(pval.shape)
    direction = np.sign(loc) * dirs[None, :]
    direction = np.where(np.isnan(direction), 0.0, direction)
    # mirror: (j, i) has the opposite differences
    if test == "sign":
        # statistic n+ of (j, i) is n- of (i, j) = n+ - balance
        stat_rev = stat - loc
    elif test == "wilcoxon":
        stat_rev = stat  # min(R+, R-) is symmetric
    else:
        stat_rev = -stat
    A = np.concatenate([iu, ju])
    B = np.concatenate([ju, iu])
    cols = {
        "a": np.repeat(A, M),
        "b": np.repeat(B, M),
        "m": np.tile(np.arange(M), 2 * n_up),
        "delta": np.concatenate([delta * dirs, -delta * dirs]).ravel(),
        "direction": np.concatenate([direction, -direction]).ravel().astype(np.int64),
        "statistic": np.concatenate([stat, stat_rev]).ravel(),
        "pvalue": np.concatenate([pval, pval]).ravel(),
        "pvalue_corrected": np.concatenate([padj, padj]).ravel(),
        "n": np.concatenate([n_used, n_used]).ravel(),
    }
    order = np.lexsort((cols["m"], cols["b"], cols["a"]))  # (a, b, m) keys are unique
    cols = {k: v[order] for k, v in cols.items()}
    out = pd.DataFrame({
        "system_a": names_at(cube.systems, cols["a"]),
        "system_b": names_at(cube.systems, cols["b"]),
        "metric": names_at(cube.metrics, cols["m"]),
    })
    for c in ("delta", "direction", "statistic", "pvalue", "pvalue_corrected", "n"):
        out[c] = cols[c]
    out.attrs.update(test=test, correction=correction, family=family, seed=seed)
    return out


def metric_verdicts(tests: pd.DataFrame, level: float = DEFAULT_LEVEL,
                    corrected: bool = True) -> np.ndarray:
    """Verdict of every row (ordered pair, metric) of :func:`pair_tests`.

    ``"improves"`` when the p-value (corrected by default) is below ``level`` and ``direction``
    is +1, ``"worsens"`` when it is below ``level`` and ``direction`` is -1, ``"no significant
    difference"`` otherwise (a NaN p-value included). :func:`pair_classes` counts these verdicts,
    so the class of a pair and the verdict of each of its metrics never disagree.

    Returns
    -------
    ndarray of str
        One of :data:`VERDICTS` per row of ``tests``.
    """
    return np.asarray(VERDICTS, dtype=object)[verdict_codes(tests, level, corrected)]


def verdict_codes(tests: pd.DataFrame, level: float = DEFAULT_LEVEL,
                  corrected: bool = True) -> np.ndarray:
    """:func:`metric_verdicts` as positions in :data:`VERDICTS` (0 improves, 1 worsens, 2 no
    significant difference), for tables that build their text columns with one ``take``."""
    col = "pvalue_corrected" if corrected else "pvalue"
    with np.errstate(invalid="ignore"):
        sig = (tests[col].to_numpy(dtype=np.float64) < level)
    d = tests["direction"].to_numpy()
    return np.select([sig & (d > 0), sig & (d < 0)], [0, 1], 2).astype(np.int64)


def pair_classes(tests: pd.DataFrame, level: float = DEFAULT_LEVEL,
                 corrected: bool = True) -> pd.DataFrame:
    """Class of every ordered pair from its per-metric tests (docs/measures.md §6; JAIR 2011 §6.1).

    With the verdicts of :func:`metric_verdicts` ("improves" = p < ``level`` and direction +1,
    "worsens" = p < ``level`` and direction -1 on a metric):

    * ``concordant``: at least one metric improves and none worsens;
    * ``opposite``: one metric improves and another worsens;
    * ``none``: no significant difference on any metric;
    * ``worsening`` (concordant worsening): otherwise, i.e. some metric worsens, none improves.

    A NaN p-value counts as not significant.

    Parameters
    ----------
    tests : DataFrame
        Output of :func:`pair_tests`.
    level : float, default 0.05
    corrected : bool, default True
        Use ``pvalue_corrected`` (else ``pvalue``).

    Returns
    -------
    DataFrame
        ``system_a, system_b, n_improved, n_worsened, pair_class``, pairs in the order of ``tests``.
    """
    verdict = metric_verdicts(tests, level, corrected)
    up = verdict == VERDICTS[0]
    down = verdict == VERDICTS[1]
    g = pd.DataFrame({"system_a": tests["system_a"], "system_b": tests["system_b"],
                      "up": up.astype(np.int64), "down": down.astype(np.int64)})
    agg = g.groupby(["system_a", "system_b"], sort=False).sum().reset_index()
    agg = agg.rename(columns={"up": "n_improved", "down": "n_worsened"})
    agg["pair_class"] = np.asarray(PAIR_CLASSES, dtype=object)[
        classes_of(agg["n_improved"].to_numpy(), agg["n_worsened"].to_numpy())]
    return agg


def classes_of(n_improved: np.ndarray, n_worsened: np.ndarray) -> np.ndarray:
    """The class of each pair (:func:`pair_classes`) from its numbers of metrics that improve
    and that worsen, as positions in :data:`PAIR_CLASSES`."""
    imp = np.asarray(n_improved) > 0
    wor = np.asarray(n_worsened) > 0
    return np.select([imp & ~wor, imp & wor, ~imp & ~wor], [0, 1, 2], 3).astype(np.int64)
