"""How sure is each verdict of a comparison: the bootstrap over topics of its UIR, parametric UIR,
Delta F_alpha and ranks (docs/uncertainty.md).

:func:`bootstrap_comparison` resamples the topics of a finished
:class:`~metrics.reports.comparison_report.CampaignComparison` (paired, stratified by test bed,
seeded: :mod:`metrics.comparison.bootstrap`) and returns a :class:`BootstrapResult`;
:func:`with_bootstrap` puts its intervals into the comparison's tables:

* ``pairs``: ``uir_low, uir_high`` (after ``uir``), ``uir_param_low, uir_param_high`` (after
  ``uir_param``; NaN when parametric UIR was left out), ``delta_f_low, delta_f_high`` (after
  ``delta_f``);
* ``systems``: ``rank_ci_low, rank_ci_high``, the simultaneous rank confidence set by campaign
  F_alpha (:mod:`metrics.comparison.rank_confidence`), which ``ranking.csv`` carries next to the
  partial order's interval ``rank_low, rank_high``;
* ``parameters["bootstrap"]``: resamples, seed, confidence, strata, stepdown steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from metrics.analyses.common import dedupe, sub_cube
from metrics.comparison.bootstrap import (
    PairIntervals,
    check_confidence,
    delta_f_intervals,
    parametric_intervals,
    resample_counts,
    resample_indices,
    resampled_f,
    topic_strata,
    uir_intervals,
)
from metrics.comparison.rank_confidence import (
    RankConfidence,
    contributions,
    rank_confidence_sets,
)
from metrics.model.score_table import score_cube, validate_score_table
from metrics.reports.comparison_report import CampaignComparison

__all__ = ["BootstrapResult", "bootstrap_comparison", "with_bootstrap"]


@dataclass(frozen=True, eq=False)
class BootstrapResult:
    """Bootstrap intervals of a comparison (module docstring).

    Attributes
    ----------
    parameters : dict
        ``n_resamples, seed, confidence, stratified, n_strata, alpha, average``.
    systems : tuple of str
    uir, delta_f : PairIntervals
    uir_param : PairIntervals or None
        None when the comparison left parametric UIR out.
    ranks : RankConfidence
    """

    parameters: dict
    systems: tuple[str, ...]
    uir: PairIntervals
    uir_param: PairIntervals | None
    delta_f: PairIntervals
    ranks: RankConfidence


def bootstrap_comparison(table, result: CampaignComparison, n_resamples: int, seed: int = 0,
                         confidence: float = 0.95,
                         testbeds: Mapping[str, str] | None = None) -> BootstrapResult:
    """Bootstrap over topics of every pair's UIR, parametric UIR and Delta F_alpha and of every
    system's rank (docs/uncertainty.md).

    Parameters
    ----------
    table : DataFrame
        The score table the comparison was computed from.
    result : CampaignComparison
        Its metrics, directions, tolerance, alpha and average are used.
    n_resamples : int
        N >= 1 resamples.
    seed : int
        Seed of the resamples (and of the lattice rule of parametric UIR with four or more
        metrics).
    confidence : float, default 0.95
        Of each pair's interval and, jointly, of all the rank intervals.
    testbeds : mapping topic -> bed, optional
        Resample within each bed (stratified bootstrap).
    """
    confidence = check_confidence(confidence)
    p = result.parameters
    uir_metrics = list(result.uir_metrics or p["metrics"])
    cube = score_cube(validate_score_table(table),
                      dedupe(uir_metrics + [p["precision"], p["recall"]]),
                      systems=list(result.systems["system"]))
    strata = topic_strata(cube.topics, testbeds)
    idx = resample_indices(len(cube.topics), int(n_resamples), seed, strata)
    counts = resample_counts(idx, len(cube.topics))
    ucube = sub_cube(cube, uir_metrics)
    dirs = p["directions"]
    X = ucube.oriented([int(dirs.get(m, 1)) for m in uir_metrics])
    tol = float(p["tol"])
    uir = uir_intervals(X, counts, tol, confidence)
    param = (parametric_intervals(X, idx, tol, confidence, seed) if p.get("parametric", True)
             else None)
    pr = sub_cube(cube, [p["precision"], p["recall"]]).values
    f_boot = resampled_f(pr[:, :, 0], pr[:, :, 1], float(p["alpha"]), p["average"], counts)
    delta_f = delta_f_intervals(f_boot, confidence)
    y = contributions(pr[:, :, 0], pr[:, :, 1], float(p["alpha"]), p["average"])
    ranks = rank_confidence_sets(y, counts, confidence)
    params = {"n_resamples": int(n_resamples), "seed": int(seed), "confidence": confidence,
              "stratified": strata is not None,
              "n_strata": int(np.unique(strata).size) if strata is not None else 1,
              "alpha": float(p["alpha"]), "average": p["average"],
              "rank_method": "studentized max-t stepdown (Romano & Wolf 2005; Mogstad et al. 2024)",
              "stepdown_steps": ranks.steps}
    return BootstrapResult(params, tuple(cube.systems), uir, param, delta_f, ranks)


def _insert_after(frame, column: str, new: dict[str, np.ndarray]):
    at = frame.columns.get_loc(column) + 1
    for k, (name, values) in enumerate(new.items()):
        frame.insert(at + k, name, values)


def with_bootstrap(result: CampaignComparison, boot: BootstrapResult) -> CampaignComparison:
    """A copy of ``result`` with the intervals of ``boot`` in its pairs and systems tables and
    ``parameters["bootstrap"]`` (module docstring)."""
    names = list(boot.systems)
    pos = {s: i for i, s in enumerate(names)}
    ia = result.pairs["system_a"].map(pos).to_numpy(dtype=np.int64)
    ib = result.pairs["system_b"].map(pos).to_numpy(dtype=np.int64)
    pairs = result.pairs.copy()
    _insert_after(pairs, "uir", {"uir_low": boot.uir.low[ia, ib],
                                 "uir_high": boot.uir.high[ia, ib]})
    par = boot.uir_param
    nan = np.full(len(pairs), np.nan)
    _insert_after(pairs, "uir_param", {
        "uir_param_low": par.low[ia, ib] if par is not None else nan,
        "uir_param_high": par.high[ia, ib] if par is not None else nan})
    _insert_after(pairs, "delta_f", {"delta_f_low": boot.delta_f.low[ia, ib],
                                     "delta_f_high": boot.delta_f.high[ia, ib]})
    systems = result.systems.copy()
    si = systems["system"].map(pos).to_numpy(dtype=np.int64)
    _insert_after(systems, "rank", {"rank_ci_low": boot.ranks.low[si],
                                    "rank_ci_high": boot.ranks.high[si]})
    parameters = {**result.parameters, "bootstrap": dict(boot.parameters)}
    return replace(result, parameters=parameters, pairs=pairs, systems=systems)
